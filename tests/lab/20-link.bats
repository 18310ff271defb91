#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# Pulling cables: 'scripts/lab link N down|up' drops carrier on both ends of
# link N; from the host and from inside a VM.

load lab_helper

setup_file() { need_lab 2; }

setup() { skip_unless_lab; }

teardown() { restore_links; }

@test "link 1 down: rxe0 goes DOWN on both hosts, rxe1 stays ACTIVE; up: ACTIVE again" {
	run "$LAB" link 1 down
	assert_success
	run both 'wait_for 15 rxe_state_is rxe0 DOWN && rxe_state_is rxe1 ACTIVE && [ $(</sys/class/net/eth0/carrier) = 0 ]'
	assert_success
	run "$LAB" link 1 up
	assert_success
	run both 'wait_for 30 rxe_state_is rxe0 ACTIVE'
	assert_success
	run "$LAB" status
	assert_line --partial "link 1: cable up"
}

@test "rdmactl port sees the pulled cable on both hosts, and its return" {
	need_rdmactl
	"$LAB" link 1 down
	run both 'wait_for 15 rdmactl_state_is rxe0 DOWN && rdmactl_state_is rxe1 ACTIVE'
	assert_success
	"$LAB" link 1 up
	run both 'wait_for 30 rdmactl_state_is rxe0 ACTIVE'
	assert_success
}

@test "a test inside a VM pulls and restores a cable (scripts/lab link in the guest)" {
	run --separate-stderr on a 'scripts/lab link 2 down && cat /sys/class/net/eth1/carrier'
	assert_success
	assert_output 0
	# The other end lost carrier too.
	run --separate-stderr on b 'cat /sys/class/net/eth1/carrier'
	assert_output 0
	run --separate-stderr on b 'scripts/lab link 2 up && cat /sys/class/net/eth1/carrier'
	assert_success
	assert_output 1
	run --separate-stderr on a 'cat /sys/class/net/eth1/carrier'
	assert_output 1
}
