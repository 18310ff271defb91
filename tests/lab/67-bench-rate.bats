#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $output
# bench's rate-limit and hugepages (issue 24 item 2), each beside the same
# perftest option on link 1 (rxe0, a server on a, the client on b).
# rate-limit: an unlimited run's rate R first, then rdmactl's rate-limit and
# ib_write_bw's --rate_limit_type=SW --rate_limit at R/4: both land near
# the limit, under their unlimited rates, within 10x of each other (what
# a limiter does, not a speed: no timing threshold).  hugepages: with huge pages reserved in
# both guests rdmactl and ib_write_bw --use_hugepages both move data; with
# none free on one side rdmactl says how to reserve them, and moves nothing.
# The guests have 512 MiB: a few pages only, and 0 again at the end.

# shellcheck disable=SC2034 # read by bench_vs_perftest.bash
SRV_PORT=18570
# shellcheck disable=SC2034 # pt() in bench_vs_perftest.bash takes the next one each run
PT_PORT=18670
load bench_vs_perftest

SIZE=4096

# pt_gbps "OPTIONS": ib_write_bw -D 2 -s SIZE with OPTIONS; its rate in Gb/s
# from its own count of completions in the 2 s window (#iterations; its
# printed rates depend on a CPU clock estimate that fails in these guests).
pt_gbps() {
	local out
	out=$(pt ib_write_bw "-D 2 -s $SIZE $1") || {
		echo "$out" >&2
		return 1
	}
	awk -v s="$SIZE" '$1 ~ /^[0-9]+$/ && NF >= 5 { printf "%.6f\n", $2 * s * 8 / 2 / 1e9; exit }' <<<"$out"
}

# hp HOST N: reserve N huge pages in HOST's guest; prints what it has.
hp() {
	on "$1" "sysctl -q vm.nr_hugepages=$2 && cat /proc/sys/vm/nr_hugepages"
}

teardown() {
	diagnose_failure
	# Whatever a test left: no huge pages held in either guest.
	if [ -z "${LAB_SKIP:-}" ]; then
		hp a 0 >/dev/null || true
		hp b 0 >/dev/null || true
	fi
	note_retry
}

@test "rate-limit at R/4: both tools slow down to about the limit, as ib_write_bw --rate_limit_type=SW" {
	local r lim rl p pl
	rd un duration 2 warmup 0.5 size $SIZE
	r=$(jqf un .total.gbps)
	[ "$(jqf un .rate_limit_gbps)" = null ] || fail "unlimited run: rate_limit_gbps is not null"
	lim=$(awk -v r="$r" 'BEGIN { printf "%.6f", r / 4 }')
	awk -v l="$lim" 'BEGIN { exit !(l >= 0.000001) }' || fail "unlimited rate $r Gb/s: too low to pace"
	rd rl duration 2 warmup 0.5 size $SIZE rate-limit "$lim"
	[ "$(jqf rl .links[0].status)" = ok ] || fail "limited run failed: $(jqf rl .links[0].error)"
	jq -e --argjson l "$lim" '.rate_limit_gbps == $l' "$BATS_TEST_TMPDIR/rl.json" >/dev/null ||
		fail "rate_limit_gbps $(jqf rl .rate_limit_gbps) is not the $lim asked for"
	rl=$(jqf rl .total.gbps)
	p=$(pt_gbps "")
	pl=$(pt_gbps "--rate_limit_type=SW --rate_limit=$lim")
	echo "# unlimited: rdmactl $r, perftest $p Gb/s; limit $lim Gb/s: rdmactl $rl, perftest $pl Gb/s" >&3
	# rdmactl: at or under the limit (a tenth over for the window's edges), not stalled far below it,
	# well under its unlimited rate.
	awk -v x="$rl" -v l="$lim" 'BEGIN { exit !(x <= 1.1 * l && x >= l / 4) }' ||
		fail "rdmactl: $rl Gb/s is not at or just under the limit $lim"
	awk -v x="$rl" -v r="$r" 'BEGIN { exit !(x < r / 2) }' || fail "rdmactl: limited $rl is not well under $r"
	# perftest's limiter sends bursts of tx-depth and makes up for lost time without bound (its
	# deadline never resets): the same direction and order of magnitude, not the same bound.
	awk -v x="$pl" -v p="$p" 'BEGIN { exit !(x < p) }' || fail "perftest: limited $pl is not under $p"
	awk -v a="$rl" -v b="$pl" 'BEGIN { exit !(a > 0 && b > 0 && a / b >= 0.1 && a / b <= 10) }' ||
		fail "rdmactl $rl and perftest $pl Gb/s are not within 10x"
}

@test "hugepages: both sides' buffers from huge pages, as ib_write_bw --use_hugepages" {
	local g p
	[ "$(hp a 16)" = 16 ] && [ "$(hp b 16)" = 16 ] || skip "the guests cannot reserve 16 huge pages"
	rd hug duration 1 warmup 0.5 size $SIZE hugepages
	[ "$(jqf hug .hugepages)" = true ] || fail "hugepages is not true in the document"
	[ "$(jqf hug .links[0].status)" = ok ] || fail "the link failed: $(jqf hug .links[0].error)"
	[ "$(jqf hug .links[0].bytes)" -gt 0 ] || fail "no bytes moved"
	# The page of the client's buffer: the guests' default huge page, 2 MiB.
	[ "$(jqf hug .links[0].buffer_page_bytes)" = 2097152 ] ||
		fail "buffer_page_bytes $(jqf hug .links[0].buffer_page_bytes), not 2 MiB"
	# The server said it allocated alike (its text log shows the run's parameters).
	grep -q "hugepages" "$BATS_FILE_TMPDIR/server.out" || fail "the server's log does not say hugepages"
	g=$(jqf hug .total.gbps)
	p=$(pt_gbps "--use_hugepages")
	echo "# hugepages: rdmactl $g Gb/s, ib_write_bw --use_hugepages $p Gb/s" >&3
	awk -v a="$g" -v b="$p" 'BEGIN { exit !(a > 0 && b > 0 && a / b >= 0.1 && a / b <= 10) }' ||
		fail "rdmactl $g and perftest $p Gb/s are not within 10x"
}

@test "hugepages with none free: the client, or the server, names the sysctl, and nothing runs" {
	[ "$(hp a 16)" = 16 ] && [ "$(hp b 0)" = 0 ] || skip "the guests cannot set vm.nr_hugepages"
	run on b "$R bench client 198.18.1.1 port $SRV_PORT link rxe0 duration 1 size $SIZE hugepages"
	assert_failure 1
	assert_output --partial "no free 2048 kB huge pages for 4 KiB: reserve some with sysctl vm.nr_hugepages=1"
	# Free pages on the client, none on the server: the server says so, in its words.
	[ "$(hp a 0)" = 0 ] && [ "$(hp b 16)" = 16 ] || skip "the guests cannot set vm.nr_hugepages"
	run on b "$R bench client 198.18.1.1 port $SRV_PORT link rxe0 duration 1 size $SIZE hugepages"
	assert_failure 1
	assert_output --partial "no free 2048 kB huge pages on the server for 4 KiB: reserve some there with sysctl vm.nr_hugepages=1"
	# The client gave back what it took: all 16 free again.
	run on b "grep HugePages_Free /proc/meminfo"
	assert_output --regexp "HugePages_Free: +16"
}
