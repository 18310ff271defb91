#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $stderr
# diag scenarios: every check of `diag list` fires on some fixture host, the scenario hosts
# (lossless-broken, link-faults, multi-subnet, lag-mistakes) report exactly their faults, and
# the course's four design mistakes are each caught by a named finding
load ../helpers

setup() {
	command -v jq >/dev/null || skip "jq not installed"
}

# Fixtures are in git: a missing one is a broken checkout, not a lacking machine.
need_host() {
	[ -d "$HOSTS/$1/sys/class/net" ] || fail "fixture testdata/hosts/$1 is missing"
}

# diag on HOST as a bundle reads it (its recorded window), JSON in $output.
diag_json() {
	need_host "$1"
	run --separate-stderr rd "$1" -j diag
	if [ "$status" -gt 3 ] || [ "$status" -eq 2 ]; then
		fail "$1: diag exits $status: $stderr"
	fi
	echo "$output" | json_valid || fail "$1: not JSON"
}

# "id object" of every finding, sorted, comma-joined: the object is the netdev, else the bond,
# else "-" (a finding about the host).
findings() {
	jq -r '[.findings[] | "\(.id) \(.netdev // .bond // "-")"] | sort | join(",")' <<<"$output"
}

# Whether the findings in $output have ID (any severity but skip) on OBJECT (netdev or bond).
has_finding() {
	jq -e --arg id "$1" --arg on "$2" \
		'any(.findings[]; .id == $id and (.netdev // .bond // "-") == $on)' <<<"$output" >/dev/null
}

# Evidence NAME of finding ID on NETDEV in $output, the whole piece as JSON; fails (saying so)
# unless there is exactly one.
qos_ev() {
	jq -c --arg id "$1" --arg nd "$2" --arg name "$3" 2>&1 \
		'[.findings[] | select(.id == $id and .netdev == $nd) | .evidence[] | select(.name == $name)]
		| if length == 1 then .[0] else error("\($id) \($nd): \(length) pieces named \($name)") end' \
		<<<"$output"
}

@test "diag scenarios: every check of 'diag list' fires (fail, warn or info) on some fixture host" {
	local ids host hit=" " id missing=""
	ids=$("$RDMACTL" -j diag list | jq -r '.checks[].id')
	[ "$(wc -l <<<"$ids")" -ge 37 ] || fail "diag list has only $(wc -l <<<"$ids") checks"
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		diag_json "$host"
		# bond.check reports `rdmactl bond check`'s own ids (bond.roce-lag, ...): a bond.*
		# finding that is no check id of the list is bond.check's
		hit+=$(jq -r --arg ids "$ids" '($ids | split("\n")) as $list
			| .findings[] | select(.severity != "skip") | .id
			| if (startswith("bond.") and (. as $i | $list | index($i) | not))
			  then "bond.check" else . end' <<<"$output" | sort -u | tr '\n' ' ')
	done
	for id in $ids; do
		[[ $hit == *" $id "* ]] || missing+=" $id"
	done
	[ -z "$missing" ] || fail "checks without a fixture host that triggers them:$missing"
}

@test "diag scenarios: lossless-broken: PFC, DSCP map, pause, drops, ECN and CNPs, exit 1" {
	diag_json lossless-broken
	[ "$status" -eq 1 ]
	want="qos.cnp-inconsistent ens1f1np1,qos.cnp-loop ens1f0np0,qos.dscp-map ens1f0np0,"
	want+="qos.dscp-map ens1f1np1,qos.ecn-off ens1f0np0,qos.ecn-off ens1f1np1,"
	want+="qos.global-pause ens1f1np1,qos.lossless-drops ens1f0np0,qos.pause-storm ens1f0np0,"
	want+="qos.pfc-too-many ens1f0np0,qos.pfc-too-many ens1f1np1,qos.rx-pause ens1f0np0,"
	want+="transport.loss ens1f0np0"
	[ "$(findings)" = "$want" ] || fail "findings: $(findings)"
	# the window is the bundle's: the storm is a fail, the peer's pauses a warning
	echo "$output" | jq -e '.interval_s == 5'
	echo "$output" | jq -e '.findings[] | select(.id == "qos.pause-storm") |
		.severity == "fail" and (.title | test("58\\.[0-9]% of the 5.0 s window on priority 3"))'
	echo "$output" | jq -e '.findings[] | select(.id == "qos.pfc-too-many") |
		.title | test("CNP priority 6 \\(PFC on: 3,4,6\\)")'
	echo "$output" | jq -e '[.findings[] | select(.id == "qos.dscp-map") | .title] | unique ==
		["RoCE DSCP 26 not in the APP table (want priority 3)"]'
	echo "$output" | jq -e '.findings[] | select(.id == "qos.cnp-loop") |
		.title == "182311 ECN-marked RoCE packets received, no CNP sent"'
	echo "$output" | jq -e '.findings[] | select(.id == "qos.cnp-inconsistent") |
		.title | startswith("CNPs go out with DSCP 26 and priority 3, not 48 and 6")'
	echo "$output" | jq -e '.findings[] | select(.id == "qos.global-pause") |
		.title | test("rx 1536, tx 0")'
	echo "$output" | jq -e '.findings[] | select(.id == "transport.loss") |
		.title | test("out_of_sequence \\+61288")'
	echo "$output" | jq -e '.findings | all(.fix != null and .fix != "" and .why != "")'
}

@test "diag scenarios: qos evidence is one typed value each (schema 3)" {
	local e
	diag_json lossless-broken
	# pfc_en was "0x58 (priorities 3,4,6)": the bitmap, its priorities the detail
	e=$(qos_ev qos.pfc-too-many ens1f0np0 pfc_en) || fail "$e"
	jq -e '.value == 88 and .detail == "priorities 3,4,6" and .delta == null' <<<"$e" || fail "$e"
	e=$(qos_ev qos.pfc-too-many ens1f0np0 pfc_cap) || fail "$e"
	jq -e '.value == 8' <<<"$e" || fail "$e"
	# "roce dscp prio" "DSCP 26: no entry": null, the DSCP in the detail; the policy's
	# "roce-dscp, roce-prio" "26:3" is two pieces
	e=$(qos_ev qos.dscp-map ens1f0np0 roce_dscp_prio) || fail "$e"
	jq -e '.value == null and .detail == "DSCP 26"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.dscp-map ens1f0np0 cnp_dscp_prio) || fail "$e"
	jq -e '.value == 6 and .detail == "DSCP 48"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.dscp-map ens1f0np0 roce-dscp) || fail "$e"
	jq -e '.value == 26 and .source == "diag policy"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.dscp-map ens1f0np0 roce-prio) || fail "$e"
	jq -e '.value == 3' <<<"$e" || fail "$e"
	# the storm: the pause-duration counter over the 5 s window, and the share it makes
	e=$(qos_ev qos.pause-storm ens1f0np0 tx_prio3_pause_duration) || fail "$e"
	jq -e '.value == 7652423 and .delta == 2905161 and .window_s == 5 and .since_reset == false' \
		<<<"$e" || fail "$e"
	e=$(qos_ev qos.pause-storm ens1f0np0 tx_pause_pct) || fail "$e"
	jq -e '(.value | type) == "number" and .value > 58 and .value < 59' <<<"$e" || fail "$e"
	e=$(qos_ev qos.pause-storm ens1f0np0 tx_pause_storm_warning_events) || fail "$e"
	jq -e '.value == 39 and .delta == 2 and .window_s == 5' <<<"$e" || fail "$e"
	e=$(qos_ev qos.pause-storm ens1f0np0 tx-pause-pct-fail) || fail "$e"
	jq -e '.value == 50' <<<"$e" || fail "$e"
	e=$(qos_ev qos.rx-pause ens1f0np0 rx_pause_pct) || fail "$e"
	jq -e '(.value | type) == "number" and .value > 22 and .value < 23' <<<"$e" || fail "$e"
	# "pause" "autoneg off rx off tx off": booleans; the 802.3x frames a counter over the window
	e=$(qos_ev qos.global-pause ens1f1np1 rx_pause) || fail "$e"
	jq -e '.value == false' <<<"$e" || fail "$e"
	e=$(qos_ev qos.global-pause ens1f1np1 rx_pause_ctrl_phy) || fail "$e"
	jq -e '.value == 21953 and .delta == 1536 and .window_s == 5' <<<"$e" || fail "$e"
	e=$(qos_ev qos.lossless-drops ens1f0np0 pfc_delay_bits) || fail "$e"
	jq -e '.value == 7' <<<"$e" || fail "$e"
	e=$(qos_ev qos.lossless-drops ens1f0np0 buffer_size_bytes) || fail "$e"
	jq -e '.value == 262016' <<<"$e" || fail "$e"
	e=$(qos_ev qos.ecn-off ens1f0np0 roce_np_enable) || fail "$e"
	jq -e '.value == false' <<<"$e" || fail "$e"
	e=$(qos_ev qos.cnp-inconsistent ens1f1np1 cnp_dscp) || fail "$e"
	jq -e '.value == 26' <<<"$e" || fail "$e"
	e=$(qos_ev qos.cnp-inconsistent ens1f1np1 cnp_802p_prio) || fail "$e"
	jq -e '.value == 3' <<<"$e" || fail "$e"
	e=$(qos_ev qos.cnp-loop ens1f0np0 np_cnp_sent) || fail "$e"
	jq -e '.value == 2599577 and .delta == 0 and .window_s == 5' <<<"$e" || fail "$e"

	diag_json degraded
	e=$(qos_ev qos.pfc-off ens1f0np0 pfc_en) || fail "$e"
	jq -e '.value == 0 and .detail == "no priority"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.trust ens1f0np0 dscp_app_entries) || fail "$e"
	jq -e '.value == 0' <<<"$e" || fail "$e"
	# ETS's eight-entry maps ("0:0 1:0 ... 3:3 ...") became the RoCE and CNP TCs' values
	e=$(qos_ev qos.ets ens1f0np0 roce_tc) || fail "$e"
	jq -e '.value == 3' <<<"$e" || fail "$e"
	e=$(qos_ev qos.ets ens1f0np0 roce_tc_tsa) || fail "$e"
	jq -e '.value == "vendor"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.ets ens1f0np0 ets-min-bw-pct) || fail "$e"
	jq -e '.value == 50' <<<"$e" || fail "$e"
	# one sample: counters since their reset, no window
	e=$(qos_ev qos.cnp-loop ens1f0np0 rp_cnp_ignored) || fail "$e"
	jq -e '.value == 2 and .since_reset == true and .delta == null' <<<"$e" || fail "$e"

	diag_json link-faults
	e=$(qos_ev qos.dcbx-fight ens2f0np0 dcbx) || fail "$e"
	jq -e '.value == 12 and .detail == "cee ieee"' <<<"$e" || fail "$e"
	e=$(qos_ev qos.dcbx-fight ens2f0np0 willing) || fail "$e"
	jq -e '.value == false' <<<"$e" || fail "$e"
}

@test "diag scenarios: host.pcie-degraded's evidence has port show's pcie names and values (degraded)" {
	local pcie
	need_host degraded
	run --separate-stderr rd degraded -j port show ens1f0np0
	assert_success
	pcie=$(jq -c '.ports[0].pcie | del(.degraded)' <<<"$output")
	[ "$pcie" = '{"current_speed_gts":8,"current_width":8,"max_speed_gts":16,"max_width":16}' ] ||
		fail "port show's pcie: $pcie"
	diag_json degraded
	jq -e --argjson pcie "$pcie" '[.findings[] | select(.id == "host.pcie-degraded"
		and .netdev == "ens1f0np0") | .evidence[] | select(.name | test("speed_gts|width"))
		| {(.name): .value}] | add == $pcie' <<<"$output" >/dev/null ||
		fail "evidence: $(jq -c '[.findings[] | select(.id == "host.pcie-degraded") | .evidence]' <<<"$output")"
}

@test "diag scenarios: link-faults: speed, FEC, module, firmware, VF, RNR and rdma_cm, exit 1" {
	diag_json link-faults
	[ "$status" -eq 1 ]
	want="host.fw-mismatch -,host.vf-limits ens2f0v0,link.fec-off ens1f0np0,"
	want+="link.speed-below-capability ens1f0np0,link.transceiver ens1f1np1,"
	want+="qos.dcbx-fight ens2f0np0,qos.dcbx-fight ens2f1np1,transport.host-too-slow ens2f0v0,"
	want+="transport.rdma-cm ens2f0np0,transport.rdma-cm ens2f1np1"
	[ "$(findings)" = "$want" ] || fail "findings: $(findings)"
	echo "$output" | jq -e '.findings[] | select(.id == "link.speed-below-capability") |
		.title == "ens1f0np0 runs at 25000 Mb/s, below its own 100000 Mb/s"'
	echo "$output" | jq -e '.findings[] | select(.id == "host.fw-mismatch") |
		.title | test("4 MT4125 adapters run 2 firmware versions")'
	echo "$output" | jq -e '.findings[] | select(.id == "transport.host-too-slow") |
		.severity == "fail" and (.title | test("out_of_buffer \\+8841"))'
	echo "$output" | jq -e '[.findings[] | select(.id == "transport.rdma-cm") | .title] | unique ==
		["rdma_cm default mode IB/RoCE v1 (want RoCE v2), default ToS 0 (policy 106: DSCP 26)"]'
	# the VF is judged by what a VF has: no DCB, no FEC, no PCIe link of its own
	echo "$output" | jq -e '[.skipped[] | select(.netdev == "ens2f0v0") | .id] |
		index("qos.pfc-off") != null and index("link.fec-off") != null and
		index("host.pcie-degraded") != null'
}

@test "diag scenarios: multi-subnet: one subnet on two links, ARP flux, one route, exit 3" {
	diag_json multi-subnet
	[ "$status" -eq 3 ]
	want="bond.none -,links.arp-flux -,links.same-subnet -,links.traffic-imbalance ens1f0np0"
	[ "$(findings)" = "$want" ] || fail "findings: $(findings)"
	echo "$output" | jq -e '.findings[] | select(.id == "links.arp-flux") | .title ==
		"ARP flux on 10.40.0.0/24 (ens1f0np0, ens1f1np1): arp_ignore 0, arp_announce 0, rp_filter 1"'
	echo "$output" | jq -e '.findings[] | select(.id == "links.traffic-imbalance") |
		.title | test("ens1f0np0 carried 99%")'
}

@test "diag scenarios: lag-mistakes: LACP without miimon, balance-alb without RoCE LAG, exit 1" {
	diag_json lag-mistakes
	[ "$status" -eq 1 ]
	want="bond.failover-outlasts-qp bond0,bond.failover-skipped bond1,bond.miimon-off bond0,"
	want+="bond.mode-no-roce-lag bond1,bond.no-rdma-device bond1,bond.pfc-mismatch bond1,"
	want+="bond.roce-lag bond0,qos.members-differ bond1,qos.pfc-too-many ens2f1np1,"
	want+="transport.gid-missing ens2f1np1"
	# A bundle of one sample judges counters since boot: those are warnings saying so.
	jq -e '[.findings[] | select(.id | test("^(link\\.crc|qos\\.lossless|qos\\.cnp|transport\\.loss|transport\\.host)"))]
		| length > 0 and all(.severity == "warn" and (.title | test("since (boot|the counters)")))' <<<"$output" ||
		fail "counter findings: $output"
	output=$(jq '.findings |= map(select(.id | test("^(link\\.crc|qos\\.lossless|qos\\.cnp|transport\\.loss|transport\\.host)") | not))' <<<"$output")
	[ "$(findings)" = "$want" ] || fail "findings: $(findings)"
	# bond check on its own says the same about the two bonds
	run --separate-stderr rd lag-mistakes -j bond check
	[ "$status" -eq 1 ] || fail "bond check exits $status: $stderr"
	echo "$output" | jq -e '[.bonds[] | .bond] == ["bond0", "bond1"]'
}

@test "diag on bonds: qos checks run on the members, a RoCE LAG port is one entry per member" {
	diag_json cx6dx-lag
	# The members' DCB is read (it was "cannot read DCB of 'bond0'"): no qos skip for DCB.
	jq -e '[.skipped[] | select(.id | startswith("qos.")) | .reason] |
		all(test("DCB not read") | not)' <<<"$output" || fail "$output"
	[ "$(jq -c '[.ports[] | [.device, .netdev]]' <<<"$output")" = \
	  '[["mlx5_bond_0","ens1f0np0"],["mlx5_bond_0","ens1f1np1"]]' ]
	# Checks of the RDMA port itself run once, not per member.
	[ "$(jq '[.skipped[] | select(.id == "transport.loss")] | length' <<<"$output")" -le 1 ]
	# lag-mistakes' bond1 members differ (ens2f1np1 has PFC on 4 too): one finding, evidence per
	# setting that differs, named as pfc show's bonds[].differences[].what names it (it was pfc
	# set's keyword "prio-pfc"), its value the list of members and what each has.
	diag_json lag-mistakes
	jq -e '.findings[] | select(.id == "qos.members-differ") |
		.bond == "bond1" and .severity == "fail" and
		([.evidence[].name] == ["pfc.enabled_prios"]) and
		(.evidence[] | select(.name == "pfc.enabled_prios") | .value) == "ens2f0np0 3, ens2f1np1 3,4"' \
		<<<"$output" || fail "$output"
	# A member without carrier is named by its own netdev, not the bond's.
	diag_json ab-2nic
	has_finding link.no-carrier ens1f0np0 || fail "ab-2nic: ens1f0np0 without carrier not found"
}

# ---- the course's four design mistakes, each caught by name ---------------------------------

@test "design mistake 1: an RDMA NIC bonded without RoCE LAG (lag-mistakes, ab-2nic)" {
	diag_json lag-mistakes
	has_finding bond.mode-no-roce-lag bond1 || fail "lag-mistakes: no bond.mode-no-roce-lag on bond1"
	has_finding bond.no-rdma-device bond1
	# active-backup is a RoCE LAG mode, but not over ports of two NICs
	diag_json ab-2nic
	has_finding bond.members-not-one-nic bond0 || fail "ab-2nic: no bond.members-not-one-nic"
}

@test "design mistake 2: PFC not configured for the RoCE priority (degraded)" {
	diag_json degraded
	has_finding qos.pfc-off ens1f0np0 || fail "degraded: no qos.pfc-off on ens1f0np0"
	echo "$output" | jq -e '.findings[] | select(.id == "qos.pfc-off" and .netdev == "ens1f0np0") |
		.severity == "fail" and (.title | startswith("PFC is off on the RoCE priority 3"))'
}

@test "design mistake 3: more links as more addresses in one subnet, no ARP settings (multi-subnet)" {
	diag_json multi-subnet
	has_finding links.same-subnet - || fail "multi-subnet: no links.same-subnet"
	has_finding links.arp-flux - || fail "multi-subnet: no links.arp-flux"
	# the same hardware with a subnet per link and the ARP sysctls set finds nothing
	diag_json clean-2port
	[ "$(findings)" = "" ]
}

@test "design mistake 4: failover left to the hardware: no miimon, QPs give up first (lag-mistakes)" {
	diag_json lag-mistakes
	has_finding bond.miimon-off bond0 || fail "lag-mistakes: no bond.miimon-off on bond0"
	has_finding bond.failover-outlasts-qp bond0 || fail "lag-mistakes: no bond.failover-outlasts-qp"
	echo "$output" | jq -e '.findings[] | select(.id == "bond.failover-outlasts-qp") |
		.severity == "fail" and (.title | test("outlasts the QP retry window"))'
	# the same RoCE LAG with miimon 100 outlives its failover
	diag_json cx6dx-lag
	has_finding bond.qp-outlives-failover bond0
}
