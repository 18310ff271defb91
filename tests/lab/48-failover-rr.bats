#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# bond failover against a peer whose bond is balance-rr: a's active-backup bond
# switches cleanly, but b keeps sending every other reply over the link whose member
# a took down.  The outage alone looks short; the loss after it is what tells, and
# the run fails (issue 21: 3,523 of 8,503 probes lost, reported as a 5.6 ms outage).

load lab_helper

R=${RDMACTL_VM:-./rdmactl}

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	"$LAB" reset >/dev/null 2>&1 || true
	local rc=0
	in_vm a 'make_bond 198.18.9.1' &
	in_vm b 'ip link add bond0 type bond mode balance-rr miimon 100 &&
		ip link set eth0 down && ip link set eth1 down &&
		ip link set eth0 master bond0 && ip link set eth1 master bond0 &&
		ip addr add 198.18.9.2/24 dev bond0 && ip link set bond0 up' || rc=1
	wait $! || rc=1
	if [ $rc != 0 ]; then
		"$LAB" reset >/dev/null 2>&1
		false
	fi
}

teardown_file() {
	[ -n "$LAB_SKIP" ] || "$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

@test "failover against a balance-rr peer: clean switch here, loss after it counted, exit 1" {
	in_vm a 'wait_for 20 eval "ping -q -c 1 -W 1 198.18.9.2 >/dev/null"'
	run --separate-stderr on a "$R -j bond failover bond0 member eth0 peer 198.18.9.2 no-rdma"
	echo "# $(jq -c '{detect_s, react_s, failover_s, outage_s: .probe.outage_s, sent_after: .probe.sent_after_outage, lost_after: .probe.lost_after_outage, pct: .probe.loss_after_outage_pct}' <<<"$output")" >&3
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"probes lost after the outage: the bond did not fail over cleanly"* ]] || fail "$stderr"
	jq -e '.failover and .active_after == "eth1"' <<<"$output" >/dev/null || fail "$output"
	# b sends every other reply over its eth0, into a's downed eth0: about half is lost.
	jq -e '.probe.lost_after_outage > 2 and .probe.loss_after_outage_pct > 10 and
		.probe.sent_after_outage > .probe.lost_after_outage' <<<"$output" >/dev/null || fail "$output"
	run on a "$R bond failover bond0 member eth0 peer 198.18.9.2 no-rdma"
	assert_failure 1
	assert_output --regexp 'after it: [0-9]+ of [0-9]+ probes lost \([0-9.]+%\)'
	assert_output --partial "traffic still goes over the failed member: balance-rr or balance-xor here or on the peer?"
}
