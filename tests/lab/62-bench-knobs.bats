#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $output
# perftest's tuning knobs in bench (issue 24 item 2): tx-depth, cq-mod,
# post-list and inline, each run beside the same perftest option on link 1,
# and cq-wait (perftest -e, which takes neither -D nor write: bench alone)
# (rxe0, a server on a, the client on b).  Soft-RoCE under TCG is slow and
# noisy: the tests check what each knob does that can be counted (the
# completions cq-mod leaves, the chains post-list posts, the QP inline
# asks for), that both tools land in the same order of magnitude, and where
# the effect is large (tx-depth 1) its direction; the figures go to the TAP
# stream as '# ' lines, never into a timing threshold.

# shellcheck disable=SC2034 # read by bench_vs_perftest.bash
SRV_PORT=18530
# shellcheck disable=SC2034 # pt() in bench_vs_perftest.bash takes the next one each run
PT_PORT=18600
load bench_vs_perftest

# pt_rate "OPTIONS": ib_write_bw -D 2 with OPTIONS; its message rate in
# Mmsg/s from its own count of completions in the 2 s window (#iterations;
# its printed rates depend on a CPU clock estimate that fails in these guests;
# -F: report even then, instead of "Can't produce a report").
pt_rate() {
	local out
	out=$(pt ib_write_bw "-D 2 -F $1") || {
		echo "$out" >&2
		return 1
	}
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { printf "%.6f\n", $2 / 2 / 1e6; exit }' <<<"$out"
}

# within LO HI X: LO <= X <= HI (floating point).
within() {
	awk -v lo="$1" -v hi="$2" -v x="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

# same_order WHAT RDMACTL PERFTEST: the two rates within 10x of each other.
same_order() {
	echo "# $1: rdmactl $2 Mmsg/s, perftest $3 Mmsg/s" >&3
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(a > 0 && b > 0 && a / b >= 0.1 && a / b <= 10) }' ||
		fail "$1: rdmactl $2 and perftest $3 Mmsg/s are not within 10x"
}

@test "tx-depth 1 against 128: both tools drop to a fraction, as ib_write_bw -t" {
	local r1 r128 p1 p128
	rd d128 duration 2 warmup 0.5 size 1K tx-depth 128
	rd d1 duration 2 warmup 0.5 size 1K tx-depth 1
	[ "$(jqf d1 .tx_depth)" = 1 ] && [ "$(jqf d1 .cq_mod)" = 1 ]
	r128=$(jqf d128 .total.mmsgs_per_s)
	r1=$(jqf d1 .total.mmsgs_per_s)
	p128=$(pt_rate "-s 1024 -t 128")
	p1=$(pt_rate "-s 1024 -t 1")
	same_order "tx-depth 128 / -t 128" "$r128" "$p128"
	same_order "tx-depth 1 / -t 1" "$r1" "$p1"
	# One message in flight waits a whole round trip each: measured 9-20x; 1.5x is the bound.
	echo "# depth 128 / depth 1: rdmactl $(awk -v a="$r128" -v b="$r1" 'BEGIN { printf "%.1f", a / b }')x, perftest $(awk -v a="$p128" -v b="$p1" 'BEGIN { printf "%.1f", a / b }')x" >&3
	awk -v a="$r128" -v b="$r1" 'BEGIN { exit !(a > 1.5 * b) }' || fail "rdmactl: depth 1 not slower"
	awk -v a="$p128" -v b="$p1" 'BEGIN { exit !(a > 1.5 * b) }' || fail "perftest: -t 1 not slower"
}

@test "cq-mod 1 and 100: one completion per message, and one per 100, as ib_write_bw -Q" {
	local m c r1 r100 p1 p100
	rd q1 duration 2 warmup 0.5 size 1K cq-mod 1
	rd q100 duration 2 warmup 0.5 size 1K cq-mod 100
	[ "$(jqf q1 .cq_mod)" = 1 ] && [ "$(jqf q100 .cq_mod)" = 100 ]
	# What cq-mod changes, counted: each completion retires exactly cq-mod messages.
	m=$(jqf q1 '.links[0].msgs') c=$(jqf q1 '.links[0].completions')
	echo "# cq-mod 1: $m messages, $c completions" >&3
	[ "$m" -gt 0 ] && [ "$c" -eq "$m" ] || fail "cq-mod 1: $m messages, $c completions"
	m=$(jqf q100 '.links[0].msgs') c=$(jqf q100 '.links[0].completions')
	echo "# cq-mod 100: $m messages, $c completions" >&3
	[ "$c" -gt 0 ] && [ "$m" -eq $((100 * c)) ] || fail "cq-mod 100: $m messages, $c completions"
	r1=$(jqf q1 .total.mmsgs_per_s) r100=$(jqf q100 .total.mmsgs_per_s)
	p1=$(pt_rate "-s 1024 -Q 1")
	p100=$(pt_rate "-s 1024 -Q 100")
	same_order "cq-mod 1 / -Q 1" "$r1" "$p1"
	same_order "cq-mod 100 / -Q 100" "$r100" "$p100"
	# Soft-RoCE polls a completion queue in user memory: the rate moves within the noise.
	echo "# cq-mod 100 / cq-mod 1: rdmactl $(awk -v a="$r100" -v b="$r1" 'BEGIN { printf "%.2f", a / b }')x, perftest $(awk -v a="$p100" -v b="$p1" 'BEGIN { printf "%.2f", a / b }')x" >&3
}

@test "post-list 8: eight messages per post call, as ib_write_bw -l 8" {
	local m calls r8 r1 p8 p1
	rd l8 duration 2 warmup 0.5 size 1K post-list 8
	rd l1 duration 2 warmup 0.5 size 1K
	# post-list sets cq-mod unless given (perftest's rule).
	[ "$(jqf l8 .post_list)" = 8 ] && [ "$(jqf l8 .cq_mod)" = 8 ]
	m=$(jqf l8 '.links[0].msgs') calls=$(jqf l8 '.links[0].post_calls')
	echo "# post-list 8: $m messages, $calls post calls" >&3
	# Counted at the post and at the completion: the window's edges differ by a queue's worth.
	within 6 10 "$(awk -v m="$m" -v c="$calls" 'BEGIN { print c ? m / c : 0 }')" ||
		fail "post-list 8: $m messages over $calls calls"
	m=$(jqf l1 '.links[0].msgs') calls=$(jqf l1 '.links[0].post_calls')
	within 0.8 1.25 "$(awk -v m="$m" -v c="$calls" 'BEGIN { print c ? m / c : 0 }')" ||
		fail "post-list 1: $m messages over $calls calls"
	r8=$(jqf l8 .total.mmsgs_per_s) r1=$(jqf l1 .total.mmsgs_per_s)
	p8=$(pt_rate "-s 1024 -l 8")
	p1=$(pt_rate "-s 1024")
	same_order "post-list 8 / -l 8" "$r8" "$p8"
	same_order "post-list 1 / -l 1" "$r1" "$p1"
	echo "# post-list 8 / 1: rdmactl $(awk -v a="$r8" -v b="$r1" 'BEGIN { printf "%.2f", a / b }')x, perftest $(awk -v a="$p8" -v b="$p1" 'BEGIN { printf "%.2f", a / b }')x" >&3
}

@test "inline: small writes and lat inline, an inline the device cannot take refused by name" {
	local a b p
	# Bandwidth with 64-byte writes inline, and without.
	rd i64 duration 2 warmup 0.5 size 64 inline 64
	rd i0 duration 2 warmup 0.5 size 64
	[ "$(jqf i64 .inline_bytes)" = 64 ] && [ "$(jqf i0 .inline_bytes)" = 0 ]
	[ "$(jqf i64 '.links[0].status')" = ok ] || fail "inline 64: $(jqf i64 '.links[0].error')"
	a=$(jqf i64 .total.mmsgs_per_s) b=$(jqf i0 .total.mmsgs_per_s)
	p=$(pt_rate "-s 64 -I 64")
	same_order "write 64 B inline 64 / -I 64" "$a" "$p"
	echo "# write 64 B: inline 64 / inline 0 rdmactl $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')x" >&3
	# Latency: the default (220) and inline 0, both ordered and counted.
	rd li iters 200 test lat
	rd l0 iters 200 test lat inline 0
	[ "$(jqf li .inline_bytes)" = 220 ] && [ "$(jqf l0 .inline_bytes)" = 0 ]
	echo "# lat p50: inline 220 $(jqf li '.links[0].latency_us.p50') us, inline 0 $(jqf l0 '.links[0].latency_us.p50') us" >&3
	[ "$(jqf li '.links[0].latency_us.count')" = 200 ] && [ "$(jqf l0 '.links[0].latency_us.count')" = 200 ]
	# The histogram: log2 buckets that hold every sample, the first and last not empty, max in one.
	echo "# lat histogram (inline 220): $(jqf li '[.links[0].latency_us.histogram[] | "[\(.from_us),\(.to_us)) \(.count)"] | join(" ")')" >&3
	jqf li '.links[0].latency_us as $l | ([$l.histogram[].count] | add) == $l.count
		and ($l.histogram[0].count > 0) and ($l.histogram[-1].count > 0)
		and ([$l.histogram[] | select(.from_us <= $l.max and (.to_us == null or $l.max < .to_us))] | length) == 1' |
		grep -qx true || fail "histogram: $(jqf li '.links[0].latency_us | tojson')"
	# perftest leaves inline off on Soft-RoCE whatever -I says ("Device not
	# recognized to implement inline feature"): it shows that, nothing to compare.
	run pt ib_write_lat "-s 2 -n 20 -I 64"
	echo "# ib_write_lat -I 64 on rxe: $(grep -m1 -o 'Device not recognized to implement inline feature' <<<"$output" || echo 'inline kept')" >&3
	# rxe takes 512 bytes inline, not 600: the QP cannot be made, and the run says why.
	run --separate-stderr on b "$R bench client 198.18.1.1 port $SRV_PORT link rxe0 test lat iters 5 inline 600"
	assert_failure 1
	[[ $stderr == *"cannot create an RC QP"*"600 bytes inline: more than the device takes? inline 0 turns it off"* ]] ||
		fail "$stderr"
}

@test "cq-wait: auto sleeps on completion events on rxe, poll spins; events moves data at less CPU a byte" {
	local ev po
	rd cw_auto duration 2 warmup 0.5 test send
	rd cw_poll duration 2 warmup 0.5 test send cq-wait poll
	rd cw_ev duration 2 warmup 0.5 test write cq-wait events
	[ "$(jqf cw_auto .cq_wait)" = auto ] && [ "$(jqf cw_poll .cq_wait)" = poll ] &&
		[ "$(jqf cw_ev .cq_wait)" = events ] || fail "cq_wait not as asked"
	# auto on Soft-RoCE (a parent netdev, no bus device) is events.
	[ "$(jqf cw_auto '.links[0].cq_wait')" = events ] || fail "auto on rxe0: $(jqf cw_auto '.links[0].cq_wait')"
	[ "$(jqf cw_poll '.links[0].cq_wait')" = poll ] && [ "$(jqf cw_ev '.links[0].cq_wait')" = events ]
	local d
	for d in cw_auto cw_poll cw_ev; do
		[ "$(jqf "$d" '.links[0].status')" = ok ] && [ "$(jqf "$d" '.links[0].bytes')" -gt 0 ] ||
			fail "$d: $(jqf "$d" '.links[0] | {status, bytes, error} | tojson')"
	done
	# The latency tests always poll: null, and events refused before any traffic.
	rd cw_lat iters 20 test lat
	[ "$(jqf cw_lat '.links[0].cq_wait')" = null ] || fail "lat: $(jqf cw_lat '.links[0].cq_wait')"
	run --separate-stderr on b "$R bench client 198.18.1.1 port $SRV_PORT link rxe0 test lat cq-wait events"
	assert_failure 2
	[[ $stderr == *"cq-wait events applies to the bandwidth tests"* ]] || fail "$stderr"
	# The direction of the effect (perftest -e refuses -D and write, so no
	# perftest run beside it): a spinning thread burns its CPU whatever
	# moves; measured 6x the CPU per byte of events on a quiet host, 16x
	# with lint running beside the lab.
	ev=$(jqf cw_auto '.links[0].cpu_s / .links[0].bytes * 1e9')
	po=$(jqf cw_poll '.links[0].cpu_s / .links[0].bytes * 1e9')
	echo "# send 64K, CPU s per GB: events $ev, poll $po; Gb/s events $(jqf cw_auto .total.gbps), poll $(jqf cw_poll .total.gbps)" >&3
	awk -v e="$ev" -v p="$po" 'BEGIN { exit !(e < p) }' || fail "events used no less CPU a byte than poll: $ev against $po"
}
