#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $output and $stderr
# out_dash: `-` as a writer's FILE is standard output, never a file named "-"
# (diag metrics out, diag collect out, bench client metrics); where standard
# output already carries something else (--record, a JSON report) it is refused,
# and so is a terminal for a gzip tarball.  bench's metrics FILE is checked
# before the run, as diag's: never a device, link, FIFO or another user's file
# (issue 22).
load ../helpers
load bench_helpers

setup() {
	SCR=$BATS_TEST_TMPDIR/scratch
	mkdir -p "$SCR"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# No file named "-" was made here.
no_dash_file() {
	[ ! -e ./- ] || fail "a file named '-' was made: $(head -c 200 ./-)"
}

@test "out -: diag metrics writes the metrics to stdout, ./- names a file" {
	run --separate-stderr rd cx6dx diag metrics out -
	assert_success
	no_dash_file
	[[ $output == *"# TYPE rdmactl_scrape_success gauge"* ]] || fail "$output"
	# The same as without out (the timestamps aside).
	[ "$(grep -v -e _timestamp_seconds -e _duration_seconds <<<"$output")" = \
		"$(rd cx6dx diag metrics | grep -v -e _timestamp_seconds -e _duration_seconds)" ]
	run -0 rd cx6dx diag metrics out ./-
	[ -f ./- ] && grep -q '^rdmactl_scrape_success 1$' ./-
}

@test "out -: diag collect writes the gzip tarball to stdout, nothing else there, nothing left" {
	run -0 bash -c "TMPDIR='$SCR' '$RDMACTL' diag collect out - interval 0 >b.tar.gz"
	no_dash_file
	tar -tzf b.tar.gz >list
	grep -qx './kernel.rec' list
	grep -qx './VERSIONS' list
	[ -z "$(ls -A "$SCR")" ] || fail "left behind: $(ls -A "$SCR")"
	# It reads back as a bundle.
	run -0 env TMPDIR="$SCR" "$RDMACTL" --root b.tar.gz diag metrics out -
	assert_line "rdmactl_scrape_success 1"
	# -j has no document to print beside the tarball: a usage error, before any sampling.
	run --separate-stderr "$RDMACTL" -j diag collect out - interval 0
	assert_failure 2
	jq -e '.error.message == "collect out -: the bundle is the output; --json and --yaml do not apply"' \
		<<<"$output" >/dev/null || fail "$output"
	no_dash_file
}

@test "out -: diag collect refuses a terminal as tar and gzip do, exit 1, nothing written" {
	command -v script >/dev/null || skip "needs script(1) for a terminal"
	run script -qec "TMPDIR='$SCR' '$RDMACTL' diag collect out - interval 0; echo rc=\$?" /dev/null
	assert_output --partial "collect out -: standard output is a terminal, not writing a gzip tarball to it"
	assert_output --partial "rc=1"
	no_dash_file
	[ -z "$(ls -A "$SCR")" ] || fail "left behind: $(ls -A "$SCR")"
}

@test "out -: --record - is refused (stdout is the command's), exit 2, no file" {
	run "$RDMACTL" --record - port show
	assert_failure 2
	assert_output --partial "cannot record to '-': standard output carries the command's output; name a file (./- for one called '-')"
	no_dash_file
}

@test "out -: bench client metrics - is checked before the run (stdout after the report; never under -j)" {
	local port
	port=$(free_port)
	# -j: the report is the one document on stdout.
	run --separate-stderr "$RDMACTL" -j bench client 127.0.0.1 port "$port" metrics -
	assert_failure 2
	[[ $stderr == *"'metrics -': standard output holds the report's document; name a file"* ]] || fail "$stderr"
	[[ $stderr != *"cannot reach"* ]] || fail "connected first: $stderr"
	# Text: taken; without a server the run fails as ever, and no file named "-" appears.
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics -
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	no_dash_file
}

@test "bench client metrics FILE: never a device, link, FIFO or someone else's file, said before the run" {
	local port dir=$BATS_TEST_TMPDIR/t
	port=$(free_port)
	mkdir -p "$dir"
	# Nothing listens on $port: a check made after connecting would say "cannot reach" instead.
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics /dev/null
	assert_failure 1
	assert_equal "$stderr" "rdmactl: bench: cannot write '/dev/null': it is a device, which rdmactl does not replace (name a regular file)"
	[ -c /dev/null ]
	echo old >"$dir/target"
	ln -s "$dir/target" "$dir/link.prom"
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics "$dir/link.prom"
	assert_failure 1
	[[ $stderr == *"it is a symbolic link"* ]] || fail "$stderr"
	[ "$(cat "$dir/target")" = old ] && [ -L "$dir/link.prom" ]
	mkfifo "$dir/fifo.prom"
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics "$dir/fifo.prom"
	assert_failure 1
	[[ $stderr == *"it is a FIFO"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics "$dir"
	assert_failure 1
	[[ $stderr == *"it is a directory"* ]] || fail "$stderr"
	if [ "$(id -u)" -eq 0 ]; then
		echo theirs >"$dir/theirs.prom"
		chown 65534 "$dir/theirs.prom"
		run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics "$dir/theirs.prom"
		assert_failure 1
		[[ $stderr == *"it belongs to user 65534, not to us"* ]] || fail "$stderr"
		[ "$(cat "$dir/theirs.prom")" = theirs ]
	fi
	# A file it may replace passes the check: the run then fails on the missing server.
	run --separate-stderr "$RDMACTL" bench client 127.0.0.1 port "$port" metrics "$dir/new.prom"
	assert_failure 1
	[[ $stderr == *"cannot reach the bench server"* ]] || fail "$stderr"
	[ ! -e "$dir/new.prom" ]
}
