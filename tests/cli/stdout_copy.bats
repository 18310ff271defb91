#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# RDMACTL_STDOUT_COPY_FD (cmd/stdout_copy.c) and tests/json-capture, which uses it: rdmactl
# copies its standard output itself, so the copy is whole when rdmactl has exited and the
# reader sees rdmactl's lines where rdmactl wrote them.
load ../helpers

# The binary itself, not the tiers' json-capture that may stand in for it.
BIN=${RDMACTL_REAL:-$RDMACTL}
HOST=$HOSTS/ab-2nic
# Runs argv with stdout on a pipe whose read end is closed; prints how it ended (-N: signal N).
closed_pipe='
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
print(subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL, pass_fds=(7,) if os.environ.get("RDMACTL_STDOUT_COPY_FD") else ()).returncode)'

@test "stdout copy: the copy is what stdout got, byte for byte, text and JSON, pipe and file" {
	local c=$BATS_TEST_TMPDIR/copy
	RDMACTL_STDOUT_COPY_FD=7 "$BIN" -j port --root "$HOST" 7>"$c.pipe" | cat >"$c.got"
	[ -s "$c.got" ]
	cmp "$c.got" "$c.pipe"
	RDMACTL_STDOUT_COPY_FD=7 "$BIN" port --root "$HOST" >"$c.file" 7>"$c.file.copy"
	[ -s "$c.file" ]
	cmp "$c.file" "$c.file.copy"
	# A failure's document (usage error under -j) is copied too.
	RDMACTL_STDOUT_COPY_FD=7 "$BIN" -j port --root "$HOST" nosuchword 7>"$c.err" >"$c.err.got" || true
	[ -s "$c.err.got" ]
	cmp "$c.err.got" "$c.err"
}

@test "stdout copy: rdmactl's lines come before the next command's in one pipe, and the copy is whole at exit" {
	local c=$BATS_TEST_TMPDIR/copy i
	for i in 1 2 3 4 5; do
		RDMACTL_STDOUT_COPY_FD=7 run bash -c '"$1" -j port --root "$2" 7>"$3"; echo next; wc -c <"$3"' \
			_ "$BIN" "$HOST" "$c.$i"
		assert_success
		[ "${lines[-2]}" = next ]
		# What the pipe got before "next" is the document, and the copy held all of it
		# when the shell read its size.
		[ "${lines[-1]}" -eq "$(stat -c %s "$c.$i")" ]
		[ "${lines[-1]}" -gt 100 ]
		printf '%s\n' "${lines[@]:0:${#lines[@]}-2}" | cmp - "$c.$i"
	done
}

@test "stdout copy: a full disk and a closed pipe stay rdmactl's own errors" {
	local c=$BATS_TEST_TMPDIR/copy plain
	run bash -c '"$1" -j port --root "$2" >/dev/full' _ "$BIN" "$HOST"
	plain="$status $output"
	RDMACTL_STDOUT_COPY_FD=7 run bash -c '"$1" -j port --root "$2" >/dev/full 7>"$3"' _ "$BIN" "$HOST" "$c.full"
	[ "$status $output" = "$plain" ]
	assert_failure 1
	assert_output --partial "No space left on device"
	# Nothing reached stdout, so nothing was copied.
	[ ! -s "$c.full" ]
	# A pipe whose reader is gone before rdmactl starts: SIGPIPE, as without the copy.
	run python3 -c "$closed_pipe" "$BIN" -j port --root "$HOST"
	assert_output "-13"
	RDMACTL_STDOUT_COPY_FD=7 run bash -c 'exec 7>"$1"; shift; exec python3 -c "$@"' \
		_ "$c.pipe" "$closed_pipe" "$BIN" -j port --root "$HOST"
	assert_output "-13"
	[ ! -s "$c.pipe" ]
}

@test "stdout copy: a value that is not a writable descriptor above 2 is a usage error" {
	local v
	for v in x 1 2 -3 7x 99999999999 ''; do
		RDMACTL_STDOUT_COPY_FD=$v run "$BIN" -j port --root "$HOST"
		assert_failure 2
		assert_output --partial "RDMACTL_STDOUT_COPY_FD=$v: not a file descriptor above 2"
	done
	RDMACTL_STDOUT_COPY_FD=7 run "$BIN" -j port --root "$HOST" 7</dev/null
	assert_failure 2
	assert_output "rdmactl: RDMACTL_STDOUT_COPY_FD=7: not a descriptor open for writing"
	# Not open at all.
	RDMACTL_STDOUT_COPY_FD=57 run "$BIN" -j port --root "$HOST"
	assert_failure 2
	assert_output --partial "not a descriptor open for writing"
}

@test "json-capture: keeps each JSON run's document and arguments, nothing for text, help or completion" {
	local cap=$BATS_TEST_TMPDIR/cap f
	mkdir "$cap"
	run env RDMACTL_REAL="$BIN" RDMACTL_CAPTURE_DIR="$cap" "$TOP/tests/json-capture" -j port --root "$HOST"
	assert_success
	f=$(ls "$cap"/*.json)
	[ "$(printf '%s\n' "$output")" = "$(cat "$f")" ]
	grep -q -- "-j port --root" "${f%.json}.cmd"
	# Text, help and completion runs leave nothing; neither does the variable reach a run.
	env RDMACTL_REAL="$BIN" RDMACTL_CAPTURE_DIR="$cap" "$TOP/tests/json-capture" port --root "$HOST" >/dev/null
	env RDMACTL_REAL="$BIN" RDMACTL_CAPTURE_DIR="$cap" "$TOP/tests/json-capture" -j help >/dev/null
	env RDMACTL_REAL="$BIN" RDMACTL_CAPTURE_DIR="$cap" "$TOP/tests/json-capture" __complete port -j '' >/dev/null || true
	[ "$(ls "$cap" | wc -l)" -eq 2 ]
	# Its exit status is rdmactl's.
	run env RDMACTL_REAL="$BIN" RDMACTL_CAPTURE_DIR="$cap" "$TOP/tests/json-capture" -j port --root "$HOST" nosuchword
	assert_failure 1
	assert_output --partial '"kind":"error"'
}
