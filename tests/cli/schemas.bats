#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# schemas/*.schema.json and tests/schema-check: the schemas are sound and cover every kind,
# the validator rejects what is wrong, and what rdmactl prints on the fixtures is valid.
# (tests/run also validates every JSON document the cli, corrupt and netns tiers capture.)
load ../helpers

SC=$TOP/tests/schema-check

# check_docs: validate the documents on stdin; $output holds what the checker said.
check_docs() {
	run "$SC" -
}

@test "schemas: each is a Draft 2020-12 schema, every \$ref resolves, one for each kind cmd/*.c emits" {
	run "$SC" --check-schemas --tap
	assert_success
	refute_output --partial "not ok"
	# Every kind of rdc_out_begin() is named, and no schema is left over.
	local kinds
	kinds=$(grep -ohE 'rdc_out_begin\([^,]+, "[^"]+"\)' "$TOP"/cmd/*.c | sed -E 's/.*"([^"]+)".*/\1/' | sort -u)
	[ "$(wc -l <<<"$kinds")" -ge 16 ]
	assert_equal "$(cd "$TOP/schemas" && ls ./*.schema.json | sed 's|^\./||; s/\.schema\.json$//' | grep -vx common)" "$kinds"
}

@test "schemas: --check-schemas fails for a kind without a schema and a schema without a kind" {
	local d=$BATS_TEST_TMPDIR/schemas
	cp -r "$TOP/schemas" "$d"
	rm "$d/version.schema.json"
	sed 's/"port-show"/"port-nosuch"/g' "$TOP/schemas/port-show.schema.json" >"$d/port-nosuch.schema.json"
	run "$SC" --check-schemas --schemas "$d" --tap
	assert_failure 1
	assert_line --partial "not ok - kind version (cmd/main.c) has a schema"
	assert_line --partial "not ok - schemas/port-nosuch.schema.json is a kind cmd/*.c emits"
	# A schema that is not a schema, and a dangling $ref.
	cp "$TOP/schemas/version.schema.json" "$d/"
	rm "$d/port-nosuch.schema.json"
	sed -i 's/"type": "array"/"type": "list"/' "$d/version.schema.json"
	sed -i 's|common.schema.json#/\$defs/finding"|common.schema.json#/$defs/nosuch"|' "$d/diag-run.schema.json"
	run "$SC" --check-schemas --schemas "$d" --tap
	assert_failure 1
	assert_line --partial "not ok - schemas/version.schema.json is a valid Draft 2020-12 schema"
	assert_line --partial "not ok - schemas/diag-run.schema.json is a valid Draft 2020-12 schema"
	assert_output --partial "nosuch"
}

@test "schemas: hand-made wrong documents are rejected, each naming its kind and JSON path" {
	local ok='{"schema":3,"kind":"version","version":"1","libraries":[{"name":"libnl","version":"3.7.0","source":"runtime"}]}'
	check_docs <<<"$ok"
	assert_success
	assert_output "schema: 1 version documents valid"
	# One wrong thing each: a type, an unknown key, a missing key, an enum, the
	# schema version, a nullable that is not, a const section source, a range.
	local -a bad=(
		'{"schema":3,"kind":"version","version":1,"libraries":[]}|$.version|version'
		'{"schema":3,"kind":"version","version":"1","libraries":[],"extra":true}|$: Additional properties|version'
		'{"schema":3,"kind":"port-change","netdev":"eth0","changed":true,"dry_run":false,"before":{"mtu_bytes":1500,"admin_up":true,"operstate":"up"},"after":{"mtu_bytes":9000,"admin_up":"on","operstate":"up"}}|$.after.admin_up|port-change'
		'{"schema":2,"kind":"version","version":"1","libraries":[]}|$.schema|version'
		'{"schema":3,"kind":"diag-list","checks":[{"id":"x","family":"link","severity":"error","title":"t","threshold":"-","reads":"-"}],"policy":[]}|$.checks[0].severity|diag-list'
		'{"schema":3,"kind":"port-stats","sample":null,"interval_s":null,"stats":[]}|'"'filter'"' is a required property|port-stats'
		'{"schema":3,"kind":"port-gids","gids":[{"device":"mlx5_0","port":1,"index":"0","gid":null,"ip":null,"ip_family":null,"type":null,"netdev":null,"link_local":null,"recommended":null}]}|$.gids[0].index|port-gids'
		'{"schema":3,"kind":"bond-check","bonds":[],"summary":{"fail":0,"warn":0,"info":0}}|'"'dropped'"' is a required property|bond-check'
		'{"schema":3,"kind":"pfc-change","changed":false,"dry_run":true,"netdevs":[{"netdev":"eth0","upper":null,"relation":"same","changed":false,"dry_run":true,"before":{"pfc":{"source":"unknown","reason":"r","pfc_cap":null,"delay_bits":null,"enabled_prios":null},"trust":{"source":"dcbnl-app","reason":null,"value":"pcp"},"dscp_prio":{"source":"dcbnl-app","reason":null,"map":[]},"ets":{"source":"dcbnl","reason":null,"ets_cap":8,"willing":false,"prio_tc":[0,0,0,9,0,0,0,0],"tc_tsa":["ets","ets","ets","ets","ets","ets","ets","ets"],"tc_bw_pct":[12,12,12,12,13,13,13,13]},"maxrate":{"source":"unknown","reason":"r","tc_maxrate_kbps":null},"buffer":{"source":"unknown","reason":"r","prio_buffer":null,"buffer_size_bytes":null,"total_size_bytes":null},"ecn":{"source":"unknown","reason":"r","prios":null},"cnp":{"source":"unknown","reason":"r","dscp":null,"prio":null},"roce":[]},"after":null}]}|$.netdevs[0].after|pfc-change'
		'{"schema":3,"kind":"diag-run","interval_s":0,"ports":[],"findings":[{"severity":"fail","id":"x","device":"mlx5_0","netdev":null,"bond":null,"title":"t","evidence":[],"why":"w","fix":"f","fix_command":null,"fix_argv":null,"since_reset":false}],"skipped":[],"summary":{"ports_count":0,"checks_run":1,"fail":1,"warn":0,"info":0,"skipped_count":0,"dropped":0}}|$.findings[0]: '"'port'"' is a required property|diag-run'
		'{"schema":3,"kind":"bench-server","time":"yesterday","run":null,"client":"1.2.3.4","status":"failed","error":"busy","test":null,"msg_size_bytes":null,"qps_per_link":null,"tx_depth":null,"cq_mod":null,"post_list":null,"inline_bytes":null,"rdma_cm":null,"cq_wait":null,"duration_s":null,"iters":null,"warmup_s":null,"interval_s":null,"traffic_class":null,"mtu_limit_bytes":null,"qp_timeout":null,"retry_cnt":null,"rnr_retry":null,"qp_survival_s":null,"bidir":null,"rate_limit_gbps":null,"hugepages":null,"links":[],"client_gbps":null,"sent_gbps":null}|$.time|bench-server'
	)
	local b doc want kind
	for b in "${bad[@]}"; do
		IFS='|' read -r doc want kind <<<"$b"
		check_docs <<<"$doc"
		assert_failure 1
		assert_output --partial "<stdin>: $kind: "
		assert_output --partial "$want"
		assert_line "FAIL: schema: 1 of 1 $kind documents invalid"
	done
	# The ETS priority-to-TC value out of range, found inside the array.
	check_docs <<<"${bad[8]%%|*}"
	assert_output --partial '$.netdevs[0].before.ets.prio_tc[3]: 9 is greater than the maximum of 7'
	# A kind without a schema, something without a kind, text that is not JSON.
	check_docs <<<'{"schema":3,"kind":"port-nosuch"}'
	assert_failure 1
	assert_line "FAIL: schema: 1 port-nosuch documents have no schema (schemas/port-nosuch.schema.json)"
	check_docs <<<'[1,2]'
	assert_failure 1
	assert_line "FAIL: schema: 1 documents without a kind"
	check_docs <<<'rdmactl: port: no RDMA devices found'
	assert_failure 1
	assert_line "FAIL: schema: 1 captured outputs are not JSON"
	check_docs </dev/null
	assert_failure 1
	assert_line "FAIL: schema: no JSON documents found"
}

@test "schemas: a stream of documents, compact and pretty; only a final one may be cut short" {
	local one='{"schema":3,"kind":"version","version":"1","libraries":[]}'
	check_docs <<<"$one"$'\n'"$one"$'\n'"$(jq . <<<"$one")"
	assert_success
	assert_output "schema: 3 version documents valid"
	# A process killed while writing: its last document is said, not validated.
	check_docs < <(printf '%s\n%s' "$one" '{"schema":3,"kind":"version","vers')
	assert_success
	assert_output "schema: 1 version documents valid, 1 cut short at the end of the output (not checked)"
	run "$SC" --tap - < <(printf '%s' '{"schema":3,"kind":"port-show","ports":[{"dev')
	assert_success
	assert_output "ok - schema: 1 port-show documents cut short at the end of the output, not checked # skip"
	# Broken in the middle is not cut short: it fails, and the rest is not read as valid.
	check_docs < <(printf '%s\n%s\n%s\n' "$one" '{"schema":3,"kind":"version",]' "$one")
	assert_failure 1
	assert_line "FAIL: schema: 1 captured outputs are not JSON"
	# --tap: one line per kind, failures with their errors as comments.
	run "$SC" --tap - < <(printf '%s\n%s\n' "$one" '{"schema":3,"kind":"version"}')
	assert_failure 1
	assert_line "not ok - schema: 1 of 2 version documents invalid"
	assert_line "# <stdin>#2: version: \$: 'version' is a required property"
}

# Every read-only verb on every fixture host, and the change reports of --dry-run.
@test "schemas: what rdmactl prints on every fixture host validates, every read-only kind" {
	local d=$BATS_TEST_TMPDIR/docs h n i=0 b m
	mkdir -p "$d"
	out() { i=$((i + 1)); "$RDMACTL" "$@" >"$d/$i.json" 2>/dev/null || true; }
	"$RDMACTL" -V -j >"$d/version.json"
	"$RDMACTL" -j diag list >"$d/diag-list.json"
	for h in "$HOSTS"/*/; do
		h=${h%/}
		out --root "$h" -j port show
		out --root "$h" -jp port gids
		out --root "$h" -j port stats
		out --root "$h" -j port stats errors
		# The bundle's window: rates; a one-sample bundle: an error document.
		out --root "$h" -j port stats interval "$(cat "$h/WINDOW" 2>/dev/null || echo 5)" nonzero
		out --root "$h" -j pfc show
		out --root "$h" -j bond show
		out --root "$h" -j bond check
		out --root "$h" -j diag run interval 0
		out --root "$h" -j diag run profile roce-lossless
		for n in $(ls "$h/sys/class/net" 2>/dev/null | grep -vx bonding_masters | head -2); do
			out --root "$h" -j --dry-run port set "$n" mtu 4200 down
			out --root "$h" -j --dry-run pfc set dev "$n" prio-pfc 3:on tc-bw 0:50 3:50 trust dscp dscp-prio 26:3 roce-tos 106
			out --root "$h" -j --dry-run pfc apply dev "$n" profile roce-lossless
		done
		for b in $(cat "$h/sys/class/net/bonding_masters" 2>/dev/null); do
			m=$(ls "$h/sys/class/net/$b" | sed -n 's/^lower_//p' | paste -sd,)
			out --root "$h" -j --dry-run bond set "$b" miimon 50 lacp-rate fast
			out --root "$h" -j --dry-run bond create "$b" mode active-backup members "$m"
			out --root "$h" -j --dry-run bond delete "$b"
		done
	done
	run "$SC" "$d"
	assert_success
	# Each kind the fixtures can show is there (bench, bond failover and diag collect
	# need a live kernel: bench_server.bats and the lab tier print them).
	for k in version diag-list port-show port-gids port-stats pfc-show bond-show bond-check diag-run \
		port-change pfc-change bond-change; do
		assert_line --regexp "^schema: [0-9]+ $k documents valid$"
	done
	refute_output --partial FAIL
}

# bench client and bond failover need RDMA and bonds on a live kernel (the lab tier runs
# them, uncaptured): a document of each shape, as cmd/bench.c and cmd/bond_failover.c
# write them, keeps their schemas honest here.  Change them with the code.
@test "schemas: documents of the kinds only a live lab prints, as the code writes them, validate" {
	run "$SC" - <<-'DOCS'
	{"schema":3,"kind":"bench-client","test":"write","msg_size_bytes":16384,"qps_per_link":2,"tx_depth":128,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":true,"cq_wait":"auto","duration_s":3,"iters":null,"warmup_s":1,"interval_s":1,"traffic_class":0,"mtu_limit_bytes":null,"qp_timeout":14,"retry_cnt":7,"rnr_retry":7,"qp_survival_s":0.537,"bidir":false,"rate_limit_gbps":0.25,"hugepages":false,"time_origin":"warmup_end","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"ok","bytes":123456789,"msgs":7535,"window_s":3,"latency_us":null,"gbps":0.329,"directions":null,"mmsgs_per_s":0.0025,"min_interval_gbps":0.3,"max_interval_gbps":0.35,"port_share_pct":1.3,"port_rate_gbps":25,"intervals_gbps":[0.3,0.33,0.35],"completions":7535,"post_calls":7535,"flushed_requests":64,"buffer_page_bytes":4096,"cpu_s":0.5,"cq_wait":"events","longest_stall_s":0.0125,"longest_stall_start_s":1.2,"longest_stall_end_s":1.2125,"silent_to_end":false,"silent_from_s":null,"failed_completions":0,"error":null,"wc_status":null,"failed_at_s":null,"retries_held_s":null,"carrier_lost":false,"carrier_losses":0,"carrier_lost_at_s":null,"carrier_back_at_s":null,"outage_s":null,"counters":[{"group":"hw","name":"rcvd_seq_err","value":3,"meaning":"retransmissions"},{"group":"pause","name":"rx_pause","value":0,"meaning":null}],"peer":{"bytes":123456789,"msgs":7535,"failed_completions":0}}],"total":{"gbps":0.329,"directions":null,"mmsgs_per_s":0.0025,"imbalance":0,"bytes":123456789,"msgs":7535,"window_s":3,"host_cpu_pct":12.5},"sizes":null,"error":null}
	{"schema":3,"kind":"bench-client","test":"write","msg_size_bytes":8388608,"qps_per_link":1,"tx_depth":128,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":false,"cq_wait":"auto","duration_s":null,"iters":5,"warmup_s":0,"interval_s":1,"traffic_class":0,"mtu_limit_bytes":null,"qp_timeout":14,"retry_cnt":7,"rnr_retry":7,"qp_survival_s":0.536870912,"bidir":false,"rate_limit_gbps":null,"hugepages":false,"time_origin":"start","server":"198.18.1.1:18570","server_host":"a","sizes":[{"msg_size_bytes":2,"duration_s":null,"iters":5,"status":"ok","gbps":6.53891800523767e-06,"mmsgs_per_s":0.000408682375327355,"imbalance":0,"latency_us":null,"bytes":10,"msgs":5,"window_s":0.01223444,"host_cpu_pct":50,"error":null},{"msg_size_bytes":4,"duration_s":null,"iters":5,"status":"failed","gbps":2.21792991175134e-05,"mmsgs_per_s":0.000693103097422294,"imbalance":0,"latency_us":null,"bytes":20,"msgs":5,"window_s":0.007213934,"host_cpu_pct":16.6666666666667,"error":"size all stopped at 4 bytes: link rxe0/1 (eth0) failed: no completion for 10 s with requests in flight"}],"links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"ok","bytes":41943040,"msgs":5,"window_s":16.571183579,"latency_us":null,"gbps":0.0202486634946958,"directions":null,"mmsgs_per_s":3.01728598694441e-07,"min_interval_gbps":0,"max_interval_gbps":0.067108864,"port_share_pct":0.0809946539787832,"port_rate_gbps":25,"intervals_gbps":[0,0,0,0.067108864,0,0,0.067108864,0,0,0,0,0.067108864,0,0,0.067108864,0],"completions":5,"post_calls":5,"flushed_requests":null,"buffer_page_bytes":4096,"cpu_s":8.684219118,"cq_wait":"events","longest_stall_s":4.677082884,"longest_stall_start_s":6.389995436,"longest_stall_end_s":11.06707832,"silent_to_end":false,"silent_from_s":null,"failed_completions":0,"error":null,"wc_status":null,"failed_at_s":null,"retries_held_s":null,"carrier_lost":false,"carrier_losses":0,"carrier_lost_at_s":null,"carrier_back_at_s":null,"outage_s":null,"counters":[{"group":"hw","name":"duplicate_request","value":0,"meaning":"retransmissions"},{"group":"hw","name":"out_of_seq_request","value":0,"meaning":"retransmissions"},{"group":"hw","name":"rcvd_seq_err","value":3,"meaning":"retransmissions"},{"group":"hw","name":"retry_exceeded_err","value":0,"meaning":"retries exhausted"},{"group":"hw","name":"retry_rnr_exceeded_err","value":0,"meaning":"retries exhausted"},{"group":"hw","name":"completer_retry_err","value":6,"meaning":"retransmissions"},{"group":"hw","name":"rcvd_rnr_err","value":0,"meaning":"receiver not ready"},{"group":"hw","name":"send_rnr_err","value":0,"meaning":"receiver not ready"},{"group":"hw","name":"link_downed","value":0,"meaning":"link down"}],"peer":{"bytes":0,"msgs":0,"failed_completions":0}}],"total":{"gbps":0.0202486634946958,"directions":null,"mmsgs_per_s":3.01728598694441e-07,"imbalance":0,"bytes":41943040,"msgs":5,"window_s":16.571183579,"host_cpu_pct":99.6315401621223},"error":null}
	{"schema":3,"kind":"bench-client","test":"read","msg_size_bytes":16384,"qps_per_link":2,"tx_depth":128,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":false,"cq_wait":"auto","duration_s":3,"iters":null,"warmup_s":1,"interval_s":1,"traffic_class":0,"mtu_limit_bytes":null,"qp_timeout":14,"retry_cnt":7,"rnr_retry":7,"qp_survival_s":0.537,"bidir":true,"rate_limit_gbps":null,"hugepages":false,"time_origin":"warmup_end","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"ok","bytes":223456789,"msgs":13639,"window_s":3,"latency_us":null,"gbps":0.596,"directions":{"client_to_server":{"requester":"server","bytes":100000000,"msgs":6104,"gbps":0.267,"mmsgs_per_s":0.002},"server_to_client":{"requester":"client","bytes":123456789,"msgs":7535,"gbps":0.329,"mmsgs_per_s":0.0025}},"mmsgs_per_s":0.0025,"min_interval_gbps":0.3,"max_interval_gbps":0.35,"port_share_pct":1.3,"port_rate_gbps":25,"intervals_gbps":[0.3,0.33,0.35],"completions":7535,"post_calls":7535,"flushed_requests":null,"buffer_page_bytes":4096,"cpu_s":0.5,"cq_wait":"events","longest_stall_s":0.0125,"longest_stall_start_s":1.2,"longest_stall_end_s":1.2125,"silent_to_end":false,"silent_from_s":null,"failed_completions":0,"error":null,"wc_status":null,"failed_at_s":null,"retries_held_s":null,"carrier_lost":false,"carrier_losses":0,"carrier_lost_at_s":null,"carrier_back_at_s":null,"outage_s":null,"counters":[{"group":"hw","name":"rcvd_seq_err","value":3,"meaning":"retransmissions"},{"group":"pause","name":"rx_pause","value":0,"meaning":null}],"peer":{"bytes":100000000,"msgs":6104,"failed_completions":0}}],"total":{"gbps":0.596,"directions":{"client_to_server":{"requester":"server","bytes":100000000,"msgs":6104,"gbps":0.267,"mmsgs_per_s":0.002},"server_to_client":{"requester":"client","bytes":123456789,"msgs":7535,"gbps":0.329,"mmsgs_per_s":0.0025}},"mmsgs_per_s":0.0025,"imbalance":0,"bytes":223456789,"msgs":13639,"window_s":3,"host_cpu_pct":12.5},"sizes":null,"error":null}
	{"schema":3,"kind":"bench-client","test":"send","msg_size_bytes":16384,"qps_per_link":2,"tx_depth":128,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":false,"cq_wait":"auto","duration_s":3,"iters":null,"warmup_s":1,"interval_s":1,"traffic_class":0,"mtu_limit_bytes":null,"qp_timeout":14,"retry_cnt":7,"rnr_retry":7,"qp_survival_s":0.537,"bidir":true,"rate_limit_gbps":null,"hugepages":false,"time_origin":"warmup_end","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"ok","bytes":223456789,"msgs":13639,"window_s":3,"latency_us":null,"gbps":null,"directions":{"client_to_server":{"requester":"client","bytes":100000000,"msgs":6104,"gbps":0.267,"mmsgs_per_s":0.002},"server_to_client":{"requester":"server","bytes":0,"msgs":0,"gbps":null,"mmsgs_per_s":null}},"mmsgs_per_s":null,"min_interval_gbps":0.3,"max_interval_gbps":0.35,"port_share_pct":1.3,"port_rate_gbps":25,"intervals_gbps":[0.3,0.33,0.35],"completions":7535,"post_calls":7535,"flushed_requests":null,"buffer_page_bytes":4096,"cpu_s":0.5,"cq_wait":"events","longest_stall_s":0.0125,"longest_stall_start_s":1.2,"longest_stall_end_s":1.2125,"silent_to_end":false,"silent_from_s":null,"failed_completions":0,"error":null,"wc_status":null,"failed_at_s":null,"retries_held_s":null,"carrier_lost":false,"carrier_losses":0,"carrier_lost_at_s":null,"carrier_back_at_s":null,"outage_s":null,"counters":[{"group":"hw","name":"rcvd_seq_err","value":3,"meaning":"retransmissions"},{"group":"pause","name":"rx_pause","value":0,"meaning":null}],"peer":{"bytes":100000000,"msgs":6104,"failed_completions":0}}],"total":{"gbps":null,"directions":{"client_to_server":{"requester":"client","bytes":100000000,"msgs":6104,"gbps":0.267,"mmsgs_per_s":0.002},"server_to_client":{"requester":"server","bytes":0,"msgs":0,"gbps":null,"mmsgs_per_s":null}},"mmsgs_per_s":null,"imbalance":null,"bytes":223456789,"msgs":13639,"window_s":3,"host_cpu_pct":12.5},"sizes":null,"error":null}
	{"schema":3,"kind":"bench-client","test":"lat","msg_size_bytes":2,"qps_per_link":1,"tx_depth":1,"cq_mod":1,"post_list":1,"inline_bytes":220,"rdma_cm":false,"cq_wait":"auto","duration_s":null,"iters":1000,"warmup_s":0,"interval_s":1,"traffic_class":104,"mtu_limit_bytes":1024,"qp_timeout":16,"retry_cnt":3,"rnr_retry":7,"qp_survival_s":1.074,"bidir":false,"rate_limit_gbps":null,"hugepages":true,"time_origin":"start","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"failed","bytes":2000,"msgs":1000,"window_s":0.05,"latency_us":{"count":1000,"min":10.5,"p50":12,"p99":20,"p99_9":30,"max":31,"mean":12.4,"stdev":1.1,"histogram":[{"from_us":8,"to_us":16,"count":990},{"from_us":16,"to_us":32,"count":10}]},"gbps":null,"directions":null,"mmsgs_per_s":null,"min_interval_gbps":null,"max_interval_gbps":null,"port_share_pct":null,"port_rate_gbps":null,"intervals_gbps":null,"completions":null,"post_calls":null,"flushed_requests":null,"buffer_page_bytes":2097152,"cpu_s":0.05,"cq_wait":null,"longest_stall_s":0,"longest_stall_start_s":null,"longest_stall_end_s":null,"silent_to_end":true,"silent_from_s":0.04,"failed_completions":1,"error":"work completion error: retry exceeded","wc_status":"transport retry counter exceeded","failed_at_s":1.1,"retries_held_s":1.06,"carrier_lost":true,"carrier_losses":2,"carrier_lost_at_s":0.03,"carrier_back_at_s":null,"outage_s":null,"counters":[],"peer":{"bytes":2000,"msgs":1000,"failed_completions":0}}],"total":{"gbps":null,"directions":null,"mmsgs_per_s":null,"imbalance":null,"bytes":2000,"msgs":1000,"window_s":0.05,"host_cpu_pct":3},"sizes":null,"error":"link rxe0/1 failed"}
	{"schema":3,"kind":"bench-client","test":"lat-read","msg_size_bytes":64,"qps_per_link":1,"tx_depth":1,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":false,"cq_wait":"auto","duration_s":null,"iters":1000,"warmup_s":0,"interval_s":1,"traffic_class":104,"mtu_limit_bytes":1024,"qp_timeout":16,"retry_cnt":3,"rnr_retry":7,"qp_survival_s":1.074,"bidir":false,"rate_limit_gbps":null,"hugepages":false,"time_origin":"start","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"failed","bytes":2000,"msgs":1000,"window_s":0.05,"latency_us":{"count":1000,"min":10.5,"p50":12,"p99":20,"p99_9":30,"max":31,"mean":12.4,"stdev":1.1,"histogram":[{"from_us":8,"to_us":16,"count":990},{"from_us":16,"to_us":32,"count":10}]},"gbps":null,"directions":null,"mmsgs_per_s":null,"min_interval_gbps":null,"max_interval_gbps":null,"port_share_pct":null,"port_rate_gbps":null,"intervals_gbps":null,"completions":null,"post_calls":null,"flushed_requests":null,"buffer_page_bytes":2097152,"cpu_s":0.05,"cq_wait":null,"longest_stall_s":0,"longest_stall_start_s":null,"longest_stall_end_s":null,"silent_to_end":true,"silent_from_s":0.04,"failed_completions":1,"error":"work completion error: retry exceeded","wc_status":"transport retry counter exceeded","failed_at_s":1.1,"retries_held_s":1.06,"carrier_lost":true,"carrier_losses":2,"carrier_lost_at_s":0.03,"carrier_back_at_s":null,"outage_s":null,"counters":[],"peer":{"bytes":2000,"msgs":1000,"failed_completions":0}}],"total":{"gbps":null,"directions":null,"mmsgs_per_s":null,"imbalance":null,"bytes":2000,"msgs":1000,"window_s":0.05,"host_cpu_pct":3},"sizes":null,"error":"link rxe0/1 failed"}
	{"schema":3,"kind":"bench-client","test":"lat-send","msg_size_bytes":2,"qps_per_link":1,"tx_depth":1,"cq_mod":1,"post_list":1,"inline_bytes":220,"rdma_cm":false,"cq_wait":"auto","duration_s":null,"iters":1000,"warmup_s":0,"interval_s":1,"traffic_class":104,"mtu_limit_bytes":1024,"qp_timeout":16,"retry_cnt":3,"rnr_retry":7,"qp_survival_s":1.074,"bidir":false,"rate_limit_gbps":null,"hugepages":false,"time_origin":"start","server":"198.18.1.1:18515","server_host":"198.18.1.1","links":[{"link":0,"local":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.2","ip":"198.18.1.2"},"remote":{"device":"rxe0","port":1,"netdev":"eth0","gid_index":1,"gid":"::ffff:198.18.1.1","ip":"198.18.1.1"},"path_mtu_bytes":1024,"status":"failed","bytes":2000,"msgs":1000,"window_s":0.05,"latency_us":{"count":1000,"min":10.5,"p50":12,"p99":20,"p99_9":30,"max":31,"mean":12.4,"stdev":1.1,"histogram":[{"from_us":8,"to_us":16,"count":990},{"from_us":16,"to_us":32,"count":10}]},"gbps":null,"directions":null,"mmsgs_per_s":null,"min_interval_gbps":null,"max_interval_gbps":null,"port_share_pct":null,"port_rate_gbps":null,"intervals_gbps":null,"completions":null,"post_calls":null,"flushed_requests":null,"buffer_page_bytes":2097152,"cpu_s":0.05,"cq_wait":null,"longest_stall_s":0,"longest_stall_start_s":null,"longest_stall_end_s":null,"silent_to_end":true,"silent_from_s":0.04,"failed_completions":1,"error":"work completion error: retry exceeded","wc_status":"transport retry counter exceeded","failed_at_s":1.1,"retries_held_s":1.06,"carrier_lost":true,"carrier_losses":2,"carrier_lost_at_s":0.03,"carrier_back_at_s":null,"outage_s":null,"counters":[],"peer":{"bytes":2000,"msgs":1000,"failed_completions":0}}],"total":{"gbps":null,"directions":null,"mmsgs_per_s":null,"imbalance":null,"bytes":2000,"msgs":1000,"window_s":0.05,"host_cpu_pct":3},"sizes":null,"error":"link rxe0/1 failed"}
	{"schema":3,"kind":"bond-failover","bond":"bond0","mode":"active-backup","miimon_ms":100,"method":"member taken down","member":"eth0","failover":true,"interrupted":false,"active_before":"eth0","active_after":"eth1","active_final":"eth0","fault_s":0.5,"fault_note":null,"detect_s":0.08020000000000001,"react_s":0.0004,"react_reason":null,"failover_s":0.0806,"detected_at_s":0.58,"reacted_at_s":0.581,"restore_s":3.5,"member_back_s":3.6,"failback_s":3.7,"duration_s":5,"probe":{"ran":true,"reason":null,"method":"icmp","rate_hz":1000,"sent":5000,"received":4910,"lost":90,"send_errors":0,"gap_start_s":0.499,"gap_end_s":0.59,"outage_s":0.091,"gap_lost":90,"gap_open_start":false,"gap_open_end":false,"recovered_after_fault_s":0.0905,"resolution_s":0.0011,"rtt_max_s":0.0009,"failback_gap_s":0.002,"sent_after_outage":4000,"lost_after_outage":0,"loss_after_outage_pct":0},"rdma":{"ran":true,"reason":null,"device":"rxe0","port":1,"qp_survived":false,"resumed_s":null,"failed_s":0.9,"wc_status":"WR_RETRY_EXC_ERR","reconnected_s":1.2,"error":null,"longest_stall_s":0.4,"connections":2,"bytes":1234567},"events":[{"t_s":0.5,"netdev":"eth0","device":null,"port":null,"what":"fault_injected","value":null},{"t_s":0.58,"netdev":"eth0","device":null,"port":null,"what":"mii_status","value":"down"},{"t_s":0.9,"netdev":null,"device":"rxe0","port":1,"what":"rdma_failed","value":"transport retry counter exceeded"}],"dropped_events":0,"event_overruns":0}
	{"schema":3,"kind":"bond-failover","bond":"bond0","mode":"802.3ad","miimon_ms":null,"method":"waited","member":null,"failover":false,"interrupted":true,"active_before":null,"active_after":null,"active_final":null,"fault_s":null,"fault_note":null,"detect_s":null,"react_s":null,"react_reason":null,"failover_s":null,"detected_at_s":null,"reacted_at_s":null,"restore_s":null,"member_back_s":null,"failback_s":null,"duration_s":2,"probe":{"ran":false,"reason":"no peer","method":null,"rate_hz":1000,"sent":0,"received":0,"lost":0,"send_errors":0,"gap_start_s":null,"gap_end_s":null,"outage_s":null,"gap_lost":0,"gap_open_start":false,"gap_open_end":false,"recovered_after_fault_s":null,"resolution_s":null,"rtt_max_s":null,"failback_gap_s":null,"sent_after_outage":null,"lost_after_outage":null,"loss_after_outage_pct":null},"rdma":{"ran":false,"reason":"no-rdma","device":null,"port":null,"qp_survived":null,"resumed_s":null,"failed_s":null,"wc_status":null,"reconnected_s":null,"error":null,"longest_stall_s":null,"connections":0,"bytes":0},"events":[],"dropped_events":0,"event_overruns":0}
	{"schema":3,"kind":"diag-collect","out":"rdmactl-bundle-20261203T101500Z.tar.gz","size_bytes":123456,"ports":2,"interval_s":5}
	{"schema":3,"kind":"diag-collect","out":"b.tar.gz","size_bytes":null,"ports":0,"interval_s":0}
	DOCS
	assert_success
	assert_line "schema: 7 bench-client documents valid"
	assert_line "schema: 2 bond-failover documents valid"
	assert_line "schema: 2 diag-collect documents valid"
	# A bandwidth link (test write) without its rates: rejected.
	run "$SC" - <<-'DOCS'
		{"schema":3,"kind":"bench-client","test":"write","msg_size_bytes":1,"qps_per_link":1,"tx_depth":1,"cq_mod":1,"post_list":1,"inline_bytes":0,"rdma_cm":false,"cq_wait":"auto","duration_s":1,"iters":null,"warmup_s":0,"interval_s":1,"traffic_class":0,"mtu_limit_bytes":null,"qp_timeout":14,"retry_cnt":7,"rnr_retry":7,"qp_survival_s":0.537,"bidir":false,"rate_limit_gbps":null,"hugepages":false,"time_origin":"start","server":"s","server_host":"h","links":[{"link":0,"local":{"device":null,"port":null,"netdev":null,"gid_index":0,"gid":"::","ip":"0.0.0.0"},"remote":{"device":null,"port":null,"netdev":null,"gid_index":0,"gid":"::","ip":"0.0.0.0"},"path_mtu_bytes":1024,"status":"ok","bytes":0,"msgs":0,"window_s":1,"latency_us":null,"directions":null,"mmsgs_per_s":null,"min_interval_gbps":null,"max_interval_gbps":null,"port_share_pct":null,"port_rate_gbps":null,"intervals_gbps":null,"completions":null,"post_calls":null,"flushed_requests":null,"buffer_page_bytes":2097152,"cpu_s":0,"cq_wait":"events","longest_stall_s":0,"longest_stall_start_s":null,"longest_stall_end_s":null,"silent_to_end":false,"silent_from_s":null,"failed_completions":0,"error":null,"wc_status":null,"failed_at_s":null,"retries_held_s":null,"carrier_lost":false,"carrier_losses":0,"carrier_lost_at_s":null,"carrier_back_at_s":null,"outage_s":null,"counters":[],"peer":{"bytes":0,"msgs":0,"failed_completions":0}}],"total":{"gbps":0,"directions":null,"mmsgs_per_s":0,"imbalance":0,"bytes":0,"msgs":0,"window_s":1,"host_cpu_pct":0},"error":null}
	DOCS
	assert_failure 1
	assert_output --partial "\$.links[0]: 'gbps' is a required property"
}

@test "schemas: --check-schemas fails on a schema that lets a key be absent, allows other keys, or says any value" {
	local d=$BATS_TEST_TMPDIR/schemas
	cp -r "$TOP/schemas" "$d"
	# port-show: one property dropped from required; diag-list: additionalProperties removed at the top.
	python3 - "$d" <<-'PY'
	import json, sys
	d = sys.argv[1]
	s = json.load(open(d + "/port-show.schema.json"))
	s["required"].remove("ports")
	json.dump(s, open(d + "/port-show.schema.json", "w"))
	s = json.load(open(d + "/diag-list.schema.json"))
	del s["additionalProperties"]
	json.dump(s, open(d + "/diag-list.schema.json", "w"))
	s = json.load(open(d + "/version.schema.json"))
	s["properties"]["version"] = True
	json.dump(s, open(d + "/version.schema.json", "w"))
	PY
	run "$SC" --check-schemas --schemas "$d" --source "$TOP" --tap
	assert_failure 1
	assert_line "not ok - schemas/port-show.schema.json is strict: every key required, no other key allowed"
	assert_line "# $: properties not required (absent instead of null): ports"
	assert_line "not ok - schemas/diag-list.schema.json is strict: every key required, no other key allowed"
	assert_line "not ok - schemas/version.schema.json is strict: every key required, no other key allowed"
	assert_line "# $.version: any value (true): say what it is"
	assert_line "ok - schemas/pfc-show.schema.json is strict: every key required, no other key allowed"
}
