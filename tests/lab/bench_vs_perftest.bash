# shellcheck shell=bash disable=SC2016,SC2154 # '...' expands in the VM
# bench_vs_perftest.bash: what tests/lab/62-bench-knobs.bats and 63-bench-lat.bats
# share: one rdmactl bench server on a for the file, a client run on b over link 1
# (rd), and a perftest tool's server on a and client on b (pt).  The file sets
# SRV_PORT and PT_PORT (its own, so files never meet) before it loads this.

load lab_helper

R=${RDMACTL_VM:-./rdmactl}

# shellcheck disable=SC2034 # read by bats
BATS_TEST_RETRIES=1

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	LAB_TIMEOUT=900 in_vm a "exec $R bench server port $SRV_PORT" >"$BATS_FILE_TMPDIR/server.out" 2>&1 &
	echo $! >"$BATS_FILE_TMPDIR/server.pid"
	in_vm a "wait_for 30 listening $SRV_PORT"
}

teardown_file() {
	[ -z "$LAB_SKIP" ] || return 0
	on a "pkill -INT -f 'bench server port $SRV_PORT' || true"
	wait "$(cat "$BATS_FILE_TMPDIR/server.pid")" 2>/dev/null || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown() {
	diagnose_failure
	note_retry
}

# rd NAME KEYWORDS: a bench client run on link rxe0 (-j), its document in
# $BATS_TEST_TMPDIR/NAME.json, checked against the schema.
rd() {
	local name=$1
	shift
	LAB_TIMEOUT=60 on b "$R -j bench client 198.18.1.1 port $SRV_PORT link rxe0 $*" \
		>"$BATS_TEST_TMPDIR/$name.json" || {
		cat "$BATS_TEST_TMPDIR/$name.json"
		return 1
	}
	"$TOP/tests/schema-check" "$BATS_TEST_TMPDIR/$name.json" >/dev/null ||
		fail "$name: not a valid bench-client document"
}

# jqf NAME FILTER: FILTER on run NAME's document.
jqf() {
	jq -r "$2" "$BATS_TEST_TMPDIR/$1.json"
}

# pt TOOL "OPTIONS": TOOL (ib_write_bw, ib_read_lat, ...) with OPTIONS, its
# server on a and its client on b over rxe0; the client's output on stdout,
# its stderr on stderr.  Run again, at most three tries, while perftest gives
# up with "Can't produce a report": it turns cycles into seconds with a CPU
# clock it estimates by a straight-line fit over rdtsc samples, and refuses
# a fit with r^2 < 0.9, which a loaded guest's preempted vCPU produces now
# and then (a CI run of 12-06: ib_read_bw -R, r^2 0.85).  A run that gives
# up has no figures to compare, so the retry hides nothing of rdmactl's.
pt() {
	local try rc out err="$BATS_TEST_TMPDIR/pt.stderr"
	for try in 1 2 3; do
		rc=0
		out=$(pt_once "$@" 2>"$err") || rc=$?
		{ echo "$out"; cat "$err"; } | grep -qF "Can't produce a report" || break
		[ "$try" = 3 ] || echo "# $1: perftest's CPU clock estimate failed, no report (try $try of 3)" >&3
	done
	echo "$out"
	cat "$err" >&2
	return $rc
}

# pt_once TOOL "OPTIONS": one run of pt.  PT_SECONDS: each side's time limit
# (default 40); PT_ON_PORT: the port to use (default the next PT_PORT);
# PT_UP: guest shell code defining up() PORT, true once a's server takes
# clients (default: it listens on the TCP port).
pt_once() {
	local tool=$1 opts=$2 spid rc=0 limit=${PT_SECONDS:-40} port=${PT_ON_PORT:-}
	# shellcheck disable=SC2016 # $1 is up()'s own, in the guest
	local up='up() { listening "$1"; }'
	if [ -z "$port" ]; then
		PT_PORT=$((PT_PORT + 1))
		port=$PT_PORT
	fi
	LAB_TIMEOUT=$((limit + 20)) in_vm a "x=\$(v2_gid_index rxe0 198.18.1.1) && exec timeout $limit $tool -d rxe0 -x \$x -p $port $opts" \
		>"$BATS_TEST_TMPDIR/pt.server" 2>&1 &
	spid=$!
	in_vm a "${PT_UP:-$up}; wait_for 20 up $port" >/dev/null || {
		kill "$spid" 2>/dev/null
		cat "$BATS_TEST_TMPDIR/pt.server"
		return 1
	}
	LAB_TIMEOUT=$((limit + 20)) in_vm b "x=\$(v2_gid_index rxe0 198.18.1.2) && timeout $limit $tool -d rxe0 -x \$x -p $port $opts 198.18.1.1" || rc=$?
	# A client that failed (no report, a refused connection) leaves its
	# server waiting for it until the limit: end it now.  The TERM goes to
	# the 'lab run' under the background job, which passes it on to the
	# guest's command and then exits.
	[ "$rc" = 0 ] || pkill -TERM -P "$spid" 2>/dev/null
	wait "$spid" || true
	return $rc
}
