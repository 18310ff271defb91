#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $stderr
# Write locks (issue 22, item 3): pfc and bond writes take the lock of every
# netdev they change before they read it (port set: tests/netns/port.bats).
# Another writer holding one (flock(1) plays it) is waited for, then named:
# "busy: pid N holds NETDEV (FILE)", exit 1, nothing sent.  A dry run, and
# --root, take no lock.
load ../helpers

DOUBLE=$TOP/build/dcb-double

setup() {
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	export DCB_DOUBLE_DEVS=eth9,eth8
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
	export RDMACTL_LOCK_DIR=$BATS_TEST_TMPDIR/lock RDMACTL_LOCK_WAIT=1
	mkdir -p "$RDMACTL_LOCK_DIR"
	HOLDER=""
}

teardown() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null || true
	[ -z "$HOLDER" ] || wait "$HOLDER" 2>/dev/null || true
}

dbl() { LD_PRELOAD=$DOUBLE/libdcbdouble.so "$RDMACTL" "$@"; }

# hold NETDEV: another writer holds NETDEV's lock (in this network namespace) until teardown.
hold() {
	local lock
	lock=$RDMACTL_LOCK_DIR/net$(stat -L -c %i /proc/self/ns/net).$1.lock
	# One process holds it (flock(1) would leave its child holding the lock when killed).
	perl -e 'use Fcntl ":flock"; open(my $f, "+>>", $ARGV[0]) or die; flock($f, LOCK_EX) or die;
		truncate($f, 0); syswrite($f, "$$\n"); open(my $h, ">", "$ARGV[0].held"); close($h); sleep 60' "$lock" 3>&- &
	HOLDER=$!
	while [ ! -e "$lock.held" ]; do sleep 0.02; done
	HELD_PID=$(cat "$lock")
}

@test "locks: pfc set on a netdev another writer holds: busy, named, nothing sent" {
	hold eth9
	run --separate-stderr dbl pfc set dev eth9 prio-pfc 3:on
	assert_failure 1
	[[ $stderr == "rdmactl: pfc: busy: pid $HELD_PID holds eth9 ($RDMACTL_LOCK_DIR/net"*".eth9.lock), still after 1 s; try again when it is done: Device or resource busy" ]] ||
		fail "$stderr"
	! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG" 2>/dev/null || fail "sent: $(cat "$DCB_DOUBLE_LOG")"
	# The dry run only reads: no lock, no wait.
	run dbl --dry-run pfc set dev eth9 prio-pfc 3:on
	assert_failure 4 # would change
	# The holder gone, the write goes through.
	kill "$HOLDER"
	wait "$HOLDER" 2>/dev/null || true
	HOLDER=""
	run dbl pfc set dev eth9 prio-pfc 3:on
	assert_success
	grep -q '^SET' "$DCB_DOUBLE_LOG" || fail "nothing sent: $(cat "$DCB_DOUBLE_LOG")"
}

@test "locks: pfc apply -f locks every device of the file; one held stops all of them" {
	hold eth8
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\n  - dev: eth8\n    prio-pfc: 3:on\n' >"$BATS_TEST_TMPDIR/f.yaml"
	run --separate-stderr dbl pfc apply -f "$BATS_TEST_TMPDIR/f.yaml"
	assert_failure 1
	[[ $stderr == *"busy: pid $HELD_PID holds eth8 "* ]] || fail "$stderr"
	! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG" 2>/dev/null || fail "sent: $(cat "$DCB_DOUBLE_LOG")"
}

@test "locks: bond create waits for a member's lock, then is refused before it reads or sends" {
	hold eth8
	run --separate-stderr "$RDMACTL" bond create bondlk0 mode active-backup members eth9,eth8
	assert_failure 1
	[[ $stderr == "rdmactl: bond: busy: pid $HELD_PID holds eth8 ("*"), still after 1 s; try again when it is done: Device or resource busy" ]] ||
		fail "$stderr"
	[ ! -e /sys/class/net/bondlk0 ]
	# Under --root nothing is written, so nothing is locked: the plan's refusal, at once.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx-lag" --dry-run bond create bondlk0 \
		mode active-backup members ens1f0np0,ens1f1np1
	[[ $stderr != *busy* ]] || fail "$stderr"
}

@test "gate: under --root every write is refused alike, whether or not anything differs; --dry-run plans" {
	local args verb
	for args in "port set ens1f0np0 mtu 9000" "port set ens1f0np0 mtu 1500" \
		"pfc set dev ens1f0np0 prio-pfc 3:on" "pfc apply dev ens1f0np0 profile roce-lossless" \
		"bond set bond0 miimon 100" "bond set bond0 miimon 250" \
		"bond create bond0 mode 802.3ad members ens1f0np0,ens1f1np1"; do
		verb=${args%% *}
		# shellcheck disable=SC2086 # the words are the arguments
		run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx-lag" $args
		[ "$status" = 1 ] || fail "$args: exit $status: $stderr"
		[ "$stderr" = "rdmactl: $verb: writes are refused under --root and --replay" ] || fail "$args: $stderr"
		[ -z "$output" ] || fail "$args: printed $output"
		# shellcheck disable=SC2086
		run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx-lag" --dry-run $args
		# 0: nothing would change; 4: something would.
		[ "$status" = 0 ] || [ "$status" = 4 ] || fail "--dry-run $args: exit $status: $stderr"
	done
	# A usage error is still one (exit 2), found before the gate.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx-lag" port set ens1f0np0
	[ "$status" = 2 ] || fail "exit $status: $stderr"
}
