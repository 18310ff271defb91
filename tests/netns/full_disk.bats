#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $output
# full_disk: writers on a full file system (a 64 KiB tmpfs) keep the old file whole,
# say "No space left on device" and leave no temporary file; a scratch directory
# that cannot be removed is said, with its path and errno, and fails the run
# (issue 22).  Needs root: each test mounts in a private mount namespace.
load ../helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (mount in a private mount namespace)"
	unshare -m true 2>/dev/null || skip "needs unshare -m"
	SCR=$BATS_TEST_TMPDIR/scratch
	FULL=$BATS_TEST_TMPDIR/full
	mkdir -p "$SCR" "$FULL"
}

# Run a script in a private mount namespace with a 64 KiB tmpfs on $FULL, filled up
# but for an older bundle old.tar.gz and metrics old.prom; the script gets rdmactl as $1.
on_full_disk() {
	unshare -m bash -euc '
		mount --make-rprivate /
		mount -t tmpfs -o size=64k tmpfs "$FULL"
		cd "$FULL"
		head -c 3000 /dev/urandom >old.tar.gz
		chmod 600 old.tar.gz
		printf "rdmactl_scrape_success 1\n" >old.prom
		sha256sum old.tar.gz old.prom >"$BATS_TEST_TMPDIR/sums"
		dd if=/dev/zero of=filler bs=4k 2>/dev/null || true
		'"$1" _ "$RDMACTL"
}

@test "full disk: diag collect out FILE fails naming ENOSPC, the old bundle intact, no temporary file" {
	export FULL SCR BATS_TEST_TMPDIR
	run on_full_disk '
		rd=$1
		rc=0
		TMPDIR=$SCR $rd diag collect out old.tar.gz interval 0 || rc=$?
		echo "rc=$rc"
		sha256sum -c --quiet "$BATS_TEST_TMPDIR/sums" && echo "old intact"
		echo "left: $(ls -A | sort | tr "\n" " ")"'
	assert_line "rc=1"
	assert_line "rdmactl: diag: cannot write 'old.tar.gz': No space left on device"
	assert_line "old intact"
	assert_line "left: filler old.prom old.tar.gz "
	[ -z "$(ls -A "$SCR")" ] || fail "scratch left: $(ls -A "$SCR")"
}

@test "full disk: a default-named collect and diag metrics out FILE fail alike, nothing left" {
	export FULL SCR BATS_TEST_TMPDIR
	run on_full_disk '
		rd=$1
		rc=0
		TMPDIR=$SCR $rd diag collect interval 0 || rc=$?
		echo "collect rc=$rc"
		rc=0
		$rd --root "'"$HOSTS"'/rxe" diag metrics out old.prom || rc=$?
		echo "metrics rc=$rc"
		sha256sum -c --quiet "$BATS_TEST_TMPDIR/sums" && echo "old intact"
		echo "left: $(ls -A | sort | tr "\n" " ")"'
	assert_line "collect rc=1"
	assert_line --regexp "^rdmactl: diag: cannot write 'rdmactl-bundle-[0-9T]+Z\.tar\.gz': No space left on device$"
	assert_line "metrics rc=1"
	assert_line "rdmactl: diag: cannot write 'old.prom': No space left on device"
	assert_line "old intact"
	# No empty reserved bundle name, no temporary file.
	assert_line "left: filler old.prom old.tar.gz "
	[ -z "$(ls -A "$SCR")" ] || fail "scratch left: $(ls -A "$SCR")"
}

@test "scratch removal: a directory that cannot be removed is said with its path and errno, exit 1" {
	export SCR BATS_TEST_TMPDIR
	# While collect samples, a mount point appears in its scratch directory:
	# rmdir(2) on it is EBUSY, as for anything the walk cannot remove.
	run unshare -m bash -euc '
		mount --make-rprivate /
		rd=$1
		cd "$BATS_TEST_TMPDIR"
		TMPDIR=$SCR $rd diag collect out b.tar.gz interval 3 2>err &
		for ((i = 0; i < 50; i++)); do
			s=$(ls -d "$SCR"/rdmactl-bundle.* 2>/dev/null) && break
			sleep 0.1
		done
		mkdir "$s/pin"
		mount -t tmpfs tmpfs "$s/pin"
		rc=0
		wait $! || rc=$?
		echo "rc=$rc"
		cat err
		tar -tzf b.tar.gz | grep -qx ./kernel.rec && echo "bundle written"
		umount "$s/pin"
		rm -rf "$s"' _ "$RDMACTL"
	assert_line "rc=1"
	assert_line --regexp "^rdmactl: diag: cannot remove scratch '$SCR/rdmactl-bundle\.[A-Za-z0-9]{6}/pin': Device or resource busy$"
	assert_line "bundle written"
}
