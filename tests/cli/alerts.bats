#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/: the Prometheus alert rules (promtool check and test rules: they fire on the metrics
# they name and resolve when the cause goes; runbook_url into man/) and the Grafana dashboard
# (every query valid PromQL, every metric one that diag metrics writes)
load ../helpers

RULES=$TOP/contrib/prometheus/rdmactl-alerts.yml
DASH=$TOP/contrib/grafana/rdmactl.json

setup() {
	command -v promtool >/dev/null || skip "promtool not installed (package prometheus)"
	command -v jq >/dev/null || skip "jq not installed"
}

# promtool test rules on the unit test file on stdin (rule_files: the alert rules).
rules_test() {
	local t=$BATS_TEST_TMPDIR/test.yml
	cat >"$t"
	run promtool test rules "$t"
	[ "$status" -eq 0 ] || fail "promtool test rules: $output"
}

# The alert names of the rule file, one a line.
alert_names() {
	sed -n 's/^ *- alert: *//p' "$RULES"
}

@test "alert rules: promtool check rules, and they fire on the metrics they name" {
	run -0 promtool check rules "$RULES"
	assert_output --partial "SUCCESS"
	# Every rdmactl_ metric a rule names is one diag metrics writes (the man page lists them).
	local m
	while read -r m; do
		grep -qF "*$m*" "$TOP/man/rdmactl-diag.8.scd" || fail "$m: no such metric in rdmactl-diag(8)"
	done < <(grep -o 'rdmactl_[a-z0-9_]*' "$RULES" | sort -u)
	rules_test <<-EOF
	rule_files: [$RULES]
	evaluation_interval: 1m
	tests:
	  - interval: 1m
	    input_series:
	      - series: 'rdmactl_rdma_hw_stats_total{instance="h1",device="mlx5_0",port="1",netdev="ens1f0np0",counter="out_of_sequence"}'
	        values: '0+10x30'
	      - series: 'rdmactl_port_info{instance="h1",device="mlx5_0",port="1",netdev="ens1f0np0",link_layer="Ethernet"}'
	        values: '1x30'
	      - series: 'node_network_carrier_changes_total{instance="h1",device="ens1f0np0"}'
	        values: '0+1x30'
	      - series: 'node_network_carrier_changes_total{instance="h1",device="eth9"}'
	        values: '0+1x30'
	      - series: 'rdmactl_diag_finding{instance="h1",check="qos.pfc-off",severity="fail",device="mlx5_0",port="1",netdev="ens1f0np0"}'
	        values: '1x30'
	      - series: 'rdmactl_bond_member_up{instance="h1",bond="bond0",member="ens1f0np0"}'
	        values: '1x30'
	      - series: 'rdmactl_last_run_timestamp_seconds{instance="h1"}'
	        values: '0+60x30'
	    alert_rule_test:
	      - eval_time: 20m
	        alertname: RdmaOutOfSequence
	        exp_alerts:
	          - exp_labels: {severity: warning, instance: h1, device: mlx5_0, port: "1", netdev: ens1f0np0, counter: out_of_sequence}
	            exp_annotations:
	              summary: "RoCE packets lost on mlx5_0/1"
	              description: "out_of_sequence grew by 50 in 5 minutes: packets were dropped on the way and resent (go-back-N). Run \`rdmactl diag mlx5_0\`."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	      - eval_time: 20m
	        alertname: RdmaLinkFlapping
	        exp_alerts:
	          - exp_labels: {severity: warning, instance: h1, device: ens1f0np0}
	            exp_annotations:
	              summary: "RDMA link ens1f0np0 flaps"
	              description: "The carrier of ens1f0np0 changed 15 times in 15 minutes: every change breaks the RDMA connections on it."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	      - eval_time: 20m
	        alertname: RdmaDiagFail
	        exp_alerts:
	          - exp_labels: {severity: critical, instance: h1, check: qos.pfc-off, device: mlx5_0, port: "1", netdev: ens1f0np0}
	            exp_annotations:
	              summary: "rdmactl diag check qos.pfc-off fails on ens1f0np0 (mlx5_0/1) of h1"
	              description: "\`rdmactl diag ens1f0np0 check qos.pfc-off\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	      - eval_time: 20m
	        alertname: RdmaBondMemberDown
	        exp_alerts: []
	      - eval_time: 20m
	        alertname: RdmactlMetricsStale
	        exp_alerts: []
	EOF
	# The link flap joins node_exporter's netdev to an RDMA port: eth9 (no RDMA port) stays quiet.
}

@test "alert rules: one alert per finding, labelled and worded by its object; it resolves when the finding goes" {
	# The textfile drops a finding's series when a run no longer finds it: node_exporter's next
	# scrape lacks it, and Prometheus marks it stale (the 'stale' of promtool's notation).
	rules_test <<-EOF
	rule_files: [$RULES]
	evaluation_interval: 1m
	tests:
	  - interval: 1m
	    input_series:
	      - series: 'rdmactl_diag_finding{instance="h1",job="node",check="qos.pfc-off",severity="fail",device="mlx5_0",port="1",netdev="ens1f0np0"}'
	        values: '1x10 stale'
	      - series: 'rdmactl_diag_finding{instance="h1",job="node",check="bond.mode-no-roce-lag",severity="fail",bond="bond1"}'
	        values: '1x90'
	      - series: 'rdmactl_diag_finding{instance="h1",job="node",check="link.port-not-active",severity="fail",device="mlx5_2",port="1"}'
	        values: '1x90'
	      - series: 'rdmactl_diag_finding{instance="h1",job="node",check="host.driver-mismatch",severity="warn"}'
	        values: '1x90'
	      - series: 'rdmactl_diag_finding{instance="h1",job="node",check="qos.rx-pause",severity="warn",device="mlx5_0",port="1",netdev="ens1f0np0"}'
	        values: '1x30 stale'
	    alert_rule_test:
	      - eval_time: 4m
	        alertname: RdmaDiagFail
	        exp_alerts: []
	      - eval_time: 8m
	        alertname: RdmaDiagFail
	        exp_alerts:
	          - exp_labels: {severity: critical, instance: h1, job: node, check: qos.pfc-off, device: mlx5_0, port: "1", netdev: ens1f0np0}
	            exp_annotations:
	              summary: "rdmactl diag check qos.pfc-off fails on ens1f0np0 (mlx5_0/1) of h1"
	              description: "\`rdmactl diag ens1f0np0 check qos.pfc-off\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	          - exp_labels: {severity: critical, instance: h1, job: node, check: bond.mode-no-roce-lag, bond: bond1}
	            exp_annotations:
	              summary: "rdmactl diag check bond.mode-no-roce-lag fails on bond bond1 of h1"
	              description: "\`rdmactl diag bond1 check bond\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-bond(8)"
	          - exp_labels: {severity: critical, instance: h1, job: node, check: link.port-not-active, device: mlx5_2, port: "1"}
	            exp_annotations:
	              summary: "rdmactl diag check link.port-not-active fails on mlx5_2/1 of h1"
	              description: "\`rdmactl diag mlx5_2 check link.port-not-active\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	      # One run without qos.pfc-off: its alert is gone, the others stay.
	      - eval_time: 11m
	        alertname: RdmaDiagFail
	        exp_alerts:
	          - exp_labels: {severity: critical, instance: h1, job: node, check: bond.mode-no-roce-lag, bond: bond1}
	            exp_annotations:
	              summary: "rdmactl diag check bond.mode-no-roce-lag fails on bond bond1 of h1"
	              description: "\`rdmactl diag bond1 check bond\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-bond(8)"
	          - exp_labels: {severity: critical, instance: h1, job: node, check: link.port-not-active, device: mlx5_2, port: "1"}
	            exp_annotations:
	              summary: "rdmactl diag check link.port-not-active fails on mlx5_2/1 of h1"
	              description: "\`rdmactl diag mlx5_2 check link.port-not-active\` on h1 shows the evidence and the fix. The alert resolves with the first run that no longer finds it."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	      # A warning waits an hour; one that went after half an hour never fires. A finding about
	      # the host has neither device nor netdev, and reads well without them.
	      - eval_time: 61m
	        alertname: RdmaDiagWarn
	        exp_alerts:
	          - exp_labels: {severity: info, instance: h1, job: node, check: host.driver-mismatch}
	            exp_annotations:
	              summary: "rdmactl diag check host.driver-mismatch warns on h1"
	              description: "For an hour. \`rdmactl diag check host.driver-mismatch\` on h1 shows the evidence and the fix."
	              runbook_url: "man:rdmactl-diag(8)#CHECKS"
	EOF
}

@test "alert rules: the metrics file stale, absent on one host, absent everywhere" {
	# h1 loses its file at 21m; h2 has RDMA devices (node_exporter's infiniband collector) and never
	# had it; h3 has neither (no alert); h4's node_exporter goes down (up 0: InstanceDown's job,
	# not ours); h5's file stops being replaced at 10m (stale, still there).
	rules_test <<-EOF
	rule_files: [$RULES]
	evaluation_interval: 1m
	tests:
	  - interval: 1m
	    input_series:
	      - series: 'up{instance="h1",job="node"}'
	        values: '1x60'
	      - series: 'rdmactl_last_run_timestamp_seconds{instance="h1",job="node"}'
	        values: '0+60x20 stale'
	      - series: 'up{instance="h2",job="node"}'
	        values: '1x60'
	      - series: 'node_infiniband_info{instance="h2",job="node",device="mlx5_0",board_id="MT_0000000531",firmware_version="22.36.1010",hca_type="MT4125"}'
	        values: '1x60'
	      - series: 'up{instance="h3",job="node"}'
	        values: '1x60'
	      - series: 'up{instance="h4",job="node"}'
	        values: '1x10 0x50'
	      - series: 'rdmactl_last_run_timestamp_seconds{instance="h4",job="node"}'
	        values: '0+60x10 stale'
	      - series: 'up{instance="h5",job="node"}'
	        values: '1x60'
	      - series: 'rdmactl_last_run_timestamp_seconds{instance="h5",job="node"}'
	        values: '0+60x10 600x50'
	    alert_rule_test:
	      - eval_time: 5m
	        alertname: RdmactlMetricsAbsent
	        exp_alerts: []
	      - eval_time: 12m
	        alertname: RdmactlMetricsAbsent
	        exp_alerts:
	          - exp_labels: {severity: warning, instance: h2, job: node}
	            exp_annotations: &absent_h2
	              summary: "rdmactl metrics are missing on h2"
	              description: "node_exporter on h2 is up but serves no rdmactl metrics (rdmactl_last_run_timestamp_seconds): /var/lib/prometheus/node-exporter/rdmactl.prom is gone or the textfile collector does not read it (--collector.textfile.directory). See \`systemctl status rdmactl-metrics.timer rdmactl-metrics.service\`."
	              runbook_url: "man:rdmactl-diag(8)#METRICS"
	      - eval_time: 25m
	        alertname: RdmactlMetricsStale
	        exp_alerts:
	          - exp_labels: {severity: warning, instance: h5, job: node}
	            exp_annotations:
	              summary: "rdmactl metrics on h5 are older than 5 minutes"
	              description: "rdmactl-metrics.timer has not replaced rdmactl.prom for 15m 0s: see \`systemctl status rdmactl-metrics.service\`."
	              runbook_url: "man:rdmactl-diag(8)#METRICS"
	      - eval_time: 35m
	        alertname: RdmactlMetricsAbsent
	        exp_alerts:
	          - exp_labels: {severity: warning, instance: h1, job: node}
	            exp_annotations:
	              summary: "rdmactl metrics are missing on h1"
	              description: "node_exporter on h1 is up but serves no rdmactl metrics (rdmactl_last_run_timestamp_seconds): /var/lib/prometheus/node-exporter/rdmactl.prom is gone or the textfile collector does not read it (--collector.textfile.directory). See \`systemctl status rdmactl-metrics.timer rdmactl-metrics.service\`."
	              runbook_url: "man:rdmactl-diag(8)#METRICS"
	          - exp_labels: {severity: warning, instance: h2, job: node}
	            exp_annotations: *absent_h2
	      # h5 still has the metric: absent() of it stays quiet.
	      - eval_time: 59m
	        alertname: RdmactlMetricsAbsentEverywhere
	        exp_alerts: []
	  # Nobody has it: absent() fires, without an instance.
	  - interval: 1m
	    input_series:
	      - series: 'up{instance="h1",job="node"}'
	        values: '1x40'
	    alert_rule_test:
	      - eval_time: 29m
	        alertname: RdmactlMetricsAbsentEverywhere
	        exp_alerts: []
	      - eval_time: 31m
	        alertname: RdmactlMetricsAbsentEverywhere
	        exp_alerts:
	          - exp_labels: {severity: warning}
	            exp_annotations:
	              summary: "No host serves rdmactl metrics"
	              description: "rdmactl_last_run_timestamp_seconds has been absent on every target for 30 minutes: no rdmactl-metrics.timer runs, or no node_exporter reads its file."
	              runbook_url: "man:rdmactl-diag(8)#METRICS"
	EOF
}

@test "alert rules: a host whose findings rest on totals since boot (cx6dx, as diag metrics writes it) raises no alert" {
	# The fixture's own file as input series, constant for 40 minutes (counters that do not move),
	# the run's time advancing: every alert of the file stays quiet.
	run -0 --separate-stderr rd cx6dx diag metrics
	echo "$output" | grep -q '^rdmactl_diag_findings_since_reset [1-9]' || fail "cx6dx: no since-boot findings"
	local series=$BATS_TEST_TMPDIR/series.yml a
	echo "$output" | grep -vE '^#|^rdmactl_last_run_timestamp_seconds ' |
		sed -E 's/^([a-z0-9_]+)\{(.*)\} (.*)$/\1{\2,instance="h1",job="node"} \3/;
			s/^([a-z0-9_]+) (.*)$/\1{instance="h1",job="node"} \2/' |
		awk '{ v = $NF; $NF = ""; sub(/ $/, ""); printf "      - series: %c%s%c\n        values: %c%sx40%c\n", 39, $0, 39, 39, v, 39 }' >"$series"
	[ "$(grep -c 'series:' "$series")" -gt 100 ]
	{
		printf 'rule_files: [%s]\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n' "$RULES"
		cat "$series"
		printf "      - series: 'rdmactl_last_run_timestamp_seconds{instance=\"h1\",job=\"node\"}'\n        values: '0+60x40'\n"
		printf "      - series: 'up{instance=\"h1\",job=\"node\"}'\n        values: '1x40'\n"
		printf '    alert_rule_test:\n'
		for a in $(alert_names); do
			printf '      - {eval_time: 40m, alertname: %s, exp_alerts: []}\n' "$a"
		done
	} | rules_test
}

@test "alert rules: every alert has a runbook_url into a man page of man/ (and its section)" {
	local json n uri name sec anchor page
	json=$(yaml_to_json <"$RULES")
	n=$(echo "$json" | jq '[.groups[].rules[] | select(.alert)] | length')
	[ "$n" -eq "$(alert_names | wc -l)" ]
	[ "$n" -ge 15 ]
	echo "$json" | jq -e '[.groups[].rules[] | select(.alert) | select((.annotations.runbook_url // "") | test("man:") | not) | .alert] | if length > 0 then error("no runbook_url: \(.)") else true end' >/dev/null ||
		fail "$(echo "$json" | jq -c '[.groups[].rules[] | select(.alert) | select((.annotations.runbook_url // "") | test("man:") | not) | .alert]')"
	# Every man: URI of every runbook_url (a template may hold several): man:NAME(SECTION)#ANCHOR
	# is man/NAME.SECTION.scd, and ANCHOR one of its "# SECTION" headings.
	local uris
	uris=$(echo "$json" | jq -r '.groups[].rules[] | select(.alert) | .annotations.runbook_url' |
		grep -oE 'man:[^ {}"]*' | sort -u)
	[ -n "$uris" ]
	for uri in $uris; do
		[[ $uri =~ ^man:([a-z][a-z0-9.-]*)\(([1-9])\)(#([A-Z][A-Z ]*))?$ ]] || fail "$uri: not man:NAME(SECTION)[#SECTION]"
		name=${BASH_REMATCH[1]} sec=${BASH_REMATCH[2]} anchor=${BASH_REMATCH[4]}
		page=$TOP/man/$name.$sec.scd
		[ -f "$page" ] || fail "$uri: no $page"
		[ -z "$anchor" ] || grep -qx "# $anchor" "$page" || fail "$uri: $page has no section $anchor"
	done
	# The header's sed line rewrites every man: URI into a web address, and the rules still load.
	local sedline copy=$BATS_TEST_TMPDIR/rules.yml
	sedline=$(sed -n "s/^#   sed -i \('[^']*'\) rdmactl-alerts.yml$/\1/p" "$RULES")
	[ -n "$sedline" ] || fail "no sed line in the header"
	cp "$RULES" "$copy"
	eval "sed -i $sedline \"\$copy\""
	grep -v '^#' "$copy" | grep -q 'man:' && fail "man: left after the header's sed line"
	grep -q 'runbook_url: "https://docs.example.org/man8/rdmactl-diag.8.html#METRICS"' "$copy"
	run -0 promtool check rules "$copy"
}

# The dashboard's queries, Grafana's variables substituted, as a rule file of recording rules
# (one per query): dash_rules DASHBOARD OUT; prints the number of queries.
dash_rules() {
	local exprs
	exprs=$(jq -c '.. | objects | select(has("targets")) | .targets[] | .expr // error("a target without expr")
		| gsub("\\$\\{?__rate_interval\\}?"; "1m") | gsub("\\$\\{?__interval\\}?"; "1m")
		| gsub("\\$\\{?__range\\}?"; "1h") | gsub("\\$\\{?instance(:regex)?\\}?"; "h1|h2")' "$1") ||
		return 1
	# Nothing of Grafana's is left ($1 of a label_replace would be PromQL's own: none here).
	if echo "$exprs" | grep -F '$'; then
		echo "a variable left unsubstituted" >&2
		return 1
	fi
	{
		printf 'groups:\n  - name: dashboard\n    rules:\n'
		echo "$exprs" | awk '{ printf "      - record: dashboard:query_%d\n        expr: %s\n", NR, $0 }'
	} >"$2"
	echo "$exprs" | grep -c .
}

# The rdmactl_ names in a dashboard that diag metrics writes no family of (cx6dx and cx6dx-lag
# between them write every family), and the counter="..." names no port of theirs has.
dash_unknown_names() {
	local fams counters m c
	fams=$( {
		rd cx6dx diag metrics
		rd cx6dx-lag diag metrics
	} | sed -n 's/^# TYPE \(rdmactl_[a-z0-9_]*\) .*/\1/p' | sort -u)
	counters=$( {
		rd cx6dx diag metrics
		rd cx6dx-lag diag metrics
	} | grep -oE 'counter="[a-z0-9_]+"' | sort -u)
	while read -r m; do
		echo "$fams" | grep -qx "$m" || echo "$m"
	done < <(grep -oE 'rdmactl_[a-z0-9_]+' "$1" | sort -u)
	# counter="x" or counter=~"a|b|c": each name is a counter of the fixtures (a pattern such
	# as ".*drop.*" is not a name).
	for c in $(jq -r '.. | objects | select(has("targets")) | .targets[].expr' "$1" |
		grep -oE 'counter=~?\\?"[^"\\]*' | sed -E 's/^counter=~?\\?"//' | grep -xE '[a-z0-9_]+(\|[a-z0-9_]+)*' |
		tr '|' '\n' | sort -u); do
		echo "$counters" | grep -qx "counter=\"$c\"" || echo "counter $c"
	done
}

@test "grafana dashboard: JSON with its variables, every query valid PromQL (promtool check rules)" {
	jq -e . "$DASH" >/dev/null
	jq -e '.schemaVersion >= 36 and (.uid | length > 0)' "$DASH"
	# The data source is a variable; every panel and query uses it.
	jq -e '.templating.list[] | select(.name == "DS_PROMETHEUS" and .type == "datasource" and .query == "prometheus")' "$DASH"
	jq -e '.templating.list[] | select(.name == "instance") | .definition == "label_values(rdmactl_port_info, instance)"' "$DASH"
	jq -e '[.. | objects | select(has("targets")) | (.datasource, .targets[].datasource) | .uid] | unique == ["${DS_PROMETHEUS}"]' "$DASH"
	# Panels do not overlap: no two share a cell of the 24-column grid.
	jq -e '[.panels[] | .gridPos as $g | range($g.x; $g.x + $g.w) as $x | range($g.y; $g.y + $g.h) as $y | "\($x),\($y)"] | length == (unique | length)' "$DASH"
	local n
	n=$(dash_rules "$DASH" "$BATS_TEST_TMPDIR/dash.yml")
	[ "$n" -ge 15 ]
	run -0 promtool check rules "$BATS_TEST_TMPDIR/dash.yml"
	assert_output --partial "SUCCESS: $n rules found"
	# What the dashboard must show is there.
	local want
	for want in rdmactl_scrape_success rdmactl_last_run_timestamp_seconds rdmactl_port_info \
		rdmactl_diag_finding'{' rdmactl_rx_pause_frames_total rdmactl_tx_pause_duration_seconds_total \
		out_of_sequence local_ack_timeout_err packet_seq_err np_cnp_sent rp_cnp_handled \
		rdmactl_ethtool_stats_total rdmactl_bond_member_up; do
		jq -r '.. | objects | select(has("targets")) | .targets[].expr' "$DASH" | grep -qF "$want" ||
			fail "no query of $want"
	done
	# The check can fail: a broken query is refused.
	jq '(.panels[] | select(.targets) | .targets[0].expr) |= . + ")"' "$DASH" >"$BATS_TEST_TMPDIR/bad.json"
	dash_rules "$BATS_TEST_TMPDIR/bad.json" "$BATS_TEST_TMPDIR/bad.yml"
	run promtool check rules "$BATS_TEST_TMPDIR/bad.yml"
	assert_failure
	# And a Grafana variable left over is refused before promtool.
	jq '(.panels[] | select(.targets) | .targets[0].expr) |= . + " * $unknown"' "$DASH" >"$BATS_TEST_TMPDIR/var.json"
	run dash_rules "$BATS_TEST_TMPDIR/var.json" "$BATS_TEST_TMPDIR/var.yml"
	assert_failure
}

@test "grafana dashboard: every rdmactl_ metric and counter it names is one diag metrics writes" {
	# rdmactl_diag_finding and rdmactl_diag_findings_since_reset included: the binary writes them.
	rd cx6dx-lag diag metrics | grep -qx '# TYPE rdmactl_diag_finding gauge'
	rd cx6dx diag metrics | grep -qx '# TYPE rdmactl_diag_findings_since_reset gauge'
	local unknown
	unknown=$(dash_unknown_names "$DASH")
	[ -z "$unknown" ] || fail "not written by diag metrics: $unknown"
	# A typo is caught, in a metric's name and in a counter's.
	sed 's/rdmactl_port_info{/rdmactl_port_inf0{/' "$DASH" >"$BATS_TEST_TMPDIR/typo.json"
	assert_equal "$(dash_unknown_names "$BATS_TEST_TMPDIR/typo.json")" "rdmactl_port_inf0"
	sed 's/|packet_seq_err/|packet_seq_error/' "$DASH" >"$BATS_TEST_TMPDIR/typo.json"
	assert_equal "$(dash_unknown_names "$BATS_TEST_TMPDIR/typo.json")" "counter packet_seq_error"
}
