#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# man pages: they render, and they cannot drift from the tables behind
# `rdmactl --help` and `rdmactl help VERB`, nor from the JSON the verbs print
load ../helpers

setup() {
	MAN=$TOP/man
	export RDMACTL HOSTS	# for the examples, run in a child shell
	# The dcbnl test double (tests/dcb-double): a simulated mlx5 NIC for the
	# netdevs the pfc and rdmactl.yaml(5) examples name.
	DOUBLE=${DCB_DOUBLE_SO:-$TOP/build/dcb-double/libdcbdouble.so}
	DD_DEVS="ens1f0np0 ens1f1np1 ens2f0np0"
	EMPTY=$BATS_TEST_TMPDIR/empty
	mkdir -p "$EMPTY"
}

# The double is built by make check and make check-cli: without it, the
# checkout is not built, not the machine short of something.
need_double() {
	[ -f "$DOUBLE" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	command -v jq >/dev/null || skip "jq not installed"
}

# rdmactl against the double, with the state in STATE (default: one per test).
dd() {
	LD_PRELOAD=$DOUBLE DCB_DOUBLE_DEVS=$DD_DEVS \
		DCB_DOUBLE_STATE=${STATE:-$BATS_TEST_TMPDIR/dd.state} "$RDMACTL" "$@"
}

# A directory with an "rdmactl" that is dd(), to run example lines as written.
dd_path() {
	local bin=$BATS_TEST_TMPDIR/ddbin
	mkdir -p "$bin"
	cat >"$bin/rdmactl" <<-EOF
	#!/bin/bash
	export LD_PRELOAD=$DOUBLE DCB_DOUBLE_DEVS="$DD_DEVS"
	export DCB_DOUBLE_STATE=\${STATE:-$BATS_TEST_TMPDIR/dd.state}
	exec "$RDMACTL" "\$@"
	EOF
	chmod +x "$bin/rdmactl"
	echo "$bin"
}

# The literal blocks of PAGE, one file each, DIR/block.N, in order.
split_blocks() {
	mkdir -p "$2"
	awk -v dir="$2" '/^```/ { if (inb) { inb = 0; close(f) } else { inb = 1; f = dir "/block." ++n; printf "" >f }; next }
		inb { print >f }' "$1"
}

# The verbs of `rdmactl --help`.
verbs() {
	"$RDMACTL" --help | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# The actions of `rdmactl help VERB`.
actions() {
	"$RDMACTL" help "$1" | sed -nE "s/^  rdmactl $1 ([a-z][a-z0-9-]*).*/\\1/p"
}

# The keywords of `rdmactl help VERB`, or of one of its ACTIONs: the first word
# of each line indented by six under an action, except the action's help line
# right below it.  A keyword with a long synopsis ("prio-pfc {all|P}:{on|off}...")
# has its help on the next line, indented further, which starts with a blank.
keywords() {
	"$RDMACTL" help "$1" | awk -v act="${2:+  rdmactl $1 $2}" '
		/^  [^ ]/ { sel = act == "" || $0 == act || index($0, act " ") == 1; skip = 1; next }
		skip { if (/^      [^ ]/) skip = 0; next }
		sel && /^      [^ ]/ { print $1 }' | sort -u
}

# A page documents KEY when it has it as a bold term: *KEY*.
assert_bold() {
	local page=$1 word
	shift
	for word in "$@"; do
		grep -qF -- "*$word*" "$page" || fail "${page##*/} does not document '$word' (as *$word*)"
	done
}

# The key paths of the JSON documents on stdin, arrays looked through,
# "counters" not descended into (its keys are the kernel's counter names).
# Every key counts, also those whose value is false or null.
json_paths() {
	jq -r '[paths | map(select(type == "string")) | join(".")] | unique[]' | sort -u
}

@test "every page renders with scdoc, without warnings" {
	command -v scdoc >/dev/null || skip "scdoc not installed"
	local page n=0
	for page in "$MAN"/*.scd; do
		run --separate-stderr scdoc <"$page"
		[ "$status" -eq 0 ] || fail "scdoc fails on ${page##*/}: $stderr"
		[ -z "$stderr" ] || fail "scdoc complains about ${page##*/}: $stderr"
		[[ $output == *'.TH "'* ]] || fail "${page##*/}: no .TH in the output"
		n=$((n + 1))
		if command -v man >/dev/null && command -v groff >/dev/null; then
			scdoc <"$page" >"$BATS_TEST_TMPDIR/page.8"
			run --separate-stderr man --warnings -l "$BATS_TEST_TMPDIR/page.8"
			[ -z "$stderr" ] || fail "groff warns about ${page##*/}: $stderr"
		fi
	done
	[ "$n" -ge 2 ]
}

@test "each page's title and file name agree" {
	local page name
	for page in "$MAN"/*.scd; do
		name=${page##*/}
		name=${name%.scd}
		assert_equal "$(head -1 "$page")" "${name%.*}(${name##*.})"
	done
}

@test "a page for rdmactl and one for every verb, listed in rdmactl(8)" {
	local v
	[ -f "$MAN/rdmactl.8.scd" ]
	[ -n "$(verbs)" ]
	for v in $(verbs); do
		[ -f "$MAN/rdmactl-$v.8.scd" ] || fail "verb '$v' has no man/rdmactl-$v.8.scd"
		grep -qF "*rdmactl-$v*(8)" "$MAN/rdmactl.8.scd" ||
			fail "rdmactl.8.scd does not refer to rdmactl-$v(8)"
		assert_bold "$MAN/rdmactl.8.scd" "$v"
	done
}

@test "every verb page's NAME line is the verb's summary in --help" {
	local v summary
	for v in $(verbs); do
		# The summary, its continuation lines (wrapped to 80 columns) joined.
		summary=$("$RDMACTL" --help | awk -v v="$v" '
			/^  [a-z]/ && $1 == v { sub(/^  [a-z]+ +/, ""); s = $0; on = 1; next }
			on && /^           [^ ]/ { sub(/^ +/, ""); s = s " " $0; next }
			{ on = 0 }
			END { print s }')
		[ -n "$summary" ]
		grep -qxF "rdmactl-$v - $summary" "$MAN/rdmactl-$v.8.scd" ||
			fail "rdmactl-$v.8.scd NAME is not 'rdmactl-$v - $summary'"
	done
}

@test "every global option of --help is in rdmactl(8)" {
	local opts short
	opts=$("$RDMACTL" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	short=$("$RDMACTL" --help | grep -oE -- '^  -[a-zA-Z],' | tr -d ' ,')
	[ "$(wc -l <<<"$opts")" -ge 10 ]
	# shellcheck disable=SC2086
	assert_bold "$MAN/rdmactl.8.scd" $opts $short
	# And each is described in GLOBAL OPTIONS, not merely mentioned.
	sed -n '/^# GLOBAL OPTIONS/,/^# /p' "$MAN/rdmactl.8.scd" >"$BATS_TEST_TMPDIR/global"
	# shellcheck disable=SC2086
	assert_bold "$BATS_TEST_TMPDIR/global" $opts $short
}

@test "rdmactl(8) has the sections it promises" {
	local s
	for s in NAME SYNOPSIS DESCRIPTION "GLOBAL OPTIONS" "EXIT STATUS" "JSON OUTPUT" \
		"KERNEL RECORDINGS" FILES ENVIRONMENT "SEE ALSO"; do
		grep -qx "# $s" "$MAN/rdmactl.8.scd" || fail "rdmactl.8.scd has no '# $s'"
	done
	assert_bold "$MAN/rdmactl.8.scd" NO_COLOR
	# The recording header is the one the transport writes and checks.
	local magic
	magic=$(sed -n 's/^#define NL_REC_MAGIC "\(.*\)"$/\1/p' "$TOP/lib/seam/nl.c")
	[ -n "$magic" ] || fail "NL_REC_MAGIC not found in lib/seam/nl.c"
	grep -qxF "$magic" "$MAN/rdmactl.8.scd"
}

@test "every action of 'help VERB' is in the verb's page, with its synopsis" {
	local v a synopsis line
	for v in $(verbs); do
		[ -n "$(actions "$v")" ]
		for a in $(actions "$v"); do
			grep -qx "## $v $a" "$MAN/rdmactl-$v.8.scd" ||
				fail "rdmactl-$v.8.scd has no section '## $v $a'"
			# `rdmactl help` prints "  rdmactl VERB ACTION SYNOPSIS"; the page's
			# synopsis line, without scdoc markup, must start with the same.
			synopsis=$("$RDMACTL" help "$v" | sed -nE "s/^  (rdmactl $v $a( .*)?)\$/\\1/p")
			line=$(grep -E "^\\*rdmactl $v $a\\*" "$MAN/rdmactl-$v.8.scd" | head -1 | tr -d '*_')
			[[ $line == "$synopsis"* ]] ||
				fail "rdmactl-$v.8.scd: '$line' does not start with '$synopsis'"
		done
	done
}

@test "every keyword of 'help VERB' is in the verb's page" {
	local v
	for v in $(verbs); do
		# shellcheck disable=SC2046
		assert_bold "$MAN/rdmactl-$v.8.scd" $(keywords "$v")
	done
	[ -n "$(keywords port)" ]
}

@test "every JSON key of port show, gids and stats is documented" {
	command -v jq >/dev/null || skip "jq not installed"
	local host n=0 key
	: >"$BATS_TEST_TMPDIR/keys"
	for host in "$HOSTS"/*/; do
		[ -d "$host/sys/class/infiniband" ] || continue
		n=$((n + 1))
		for a in show gids stats; do
			"$RDMACTL" --root "$host" -j port "$a" | json_paths >>"$BATS_TEST_TMPDIR/keys"
		done
		# Interval mode (a bundle with two samples): sample, interval_s, rates, and the
		# same counter objects.
		[ ! -e "$host/WINDOW" ] ||
			"$RDMACTL" --root "$host" -j port stats interval "$(cat "$host/WINDOW")" |
			json_paths >>"$BATS_TEST_TMPDIR/keys"
	done
	[ "$n" -gt 0 ] || fail "no fixture hosts in testdata/hosts"
	sort -u "$BATS_TEST_TMPDIR/keys" -o "$BATS_TEST_TMPDIR/keys"
	# Documented either as *key* or *parent.key*; array elements are documented
	# under the array ("ports", "gids", "stats").
	while read -r key; do
		case $key in
		*.*) key=${key#ports.} key=${key#gids.} key=${key#stats.} key=${key#counters.} ;;
		esac
		assert_bold "$MAN/rdmactl-port.8.scd" "$key"
	done <"$BATS_TEST_TMPDIR/keys"
}

@test "the port set JSON keys are documented" {
	# set is refused under --root, so its keys are listed here from port_set.c.
	assert_bold "$MAN/rdmactl-port.8.scd" netdev changed dry_run before after \
		before.mtu_bytes after.mtu_bytes before.admin_up after.admin_up before.operstate \
		after.operstate
	local key
	for key in netdev changed dry_run before after mtu_bytes admin_up operstate; do
		grep -qF "\"$key\"" "$TOP/cmd/port_set.c" || fail "port_set.c no longer emits '$key'"
	done
}

@test "the jq examples in the man pages run on the fixtures" {
	command -v jq >/dev/null || skip "jq not installed"
	local page line cmd host hosts out n=0
	for host in cx6dx degraded; do
		[ -d "$HOSTS/$host/sys/class/infiniband" ] || fail "fixture testdata/hosts/$host is missing"
	done
	# The examples name their fixtures relative to the checkout.
	cd "$TOP"
	for page in "$MAN"/*.scd; do
		# pfc reads dcbnl, which a fixture cannot answer: its examples run
		# under the dcb double, in "the pfc examples run ..." below.
		[[ $page == */rdmactl-pfc.8.scd ]] && continue
		# bench needs a server and RDMA devices and refuses --root: its
		# examples run in the lab (tests/lab/60-bench.bats).
		[[ $page == */rdmactl-bench.8.scd ]] && continue
		# "$ rdmactl ... | jq ..." lines of literal blocks, with "\\(" unescaped.
		# A filter may select nothing on one host (cx6dx is healthy), but not on
		# both.  Rates come from a bundle's two samples: an interval example runs
		# on two bundles that have them, over their 5 s window, once.
		while IFS= read -r line; do
			out=""
			hosts="cx6dx degraded"
			[[ $line != *" interval "* ]] || hosts="seed-gateway clean-2port"
			for host in $hosts; do
				cmd=${line#'$ '}
				cmd=${cmd//\\\\/\\}
				cmd="\"\$RDMACTL\" --root \"\$HOSTS/$host\"${cmd#rdmactl}"
				cmd=${cmd//interval 1 /interval 5 }
				cmd=${cmd//count 60/count 1}
				run bash -o pipefail -c "$cmd"
				[ "$status" -eq 0 ] || fail "${page##*/}: '$line' fails on $host: $output"
				out+=$output
			done
			[ -n "$out" ] || fail "${page##*/}: '$line' prints nothing on cx6dx and degraded"
			n=$((n + 1))
		done < <(grep -E '^\$ rdmactl .*\| *jq ' "$page" | grep -v -e '--root' -e '--replay')
	done
	[ "$n" -ge 5 ]
}

@test "the --root examples in the man pages run" {
	local page line cmd n=0
	cd "$TOP"
	for page in "$MAN"/*.scd; do
		while IFS= read -r line; do
			cmd=${line#'$ '}
			dir=$(sed -nE 's/.*--root ([^ ]+).*/\1/p' <<<"$cmd")
			[ -d "$dir/sys" ] || continue
			run bash -c "\"\$RDMACTL\"${cmd#rdmactl}"
			# 4: a --dry-run example that would change something.
			[ "$status" -eq 0 ] || { [ "$status" -eq 4 ] && [[ $cmd == *--dry-run* ]]; } ||
				fail "${page##*/}: '$line' fails: $output"
			n=$((n + 1))
		done < <(grep -E '^\$ rdmactl --root testdata/' "$page")
	done
	[ "$n" -ge 1 ] || fail "no example names a fixture: nothing was checked"
}

# ---- bench ------------------------------------------------------------------

# The JSON keys of bench, by their path in the document (arrays looked
# through).  The report needs two hosts with RDMA devices, so the keys are
# listed here from cmd/bench.c (the lab checks them on real runs); the
# server's document for a failed run is also read from a live server below.
BENCH_PARAM_KEYS="test msg_size_bytes qps_per_link tx_depth cq_mod post_list inline_bytes duration_s iters warmup_s interval_s
	traffic_class mtu_limit_bytes bidir cq_wait"
BENCH_ENDPOINT_KEYS="device port netdev gid_index gid ip"
BENCH_CLIENT_KEYS="time_origin server server_host links links.link links.local links.remote
	links.path_mtu_bytes links.status links.bytes links.msgs links.window_s links.gbps
	links.directions links.directions.client_to_server links.directions.server_to_client
	links.directions.client_to_server.requester total.directions
	links.mmsgs_per_s links.min_interval_gbps links.max_interval_gbps links.port_share_pct
	links.port_rate_gbps links.intervals_gbps links.completions links.post_calls links.flushed_requests links.latency_us links.latency_us.count
	links.latency_us.min links.latency_us.p50 links.latency_us.p99 links.latency_us.p99_9
	links.latency_us.max links.latency_us.mean links.latency_us.stdev
	links.latency_us.histogram links.latency_us.histogram.from_us links.latency_us.histogram.to_us
	links.latency_us.histogram.count links.cpu_s links.cq_wait
	links.longest_stall_s links.longest_stall_start_s links.longest_stall_end_s
	links.silent_to_end links.silent_from_s links.failed_completions links.error
	links.carrier_lost links.carrier_losses links.carrier_lost_at_s links.carrier_back_at_s
	links.outage_s links.counters links.peer links.peer.bytes links.peer.msgs
	links.peer.failed_completions total total.gbps total.mmsgs_per_s total.imbalance total.bytes
	total.msgs total.window_s total.host_cpu_pct sizes sizes.msg_size_bytes sizes.iters
	sizes.duration_s sizes.status sizes.error sizes.gbps sizes.mmsgs_per_s sizes.imbalance
	sizes.bytes sizes.msgs sizes.window_s sizes.host_cpu_pct sizes.latency_us error"
BENCH_SERVER_KEYS="run client status error links links.client_bytes links.received_bytes
	links.sent_bytes links.cq_wait links.failed_completions links.error links.remote.gid_index links.remote.gid
	links.remote.ip client_gbps sent_gbps"

@test "bench: the JSON keys of the client's report and the server's documents are documented" {
	local page=$MAN/rdmactl-bench.8.scd key k
	# Every key is still emitted by cmd/bench.c (its last path component).
	# shellcheck disable=SC2086
	for key in schema $BENCH_PARAM_KEYS $BENCH_ENDPOINT_KEYS $BENCH_CLIENT_KEYS $BENCH_SERVER_KEYS \
		group name value meaning; do
		k=${key##*.}
		[ "$k" = schema ] && continue
		grep -qF "\"$k\"" "$TOP/cmd/bench.c" || fail "cmd/bench.c no longer emits '$k'"
	done
	# shellcheck disable=SC2086
	assert_bold "$page" schema kind $BENCH_PARAM_KEYS $BENCH_CLIENT_KEYS $BENCH_SERVER_KEYS \
		group name value meaning tx_frames rx_frames
	for k in $BENCH_ENDPOINT_KEYS; do
		assert_bold "$page" "links.local.$k" "links.remote.$k"
	done
}

@test "bench: every key of a live server's document is documented" {
	command -v jq >/dev/null || skip "jq not installed"
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] ||
		skip "this host has RDMA devices: its server would offer ports"
	local port pid key
	# A port of this test's own, which no other test file running beside this one (BATS_JOBS)
	# can take between the pick and the server's bind: tests/helpers.bash's own_port.
	port=$(own_port)
	# The server needs an endpoint to start: it reads the rxe bundle's (issue 13).
	"$RDMACTL" --root "$HOSTS/rxe" -j bench server bind 127.0.0.1 port "$port" once \
		>"$BATS_TEST_TMPDIR/server.json" \
		2>"$BATS_TEST_TMPDIR/server.err" 3>&- &
	pid=$!
	# Listening: a line "N: 0100007F:PORT 00000000:0000 0A" in /proc/net/tcp
	# (up to 30 s: a sanitizer build on a busy machine starts slowly).
	for _ in $(seq 600); do
		grep -qE "^ *[0-9]+: 0100007F:$(printf %04X "$port") 00000000:0000 0A " /proc/net/tcp && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	run "$RDMACTL" bench client 127.0.0.1 port "$port"
	assert_failure 1
	# once: the server's status is the run's, which failed (no RDMA port here).  Waited for
	# in this shell: 'run wait' waits from a subshell, which is not the server's parent.
	local st=0
	wait "$pid" || st=$?
	[ "$st" -eq 1 ] || fail "the server exited $st, not 1: $(cat "$BATS_TEST_TMPDIR/server.err")"
	[ -s "$BATS_TEST_TMPDIR/server.json" ] || fail "the server printed nothing"
	while read -r key; do
		assert_bold "$MAN/rdmactl-bench.8.scd" "$key"
	done < <(json_paths <"$BATS_TEST_TMPDIR/server.json")
}

@test "bench: the limits the page states are bench.h's and bench_proto.h's" {
	local page=$MAN/rdmactl-bench.8.scd flat
	flat=$(tr -s '\n\t' '  ' <"$page")
	grep -qE '^#define RDC_BENCH_MAX_LINKS 16$' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_MAX_LINKS changed"
	grep -qE '^#define RDC_BENCH_MAX_QPS 64\b' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_MAX_QPS changed"
	grep -qE '^#define RDC_BENCH_MAX_SIZE \(16u << 20\)' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_MAX_SIZE changed"
	grep -qE '^#define RDC_BENCH_MAX_MEMORY \(1ull << 30\)' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_MAX_MEMORY changed"
	grep -qE '^#define RDC_BENCH_MAX_ENDPOINTS 32\b' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_MAX_ENDPOINTS changed"
	grep -qE '^#define RDC_BENCH_DEFAULT_PORT 18515\b' "$TOP/lib/bench/bench.h" || fail "RDC_BENCH_DEFAULT_PORT changed"
	grep -qE '^#define RDC_BENCH_PROTO_MAGIC "RDCB"$' "$TOP/lib/bench/proto.h" || fail "the magic changed"
	grep -qE '^#define RDC_BENCH_PROTO_VERSION 5\b' "$TOP/lib/bench/proto.h" || fail "the version changed"
	grep -qF "protocol version: 5" "$page" || fail "the page does not state protocol version 5"
	grep -qE '^#define RDC_ERR_MSG_LEN \(PATH_MAX \+ 256\)$' "$TOP/lib/base/err.h" || fail "RDC_ERR_MSG_LEN changed"
	grep -qF "a text of at most 4351 bytes" <<<"$flat" || fail "the page does not state ERROR's text limit"
	grep -qE '^#define RDC_BENCH_HDR_LEN 12$' "$TOP/lib/bench/proto.h" || fail "the header length changed"
	grep -qE '^#define RDC_BENCH_MAX_FRAME 65536$' "$TOP/lib/bench/proto.h" || fail "the frame limit changed"
	grep -qF "16 links per run, 64 QPs per link, 16 MiB per message, 1 GiB of registered memory per side and run, 32 endpoints per host" <<<"$flat" ||
		fail "rdmactl-bench.8.scd does not state the limits"
	grep -qF 'magic "RDCB"' "$page"
	grep -qF "payload length, at most 65536" "$page"
	# The message types, in bench_proto.h's order from 1.
	local types n=1 t
	types=$(sed -nE 's/^\s*RDC_BENCH_MSG_([A-Z_]+)( = 1)?,$/\1/p' "$TOP/lib/bench/proto.h")
	[ "$(wc -w <<<"$types")" -eq 9 ] || fail "bench_proto.h has other message types: $types"
	for t in $types; do
		grep -qF "$t $n" <<<"$flat" || fail "rdmactl-bench.8.scd does not say '$t $n'"
		n=$((n + 1))
	done
}

# ---- pfc and rdmactl.yaml(5) ----------------------------------------------

# The "source" values pfc show can give, and the sections they label.
PFC_SOURCES="dcbnl dcbnl-app ofed-sysfs configfs ethtool unknown"
PFC_SECTIONS="dcbx pfc trust dscp_prio ets maxrate buffer ecn cnp roce"

@test "pfc: every source value and section of pfc show is documented" {
	local w
	for w in $PFC_SOURCES $PFC_SECTIONS; do
		grep -qF "\"$w\"" "$TOP/cmd/pfc.c" || fail "cmd/pfc.c no longer emits '$w'"
	done
	# shellcheck disable=SC2086
	assert_bold "$MAN/rdmactl-pfc.8.scd" $PFC_SOURCES $PFC_SECTIONS source reason
	# Each source is a term of its own in the list of sources.
	for w in $PFC_SOURCES; do
		grep -qx "\*$w\*" "$MAN/rdmactl-pfc.8.scd" || fail "rdmactl-pfc.8.scd: no '*$w*' term"
	done
}

@test "pfc: the JSON keys of what the double cannot show are documented" {
	# MLNX_OFED's sysfs, rdma_cm configfs and the change files exist on no
	# test host; these keys are listed here from cmd/pfc.c and pfc_set.c.
	local key
	for key in netdev reason tx_pause_duration_us rx_pause_duration_us pause_duration_source \
		value np rp dscp prio device port default_roce_mode default_roce_tos; do
		grep -qF "\"$key\"" "$TOP/cmd/pfc.c" || fail "cmd/pfc.c no longer emits '$key'"
	done
	for key in ecn cnp roce reason value; do
		grep -qF "\"$key\"" "$TOP/cmd/pfc_set.c" || fail "cmd/pfc_set.c no longer emits '$key'"
	done
	# The verdict of a netdev without DCB (the double serves only its own NICs).
	for key in verdict profile matches differences what have want cnp_dscp cnp_prio; do
		grep -qF "\"$key\"" "$TOP/cmd/pfc.c" || fail "cmd/pfc.c no longer emits '$key'"
	done
	assert_bold "$MAN/rdmactl-pfc.8.scd" verdict.reason verdict.matches verdict.differences
	"$RDMACTL" -j pfc show dev lo | jq -e '.netdevs[0].verdict | has("reason") and .matches == null' >/dev/null ||
		fail "pfc show dev lo has no verdict.reason"
	assert_bold "$MAN/rdmactl-pfc.8.scd" trust.value trust.source ecn.source ecn.prios \
		ecn.prios.prio ecn.prios.np ecn.prios.rp cnp.source cnp.dscp cnp.prio roce \
		roce.device roce.port roce.source roce.default_roce_mode roce.default_roce_tos \
		pfc.prios.tx_pause_duration_us pfc.prios.rx_pause_duration_us \
		pfc.pause_duration_source before.ecn after.ecn before.cnp after.cnp before.roce after.roce total_size_bytes value
}

# A key path of pfc's JSON is documented as *path* after the "netdevs." of
# its array; inside before/after, as *before.KEY* and the element keys of
# KEY's objects (dscp_prio, files) by their own name.
assert_pfc_keys() {
	local key k
	while read -r key; do
		k=${key#netdevs.}
		case $k in
		*.reason) assert_bold "$MAN/rdmactl-pfc.8.scd" reason ;;	# of any unknown section
		before.*.* | after.*.*)
			k=${k#*.}
			assert_bold "$MAN/rdmactl-pfc.8.scd" "before.${k%%.*}" "after.${k%%.*}" "${k##*.}"
			;;
		*) assert_bold "$MAN/rdmactl-pfc.8.scd" "$k" ;;
		esac
	done
}

@test "pfc: every JSON key of pfc show, set and apply on the double is documented" {
	need_double
	local d=ens1f0np0
	{
		dd -j pfc show dev "$d" | json_paths
		dd -j pfc set dev "$d" prio-pfc all:off 3:on --dry-run | json_paths
		dd -j pfc apply dev "$d" profile roce-lossless --dry-run | json_paths
		dd -j pfc apply dev "$d" profile roce-lossless | json_paths
		dd -j pfc show dev "$d" | json_paths
	} | sort -u >"$BATS_TEST_TMPDIR/keys"
	grep -qx netdevs.pfc.prios.tx_pfc_frames "$BATS_TEST_TMPDIR/keys"
	grep -qx netdevs.after.dscp_prio.map.dscp "$BATS_TEST_TMPDIR/keys"
	grep -qx dry_run "$BATS_TEST_TMPDIR/keys"
	assert_pfc_keys <"$BATS_TEST_TMPDIR/keys"
	# And every "source" it gives is one of the documented ones.
	local src
	for src in $(dd -j pfc show dev "$d" | jq -r '.. | objects | .source? // empty' | sort -u); do
		[[ " $PFC_SOURCES " == *" $src "* ]] || fail "pfc show gives source '$src', not documented"
	done
}

@test "rdmactl.yaml(5) describes every key a device can have" {
	local page=$MAN/rdmactl.yaml.5.scd
	[ -f "$page" ]
	grep -qF '*rdmactl.yaml*(5)' "$MAN/rdmactl-pfc.8.scd" || fail "rdmactl-pfc.8 does not refer to rdmactl.yaml(5)"
	grep -qF '*rdmactl.yaml*(5)' "$MAN/rdmactl.8.scd" || fail "rdmactl.8 does not refer to rdmactl.yaml(5)"
	# The keys are the keywords of pfc set and apply, but -f.
	# shellcheck disable=SC2046
	assert_bold "$page" devices $(keywords pfc set) $(keywords pfc apply | grep -vx -- -f)
	[ -n "$(keywords pfc set)" ]
	# The limits it states are config.h's.
	local n
	for n in DEVICES KEYS WORDS; do
		grep -qE "^#define RDC_CFG_MAX_$n [0-9]+" "$TOP/lib/base/config.h" || fail "config.h: no RDC_CFG_MAX_$n"
	done
	grep -qF "At most $(sed -nE 's/^#define RDC_CFG_MAX_DEVICES ([0-9]+)/\1/p' "$TOP/lib/base/config.h") devices, $(sed -nE 's/^#define RDC_CFG_MAX_KEYS ([0-9]+)/\1/p' "$TOP/lib/base/config.h") keys" "$page"
	grep -qF "$(sed -nE 's/^#define RDC_CFG_MAX_WORDS ([0-9]+)/\1/p' "$TOP/lib/base/config.h") words per key" "$page"
}

@test "the YAML examples of rdmactl.yaml(5) apply, dry, on the double" {
	need_double
	local b n=0
	split_blocks "$MAN/rdmactl.yaml.5.scd" "$BATS_TEST_TMPDIR/blocks"
	for b in "$BATS_TEST_TMPDIR"/blocks/block.*; do
		grep -q '^devices:' "$b" || continue
		run dd pfc apply -f "$b" --dry-run
		# 4: it would change the double's boot defaults, as each example does.
		[ "$status" -eq 4 ] || fail "rdmactl.yaml.5.scd: example ${b##*.} exits $status: $output"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
}

# The example commands of PAGE ("$ rdmactl ..." and "# rdmactl ..." lines of
# literal blocks) run in order under the double, with a fresh NIC for each
# section; the output lines below a command (but "...") must be in what it
# prints, except in the sections listed in NOCHECK (illustrations the double
# cannot produce: configfs, ethtool).  /etc/rdmactl/pfc.yaml is the example
# file of rdmactl.yaml(5); "pfc show" without a device reads the cx6dx fixture
# (--root: its two ports' netdevs, with dcbnl answers recorded on a ConnectX-6 Dx).
# Sets RAN to the number of commands run.
run_page_examples() {
	local page=$1 nocheck=$2 kind line sect="" cmd="" out="" n=0 yaml bin
	split_blocks "$MAN/rdmactl.yaml.5.scd" "$BATS_TEST_TMPDIR/yblocks"
	yaml=$(grep -l '^# /etc/rdmactl/pfc.yaml' "$BATS_TEST_TMPDIR"/yblocks/block.* | head -1)
	[ -n "$yaml" ] || fail "rdmactl.yaml.5.scd has no /etc/rdmactl/pfc.yaml example"
	bin=$(dd_path)
	check() {
		[ -n "$cmd" ] || return 0
		local c=${cmd//\\\\/\\} want
		c=${c//\/etc\/rdmactl\/pfc.yaml/$yaml}
		[[ $c == *"pfc show"* && $c != *" dev "* ]] && c=${c/rdmactl /rdmactl --root $HOSTS/cx6dx }
		run env PATH="$bin:$PATH" STATE="$BATS_TEST_TMPDIR/state.$sect" bash -o pipefail -c "$c"
		# 4: a --dry-run example that would change something.
		[ "$status" -eq 0 ] || { [ "$status" -eq 4 ] && [[ $c == *--dry-run* ]]; } ||
			fail "${page##*/} ($sect): '$cmd' fails: $output"
		if [[ " $nocheck " != *" $sect "* ]]; then
			while IFS= read -r want; do
				[ -n "$want" ] || continue
				grep -qxF -- "$want" <<<"$output" ||
					fail "${page##*/} ($sect): '$cmd' does not print '$want'; it prints: $output"
			done <<<"$out"
		fi
		n=$((n + 1))
		cmd="" out=""
	}
	while IFS=$'\t' read -r kind line; do
		case $kind in
		S) check; sect=$line ;;
		C) check; cmd=$line ;;
		O) check ;;
		E) [ -n "$cmd" ] && [[ ! $line =~ ^[[:space:]]*\.\.\.$ ]] && out+=$line$'\n' ;;
		B) check ;;
		esac
	done < <(awk '
		/^```/ { if (inb) print "B\t"; inb = !inb; next }
		!inb && /^#+ / { s = $0; sub(/^#+ /, "", s); gsub(/ /, "_", s); print "S\t" s; next }
		inb && /^[$#] rdmactl / { print "C\t" substr($0, 3); next }
		inb && /^[$#] / { print "O\t"; next }
		inb { print "E\t" $0 }' "$MAN/$page")
	check
	RAN=$n
}

@test "the pfc examples run on the double and print what the page shows" {
	need_double
	RAN=0
	run_page_examples rdmactl-pfc.8.scd "pfc_show"
	[ "$RAN" -ge 10 ] || fail "only $RAN pfc examples ran"
	RAN=0
	run_page_examples rdmactl.yaml.5.scd ""
	[ "$RAN" -ge 2 ] || fail "only $RAN rdmactl.yaml examples ran"
}

@test "the roce-lossless profile is the pfc set the page says it is" {
	need_double
	local words
	# The "rdmactl pfc set dev NETDEV \\" block of rdmactl-pfc.8, one line.
	words=$(awk '/^rdmactl pfc set dev NETDEV/ { on = 1 } on { print; if (!/\\\\$/) exit }' \
		"$MAN/rdmactl-pfc.8.scd" | sed 's/ *\\\\$//' | tr '\n' ' ')
	[[ $words == "rdmactl pfc set dev NETDEV "* ]] || fail "no profile expansion in rdmactl-pfc.8.scd"
	words=${words#rdmactl pfc set dev NETDEV }
	# ECN and the RDMA-CM defaults are set only where MLNX_OFED's sysfs and the
	# netdev's RDMA ports are: not on the double's NIC.
	# (tests/unit/test_args.c proves the profile's want equals these keywords, ECN and RDMA-CM too.)
	for w in ecn roce-tos roce-mode; do
		[[ " $words " == *" $w "* ]] || fail "the profile expansion lacks '$w'"
		grep -qF "w->${w//-/_}" "$TOP/lib/dcb/profile.c" ||
			grep -qF "w->${w}_on" "$TOP/lib/dcb/profile.c" ||
			fail "rdc_dcb_profile_want() no longer sets '$w'"
	done
	words=$(sed -E 's/ ecn [^ ]+//; s/ roce-tos [^ ]+//; s/ roce-mode [^ ]+//' <<<" $words")
	# shellcheck disable=SC2086
	STATE=$BATS_TEST_TMPDIR/a run dd -j pfc set dev ens1f0np0 $words --dry-run
	assert_failure 4 # would change
	local set_after apply_after
	set_after=$(jq -c '.netdevs[0].after' <<<"$output")
	STATE=$BATS_TEST_TMPDIR/b run dd -j pfc apply dev ens1f0np0 profile roce-lossless --dry-run
	assert_failure 4 # would change
	apply_after=$(jq -c '.netdevs[0].after' <<<"$output")
	assert_equal "$set_after" "$apply_after"
	# The defaults the page states are lib/dcb/profile.c's.
	grep -qE '\.prio = 3, \.dscp = 26, \.cnp_dscp = 48, \.cnp_prio = 6' "$TOP/lib/dcb/profile.c" ||
		fail "the roce-lossless defaults in lib/dcb/profile.c changed"
}

@test "pfc: the error messages the page quotes are rdmactl's" {
	need_double
	local page=$MAN/rdmactl-pfc.8.scd
	run dd pfc set dev ens1f0np0 tc-bw 0:40 3:50 tc-tsa all:strict 0:ets 3:ets
	assert_failure 2
	grep -qxF "rdmactl: pfc: 'ens1f0np0': ETS TC bandwidths sum to 90%, not 100%" "$page"
	assert_line "rdmactl: pfc: 'ens1f0np0': ETS TC bandwidths sum to 90%, not 100%"
	run dd pfc set dev ens1f0np0 tc-bw 1:10
	assert_failure 2
	assert_line "rdmactl: pfc: 'ens1f0np0': TC 1 is not an ETS TC: its bandwidth must be 0"
	grep -qxF "${lines[0]}" "$page"
	run dd pfc set dev ens1f0np0 buffer-size 1:300000
	assert_failure 2
	grep -qxF "${lines[0]}" "$page" || fail "page does not quote '${lines[0]}'"
	run dd pfc set dev ens1f0np0 prio-pfc 8:on
	assert_failure 2
	grep -qxF "${lines[0]}" "$page" || fail "page does not quote '${lines[0]}'"
	run dd pfc set dev ens1f0np0 tc-tsa 1:cbs
	assert_failure 1
	assert_output "rdmactl: pfc: cannot set DCB of 'ens1f0np0': Invalid argument (old state restored)"
	grep -qxF "$output" "$page"
	# A netdev without dcbnl operations (loopback has none): unknown to show,
	# an error to set.
	run "$RDMACTL" -j pfc show dev lo
	assert_success
	assert_equal "$(jq -r '.netdevs[0].pfc | "\(.source): \(.reason)"' <<<"$output")" \
		"unknown: the driver implements no dcbnl operations"
	# The reasons are quoted in the list of sources (the page wraps lines).
	local flat reason
	flat=$(tr -s '\n\t' '  ' <"$page")
	for reason in "the driver implements no dcbnl operations" "not in the driver's dcbnl reply" \
		"no MLNX_OFED ecn sysfs on this driver"; do
		grep -qF "$reason" "$TOP/cmd/pfc.c" || fail "cmd/pfc.c no longer says '$reason'"
		grep -qF "\"$reason\"" <<<"$flat" || fail "rdmactl-pfc.8.scd does not quote '$reason'"
	done
	run "$RDMACTL" pfc set dev lo prio-pfc 3:on
	assert_failure 1
	assert_output --partial "cannot read DCB of 'lo': Operation not supported (its driver implements no dcbnl operations"
	grep -qF "${output#*\'lo\'}" "$page" || fail "page does not quote: $output"
}

@test "README: a page reads from the checkout as it says (man -l build/man/...)" {
	grep -qF 'man -l build/man/rdmactl-port.8' "$TOP/README" || fail "README does not say how"
	command -v man >/dev/null || fail "man not installed (scripts/install-deps test installs man-db)"
	local page
	for page in "$TOP"/build/man/*.[58]; do
		run --separate-stderr env MANPAGER=cat MANWIDTH=80 man -l "$page"
		assert_success
		local name=${page##*/}
		[[ $output == *"${name%.*}"* ]] || fail "$name: $output"
	done
}

@test "rdmactl(8): the bundle caps the page states are bundle.h's" {
	grep -qE '^#define RDC_BUNDLE_MAX_ENTRIES 100000u$' "$TOP/lib/host/bundle.h" || fail "RDC_BUNDLE_MAX_ENTRIES changed"
	grep -qE '^#define RDC_BUNDLE_MAX_BYTES \(128u << 20\)$' "$TOP/lib/host/bundle.h" || fail "RDC_BUNDLE_MAX_BYTES changed"
	tr -s '\n\t' '  ' <"$MAN/rdmactl.8.scd" | grep -qF "at most 100000 entries and 128 MiB unpacked"
}

@test "every write verb's page says how to change safely over SSH: --confirm, the locks, undo" {
	local v page
	for v in port pfc bond; do
		page=$TOP/man/rdmactl-$v.8.scd
		grep -qF -- '*--confirm* _SEC_' "$page" || fail "rdmactl-$v(8) does not give --confirm"
		grep -qF '*rdmactl confirm*' "$page" || fail "rdmactl-$v(8) does not say how to confirm"
		grep -qF '_/run/lock/rdmactl_' "$page" || fail "rdmactl-$v(8) does not name the locks"
		grep -qF '*rdmactl undo*' "$page" || fail "rdmactl-$v(8) does not say how to undo"
		for ref in rdmactl-confirm rdmactl-undo; do
			sed -n '/^# SEE ALSO/,$p' "$page" | grep -qF "*$ref*(8)" || fail "rdmactl-$v(8) SEE ALSO lacks $ref(8)"
		done
	done
	# The words the pages give run: --confirm after the verb is the global option.
	run rd cx6dx port set ens1f0np0 mtu 9000 --confirm 60
	assert_failure 1
	assert_output --partial "writes are refused under --root"
}
