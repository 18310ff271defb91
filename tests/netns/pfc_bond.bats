#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# pfc writes on a bond's members, live: a copy of the cx6dx-lag snapshot's /sys
# mounted over /sys in a private mount and network namespace, its two PFs
# answered by the dcbnl NIC double (tests/dcb-double).  rdmactl runs without
# --root, so it writes (to the double), and rolls back as on a real host.
load ../helpers

DOUBLE=$TOP/build/dcb-double

setup() {
	need_netns
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	# The copy takes the writes to RDMA-CM and MLNX_OFED files; the checkout stays as it is.
	cp -a "$HOSTS/cx6dx-lag" "$BATS_TEST_TMPDIR/host"
}

# Run a script as a live host whose /sys is the snapshot's, its PFs on the double.
on_lag_host() {
	"${NETNS[@]}" env LD_PRELOAD="$DOUBLE/libdcbdouble.so" \
		DCB_DOUBLE_DEVS=ens1f0np0,ens1f1np1 \
		DCB_DOUBLE_STATE="$BATS_TEST_TMPDIR/state" DCB_DOUBLE_LOG="$BATS_TEST_TMPDIR/log" \
		bash -euc 'mount --make-rprivate / && mount --bind "$2/sys" /sys && '"$1" \
		_ "$RDMACTL" "$BATS_TEST_TMPDIR/host"
}

@test "pfc apply dev bond0: both members written and verified; the second run sends nothing" {
	run on_lag_host '
		$1 -j pfc apply dev bond0 profile roce-lossless | jq -c "[.changed, [.netdevs[] | [.netdev, .changed]]]"
		$1 -j pfc apply dev bond0 profile roce-lossless | jq -c "[.changed, [.netdevs[] | .changed]]"
		$1 -b pfc show'
	assert_success
	assert_line --index 0 '[true,[["ens1f0np0",true],["ens1f1np1",true]]]'
	assert_line --index 1 '[false,[false,false]]'
	assert_line --regexp "^ens1f0np0@bond0 +pfc 3 +trust dscp +dscp-prio 26:3 48:6 +matches$"
	assert_line --regexp "^ens1f1np1@bond0 +pfc 3 +trust dscp +dscp-prio 26:3 48:6 +matches$"
}

@test "pfc apply dev bond0: a member that fails puts the members done before back (all or none)" {
	run on_lag_host '
		$1 pfc apply dev bond0 profile roce-lossless >/dev/null
		DCB_DOUBLE_FAIL=pfc:2 $1 pfc apply dev bond0 profile roce-lossless prio 5 || echo "rc=$?"
		$1 -b pfc show dev bond0'
	assert_success
	assert_line --index 0 "rdmactl: pfc: cannot set DCB of 'ens1f1np1': Input/output error (old state restored)"
	assert_line --index 1 "rc=1"
	# ens1f0np0 was written first and restored: both still on priority 3.
	assert_line --regexp "^ens1f0np0@bond0 +pfc 3 +trust dscp +dscp-prio 26:3 48:6 +matches$"
	assert_line --regexp "^ens1f1np1@bond0 +pfc 3 +trust dscp +dscp-prio 26:3 48:6 +matches$"
}

@test "pfc show: members that differ are a failure of their own (pfc.members-differ)" {
	run on_lag_host '
		$1 pfc apply dev bond0 profile roce-lossless >/dev/null
		$1 pfc set dev ens1f1np1 prio-pfc 4:on >/dev/null
		$1 -j pfc show dev bond0 | jq -c ".bonds[0] | [.members_agree, .id, .differences]"
		$1 pfc show dev bond0 | head -2
		$1 -b pfc show'
	assert_success
	assert_line --index 0 '[false,"pfc.members-differ",[{"what":"pfc.enabled_prios","values":[{"netdev":"ens1f0np0","value":[3]},{"netdev":"ens1f1np1","value":[3,4]}]}]]'
	assert_line --index 1 "bond0: RoCE LAG (802.3ad) over ens1f0np0 ens1f1np1; members differ (pfc.members-differ):"
	assert_line --index 2 "  prio-pfc   ens1f0np0 3  ens1f1np1 3,4"
	assert_line --regexp "^ens1f1np1@bond0 +pfc 3,4 .* members-differ$"
}
