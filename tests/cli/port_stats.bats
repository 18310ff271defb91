#!/usr/bin/env bats
# port stats on the fixtures: IB, hw, netdev and ethtool counters (replayed from kernel.rec)
load ../helpers

@test "port stats: every group from every source, JSON and YAML agree" {
	run --separate-stderr rd cx6dx -j port stats mlx5_0
	assert_success
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap) | keys_unsorted')" = \
	  '["ib","hw","netdev","driver","eth_phy","eth_mac","eth_ctrl","rmon","pause"]' ]
	# reason: the glossary's name for why a part is missing; there, and null when it was read.
	[ "$(echo "$output" | jq -c '.stats[0] | [.device, .port, .netdev, has("reason"), .reason]')" = \
	  '["mlx5_0",1,"ens1f0np0",true,null]' ]
	jq -e '.stats[0] | has("netdev_stats_error") | not' <<<"$output" || fail "$output"
	[ "$(echo "$output" | jq -S .)" = "$(rd cx6dx --yaml port stats mlx5_0 | yaml_to_json | jq -S .)" ]
}

@test "port stats: counters are the kernel's names and values (port_*_data stay 4-byte words)" {
	local dir=$HOSTS/cx6dx/sys/class/infiniband/mlx5_0/ports/1/counters
	run --separate-stderr rd cx6dx -j port stats mlx5_0/1
	assert_success
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).ib | [.port_xmit_data, .port_rcv_data]')" = \
	  "[$(cat "$dir/port_xmit_data"),$(cat "$dir/port_rcv_data")]" ]
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).ib | [has("port_xmit_bytes"), has("port_rcv_bytes")]')" = '[false,false]' ]
	# Every ib and hw counter is a file of that name holding that value.
	jq -e '[.stats[0].counters[] | select(.group == "ib" or .group == "hw")] | length > 20' <<<"$output"
	echo "$output" | jq -r '.stats[0].counters[] | select(.group == "ib" or .group == "hw")
		| "\(if .group == "ib" then "counters" else "hw_counters" end)/\(.name) \(.value)"' |
	while read -r f v; do
		[ "$(cat "$HOSTS/cx6dx/sys/class/infiniband/mlx5_0/ports/1/$f")" = "$v" ] || fail "$f: $v"
	done
	# Text says the unit of the words.
	run --separate-stderr rd cx6dx port stats mlx5_0/1
	assert_line --regexp "^  ib +port_xmit_data \(4-byte words\) +$(cat "$dir/port_xmit_data")\$"
	refute_output --partial port_xmit_bytes
}

@test "port stats: RoCE loss and congestion counters come first" {
	run --separate-stderr rd cx6dx -j port stats mlx5_0
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).hw | keys_unsorted | .[:4]')" = \
	  '["out_of_sequence","packet_seq_err","implied_nak_seq_err","local_ack_timeout_err"]' ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap).hw | has("lifespan")')" = false ]
}

@test "port stats: per-priority pause counters of the driver are there" {
	run rd cx6dx port stats ens1f0np0
	assert_success
	assert_output --regexp "driver +rx_prio3_pause +[0-9]+"
	assert_output --regexp "driver +tx_prio3_pause_duration +[0-9]+"
	assert_output --regexp "eth_mac +FrameCheckSequenceErrors +[0-9]+"
	assert_output --regexp "pause +rx_frames +0"
}

@test "port stats: the degraded port shows its CRC errors and flaps" {
	run --separate-stderr rd degraded -j port stats mlx5_1
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap) | [.driver.rx_crc_errors_phy, .driver.link_down_events_phy, .eth_mac.FrameCheckSequenceErrors]')" = '[18842,37,18842]' ]
}

@test "port stats: without a recording the netdev statistics are reported missing, not zero" {
	run --separate-stderr rd rxe -j port stats rxe0
	assert_success
	[ "$(echo "$output" | jq -r '.stats[0].reason')" = "no kernel recording in the root directory: No data available" ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap) | has("driver")')" = false ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap).hw | has("rcvd_pkts")')" = true ]
}

@test "port stats: interval on a bundle: rates from its two samples over its recorded window, once" {
	# seed-gateway's samples are 5 s apart (WINDOW): its rates, at once, never the wall clock's.
	run --separate-stderr timeout 4 "$RDMACTL" --root "$HOSTS/seed-gateway" -j port stats mlx5_1 interval 5
	assert_success
	[ "${#lines[@]}" -eq 1 ]
	jq -e '.sample == 1 and .interval_s == 5 and .stats[0].rates.source == "ib"' <<<"$output" >/dev/null || fail "$output"
	# Rates carry their unit: bits from the IB words (x 4 bytes x 8), packets per second.
	[ "$(jq -c '.stats[0].rates | keys_unsorted' <<<"$output")" = \
		'["source","rx_gbps","rx_packets_per_s","tx_gbps","tx_packets_per_s"]' ]
	jq -e '.stats[0] as $s | ($s.counters | map({(.name): .}) | add) as $c
		| ($s.rates.rx_gbps - $c.port_rcv_data.per_s * 4 * 8 / 1e9 | fabs) < 1e-6
		and ($s.rates.tx_gbps - $c.port_xmit_data.per_s * 4 * 8 / 1e9 | fabs) < 1e-6
		and $s.rates.rx_packets_per_s == $c.port_rcv_packets.per_s
		and $s.rates.tx_packets_per_s == $c.port_xmit_packets.per_s
		and $s.rates.rx_gbps > 0' <<<"$output" >/dev/null || fail "$output"
	[ "$(jq -c "$JQ_CMAP"'(.stats[0] | cmap_rates).driver.rx_crc_errors_phy' <<<"$output")" = \
		'{"value":30299,"delta":1843,"per_s":368.6}' ]
	# About the window (a rounded request) is the window; the report says which.
	run --separate-stderr rd seed-gateway -j port stats mlx5_1 interval 4.8 count 1
	assert_success
	jq -e '.interval_s == 5' <<<"$output" >/dev/null || fail "$output"
	run --separate-stderr rd seed-gateway --yaml port stats mlx5_1 interval 5
	[ "$(echo "$output" | python3 -c 'import sys,yaml; print(len(list(yaml.safe_load_all(sys.stdin))))')" = 1 ]
}

@test "port stats: on a bundle, an interval or count it cannot give is a usage error naming what it has" {
	run --separate-stderr rd seed-gateway port stats interval 30
	assert_failure 2
	[[ $stderr == *"interval 30 s: the bundle's two samples are 5 s apart (use interval 5, or leave it out)"* ]] || fail "$stderr"
	run --separate-stderr rd seed-gateway -j port stats interval 5 count 2
	assert_failure 2
	[[ $stderr == *"count 2: a bundle holds two samples, one interval (use count 1)"* ]] || fail "$stderr"
	jq -e '.kind == "error" and .error.id == "usage"' <<<"$output" >/dev/null || fail "$output"
	# One sample (cx6dx): no rates at all, rather than zeros over the wall clock.
	run --separate-stderr rd cx6dx -j port stats mlx5_0 interval 5
	assert_failure 2
	[[ $stderr == *"interval 5 s: the bundle holds one sample, no window to measure rates over (leave out the interval)"* ]] || fail "$stderr"
	jq -e '.kind == "error"' <<<"$output" >/dev/null || fail "$output"
	printf 'soon\n' >"$BATS_TEST_TMPDIR/WINDOW"
	cp -a "$HOSTS/seed-gateway" "$BATS_TEST_TMPDIR/h"
	cp "$BATS_TEST_TMPDIR/WINDOW" "$BATS_TEST_TMPDIR/h/WINDOW"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" port stats interval 5
	assert_failure 2
	[[ $stderr == *"the bundle's WINDOW file is not a number of seconds"* ]] || fail "$stderr"
	# A WINDOW without samples/2 has no second sample: no zero rates over it.
	echo 5 >"$BATS_TEST_TMPDIR/h/WINDOW"
	rm -rf "$BATS_TEST_TMPDIR/h/samples"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" port stats interval 5 count 2
	assert_failure 2
	[[ $stderr == *"interval 5 s: the bundle holds one sample, no window to measure rates over"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/h" -j diag
	jq -e '.interval_s == 0' <<<"$output" >/dev/null || fail "diag unasked: $output"
}

@test "port stats: a host without RDMA says so on stderr and exits 1, with or without interval" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" port stats
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -j port stats
	assert_failure 1
	[ "$output" = '{"schema":3,"kind":"port-stats","sample":null,"interval_s":null,"filter":"all","stats":[]}' ]
	# Nothing to sample: it does not wait out the interval forever.
	run --separate-stderr timeout 5 "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" port stats interval 1
	assert_failure 1
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
}

@test "port stats errors / nonzero: only the counters that matter, text and JSON alike" {
	run --separate-stderr rd cx6dx port stats mlx5_0
	local all=${#lines[@]}
	run --separate-stderr rd cx6dx port stats mlx5_0 errors
	assert_success
	[ "${#lines[@]}" -lt $((all / 2)) ] || fail "errors kept ${#lines[@]} of $all lines"
	assert_output --regexp 'driver +rx_discards_phy +[0-9]+'
	assert_output --regexp 'hw +local_ack_timeout_err +[0-9]+'
	# 0 on this port: only "errors all" lists it.
	refute_output --partial FrameCheckSequenceErrors
	refute_output --partial port_rcv_data
	refute_output --partial np_cnp_sent
	run --separate-stderr rd cx6dx -j port stats mlx5_0 errors
	assert_success
	jq -e '.filter == "errors" and ([.stats[0].counters[].name] | index("rx_discards_phy") != null
		and index("tx_bytes") == null)' <<<"$output" || fail "$output"
	run --separate-stderr rd cx6dx -j port stats mlx5_0 nonzero
	assert_success
	jq -e '.filter == "nonzero" and ([.stats[0].counters[] | .value] | all(. != 0))
		and (.stats[0].counters | length) > 10' <<<"$output" || fail "$output"
	# errors lists the faults that are not 0; errors all every fault counter; errors nonzero is errors.
	jq -e '[.stats[0].counters[] | .value] | all(. != 0)' <<<"$(rd cx6dx -j port stats mlx5_0 errors)"
	run --separate-stderr rd cx6dx -j port stats mlx5_0 errors all
	assert_success
	jq -e '.filter == "errors-all" and ([.stats[0].counters[] | select(.value == 0)] | length) > 0
		and ([.stats[0].counters[].name] | index("tx_bytes") == null)' <<<"$output" || fail "$output"
	[ "$(rd cx6dx port stats mlx5_0 errors nonzero)" = "$(rd cx6dx port stats mlx5_0 errors)" ]
	rd cx6dx port stats mlx5_0 errors all | grep -qE 'eth_mac +FrameCheckSequenceErrors +0$' 
	[ "$(rd cx6dx port stats mlx5_0 errors | wc -l)" -lt "$(rd cx6dx port stats mlx5_0 errors all | wc -l)" ]
	run --separate-stderr rd cx6dx port stats mlx5_0 nonzero all
	assert_failure 2
	[ "$stderr" = "rdmactl: port: stats: 'nonzero' and 'all' exclude each other
see 'rdmactl help port'" ]
}

@test "port stats errors: a port whose fault counters are all 0 lists none, with an interval only those that moved" {
	run --separate-stderr rd clean-2port -j port stats errors
	assert_success
	jq -e '.filter == "errors" and ([.stats[].counters[] | .value] | all(. != 0))' <<<"$output" || fail "$output"
	run --separate-stderr rd clean-2port -j port stats errors interval 5
	assert_success
	jq -e '[.stats[].counters[]] == []' <<<"$output" || fail "$output"
}
