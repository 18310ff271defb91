#!/usr/bin/env bats
# rdmactl pfc against a DCB-capable NIC double (tests/dcb-double), checked with iproute2's dcb
load ../helpers

DOUBLE=$TOP/build/dcb-double

setup() {
	# Built by make check and make check-cli: missing means not built, not a machine's lack.
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	export LD_PRELOAD=$DOUBLE/libdcbdouble.so
	export DCB_DOUBLE_DEVS=eth9,eth8
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
}

# What dcbnl can observe of the double's NIC: no counters, no fault-injection
# bookkeeping, and not the hidden DSCP table of DSCPs without APP entry (mlx5
# resets a deleted entry's DSCP to priority 0, not to its firmware default
# dscp>>3, and no dcbnl request can read or restore that).
nic_state() {
	"$DOUBLE/dcb-double-ctl" show |
		jq -S 'del(.fault) | del(.. | .requests?, .indications?) | del(.devices[].dscp2prio)'
}

# How many changing requests the double answered.  An empty or missing log
# means the double answered nothing at all (not preloaded, or not serving the
# device): that proves nothing about SETs, so it fails instead of saying 0.
sets() {
	if [ ! -s "$DCB_DOUBLE_LOG" ]; then
		echo "the double logged no request in $DCB_DOUBLE_LOG" >&2
		echo "no log"
		return 1
	fi
	grep -cE '^(SET|DEL)' "$DCB_DOUBLE_LOG" || true
}

@test "pfc show: every section with its source, JSON and YAML agree" {
	run --separate-stderr "$RDMACTL" -j pfc show dev eth9
	assert_success
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c '.netdevs[0] | [.netdev, .dcbx.source, .pfc.source, .pfc.pfc_cap, .trust.value, .trust.source, .ets.source, .maxrate.source, .buffer.source, .ecn.source, .cnp.source]')" = \
	  '["eth9","dcbnl","dcbnl",8,"pcp","dcbnl-app","dcbnl","dcbnl","dcbnl","unknown","unknown"]' ]
	[ "$(echo "$output" | jq '.netdevs[0].pfc.prios | length')" = 8 ]
	[ "$(echo "$output" | jq -S .)" = "$("$RDMACTL" --yaml pfc show dev eth9 | yaml_to_json | jq -S .)" ]
	run "$RDMACTL" pfc show dev eth9
	assert_output --partial "trust     pcp (dcbnl-app)"
	assert_output --partial "ecn       unknown (no MLNX_OFED ecn sysfs on this driver)"
}

# Rewrite the recorded dcbnl replies in $1 so that DCB_ATTR_IEEE_MAXRATE (7)
# comes as DCB_ATTR_IEEE_QCN (8), which mlx5 does not implement and rdmactl
# does not read: a driver whose reply lacks MAXRATE.
maxrate_as_qcn() {
	python3 - "$1" <<'PY'
import struct, sys
lines = open(sys.argv[1]).read().split("\n")
found = 0
for n, line in enumerate(lines):
    if not line.startswith("< "):
        continue
    b = bytearray.fromhex(line[2:])
    if len(b) < 20 or struct.unpack_from("<H", b, 4)[0] != 78:  # RTM_GETDCB
        continue
    off = 20
    while off + 4 <= len(b):
        alen, atype = struct.unpack_from("<HH", b, off)
        if alen < 4:
            break
        if atype & 0x3fff == 13:  # DCB_ATTR_IEEE
            sub = off + 4
            while sub + 4 <= off + alen:
                slen, stype = struct.unpack_from("<HH", b, sub)
                if slen < 4:
                    break
                if stype == 7:
                    struct.pack_into("<H", b, sub + 2, 8)
                    found += 1
                sub += (slen + 3) & ~3
        off += (alen + 3) & ~3
    lines[n] = "< " + b.hex()
open(sys.argv[1], "w").write("\n".join(lines))
sys.exit(0 if found else "no DCB_ATTR_IEEE_MAXRATE found")
PY
}

# The keys of each pfc show section (schema 3): every one always there,
# whether the section was read or not.
SECTION_KEYS='{
  "dcbx": ["source","reason","host","lld_managed","cee","ieee","static"],
  "pfc": ["source","reason","pfc_cap","delay_bits","enabled_prios","prios","pause_duration_source"],
  "trust": ["source","reason","value"],
  "dscp_prio": ["source","reason","map"],
  "ets": ["source","reason","ets_cap","willing","prio_tc","tc_tsa","tc_bw_pct"],
  "maxrate": ["source","reason","tc_maxrate_kbps"],
  "buffer": ["source","reason","prio_buffer","buffer_size_bytes","total_size_bytes"],
  "ecn": ["source","reason","prios"],
  "cnp": ["source","reason","dscp","prio"]}'

@test "pfc show -j: every section an object with all its keys, null values when unknown (schema 3)" {
	# cx6dx-lag has no MLNX_OFED: ecn and cnp unknown, their values there and null.
	run --separate-stderr rd cx6dx-lag -j pfc show
	assert_success
	jq -e '.netdevs[0] | (.ecn | has("prios") and .prios == null and .source == "unknown" and
		(.reason | type) == "string") and (.cnp | has("dscp") and has("prio") and .dscp == null and
		.prio == null) and ([.dcbx, .pfc, .trust, .dscp_prio, .ets, .maxrate, .buffer] |
		all(has("reason") and .reason == null)) and (.roce | all(has("reason") and .reason == null)) and
		(.verdict | has("reason") and .reason == null)' <<<"$output" || fail "$output"
	# rxe-bond has no dcbnl at all: every DCB section unknown, arrays null (never []).
	run --separate-stderr rd rxe-bond -j pfc show
	assert_success
	jq -e '.netdevs[0] | (.pfc | .source == "unknown" and .prios == null and .enabled_prios == null and
		.pfc_cap == null and .pause_duration_source == null) and .dscp_prio.map == null and
		.trust.value == null and .ets.prio_tc == null and .buffer.total_size_bytes == null and
		(.roce[0] | .source == "unknown" and .reason == "rdma_cm configfs not set up for this device" and
		.default_roce_tos == null)' <<<"$output" || fail "$output"
	# On every host, every section has exactly its keys: unknown ones too.
	local h n=0 show
	for h in "$HOSTS"/*/; do
		show=${h%/}
		show=$BATS_TEST_TMPDIR/show-${show##*/}.json
		"$RDMACTL" --root "$h" -j pfc show >"$show" 2>/dev/null || { rm -f "$show" && continue; }
		n=$((n + 1))
		jq -e --argjson want "$SECTION_KEYS" '[.netdevs[] as $n | $want | to_entries[] | .value as $k |
			($n[.key] | type == "object" and keys_unsorted == $k)] | all and length > 0' \
			<"$show" >/dev/null ||
			fail "$h: a section lacks keys: $(jq -c --argjson want "$SECTION_KEYS" '[.netdevs[] as $n | $want | to_entries[] | select(($n[.key] | keys_unsorted) != .value) | {section: .key, keys: ($n[.key] | keys_unsorted)}]' <"$show")"
		jq -e '[.netdevs[] | (.roce[] | keys_unsorted == ["device","port","source","reason","default_roce_mode","default_roce_tos"]),
			(.verdict | has("reason"))] | all' <"$show" >/dev/null || fail "$h: roce or verdict keys"
	done
	# Validated in one python start, not one a host (a failure names its show-HOST.json).
	"$TOP/tests/schema-check" -q "$BATS_TEST_TMPDIR"/show-*.json || fail "not valid"
	[ "$n" -ge 10 ] || fail "only $n hosts printed pfc show"
}

@test "pfc show: the man page's jq recipes run on every host, unknown sections included" {
	local page=$TOP/man/rdmactl-pfc.8.scd h i n=0
	local -a opts filters
	# The recipes that read pfc show, as the page gives them (its \\ is one backslash).
	mapfile -t opts < <(sed -nE "s/^# rdmactl -j pfc show \| jq (-[rc]) '.*'\$/\1/p" "$page")
	mapfile -t filters < <(sed -nE "s/^# rdmactl -j pfc show \| jq -[rc] '(.*)'\$/\1/p" "$page" | sed 's/\\\\/\\/g')
	[ "${#filters[@]}" -ge 3 ] && [ "${#opts[@]}" -eq "${#filters[@]}" ] ||
		fail "the page has ${#filters[@]} pfc show recipes"
	for h in "$HOSTS"/*/; do
		"$RDMACTL" --root "$h" -j pfc show >"$BATS_TEST_TMPDIR/show.json" 2>/dev/null || continue
		for i in "${!filters[@]}"; do
			run jq "${opts[$i]}" "${filters[$i]}" "$BATS_TEST_TMPDIR/show.json"
			[ "$status" -eq 0 ] || fail "$h: jq ${opts[$i]} '${filters[$i]}': $output"
			n=$((n + 1))
		done
	done
	[ "$n" -ge 30 ] || fail "only $n recipe runs"
	# rxe-bond's PFC is unknown: null, neither an error nor "nothing paused".
	for i in "${!filters[@]}"; do
		[[ ${filters[$i]} == *paused:* ]] || continue
		run jq "${opts[$i]}" "${filters[$i]}" < <("$RDMACTL" --root "$HOSTS/rxe-bond" -j pfc show)
		assert_line '{"netdev":"eth0","paused":null}'
		n=0
	done
	[ "$n" -eq 0 ] || fail "no 'paused' recipe on the page"
}

@test "pfc set/apply -j: before and after are pfc show's sections, same names and shapes" {
	# The double's NIC: before is what show printed, after what show prints once written.
	run --separate-stderr "$RDMACTL" -j pfc show dev eth9
	assert_success
	local show1=$output
	run --separate-stderr "$RDMACTL" -j pfc apply dev eth9 profile roce-lossless
	assert_success
	local change=$output
	run --separate-stderr "$RDMACTL" -j pfc show dev eth9
	local show2=$output
	jq -en --argjson s1 "$show1" --argjson c "$change" --argjson s2 "$show2" '
		$s1.netdevs[0] as $a | $s2.netdevs[0] as $b | $c.netdevs[0] as $n |
		($n.before | keys_unsorted) == ["pfc","trust","dscp_prio","ets","maxrate","buffer","ecn","cnp","roce"] and
		($n.after | keys_unsorted) == ($n.before | keys_unsorted) and
		([("trust","dscp_prio","ets","maxrate","buffer","ecn","cnp","roce") | $n.before[.] == $a[.]] | all) and
		$n.before.pfc == ($a.pfc | del(.prios, .pause_duration_source)) and
		([("trust","dscp_prio","maxrate","buffer","ecn","cnp","roce") | $n.after[.] == $b[.]] | all) and
		$n.after.pfc == ($b.pfc | del(.prios, .pause_duration_source)) and
		($n.after.ets | del(.tc_bw_pct)) == ($b.ets | del(.tc_bw_pct)) and
		$n.after.ets.tc_bw_pct[0,3] == $b.ets.tc_bw_pct[0,3] and
		($n.before | has("files") | not)' || fail "$change"
	# A section the driver does not report is the same object as in show, never null.
	run --separate-stderr rd cx6dx-lag -j --dry-run pfc apply dev ens1f0np0 profile roce-lossless prio 4
	assert_failure 4 # would change
	jq -e --argjson s "$(rd cx6dx-lag -j pfc show dev ens1f0np0)" '$s.netdevs[0] as $a | .netdevs[0] |
		.before.ecn == $a.ecn and .after.ecn == $a.ecn and .before.cnp == $a.cnp and
		(.before.ecn | .source == "unknown" and has("prios") and .prios == null) and
		.before.roce == $a.roce and .before.trust == $a.trust and .after.pfc.enabled_prios == [4]' \
		<<<"$output" || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
	# A dcbnl reply without MAXRATE (a copy of cx6dx whose recorded replies carry
	# it as QCN, which mlx5 lacks): unknown in show, the same object in before/after.
	local h=$BATS_TEST_TMPDIR/host
	cp -a "$HOSTS/cx6dx" "$h"
	maxrate_as_qcn "$h/kernel.rec"
	run --separate-stderr "$RDMACTL" --root "$h" -j pfc show dev ens1f0np0
	assert_success
	local show=$output
	jq -e '.netdevs[0].maxrate == {"source": "unknown", "reason": "not in the driver'"'"'s dcbnl reply",
		"tc_maxrate_kbps": null}' <<<"$show" || fail "$show"
	run --separate-stderr "$RDMACTL" --root "$h" -j --dry-run pfc set dev ens1f0np0 prio-pfc 4:on
	assert_failure 4 # would change
	jq -e --argjson s "$show" '.netdevs[0] | .before.maxrate == $s.netdevs[0].maxrate and
		.after.maxrate == $s.netdevs[0].maxrate and .after.pfc.enabled_prios == [3, 4]' <<<"$output" || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
}

@test "pfc set -j without dcbnl (rxe on a bond): before/after DCB sections unknown objects, as show" {
	# A copy of rxe-bond with the RDMA-CM configfs of rxeb set up (the capture has none).
	local h=$BATS_TEST_TMPDIR/host c
	cp -a "$HOSTS/rxe-bond" "$h"
	c=$h/sys/kernel/config/rdma_cm/rxeb/ports/1
	mkdir -p "$c"
	echo 0 >"$c/default_roce_tos"
	echo "RoCE v2" >"$c/default_roce_mode"
	run --separate-stderr "$RDMACTL" --root "$h" -j pfc show dev bond0
	assert_success
	local show=$output
	run --separate-stderr "$RDMACTL" --root "$h" -j --dry-run pfc set dev bond0 roce-tos 106
	assert_failure 4 # would change
	jq -e --argjson s "$show" '[.netdevs[] | . as $n | ($s.netdevs[] | select(.netdev == $n.netdev)) as $a |
		([("trust","dscp_prio","ets","maxrate","buffer","ecn","cnp") as $k |
			$n.before[$k] == $a[$k] and $n.after[$k] == $a[$k]] | all) and
		$n.before.pfc == ($a.pfc | del(.prios, .pause_duration_source)) and
		($n.before.pfc | .source == "unknown" and .enabled_prios == null) and $n.before.roce == $a.roce] |
		all and length == 2' \
		<<<"$output" || fail "$output"
	[ "$(jq -c '[.netdevs[] | [.netdev, .changed, (.after.roce | map([.device, .port, .default_roce_tos]))]]' <<<"$output")" = \
	  '[["eth0",true,[["rxeb",1,106]]],["eth1",false,[]]]' ] || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
}

@test "pfc set/apply -j: ECN, CNP and RDMA-CM values typed, as pfc show names them" {
	# lossless-broken has MLNX_OFED's files: ECN off on 3, CNPs on DSCP 26 priority 3.
	run --separate-stderr rd lossless-broken -j --dry-run pfc apply dev ens1f1np1 profile roce-lossless
	assert_failure 4 # would change
	jq -e '.netdevs[0] | (.before.ecn.prios[3] == {"prio": 3, "np": false, "rp": true}) and
		(.after.ecn.prios[3] == {"prio": 3, "np": true, "rp": true}) and
		(.before.cnp | .source == "ofed-sysfs" and .reason == null and .dscp == 26 and .prio == 3) and
		(.after.cnp | .dscp == 48 and .prio == 6) and
		([.before, .after | .ecn.prios[] | .np, .rp | type] | unique) == ["boolean"] and
		([.before, .after | .cnp.dscp, .cnp.prio | type] | unique) == ["number"]' \
		<<<"$output" || fail "$output"
	jq -e --argjson s "$(rd lossless-broken -j pfc show dev ens1f1np1)" \
		'.netdevs[0].before | .ecn == $s.netdevs[0].ecn and .cnp == $s.netdevs[0].cnp' <<<"$output" || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
	# RDMA-CM: the ToS a number, the mode a word, per RDMA port as pfc show's roce.
	run --separate-stderr rd clean-2port -j --dry-run pfc set dev ens1f0np0 roce-tos 104 roce-mode v1
	assert_failure 4 # would change
	jq -e --argjson s "$(rd clean-2port -j pfc show dev ens1f0np0)" '.netdevs[0] |
		.before.roce == $s.netdevs[0].roce and
		.after.roce == [$s.netdevs[0].roce[0] | .default_roce_tos = 104 | .default_roce_mode = "IB/RoCE v1"]' \
		<<<"$output" || fail "$output"
	"$TOP/tests/schema-check" -q - <<<"$output"
}

@test "pfc apply roce-lossless: PFC on 3 only, DSCP trust, 26->3 and 48->6; dcb agrees" {
	run --separate-stderr "$RDMACTL" -j pfc apply dev eth9 profile roce-lossless
	assert_success
	[ "$(echo "$output" | jq -c '[.changed, .netdevs[0].changed, .netdevs[0].before.trust.value, .netdevs[0].after.trust.value]')" = '[true,true,"pcp","dscp"]' ]
	run --separate-stderr "$RDMACTL" -j pfc show dev eth9
	[ "$(echo "$output" | jq -c '.netdevs[0] | [.pfc.enabled_prios, .trust.value, ([.dscp_prio.map[] | [.dscp, .prio]] | sort), .ets.prio_tc, .ets.tc_tsa[0,3,6]]')" = \
	  '[[3],"dscp",[[26,3],[48,6]],[0,0,0,3,0,0,6,0],"ets","ets","strict"]' ]
	# iproute2's dcb reads the same double.
	run dcb pfc show dev eth9
	assert_output --partial "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"
	run dcb -N app show dev eth9
	assert_output --regexp "dscp-prio .*26:3"
	assert_output --regexp "dscp-prio .*48:6"
	run dcb ets show dev eth9
	assert_output --partial "tc-tsa 0:ets 1:strict 2:strict 3:ets"
	assert_output --partial "prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0"
}

@test "pfc apply twice: the second reports changed false and sends no SET" {
	"$RDMACTL" pfc apply dev eth9 profile roce-lossless >/dev/null
	: >"$DCB_DOUBLE_LOG"
	run --separate-stderr "$RDMACTL" -j pfc apply dev eth9 profile roce-lossless
	assert_success
	[ "$(echo "$output" | jq -c '[.changed, .netdevs[0].changed]')" = '[false,false]' ]
	[ "$(sets)" = 0 ]
	run "$RDMACTL" pfc apply dev eth9 profile roce-lossless
	assert_output --partial "nothing to change (nothing sent)"
}

@test "pfc apply --dry-run prints the difference and sends nothing" {
	run --separate-stderr "$RDMACTL" -j --dry-run pfc apply dev eth9 profile roce-lossless
	assert_failure 4 # would change
	[ "$(echo "$output" | jq -c '[.changed, .dry_run, .netdevs[0].after.pfc.enabled_prios]')" = '[true,true,[3]]' ]
	[ "$(sets)" = 0 ]
	run "$RDMACTL" pfc apply --dry-run dev eth9 profile roce-lossless
	assert_output --partial "would change (dry run: nothing sent)"
	assert_output --partial "  app add dscp-prio 26:3 48:6"
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -r '.netdevs[0].trust.value')" = pcp ]
}

@test "pfc apply with other priorities and DSCPs" {
	run --separate-stderr "$RDMACTL" -j pfc apply dev eth9 profile roce-lossless prio 4 dscp 34 cnp-dscp 46 cnp-prio 7
	assert_success
	run --separate-stderr "$RDMACTL" -j pfc show dev eth9
	[ "$(echo "$output" | jq -c '.netdevs[0] | [.pfc.enabled_prios, ([.dscp_prio.map[] | [.dscp, .prio]] | sort), .ets.tc_bw_pct[0,4]]')" = '[[4],[[34,4],[46,7]],50,50]' ]
}

@test "pfc set: every keyword, read back by rdmactl and by dcb" {
	run "$RDMACTL" pfc set dev eth9 prio-pfc all:off 3:on 4:on delay 32
	assert_success
	run dcb pfc show dev eth9
	assert_output --partial "delay 32"
	assert_output --partial "3:on 4:on"
	run "$RDMACTL" pfc set dev eth9 prio-tc all:0 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 0:40 3:60
	assert_success
	run dcb ets show dev eth9
	assert_output --partial "tc-bw 0:40"
	assert_output --partial "3:60"
	run "$RDMACTL" pfc set dev eth9 tc-maxrate all:0 6:10gbit
	assert_success
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '.netdevs[0].maxrate.tc_maxrate_kbps[6]')" = 10000000 ]
	run "$RDMACTL" pfc set dev eth9 prio-buffer all:0 3:1 buffer-size 0:64K 1:128K
	assert_success
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '.netdevs[0].buffer | [.prio_buffer[3], .buffer_size_bytes[0], .buffer_size_bytes[1]]')" = '[1,65536,131072]' ]
	run "$RDMACTL" pfc set dev eth9 dscp-prio 26:3 48:6
	assert_success
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -r '.netdevs[0].trust.value')" = dscp ]
	# Moving 26 to priority 5 replaces the entry: the old one deleted first (mlx5 needs that).
	: >"$DCB_DOUBLE_LOG"
	run "$RDMACTL" pfc set dev eth9 dscp-prio 26:5
	assert_success
	[ "$(grep -oE '^(SET|DEL)' "$DCB_DOUBLE_LOG" | tr '\n' ' ')" = "DEL SET " ]
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '[.netdevs[0].dscp_prio.map[] | select(.dscp == 26) | .prio]')" = '[5]' ]
	run "$RDMACTL" pfc set dev eth9 trust pcp
	assert_success
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '.netdevs[0] | [.trust.value, (.dscp_prio.map | length)]')" = '["pcp",0]' ]
	run "$RDMACTL" pfc set dev eth9 trust dscp
	assert_success
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '.netdevs[0] | [.trust.value, (.dscp_prio.map | length)]')" = '["dscp",64]' ]
}

@test "pfc set: the same change sends the same bytes as iproute2's dcb" {
	ref=$TOP/testdata/dcb/requests.txt
	while IFS='|' read -r name dcbcmd ours; do
		[ -n "$name" ] && [ "${name:0:1}" != "#" ] || continue
		rm -f "$DCB_DOUBLE_STATE"
		: >"$DCB_DOUBLE_LOG"
		# shellcheck disable=SC2086 # the command words are meant to split
		"$RDMACTL" pfc set dev eth9 $ours >/dev/null
		mine=$(grep -E '^(SET|DEL)' "$DCB_DOUBLE_LOG")
		want=$(grep -A100 "^## $name\$" "$TOP/testdata/dcb/reference.log" | sed -n '2,/^## /p' | grep -E '^(SET|DEL)')
		[ "$mine" = "$want" ] || { echo "$name: rdmactl sent"; echo "$mine"; echo "dcb sent"; echo "$want"; false; }
		if command -v dcb >/dev/null; then
			rm -f "$DCB_DOUBLE_STATE"
			: >"$DCB_DOUBLE_LOG"
			# shellcheck disable=SC2086
			dcb $dcbcmd
			[ "$(grep -E '^(SET|DEL)' "$DCB_DOUBLE_LOG")" = "$want" ]
		fi
	done <"$ref"
}

@test "pfc apply: a failure at any step restores the state read before" {
	for kind in app-add pfc ets app-del; do
		rm -f "$DCB_DOUBLE_STATE"
		"$RDMACTL" pfc set dev eth9 dscp-prio 26:0 >/dev/null # something for app-del to remove
		before=$(nic_state)
		DCB_DOUBLE_FAIL=$kind run "$RDMACTL" pfc apply dev eth9 profile roce-lossless
		assert_failure 1
		# The double fails through the dcbnl status byte (an i8 errno), as drivers do.
		assert_output --partial "Input/output error"
		assert_output --partial "old state restored"
		[ "$before" = "$(nic_state)" ] || { echo "state changed after a failure at $kind"; false; }
	done
}

@test "pfc apply -f: several devices, all or nothing" {
	cat >"$BATS_TEST_TMPDIR/p.yaml" <<-'YAML'
	devices:
	  - dev: eth9
	    profile: roce-lossless
	  - dev: eth8
	    prio-pfc: all:off 4:on
	    dscp-prio: [34:4]
	YAML
	run --separate-stderr "$RDMACTL" -j pfc apply -f "$BATS_TEST_TMPDIR/p.yaml"
	assert_success
	[ "$(echo "$output" | jq -c '[.changed, [.netdevs[] | [.netdev, .changed]]]')" = '[true,[["eth9",true],["eth8",true]]]' ]
	[ "$("$RDMACTL" -j pfc show dev eth8 | jq -c '.netdevs[0].pfc.enabled_prios')" = '[4]' ]
	run --separate-stderr "$RDMACTL" -j pfc apply -f "$BATS_TEST_TMPDIR/p.yaml"
	[ "$(echo "$output" | jq '.changed')" = false ]
	# A failure on the second device puts the first one back too.
	rm -f "$DCB_DOUBLE_STATE"
	before=$(nic_state)
	DCB_DOUBLE_FAIL=pfc:2 run "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/p.yaml"
	assert_failure 1
	[ "$before" = "$(nic_state)" ]
}

@test "pfc apply -f FILE dev NETDEV: NETDEV's entry only, written and read back; again, nothing sent" {
	cat >"$BATS_TEST_TMPDIR/p.yaml" <<-'YAML'
	devices:
	  - dev: eth9
	    profile: roce-lossless
	  - dev: eth8
	    prio-pfc: all:off 4:on
	YAML
	before=$("$DOUBLE/dcb-double-ctl" show | jq -c '.devices.eth9')
	: >"$DCB_DOUBLE_LOG"
	run --separate-stderr "$RDMACTL" -j pfc apply -f "$BATS_TEST_TMPDIR/p.yaml" dev eth8
	assert_success
	[ "$(echo "$output" | jq -c '[.changed, [.netdevs[] | .netdev]]')" = '[true,["eth8"]]' ]
	[ "$("$RDMACTL" -j pfc show dev eth8 | jq -c '.netdevs[0].pfc.enabled_prios')" = '[4]' ]
	# eth9 was neither written nor read for a plan: the double logged eth8 only.
	grep -q '^GET eth8 ' "$DCB_DOUBLE_LOG"
	grep -q ' eth9 ' "$DCB_DOUBLE_LOG" && fail "eth9 was asked: $(grep ' eth9 ' "$DCB_DOUBLE_LOG")"
	[ "$("$DOUBLE/dcb-double-ctl" show | jq -c '.devices.eth9')" = "$before" ]
	: >"$DCB_DOUBLE_LOG"
	run --separate-stderr "$RDMACTL" -j pfc apply -f "$BATS_TEST_TMPDIR/p.yaml" dev eth8
	assert_success
	[ "$(echo "$output" | jq '.changed')" = false ]
	[ "$(sets)" = 0 ]
}

# Start rdmactl ARGS... in the background with the double answering every
# changing request DELAY ms late; wait until it sent its first change to
# NETDEV (the SET is applied, its answer not yet given), then send SIG.  The
# signal's default action is restored first: a non-interactive shell starts
# background jobs with SIGINT ignored.  Sets $status to rdmactl's and $output
# to its stderr.
signal_mid_write() {
	local sig=$1 netdev=$2 delay=$3 pid i
	shift 3
	: >"$DCB_DOUBLE_LOG"
	DCB_DOUBLE_DELAY_MS=$delay env --default-signal=INT,TERM "$RDMACTL" "$@" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	for ((i = 0; i < 500; i++)); do
		grep -qE "^(SET|DEL) $netdev " "$DCB_DOUBLE_LOG" && break
		sleep 0.01
	done
	grep -qE "^(SET|DEL) $netdev " "$DCB_DOUBLE_LOG" || { kill -KILL "$pid"; fail "no change to $netdev was sent"; }
	kill -"$sig" "$pid"
	status=0
	wait "$pid" || status=$?
	output=$(cat "$BATS_TEST_TMPDIR/err")
}

@test "pfc apply: SIGTERM or SIGINT mid-write finishes, restores the old state, exits 128+sig" {
	"$RDMACTL" pfc set dev eth9 dscp-prio 26:0 >/dev/null # something for app-del to remove
	before=$(nic_state)
	signal_mid_write TERM eth9 300 pfc apply dev eth9 profile roce-lossless
	[ "$before" = "$(nic_state)" ] || fail "the double reads otherwise after the signal"
	[ "$status" -eq 143 ] || fail "exit $status: $output"
	assert_output "rdmactl: pfc: interrupted, old state restored (SIGTERM)"
	[ ! -s "$BATS_TEST_TMPDIR/out" ] || fail "a report after an interrupted write: $(cat "$BATS_TEST_TMPDIR/out")"
	signal_mid_write INT eth9 300 pfc set dev eth9 prio-pfc 3:on 4:on dscp-prio 26:3
	[ "$before" = "$(nic_state)" ] || fail "the double reads otherwise after the signal"
	[ "$status" -eq 130 ] || fail "exit $status: $output"
	assert_output "rdmactl: pfc: interrupted, old state restored (SIGINT)"
}

@test "pfc apply -f: a signal during the second device restores both" {
	cat >"$BATS_TEST_TMPDIR/p.yaml" <<-'YAML'
	devices:
	  - dev: eth9
	    profile: roce-lossless
	  - dev: eth8
	    prio-pfc: all:off 4:on
	    dscp-prio: [34:4]
	YAML
	"$RDMACTL" pfc show dev eth8 >/dev/null
	before=$(nic_state)
	signal_mid_write TERM eth8 200 pfc apply -f "$BATS_TEST_TMPDIR/p.yaml"
	[ "$before" = "$(nic_state)" ] || fail "the double reads otherwise after the signal"
	[ "$status" -eq 143 ] || fail "exit $status: $output"
	assert_output --partial "interrupted, old state restored"
	# Both were written before they were put back.
	grep -q '^SET eth9 ' "$DCB_DOUBLE_LOG"
}

@test "pfc apply -f: file errors name the line, exit 2 or 1, nothing sent" {
	"$RDMACTL" pfc show dev eth9 >/dev/null # the double answers (and logs) a read
	printf 'devices:\n  - dev: eth9\n    profile: roce-lossless\n    prio-pfc: 3:on\n' >"$BATS_TEST_TMPDIR/bad.yaml"
	run "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/bad.yaml"
	assert_failure 2
	assert_output --partial "line 2: a profile device takes only"
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 9:on\n' >"$BATS_TEST_TMPDIR/bad2.yaml"
	run "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/bad2.yaml"
	assert_failure 2
	assert_output --partial "'prio-pfc 9:on'"
	printf 'devices: [\n' >"$BATS_TEST_TMPDIR/bad3.yaml"
	run "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/bad3.yaml"
	assert_failure 1
	assert_output --partial "line 2"
	[ "$(sets)" = 0 ]
}

@test "pfc set: DSCP names as dcb takes them, and dscp-prio-del deletes APP entries (dcb app del)" {
	run --separate-stderr "$RDMACTL" pfc set dev eth9 dscp-prio AF31:3 cs6:6 EF:5
	assert_success
	run dcb -N app show dev eth9 dscp-prio
	assert_output --regexp "(^| )26:3( |$)"
	assert_output --regexp "(^| )48:6( |$)"
	assert_output --regexp "(^| )46:5( |$)"
	# dcb's own names, for the same entries: dcb and rdmactl agree.
	dcb app add dev eth9 dscp-prio AF41:4
	[ "$("$RDMACTL" -j pfc show dev eth9 | jq -c '[.netdevs[0].dscp_prio.map[] | select(.dscp == 34) | .prio]')" = '[4]' ]
	# Deleting by name and by number: those entries go, the others stay.
	: >"$DCB_DOUBLE_LOG"
	run --separate-stderr "$RDMACTL" -j pfc set dev eth9 dscp-prio-del AF31 46
	assert_success
	[ "$(grep -cE '^DEL' "$DCB_DOUBLE_LOG")" -ge 1 ]
	[ "$(grep -cE '^SET' "$DCB_DOUBLE_LOG")" -eq 0 ]
	run dcb -N app show dev eth9 dscp-prio
	refute_output --regexp "(^| )26:[0-7]( |$)"
	refute_output --regexp "(^| )46:[0-7]( |$)"
	assert_output --regexp "(^| )48:6( |$)"
	assert_output --regexp "(^| )34:4( |$)"
	# Nothing left to delete: nothing sent, changed false.
	: >"$DCB_DOUBLE_LOG"
	"$RDMACTL" pfc show dev eth9 >/dev/null
	run --separate-stderr "$RDMACTL" -j pfc set dev eth9 dscp-prio-del AF31
	assert_success
	jq -e '.changed == false' <<<"$output"
	[ "$(sets)" = 0 ]
	# Not a DSCP: a usage error naming the word, nothing sent.
	for args in "dscp-prio AF51:3" "dscp-prio-del 64" "dscp-prio-del af3"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$RDMACTL" pfc set dev eth9 $args
		[ "$status" -eq 2 ] || fail "'$args' gave $status: $stderr"
		[[ $stderr == *"not a DSCP (0-63, or CS0-CS7, AF11-AF43, EF, VA)"* ]] || fail "$stderr"
	done
	[ "$(sets)" = 0 ]
	# The same words in a file (rdmactl.yaml(5)): names, and a list of DSCPs to delete.
	printf 'devices:\n  - dev: eth9\n    dscp-prio: [AF31:3]\n' >"$BATS_TEST_TMPDIR/add.yaml"
	printf 'devices:\n  - dev: eth9\n    dscp-prio-del: [af31, CS6]\n' >"$BATS_TEST_TMPDIR/del.yaml"
	run --separate-stderr "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/add.yaml"
	assert_success
	run dcb -N app show dev eth9 dscp-prio
	assert_output --regexp "(^| )26:3( |$)"
	run --separate-stderr "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/del.yaml"
	assert_success
	run dcb -N app show dev eth9 dscp-prio
	refute_output --regexp "(^| )(26|48):[0-7]( |$)"
	assert_output --regexp "(^| )34:4( |$)"
}

@test "pfc set: bad values exit 2 and send nothing" {
	"$RDMACTL" pfc show dev eth9 >/dev/null # the double answers (and logs) a read
	for args in "prio-pfc 8:on" "prio-pfc 3:maybe" "prio-pfc" "dscp-prio 64:3" "dscp-prio all:3" \
		"dscp-prio 26:8" "prio-tc 3:8" "tc-tsa 0:fast" "tc-bw 0:101" \
		"tc-tsa all:ets tc-bw all:0 0:50" "tc-tsa all:strict tc-bw 2:10" "tc-maxrate 0:fast" \
		"tc-maxrate 0:10" "buffer-size 0:12Q" "delay 70000" "trust maybe" \
		"trust pcp dscp-prio 26:3" "roce-mode v3" "roce-tos 256"; do
		# shellcheck disable=SC2086
		run "$RDMACTL" pfc set dev eth9 $args
		[ "$status" -eq 2 ] || { echo "'$args' gave $status: $output"; false; }
	done
	run "$RDMACTL" pfc set dev eth9
	assert_failure 2
	run "$RDMACTL" pfc set prio-pfc 3:on
	assert_failure 2
	assert_output --partial "missing 'dev NETDEV'"
	[ "$(sets)" = 0 ]
}

@test "pfc: a netdev the double does not serve gets the kernel's answer" {
	run --separate-stderr "$RDMACTL" -j pfc show dev lo
	assert_success
	[ "$(echo "$output" | jq -c '.netdevs[0] | [.pfc.source, .pfc.reason]')" = '["unknown","the driver implements no dcbnl operations"]' ]
	run "$RDMACTL" pfc set dev lo prio-pfc 3:on
	assert_failure 1
	assert_output --partial "cannot read DCB of 'lo': Operation not supported (its driver implements no dcbnl operations"
	run "$RDMACTL" pfc set dev eth9 ecn 3:on
	assert_failure 1
	assert_output --partial "exposes no ECN control"
	run "$RDMACTL" pfc set dev eth9 roce-tos 106
	assert_failure 1
	assert_output --partial "no RDMA port"
}

teardown() {
	[ -z "${SHARED:-}" ] || rm -rf "$SHARED"
}

@test "pfc set without CAP_NET_ADMIN: the error says so, exit 1, nothing changed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to another user"
	# The other user cannot reach the checkout (it may be in a 0700 home): the
	# binary, the double and its state go to a directory of their own, open to it.
	SHARED=$(mktemp -d /tmp/rdmactl-pfc-XXXXXX)
	cp "${RDMACTL_REAL:-$RDMACTL}" "$SHARED/rdmactl"
	cp "$DOUBLE/libdcbdouble.so" "$SHARED/libdcbdouble.so"
	chmod 755 "$SHARED/rdmactl" "$SHARED/libdcbdouble.so"
	# Preloaded from there for these commands only: the directory goes in teardown.
	local pre=$SHARED/libdcbdouble.so
	export DCB_DOUBLE_STATE=$SHARED/state DCB_DOUBLE_LOG=$SHARED/log
	LD_PRELOAD=$pre "$SHARED/rdmactl" pfc show dev eth9 >/dev/null # creates the state
	chmod 666 "$DCB_DOUBLE_STATE" "$DCB_DOUBLE_LOG"
	chmod 777 "$SHARED"
	before=$(nic_state)
	: >"$DCB_DOUBLE_LOG"
	run env LD_PRELOAD="$pre" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SHARED/rdmactl" pfc set dev eth9 prio-pfc 3:on
	assert_failure 1
	# One line: the error, and nothing from ld.so about a preload it cannot read.
	assert_equal "${#lines[@]}" 1
	assert_output --partial "rdmactl: pfc: cannot set DCB of 'eth9': Operation not permitted (needs CAP_NET_ADMIN: run as root"
	[ "$before" = "$(nic_state)" ]
	# The double served the other user's read, and refused nothing itself: the
	# SET went to the kernel, which said EPERM.
	grep -q '^GET eth9 ' "$DCB_DOUBLE_LOG"
	[ "$(sets)" = 0 ]
}

@test "pfc --dry-run under --root plans against the captured host; a real write is refused" {
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" -j --dry-run pfc apply dev ens1f0np0 profile roce-lossless
	assert_failure 4 # would change
	jq -e '.changed and .dry_run and .netdevs[0].netdev == "ens1f0np0" and
		.netdevs[0].before.pfc.enabled_prios == [] and .netdevs[0].after.pfc.enabled_prios == [3] and
		.netdevs[0].after.trust.value == "dscp"' <<<"$output" || fail "$output"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" --dry-run pfc set dev ens1f0np0 prio-pfc 3:on
	assert_failure 4 # would change
	[[ $output == *"ens1f0np0: would change (dry run: nothing sent)"* ]] || fail "$output"
	printf 'devices:\n  - dev: ens1f0np0\n    prio-pfc: 4:on\n' >"$BATS_TEST_TMPDIR/f.yaml"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" -j --dry-run pfc apply -f "$BATS_TEST_TMPDIR/f.yaml"
	assert_failure 4 # would change
	jq -e '.netdevs[0].after.pfc.enabled_prios == [4]' <<<"$output" || fail "$output"
	# Without --dry-run, nothing is read: refused first.
	run --separate-stderr "$RDMACTL" --root "$HOSTS/degraded" pfc apply dev ens1f0np0 profile roce-lossless
	assert_failure 1
	assert_equal "$stderr" "rdmactl: pfc: writes are refused under --root and --replay"
}

@test "pfc show on a host without RDMA says so and exits 1; every netdev of a port is shown" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -j pfc show
	assert_failure 1
	assert_equal "$output" '{"schema":3,"kind":"pfc-show","netdevs":[],"bonds":[]}'
	assert_equal "$stderr" "rdmactl: pfc: no netdev carries an RDMA port: nothing to show"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/cx6dx" -j pfc show
	assert_success
	jq -e '[.netdevs[].netdev] == ["ens1f0np0", "ens1f1np1"]' <<<"$output" || fail "$output"
}
