#!/usr/bin/env bats
# port stats on the fixtures: IB, hw, netdev and ethtool counters (replayed from kernel.rec)
load ../helpers

@test "port stats: every group from every source, JSON and YAML agree" {
	run --separate-stderr rd cx6dx -j port stats mlx5_0
	assert_success
	echo "$output" | json_valid
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap) | keys_unsorted')" = \
	  '["ib","hw","netdev","driver","eth_phy","eth_mac","eth_ctrl","rmon","pause"]' ]
	[ "$(echo "$output" | jq -c '.stats[0] | [.device, .port, .netdev, .netdev_stats_error]')" = \
	  '["mlx5_0",1,"ens1f0np0",null]' ]
	[ "$(echo "$output" | jq -S .)" = "$(rd cx6dx --yaml port stats mlx5_0 | yaml_to_json | jq -S .)" ]
}

@test "port stats: data counters are bytes (4 x the sysfs words)" {
	words=$(cat "$HOSTS/cx6dx/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data")
	run --separate-stderr rd cx6dx -j port stats mlx5_0/1
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap).ib.port_xmit_bytes')" = "$((words * 4))" ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap).ib | has("port_xmit_data")')" = false ]
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
	[ "$(echo "$output" | jq -r '.stats[0].netdev_stats_error')" = "no kernel recording in the root directory: No data available" ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap) | has("driver")')" = false ]
	[ "$(echo "$output" | jq "$JQ_CMAP"'(.stats[0] | cmap).hw | has("rcvd_pkts")')" = true ]
}

@test "port stats: interval on a bundle gives zero rates, one document per sample" {
	run --separate-stderr rd cx6dx -j port stats mlx5_0 interval 0.1 count 3
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	[ "$(printf '%s\n' "${lines[@]}" | jq -s -c 'map(.sample)')" = '[1,2,3]' ]
	[ "$(echo "${lines[0]}" | jq -c '.stats[0].rates | [.source, .rx_gbps, .tx_pps]')" = '["ib",0,0]' ]
	[ "$(echo "${lines[0]}" | jq -c "$JQ_CMAP"'(.stats[0] | cmap_rates).hw.out_of_sequence | keys')" = '["delta","per_s","value"]' ]
	run --separate-stderr rd cx6dx --yaml port stats mlx5_0 interval 0.1 count 2
	[ "$(echo "$output" | python3 -c 'import sys,yaml; print(len(list(yaml.safe_load_all(sys.stdin))))')" = 2 ]
}

@test "port stats: a host without RDMA says so on stderr and exits 1, with or without interval" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" port stats
	assert_failure 1
	[ -z "$output" ]
	[ "$stderr" = "rdmactl: port: no RDMA devices found" ]
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/empty" -j port stats
	assert_failure 1
	[ "$output" = '{"schema":2,"kind":"port-stats","sample":null,"interval_s":null,"filter":"all","stats":[]}' ]
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
	refute_output --partial port_rcv_bytes
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
	run --separate-stderr rd clean-2port -j port stats errors interval 0.05 count 1
	assert_success
	jq -e '[.stats[].counters[]] == []' <<<"$output" || fail "$output"
}
