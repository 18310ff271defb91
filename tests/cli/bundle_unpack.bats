#!/usr/bin/env bats
# shellcheck disable=SC2154 # bats' run sets $output
# bundle_unpack: a .tar.gz given to --root is unpacked safely: tar by its path in a clean
# environment, a colon in the name is a file, caps before anything is written, and the
# scratch directory goes however rdmactl ends (issue 22).
load ../helpers

setup() {
	SCR=$BATS_TEST_TMPDIR/scratch
	mkdir -p "$SCR"
	B=$BATS_TEST_TMPDIR/gw1:2026-12-02.tar.gz
	tar -C "$HOSTS/rxe" -czf "$B" --force-local .
}

# Nothing left in the scratch folder within 2 s (the guard removes it after rdmactl ended).
scratch_empty() {
	local i
	for ((i = 0; i < 20; i++)); do
		[ -n "$(ls -A "$SCR")" ] || return 0
		sleep 0.1
	done
	fail "left behind: $(ls -A "$SCR")"
}

@test "bundle: a colon in the name is a file; TAR_OPTIONS, GZIP and a tar on PATH change nothing" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho fake tar >&2\nexit 1\n' >"$BATS_TEST_TMPDIR/bin/tar"
	chmod +x "$BATS_TEST_TMPDIR/bin/tar"
	run --separate-stderr env TMPDIR="$SCR" TAR_OPTIONS="--absolute-names --verbose" GZIP=-9v \
		PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$RDMACTL" --root "$B" -j port show
	assert_success
	jq -e '[.ports[].device] == ["rxe0", "rxe1"]' <<<"$output" >/dev/null || fail "$output"
	[ -z "$stderr" ] || fail "stderr: $stderr"
	scratch_empty
}

@test "bundle: the scratch directory goes on SIGINT, SIGTERM, SIGHUP, SIGKILL and SIGPIPE" {
	local sig pid i BIG
	BIG=$BATS_TEST_TMPDIR/cx6dx.tar.gz
	tar -C "$HOSTS/cx6dx" -czf "$BIG" .
	for sig in INT TERM HUP KILL; do
		# rdmactl held mid-run: blocked writing 30 KiB of YAML (not JSON, which the cli
		# tier's json-capture would copy) to a reader that never reads, through a pipe of
		# one page (F_SETPIPE_SZ).  A shell's background job ignores SIGINT: the default
		# goes back, as a terminal's would be.
		rm -f "$BATS_TEST_TMPDIR/pid"
		python3 -c '
import fcntl, os, signal, subprocess, sys
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ
p = subprocess.Popen(sys.argv[2:], stdout=w, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
os.close(w)
with open(sys.argv[1] + ".new", "w") as f:
    f.write(str(p.pid))
os.rename(sys.argv[1] + ".new", sys.argv[1])
p.wait()
' "$BATS_TEST_TMPDIR/pid" env TMPDIR="$SCR" "$RDMACTL" --root "$BIG" --yaml port stats &
		for ((i = 0; i < 50; i++)); do
			[ -z "$(ls -A "$SCR")" ] || [ ! -s "$BATS_TEST_TMPDIR/pid" ] || break
			sleep 0.1
		done
		[ -n "$(ls -A "$SCR")" ] || fail "$sig: no scratch directory was made"
		pid=$(cat "$BATS_TEST_TMPDIR/pid")
		sleep 0.3
		kill -0 "$pid" || fail "$sig: rdmactl ended before the signal (not held by the full pipe)"
		kill -"$sig" "$pid"
		wait $! || true
		scratch_empty
	done
	# A reader that leaves after one line, while rdmactl still has 26 KiB to write
	# into a pipe of one page: rdmactl dies of SIGPIPE.
	run python3 -c '
import fcntl, os, signal, subprocess, sys
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_DFL))
os.close(w)
with os.fdopen(r, "rb") as f:
    print(f.readline().decode().rstrip())
p.wait()
print("exit", p.returncode)
' env TMPDIR="$SCR" "$RDMACTL" --root "$BIG" --yaml port stats
	assert_success
	assert_output "schema: 3
exit -13"
	scratch_empty
}

@test "bundle: over the caps (bytes) is refused before anything is unpacked" {
	local big=$BATS_TEST_TMPDIR/big
	mkdir -p "$big"
	cp -a "$HOSTS/rxe/." "$big/"
	# 129 MiB of zeros: a few hundred KB of gzip, over the 128 MiB cap when unpacked.
	head -c $((129 << 20)) /dev/zero >"$big/filler"
	tar -C "$big" -czf "$BATS_TEST_TMPDIR/bomb.tar.gz" .
	rm -rf "$big"
	run env TMPDIR="$SCR" "$RDMACTL" --root "$BATS_TEST_TMPDIR/bomb.tar.gz" port show
	assert_failure 1
	assert_output --partial "more than 128 MiB unpacked: not a bundle rdmactl made"
	[ -z "$(ls -A "$SCR")" ] || fail "unpacked: $(ls -A "$SCR")"
}

@test "bundle: a gzip file that is not a tar, or a tar that is cut short: exit 1, nothing left" {
	# GNU tar reads 9 bytes of non-tar as an empty archive: an empty root, no ports.
	printf 'not a tar' | gzip >"$BATS_TEST_TMPDIR/x.tar.gz"
	run env TMPDIR="$SCR" "$RDMACTL" --root "$BATS_TEST_TMPDIR/x.tar.gz" port show
	assert_failure 1
	[ -z "$(ls -A "$SCR")" ]
	head -c 2000 "$B" >"$BATS_TEST_TMPDIR/cut.tar.gz"
	run env TMPDIR="$SCR" "$RDMACTL" --root "$BATS_TEST_TMPDIR/cut.tar.gz" port show
	assert_failure 1
	assert_output --partial "tar could not list the bundle"
	[ -z "$(ls -A "$SCR")" ]
}

@test "bundle: a corrupt kernel.rec fails (exit 1) and the scratch directory is gone when rdmactl ends" {
	local bad=$BATS_TEST_TMPDIR/bad i
	mkdir -p "$bad"
	cp -a "$HOSTS/rxe/." "$bad/"
	printf 'not a recording\n' >"$bad/kernel.rec"
	tar -C "$bad" -czf "$BATS_TEST_TMPDIR/badrec.tar.gz" .
	for i in 1 2 3; do
		run env TMPDIR="$SCR" "$RDMACTL" --root "$BATS_TEST_TMPDIR/badrec.tar.gz" port show
		assert_failure 1
		assert_output --partial "is not an rdmactl kernel recording"
		# Removed by rdmactl itself before it ended, not a moment later by its guard.
		[ -z "$(ls -A "$SCR")" ] || fail "run $i left behind: $(ls -A "$SCR")"
	done
}

@test "bundle: over the caps (entries) is refused before anything is unpacked" {
	# 100001 entries of one empty file (tar stores each again): one past the cap, 270 KB.
	: >"$BATS_TEST_TMPDIR/e"
	(cd "$BATS_TEST_TMPDIR" && yes e | head -n 100001 | tar -czf many.tar.gz -T -)
	run env TMPDIR="$SCR" "$RDMACTL" --root "$BATS_TEST_TMPDIR/many.tar.gz" port show
	assert_failure 1
	assert_output --partial "more than 100000 entries: not a bundle rdmactl made"
	[ -z "$(ls -A "$SCR")" ] || fail "unpacked: $(ls -A "$SCR")"
}
