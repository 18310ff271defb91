#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# The lab itself: hosts, addresses, rxe devices, and the exact exit status
# and separate outputs of 'scripts/lab run'.

load lab_helper

setup_file() { need_lab 1; }

setup() { skip_unless_lab; }

@test "each VM is its own host with 198.18.n.1 (a) / 198.18.n.2 (b) on ethK" {
	run --separate-stderr on a 'hostname; ip -br -4 addr show dev eth0'
	assert_success
	assert_line --index 0 a
	assert_line --index 1 --regexp '^eth0 +UP +198\.18\.1\.1/24'
	run --separate-stderr on b 'hostname; ip -br -4 addr show dev eth0'
	assert_success
	assert_line --index 0 b
	assert_line --index 1 --regexp '^eth0 +UP +198\.18\.1\.2/24'
}

@test "one rxe device per link, rxeK on ethK, ACTIVE, on both hosts" {
	local h n links
	links=$(on a 'echo $LAB_LINKS')
	for h in a b; do
		run --separate-stderr on "$h" 'rdma link show'
		assert_success
		for n in $(seq "$links"); do
			assert_line "link rxe$((n - 1))/1 state ACTIVE physical_state LINK_UP netdev eth$((n - 1)) "
		done
	done
}

# Under host load the clocksource watchdog would move a guest to the HPET, an
# emulated device every clock read exits to (scripts/lab: tsc=reliable).
@test "each VM keeps the TSC as its clock, the watchdog off for it" {
	local h
	for h in a b; do
		run --separate-stderr on "$h" 'cat /sys/devices/system/clocksource/clocksource0/current_clocksource; tr " " "\n" </proc/cmdline | grep -x tsc=reliable'
		assert_success
		assert_line --index 0 tsc
		assert_line --index 1 tsc=reliable
	done
}

# scripts/lab: LAB_CPU, qemu64 unless set (TCG runs the guests faster on it than on max);
# 'lab status' names the model the lab was started with.
@test "each VM runs the vCPU model of LAB_CPU, qemu64 by default" {
	local h model
	model=$("$LAB" status | sed -n 's/^lab: up .* vCPU(s) per VM (\([^)]*\)),.*/\1/p')
	[ -n "$model" ] || fail "lab status names no vCPU model: $("$LAB" status)"
	[ "$model" = qemu64 ] || skip "this lab runs LAB_CPU=$model"
	for h in a b; do
		run --separate-stderr on "$h" 'grep -m1 "^model name" /proc/cpuinfo; grep -cw avx2 /proc/cpuinfo'
		assert_line --index 0 --regexp ': QEMU Virtual CPU version'
		assert_line --index 1 0
	done
}

@test "the checkout is the host's, read-only" {
	run --separate-stderr on a 'pwd; touch x 2>/dev/null || echo read-only'
	assert_success
	assert_line --index 0 "$TOP"
	assert_line --index 1 read-only
}

@test "run: exact exit status, stdout and stderr kept apart" {
	run --separate-stderr on b 'echo out; echo err >&2; exit 7'
	assert_equal "$status" 7
	assert_equal "$output" out
	assert_equal "$stderr" err
}

@test "run: the command starts as in a new bash: none of the agent's functions, variables or set -u" {
	# The guest runs each command in a fork of its agent (a new bash costs
	# ~0.1 s under TCG); what the agent defined must not show through.
	# SECONDS restarts at the fork: bash counts whole seconds, so it reads 0,
	# or 1 where a second's boundary fell between the fork and the echo (ci41
	# met that); the agent's own, if it showed through, is the agent's age,
	# several seconds by now (the guests booted before the first test).
	run --separate-stderr on a 'echo "[$#] [${d}${SPOOL}${verb}] [$-] [$HOSTNAME] [$((SECONDS <= 1))]"; type job net_reset nap 2>&1 | grep -c "not found"; case $0 in */jobs/*/cmd) echo file ;; *) echo "0=$0" ;; esac; no_such_command_here'
	assert_equal "$status" 127
	assert_line --index 0 "[0] [] [hB] [a] [1]"
	assert_line --index 1 3
	assert_line --index 2 file
	assert_regex "$stderr" '/jobs/[0-9.]+/cmd: line 1: no_such_command_here: command not found$'
}

@test "run: LAB_TIMEOUT ends the command and what it left behind (status 124)" {
	LAB_TIMEOUT=2 run --separate-stderr on a 'sleep 300 & sleep 301'
	assert_equal "$status" 124
	run --separate-stderr on a 'pgrep -x sleep || echo none'
	assert_output none
}

@test "usage errors say what is wrong" {
	run "$LAB" run c true
	assert_failure
	assert_output --partial "host must be a or b"
	run "$LAB" link 9 down
	assert_failure
	assert_output --partial "no link 9"
	run "$LAB" link 1 sideways
	assert_failure
	assert_output --partial "usage: lab link N down|up"
	run "$LAB" up
	assert_failure
	assert_output --partial "already up"
	LAB_CPU='max;x' run "$LAB" up
	assert_failure
	assert_output --partial "LAB_CPU must be a qemu -cpu model"
}

@test "shell: an interactive shell on a terminal, Ctrl-] leaves" {
	command -v script >/dev/null || skip "no script(1) to give the shell a terminal"
	local out=$BATS_TEST_TMPDIR/shell.out
	# script(1) gives 'lab shell' a terminal; the keys come from the
	# subshell, which waits for the answer (bounded) before Ctrl-].
	# shellcheck disable=SC2094 # it reads the output on purpose
	timeout 60 script -qec "$LAB shell b" /dev/null >"$out" 2>&1 < <(
		sleep 1
		printf 'echo SUM=$((6 * 7)) on $(hostname)\r'
		for _ in $(seq 300); do
			grep -q "SUM=42 on b" "$out" && break
			sleep 0.1
		done
		printf '\035'
	)
	run cat "$out"
	assert_output --partial "Connected to host b"
	assert_output --partial "SUM=42 on b"
	assert_output --partial "left b"
}
