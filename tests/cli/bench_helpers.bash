# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2154 # bats' run sets $output
# bench_helpers.bash - what bench.bats and bench_server.bats share: a free
# port, a real 'rdmactl bench server' on 127.0.0.1 and the waits around it.
# Each file sets SERVER_PID="" in its setup and ends it in its teardown.

# A TCP port of 127.0.0.1 that nothing listens on, and that no test file running beside this
# one (BATS_JOBS) can take before the server binds it: own_port (tests/helpers.bash).
free_port() {
	own_port
}

# Whether something listens on 127.0.0.1 (or any address) port $1.
listening() {
	local hex
	hex=$(printf %04X "$1")
	grep -qE "^ *[0-9]+: (0100007F|00000000):$hex 00000000:0000 0A " /proc/net/tcp
}

# The live-server tests need a host whose server offers no endpoint.
need_no_rdma() {
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] ||
		skip "this host has RDMA devices: its server would offer ports"
}

# The bundle the test server reads its endpoints from.  A server with no
# usable endpoint refuses to start (issue 13), and the data path cannot run
# here anyway: under --root it offers the bundle's ports (rxe0 198.18.1.1,
# rxe1 198.18.2.1) and refuses every run's SETUP, which is all the handshake
# and hostile-client tests need.  The client stays live: on a host without
# RDMA it finds no local port to pair and tells the server so.
BENCH_HOST=$HOSTS/rxe

# start_server [GLOBAL OPTIONS] bench server [KEYWORDS]: in the background on
# 127.0.0.1 and a free port (PORT), reading $BENCH_HOST, its output in
# $SRV.out and $SRV.err; returns once it listens.
start_server() {
	need_no_rdma
	PORT=$(free_port)
	SRV=$BATS_TEST_TMPDIR/server
	"$RDMACTL" --root "$BENCH_HOST" "$@" bind 127.0.0.1 port "$PORT" >"$SRV.out" 2>"$SRV.err" 3>&- &
	SERVER_PID=$!
	local i
	for i in $(seq 200); do
		listening "$PORT" && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || fail "the server exited: $(cat "$SRV.err")"
		sleep 0.02
	done
	fail "the server does not listen on $PORT: $(cat "$SRV.err")"
}

server_alive() {
	kill -0 "$SERVER_PID" 2>/dev/null || fail "the server died: $(cat "$SRV.out" "$SRV.err")"
}

# Wait until FILE has N lines (the server writes a run's line after it has
# answered the client).
wait_lines() {
	local i
	for i in $(seq 200); do
		[ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.02
	done
	fail "$1 has fewer than $2 lines: $(cat "$1")"
}

# Wait up to SECONDS for process PID to exit; its status in $STATUS.
wait_exit() {
	local pid=$1 i
	for i in $(seq $(($2 * 50))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	kill -0 "$pid" 2>/dev/null && fail "process $pid still runs after $2 s"
	STATUS=0
	wait "$pid" || STATUS=$?
}

# The time that starts each line of the server's log: RFC 3339 UTC, in ms.
TS='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z'

# What a client on this host (no RDMA) says after the server's PORTS, and
# tells the server; NO_PORTS_RE for regular expressions.
NO_PORTS="this host has no RDMA port with a RoCE v2 IPv4 GID (see 'rdmactl port gids')"
NO_PORTS_RE="this host has no RDMA port with a RoCE v2 IPv4 GID \\(see 'rdmactl port gids'\\)"

# A proper client run against the server: its normal answer.
good_client() {
	run "$RDMACTL" bench client 127.0.0.1 port "$PORT"
	assert_failure 1
	assert_output "rdmactl: bench: $NO_PORTS: No such file or directory"
}
