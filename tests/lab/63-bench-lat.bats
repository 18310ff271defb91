#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $output
# The latency tests of bench (issue 24 item 2): lat (RDMA write ping-pong),
# lat-read (RDMA read round trips) and lat-send (send/receive ping-pong),
# each run beside perftest's same tool (ib_write_lat, ib_read_lat,
# ib_send_lat) on link 1 (rxe0, a server on a, the client on b).  Soft-RoCE
# under TCG is slow and noisy: the tests check the documents' shape, the
# sample counts, and that both tools' medians land in the same order of
# magnitude; the figures go to the TAP stream as '# ' lines, never into a
# timing threshold.

# shellcheck disable=SC2034 # read by bench_vs_perftest.bash
SRV_PORT=18540
# shellcheck disable=SC2034 # pt() in bench_vs_perftest.bash takes the next one each run
PT_PORT=18700
load bench_vs_perftest

# pt_typical TOOL "OPTIONS": the tool's t_typical (its median) in us, from
# its result line (#bytes #iterations t_min t_max t_typical ...).
pt_typical() {
	local out
	out=$(pt "$1" "$2") || {
		echo "$out" >&2
		return 1
	}
	echo "$out" | sed 's/^/#   /' >&3
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { print $5; exit }' <<<"$out"
}

# same_order WHAT RDMACTL PERFTEST: the two medians (us) within 10x of each other.
same_order() {
	echo "# $1: rdmactl p50 $2 us, perftest t_typical $3 us" >&3
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(a > 0 && b > 0 && a / b >= 0.1 && a / b <= 10) }' ||
		fail "$1: rdmactl $2 and perftest $3 us are not within 10x"
}

# lat_doc NAME TEST N: run NAME is test TEST with N samples, a histogram that adds up.
lat_doc() {
	[ "$(jqf "$1" .test)" = "$2" ] || fail "$1: test $(jqf "$1" .test), not $2"
	[ "$(jqf "$1" '.links[0].status')" = ok ] || fail "$1: $(jqf "$1" '.links[0] | tojson')"
	[ "$(jqf "$1" '.links[0].latency_us.count')" = "$3" ] ||
		fail "$1: $(jqf "$1" '.links[0].latency_us.count') samples, not $3"
	jqf "$1" '.links[0].latency_us as $l | ([$l.histogram[].count] | add) == $l.count' |
		grep -qx true || fail "$1: histogram $(jqf "$1" '.links[0].latency_us | tojson')"
	[ "$(jqf "$1" '.total.gbps')" = null ] && [ "$(jqf "$1" .cq_mod)" = 1 ]
}

@test "lat-read: RDMA read round trips, as ib_read_lat" {
	rd r iters 200 test lat-read size 64
	lat_doc r lat-read 200
	[ "$(jqf r .inline_bytes)" = 0 ]
	same_order "lat-read 64 B / ib_read_lat -s 64" "$(jqf r '.links[0].latency_us.p50')" \
		"$(pt_typical ib_read_lat "-s 64 -n 200")"
}

@test "lat-send: send/receive ping-pong, as ib_send_lat" {
	rd s iters 200 test lat-send size 64
	lat_doc s lat-send 200
	[ "$(jqf s .inline_bytes)" = 220 ]
	same_order "lat-send 64 B / ib_send_lat -s 64" "$(jqf s '.links[0].latency_us.p50')" \
		"$(pt_typical ib_send_lat "-s 64 -n 200")"
	# Above the inline size: the send goes from registered memory.
	rd s4 iters 100 test lat-send size 4K
	lat_doc s4 lat-send 100
	echo "# lat-send 4 KiB p50: $(jqf s4 '.links[0].latency_us.p50') us" >&3
}

@test "lat is still write latency, as ib_write_lat" {
	rd w iters 200 test lat size 64
	lat_doc w lat 200
	same_order "lat 64 B / ib_write_lat -s 64" "$(jqf w '.links[0].latency_us.p50')" \
		"$(pt_typical ib_write_lat "-s 64 -n 200")"
}
