#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# pfc and port on bonded RoCE hosts: every verb sees through the bond to the
# physical ports behind it (lib/host/carriers.c), on the bundled snapshots.
load ../helpers

@test "pfc show on a RoCE LAG host lists the members, never the bond, grouped under it" {
	run --separate-stderr rd cx6dx-lag -j pfc show
	assert_success
	[ "$(jq -c '[.netdevs[] | [.netdev, .upper, .relation, .pfc.source]]' <<<"$output")" = \
	  '[["ens1f0np0","bond0","roce_lag","dcbnl"],["ens1f1np1","bond0","roce_lag","dcbnl"]]' ]
	[ "$(jq -c '.bonds' <<<"$output")" = \
	  '[{"bond":"bond0","relation":"roce_lag","bond_mode":"802.3ad","members":["ens1f0np0","ens1f1np1"],"members_agree":true,"id":null,"reason":null,"differences":[]}]' ]
	run rd cx6dx-lag pfc show
	assert_line --index 0 "bond0: RoCE LAG (802.3ad) over ens1f0np0 ens1f1np1; members agree"
	assert_line "ens1f0np0 (bond0, roce_lag):"
	assert_line "ens1f1np1 (bond0, roce_lag):"
	refute_output --partial "driver implements no dcbnl"
	refute_line --regexp "^bond0 "
}

@test "pfc show dev BOND, its RDMA device and an address on it act on the members" {
	for name in bond0 mlx5_bond_0 mlx5_bond_0/1 192.168.30.11; do
		run --separate-stderr rd cx6dx-lag -j pfc show dev "$name"
		assert_success
		[ "$(jq -c '[.netdevs[].netdev]' <<<"$output")" = '["ens1f0np0","ens1f1np1"]' ] ||
			fail "$name: $output"
	done
	# A member named itself is just that port.
	run --separate-stderr rd cx6dx-lag -j pfc show dev ens1f1np1
	[ "$(jq -c '[.netdevs[] | [.netdev, .upper, .relation]], .bonds' <<<"$output")" = \
	  "$(printf '%s\n%s' '[["ens1f1np1",null,"same"]]' '[]')" ]
	run -0 rd cx6dx-lag -b pfc show
	assert_line --regexp "^ens1f0np0@bond0 +pfc 3 +trust dscp +dscp-prio 26:3 48:6 +matches$"
}

@test "pfc show on a bond without RoCE LAG: each member with its own port, relation member" {
	run --separate-stderr rd lag-mistakes -j pfc show
	assert_success
	[ "$(jq -c '[.netdevs[] | [.netdev, .upper, .relation]]' <<<"$output")" = \
	  '[["ens2f0np0","bond1","member"],["ens2f1np1","bond1","member"],["ens1f0np0","bond0","roce_lag"],["ens1f1np1","bond0","roce_lag"]]' ]
	# bond1's second member has PFC on priority 4 too: the members differ.
	[ "$(jq -c '[.bonds[] | [.bond, .relation, .bond_mode, .members_agree, .id]]' <<<"$output")" = \
	  '[["bond1","member","balance-alb",false,"pfc.members-differ"],["bond0","roce_lag","802.3ad",true,null]]' ]
	# Each member's value typed and shaped as pfc show's key "what" names, never "3,4".
	[ "$(jq -c '.bonds[0].differences' <<<"$output")" = \
	  '[{"what":"pfc.enabled_prios","values":[{"netdev":"ens2f0np0","value":[3]},{"netdev":"ens2f1np1","value":[3,4]}]}]' ]
	jq -e '. as $d | .bonds[0].differences[0] | .what as $w | all(.values[];
		.netdev as $m | .value == ($d.netdevs[] | select(.netdev == $m) | getpath($w | split("."))))' \
		<<<"$output" || fail "$output"
	run rd lag-mistakes pfc show dev bond1
	assert_line --index 0 "bond1: bond (balance-alb) over ens2f0np0 ens2f1np1; members differ (pfc.members-differ):"
	assert_line --index 1 "  prio-pfc   ens2f0np0 3  ens2f1np1 3,4"
	run --separate-stderr rd ab-2nic -j pfc show dev bond0
	[ "$(jq -c '[.netdevs[] | [.netdev, .relation]]' <<<"$output")" = \
	  '[["ens1f0np0","member"],["ens2f0np0","member"]]' ]
}

@test "pfc show: bonds[].differences values typed as the key they name (numbers, words, arrays)" {
	# A copy of lag-mistakes whose bond1 members also differ in MTU, speed and
	# (MLNX_OFED's file) trust; the copy keeps the checkout as it is.
	local h=$BATS_TEST_TMPDIR/host m
	cp -a "$HOSTS/lag-mistakes" "$h"
	m=$(readlink -f "$h/sys/class/net/ens2f1np1")
	echo 1500 >"$m/mtu"
	echo 25000 >"$m/speed"
	mkdir -p "$m/qos"
	echo pcp >"$m/qos/trust"
	run --separate-stderr "$RDMACTL" --root "$h" -j pfc show dev bond1
	assert_success
	[ "$(jq -c '.bonds[0].differences | map(.what)' <<<"$output")" = \
	  '["pfc.enabled_prios","trust.value","mtu_bytes","speed_mbps"]' ] || fail "$output"
	[ "$(jq -c '[.bonds[0].differences[] | [.what, (.values | map(.value))]]' <<<"$output")" = \
	  '[["pfc.enabled_prios",[[3],[3,4]]],["trust.value",["dscp","pcp"]],["mtu_bytes",[9000,1500]],["speed_mbps",[100000,25000]]]' ] ||
		fail "$output"
	# What pfc show has under that key, for the netdev's own keys.
	jq -e '. as $d | [.bonds[0].differences[] | select(.what | contains(".")) | .what as $w |
		.values[] | .netdev as $m | .value == ($d.netdevs[] | select(.netdev == $m) | getpath($w | split(".")))] |
		all and length == 4' <<<"$output" || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
	# The text keeps pfc set's words.
	run --separate-stderr "$RDMACTL" --root "$h" pfc show dev bond1
	assert_line "  mtu        ens2f0np0 9000  ens2f1np1 1500"
	assert_line "  trust      ens2f0np0 dscp  ens2f1np1 pcp"
}

@test "pfc apply and set --dry-run on a bond: one plan per member, nothing unsupported" {
	run --separate-stderr rd cx6dx-lag --dry-run -j pfc apply dev bond0 profile roce-lossless prio 4
	assert_failure 4 # would change
	[ "$(jq -c '[.changed, .dry_run, [.netdevs[] | [.netdev, .upper, .relation, .changed, .after.pfc.enabled_prios]]]' <<<"$output")" = \
	  '[true,true,[["ens1f0np0","bond0","roce_lag",true,[4]],["ens1f1np1","bond0","roce_lag",true,[4]]]]' ]
	refute_output --partial "not supported"
	run rd cx6dx-lag --dry-run pfc set dev bond0 prio-pfc 5:on
	assert_failure 4 # would change
	assert_line "ens1f0np0 (bond0, roce_lag): would change (dry run: nothing sent)"
	assert_line "ens1f1np1 (bond0, roce_lag): would change (dry run: nothing sent)"
	# The RDMA-CM settings of the one LAG port are planned once, with the first member.
	run --separate-stderr rd cx6dx-lag --dry-run -j pfc set dev bond0 roce-tos 104
	[ "$(jq -c '[.netdevs[] | [.netdev, (.before.roce | map(.default_roce_tos)), (.after.roce | map(.default_roce_tos))]]' <<<"$output")" = \
	  '[["ens1f0np0",[106],[104]],["ens1f1np1",[],[]]]' ]
}

@test "pfc apply -f takes a bond; a bond and its member in one file is one device twice" {
	printf 'devices:\n  - dev: bond0\n    profile: roce-lossless\n    prio: 5\n' >"$BATS_TEST_TMPDIR/bond.yaml"
	run --separate-stderr rd cx6dx-lag --dry-run -j pfc apply -f "$BATS_TEST_TMPDIR/bond.yaml"
	assert_failure 4 # would change
	[ "$(jq -c '[.netdevs[] | [.netdev, .after.pfc.enabled_prios]]' <<<"$output")" = \
	  '[["ens1f0np0",[5]],["ens1f1np1",[5]]]' ]
	printf 'devices:\n  - dev: bond0\n    profile: roce-lossless\n  - dev: ens1f1np1\n    trust: pcp\n' >"$BATS_TEST_TMPDIR/twice.yaml"
	run rd cx6dx-lag --dry-run pfc apply -f "$BATS_TEST_TMPDIR/twice.yaml"
	assert_failure 2
	assert_output --partial "line 4: 'ens1f1np1' is also the device at line 2"
}

@test "pfc apply -f FILE dev NETDEV: only NETDEV's part, found through a bond or an RDMA device" {
	# A member that appears gets its bond's settings, the other member is left alone.
	printf 'devices:\n  - dev: bond0\n    profile: roce-lossless\n    prio: 5\n  - dev: ens9\n    trust: pcp\n' >"$BATS_TEST_TMPDIR/bond.yaml"
	run --separate-stderr rd cx6dx-lag --dry-run -j pfc apply -f "$BATS_TEST_TMPDIR/bond.yaml" dev ens1f1np1
	assert_failure 4 # would change
	[ "$(jq -c '[.netdevs[] | [.netdev, .upper, .after.pfc.enabled_prios]]' <<<"$output")" = \
	  '[["ens1f1np1","bond0",[5]]]' ]
	# The other devices are passed over (said with -v), never a failure.
	run --separate-stderr rd cx6dx-lag -v --dry-run pfc apply -f "$BATS_TEST_TMPDIR/bond.yaml" dev ens1f0np0
	assert_failure 4
	assert_line --partial "ens1f0np0 (bond0, roce_lag): would change"
	refute_line --partial "ens1f1np1"
	grep -qx "rdmactl: pfc: line 2: ens1f1np1 is not ens1f0np0: passed over" <<<"$stderr"
	grep -qx "rdmactl: pfc: line 5: ens9 is not ens1f0np0: passed over" <<<"$stderr"
	# An RDMA device in the file is its netdev.
	printf 'devices:\n  - dev: mlx5_1\n    prio-pfc: all:off 5:on\n' >"$BATS_TEST_TMPDIR/rdma.yaml"
	run --separate-stderr rd cx6dx --dry-run -j pfc apply -f "$BATS_TEST_TMPDIR/rdma.yaml" dev ens1f1np1
	assert_failure 4
	[ "$(jq -c '[.netdevs[] | .netdev]' <<<"$output")" = '["ens1f1np1"]' ]
	# Nothing for the other port: exit 0, nothing planned, said so.
	run --separate-stderr rd cx6dx --dry-run -j pfc apply -f "$BATS_TEST_TMPDIR/rdma.yaml" dev ens1f0np0
	assert_success
	[ "$(jq -c '[.changed, .netdevs]' <<<"$output")" = '[false,[]]' ]
	run rd cx6dx --dry-run pfc apply -f "$BATS_TEST_TMPDIR/rdma.yaml" dev ens1f0np0
	assert_success
	assert_output "ens1f0np0: nothing in $BATS_TEST_TMPDIR/rdma.yaml for it: nothing to change (nothing sent)"
	# dev names something of this host; only dev goes with -f.
	run rd cx6dx --dry-run pfc apply -f "$BATS_TEST_TMPDIR/rdma.yaml" dev mlx5_9
	assert_failure 1
	run rd cx6dx --dry-run pfc apply -f "$BATS_TEST_TMPDIR/rdma.yaml" dev ens1f0np0 prio 4
	assert_failure 2
	assert_output --partial "'-f' takes no other keywords but 'dev'"
}

@test "port show: each RDMA port's own netdev, the bond it is used through, a member finds its port" {
	run --separate-stderr rd lag-mistakes -j port show ens2f1np1
	assert_success
	[ "$(jq -c '[.ports[] | [.device, .netdev, .upper, .bond_mode, .members]]' <<<"$output")" = \
	  '[["mlx5_3","ens2f1np1","bond1",null,null]]' ]
	run --separate-stderr rd lag-mistakes -j port show bond1
	[ "$(jq -c '[.ports[] | [.device, .netdev, .upper]]' <<<"$output")" = \
	  '[["mlx5_2","ens2f0np0","bond1"],["mlx5_3","ens2f1np1","bond1"]]' ]
	# RoCE LAG: the port's netdev is the bond, its members the physical ports.
	for name in ens1f1np1 bond0 mlx5_bond_0; do
		run --separate-stderr rd lag-mistakes -j port show "$name"
		[ "$(jq -c '[.ports[] | [.device, .netdev, .upper, .bond_mode, .members]]' <<<"$output")" = \
		  '[["mlx5_bond_0","bond0",null,"802.3ad",["ens1f0np0","ens1f1np1"]]]' ] || fail "$name: $output"
	done
	run rd ab-2nic port show mlx5_0
	assert_line --index 1 --regexp "^    netdev ens1f0np0 \(bond0\) down +mtu 9000"
	run --separate-stderr rd ab-2nic -j port show bond0
	[ "$(jq -c '[.ports[] | [.device, .netdev, .upper]]' <<<"$output")" = \
	  '[["mlx5_0","ens1f0np0","bond0"],["mlx5_2","ens2f0np0","bond0"]]' ]
}

@test "pfc show: a verdict that differs prints the command that fixes it, and it runs" {
	run --separate-stderr rd lag-mistakes -j pfc show dev ens2f1np1
	assert_success
	# A member named itself: the fix is on the netdev.
	[ "$(jq -c '.netdevs[0].verdict | [.matches, .fix_argv]' <<<"$output")" = \
	  '[false,["rdmactl","pfc","apply","dev","ens2f1np1","profile","roce-lossless"]]' ]
	# Reached through its bond: the fix is on the bond, which keeps the members alike.
	run --separate-stderr rd lag-mistakes -j pfc show dev bond1
	mapfile -t argv < <(jq -r '.netdevs[1].verdict.fix_argv[]' <<<"$output")
	[ "${argv[*]}" = "rdmactl pfc apply dev bond1 profile roce-lossless" ]
	run --separate-stderr rd lag-mistakes --dry-run -j "${argv[@]:1}"
	assert_failure 4 # would change
	[ "$(jq -c '[.netdevs[] | [.netdev, .changed, .after.pfc.enabled_prios]]' <<<"$output")" = \
	  '[["ens2f0np0",false,[3]],["ens2f1np1",true,[3]]]' ]
	# A matching verdict has no fix.
	run --separate-stderr rd cx6dx -j pfc show
	[ "$(jq -c '[.netdevs[].verdict | [.fix_command, .fix_argv]]' <<<"$output")" = '[[null,null],[null,null]]' ]
	run rd lag-mistakes pfc show dev ens2f1np1
	assert_line "  fix       rdmactl pfc apply dev ens2f1np1 profile roce-lossless"
}

@test "rxe-bond (captured in the lab): rxe on an active-backup bond, eth0 and eth1 behind it" {
	run --separate-stderr rd rxe-bond -j port show eth1
	assert_success
	[ "$(jq -c '[.ports[] | [.device, .netdev, .upper, .bond_mode, .members]]' <<<"$output")" = \
	  '[["rxeb","bond0",null,"active-backup",["eth0","eth1"]]]' ]
	run --separate-stderr rd rxe-bond -j pfc show
	assert_success
	[ "$(jq -c '[.netdevs[] | [.netdev, .upper, .relation, .pfc.source]]' <<<"$output")" = \
	  '[["eth0","bond0","roce_lag","unknown"],["eth1","bond0","roce_lag","unknown"]]' ]
	[ "$(jq -c '.bonds[0] | [.members_agree, .reason]' <<<"$output")" = \
	  "[null,\"no DCB on 'eth0': its driver implements no dcbnl operations\"]" ]
	run --separate-stderr rd rxe-bond -j diag
	[ "$(jq -c '[.ports[] | .netdev]' <<<"$output")" = '["eth0","eth1"]' ]
}
