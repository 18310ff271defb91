#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $stderr
# rdmactl bond on the fixture hosts: usage errors, show and check in text, JSON
# and YAML, dry-run plans against a bundle, writes and failover refused there,
# netplan files, the rdmactl-bond link, completion, and the man page's keys
load ../helpers

LAG=cx6dx-lag	# 802.3ad RoCE LAG over both ports of one ConnectX-6 Dx
AB=ab-2nic	# active-backup over ports of two NICs: no RoCE LAG, failed over
PAGE=$TOP/man/rdmactl-bond.8.scd

# Fixtures are in git: a missing one is a broken checkout, not a lacking machine.
need_host() {
	[ -d "$HOSTS/$1/sys/class/net" ] || fail "fixture testdata/hosts/$1 is missing"
}

# Every fixture host, by name.
all_hosts() {
	local d
	for d in "$HOSTS"/*/; do
		[ -d "$d/sys" ] && basename "$d"
	done
}

# jq on $output, failing with the document.
expect() { jq -e "$1" <<<"$output" >/dev/null || fail "not ($1): $output"; }

# A usage error: exit 2, nothing on stdout, "rdmactl: bond: MSG" (MSG a
# substring) and the pointer to the help on stderr.
assert_usage() {
	local msg=$1
	shift
	run --separate-stderr "$RDMACTL" --root "$HOSTS/$LAG" "$@"
	[ "$status" -eq 2 ] || fail "'$*' exits $status, not 2: $stderr"
	[ -z "$output" ] || fail "'$*' printed on stdout: $output"
	[[ $stderr == "rdmactl: bond: "*"$msg"* ]] || fail "'$*': '$stderr' does not say '$msg'"
	[[ $stderr == *"see 'rdmactl help bond'"* ]] || fail "'$*': no pointer to the help: $stderr"
}

# The exit status bond check gives for the findings of the document in $output.
check_exit() {
	jq -r '[.bonds[].findings[].severity] as $s
		| if ($s | index("fail")) then 1 elif ($s | index("warn")) then 3 else 0 end' <<<"$output"
}

# ---- usage errors --------------------------------------------------------------

@test "bond: an unknown action is a usage error with a did-you-mean" {
	assert_usage "unknown action 'shwo'; did you mean 'show'?" bond shwo
	assert_usage "unknown action 'creat'; did you mean 'create'?" bond creat bond0
	assert_usage "unknown keyword 'miimom'; did you mean 'miimon'?" bond set bond0 miimom 100
}

@test "bond create: mode is required; a bad mode lists the valid ones" {
	assert_usage "create: a new bond needs 'mode MODE'" bond create bond0 members ens1f0np0
	assert_usage "'mode sideways': not active-backup, 802.3ad, balance-xor, balance-rr, broadcast, balance-tlb or balance-alb" \
		bond create bond0 mode sideways
}

@test "bond create: milliseconds are N, Nms or Ns, nothing else" {
	assert_usage "'miimon -5': not milliseconds (N, Nms or Ns)" bond create bond0 mode active-backup miimon -5
	assert_usage "'miimon 10x': not milliseconds (N, Nms or Ns)" bond create bond0 mode active-backup miimon 10x
	assert_usage "'updelay 1.5s': not milliseconds" bond create bond0 mode active-backup updelay 1.5s
	assert_usage "'downdelay 100us': not milliseconds" bond set bond0 downdelay 100us
}

@test "bond create: members must name at least one interface" {
	assert_usage "'members': name at least one interface" bond create bond0 mode active-backup members ''
	assert_usage "'members': name at least one interface" bond create bond0 mode active-backup members ,
	assert_usage "'min-links 17'" bond create bond0 mode 802.3ad min-links 17
}

@test "bond set, add, del, delete, apply: what is missing is named" {
	assert_usage "set: nothing to set" bond set bond0
	assert_usage "add: missing argument" bond add bond0
	assert_usage "del: missing argument" bond del bond0
	assert_usage "delete: missing argument" bond delete
	assert_usage "apply: give '-f FILE.yaml'" bond apply
	assert_usage "'lacp-rate medium': not fast or slow" bond set bond0 lacp-rate medium
	assert_usage "'xmit-hash layer4': not layer3+4" bond set bond0 xmit-hash layer4
}

@test "bond failover: member or wait, not both; peer is an IPv4 address" {
	assert_usage "failover: give 'member IF' or 'wait SEC'" bond failover bond0
	assert_usage "'member' and 'wait' exclude each other" bond failover bond0 member eth0 wait 5
	assert_usage "'peer notanip': not an IPv4 address" bond failover bond0 member eth0 peer notanip
	assert_usage "'rate 5': out of range 10-10000" bond failover bond0 wait 5 peer 198.18.100.2 rate 5
	assert_usage "'wait 0'" bond failover bond0 wait 0 peer 198.18.100.2
}

@test "bond check: qp-timeout 1-31, retry-cnt 0-7" {
	assert_usage "'qp-timeout 40': out of range 1-31" bond check qp-timeout 40
	assert_usage "'qp-timeout 0': out of range 1-31" bond check qp-timeout 0
	assert_usage "'retry-cnt 8': out of range 0-7" bond check retry-cnt 8
}

# ---- show ------------------------------------------------------------------------

@test "bond show: cx6dx-lag is an 802.3ad RoCE LAG, members with their LACP state" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j bond show
	assert_success
	echo "$output" | json_valid
	expect '.schema == 3 and (.bonds | length) == 1'
	expect '.bonds[0] | .bond == "bond0" and .mode == "802.3ad" and .admin_up and .carrier
		and .mtu_bytes == 9000 and .miimon_ms == 100 and .updelay_ms == 0 and .downdelay_ms == 0
		and .xmit_hash_policy == "layer3+4" and .lacp_rate == "fast" and .ad_select == "stable"
		and .min_links == 0 and .primary == null and .active_member == null'
	expect '.bonds[0].ad_info == {"aggregator_id": 1, "num_ports": 2, "actor_key": 29,
		"partner_key": 1001, "partner_mac": "44:38:39:ff:00:01"}'
	expect '[.bonds[0].members[] | [.netdev, .state, .mii_status, .rate_gbps, .duplex, .mtu_bytes,
		.link_failure_count, .aggregator_id]]
		== [["ens1f0np0", "active", "up", 100, "full", 9000, 0, 1],
		    ["ens1f1np1", "active", "up", 100, "full", 9000, 1, 1]]'
	# A netdev's state in port show's names: the bond's and each member's own.
	expect '.bonds[0] | .admin_up == true and .carrier == true and .operstate == "up"'
	expect '.bonds[0].members | all(.admin_up == true and .carrier == true and .operstate == "up"
		and (.rate_gbps | type) == "number")'
	expect '.bonds[0].members | all(.actor_port_state.value == 63 and .partner_port_state.value == 63)'
	expect '.bonds[0].members[0].actor_port_state.flags
		== ["activity", "short_timeout", "aggregating", "in_sync", "collecting", "distributing"]'
	expect '.bonds[0].members | all(.perm_hwaddr | test("^([0-9a-f]{2}:){5}[0-9a-f]{2}$"))'
	expect '.bonds[0].rdma | .device == "mlx5_bond_0" and .port == 1 and .roce_lag == true and .reason == null'
}

@test "bond show: text names the bond, its aggregator, members and the LAG device" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" bond show
	assert_success
	assert_line --partial "bond0: 802.3ad up mtu 9000 miimon 100 ms"
	assert_line --partial "aggregator 1 (2 ports) actor key 29 partner key 1001 partner 44:38:39:ff:00:01"
	assert_line --regexp '^  ens1f0np0 +active +up +100 Gb/s +full +failures 0 aggregator 1 lacp 63/63$'
	assert_line --regexp '^  ens1f1np1 +active +up +100 Gb/s +full +failures 1 aggregator 1 lacp 63/63$'
	assert_line "  rdma mlx5_bond_0/1 (RoCE LAG: the RDMA port's netdev is bond0)"
	# One bond by name; one that does not exist fails.
	run --separate-stderr rd "$LAG" -j bond show bond0
	assert_success
	expect '[.bonds[].bond] == ["bond0"]'
	run --separate-stderr rd "$LAG" bond show bond9
	assert_failure 1
	[ -z "$output" ]
	[[ $stderr == "rdmactl: bond: no bond 'bond9'"* ]] || fail "$stderr"
	# Without an action, show.
	run --separate-stderr rd "$LAG" -j bond
	assert_success
	expect '[.bonds[].bond] == ["bond0"]'
}

@test "bond show: the hosts without bonds show none and exit 0" {
	local h n=0
	for h in $(all_hosts); do
		[ -e "$HOSTS/$h/proc/net/bonding" ] && continue
		run --separate-stderr rd "$h" -j bond show
		[ "$status" -eq 0 ] || fail "$h: exit $status: $stderr"
		[ "$(jq -c '.bonds' <<<"$output")" = "[]" ] || fail "$h: $output"
		run --separate-stderr rd "$h" bond show
		assert_success
		assert_output "no bonds"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "only $n hosts without bonds"
}

@test "bond show: JSON and YAML agree on every fixture" {
	local h
	for h in $(all_hosts); do
		run --separate-stderr rd "$h" -j bond show
		assert_success
		json=$(jq -S . <<<"$output")
		run --separate-stderr rd "$h" --yaml bond show
		assert_success
		yaml=$(yaml_to_json <<<"$output" | jq -S .)
		[ "$json" = "$yaml" ] || fail "$h: JSON and YAML differ"
	done
}

@test "bond show: the bond of a bundle without a kernel recording comes from procfs" {
	need_host "$LAG"
	cp -a "$HOSTS/$LAG" "$BATS_TEST_TMPDIR/h"
	rm "$BATS_TEST_TMPDIR/h/kernel.rec"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" -j bond show
	assert_success
	expect '.bonds[0] | .mode == "802.3ad" and .miimon_ms == 100 and .lacp_rate == "fast"
		and .ad_info.partner_mac == "44:38:39:ff:00:01" and .rdma.roce_lag'
	expect '[.bonds[0].members[] | [.netdev, .state, .mii_status, .actor_port_state.value]]
		== [["ens1f0np0", "active", "up", 63], ["ens1f1np1", "active", "up", 63]]'
	# No netlink: each member's carrier, admin state and operstate are sysfs's.
	expect '.bonds[0].members | all(.admin_up == true and .carrier == true and .operstate == "up")'
	expect '.bonds[0].operstate == "up"'
}

# Every key of a bond document is always there (schema 3): null when unknown or not
# applicable, never absent; in show and in the before/after of a change alike.
BOND_KEYS='["active_member","ad_info","ad_select","admin_up","arp_interval_ms","bond","carrier",
	"downdelay_ms","lacp_rate","members","min_links","miimon_ms","mode","mtu_bytes","operstate",
	"primary","rdma","updelay_ms","xmit_hash_policy"]'
MEMBER_KEYS='["actor_port_state","admin_up","aggregator_id","carrier","duplex","link_failure_count",
	"mii_status","mtu_bytes","netdev","operstate","partner_port_state","perm_hwaddr","rate_gbps",
	"state"]'

@test "bond show: every bond and member has every key on every fixture, typed" {
	local h n=0
	for h in $(all_hosts); do
		run --separate-stderr rd "$h" -j bond show
		assert_success
		n=$((n + $(jq '[.bonds[].members[]] | length' <<<"$output")))
		jq -e --argjson bk "$BOND_KEYS" --argjson mk "$MEMBER_KEYS" 'all(.bonds[];
			(keys == ($bk | sort)) and all(.members[]; keys == ($mk | sort)
				and (.rate_gbps | type == "number" or type == "null")
				and (.admin_up | type == "boolean" or type == "null")
				and (.carrier | type == "boolean" or type == "null")
				and (.operstate | type == "string" or type == "null")))' <<<"$output" >/dev/null ||
			fail "$h: a key missing, extra or mistyped: $output"
	done
	# 802.3ad members, members of other modes and a down one are among them.
	[ "$n" -ge 6 ] || fail "only $n members on all fixtures"
}

@test "bond --dry-run: before and after are bonds as show has them, every key there" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j --dry-run bond set bond0 miimon 100
	assert_success
	jq -e --argjson bk "$BOND_KEYS" --argjson mk "$MEMBER_KEYS" '.bonds[0] | [.before, .after]
		| all(keys == ($bk | sort) and all(.members[]; keys == ($mk | sort)))' <<<"$output" >/dev/null ||
		fail "before or after lacks a key: $output"
	expect '.bonds[0].before | .operstate == "up" and all(.members[]; .admin_up and .carrier
		and .operstate == "up" and .rate_gbps == 100)'
}

@test "bond show: ab-2nic is active-backup over two NICs, failed over, no RoCE LAG" {
	need_host "$AB"
	run --separate-stderr rd "$AB" -j bond show
	assert_success
	expect '.bonds[0] | .mode == "active-backup" and .primary == "ens1f0np0" and .active_member == "ens2f0np0"'
	expect '[.bonds[0].members[] | [.netdev, .state, .mii_status]]
		== [["ens1f0np0", "backup", "down"], ["ens2f0np0", "active", "up"]]'
	expect '.bonds[0].members[0].rate_gbps == null and .bonds[0].ad_info == null'
	expect '.bonds[0].members | all(.aggregator_id == null and .actor_port_state == null)'
	# The dead member: up by its admin state, its own carrier and operstate down, and the
	# bond's link monitor (mii_status) agrees; the backup member is up on every count.
	expect '[.bonds[0].members[] | [.netdev, .admin_up, .carrier, .operstate, .mii_status, .rate_gbps]]
		== [["ens1f0np0", true, false, "down", "down", null], ["ens2f0np0", true, true, "up", "up", 100]]'
	expect '.bonds[0] | .admin_up == true and .carrier == true and .operstate == "up"'
	# Both NICs' ports carry the bond's GIDs, but they are two devices: no LAG.
	expect '.bonds[0].rdma | .roce_lag == false and .device == null and (.reason | test("RoCE LAG"))'
}

# ---- check ---------------------------------------------------------------------

@test "bond check: cx6dx-lag, exit as its findings say, the maths in the open" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j bond check
	local want
	want=$(check_exit)
	[ "$status" -eq "$want" ] || fail "exit $status, the findings say $want: $output"
	expect '.schema == 3 and [.bonds[].bond] == ["bond0"]'
	expect '.bonds[0] | .mode == "802.3ad" and .failover_s == 0.1 and .qp_timeout == 14
		and .retry_cnt == 7 and .qp_survival_s == 0.536870912 and .min_qp_timeout == 12'
	local ids
	ids=$(jq -c '[.bonds[0].findings[].id]' <<<"$output")
	[[ $ids == *'"bond.qp-outlives-failover"'* ]] || fail "no bond.qp-outlives-failover: $ids"
	[[ $ids == *'"bond.roce-lag"'* ]] || fail "no bond.roce-lag: $ids"
	expect '[.bonds[0].findings[] | select(.severity != "info")] == []'
	expect '.bonds[0].findings | all(.id and .title and (.evidence | length > 0)
		and (.evidence | all(.name != "" and .value != "" and .source != "")))'
	expect '.summary == {"fail": 0, "warn": 0, "info": (.bonds[0].findings | length), "dropped": 0}'
	run --separate-stderr rd "$LAG" --yaml bond check
	[ "$(yaml_to_json <<<"$output" | jq -S .)" = "$(rd "$LAG" -j bond check | jq -S .)" ] ||
		fail "JSON and YAML of bond check differ"
}

@test "bond check qp-timeout 10: the failover outlasts the QP, timeout 12 survives" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j bond check qp-timeout 10
	assert_failure 1
	expect '.bonds[0].qp_survival_s == 0.033554432 and .bonds[0].min_qp_timeout == 12'
	expect '.bonds[0].findings[] | select(.id == "bond.failover-outlasts-qp")
		| .severity == "fail" and (.title | test("timeout 12 or more")) and (.fix | test("NCCL_IB_TIMEOUT=12"))'
	expect '.summary.fail == 1'
	run --separate-stderr rd "$LAG" bond check qp-timeout 10
	assert_failure 1
	# The title wraps at 80 columns (issue 13): read it back as one line.
	[[ $(tr -s ' \n' ' ' <<<"$output") == *"fail bond.failover-outlasts-qp: failover (about 100 ms) outlasts the QP retry window (33.6 ms): use timeout 12 or more"* ]] ||
		fail "$output"
	assert_line "1 failed, 0 warnings, $(($(rd "$LAG" -j bond check qp-timeout 10 | jq .summary.info))) notes"
	# One fewer retry is a shorter window: 12 is then too short too.
	run --separate-stderr rd "$LAG" -j bond check qp-timeout 12 retry-cnt 4
	assert_failure 1
	expect '.bonds[0].min_qp_timeout == 13'
}

@test "bond check: a bond named, one that does not exist, a host without bonds" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j bond check bond0
	[ "$status" -ne 2 ] || fail "$stderr"
	expect '[.bonds[].bond] == ["bond0"]'
	run --separate-stderr rd "$LAG" bond check bond9
	assert_failure 1
	[[ $stderr == "rdmactl: bond: no bond 'bond9'"* ]] || fail "$stderr"
	run --separate-stderr rd cx6dx bond check
	assert_failure 1
	[[ $stderr == "rdmactl: bond: no bonds to check"* ]] || fail "$stderr"
}

@test "bond check: ab-2nic fails for ports of two NICs, with their PCI functions" {
	need_host "$AB"
	run --separate-stderr rd "$AB" -j bond check
	assert_failure 1
	[ "$(check_exit)" = 1 ]
	expect '.bonds[0].findings[] | select(.id == "bond.members-not-one-nic")
		| .severity == "fail" and (.title | test("2 NICs"))
		and ([.evidence[].value] == ["0000:3b:00.0", "0000:86:00.0"])
		and ([.evidence[].source] == ["/sys/class/net/ens1f0np0/device", "/sys/class/net/ens2f0np0/device"])'
	expect '.bonds[0].findings[] | select(.id == "bond.member-down") | .severity == "warn"'
	# Without LAG a QP cannot move: survival is not judged, and no LAG is claimed.
	expect '[.bonds[0].findings[].id] | index("bond.failover-skipped") != null'
	expect '[.bonds[0].findings[].id] | index("bond.roce-lag") == null'
	expect '[.bonds[0].findings[].id] | index("bond.failover-outlasts-qp") == null'
}

# ---- changes: planned against a bundle, never written there ------------------------

@test "bond: writes under --root are refused" {
	need_host "$LAG"
	local words
	for words in "set bond0 miimon 200" "set bond0 lacp-rate slow" "del bond0 ens1f1np1" \
		"delete bond0"; do
		# shellcheck disable=SC2086 # the words are words
		run --separate-stderr rd "$LAG" bond $words
		[ "$status" -eq 1 ] || fail "'bond $words' exits $status: $stderr"
		[ -z "$output" ] || fail "'bond $words' printed: $output"
		[ "$stderr" = "rdmactl: bond: writes are refused under --root and --replay" ] ||
			fail "'bond $words': $stderr"
	done
	run --separate-stderr "$RDMACTL" --root "$HOSTS/$LAG" --replay "$HOSTS/$LAG/kernel.rec" bond set bond0 miimon 300
	assert_failure 1
}

@test "bond --dry-run set under --root plans the change and sends nothing" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j --dry-run bond set bond0 miimon 200
	assert_failure 4 # would change
	expect '.schema == 3 and .changed == true and .dry_run == true'
	expect '.bonds[0] | .bond == "bond0" and .changed == true and .dry_run == true and .skipped == []'
	expect '.bonds[0].steps == [{"op": "set", "netdev": "bond0", "text": "set bond0 miimon 200"}]'
	expect '.bonds[0].before.miimon_ms == 100 and .bonds[0].before.mode == "802.3ad" and .bonds[0].after == null'
	# --dry-run among the action's words is the same.
	run --separate-stderr rd "$LAG" -j bond set bond0 miimon 200 --dry-run
	assert_failure 4 # would change
	expect '.dry_run == true and .changed == true'
	run --separate-stderr rd "$LAG" --dry-run bond set bond0 miimon 200
	assert_failure 4 # would change
	assert_output $'bond0: would change (dry run: nothing sent)\n  set bond0 miimon 200'
}

@test "bond --dry-run set of what the bond already has plans nothing" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" -j --dry-run bond set bond0 miimon 100
	assert_success
	expect '.changed == false and .dry_run == true and .bonds[0].changed == false and .bonds[0].steps == []'
	expect '.bonds[0].after == .bonds[0].before'
	run --separate-stderr rd "$LAG" --dry-run bond set bond0 miimon 100ms lacp-rate fast xmit-hash layer3+4
	assert_success
	assert_output "bond0: nothing to change (nothing sent)"
	# Without --dry-run a write is refused under --root, changed or not, as pfc and port are.
	run --separate-stderr rd "$LAG" -j bond create bond0 mode 802.3ad members ens1f0np0,ens1f1np1 miimon 100
	assert_failure 1
	[ "$(jq -r .error.id <<<"$output")" = live-only ] || fail "$output"
	[ "$stderr" = "rdmactl: bond: writes are refused under --root and --replay" ] || fail "$stderr"
}

@test "bond --dry-run: the kernel's order, and options the mode does not use skipped" {
	need_host "$LAG"
	# lacp-rate changes only on a down bond: down, set, up.
	run --separate-stderr rd "$LAG" -j --dry-run bond set bond0 lacp-rate slow ad-select count
	assert_failure 4 # would change
	expect '[.bonds[0].steps[] | [.op, .netdev]] == [["down", "bond0"], ["set", "bond0"], ["up", "bond0"]]'
	expect '.bonds[0].steps[1].text == "set bond0 lacp-rate slow ad-select count"'
	# 802.3ad has no primary: not sent, listed.
	run --separate-stderr rd "$LAG" -j --dry-run bond set bond0 primary ens1f0np0
	assert_success
	expect '.changed == false and .bonds[0].skipped == ["primary"] and .bonds[0].steps == []'
	run --separate-stderr rd "$LAG" --dry-run bond set bond0 primary ens1f0np0 miimon 2s
	assert_failure 4 # would change
	assert_line "  set bond0 miimon 2000"
	assert_line "  primary: not used in this mode, not sent"
	# del releases and brings the member up again; delete releases all, then deletes.
	run --separate-stderr rd "$LAG" -j --dry-run bond del bond0 ens1f1np1
	assert_failure 4 # would change
	expect '[.bonds[0].steps[] | [.op, .netdev]] == [["release", "ens1f1np1"], ["up", "ens1f1np1"]]'
	run --separate-stderr rd "$LAG" -j --dry-run bond delete bond0
	assert_failure 4 # would change
	expect '[.bonds[0].steps[].op] == ["release", "up", "release", "up", "delete"] and .bonds[0].after == null'
}

@test "bond --dry-run: members and names the plan refuses, before anything is sent" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" --dry-run bond del bond0 ens9
	assert_failure 2
	[[ $stderr == *"'ens9' is not a member of 'bond0'"* ]] || fail "$stderr"
	run --separate-stderr rd "$LAG" --dry-run bond add bond0 ens9
	assert_failure 2
	[[ $stderr == *"member 'ens9': no such network interface"* ]] || fail "$stderr"
	run --separate-stderr rd "$LAG" --dry-run bond set bond0 primary ens9
	assert_failure 2
	[[ $stderr == *"primary 'ens9' is not a member of 'bond0'"* ]] || fail "$stderr"
	run --separate-stderr rd "$LAG" --dry-run bond create bond1 mode active-backup members ens1f0np0
	assert_failure 2
	[[ $stderr == *"member 'ens1f0np0' already belongs to 'bond0'"* ]] || fail "$stderr"
	run --separate-stderr rd "$LAG" --dry-run bond add bond7 ens1f0np0
	assert_failure 1
	[[ $stderr == "rdmactl: bond: no bond 'bond7'"* ]] || fail "$stderr"
}

@test "bond apply -f: a netplan file of the fixture's bond plans nothing; a change plans it" {
	need_host "$LAG"
	local f=$BATS_TEST_TMPDIR/bond.yaml
	cat >"$f" <<-'EOF'
	network:
	  version: 2
	  renderer: networkd
	  ethernets:
	    ens1f0np0: {}
	    ens1f1np1: {}
	  bonds:
	    bond0:
	      interfaces: [ens1f0np0, ens1f1np1]
	      parameters:
	        mode: 802.3ad
	        mii-monitor-interval: 100ms
	        lacp-rate: fast
	        transmit-hash-policy: layer3+4
	        ad-select: stable
	        min-links: 0
	        up-delay: 0
	        down-delay: 0
	EOF
	run --separate-stderr rd "$LAG" -j --dry-run bond apply -f "$f"
	assert_success
	expect '.changed == false and [.bonds[].bond] == ["bond0"] and .bonds[0].steps == []'
	# From standard input, without the network: wrapper.
	run --separate-stderr rd "$LAG" -j --dry-run bond apply -f - < <(sed -n '/^  bonds:/,$p' "$f" | sed 's/^  //')
	assert_success
	expect '.changed == false'
	sed -i 's/lacp-rate: fast/lacp-rate: slow/' "$f"
	run --separate-stderr rd "$LAG" -j --dry-run bond apply -f "$f"
	assert_failure 4 # would change
	expect '.changed == true and [.bonds[0].steps[].op] == ["down", "set", "up"]'
	run --separate-stderr rd "$LAG" bond apply -f "$f"
	assert_failure 1
	[ "$stderr" = "rdmactl: bond: writes are refused under --root and --replay" ] || fail "$stderr"
}

@test "bond apply -f: errors name the file and the line" {
	need_host "$LAG"
	local f=$BATS_TEST_TMPDIR/bond.yaml
	printf 'network:\n  bonds:\n    bond0:\n      interfaces: [ens1f0np0, ens1f1np1]\n      parameters:\n        mode: 802.3ad\n        gratuitous-arp: 3\n' >"$f"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$f"
	assert_failure 2
	[[ $stderr == *"$f line 7: bond parameter 'gratuitous-arp' is not one rdmactl sets"* ]] || fail "$stderr"
	[[ $stderr == *"in '$f', the bond at line 3"* ]] || fail "$stderr"
	printf 'network:\n  bonds:\n    bond0:\n      interfaces: [ens1f0np0, ens1f1np1]\n      addresses: [10.0.0.1/24]\n' >"$f"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$f"
	assert_failure 1
	[[ $stderr == *"$f line 5: 'addresses' is not a bond setting rdmactl applies"* ]] || fail "$stderr"
	printf 'network:\n  bonds:\n    bond0:\n      parameters:\n        mode: 802.3ad\n        mode: active-backup\n' >"$f"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$f"
	assert_failure 1
	[[ $stderr == *"$f line 6: 'mode' given twice"* ]] || fail "$stderr"
	printf 'network:\n  bonds:\n    bond0:\n      parameters:\n        mode: sideways\n' >"$f"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$f"
	assert_failure 2
	[[ $stderr == *"'mode sideways'"* ]] || fail "$stderr"
	printf 'network:\n  ethernets: {}\n' >"$f"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$f"
	assert_failure 1
	[[ $stderr == *"$f line 2: no 'bonds' section"* ]] || fail "$stderr"
	run --separate-stderr rd "$LAG" --dry-run bond apply -f "$BATS_TEST_TMPDIR/none.yaml"
	assert_failure 1
	[[ $stderr == *"cannot open"* ]] || fail "$stderr"
}

# ---- failover ----------------------------------------------------------------------

@test "bond failover: refused under --root and --replay, with a message" {
	need_host "$LAG"
	run --separate-stderr rd "$LAG" bond failover bond0 member ens1f0np0 peer 198.18.100.2
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "rdmactl: bond: failover measures the live system, not --root or --replay" ] || fail "$stderr"
	run --separate-stderr "$RDMACTL" --replay "$HOSTS/$LAG/kernel.rec" bond failover bond0 wait 5 peer 198.18.100.2
	assert_failure 1
	[[ $stderr == *"failover measures the live system"* ]] || fail "$stderr"
}

# ---- the link, completion ------------------------------------------------------------

@test "bond: the busybox link rdmactl-bond runs the bond verb" {
	need_host "$LAG"
	ln -sf "$RDMACTL" "$BATS_TEST_TMPDIR/rdmactl-bond"
	run --separate-stderr "$BATS_TEST_TMPDIR/rdmactl-bond" --root "$HOSTS/$LAG" -j show bond0
	assert_success
	expect '.bonds[0].bond == "bond0" and .bonds[0].rdma.roce_lag'
	run --separate-stderr "$BATS_TEST_TMPDIR/rdmactl-bond" --root "$HOSTS/$LAG" -j
	assert_success
	expect '[.bonds[].bond] == ["bond0"]'
	run "$BATS_TEST_TMPDIR/rdmactl-bond" --help
	assert_success
	assert_line --index 0 --partial "rdmactl bond - link aggregation for RDMA: show, create, check RoCE LAG"
	run --separate-stderr "$BATS_TEST_TMPDIR/rdmactl-bond" --root "$HOSTS/$LAG" check qp-timeout 40
	assert_failure 2
	[[ $stderr == *"'qp-timeout 40'"* ]] || fail "$stderr"
}

# The keywords of `rdmactl help bond ACTION` (see man.bats), sorted.
keywords() {
	"$RDMACTL" help bond | awk -v act="  rdmactl bond $1" '
		/^  [^ ]/ { sel = $0 == act || index($0, act " ") == 1; skip = 1; next }
		skip { skip = 0; next }
		sel && /^      [^ ]/ { print $1 }' | sort
}

@test "bond: completion offers the actions, keywords, values and bonds" {
	need_host "$LAG"
	local empty=$BATS_TEST_TMPDIR/empty
	mkdir -p "$empty"
	run "$RDMACTL" __complete --root "$empty" bond ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(printf '%s\n' show create set add del delete apply check failover help | sort)"
	run "$RDMACTL" __complete --root "$empty" bond de
	assert_equal "$(sort <<<"$output")" "$(printf '%s\n' del delete)"
	run "$RDMACTL" __complete --root "$empty" bond create bond0 ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$( (keywords create; echo --dry-run) | sort)"
	for k in members mode xmit-hash miimon updelay downdelay lacp-rate ad-select primary min-links; do
		assert_line "$k"
	done
	# Given keywords are not offered again.
	run "$RDMACTL" __complete --root "$empty" bond create bond0 mode 802.3ad ""
	refute_line mode
	assert_line members
	run "$RDMACTL" __complete --root "$empty" bond create bond0 mode ""
	assert_equal "$(sort <<<"$output")" \
		"$(printf '%s\n' active-backup 802.3ad balance-xor balance-rr broadcast balance-tlb balance-alb | sort)"
	run "$RDMACTL" __complete --root "$empty" bond set bond0 lacp-rate ""
	assert_equal "$(sort <<<"$output")" "$(printf '%s\n' fast slow)"
	run "$RDMACTL" __complete --root "$empty" bond check ""
	assert_line qp-timeout
	assert_line retry-cnt
	run "$RDMACTL" __complete --root "$empty" bond failover bond0 ""
	assert_equal "$(sort <<<"$output")" "$(keywords failover)"
	# Bond names where a bond is wanted: the bonds of the host, and only those.
	run "$RDMACTL" __complete --root "$HOSTS/$LAG" bond show ""
	assert_success
	assert_output bond0
	run "$RDMACTL" __complete --root "$HOSTS/$LAG" bond check b
	assert_output bond0
}

# ---- the man page --------------------------------------------------------------------

# The key paths of the JSON documents on stdin (arrays looked through), as man.bats reads them.
json_paths() {
	jq -r '[paths | map(select(type == "string")) | join(".")] | unique[]' | sort -u
}

# PAGE documents KEY when it has it as a bold term: *KEY*.
assert_documented() {
	local k
	for k in "$@"; do
		grep -qF -- "*$k*" "$PAGE" || fail "rdmactl-bond.8.scd does not document '$k' (as *$k*)"
	done
}

@test "bond: every JSON key of show, check and the change reports is in rdmactl-bond(8)" {
	need_host "$LAG"
	local h key
	{
		for h in $(all_hosts); do
			rd "$h" -j bond show
			rd "$h" -j bond check || true
		done
		rd "$LAG" -j bond check qp-timeout 10 || true
		rd "$LAG" -j --dry-run bond set bond0 miimon 200 primary ens1f0np0
		rd "$LAG" -j --dry-run bond set bond0 miimon 100
	} 2>/dev/null | jq -c 'select(.kind != "error")' | json_paths >"$BATS_TEST_TMPDIR/keys"
	grep -qx bonds.members.actor_port_state.flags "$BATS_TEST_TMPDIR/keys"
	grep -qx bonds.findings.evidence.source "$BATS_TEST_TMPDIR/keys"
	grep -qx bonds.steps.op "$BATS_TEST_TMPDIR/keys"
	while read -r key; do
		case $key in
		bonds.before.* | bonds.after.*) key=${key#bonds.*.} ;;	# a bond as show has it
		bonds.*) key=${key#bonds.} ;;
		esac
		assert_documented "$key"
	done <"$BATS_TEST_TMPDIR/keys"
}

# failover needs a live bond and a peer: its keys are read from cmd/bond_failover.c.
FAILOVER_KEYS="schema bond mode miimon_ms method member failover interrupted active_before active_after
	active_final fault_s fault_note detect_s react_s react_reason failover_s detected_at_s reacted_at_s
	restore_s member_back_s failback_s duration_s probe probe.ran probe.reason probe.method
	probe.rate_hz probe.sent probe.received probe.lost probe.send_errors probe.gap_start_s
	probe.gap_end_s probe.outage_s probe.gap_lost probe.gap_open_start probe.gap_open_end
	probe.recovered_after_fault_s probe.resolution_s probe.rtt_max_s probe.failback_gap_s
	probe.sent_after_outage probe.lost_after_outage probe.loss_after_outage_pct rdma
	rdma.ran rdma.reason rdma.device rdma.port rdma.qp_survived rdma.resumed_s rdma.failed_s
	rdma.wc_status rdma.reconnected_s rdma.error rdma.longest_stall_s rdma.connections rdma.bytes
	events events.t_s events.netdev events.device events.port events.what events.value
	dropped_events event_overruns"

@test "bond: every JSON key of failover is in rdmactl-bond(8), and no other is emitted" {
	local src=$TOP/cmd/bond_failover.c key k known
	known=" $(tr -s ' \t\n' '   ' <<<"$FAILOVER_KEYS") "
	# The keys failover_report() emits: the key argument of each output call (and those
	# of the helpers it calls with the object open: out_after_outage(), emit_rdma_port()).
	sed -n -e '/^static void failover_report(/,/^}/p' -e '/^static void emit_rdma_port(/,/^}/p' \
		-e '/^static void out_after_outage(/,/^}/p' "$src" |
		grep -oE '(rdc_out_[a-z0-9_]+\(o,[^"]*|emit_(s|dur_m?s|member)\(o, )"[a-z_0-9]+"' |
		grep -oE '"[a-z_0-9]+"$' | tr -d '"' | sort -u >"$BATS_TEST_TMPDIR/emitted"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/emitted")" -ge 40 ] || fail "failover_report() not found in $src"
	while read -r k; do
		[[ $known == *[\ .]"$k "* ]] ||
			fail "cmd/bond_failover.c emits '$k', which this test (and the page?) does not know"
	done <"$BATS_TEST_TMPDIR/emitted"
	for key in $FAILOVER_KEYS; do
		[ "$key" = schema ] || grep -qx "${key##*.}" "$BATS_TEST_TMPDIR/emitted" ||
			fail "cmd/bond_failover.c no longer emits '${key##*.}'"
		assert_documented "$key"
	done
	# Durations are seconds (_s); only the kernel's own settings keep ms (miimon_ms).
	local ms
	ms=$(grep -E '_ms$' "$BATS_TEST_TMPDIR/emitted" | grep -vx miimon_ms || true)
	[ -z "$ms" ] || fail "cmd/bond_failover.c emits durations in ms: $ms"
	# The schema requires exactly these keys, at each level.
	python3 - "$TOP/schemas/bond-failover.schema.json" $FAILOVER_KEYS <<-'PY' || fail "the schema and the keys differ"
	import json, sys
	s = json.load(open(sys.argv[1]))
	want = set(sys.argv[2:])
	have = {"schema"} | set(s["required"]) - {"kind"}
	for sub, node in (("probe", s["properties"]["probe"]), ("rdma", s["properties"]["rdma"]),
	                  ("events", s["properties"]["events"]["items"])):
	    have |= {sub + "." + k for k in node["required"]}
	    assert set(node["required"]) == set(node["properties"]), sub
	assert set(s["required"]) == set(s["properties"])
	sys.exit(0 if have == want else print(sorted(have ^ want)) or 1)
	PY
	# And the timeline's event names, as lib/bond/failover.c spells them.
	local names
	names=$(sed -n '/fo_what_names\[RDC_FO_WHAT_COUNT\] = {/,/^};/p' "$TOP/lib/bond/failover.c" |
		grep -oE '= "[a-z_]+"' | tr -d '=" ')
	[ "$(wc -w <<<"$names")" -ge 15 ] || fail "no event names found in lib/bond/failover.c"
	for k in $names; do
		grep -qF "*\"$k\"*" "$PAGE" || fail "rdmactl-bond.8.scd does not name the event '$k'"
	done
}

# The schemas of the bond documents are strict: every object that names its properties
# requires them all and allows no other (tests/schema-check --check-schemas walks each
# schema and the common definitions; a condition, if or not, is no description of an object).
@test "bond: the bond schemas require every key and allow no other" {
	run "$TOP/tests/schema-check" --check-schemas --tap
	local k
	for k in bond-show bond-change bond-check bond-failover common; do
		assert_line "ok - schemas/$k.schema.json is strict: every key required, no other key allowed"
	done
}

@test "bond: every finding id of lib/bond/check.c is in rdmactl-bond(8)" {
	local ids id
	ids=$(grep -oE '"bond\.[a-z0-9-]+"' "$TOP/lib/bond/check.c" | tr -d '"' | sort -u)
	[ "$(wc -l <<<"$ids")" -ge 20 ] || fail "only $(wc -l <<<"$ids") ids in lib/bond/check.c"
	for id in $ids; do
		assert_documented "$id"
	done
}

@test "bond: the maths the page states are check.h's" {
	grep -qE '^#define RDC_QP_ACK_UNIT_S 4\.096e-6' "$TOP/lib/bond/check.h" || fail "the ACK unit changed"
	grep -qE '^#define RDC_BOND_CHECK_QP_TIMEOUT 14\b' "$TOP/lib/bond/check.h" || fail "the default timeout changed"
	grep -qE '^#define RDC_BOND_CHECK_RETRY_CNT 7\b' "$TOP/lib/bond/check.h" || fail "the default retry count changed"
	local flat
	flat=$(tr -s '\n\t' '  ' <"$PAGE")
	grep -qF 'T_ack = 4.096 µs · 2^_timeout_' <<<"$flat"
	grep -qF 'W = T_ack · (_retry_cnt_ + 1)' <<<"$flat"
	grep -qF '_timeout_ = ceil(log2(_D_ / (4.096 µs · (_retry_cnt_ + 1))))' <<<"$flat"
	# The table's windows are what bond check computes (qp_survival_s, retry 7).
	need_host "$LAG"
	local t want got
	for t in 10:0.034 12:0.134 14:0.537 17:4.295 20:34.360; do
		run --separate-stderr rd "$LAG" -j bond check qp-timeout "${t%:*}"
		got=$(jq -r '.bonds[0].qp_survival_s * 1000 | round / 1000' <<<"$output")
		want=${t#*:}
		[ "$(printf '%.3f' "$got")" = "$want" ] || fail "timeout ${t%:*}: W $got, the page's table says $want"
	done
}

@test "bond check without bonds: the empty document, said on stderr, exit 1 (nothing to check); bond show: [] and 0" {
	run --separate-stderr rd cx6dx -j bond check
	assert_failure 1
	[ "$(jq -s -c 'map([.kind, .bonds, .summary.fail])' <<<"$output")" = '[["bond-check",[],0]]' ] || fail "$output"
	assert_equal "$stderr" "rdmactl: bond: no bonds to check"
	run --separate-stderr rd cx6dx -j bond show
	assert_success
	[ "$(jq -c .bonds <<<"$output")" = '[]' ] || fail "$output"
}
