#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# One bond failover measured under traffic (`rdmactl bond failover`, the
# engine in lib/bond/failover.c): an active-backup bond over links 1 and 2 on
# both hosts (198.18.9.1 on a, .2 on b), rxe on each bond, `rdmactl bench
# server` on a; b measures while link 1's cable is pulled. TCG makes the VMs
# slow and jittery: the numbers are checked for sense (miimon bounds the
# detection, the probe's outage agrees with the kernel's timeline), never
# for speed. Each test prints what it measured as TAP comments.

load lab_helper

R=${RDMACTL_VM:-./rdmactl}
PORT=18516 # our bench server's: 60-bench's is the default 18515
MIIMON=100
# TCG on a shared host: a VM stalls whenever qemu is not scheduled (seen: 400 ms).
SLACK_MS=400
# One retry per test (bats 1.8, teardown runs in between): a TCG guest starved
# by a loaded host once reported a lossless failover (0 of 4007 probes lost
# across a 100 ms reaction, CI). Two misses in a row still fail.
# shellcheck disable=SC2034 # read by bats
BATS_TEST_RETRIES=1

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	local rc=0
	# rxe0 and rxe1 go: a Soft-RoCE device on a member also lists the bond's
	# address among its GIDs (roce_gid_mgmt follows upper devices), and the
	# bench server would pair the stream with it, which cannot carry it.
	# 'scripts/lab reset' brings them back.
	in_vm a "make_bond 198.18.9.1 && rdma link delete rxe0 && rdma link delete rxe1 && bond_rxe rxefo" &
	in_vm b "make_bond 198.18.9.2 && rdma link delete rxe0 && rdma link delete rxe1 && bond_rxe rxefo" || rc=1
	wait $! || rc=1
	if [ $rc = 0 ] && [ -x "$TOP/rdmactl" ]; then
		LAB_TIMEOUT=900 on a "exec $R bench server port $PORT" >"$BATS_FILE_TMPDIR/server.out" 2>&1 &
		echo $! >"$BATS_FILE_TMPDIR/server.pid"
		in_vm a "wait_for 30 listening $PORT" || rc=1
	fi
	if [ $rc != 0 ]; then
		"$LAB" reset >/dev/null 2>&1
		false
	fi
}

teardown_file() {
	[ -z "$LAB_SKIP" ] || return 0
	on a "pkill -INT -f 'bench server port $PORT' || true" >/dev/null 2>&1
	[ ! -s "$BATS_FILE_TMPDIR/server.pid" ] || wait "$(cat "$BATS_FILE_TMPDIR/server.pid")" 2>/dev/null || true
	restore_links
	"$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown() {
	[ -z "${LAB_SKIP:-}" ] || return 0
	# The next test starts from eth0 active on both hosts, every cable in.
	restore_links
	both 'wait_for 30 active_slave_is bond0 eth0' >/dev/null || true
	note_retry
}

# measure ARGS...: the measurement on b in the background, its JSON in
# $BATS_TEST_TMPDIR/fo.json and progress in fo.err. With 'wait', returns
# once it says "ready" (traffic flows, the fault may come), or after 20 s
# when it says nothing (a progress line is a courtesy, not an API).
measure() {
	LAB_TIMEOUT=150 on b "$R -j bond failover bond0 $* peer 198.18.9.1 port $PORT" \
		>"$BATS_TEST_TMPDIR/fo.json" 2>"$BATS_TEST_TMPDIR/fo.err" &
	FO_PID=$!
	[ "$1" = wait ] || return 0
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q 'ready' "$BATS_TEST_TMPDIR/fo.err" && return 0
		kill -0 $FO_PID 2>/dev/null || fail "it ended before the fault: $(cat "$BATS_TEST_TMPDIR/fo.err")"
		sleep 0.1
	done
	echo "# no 'ready' on stderr: the cable goes after 20 s" >&3
}

# measured: wait for it; its JSON in $output for jq_ok.
measured() {
	local rc=0
	wait $FO_PID || rc=$?
	output=$(cat "$BATS_TEST_TMPDIR/fo.json")
	[ $rc = 0 ] || fail "the measurement failed ($rc): $(cat "$BATS_TEST_TMPDIR/fo.err") $output"
}

# jq_ok FILTER: the JSON in $output passes FILTER, or the test fails showing both.
jq_ok() {
	jq -e --argjson miimon $MIIMON --argjson slack $SLACK_MS "$1" <<<"$output" >/dev/null ||
		fail "not: $1
$(jq . <<<"$output")"
}

# The measured values, for whoever reads the TAP.
tell() {
	jq -r '"detect \(.detect_s) s, react \(.react_s) s, failover \(.failover_s) s, outage \(.probe.outage_s) s (\(.probe.gap_lost) probes of \(.probe.sent) lost, resolution \(.probe.resolution_s) s), recovered \(.probe.recovered_after_fault_s) s after the fault; rdma: survived \(.rdma.qp_survived), stall \(.rdma.longest_stall_s) s, failed \(.rdma.failed_s) s (\(.rdma.wc_status)), reconnected \(.rdma.reconnected_s) s, \(.rdma.reason)"' \
		<<<"$output" | sed 's/^/# /' >&3
}

@test "failover: a cable pulled on both hosts under traffic, measured from b" {
	measure wait 60
	"$LAB" link 1 down
	measured
	tell
	jq_ok '.failover and .member == "eth0" and .active_before == "eth0" and .active_after == "eth1"'
	# The kernel's side: the carrier went, then miimon saw it (one interval at most), then
	# eth1 took over in the same pass.
	jq_ok '.detect_s != null and .detect_s >= 0 and .detect_s * 1000 <= $miimon + $slack'
	jq_ok '.react_s != null and .react_s >= 0 and .react_s * 1000 <= $slack'
	# The measured failover is what bond check estimates: detection plus reaction.
	jq_ok '.failover_s != null and (.failover_s - (.detect_s + .react_s) | fabs) < 1e-9'
	jq_ok '[.events[] | select(.netdev == "eth0") | .what] | index("carrier_lost") < index("mii_status")'
	jq_ok 'any(.events[]; .netdev == "bond0" and .what == "active_member" and .value == "eth1")'
	# Traffic's side: probes lost over the failover, and the outage agrees with the
	# timeline: a fails over by itself (its own miimon), within one interval of b.
	jq_ok '.probe.ran and .probe.gap_lost > 0 and (.probe.gap_open_start or .probe.gap_open_end | not)'
	jq_ok '(.probe.outage_s - (.detect_s + .react_s)) * 1000 | fabs <= $miimon + $slack'
	jq_ok '.probe.recovered_after_fault_s > 0 and .probe.recovered_after_fault_s * 1000 <= 2 * $miimon + $slack'
	# RDMA: the report says whether the RC QP lived, and how it went.
	jq_ok '.rdma.ran and (.rdma.qp_survived | type) == "boolean"'
	jq_ok 'if .rdma.qp_survived then .rdma.failed_s == null
		else .rdma.failed_s != null and .rdma.wc_status != "" and .rdma.reconnected_s != null end'
	# The RDMA port in two keys, in the report and in its events (which have no netdev).
	jq_ok '.rdma.device == "rxefo" and .rdma.port == 1 and (.rdma.longest_stall_s | type) == "number"'
	jq_ok '.rdma as $r | all(.events[] | select(.what == "rdma_failed" or .what == "rdma_connected");
		.netdev == null and .device == $r.device and .port == $r.port)'
}

@test "failover: member eth0 taken down on b and restored, fail-back to the primary" {
	measure member eth0
	measured
	tell
	jq_ok '.failover and .member == "eth0" and .active_after == "eth1" and .active_final == "eth0"'
	jq_ok '.detect_s != null and .detect_s >= 0 and .detect_s * 1000 <= $miimon + $slack'
	jq_ok '.react_s != null and .react_s * 1000 <= $slack'
	jq_ok 'any(.events[]; .what == "fault_injected") and any(.events[]; .what == "restored")'
	jq_ok '.member_back_s != null and .failback_s != null and .failback_s >= .restore_s'
	# Back to back, a's eth0 keeps its carrier: a never fails over and drops what
	# arrives on its backup eth1, so traffic waits for the fail-back. The probe says so.
	jq_ok '.probe.ran and .probe.gap_lost > 0 and .probe.gap_open_end'
	jq_ok '.rdma.ran and (.rdma.qp_survived | type) == "boolean"'
}
