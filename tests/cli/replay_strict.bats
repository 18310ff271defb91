#!/usr/bin/env bats
# strict replay (RDMACTL_REPLAY_STRICT, lib/seam/nl.h): read-only verbs on the fixtures use
# every recorded answer to what they ask, once; and a recording is checked whole when it loads
load ../helpers

# strict HOST VERB...: run VERB on HOST's bundle in strict "asked" mode (answers to requests
# the verb never asks are out of scope: a fixture is recorded for several verbs).
strict() {
	local host=$1
	shift
	RDMACTL_REPLAY_STRICT=asked run --separate-stderr "$RDMACTL" --root "$HOSTS/$host" "$@"
}

@test "strict replay: port, bond and pfc on the fixtures use what they ask, once" {
	local h v
	for h in cx6dx cx6dx-lag ab-2nic degraded clean-2port seed-gateway; do
		for v in port bond pfc; do
			[ "$h $v" != "clean-2port pfc" ] && [ "$h $v" != "seed-gateway pfc" ] || continue
			strict "$h" -j "$v"
			[ -z "$stderr" ] || fail "$h $v: $stderr"
			[ "$status" -eq 0 ] || fail "$h $v: exit $status"
		done
	done
	for h in cx6dx degraded; do
		strict "$h" -j port stats
		[ "$status" -eq 0 ] && [ -z "$stderr" ] || fail "$h port stats: exit $status: $stderr"
	done
}

@test "strict replay: an answer left unused fails the command at exit, naming it" {
	# A second sample's answers (diag collect) that one read never uses.
	strict clean-2port -j port stats
	assert_equal "$status" 1
	[[ "$stderr" == *"rdmactl: strict replay: recorded answer not used: line "*"> ioctl ethtool ens1f0np0 1d00"* ]] ||
		fail "$stderr"
	# The output itself was written whole before.
	jq -e '.schema == 3' <<<"$output" >/dev/null
	# "all": every answer in the file counts.
	RDMACTL_REPLAY_STRICT=1 run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" port
	assert_equal "$status" 1
	[[ "$stderr" == *"recorded answer not used: line 4: > ioctl ethtool lo 3700"* ]] || fail "$stderr"
	# Not strict: the same command succeeds.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/clean-2port" -j port stats
	assert_success
}

@test "strict replay: a request not recorded, or asked again, fails the command" {
	local rec=$BATS_TEST_TMPDIR/k.rec
	# Only lo's GDRVINFO-free handshake is recorded: port stats on lo asks more.
	{
		echo '# rdmactl kernel recording v1'
		grep -A1 -m1 '^> ioctl ethtool lo ' "$HOSTS/cx6dx/kernel.rec"
	} >"$rec"
	RDMACTL_REPLAY_STRICT=1 run --separate-stderr "$RDMACTL" --replay "$rec" port stats lo
	[[ "$stderr" == *"rdmactl: strict replay: "* ]] || fail "$stderr"
	assert_equal "$status" 1
	# The same request recorded once but asked twice: diag dumps the addresses once per port.
	mkdir "$BATS_TEST_TMPDIR/h"
	cp -a "$HOSTS/ab-2nic/." "$BATS_TEST_TMPDIR/h/"
	RDMACTL_REPLAY_STRICT=asked run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" -j diag
	assert_equal "$status" 1
	[[ "$stderr" == *"recorded answer used again: line "*"> nl 0 "* ]] || fail "$stderr"
}

@test "a recording is checked when it loads: one error naming the file and line, exit 1" {
	local rec=$BATS_TEST_TMPDIR/k.rec req
	req=$(grep -m1 '^> nl 0 ' "$HOSTS/cx6dx/kernel.rec")
	# nlmsg_len 0x90000000: was a SEGV in the sequence rewrite of every verb that replays it.
	printf '# rdmactl kernel recording v1\n%s\n< 00000090020000000000000000000000\n' "$req" >"$rec"
	run --separate-stderr "$RDMACTL" --replay "$rec" bond
	assert_equal "$status" 1
	assert_equal "$stderr" "rdmactl: bond: bad recording '$rec' line 3: netlink message longer than the reply: Invalid argument"
	# An NLMSG_ERROR of INT_MIN is no errno: a protocol error, never negated.
	printf '# rdmactl kernel recording v1\n%s\n< 2400000002000001000000000000000000000080%s\n' \
		"$req" 00000000000000000000000000000000 >"$rec"
	run --separate-stderr "$RDMACTL" --replay "$rec" -j bond
	[[ "$stderr" == *"Protocol error"* ]] || fail "$stderr"
	# /dev/zero grew memory without bound; a FIFO would block.
	run --separate-stderr timeout 10 "$RDMACTL" --replay /dev/zero port
	assert_equal "$status" 1
	assert_equal "$stderr" "rdmactl: port: recording '/dev/zero' is not a regular file: Invalid argument"
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr timeout 10 "$RDMACTL" --replay "$BATS_TEST_TMPDIR/fifo" port
	assert_equal "$status" 1
}
