#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# pfc's text for people (issue 13): plans and show in dcb's grammar, only what
# changes, trust spelled out, DSCP ranges collapsed, a verdict against a
# profile, -b one line per netdev.  Writes go to the dcbnl double
# (tests/dcb-double), reads also to the recorded fixture hosts.
load ../helpers

DOUBLE=$TOP/build/dcb-double

setup() {
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	export DCB_DOUBLE_DEVS=eth9,eth8
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
}

# rdmactl against the double (a fresh mlx5-like NIC per test).
dd() {
	LD_PRELOAD=$DOUBLE/libdcbdouble.so "$RDMACTL" "$@"
}

# A plan names no hex mask and no value that stays the same ("7 -> 7",
# "3:on -> 3:on"): each "A -> B" of a line has entries that all differ.
assert_plan_text() {
	local line from to
	[[ $output != *0x* ]] || fail "a hex mask in the plan: $output"
	while IFS= read -r line; do
		[[ $line == *" -> "* ]] || continue
		[[ $line == "  file "* ]] && continue
		from=${line%% -> *}
		to=${line#* -> }
		to=${to%% (*}
		# "  pfc delay 7" -> "7"; "  ets tc-bw 0:100 3:100" -> "0:100 3:100"
		from=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+(:|$)/ || $i ~ /^(pcp|dscp)$/) printf "%s ", $i }' <<<"$from")
		read -ra f <<<"$from"
		read -ra t <<<"$to"
		[ "${#f[@]}" -eq "${#t[@]}" ] || fail "'$line': sides differ in length"
		for i in "${!f[@]}"; do
			[ "${f[$i]}" != "${t[$i]}" ] || fail "'$line' names an unchanged value '${f[$i]}'"
		done
	done <<<"$output"
	# Text fits 80 columns.
	while IFS= read -r line; do
		[ "${#line}" -le 80 ] || fail "a line of ${#line} columns: $line"
	done <<<"$output"
}

@test "pfc apply plan: dcb's grammar, only what differs, trust spelled out" {
	run --separate-stderr dd pfc apply dev eth9 profile roce-lossless --dry-run
	assert_failure 4 # would change
	assert_plan_text
	assert_line --index 0 "eth9: would change (dry run: nothing sent)"
	assert_line "  pfc prio-pfc 3:off -> 3:on"
	assert_line "  ets prio-tc 0:1 2:2 4:4 5:5 7:7 -> 0:0 2:0 4:0 5:0 7:0"
	assert_line "  ets tc-tsa 0:vendor 1:vendor 2:vendor -> 0:ets 1:strict 2:strict"
	assert_line "  ets tc-bw 0:100 3:100 -> 0:50 3:50"
	assert_line "  trust pcp -> dscp (mlx5 trusts DSCP while DSCP APP entries exist)"
	assert_line "  app add dscp-prio 26:3 48:6"
	refute_output --partial "delay"
	# The real apply says the same, then nothing to change.
	run --separate-stderr dd pfc apply dev eth9 profile roce-lossless
	assert_success
	assert_line --index 0 "eth9: changed and verified"
	assert_line "  app add dscp-prio 26:3 48:6"
	run --separate-stderr dd pfc apply dev eth9 profile roce-lossless
	assert_output "eth9: nothing to change (nothing sent)"
}

@test "pfc set plan: each attribute once, old -> new of the changed entries only" {
	run --separate-stderr dd pfc set dev eth9 prio-pfc all:off 3:on 4:on delay 7
	assert_success
	assert_plan_text
	assert_output "eth9: changed and verified
  pfc prio-pfc 3:off 4:off -> 3:on 4:on"
	run --separate-stderr dd pfc set dev eth9 delay 32 prio-pfc 4:off
	assert_output "eth9: changed and verified
  pfc prio-pfc 4:on -> 4:off
  pfc delay 7 -> 32"
	run --separate-stderr dd pfc set dev eth9 tc-maxrate all:0 6:10gbit 7:500mbit
	assert_success
	assert_plan_text
	assert_line "  maxrate tc-maxrate 6:0 7:0 -> 6:10Gbit 7:500Mbit"
	run --separate-stderr dd pfc set dev eth9 prio-buffer 3:1 buffer-size 0:128K 1:64K
	assert_success
	assert_plan_text
	assert_line "  buffer prio-buffer 3:0 -> 3:1"
	assert_line "  buffer buffer-size 0:262016 1:0 -> 0:131072 1:65536"
	run --separate-stderr dd pfc set dev eth9 prio-pfc 3:on delay 32
	assert_output "eth9: nothing to change (nothing sent)"
}

@test "pfc set plan: DSCP ranges collapsed, trust changes both ways spelled out" {
	# DSCP trust on an empty table installs the 64 default entries: one line.
	run --separate-stderr dd pfc set dev eth9 trust dscp --dry-run
	assert_failure 4 # would change
	assert_plan_text
	assert_output "eth9: would change (dry run: nothing sent)
  trust pcp -> dscp (mlx5 trusts DSCP while DSCP APP entries exist)
  app add dscp-prio 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7"
	dd pfc set dev eth9 trust dscp >/dev/null
	# Moving one DSCP: the old entry deleted, the new added, no trust change.
	run --separate-stderr dd pfc set dev eth9 dscp-prio 26:5 27:5
	assert_output "eth9: changed and verified
  app del dscp-prio 26-27:3
  app add dscp-prio 26-27:5"
	# A map too long for a line goes on under itself (80 columns without a terminal).
	run --separate-stderr dd pfc show dev eth9
	assert_line "  dscp-prio 0-7:0 8-15:1 16-23:2 24-25:3 26-27:5 28-31:3 32-39:4 40-47:5 48-55:6"
	assert_line "            56-63:7"
	run --separate-stderr dd pfc set dev eth9 trust pcp
	assert_plan_text
	assert_output "eth9: changed and verified
  trust dscp -> pcp (no DSCP APP entry left: mlx5 trusts PCP)
  app del dscp-prio 0-7:0 8-15:1 16-23:2 24-25:3 26-27:5 28-31:3 32-39:4 40-47:5
                    48-55:6 56-63:7"
}

@test "pfc --dry-run under --root plans against the fixture in dcb's grammar" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/lossless-broken" --dry-run pfc apply dev ens1f1np1 profile roce-lossless
	assert_failure 4 # would change
	assert_plan_text
	assert_output "ens1f1np1: would change (dry run: nothing sent)
  pfc prio-pfc 4:on 6:on -> 4:off 6:off
  app add dscp-prio 26:3
  file /sys/class/net/ens1f1np1/ecn/roce_np/enable/3 0 -> 1
  file /sys/class/net/ens1f1np1/ecn/roce_np/cnp_dscp 26 -> 48
  file /sys/class/net/ens1f1np1/ecn/roce_np/cnp_802p_prio 3 -> 6"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" --dry-run pfc apply dev ens1f0np0 profile roce-lossless
	assert_failure 4 # would change
	assert_plan_text
	assert_line "  trust pcp -> dscp (mlx5 trusts DSCP while DSCP APP entries exist)"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" --dry-run pfc apply dev ens1f0np0 profile roce-lossless
	assert_output "ens1f0np0: nothing to change (nothing sent)"
}

@test "pfc show: dcb's words, the DSCP map in ranges by DSCP, a verdict last" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/clean-2port" pfc show dev ens1f0np0
	assert_success
	assert_line "  pfc       pfc-cap 8 delay 7"
	assert_line "  prio-pfc  0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"
	# 64 entries, newest first in the kernel's list: 8 ranges.
	assert_line "  dscp-prio 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7"
	assert_line --index $((${#lines[@]} - 1)) "  verdict   matches roce-lossless (prio 3, dscp 26)"
	[[ $output != *yes* && $output != *" no "* ]] || fail "yes/no instead of on/off: $output"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" pfc show
	assert_success
	assert_line "  dscp-prio 26:3 48:6"
	[ "$(grep -c '^  verdict   matches roce-lossless (prio 3, dscp 26)$' <<<"$output")" -eq 2 ]
	while IFS= read -r line; do
		[ "${#line}" -le 80 ] || fail "a line of ${#line} columns: $line"
	done <<<"$output"
}

@test "pfc show: the verdict lists every difference and exits 0" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/lossless-broken" pfc show dev ens1f1np1
	assert_success
	# The verdict block ends the netdev.
	[ "$(sed -n '/^  verdict/,$p' <<<"$output")" = "  verdict   differs from roce-lossless (prio 3, dscp 26):
              prio-pfc 4:on 6:on (want 4:off 6:off)
              dscp-prio 26:none (want 26:3)
              ecn-np 3:off (want 3:on)
              cnp-dscp 26 (want 48)
              cnp-prio 3 (want 6)
  fix       rdmactl pfc apply dev ens1f1np1 profile roce-lossless" ] || fail "$output"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" pfc show
	assert_success
	[ "$(grep -c '^  verdict   differs from roce-lossless (prio 3, dscp 26):$' <<<"$output")" -eq 2 ]
	assert_line "              prio-pfc 3:off (want 3:on)"
	assert_line "              trust pcp (want dscp)"
	assert_line "              dscp-prio 26:none 48:none (want 26:3 48:6)"
	while IFS= read -r line; do
		[ "${#line}" -le 80 ] || fail "a line of ${#line} columns: $line"
	done <<<"$output"
}

@test "pfc show profile/prio/dscp: the verdict judges by what is given" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" pfc show dev ens1f0np0 prio 4 dscp 34
	assert_success
	assert_line "  verdict   differs from roce-lossless (prio 4, dscp 34):"
	assert_line "              prio-pfc 3:on 4:off (want 3:off 4:on)"
	assert_line "              dscp-prio 34:none (want 34:4)"
	# The fix applies the profile with the parameters given.
	assert_line "  fix       rdmactl pfc apply dev ens1f0np0 profile roce-lossless prio 4 dscp 34"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" -j pfc show mlx5_0 profile roce-lossless prio 3 cnp-dscp 48 cnp-prio 6
	assert_success
	jq -e '.netdevs[0].verdict == {"profile": "roce-lossless", "prio": 3, "dscp": 26, "cnp_dscp": 48,
		"cnp_prio": 6, "matches": true, "reason": null, "differences": [], "fix_command": null,
		"fix_argv": null}' <<<"$output" || fail "$output"
	run "$RDMACTL" --root "$HOSTS/cx6dx" pfc show profile lossy
	assert_failure 2
	assert_output --partial "unknown profile 'lossy' (roce-lossless)"
	run "$RDMACTL" --root "$HOSTS/cx6dx" pfc show prio 6
	assert_failure 2
	assert_output --partial "CNPs must not share the lossless priority 6"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" pfc show dscp 64
	assert_failure 2
}

@test "pfc show -j: the verdict object, with differences as what/index/have/want" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/lossless-broken" -j pfc show dev ens1f1np1
	assert_success
	# One value per key: the key path of pfc show (what), the entry (index), the RDMA port.
	jq -e '.netdevs[0].verdict | .profile == "roce-lossless" and .prio == 3 and .dscp == 26 and
		.matches == false and .reason == null and (.differences | length) == 6 and
		.differences[0] == {"what": "pfc.prios.enabled", "index": 4, "device": null, "port": null, "have": true, "want": false} and
		(.differences[] | select(.what == "dscp_prio.map.prio")) == {"what": "dscp_prio.map.prio", "index": 26, "device": null, "port": null, "have": null, "want": 3} and
		(.differences[] | select(.what == "ecn.prios.np")) == {"what": "ecn.prios.np", "index": 3, "device": null, "port": null, "have": false, "want": true} and
		(.differences[] | select(.what == "cnp.dscp")) == {"what": "cnp.dscp", "index": null, "device": null, "port": null, "have": 26, "want": 48}' \
		<<<"$output" || fail "$output"
	# Each difference's have is the value pfc show has at what[index], typed alike.
	jq -e '.netdevs[0] as $n | [.netdevs[0].verdict.differences[] |
		if .what == "pfc.prios.enabled" then $n.pfc.prios[.index].enabled == .have
		elif .what == "ecn.prios.np" then $n.ecn.prios[.index].np == .have
		elif .what == "dscp_prio.map.prio" then .index as $d | [$n.dscp_prio.map[] | select(.dscp == $d)] == [] and .have == null
		elif .what == "cnp.dscp" then $n.cnp.dscp == .have
		elif .what == "cnp.prio" then $n.cnp.prio == .have
		else false end] | all' <<<"$output" || fail "$output"
	# The YAML is the same document.
	[ "$(jq -S .netdevs[0].verdict <<<"$output")" = \
	  "$("$RDMACTL" --root "$HOSTS/lossless-broken" --yaml pfc show dev ens1f1np1 | yaml_to_json | jq -S .netdevs[0].verdict)" ]
	# The RDMA port of an RDMA-CM setting is two keys of its own, never "mlx5_2/1"; no index.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/link-faults" -j pfc show dev ens2f0np0
	assert_success
	jq -e '.netdevs[0] as $n | [.netdevs[0].verdict.differences[] | select(.what | startswith("roce."))] |
		length == 2 and all(.index == null and .device == "mlx5_2" and .port == 1) and
		(.[] | select(.what == "roce.default_roce_tos") | .have == $n.roce[0].default_roce_tos and .want == 106) and
		(.[] | select(.what == "roce.default_roce_mode") | .have == $n.roce[0].default_roce_mode and .want == "RoCE v2")' \
		<<<"$output" || fail "$output"
	# No DCB (the live loopback has no dcbnl): unknown, with the reason, and still exit 0.
	run --separate-stderr "$RDMACTL" -j pfc show dev lo
	assert_success
	jq -e '.netdevs[0].verdict | .matches == null and .differences == [] and
		(.reason | startswith("no DCB support"))' <<<"$output" || fail "$output"
	run --separate-stderr "$RDMACTL" pfc show dev lo
	assert_line "  verdict   unknown (no DCB support: the driver has no dcbnl operations)"
}

@test "pfc -b show: one line per netdev with PFC, trust, DSCP ranges and the verdict" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/lossless-broken" -b pfc show
	assert_success
	assert_output "ens1f0np0  pfc 3,4,6  trust dscp  dscp-prio 24:3 48:6  differs
ens1f1np1  pfc 3,4,6  trust dscp  dscp-prio 24:3 48:6  differs"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" --brief pfc show dev mlx5_1
	assert_output "ens1f1np1  pfc none  trust pcp  dscp-prio none  differs"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/clean-2port" pfc show -b
	[ "${#lines[@]}" -eq 2 ]
	assert_line --index 0 "ens1f0np0  pfc 3  trust dscp  dscp-prio 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7  matches"
	# A bond's members, each with its bond (the bond itself has no DCB).
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx-lag" -b pfc show
	assert_success
	assert_output "ens1f0np0@bond0  pfc 3  trust dscp  dscp-prio 26:3 48:6  matches
ens1f1np1@bond0  pfc 3  trust dscp  dscp-prio 26:3 48:6  matches"
	# No DCB: its values unknown ("-"), and so the verdict.
	run --separate-stderr "$RDMACTL" -b pfc show dev lo
	assert_output "lo  pfc -  trust -  dscp-prio -  unknown"
	# JSON does not change with -b.
	[ "$("$RDMACTL" --root "$HOSTS/cx6dx" -b -j pfc show | jq -S .)" = "$("$RDMACTL" --root "$HOSTS/cx6dx" -j pfc show | jq -S .)" ]
}
