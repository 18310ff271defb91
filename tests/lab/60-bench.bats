#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# rdmactl bench across the VMs: a server on a, clients on b, over both links'
# rxe devices, with faults (cable pulled, server killed, malformed clients).
# Soft-RoCE under TCG moves a few Mb/s: the tests check what was measured and
# reported, never how fast.

load lab_helper

# The binary the VMs run; a developer may point it at a fresh copy, as the 9p
# cache of a running lab can hold an older ./rdmactl.
R=${RDMACTL_VM:-./rdmactl}

# One retry per test (bats 1.8; teardown says on the TAP stream what the failed
# try printed): Soft-RoCE in TCG guests on a loaded 2-core host once stalled
# under retransmissions in CI ("two runs in a row") where an idle one never
# did.  Two misses in a row still fail.
# shellcheck disable=SC2034 # read by bats
BATS_TEST_RETRIES=1

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	start_server
}

teardown_file() {
	[ -z "$LAB_SKIP" ] || return 0
	stop_server
}

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown() {
	diagnose_failure
	if [ "${BATS_TEST_COMPLETED:-}" != 1 ] && [ -z "${LAB_SKIP:-}" ]; then
		echo "== the server's output (last 20 lines)"
		tail -n 20 "$BATS_FILE_TMPDIR/server.out"
		note_retry
		# What a failed try may leave to its retry and the next test: a --json
		# server of its own still on 18520, the file's server killed or gone.
		on a "pkill -f 'port 18520' || true" >/dev/null 2>&1
		in_vm a "listening 18515" >/dev/null 2>&1 || { stop_server; start_server >/dev/null 2>&1; } || true
	fi
	restore_links
}

# start_server [KEYWORDS]: 'rdmactl bench server' on a, its output in
# $BATS_FILE_TMPDIR/server.out, returns once it listens.
start_server() {
	LAB_TIMEOUT=900 in_vm a "exec $R bench server $*" >"$BATS_FILE_TMPDIR/server.out" 2>&1 &
	echo $! >"$BATS_FILE_TMPDIR/server.pid"
	in_vm a "wait_for 30 listening 18515"
}

stop_server() {
	on a "pkill -INT -f 'bench server' || true; wait_for_gone() { ! pgrep -f 'bench server' >/dev/null; }; for i in 1 2 3 4 5 6 7 8 9 10; do wait_for_gone && break; sleep 0.5; done"
	wait "$(cat "$BATS_FILE_TMPDIR/server.pid")" 2>/dev/null || true
}

# stderr_has -F|-E PATTERN: run's stderr holds PATTERN (bats-assert 2.0 has no assert_stderr).
stderr_has() {
	grep -q "$1" -- "$2" <<<"$stderr" || fail "stderr lacks '$2': $stderr"
}

# client ARGS: 'rdmactl ARGS' on b.
client() {
	LAB_TIMEOUT=120 on b "$R $*"
}

@test "write over every link, paired by subnet, one report with a total" {
	run --separate-stderr client bench client 198.18.1.1 duration 2
	assert_success
	# issue 13: links named by their port and netdev, never "link 1".
	assert_line --regexp '^rxe0/1 \(eth0\): gid [0-9]+ ::ffff:198\.18\.1\.2 \(198\.18\.1\.2\) -> rxe0/1 eth0 gid [0-9]+ ::ffff:198\.18\.1\.1 \(198\.18\.1\.1\), mtu 1024$'
	assert_line --regexp '^rxe1/1 \(eth1\): gid .*\(198\.18\.2\.2\) -> rxe1/1 eth1 .*\(198\.18\.2\.1\), mtu 1024$'
	# One clock, said before the first time shown.
	assert_line 'times in seconds from the end of the 1 s warm-up'
	assert_line --regexp '^ +2\.0 s  rxe0/1 \(eth0\) [0-9.]+  rxe1/1 \(eth1\) [0-9.]+  total [0-9.]+ Gb/s$'
	assert_line --regexp '^rxe0/1 \(eth0\)  ok  [0-9.]+ Gb/s.*  longest stall [0-9.]+ ms \(-?[0-9.]+ s to -?[0-9.]+ s\)$'
	refute_output --regexp 'link [01]'
	assert_line --regexp '^total  [0-9.]+ Gb/s .* over 2\.000 s  host cpu [0-9.]+%$'
	# Counters that mean retransmission are called so, never bare.
	refute_output --regexp '(counters: |, )(rcvd_seq_err|completer_retry_err|duplicate_request):'
	if [[ $output == *rcvd_seq_err* ]]; then
		assert_output --regexp 'retransmissions \(rcvd_seq_err\): [0-9]+'
	fi
	# The server printed the same links from its side.
	grep -q '^rxe1/1 (eth1): gid [0-9]* ::ffff:198.18.2.1 (198.18.2.1) <-' "$BATS_FILE_TMPDIR/server.out" ||
		fail "$(cat "$BATS_FILE_TMPDIR/server.out")"
}

# 16K, not perftest's 64K: two QPs of 64K put 16 MiB in flight per link, and Soft-RoCE
# over the lab's emulated cables, on a loaded machine, then drops enough to stall a link
# for the whole window in retransmissions (seen in CI: 0 bytes in 2 s).
@test "--json, explicit links, 2 QPs of 16K: every link measured, units in the keys" {
	run --separate-stderr client -j bench client 198.18.1.1 link rxe0 link rxe1 qps 2 size 16K duration 3
	assert_success
	jq -e '
		.schema == 3 and .test == "write" and .qps_per_link == 2 and .msg_size_bytes == 16384
		and .duration_s == 3 and (.links | length) == 2
		and ([.links[] | .status == "ok" and .bytes > 0 and .gbps > 0 and .path_mtu_bytes == 1024
			and (.intervals_gbps | length) == 3 and .cpu_s > 0
			and .port_rate_gbps == 25 and ((.port_share_pct - .gbps * 4) | fabs) < 1e-6
			and ([.counters[].name] | index("rcvd_seq_err") != null and index("retry_exceeded_err") != null)
			and .min_interval_gbps <= .max_interval_gbps
			and .local.gid == ("::ffff:" + .local.ip) and .remote.gid_index >= 0] | all)
		and (.tx_depth as $td | [.links[] | .flushed_requests > 0 and .flushed_requests <= 2 * $td] | all)
		and .links[0].local.device == "rxe0" and .links[1].local.device == "rxe1"
		and .links[0].remote.ip == "198.18.1.1" and .links[1].remote.ip == "198.18.2.1"
		and .links[0].remote.device == "rxe0" and .links[0].remote.port == 1
		and ([.links[] | has("latency_us") and .latency_us == null] | all)
		and .total.window_s == 3 and .total.bytes == ([.links[].bytes] | add)
		and (.total.gbps - ([.links[].gbps] | add) | fabs) < 1e-9
		and .total.imbalance >= 0 and .total.host_cpu_pct > 0 and .error == null
		and .time_origin == "warmup_end"
		and ([.links[] | .carrier_lost == false and .carrier_losses == 0
			and .carrier_lost_at_s == null and .carrier_back_at_s == null and .outage_s == null
			and .silent_to_end == false and .silent_from_s == null
			and .longest_stall_start_s <= .longest_stall_end_s
			and ((.longest_stall_end_s - .longest_stall_start_s) - .longest_stall_s
				| fabs) < 0.00001] | all)
	' <<<"$output" >/dev/null || fail "unexpected report: $output"
}

@test "lat: 1000 round trips on one link, ordered percentiles, a real stdev" {
	run --separate-stderr client -j bench client 198.18.1.1 test lat link rxe0 iters 1000
	assert_success
	jq -e '
		.test == "lat" and .iters == 1000 and (.links | length) == 1
		and (.links[0].latency_us | .count == 1000 and .min > 0 and .min <= .p50
			and .p50 <= .p99 and .p99 <= .p99_9 and .p99_9 <= .max
			and .mean >= .min and .mean <= .max and .stdev > 0)
		and (.links[0] | has("gbps") and .gbps == null and .intervals_gbps == null)
		and (.total | has("gbps") and .gbps == null and .imbalance == null)
	' <<<"$output" >/dev/null || fail "unexpected report: $output"
	run --separate-stderr client bench client 198.18.1.1 test lat link rxe0 iters 200
	assert_success
	assert_line 'times in seconds from the start'
	assert_line --regexp '^rxe0/1 \(eth0\)  ok  200 samples  min [0-9.]+  p50 [0-9.]+  p99 [0-9.]+  p99\.9 [0-9.]+  max [0-9.]+  mean [0-9.]+  stdev [0-9.]+ us'
}

@test "read and send over both links" {
	local t
	for t in read send; do
		run --separate-stderr client -j bench client 198.18.1.1 test $t duration 2 dscp 26
		assert_success
		jq -e --arg t "$t" '.test == $t and .traffic_class == 104 and (.links | length) == 2
			and ([.links[] | .status == "ok" and .bytes > 0
				and if $t == "read" then has("flushed_requests") and .flushed_requests == null
					else .flushed_requests >= 0 end] | all)' <<<"$output" >/dev/null ||
			fail "$t: $output"
	done
	# send: the server counted what arrived, at least what the client saw completed.
	jq -e '[.links[] | .peer.bytes >= .bytes] | all' <<<"$output" >/dev/null || fail "$output"
}

@test "iteration mode after a warm-up counts exactly iters per QP" {
	# 4K messages are signalled one in 32: the warm-up's unsignalled tail
	# must not leak into the count.
	run --separate-stderr client -j bench client 198.18.1.1 link rxe0 qps 2 size 4K iters 301 warmup 1
	assert_success
	# Every request drained, none flushed: flushed_requests is null.
	jq -e '.iters == 301 and .links[0].msgs == 602 and .links[0].bytes == 602 * 4096
		and .links[0].status == "ok" and .total.window_s > 0
		and (.links[0] | has("flushed_requests") and .flushed_requests == null)' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "dscp 26: the RoCE v2 packets on the wire carry ToS 0x68 (traffic class 104)" {
	# tcpdump on b's eth0 while the run sends over rxe0: UDP 4791 is RoCE v2.
	LAB_TIMEOUT=60 on b "timeout 30 tcpdump -ni eth0 -c 5 -v 'udp dst port 4791' 2>&1" \
		>"$BATS_TEST_TMPDIR/cap" &
	sleep 3
	run client -q bench client 198.18.1.1 link rxe0 duration 1 dscp 26
	assert_success
	wait $! || true
	[ "$(grep -c 'IP (tos 0x68, ttl 64,' "$BATS_TEST_TMPDIR/cap")" -eq 5 ] ||
		fail "$(cat "$BATS_TEST_TMPDIR/cap")"
}

@test "link by IP and LOCAL:REMOTE; an unknown link is named" {
	run --separate-stderr client -j bench client 198.18.1.1 link 198.18.2.2:rxe1/1 duration 1 warmup 0
	assert_success
	jq -e '(.links | length) == 1 and .links[0].local.device == "rxe1"
		and .links[0].remote.ip == "198.18.2.1" and .warmup_s == 0' <<<"$output" >/dev/null ||
		fail "$output"
	run --separate-stderr client bench client 198.18.1.1 link rxe7 duration 1
	assert_failure 1
	stderr_has -F "link 'rxe7': no local RDMA port with a RoCE v2 IPv4 GID matches"
	run --separate-stderr client bench client 198.18.1.1 link rxe0:rxe9 duration 1
	assert_failure 1
	stderr_has -F "the server has no RoCE v2 IPv4 port named 'rxe9'"
}

@test "thresholds: the exit status says which link or total fell short" {
	run --separate-stderr client bench client 198.18.1.1 duration 1 expect-gbps 1000
	assert_failure 1
	stderr_has -E 'total [0-9.]+ Gb/s is below expect-gbps 1000'
	run --separate-stderr client -q bench client 198.18.1.1 duration 1 min-link-gbps 1000
	assert_failure 1
	stderr_has -E 'link rxe0/1 \(eth0\) ran [0-9.]+ Gb/s, below min-link-gbps 1000'
	stderr_has -E 'link rxe1/1 \(eth1\) ran [0-9.]+ Gb/s, below min-link-gbps 1000'
	refute_output --regexp '^ +1\.0 s' # -q: no interval lines
	# -q: the report says its clock itself.
	assert_line 'times in seconds from the end of the 1 s warm-up'
	run --separate-stderr client bench client 198.18.1.1 duration 1 expect-gbps 0.000001 min-link-gbps 0.000001
	assert_success
}

@test "no usable GID: a port without an IPv4 address is refused by name" {
	on b 'ip addr del 198.18.2.2/24 dev eth1'
	run --separate-stderr client bench client 198.18.1.1 link rxe1 duration 1
	on b 'ip addr add 198.18.2.2/24 dev eth1'
	assert_failure 1
	stderr_has -F "link 'rxe1': no local RDMA port with a RoCE v2 IPv4 GID matches"
}

@test "a cable pulled mid-run: that link's outage never ends, the other finishes" {
	(sleep 6 && "$LAB" link 2 down >/dev/null) &
	run --separate-stderr client -j bench client 198.18.1.1 duration 6
	wait
	assert_failure 1
	# issue 13: the loss on the report's clock (within the 6 s window), no
	# "back", and the silence to the end is not called a stall.
	jq -e '.time_origin == "warmup_end"
		and .links[0].status == "ok" and .links[0].bytes > 0 and .links[0].carrier_lost == false
		and .links[1].status == "failed" and .links[1].carrier_lost == true
		and .links[1].carrier_lost_at_s > 0 and .links[1].carrier_lost_at_s < 6.5
		and .links[1].carrier_back_at_s == null and .links[1].outage_s == null
		and .links[1].silent_to_end == true
		and .links[1].silent_from_s < .links[1].carrier_lost_at_s + 1
		and .links[1].longest_stall_end_s <= .links[1].silent_from_s + 0.001
		and (.links[1].error | length) > 0' <<<"$output" >/dev/null || fail "$output"
	stderr_has -F "link rxe1/1 (eth1) failed"
	run --separate-stderr client bench client 198.18.1.1 link rxe0 duration 1
	assert_success
}

@test "a cable pulled and plugged back: the outage's start, end and length on the report's clock" {
	(sleep 5 && "$LAB" link 2 down >/dev/null && sleep 2 && "$LAB" link 2 up >/dev/null) &
	run --separate-stderr client -j bench client 198.18.1.1 link rxe1 duration 8
	wait
	echo "$output" >"$BATS_TEST_TMPDIR/report.json"
	jq -e '.links[0] | .carrier_lost == true and .carrier_losses == 1
		and .carrier_lost_at_s > 0 and .carrier_back_at_s > .carrier_lost_at_s
		and .carrier_back_at_s < 9
		and ((.carrier_back_at_s - .carrier_lost_at_s) - .outage_s | fabs) < 0.01
		and .outage_s > 1 and .outage_s < 5
		and has("flushed_requests") and .flushed_requests == null' \
		"$BATS_TEST_TMPDIR/report.json" >/dev/null ||
		fail "$output"
	# The same outage in the text: lost at, back at, and how long.
	(sleep 5 && "$LAB" link 2 down >/dev/null && sleep 2 && "$LAB" link 2 up >/dev/null) &
	run --separate-stderr client bench client 198.18.1.1 link rxe1 duration 8
	wait
	assert_line --regexp '^    carrier lost at [0-9]+\.[0-9]{2} s, back at [0-9]+\.[0-9]{2} s: [0-9]+\.[0-9]{2} s$'
}

@test "an iteration run whose cable is pulled ends by itself, naming the silence" {
	local t0=$SECONDS
	(sleep 5 && "$LAB" link 2 down >/dev/null) &
	run --separate-stderr client -j bench client 198.18.1.1 link rxe1 iters 1000000
	wait
	assert_failure 1
	jq -e '.links[0].status == "failed" and .links[0].carrier_lost == true
		and (.links[0].error | test("no completion for 10 s"))' <<<"$output" >/dev/null ||
		fail "$output"
	[ $((SECONDS - t0)) -lt 60 ] || fail "took $((SECONDS - t0)) s"
}

@test "two runs in a row on one server, then a malformed client, then a good run" {
	run client bench client 198.18.1.1 duration 1 link rxe0
	assert_success
	run client bench client 198.18.1.1 duration 1 link rxe1
	assert_success
	# Garbage, a huge length, a foreign version, and a silent client: each is
	# turned away and the server stays up.
	run on b 'python3 - <<"PY"
import socket, struct
def conn():
    return socket.create_connection(("198.18.1.1", 18515), timeout=20)
for payload in (b"\x00" * 40, b"RDCB" + struct.pack(">HHI", 1, 1, 0x7fffffff),
                b"RDCB" + struct.pack(">HHI", 2, 1, 0)):
    s = conn(); s.sendall(payload)
    try:
        s.recv(4096)
    except OSError:
        pass
    s.close()
s = conn(); s.close()
PY'
	assert_success
	run --separate-stderr client bench client 198.18.1.1 duration 1
	assert_success
	grep -q 'version mismatch' "$BATS_FILE_TMPDIR/server.out" || fail "$(cat "$BATS_FILE_TMPDIR/server.out")"
	[ "$(grep -c ': done, client measured' "$BATS_FILE_TMPDIR/server.out")" -ge 3 ]
}

@test "a --json server: one clean document per run, its links from its side" {
	local srv
	LAB_TIMEOUT=120 on a "exec $R -j bench server port 18520 once" >"$BATS_TEST_TMPDIR/srv.json" 2>&1 &
	srv=$!
	# Seen once in CI and once by hand: the lab's job for the server never began
	# (nothing printed, nothing listening after 30 s).  That is the lab's doorbell,
	# not the server: start it once more, and fail with what it said if it still is not.
	if ! in_vm a "wait_for 30 listening 18520"; then
		kill "$srv" 2>/dev/null
		on a "pkill -f 'port 18520' || true"
		LAB_TIMEOUT=120 on a "exec $R -j bench server port 18520 once" >"$BATS_TEST_TMPDIR/srv.json" 2>&1 &
		in_vm a "wait_for 30 listening 18520" || fail "not listening: $(cat "$BATS_TEST_TMPDIR/srv.json")"
	fi
	run client bench client 198.18.1.1 port 18520 duration 1 link rxe1
	assert_success
	wait $!
	jq -e -s 'length == 1 and (.[0] | .run == 1 and .status == "done" and .error == null
		and .test == "write" and (.links | length) == 1 and .links[0].local.device == "rxe1"
		and .links[0].local.ip == "198.18.2.1" and .links[0].remote.ip == "198.18.2.2"
		and .links[0].client_bytes > 0 and .client_gbps > 0)' \
		"$BATS_TEST_TMPDIR/srv.json" >/dev/null || fail "$(cat "$BATS_TEST_TMPDIR/srv.json")"
}

@test "a client silent after its whole run ends the session: no failed run, told why after 10 s" {
	local srv
	LAB_TIMEOUT=120 on a "exec $R -j bench server port 18521 once" >"$BATS_TEST_TMPDIR/srv.json" 2>&1 &
	srv=$!
	in_vm a "wait_for 30 listening 18521" || fail "not listening: $(cat "$BATS_TEST_TMPDIR/srv.json")"
	# A relay on b between an rdmactl client and the server passes the
	# messages on until the server's RESULT, then keeps the server's
	# connection open and silent (the client's close is not passed on): a
	# client that is slow to close, or stopped.  It prints the client's exit
	# status and what the server sent after RESULT, and when.
	run on b 'python3 - '"$R"' <<"PY"
import socket, struct, subprocess, sys, time
lst = socket.socket()
lst.bind(("127.0.0.1", 0))
lst.listen(1)
lst.settimeout(30)
cli = subprocess.Popen([sys.argv[1], "bench", "client", "127.0.0.1", "port",
                        str(lst.getsockname()[1]), "duration", "1", "link", "rxe0"])
c = lst.accept()[0]
c.settimeout(60)
s = socket.create_connection(("198.18.1.1", 18521), timeout=60)
def frame(src):
    data = b""
    while len(data) < 12 or len(data) < 12 + struct.unpack(">I", data[8:12])[0]:
        b = src.recv(65536)
        if not b:
            return data
        data += b
    return data
while True:
    f = frame(c)
    if len(f) < 12:
        sys.exit("the client closed before its RESULT")
    s.sendall(f)
    g = frame(s)
    if len(g) < 12:
        sys.exit("the server closed before RESULT")
    c.sendall(g)
    if struct.unpack(">H", g[6:8])[0] == 8:
        break
t0 = time.monotonic()
print("client exit %d" % cli.wait(timeout=60))
g = frame(s)
t = time.monotonic() - t0
if len(g) < 18 or struct.unpack(">H", g[6:8])[0] != 9:
    sys.exit("after RESULT the server sent %r after %.1f s" % (g, t))
n = struct.unpack(">H", g[16:18])[0]
print("ERROR %d %s" % (struct.unpack(">i", g[12:16])[0], g[18:18 + n].decode()))
print("after %d s" % t)
print("then %s" % ("closed" if s.recv(1) == b"" else "more"))
PY'
	assert_success
	assert_line "client exit 0"
	assert_line "ERROR 110 no SETUP within 10 s of the last run: the session is over"
	assert_line "then closed"
	[[ $(grep '^after ' <<<"$output") =~ ^after\ (9|1[0-9])\ s$ ]] || fail "$output"
	# One run, done: the session's end is not a failed run (once: exit 0).
	wait "$srv" || fail "the server (once) exited $?: $(cat "$BATS_TEST_TMPDIR/srv.json")"
	jq -e -s 'length == 1 and .[0].run == 1 and .[0].status == "done"' \
		"$BATS_TEST_TMPDIR/srv.json" >/dev/null || fail "$(cat "$BATS_TEST_TMPDIR/srv.json")"
}

@test "the server killed mid-run: the client stops in bounded time and says why" {
	local t0
	(sleep 4 && on a "pkill -KILL -f 'bench server'") &
	t0=$SECONDS
	run --separate-stderr client bench client 198.18.1.1 duration 20
	wait
	assert_failure 1
	stderr_has -F "the server closed the connection mid-run"
	[ $((SECONDS - t0)) -lt 20 ] || fail "took $((SECONDS - t0)) s"
	wait "$(cat "$BATS_FILE_TMPDIR/server.pid")" 2>/dev/null || true
	start_server
}
