#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# The course's end state on VM a, against the real bonding driver and rxe:
# bond0 active-backup over eth0 and eth1, Soft-RoCE on the bond (rxeb), and
# every verb names eth0 and eth1 as the ports behind bond0.  This is the
# state testdata/hosts/rxe-bond was captured in (diag collect).
# teardown_file puts the lab back as it was ('scripts/lab reset').

load lab_helper

R=${RDMACTL_VM:-./rdmactl}

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	"$LAB" reset >/dev/null 2>&1 || true
	in_vm a 'make_bond 198.18.100.1 && rdma link del rxe0 && rdma link del rxe1 &&
		rdma link add rxeb type rxe netdev bond0 &&
		wait_for 15 grep -q ACTIVE /sys/class/infiniband/rxeb/ports/1/state' || {
		"$LAB" reset >/dev/null 2>&1
		false
	}
}

teardown_file() {
	[ -n "$LAB_SKIP" ] || "$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

# jq on the JSON a command printed, failing with the document.
expect() {
	jq -e "$1" <<<"$output" >/dev/null || fail "not ($1): $output"
}

@test "bonded RoCE: port show gives rxe on bond0 its bond, the members eth0 and eth1; a member finds it" {
	run --separate-stderr on a "$R -j port show"
	assert_success
	expect '[.ports[] | select(.device == "rxeb") | [.netdev, .upper, .bond_mode, .members]] ==
		[["bond0", null, "active-backup", ["eth0", "eth1"]]]'
	for m in eth0 eth1 bond0; do
		run --separate-stderr on a "$R -j port show $m"
		assert_success
		expect '[.ports[] | "\(.device)/\(.port)"] == ["rxeb/1"]'
	done
}

@test "bonded RoCE: pfc show lists eth0 and eth1 under bond0, unknown DCB said per member" {
	run --separate-stderr on a "$R -j pfc show dev bond0"
	assert_success
	expect '[.netdevs[] | [.netdev, .upper, .relation]] ==
		[["eth0", "bond0", "roce_lag"], ["eth1", "bond0", "roce_lag"]]'
	expect '[.netdevs[] | .pfc.reason] == ["the driver implements no dcbnl operations",
		"the driver implements no dcbnl operations"]'
	expect '.bonds[0] | .bond == "bond0" and .members == ["eth0", "eth1"] and
		.members_agree == null and (.reason | test("eth0"))'
	# Without dev: the physical netdevs, never the bond itself.
	run --separate-stderr on a "$R -j pfc show"
	assert_success
	expect '[.netdevs[].netdev] | index("bond0") == null and index("eth0") != null'
	# A write plans per member and says why each has no DCB: never "not supported" on bond0.
	run --separate-stderr on a "$R --dry-run pfc apply dev bond0 profile roce-lossless"
	assert_failure 1
	[[ $stderr == *"cannot read DCB of 'eth0'"*"no dcbnl operations"* ]] || fail "$stderr"
	[[ $stderr != *"'bond0'"* ]] || fail "$stderr"
}

@test "bonded RoCE: diag checks each member, bond check names eth0 and eth1" {
	run --separate-stderr on a "$R -j diag"
	[ "$status" -le 3 ] || fail "diag exits $status: $stderr"
	expect '[.ports[] | [.device, .netdev]] == [["rxeb", "eth0"], ["rxeb", "eth1"]]'
	expect '[.skipped[] | select(.id == "qos.pfc-off") | .reason] |
		length == 2 and (.[0] | test("eth0")) and (.[1] | test("eth1"))'
	run --separate-stderr on a "$R -j bond check bond0"
	[ "$status" -le 3 ] || fail "bond check exits $status: $stderr"
	expect '[.. | objects | select(.id? == "bond.soft-roce")] | length == 1'
	expect '[.. | objects | select(.id? == "bond.pfc-skipped") | .title] ==
		["PFC not compared on eth0, eth1"]'
}
