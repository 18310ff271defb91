#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $output and $stderr
# rdmactl bench server against hostile clients on 127.0.0.1 (issue 12): silent
# and trickling connections, a crowd of idle ones, clients outside allow that
# never close, and a client that holds a run.  None may keep another client
# from an answer: it is served, or told at once that the server is busy (not
# by whom); a client that stalls after HELLO holds the run for 10 s at most.  Time bounds are generous (seconds): they tell "answered at once"
# from "answered when something else timed out", never measure speed.
load ../helpers
load bench_helpers

setup() {
	SERVER_PID="" HOSTILE_PID=""
}

teardown() {
	local pid
	for pid in $HOSTILE_PID $SERVER_PID; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}

# hostile MODE N [SOURCE]: N connections to the server (PORT) from SOURCE
# (default 127.0.0.1), in the background, that
#   silent   send nothing,
#   trickle  send a HELLO one byte every 0.5 s,
#   hello    send a HELLO, read the PORTS answer and hold the run,
# and never close.  When the server ends one, a line "I SECONDS TEXT" goes to
# $HOSTILE.log: connection I, seconds after it was opened, the text of the
# ERROR it was told ("-" when none).  A holder writes "held ADDR:PORT", its own
# address, once it has its PORTS.  Returns once every connection is open.
hostile() {
	HOSTILE=$BATS_TEST_TMPDIR/hostile
	rm -f "$HOSTILE.log" "$HOSTILE.ready"
	python3 - "$1" "$2" "$PORT" "$HOSTILE" "${3:-127.0.0.1}" <<-'EOF' 3>&- &
	import os, selectors, socket, struct, sys, time
	mode, n, port, out, src = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
	h = struct.pack(">H", 13) + b"rdmactl 0.1.0"
	hello = b"RDCB" + struct.pack(">HHI", 5, 1, len(h)) + h
	log = open(out + ".log", "w", buffering=1)
	sel = selectors.DefaultSelector()
	conns = []
	for i in range(n):
	    s = socket.socket()
	    s.bind((src, 0))
	    if mode == "silent":
	        s.setblocking(False)
	        s.connect_ex(("127.0.0.1", port))
	    else:
	        s.connect(("127.0.0.1", port))
	    conns.append([s, i, time.monotonic(), b""])
	if mode == "hello":
	    s = conns[0][0]
	    s.sendall(hello)
	    got = b""
	    while len(got) < 12 or len(got) < 12 + struct.unpack(">I", got[8:12])[0]:
	        got += s.recv(65536)
	    log.write("held %s:%d\n" % s.getsockname())
	for c in conns:
	    c[0].setblocking(False)
	    sel.register(c[0], selectors.EVENT_READ, c)
	open(out + ".ready", "w").close()
	sent, deadline = 0, time.monotonic() + 30
	while sel.get_map() and time.monotonic() < deadline:
	    if mode == "trickle" and sent < len(hello):
	        for key in list(sel.get_map().values()):
	            key.fileobj.send(hello[sent:sent + 1])
	        sent += 1
	    for key, _ in sel.select(0.5 if mode == "trickle" else 1):
	        s, i, t0, data = key.data
	        try:
	            b = s.recv(4096)
	        except ConnectionResetError:
	            b = b""
	        if b:
	            key.data[3] += b
	            continue
	        text = "-"
	        if len(data) >= 18 and struct.unpack(">H", data[6:8])[0] == 9:
	            n = struct.unpack(">H", data[16:18])[0]
	            text = data[18:18 + n].decode()
	        log.write("%d %.2f %s\n" % (i, time.monotonic() - t0, text))
	        sel.unregister(s)
	        s.close()
	time.sleep(60)  # the holder holds; the others are all closed by now
	EOF
	HOSTILE_PID=$!
	local i
	for i in $(seq 500); do
		[ -e "$HOSTILE.ready" ] && return 0
		kill -0 "$HOSTILE_PID" 2>/dev/null || fail "the hostile client died"
		sleep 0.02
	done
	fail "the hostile connections are not open after 10 s"
}

# Milliseconds since the epoch.
now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# timed CMD...: run CMD with bats' run; its duration in $MS.
timed() {
	local t0
	t0=$(now_ms)
	run --separate-stderr "$@"
	MS=$(($(now_ms) - t0))
}

@test "bench server: a silent connection does not hold up a client that says HELLO" {
	start_server bench server
	hostile silent 1
	sleep 0.2 # the server has accepted it
	timed "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: $NO_PORTS: No such file or directory"
	# Served at once, well before the silent one times out.
	[ "$MS" -lt 3000 ] || fail "the client waited $MS ms"
	server_alive
}

@test "bench server: silent and trickling connections are told and dropped after 5 s" {
	start_server bench server
	hostile silent 2
	mv "$HOSTILE.log" "$HOSTILE.silent"
	local silent_pid=$HOSTILE_PID
	hostile trickle 2
	HOSTILE_PID="$HOSTILE_PID $silent_pid"
	local i
	for i in $(seq 500); do
		[ "$(cat "$HOSTILE.silent" "$HOSTILE.log" | wc -l)" -ge 4 ] && break
		sleep 0.02
	done
	run cat "$HOSTILE.silent" "$HOSTILE.log"
	[ "${#lines[@]}" -eq 4 ] || fail "not all four were dropped within 10 s: $output"
	local line t
	for line in "${lines[@]}"; do
		[[ $line =~ ^[0-9]\ ([0-9.]+)\ the\ client\ sent\ no\ HELLO\ within\ 5\ s$ ]] ||
			fail "unexpected: $line"
		t=${BASH_REMATCH[1]%.*}
		# 5 s, give or take the scheduler: not the old 10 s, nor at once.
		[ "$t" -ge 4 ] && [ "$t" -lt 8 ] || fail "dropped after ${BASH_REMATCH[1]} s: $line"
	done
	server_alive
	wait_lines "$SRV.out" 5
	[ "$(grep -cE "^$TS refused from 127\.0\.0\.1:[0-9]+: failed: the client sent no HELLO within 5 s$" "$SRV.out")" -eq 4 ] ||
		fail "$(cat "$SRV.out")"
	good_client
}

@test "bench server: 200 idle connections do not lock a client out; the oldest make room" {
	start_server bench server
	hostile silent 200
	sleep 0.5 # the server has accepted them all
	timed "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: $NO_PORTS: No such file or directory"
	[ "$MS" -lt 3000 ] || fail "the client waited $MS ms"
	# At most 64 wait for their HELLO at once: the others were pushed out and told why.
	local dropped i
	for i in $(seq 200); do
		dropped=$(grep -c ' dropped without its HELLO: 64 connections were waiting to say it, this one the longest$' "$HOSTILE.log")
		[ "$dropped" -ge 136 ] && break
		sleep 0.02
	done
	[ "$dropped" -ge 136 ] || fail "$dropped dropped: $(head "$HOSTILE.log")"
	server_alive
}

@test "bench server: clients outside allow are told and closed at once, and cost nobody time" {
	start_server bench server allow 127.0.0.1/32
	# 30 connections from 127.0.0.2 that never close.
	hostile silent 30 127.0.0.2
	timed "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: $NO_PORTS: No such file or directory"
	[ "$MS" -lt 3000 ] || fail "the client waited $MS ms"
	local i
	for i in $(seq 250); do
		[ "$(wc -l <"$HOSTILE.log")" -ge 30 ] && break
		sleep 0.02
	done
	run cat "$HOSTILE.log"
	[ "${#lines[@]}" -eq 30 ] || fail "not all 30 were closed within 5 s: $output"
	local line
	for line in "${lines[@]}"; do
		[[ $line =~ ^[0-9]+\ [0-2]\.[0-9]+\ client\ 127\.0\.0\.2\ is\ not\ in\ the\ allowed\ range$ ]] ||
			fail "unexpected: $line"
	done
}

@test "bench server: a client during a run is told at once that it is busy, not who holds it" {
	start_server bench server once
	hostile hello 1
	local holder
	holder=$(sed -n 's/^held //p' "$HOSTILE.log")
	[ -n "$holder" ] || fail "the holder got no PORTS: $(cat "$HOSTILE.log")"
	timed "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr =~ ^rdmactl:\ bench:\ server:\ busy\ with\ run\ 1,\ started\ [0-9]+\ s\ ago\;\ try\ again\ later:\ Device\ or\ resource\ busy$ ]] ||
		fail "$stderr"
	assert_output ""
	[ "$MS" -lt 3000 ] || fail "the client waited $MS ms"
	# A client told busy is no run: once still serves.
	server_alive
	wait_lines "$SRV.out" 2
	grep -qE "^$TS refused from 127\.0\.0\.1:[0-9]+: failed: busy with run 1, started [0-9]+ s ago; try again later$" "$SRV.out" ||
		fail "$(cat "$SRV.out")"
	# The holder leaves: its run ends, and with it the server (once).
	kill "$HOSTILE_PID"
	wait "$HOSTILE_PID" 2>/dev/null || true
	HOSTILE_PID=""
	wait_exit "$SERVER_PID" 5
	SERVER_PID=""
	assert_equal "$STATUS" 1
	grep -qE "^$TS run 1 from ${holder//./\\.}: failed: waiting for SETUP from the client: the peer closed the connection$" "$SRV.out" ||
		fail "$(cat "$SRV.out")"
}

@test "bench server: a client that stalls after HELLO frees the run slot after 10 s" {
	start_server bench server
	hostile hello 1
	grep -q '^held ' "$HOSTILE.log" || fail "the holder got no PORTS: $(cat "$HOSTILE.log")"
	local first_pid=$HOSTILE_PID
	# RDC_BENCH_SETUP_TIMEOUT_S: told why and dropped, 10 s after its PORTS.
	local i
	for i in $(seq 300); do
		[ "$(wc -l <"$HOSTILE.log")" -ge 2 ] && break
		sleep 0.05
	done
	run sed -n 2p "$HOSTILE.log"
	[[ $output =~ ^0\ (9|10|11)\.[0-9]+\ the\ client\ sent\ no\ SETUP\ within\ 10\ s$ ]] || fail "$output"
	grep -qE "^$TS run 1 from 127\.0\.0\.1:[0-9]+: failed: the client sent no SETUP within 10 s$" "$SRV.out" ||
		fail "$(cat "$SRV.out")"
	# The slot is free: the next client is offered the ports, not told busy.
	mv "$HOSTILE.log" "$HOSTILE.first"
	hostile hello 1
	HOSTILE_PID="$HOSTILE_PID $first_pid"
	grep -q '^held ' "$HOSTILE.log" || fail "the next client got no PORTS: $(cat "$HOSTILE.log")"
	server_alive
}

@test "bench server -j: a client turned away is a document with run null, time and why" {
	command -v jq >/dev/null || skip "jq not installed"
	start_server -j bench server
	hostile hello 1
	run "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	wait_lines "$SRV.out" 1
	run jq -c --arg ts "$TS" '[.run, .status, (.error | test("^busy with run 1, started [0-9]+ s ago; try again later$")), (.time | test("^" + $ts + "$"))]' "$SRV.out"
	assert_output '[null,"failed",true,true]'
	# Every key is there (schema 3): no run, no parameters (null) and no links.
	run jq -c '[.test, .msg_size_bytes, .qps_per_link, .duration_s, .iters, .qp_timeout,
		.qp_survival_s, .links, .client_gbps, has("test"), has("iters"), has("qp_survival_s")]' "$SRV.out"
	assert_output '[null,null,null,null,null,null,null,[],null,true,true,true]'
	run "$TOP/tests/schema-check" "$SRV.out"
	assert_success
}

@test "bench server -j: a client's ERROR before its HELLO is read whole, a 3000-byte one too" {
	command -v jq >/dev/null || skip "jq not installed"
	start_server -j bench server
	# ERROR (type 9): code, then the text with its length; 3000 bytes, past the old 256-byte buffer.
	python3 - "$PORT" <<-'EOF' 3>&-
	import socket, struct, sys
	text = b"cannot read '" + b"p" * 2984 + b"'"
	body = struct.pack(">IH", 5, len(text)) + text
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"RDCB" + struct.pack(">HHI", 5, 9, len(body)) + body)
	s.settimeout(5)
	try:
	    while s.recv(4096):
	        pass
	except OSError:
	    pass
	EOF
	wait_lines "$SRV.out" 1
	run jq -r '.error' "$SRV.out"
	assert_output "client: cannot read '$(printf 'p%.0s' $(seq 2984))'"
	server_alive
	# A message larger than any first one is still refused by its size.
	python3 - "$PORT" <<-'EOF' 3>&-
	import socket, struct, sys
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"RDCB" + struct.pack(">HHI", 5, 9, 60000))
	s.settimeout(5)
	try:
	    while s.recv(4096):
	        pass
	except OSError:
	    pass
	EOF
	wait_lines "$SRV.out" 2
	run jq -r '.error' <(sed -n 2p "$SRV.out")
	assert_output --regexp "^an? ERROR message of 60000 bytes where HELLO \(or ERROR, at most [0-9]+\) was due$"
}
