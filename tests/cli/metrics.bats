#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# diag metrics: Prometheus text exposition on fixture hosts, the atomic file, and a real
# prometheus-node-exporter serving the file (the alert rules: alerts.bats; the units: units.bats)
load ../helpers

setup() {
	command -v promtool >/dev/null || skip "promtool not installed (package prometheus)"
}

teardown() {
	if [ -n "${EXPORTER_PID:-}" ]; then
		kill "$EXPORTER_PID" 2>/dev/null || true
		wait "$EXPORTER_PID" 2>/dev/null || true
	fi
	if [ -n "${SHARED:-}" ]; then
		chmod -R u+w "$SHARED" 2>/dev/null || true
		rm -rf "$SHARED"
	fi
}

# The metrics of a fixture host without the two lines that change every run.
stable() {
	grep -vE '^rdmactl_(last_run_timestamp|scrape_duration)_seconds '
}

# The value of the sample whose line starts with $1 (name and labels, exactly).
value() {
	awk -v k="$1" 'index($0, k " ") == 1 { print $2; found = 1 } END { exit !found }'
}

@test "diag metrics: every fixture host passes promtool check metrics, exit 0" {
	local h n=0
	for h in "$HOSTS"/*/; do
		[ -d "$h/sys/class/infiniband" ] || continue
		n=$((n + 1))
		run --separate-stderr "$RDMACTL" --root "$h" diag metrics
		[ "$status" -eq 0 ] || fail "$(basename "$h"): exit $status: $stderr"
		[ -z "$stderr" ] || fail "$(basename "$h"): stderr: $stderr"
		echo "$output" | promtool check metrics || fail "$(basename "$h"): promtool"
		echo "$output" | grep -qx 'rdmactl_scrape_success 1'
	done
	[ "$n" -ge 10 ]
}

@test "diag metrics: names are rdmactl_ snake_case, families sorted, HELP and TYPE once each" {
	local h
	for h in cx6dx seed-gateway rxe clean-2port cx6dx-lag ib-hdr; do
		run -0 rd "$h" diag metrics
		# Every line is a HELP, a TYPE or a sample of an rdmactl_ family, no timestamps.
		echo "$output" | grep -vE '^# (HELP|TYPE) rdmactl_[a-z0-9_]+ ' |
			grep -vE '^rdmactl_[a-z0-9_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [-+0-9.eInfNa]+$' &&
			fail "$h: a line out of the format"
		# Counters end in _total, and only counters do.
		echo "$output" | awk '$1 == "#" && $2 == "TYPE" {
			if (($4 == "counter") != ($3 ~ /_total$/)) { print "bad: " $0; bad = 1 } }
			END { exit bad }'
		local fams
		fams=$(echo "$output" | sed -n 's/^# TYPE \([^ ]*\) .*/\1/p')
		[ "$fams" = "$(echo "$fams" | LC_ALL=C sort -u)" ] || fail "$h: families not sorted or twice"
		[ "$(echo "$output" | grep -c '^# HELP ')" -eq "$(echo "$fams" | wc -l)" ]
		# Samples of a family follow its TYPE line, sorted by their labels.
		echo "$output" | awk '/^# TYPE/ { fam = $3; prev = ""; next } /^#/ { next }
			{ split($0, a, " "); n = a[1]; base = n; sub(/\{.*/, "", base)
			  if (base != fam) { print "stray: " $0; bad = 1 }
			  if (prev != "" && n < prev) { print "unsorted: " $0; bad = 1 }; prev = n }
			END { exit bad }'
	done
}

@test "diag metrics: cx6dx's hw_counters, pause, PFC, trust, ETS and findings, with their labels" {
	run -0 rd cx6dx diag metrics
	local P='device="mlx5_0",port="1",netdev="ens1f0np0"'
	[ "$(echo "$output" | value "rdmactl_rdma_hw_stats_total{$P,counter=\"out_of_sequence\"}")" = 7 ]
	[ "$(echo "$output" | value "rdmactl_rdma_hw_stats_total{$P,counter=\"np_cnp_sent\"}")" = 4420491 ]
	[ "$(echo "$output" | value "rdmactl_rdma_hw_stats_total{$P,counter=\"rp_cnp_handled\"}")" = 5978331 ]
	[ "$(echo "$output" | value "rdmactl_ethtool_stats_total{$P,counter=\"rx_discards_phy\"}")" = 5 ]
	[ "$(echo "$output" | value "rdmactl_rx_pause_frames_total{$P,prio=\"3\"}")" = 616211 ]
	[ "$(echo "$output" | value "rdmactl_tx_pause_frames_total{$P,prio=\"3\"}")" = 297377 ]
	# Microseconds in the driver, seconds here.
	[ "$(echo "$output" | value "rdmactl_rx_pause_duration_seconds_total{$P,prio=\"3\"}")" = 6.778321 ]
	[ "$(echo "$output" | value "rdmactl_pfc_enabled{$P,prio=\"3\"}")" = 1 ]
	[ "$(echo "$output" | value "rdmactl_pfc_enabled{$P,prio=\"4\"}")" = 0 ]
	[ "$(echo "$output" | value "rdmactl_pfc_requests_total{$P,prio=\"3\"}")" = 297377 ]
	[ "$(echo "$output" | value "rdmactl_trust_info{$P,trust=\"dscp\"}")" = 1 ]
	[ "$(echo "$output" | value "rdmactl_ets_prio_tc{$P,prio=\"3\"}")" = 3 ]
	[ "$(echo "$output" | value "rdmactl_ets_bandwidth_percent{$P,tc=\"3\"}")" = 50 ]
	[ "$(echo "$output" | value "rdmactl_ets_tsa_info{$P,tc=\"3\",tsa=\"ets\"}")" = 1 ]
	[ "$(echo "$output" | value "rdmactl_port_info{$P,link_layer=\"Ethernet\"}")" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_ports')" = 2 ]
	[ "$(echo "$output" | value 'rdmactl_scrape_success')" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_unreadable_files')" = 0 ]
	echo "$output" | grep -qE '^rdmactl_last_run_timestamp_seconds [0-9]{10}'
	echo "$output" | grep -qE '^rdmactl_build_info\{version="[^"]+"\} 1$'
	# Per-priority statistics are not repeated under their kernel names.
	echo "$output" | grep -q 'counter="rx_prio3_pause"' && fail "rx_prio3_pause kept whole"
	# Every check of 'diag list' with fail, warn and info, and its skips.
	local n
	n=$("$RDMACTL" -j diag list | jq '.checks | length')
	[ "$(echo "$output" | grep -c '^rdmactl_diag_findings{')" -eq $((3 * n)) ]
	[ "$(echo "$output" | grep -c '^rdmactl_diag_skipped{')" -eq "$n" ]
	# cx6dx's findings all rest on counters' totals since boot (one sample): counted apart,
	# none exported, so a healthy host raises no alert that only a counter reset would clear.
	[ "$(rd cx6dx -j diag interval 0 | jq '[.findings[] | select(.since_reset)] | length')" = 10 ]
	[ "$(echo "$output" | value 'rdmactl_diag_findings_since_reset')" = 10 ]
	echo "$output" | grep -E '^rdmactl_diag_findings\{.*\} [1-9]' && fail "since-boot findings exported"
	echo "$output" | grep '^rdmactl_diag_finding{' && fail "since-boot findings exported"
	true
}

# Findings of `diag -j` (of the same host, same window) as "check severity labels count" lines,
# those on totals since reset left out: what rdmactl_diag_finding must say.
findings_want() {
	jq -r '.findings[] | select(.since_reset | not) |
		"\(.id) \(.severity)" +
		(if .device then " device=\(.device),port=\(.port)" else "" end) +
		(if .netdev then " netdev=\(.netdev)" else "" end) +
		(if .bond then " bond=\(.bond)" else "" end)' | sort | uniq -c | awk '{ $0 = $0; c = $1; $1 = ""; print substr($0, 2), c }'
}

findings_got() {
	sed -nE 's/^rdmactl_diag_finding\{(.*)\} ([0-9]+)$/\1 \2/p' |
		sed -E 's/^check="([^"]+)",severity="([a-z]+)"(,device="([^"]+)",port="([0-9]+)")?(,netdev="([^"]+)")?(,bond="([^"]+)")? /\1 \2 device=\4,port=\5 netdev=\7 bond=\9 /; s/ device=,port=//; s/ netdev=( |$)/\1/; s/ bond=( |$)/\1/' |
		sort
}

@test "diag metrics: one series per finding with its device, netdev or bond; the same findings as diag" {
	local h want got
	for h in seed-gateway lag-mistakes degraded link-faults lossless-broken ab-2nic rxe-bond; do
		# Under --root diag takes the bundle's window; metrics takes it when asked for it.
		want=$(rd "$h" -j diag | findings_want)
		window=$(rd "$h" -j diag | jq '.interval_s')
		if [ "$window" = 0 ]; then
			run -0 rd "$h" diag metrics
		else
			run -0 rd "$h" diag metrics interval "$window"
		fi
		got=$(echo "$output" | findings_got)
		[ -n "$want" ] || fail "$h: diag found nothing to compare"
		assert_equal "$got" "$want"
		# The per-check counts add up to the series' values.
		[ "$(echo "$output" | awk '/^rdmactl_diag_findings\{/ { n += $2 } END { print n + 0 }')" = \
		  "$(echo "$output" | awk '/^rdmactl_diag_finding\{/ { n += $2 } END { print n + 0 }')" ]
	done
	# seed-gateway over its 5 s window: the flap is exported, labelled with its port.
	run -0 rd seed-gateway diag metrics interval 5
	[ "$(echo "$output" | value 'rdmactl_diag_finding{check="link.flapping",severity="fail",device="mlx5_1",port="1",netdev="ens1f1np1"}')" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_diag_findings_since_reset')" = 0 ]
	# One sample of the same host: the flap is a total since boot, counted apart.
	run -0 rd seed-gateway diag metrics
	echo "$output" | grep -q '^rdmactl_diag_finding{check="link.flapping"' && fail "a since-boot flap exported"
	[ "$(echo "$output" | value 'rdmactl_diag_findings_since_reset')" -gt 0 ]
	# A bond's finding names the bond.
	run -0 rd lag-mistakes diag metrics
	[ "$(echo "$output" | value 'rdmactl_diag_finding{check="bond.mode-no-roce-lag",severity="fail",bond="bond1"}')" = 1 ]
}

@test "diag metrics: what a host does not have is left out, never 0 (rxe: no DCB; IB: no netdev stats)" {
	run -0 rd rxe diag metrics
	for f in rdmactl_pfc_enabled rdmactl_trust_info rdmactl_ets_ rdmactl_rx_pause_frames_total; do
		echo "$output" | grep -q "^$f" && fail "rxe has no DCB: $f"
	done
	echo "$output" | grep -q '^rdmactl_rdma_hw_stats_total{device="rxe0",port="1",netdev="eth0",counter="retry_exceeded_err"} '
	run -0 rd ib-hdr diag metrics
	echo "$output" | grep -q '^rdmactl_port_info{device="mlx5_0",port="1",netdev="ib0",link_layer="InfiniBand"} 1$'
	echo "$output" | grep -q '^rdmactl_pfc_' && fail "an InfiniBand port has no PFC"
	true
}

@test "diag metrics: bond members (cx6dx-lag), findings by severity (seed-gateway, clean-2port)" {
	run -0 rd cx6dx-lag diag metrics
	[ "$(echo "$output" | value 'rdmactl_bond_member_active{bond="bond0",member="ens1f0np0"}')" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_bond_member_up{bond="bond0",member="ens1f1np1"}')" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_bond_member_link_failures_total{bond="bond0",member="ens1f1np1"}')" = 1 ]
	run -0 rd seed-gateway diag metrics
	[ "$(echo "$output" | value 'rdmactl_diag_findings{check="bond.none",severity="warn"}')" = 1 ]
	[ "$(echo "$output" | value 'rdmactl_diag_findings{check="bond.none",severity="fail"}')" = 0 ]
	run -0 rd clean-2port diag metrics
	echo "$output" | grep -E '^rdmactl_diag_findings\{.*severity="(fail|warn)"\} [1-9]' &&
		fail "clean-2port has findings"
	true
}

@test "diag metrics: the same host gives the same bytes; names select ports" {
	a=$(rd cx6dx diag metrics | stable)
	b=$(rd cx6dx diag metrics | stable)
	[ "$a" = "$b" ]
	run -0 rd cx6dx diag metrics ens1f1np1
	echo "$output" | grep -q 'device="mlx5_1"'
	echo "$output" | grep -q 'device="mlx5_0"' && fail "mlx5_0 not selected"
	[ "$(echo "$output" | value 'rdmactl_ports')" = 1 ]
	run -0 rd cx6dx diag metrics mlx5_0 mlx5_1
	[ "$(echo "$output" | value 'rdmactl_ports')" = 2 ]
}

@test "diag metrics: usage errors exit 2; a host that cannot be read still says so, exit 1" {
	run -2 rd cx6dx -j diag metrics
	assert_output --partial "--json and --yaml do not apply"
	run -2 rd cx6dx diag metrics out
	run -2 rd cx6dx diag metrics interval -1
	run --separate-stderr rd cx6dx diag metrics nosuchdev
	[ "$status" -eq 1 ]
	[[ $stderr == *nosuchdev* ]]
	echo "$output" | grep -qx 'rdmactl_scrape_success 0'
	echo "$output" | promtool check metrics
	echo "$output" | grep -q '^rdmactl_rdma_' && fail "no port was read"
	true
}

@test "diag metrics: an unreadable counter is left out, named on stderr, scrape_success 0, exit 1" {
	SHARED=$(mktemp -d /tmp/rdmactl-metrics-XXXXXX)
	cp -a "$HOSTS/clean-2port" "$SHARED/host"
	local hw
	hw=$(readlink -f "$SHARED/host/sys/class/infiniband/mlx5_0")/ports/1/hw_counters
	printf 'garbage\n' >"$hw/out_of_sequence"
	run --separate-stderr "$RDMACTL" --root "$SHARED/host" diag metrics
	[ "$status" -eq 1 ]
	[[ $stderr == *out_of_sequence* ]]
	echo "$output" | promtool check metrics
	echo "$output" | grep -qx 'rdmactl_scrape_success 0'
	[ "$(echo "$output" | value 'rdmactl_unreadable_files')" -ge 1 ]
	echo "$output" | grep -q 'device="mlx5_0".*counter="out_of_sequence"' && fail "unreadable, yet written"
	echo "$output" | grep -q 'device="mlx5_1".*counter="out_of_sequence"'
}

@test "diag metrics out FILE: written whole, mode 0644, an existing file replaced, nothing else left" {
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir "$dir"
	echo "old" >"$dir/rdmactl.prom"
	chmod 600 "$dir/rdmactl.prom"
	run -0 rd cx6dx diag metrics out "$dir/rdmactl.prom"
	[ -z "$output" ]
	[ "$(stat -c %a "$dir/rdmactl.prom")" = 644 ]
	[ "$(ls -A "$dir")" = rdmactl.prom ]
	promtool check metrics <"$dir/rdmactl.prom"
	[ "$(stable <"$dir/rdmactl.prom")" = "$(rd cx6dx diag metrics | stable)" ]
	# A relative path is relative to the current directory.
	cd "$dir"
	run -0 rd rxe diag metrics out rxe.prom
	[ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "rdmactl.prom rxe.prom " ]
	grep -q 'device="rxe0"' rxe.prom
}

@test "diag metrics out FILE: failures exit 1, leave FILE as it was and no temporary file" {
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir -p "$dir/taken.prom"
	touch "$dir/taken.prom/keep"
	# FILE is a directory: refused before anything is written.
	run -1 rd cx6dx diag metrics out "$dir/taken.prom"
	assert_output --partial "cannot write '$dir/taken.prom': it is a directory, which rdmactl does not replace"
	[ "$(ls -A "$dir")" = taken.prom ]
	[ "$(ls -A "$dir/taken.prom")" = keep ]
	# No such directory.
	run -1 rd cx6dx diag metrics out "$dir/nope/rdmactl.prom"
	assert_output --partial "cannot create a temporary file in '$dir/nope'"
	[ "$(ls -A "$dir")" = taken.prom ]
}

@test "diag metrics out FILE: a read-only directory fails, exit 1, old file untouched, no temporary file" {
	SHARED=$(mktemp -d /tmp/rdmactl-metrics-XXXXXX)
	chmod 755 "$SHARED"
	mkdir "$SHARED/ro"
	echo "old" >"$SHARED/ro/rdmactl.prom"
	local -a as=()
	if [ "$(id -u)" -eq 0 ]; then
		# Root writes anywhere: drop to nobody, with copies it can read (the checkout may be 0700).
		cp "${RDMACTL_REAL:-$RDMACTL}" "$SHARED/rdmactl"
		cp -a "$HOSTS/clean-2port" "$SHARED/host"
		chmod -R a+rX "$SHARED"
		as=(setpriv --reuid=65534 --regid=65534 --clear-groups "$SHARED/rdmactl")
		chown 65534 "$SHARED/ro/rdmactl.prom" # its own file: only the directory stops it
	else
		cp -a "$HOSTS/clean-2port" "$SHARED/host"
		as=("$RDMACTL")
	fi
	chmod 555 "$SHARED/ro"
	run "${as[@]}" --root "$SHARED/host" diag metrics out "$SHARED/ro/rdmactl.prom"
	assert_failure 1
	assert_output --partial "cannot create a temporary file in '$SHARED/ro'"
	assert_output --partial "Permission denied"
	[ "$(ls -A "$SHARED/ro")" = rdmactl.prom ]
	[ "$(cat "$SHARED/ro/rdmactl.prom")" = old ]
}

@test "diag metrics out FILE: never a device, link, FIFO or someone else's file; 0644 whatever the umask" {
	local dir=$BATS_TEST_TMPDIR/t
	mkdir -p "$dir"
	run -1 rd rxe diag metrics out /dev/null
	assert_output --partial "cannot write '/dev/null': it is a device, which rdmactl does not replace (name a regular file)"
	[ -c /dev/null ]
	echo old >"$dir/target"
	ln -s "$dir/target" "$dir/link.prom"
	run -1 rd rxe diag metrics out "$dir/link.prom"
	assert_output --partial "it is a symbolic link"
	[ "$(cat "$dir/target")" = old ] && [ -L "$dir/link.prom" ]
	mkfifo "$dir/fifo.prom"
	run -1 rd rxe diag metrics out "$dir/fifo.prom"
	assert_output --partial "it is a FIFO"
	if [ "$(id -u)" -eq 0 ]; then
		echo theirs >"$dir/theirs.prom"
		chown 65534 "$dir/theirs.prom"
		run -1 rd rxe diag metrics out "$dir/theirs.prom"
		assert_output --partial "it belongs to user 65534, not to us"
		[ "$(cat "$dir/theirs.prom")" = theirs ]
	fi
	[ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "fifo.prom link.prom target $([ "$(id -u)" -ne 0 ] || echo 'theirs.prom ')" ]
	run -0 bash -c "umask 077 && '$RDMACTL' --root '$HOSTS/rxe' diag metrics out '$dir/new.prom'"
	[ "$(stat -c %a "$dir/new.prom")" = 644 ]
}

@test "diag metrics: in help, completion and the man page, every family documented" {
	run -0 "$RDMACTL" help diag
	assert_output --partial "rdmactl diag metrics [DEV|NETDEV ...] [out FILE]"
	run -0 "$RDMACTL" __complete diag ''
	assert_line metrics
	run -0 "$RDMACTL" __complete diag metrics ''
	assert_line out
	assert_line interval
	local man=$TOP/man/rdmactl-diag.8.scd f
	for f in $(rd cx6dx-lag diag metrics | sed -n 's/^# TYPE \([^ ]*\) .*/\1/p') \
		$(rd cx6dx diag metrics | sed -n 's/^# TYPE \([^ ]*\) .*/\1/p'); do
		grep -qF "*$f*" "$man" || fail "$f not in rdmactl-diag(8)"
	done
}

# A free TCP port on 127.0.0.1 (the kernel picks it; the exporter binds it right after).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

@test "a real prometheus-node-exporter serves the file diag metrics wrote" {
	local exporter=/usr/bin/prometheus-node-exporter port i body=
	[ -x "$exporter" ] || skip "prometheus-node-exporter not installed"
	command -v curl >/dev/null || skip "curl not installed"
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir "$dir"
	run -0 rd cx6dx diag metrics out "$dir/rdmactl.prom"
	for attempt in 1 2 3; do
		port=$(free_port)
		"$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
			--collector.textfile --collector.textfile.directory="$dir" \
			>"$BATS_TEST_TMPDIR/exporter.log" 2>&1 &
		EXPORTER_PID=$!
		for i in $(seq 50); do
			body=$(curl -fsS "http://127.0.0.1:$port/metrics" 2>/dev/null) && break
			kill -0 "$EXPORTER_PID" 2>/dev/null || break
			sleep 0.1
		done
		[ -n "$body" ] && break
		kill "$EXPORTER_PID" 2>/dev/null || true
		wait "$EXPORTER_PID" 2>/dev/null || true
		EXPORTER_PID=
	done
	[ -n "$body" ] || fail "the exporter did not answer: $(cat "$BATS_TEST_TMPDIR/exporter.log")"
	# The textfile collector read it without error, and serves our samples as they are.
	echo "$body" | grep -qx 'node_textfile_scrape_error 0'
	echo "$body" | grep -q '^node_textfile_mtime_seconds{file=".*rdmactl.prom"} '
	echo "$body" | grep -qx 'rdmactl_scrape_success 1'
	echo "$body" | grep -qx 'rdmactl_rdma_hw_stats_total{counter="out_of_sequence",device="mlx5_0",netdev="ens1f0np0",port="1"} 7'
	echo "$body" | grep -qx 'rdmactl_pfc_enabled{device="mlx5_1",netdev="ens1f1np1",port="1",prio="3"} 1'
	[ "$(echo "$body" | grep -c '^rdmactl_')" -eq "$(grep -c '^rdmactl_' "$dir/rdmactl.prom")" ]
	# Replaced while the exporter runs: the next scrape sees the new file whole.
	run -0 rd rxe diag metrics out "$dir/rdmactl.prom"
	body=$(curl -fsS "http://127.0.0.1:$port/metrics")
	echo "$body" | grep -qx 'node_textfile_scrape_error 0'
	echo "$body" | grep -q 'device="rxe0"'
	echo "$body" | grep -q 'device="mlx5_0"' && fail "the old file is still served"
	true
}
