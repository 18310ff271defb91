#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One JSON vocabulary (issue 13 item 1, docs/json.md): snake_case keys only, kernel
# names as values, units in the names, and one shape for the same thing everywhere.
load ../helpers

# Every read-only document of a fixture host, one per line.
documents() {
	local host=$1
	rd "$host" -j port
	rd "$host" -j port gids
	rd "$host" -j port stats
	[ ! -e "$HOSTS/$host/WINDOW" ] || rd "$host" -j port stats interval "$(cat "$HOSTS/$host/WINDOW")"
	rd "$host" -j pfc show
	rd "$host" -j bond show
	rd "$host" -j bond check
	rd "$host" -j diag run interval 0
	"$RDMACTL" -j diag list
	"$RDMACTL" -j -V
}

# Every key path of the documents on stdin, arrays as [].
key_paths() {
	jq -r 'paths | map(if type == "number" then "[]" else . end) | join(".")' |
		sed 's/\.\[\]/[]/g' | sort -u
}

@test "json: every key of every document is snake_case, on every fixture host" {
	local host n=0
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		[ -d "$HOSTS/$host/sys" ] || continue
		documents "$host" 2>/dev/null | jq -r 'paths | map(select(type == "string")) | .[]' |
			sort -u >>"$BATS_TEST_TMPDIR/keys"
		n=$((n + 1))
	done
	[ "$n" -gt 5 ] || fail "only $n fixture hosts"
	sort -u "$BATS_TEST_TMPDIR/keys" -o "$BATS_TEST_TMPDIR/keys"
	# Kernel counter names (VL15_dropped, FrameCheckSequenceErrors, eth-mac) are values now.
	run grep -vxE '[a-z][a-z0-9]*(_[a-z0-9]+)*' "$BATS_TEST_TMPDIR/keys"
	assert_output ""
	grep -qx group "$BATS_TEST_TMPDIR/keys" || fail "no counter objects seen"
}

@test "json: every document names its schema version and kind" {
	run bash -c 'for h in cx6dx seed-gateway; do "$0" --root "$1/$h" -j port; "$0" --root "$1/$h" -j pfc show; done' \
		"$RDMACTL" "$HOSTS"
	assert_success
	[ "$(jq -sc 'map([.schema, .kind])' <<<"$output")" = \
		'[[3,"port-show"],[3,"pfc-show"],[3,"port-show"],[3,"pfc-show"]]' ] || fail "$output"
}

@test "json: no bare unitless quantity keys (delay, mtu, tc_bw, per_second)" {
	local host
	for host in cx6dx seed-gateway degraded; do
		{
			rd "$host" -j port
			rd "$host" -j pfc show
			rd "$host" -j --dry-run pfc apply dev ens1f0np0 profile roce-lossless
			rd "$host" -j --dry-run port set ens1f0np0 mtu 4200
			rd "$host" -j port stats interval "$(cat "$HOSTS/$host/WINDOW" 2>/dev/null || echo 5)"
		} 2>/dev/null | key_paths >"$BATS_TEST_TMPDIR/$host"
		run grep -E '(^|\.)(delay|mtu|tc_bw|per_second|netdev_mtu|active_mtu|requests|indications)$' \
			"$BATS_TEST_TMPDIR/$host"
		assert_output ""
		grep -qFx 'netdevs[].pfc.delay_bits' "$BATS_TEST_TMPDIR/$host" || fail "$host: no delay_bits"
		grep -qFx 'ports[].mtu_bytes' "$BATS_TEST_TMPDIR/$host" ||
			fail "$host: no mtu_bytes"
	done
}

@test "json: show and set use the same names and shapes (pfc show vs pfc apply, port show vs port set)" {
	local show plan
	show=$(rd cx6dx -j pfc show dev ens1f0np0 |
		jq -c '.netdevs[0] | {pfc: (.pfc | del(.prios, .pause_duration_source)), trust, dscp_prio, ets, maxrate, buffer, ecn, cnp, roce}')
	plan=$(rd cx6dx -j --dry-run pfc set dev ens1f0np0 delay 7 | jq -c '.netdevs[0].before')
	assert_equal "$plan" "$show"
	show=$(rd cx6dx -j port show ens1f0np0 | jq -c '.ports[0] | {mtu_bytes, operstate}')
	plan=$(rd cx6dx -j --dry-run port set ens1f0np0 mtu 9000 | jq -c '.before | {mtu_bytes, operstate}')
	assert_equal "$plan" "$show"
}

@test "json: port stats has one document shape with and without interval" {
	local once every
	# The keys are the same; "rates" is null without an interval, an object with one.
	once=$(rd seed-gateway -j port stats mlx5_0 | key_paths)
	every=$(rd seed-gateway -j port stats mlx5_0 interval 5 | key_paths | grep -v '^stats\[\]\.rates\.')
	assert_equal "$once" "$every"
	run bash -c '"$0" --root "$1/cx6dx" -j port stats mlx5_0 | jq -c ".stats[0].counters[0] | keys"' "$RDMACTL" "$HOSTS"
	assert_output '["delta","group","name","per_s","value"]'
}
