#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154,SC2030,SC2031 # bats' run sets $stderr; each test runs in a subshell
# rdmactl bench without RDMA hardware: usage errors, the live-system rule, the
# client against nothing, against a real server on 127.0.0.1 (whose endpoint
# table is empty on a host without RDMA devices) and against fake servers
# in python, and the server against malformed clients.  The data path runs
# in the lab (tests/lab/60-bench.bats).
load ../helpers
load bench_helpers

setup() {
	SERVER_PID="" FAKE_PID=""
	EMPTY=$BATS_TEST_TMPDIR/empty
	mkdir -p "$EMPTY"
}

teardown() {
	local pid
	for pid in $SERVER_PID $FAKE_PID; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}

# free_port, start_server, good_client, ... are in bench_helpers.bash.

# probe CASE: a malformed client in python against the server.  Prints what
# came back: "closed", "reset", or "reply VERSION TYPE CODE TEXT" for the
# first message, read as the protocol frames it (12-byte header "RDCB",
# u16 version, u16 type, u32 length; ERROR = 9: u32 code, u16 length, text).
probe() {
	python3 - "$PORT" "$1" <<-'EOF'
	import socket, struct, sys
	port, case = int(sys.argv[1]), sys.argv[2]
	def hdr(version=5, mtype=1, length=0, magic=b"RDCB"):
	    return magic + struct.pack(">HHI", version, mtype, length)
	hello = struct.pack(">H", 13) + b"rdmactl 0.1.0"
	msg = {
	    "garbage": b"\x00\xffgarbage\x17" * 8,
	    "magic": hdr(magic=b"XXXX", length=len(hello)) + hello,
	    "huge": hdr(length=0x7FFFFFFF),
	    "version": hdr(version=1),
	    "version+hello": hdr(version=1, length=len(hello)) + hello,
	    "nothing": b"",
	    "truncated": hdr(length=len(hello)) + hello[:5],
	    "badstring": hdr(length=len(hello)) + struct.pack(">H", 200) + hello[2:],
	    "type": hdr(mtype=77),
	}[case]
	s = socket.create_connection(("127.0.0.1", port), timeout=5)
	s.sendall(msg)
	try:
	    s.shutdown(socket.SHUT_WR)  # the client is done: EOF after what it sent
	except OSError:
	    pass  # the server already answered and closed
	data = b""
	try:
	    while True:
	        b = s.recv(65536)
	        if not b:
	            break
	        data += b
	except ConnectionResetError:
	    # The server closed with bytes of ours unread: what it sent first
	    # is still delivered before the reset.
	    if not data:
	        print("reset")
	        sys.exit(0)
	if len(data) < 12:
	    print("closed")
	    sys.exit(0)
	magic, version, mtype, length = data[:4], *struct.unpack(">HHI", data[4:12])
	assert magic == b"RDCB", magic
	payload = data[12:12 + length]
	assert len(payload) == length, (len(payload), length)
	if mtype == 9:
	    code, n = struct.unpack(">IH", payload[:6])
	    assert len(payload) == 6 + n
	    print("reply", version, mtype, code, payload[6:].decode())
	else:
	    print("reply", version, mtype)
	EOF
}

# fake_server MODE: a python stand-in for 'rdmactl bench server' on a free
# port (PORT) for one connection.  It reads the client's HELLO, answers as
# MODE says, and logs what it read, one message per line ("TYPE TEXT"), to
# $FAKE.log.
fake_server() {
	FAKE=$BATS_TEST_TMPDIR/fake
	rm -f "$FAKE.port" "$FAKE.log"
	python3 - "$1" "$FAKE" <<-'EOF' 3>&- &
	import socket, struct, sys
	mode, out = sys.argv[1], sys.argv[2]
	ls = socket.socket()
	ls.bind(("127.0.0.1", 0))
	ls.listen(1)
	open(out + ".port.tmp", "w").write("%d\n" % ls.getsockname()[1])
	import os; os.rename(out + ".port.tmp", out + ".port")
	ls.settimeout(20)
	c, _ = ls.accept()
	c.settimeout(20)
	log = open(out + ".log", "w", buffering=1)
	def recvn(n):
	    b = b""
	    while len(b) < n:
	        x = c.recv(n - len(b))
	        if not x:
	            break
	        b += x
	    return b
	def read_msg():
	    h = recvn(12)
	    if len(h) < 12:
	        log.write("eof\n")
	        return None
	    magic, version, mtype, length = h[:4], *struct.unpack(">HHI", h[4:])
	    p = recvn(length)
	    if mtype == 1:    # HELLO: the software string
	        n, = struct.unpack(">H", p[:2])
	        log.write("%s %d HELLO %s\n" % (magic.decode(), version, p[2:2 + n].decode()))
	    elif mtype == 9:  # ERROR: code, text
	        code, n = struct.unpack(">IH", p[:6])
	        log.write("%s %d ERROR %d %s\n" % (magic.decode(), version, code, p[6:6 + n].decode()))
	    else:
	        log.write("%s %d type %d\n" % (magic.decode(), version, mtype))
	    return mtype
	def frame(mtype, payload=b"", version=5, magic=b"RDCB"):
	    return magic + struct.pack(">HHI", version, mtype, len(payload)) + payload
	def s(text):
	    return struct.pack(">H", len(text)) + text
	# One endpoint, as a server with mlx5_0 port 1 on 198.18.1.1/24 offers it.
	ep = (s(b"mlx5_0") + struct.pack(">I", 1) + s(b"ens1f0np0") + struct.pack(">I", 3)
	      + bytes(10) + b"\xff\xff" + bytes([198, 18, 1, 1]) + struct.pack(">I", 0xC6120101)
	      + bytes([24]) + struct.pack(">II", 4096, 100000) + bytes([1]) + struct.pack(">i", 0))
	read_msg()
	if mode == "version":
	    c.sendall(frame(2, s(b"fake") + struct.pack(">I", 0), version=1))
	elif mode == "v3":
	    # An rdmactl of protocol 3 refuses a HELLO of 4 in its own version's ERROR.
	    c.sendall(frame(9, struct.pack(">I", 93) + s(b"protocol version mismatch: peer speaks 5, this rdmactl speaks 3"), version=3))
	elif mode == "longerror":
	    # A whole error record's message: a path of 3000 bytes in it.
	    c.sendall(frame(9, struct.pack(">I", 2) + s(b"cannot read '/" + b"d/" * 1500 + b"end': gone")))
	elif mode == "magic":
	    c.sendall(frame(2, s(b"fake") + struct.pack(">I", 0), magic=b"HTTP"))
	elif mode == "close":
	    c.close()
	    sys.exit(0)
	elif mode == "error":
	    c.sendall(frame(9, struct.pack(">I", 16) + s(b"busy with another run\x07")))
	elif mode == "ports":
	    c.sendall(frame(2, s(b"fake") + struct.pack(">I", 1) + ep))
	elif mode == "toomany":
	    c.sendall(frame(2, s(b"fake") + struct.pack(">I", 33) + ep * 33))
	elif mode == "setup_ok":
	    c.sendall(frame(4, struct.pack(">I", 0)))
	read_msg()
	EOF
	FAKE_PID=$!
	local i
	for i in $(seq 200); do
		[ -s "$FAKE.port" ] && break
		sleep 0.02
	done
	PORT=$(cat "$FAKE.port") || fail "the fake server did not start"
}

# The fake's log, once it has ended.
fake_log() {
	wait_exit "$FAKE_PID" 10
	FAKE_PID=""
	cat "$FAKE.log"
}

# ---- usage ------------------------------------------------------------------

# usage_error MESSAGE ARGS...: 'rdmactl bench ARGS' exits 2, says MESSAGE and
# where to read more, and prints nothing on stdout.
usage_error() {
	local want=$1
	shift
	run --separate-stderr "$RDMACTL" bench "$@"
	[ "$status" -eq 2 ] || fail "'bench $*' exits $status, not 2: $stderr"
	[ -z "$output" ] || fail "'bench $*' prints on stdout: $output"
	[[ $stderr == *"$want"* ]] || fail "'bench $*' does not say '$want': $stderr"
	[[ $stderr == *"see 'rdmactl help bench'"* ]] || fail "'bench $*' gives no hint: $stderr"
}

@test "bench client: bad values are usage errors, exit 2, named" {
	# Nothing listens on port 1: a client that got as far as connecting exits 1.
	local c=(client 127.0.0.1 port 1)
	usage_error "'test foo': not one of write, read, send, lat, lat-read, lat-send" "${c[@]}" test foo
	usage_error "'size 0': at least 1 byte" "${c[@]}" size 0
	usage_error "'size 12X': not BYTES, nK or nM" "${c[@]}" size 12X
	usage_error "'size 99999999999999999999': at most 16M" "${c[@]}" size 99999999999999999999
	usage_error "'size 32M': at most 16M" "${c[@]}" size 32M
	usage_error "'size 1G': " "${c[@]}" size 1G
	usage_error "'qps 0': out of range 1-64" "${c[@]}" qps 0
	usage_error "'qps 65': out of range 1-64" "${c[@]}" qps 65
	usage_error "'dscp 64': out of range 0-63" "${c[@]}" dscp 64
	usage_error "'tclass 256': out of range 0-255" "${c[@]}" tclass 256
	usage_error "'mtu 1000': not 256, 512, 1024, 2048 or 4096" "${c[@]}" mtu 1000
	usage_error "'mtu 8192': not 256, 512, 1024, 2048 or 4096" "${c[@]}" mtu 8192
	usage_error "'qp-timeout 32': out of range 0-31" "${c[@]}" qp-timeout 32
	usage_error "'retry-cnt 8': out of range 0-7" "${c[@]}" retry-cnt 8
	usage_error "'rnr-retry -1': " "${c[@]}" rnr-retry -1
	# The edges of the QP settings pass the parser: the run fails only on the connection.
	run --separate-stderr "$RDMACTL" bench "${c[@]}" qp-timeout 0 retry-cnt 0 rnr-retry 7
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	usage_error "'tx-depth 0': out of range 1-1024" "${c[@]}" tx-depth 0
	usage_error "'tx-depth 1025': out of range 1-1024" "${c[@]}" tx-depth 1025
	usage_error "'cq-mod 0': out of range 1-1024" "${c[@]}" cq-mod 0
	usage_error "'cq-mod x': " "${c[@]}" cq-mod x
	usage_error "'post-list 0': out of range 1-1024" "${c[@]}" post-list 0
	usage_error "'post-list 2000': out of range 1-1024" "${c[@]}" post-list 2000
	usage_error "'inline 1025': out of range 0-1024" "${c[@]}" inline 1025
	usage_error "'inline -1': " "${c[@]}" inline -1
	# rdma-cm is a word on its own (perftest -R): no value after it.
	usage_error "unexpected argument 'on'" "${c[@]}" rdma-cm on
	usage_error "unexpected argument '1'" "${c[@]}" rdma-cm 1
	run --separate-stderr "$RDMACTL" bench "${c[@]}" rdma-cm test lat-send size 64
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	# The edges of the knobs pass: the run fails only on the connection.
	run --separate-stderr "$RDMACTL" bench "${c[@]}" tx-depth 1024 cq-mod 1024 post-list 1024 inline 1024
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" bench "${c[@]}" tx-depth 1 cq-mod 1 post-list 1 inline 0
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	# rate-limit: Gb/s as a plain number; a unit, a sign, an exponent are refused, naming the form.
	local form="a rate in Gb/s as a plain number, such as 2.5 or 0.4 (400 Mb/s); no unit"
	usage_error "'rate-limit 400mbps': $form" "${c[@]}" rate-limit 400mbps
	usage_error "'rate-limit 2.5gbps': $form" "${c[@]}" rate-limit 2.5gbps
	usage_error "'rate-limit 2.5G': $form" "${c[@]}" rate-limit 2.5G
	usage_error "'rate-limit 1e3': $form" "${c[@]}" rate-limit 1e3
	usage_error "'rate-limit -1': $form" "${c[@]}" rate-limit -1
	usage_error "'rate-limit 0': out of range 0.000001-10000 Gb/s" "${c[@]}" rate-limit 0
	usage_error "'rate-limit 10001': out of range 0.000001-10000 Gb/s" "${c[@]}" rate-limit 10001
	usage_error "'rate-limit 0.0000001': out of range" "${c[@]}" rate-limit 0.0000001
	usage_error "'hugepages' given twice" "${c[@]}" hugepages hugepages
	# cq-wait: one of three words (perftest -e is events).
	usage_error "'cq-wait bogus': not auto, poll or events" "${c[@]}" cq-wait bogus
	usage_error "'cq-wait Events': not auto, poll or events" "${c[@]}" cq-wait Events
	usage_error "'cq-wait' needs a value" "${c[@]}" cq-wait
	usage_error "'cq-wait' given twice" "${c[@]}" cq-wait poll cq-wait events
	for w in auto poll events; do
		run --separate-stderr "$RDMACTL" bench "${c[@]}" cq-wait "$w" test send bidir
		assert_failure 1
		[[ $stderr == *"cannot reach the bench server"* ]] || fail "cq-wait $w: $stderr"
	done
	# The edges pass the parser, with hugepages: the run fails only on the connection.
	for r in 0.000001 10000 .5; do
		run --separate-stderr "$RDMACTL" bench "${c[@]}" rate-limit "$r" hugepages
		assert_failure 1
		[[ $stderr == *"cannot reach the bench server"* ]] || fail "rate-limit $r: $stderr"
	done
	usage_error "'expect-gbps -1': not a positive number of Gb/s" "${c[@]}" expect-gbps -1
	usage_error "'min-link-gbps x': not a positive number of Gb/s" "${c[@]}" min-link-gbps x
	usage_error "'iters 0': not a number 1-100000000" "${c[@]}" iters 0
	usage_error "'duration 0': must be more than 0 seconds" "${c[@]}" duration 0
	usage_error "'interval 0.05': at least 0.1 s" "${c[@]}" interval 0.05
	usage_error "'duration 0.0000001': at least 0.001 s" "${c[@]}" duration 0.0000001
	usage_error "'warmup -1': not a number of seconds" "${c[@]}" warmup -1
	usage_error "'port 65536': out of range 1-65535" client 127.0.0.1 port 65536
}

@test "bench client: bad links are usage errors" {
	local c=(client 127.0.0.1 port 1) spec
	for spec in a:b:c :x rxe0: : "$(printf 'x%.0s' {1..64})"; do
		usage_error "'link $spec': not LOCAL or LOCAL:REMOTE" "${c[@]}" link "$spec"
	done
	local links=() i
	for i in $(seq 17); do
		links+=(link "rxe$i")
	done
	usage_error "'link' at most 16 times" "${c[@]}" "${links[@]}"
	usage_error "'link' needs a value" "${c[@]}" link
}

@test "bench client: keywords that do not go together" {
	local c=(client 127.0.0.1 port 1)
	usage_error "'duration' and 'iters' exclude each other" "${c[@]}" duration 5 iters 10
	usage_error "'duration' and 'iters' exclude each other" "${c[@]}" iters 10 duration 5
	usage_error "'dscp' and 'tclass' exclude each other" "${c[@]}" dscp 26 tclass 104
	usage_error "'dscp' and 'tclass' exclude each other" "${c[@]}" tclass 104 dscp 26
	usage_error "lat runs one QP per link" "${c[@]}" test lat qps 2
	usage_error "lat runs one QP per link" "${c[@]}" qps 1 test lat
	usage_error "lat-read runs one QP per link" "${c[@]}" test lat-read qps 2
	usage_error "lat-send runs one QP per link" "${c[@]}" test lat-send qps 2
	usage_error "Gb/s thresholds apply to the bandwidth tests" "${c[@]}" test lat-read expect-gbps 1
	usage_error "Gb/s thresholds apply to the bandwidth tests" "${c[@]}" test lat expect-gbps 1
	usage_error "Gb/s thresholds apply to the bandwidth tests" "${c[@]}" test lat min-link-gbps 1
	usage_error "'size' given twice" "${c[@]}" size 1K size 2K
	# perftest's knobs: within the queue, for the tests they apply to.
	usage_error "cq-mod 64 is over the send queue depth 32" "${c[@]}" tx-depth 32 cq-mod 64
	usage_error "cq-mod 200 is over the send queue depth 128" "${c[@]}" cq-mod 200
	usage_error "post-list 16 is outside 1 to the send queue depth 8" "${c[@]}" post-list 16 tx-depth 8
	# A chain that could never fit beside the unsignalled tail: the queue would stop.
	usage_error "cq-mod 128 with post-list 3 needs tx-depth 130 or more (is 128)" "${c[@]}" post-list 3 cq-mod 128
	usage_error "cq-mod 3 with post-list 8 needs tx-depth 10 or more (is 8)" "${c[@]}" tx-depth 8 post-list 8 cq-mod 3
	local k
	local t
	for t in lat lat-read lat-send; do
		for k in tx-depth cq-mod post-list; do
			usage_error "'$k' applies to the bandwidth tests; $t has one message in flight" \
				"${c[@]}" test "$t" "$k" 1
		done
	done
	# bidir (perftest -b): a flag, for the bandwidth tests; wherever it stands beside test.
	for t in lat lat-read lat-send; do
		usage_error "'bidir' applies to the bandwidth tests; $t has one message in flight" \
			"${c[@]}" test "$t" bidir
		usage_error "'bidir' applies to the bandwidth tests; $t has one message in flight" \
			"${c[@]}" bidir test "$t"
	done
	usage_error "'bidir' given twice" "${c[@]}" bidir bidir
	usage_error "unknown keyword 'yes'" "${c[@]}" bidir yes
	usage_error "inline applies to write, send, lat and lat-send: a read sends no data" "${c[@]}" test read inline 64
	usage_error "inline applies to write, send, lat and lat-send: a read sends no data" "${c[@]}" test lat-read inline 64
	usage_error "'test lat-write': not one of write, read, send, lat, lat-read, lat-send" "${c[@]}" test lat-write
	# The latency tests always poll: events refused, poll and auto taken.
	for t in lat lat-read lat-send; do
		usage_error "cq-wait events applies to the bandwidth tests: a latency test polls" \
			"${c[@]}" test "$t" cq-wait events
		for w in auto poll; do
			run --separate-stderr "$RDMACTL" bench "${c[@]}" cq-wait "$w" test "$t"
			assert_failure 1
			[[ $stderr == *"cannot reach the bench server"* ]] || fail "$t cq-wait $w: $stderr"
		done
	done
	# rate-limit paces the bandwidth tests' requester: the latency tests have one message in flight.
	for t in lat lat-read lat-send; do
		usage_error "rate-limit applies to the bandwidth tests" "${c[@]}" test "$t" rate-limit 1
		usage_error "rate-limit applies to the bandwidth tests" "${c[@]}" rate-limit 1 test "$t"
	done
}

@test "bench client: size all (perftest -a): what does not go with it, and the checks of every size" {
	local c=(client 127.0.0.1 port 1)
	usage_error "'size all': Gb/s thresholds apply to a run of one size" "${c[@]}" size all expect-gbps 1
	usage_error "'size all': Gb/s thresholds apply to a run of one size" "${c[@]}" min-link-gbps 1 size all
	usage_error "'size all': metrics describe a run of one size" "${c[@]}" size all metrics "$BATS_TEST_TMPDIR/m.prom"
	[ ! -e "$BATS_TEST_TMPDIR/m.prom" ] || fail "a refused run wrote its metrics file"
	usage_error "'size' given twice" "${c[@]}" size all size 4K
	usage_error "'size ALL': not BYTES, nK or nM" "${c[@]}" size ALL
	# The knobs are checked at every size, the first that fails named.
	usage_error "size all, at 2 bytes: post-list 200 is outside 1 to the send queue depth 128" \
		"${c[@]}" size all post-list 200
	usage_error "size all, at 2 bytes: lat keeps every sample" "${c[@]}" size all test lat iters 10000001
	usage_error "'qps' applies to the bandwidth tests" "${c[@]}" size all test lat-send qps 2
	# Every test, with a count, a window or neither, passes the checks: the run fails only on the connection.
	local t k
	for t in write read send lat lat-read lat-send; do
		for k in "" "iters 5" "duration 0.5"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$RDMACTL" bench "${c[@]}" test "$t" size all $k
			assert_failure 1
			[[ $stderr == *"cannot reach the bench server"* ]] || fail "$t $k: $stderr"
		done
	done
}

@test "bench client: size all is in the help, and completed" {
	run "$RDMACTL" bench help
	assert_success
	assert_output --partial "size BYTES|nK|nM|all"
	assert_output --partial "all: every power of two from 2 B to 8M, a row each"
	run "$RDMACTL" __complete bench client 1.2.3.4 size ""
	assert_success
	assert_output all
}

@test "bench client: no HOST, two HOSTs, an unknown keyword" {
	usage_error "missing argument HOST" client
	usage_error "missing argument HOST" client test write
	usage_error "missing argument HOST"
	usage_error "unexpected argument '127.0.0.2'" client 127.0.0.1 127.0.0.2
	usage_error "unknown keyword 'tset'; did you mean 'test'?" client 127.0.0.1 tset write
}

@test "bench server: bad values are usage errors, exit 2, named" {
	usage_error "'allow 10.0.0.1/8': not an IPv4 CIDR" server allow 10.0.0.1/8
	usage_error "'allow 10.0.0.0/33': not an IPv4 CIDR" server allow 10.0.0.0/33
	usage_error "'allow ten': not an IPv4 CIDR" server allow ten
	usage_error "'bind notanip': not an IPv4 address" server bind notanip
	usage_error "'bind ::1': not an IPv4 address" server bind ::1
	usage_error "'port 0': out of range 1-65535" server port 0
	usage_error "unknown keyword 'nonce'; did you mean 'once'?" server nonce
	usage_error "'once' given twice" server once once
	# Test parameters belong to the client.
	usage_error "unexpected argument 'duration'" server duration 5
}

@test "bench: refused under --root and --replay (live system only), exit 1" {
	local host=$HOSTS/rxe
	[ -d "$host/sys" ] || host=$EMPTY
	run --separate-stderr "$RDMACTL" --root "$host" bench client 127.0.0.1
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: runs on the live system only, not under --root or --replay"
	printf '# rdmactl kernel recording v1\n' >"$BATS_TEST_TMPDIR/k.rec"
	run --separate-stderr "$RDMACTL" --replay "$BATS_TEST_TMPDIR/k.rec" bench 127.0.0.1
	assert_failure 1
	[[ $stderr == *"live system only"* ]]
	# The server may read a bundle (its handshake is rehearsed, no run), not a recording alone.
	run --separate-stderr "$RDMACTL" --replay "$BATS_TEST_TMPDIR/k.rec" -j bench server
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: runs on the live system only, not under --root or --replay"
	[ "$(jq -c '[.kind, .error.id]' <<<"$output")" = '["error","live-only"]' ] || fail "$output"
	# Usage errors are still usage errors there.
	run "$RDMACTL" --root "$host" bench client 127.0.0.1 size 0
	assert_failure 2
}

# issue 13: a server with nothing to offer would only tell each client so.
@test "bench server: refuses to start without a usable endpoint, naming why, exit 1" {
	local port
	port=$(free_port)
	# timeout: a server that starts anyway fails the test instead of holding it.
	# No RDMA device: the live host here, or an empty bundle.
	if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
		run --separate-stderr timeout 5 "$RDMACTL" bench server bind 127.0.0.1 port "$port"
		assert_failure 1
		assert_equal "$stderr" "rdmactl: bench: no RDMA device on this host (/sys/class/infiniband is empty): load the NIC's RDMA driver, or add Soft-RoCE with 'rdma link add rxe0 type rxe netdev IFACE'"
		assert_output ""
	fi
	run --separate-stderr timeout 5 "$RDMACTL" --root "$EMPTY" -j bench server bind 127.0.0.1 port "$port"
	assert_failure 1
	[[ $stderr == "rdmactl: bench: no RDMA device on this host "* ]] || fail "$stderr"
	[ "$(jq -c '[.kind, .error.id]' <<<"$output")" = '["error","not-found"]' ] || fail "$output"
	# Devices, but InfiniBand only.
	run --separate-stderr timeout 5 "$RDMACTL" --root "$HOSTS/ib-hdr" bench server bind 127.0.0.1 port "$port"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: no port of mlx5_0 is Ethernet: bench runs over RoCE v2, not InfiniBand"
	# RoCE ports whose netdevs have no IPv4 address: no RoCE v2 IPv4 GID.
	local host=$BATS_TEST_TMPDIR/noipv4 f
	cp -a "$HOSTS/rxe" "$host"
	for f in "$host"/sys/devices/virtual/infiniband/rxe*/ports/1/gids/*; do
		grep -q ':ffff:' "$f" && echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$f"
	done
	run --separate-stderr timeout 5 "$RDMACTL" --root "$host" bench server bind 127.0.0.1 port "$port"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: no port of rxe0, rxe1 has a RoCE v2 GID with an IPv4 address: give its netdev an IPv4 address (see 'rdmactl port gids')"
	# It never listened.
	! listening "$port"
}

# ---- the client against nothing and against fakes -----------------------------

@test "bench client: an unreachable server fails fast, exit 1, naming host:port" {
	local port t0
	port=$(free_port)
	t0=$SECONDS
	run --separate-stderr "$RDMACTL" -j bench client 127.0.0.1 port "$port"
	assert_failure 1
	assert_equal "$stderr" \
		"rdmactl: bench: cannot reach the bench server at 127.0.0.1:$port: Connection refused"
	# No partial report: the error document alone.
	[ "$(jq -s -c 'map([.kind, .error.id, .error.errno])' <<<"$output")" = '[["error","peer",111]]' ] ||
		fail "$output"
	[ $((SECONDS - t0)) -le 3 ] || fail "took $((SECONDS - t0)) s"
}

@test "bench client: a server speaking another protocol version, exit 1" {
	fake_server version
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"version mismatch: peer speaks 1, this rdmactl speaks 5"* ]] || fail "$stderr"
	run fake_log
	# The client's HELLO was well-formed, and it said why it gave up.
	assert_line --index 0 "RDCB 5 HELLO rdmactl $("$RDMACTL" --version | awk 'NR == 1 { print $NF }')"
	assert_line --index 1 --regexp '^RDCB 5 ERROR [0-9]+ protocol version mismatch: peer speaks 1'
}

@test "bench client: a server of protocol version 3 (before rate-limit, hugepages, size all, bidir and rdma-cm), exit 1" {
	fake_server v3
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT" bidir
	assert_failure 1
	[[ $stderr == *"protocol version mismatch: peer speaks 3, this rdmactl speaks 5"* ]] || fail "$stderr"
}

@test "bench client: the server's ERROR is printed whole, a 3000-byte path in it" {
	fake_server longerror
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	local path
	path="/$(printf 'd/%.0s' {1..1500})end"
	[[ $stderr == *"server: cannot read '$path': gone"* ]] || fail "cut: ${stderr:0:200}... (${#stderr} bytes)"
}

@test "bench client: not a bench server (bad magic), exit 1" {
	fake_server magic
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"not an rdmactl bench peer (bad magic)"* ]] || fail "$stderr"
}

@test "bench client: a server that hangs up after HELLO: exit 1 at once" {
	local t0=$SECONDS
	fake_server close
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"the peer closed the connection"* ]] || fail "$stderr"
	[ $((SECONDS - t0)) -le 3 ] || fail "took $((SECONDS - t0)) s"
}

@test "bench client: the server's ERROR is shown, control characters masked" {
	fake_server error
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"server: busy with another run?"* ]] || fail "$stderr"
}

@test "bench client: an endpoint table over the limit is refused" {
	fake_server toomany
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"malformed PORTS message: bad endpoint count"* ]] || fail "$stderr"
}

@test "bench client: a message out of order is refused" {
	fake_server setup_ok
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"server sent SETUP_OK where PORTS was due"* ]] || fail "$stderr"
}

@test "bench client: no local RoCE port to pair with the server's, said and told" {
	need_no_rdma
	fake_server ports
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	[[ $stderr == *"this host has no RDMA port with a RoCE v2 IPv4 GID (see 'rdmactl port gids')"* ]] ||
		fail "$stderr"
	run fake_log
	assert_line --index 1 --regexp "^RDCB 5 ERROR [0-9]+ this host has no RDMA port with a RoCE v2 IPv4 GID"
	# A named link: the name is in the message.
	fake_server ports
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$PORT" link rxe0:mlx5_0
	assert_failure 1
	[[ $stderr == *"link 'rxe0': no local RDMA port with a RoCE v2 IPv4 GID matches"* ]] ||
		fail "$stderr"
}

# ---- a real server on 127.0.0.1 -------------------------------------------------

@test "bench server: a client learns the server has no RoCE port; the server keeps serving" {
	start_server bench server
	wait_lines "$SRV.out" 1
	[[ $(head -1 "$SRV.out") =~ ^$TS\ listening\ on\ 127\.0\.0\.1:$PORT,\ allow\ any$ ]] ||
		fail "$(head -1 "$SRV.out")"
	good_client
	good_client
	server_alive
	wait_lines "$SRV.out" 3
	run cat "$SRV.out"
	assert_line --index 1 --regexp "^$TS run 1 from 127\.0\.0\.1:[0-9]+: failed: client: $NO_PORTS_RE\$"
	assert_line --index 2 --regexp "^$TS run 2 from 127\.0\.0\.1:[0-9]+: failed: client: $NO_PORTS_RE\$"
}

@test "bench server -j: one JSON document per run, status failed with the client's error" {
	command -v jq >/dev/null || skip "jq not installed"
	start_server -j bench server
	good_client
	good_client
	good_client
	wait_lines "$SRV.out" 3
	server_alive
	# Nothing but the documents on stdout, each valid on its own.
	local line n=0
	while IFS= read -r line; do
		n=$((n + 1))
		json_valid <<<"$line" || fail "not one JSON document: $line"
		jq -e --argjson n "$n" --arg e "client: $NO_PORTS" '
			.schema == 3 and .run == $n and .status == "failed" and .error == $e
			and (.client | test("^127\\.0\\.0\\.1:[0-9]+$"))
			and (.time | test("^" + $ts + "$"))' --arg ts "$TS" <<<"$line" >/dev/null ||
			fail "unexpected document $n: $line"
	done <"$SRV.out"
	[ "$n" -eq 3 ]
}

# The parameters of a run, as bench client and server documents carry them.
BENCH_PARAMS='["test","msg_size_bytes","qps_per_link","tx_depth","cq_mod","post_list","inline_bytes","rdma_cm","duration_s","iters","warmup_s",
	"interval_s","traffic_class","mtu_limit_bytes","qp_timeout","retry_cnt","rnr_retry",
	"qp_survival_s","rate_limit_gbps","hugepages","bidir","cq_wait"]'

@test "bench server -j: a run that set up no links has every key, the parameters null, links []" {
	command -v jq >/dev/null || skip "jq not installed"
	start_server -j bench server
	good_client
	wait_lines "$SRV.out" 1
	server_alive
	run jq -c --argjson p "$BENCH_PARAMS" '[(keys | sort) == (["schema", "kind", "time", "run", "client",
		"status", "error", "links", "client_gbps", "sent_gbps"] + $p | sort), (. as $d | [$p[] | $d[.]] | unique),
		.links, .run]' "$SRV.out"
	assert_success
	assert_output '[true,[null],[],1]'
	# And the schema (every key required) takes it.
	run "$TOP/tests/schema-check" "$SRV.out"
	assert_success
	assert_output "schema: 1 bench-server documents valid"
}

# The schemas of bench are strict: every object that names its properties requires them
# all and allows no other (tests/schema-check --check-schemas walks each schema and the
# common definitions; a condition, if or not, is no description of an object).
@test "bench: the bench schemas require every key and allow no other" {
	run "$TOP/tests/schema-check" --check-schemas --tap
	local k
	for k in bench-client bench-server common; do
		assert_line "ok - schemas/$k.schema.json is strict: every key required, no other key allowed"
	done
}

@test "bench server --yaml: a stream of YAML documents, one per run" {
	start_server --yaml bench server
	good_client
	good_client
	local i
	for i in $(seq 200); do
		[ "$(grep -c '^run: ' "$SRV.out")" -ge 2 ] && break
		sleep 0.02
	done
	run python3 -c 'import sys, yaml; docs = list(yaml.safe_load_all(open(sys.argv[1])))
print(len(docs), [d["run"] for d in docs], {d["status"] for d in docs})' "$SRV.out"
	assert_success
	assert_output "2 [1, 2] {'failed'}"
}

@test "bench server once: exits after one run, with the run's outcome as its status" {
	start_server bench server once
	good_client
	wait_exit "$SERVER_PID" 5
	SERVER_PID=""
	# No RDMA port here: the run failed, and so does the server.
	assert_equal "$STATUS" 1
	# Nothing listens any more.
	run "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_output --partial "cannot reach the bench server at 127.0.0.1:$PORT"
}

@test "bench server allow: a client outside the range is refused, and not counted as a run" {
	start_server -j bench server allow 10.0.0.0/8 once
	run "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_output "rdmactl: bench: server: client 127.0.0.1 is not in the allowed range: Permission denied"
	run "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_output --partial "not in the allowed range"
	# once does not count refusals: still serving.
	server_alive
	wait_lines "$SRV.out" 2
	command -v jq >/dev/null || return 0
	run jq -c '[.run, .status, .error]' "$SRV.out"
	assert_line --index 0 '[null,"failed","client 127.0.0.1 is not in the allowed range"]'
	assert_line --index 1 '[null,"failed","client 127.0.0.1 is not in the allowed range"]'
}

@test "bench server allow: a client inside the range is served" {
	start_server bench server allow 127.0.0.0/8 once
	good_client
	wait_exit "$SERVER_PID" 5
	SERVER_PID=""
	# Served, not refused: the run itself failed (no RDMA port here).
	assert_equal "$STATUS" 1
	grep -qE "^$TS run 1 from 127\.0\.0\.1:[0-9]+: failed: " "$SRV.out" || fail "$(cat "$SRV.out")"
	grep -qE "^$TS listening on 127\.0\.0\.1:$PORT, allow 127\.0\.0\.0/8\$" "$SRV.out" ||
		fail "$(cat "$SRV.out")"
}

@test "bench server: malformed clients are turned away, the server stays up" {
	start_server bench server
	local c
	for c in garbage magic huge version version+hello nothing truncated badstring type; do
		run probe "$c"
		assert_success
		server_alive
		good_client
	done
	# Each was logged as turned away (not a run), with the reason.
	run cat "$SRV.out"
	assert_output --partial "failed: not an rdmactl bench peer (bad magic)"
	assert_output --partial "failed: message of 2147483647 bytes is over the limit of 65536"
	assert_output --partial "failed: protocol version mismatch: peer speaks 1, this rdmactl speaks 5"
	assert_output --partial "failed: waiting for HELLO from the client: the peer closed the connection"
	assert_output --partial "failed: malformed HELLO message: bad software name"
	assert_output --partial "failed: unknown message type 77"
	[ "$(grep -c "failed: client: $NO_PORTS" "$SRV.out")" -eq 9 ]
	[ "$(grep -cE "^$TS refused from 127\.0\.0\.1:[0-9]+: failed: " "$SRV.out")" -eq 9 ]
}

@test "bench server: its answers to malformed clients are ERROR messages that say why" {
	start_server bench server
	run probe version
	assert_success
	assert_output --regexp '^reply 5 9 [0-9]+ protocol version mismatch: peer speaks 1, this rdmactl speaks 5$'
	run probe version+hello
	assert_output --regexp '^reply 5 9 [0-9]+ protocol version mismatch'
	run probe huge
	assert_output --regexp '^reply 5 9 [0-9]+ message of 2147483647 bytes is over the limit of 65536$'
	run probe magic
	assert_output --regexp '^reply 5 9 [0-9]+ not an rdmactl bench peer \(bad magic\)$'
	run probe type
	assert_output --regexp '^reply 5 9 [0-9]+ unknown message type 77$'
	# One that left says nothing more: no answer to read.
	run probe truncated
	assert_output closed
	server_alive
}

@test "bench server: SIGTERM and SIGINT end it with exit 0" {
	local sig
	for sig in TERM INT; do
		start_server bench server
		kill -s "$sig" "$SERVER_PID"
		wait_exit "$SERVER_PID" 2
		SERVER_PID=""
		assert_equal "$STATUS" 0
	done
}

@test "bench server: a port in use fails, exit 1, naming it" {
	start_server bench server
	run --separate-stderr "$RDMACTL" --root "$BENCH_HOST" bench server bind 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: cannot listen on 127.0.0.1:$PORT: Address already in use"
	server_alive
}

@test "bench server -q: only the runs" {
	start_server -q bench server
	good_client
	wait_lines "$SRV.out" 1
	run cat "$SRV.out"
	assert_line --index 0 --regexp "^$TS run 1 from 127\.0\.0\.1:[0-9]+: failed: "
	refute_output --partial listening
}

@test "bench client: SIGINT while waiting for the server ends it at once" {
	# A server that accepts and never answers.
	PORT=$(free_port)
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1)
c, _ = s.accept(); time.sleep(30)' "$PORT" 3>&- &
	FAKE_PID=$!
	local i
	for i in $(seq 200); do
		listening "$PORT" && break
		sleep 0.02
	done
	"$RDMACTL" bench client 127.0.0.1 port "$PORT" >/dev/null 2>"$BATS_TEST_TMPDIR/client.err" 3>&- &
	SERVER_PID=$! # the client: teardown ends it
	sleep 0.3
	kill -INT "$SERVER_PID"
	for i in $(seq 50); do
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.02
	done
	if kill -0 "$SERVER_PID" 2>/dev/null; then
		# Still waiting (for the 10 s reply timeout): end it for good, and fail.
		kill -KILL "$SERVER_PID"
		fail "the client still runs 1 s after SIGINT: the wait for the server's answer is not interrupted"
	fi
	wait_exit "$SERVER_PID" 1
	SERVER_PID=""
	assert_equal "$STATUS" 1
	grep -q interrupted "$BATS_TEST_TMPDIR/client.err" || fail "$(cat "$BATS_TEST_TMPDIR/client.err")"
}

@test "bench help: rate-limit and hugepages, with perftest's names" {
	run "$RDMACTL" help bench
	assert_success
	assert_output --regexp 'rate-limit GBPS +pace each link.s sends to at most GBPS Gb/s'
	assert_output --partial "--rate_limit_type"
	assert_output --regexp 'hugepages +both sides. buffers from huge pages'
	assert_output --partial "--use_hugepages"
}

@test "bench help: bidir is a keyword of the client, named after perftest -b, for the bandwidth tests" {
	run "$RDMACTL" help bench
	assert_success
	# A flag: no metavariable after it; what it does and perftest's option in its help.
	assert_line --regexp '^ +bidir +both sides send at once over the same QPs, write, read$'
	assert_output --partial "(perftest -b)"
	run "$RDMACTL" __complete bench client 1.2.3.4 bi
	assert_success
	assert_output bidir
}
