#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Makefile: the flags are a dependency of every object and of the link.
load ../helpers

# Under make check or make asan, the outer make's variables (WERROR=1,
# BUILD=build-asan, its OPT and LDFLAGS) are in the environment: the copy
# below is built with the Makefile's defaults instead.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES BUILD OPT CFLAGS LDFLAGS LDLIBS WERROR CC V LAB_APART

# A copy of what `make rdmactl` reads, built once with the base flags: the
# defaults but OPT=-O0 (half the CPU of -O2 -g; what the tests below ask of the
# Makefile does not depend on which flags, only on whether they changed).
BASE_OPT=-O0
setup_file() {
	export SRC=$BATS_FILE_TMPDIR/src
	mkdir -p "$SRC/tests/dcb-double"
	cp -r "$TOP/Makefile" "$TOP/lib" "$TOP/cmd" "$SRC/"
	cp "$TOP/tests/dcb-double/double.mk" "$SRC/tests/dcb-double/"
	make -s -C "$SRC" -j"$(nproc)" OPT="$BASE_OPT" rdmactl >/dev/null
}

# How many sources `make -n ARGS... rdmactl` would compile; "link" if it would link.
# The base flags unless ARGS say otherwise (the last OPT= on make's command line wins).
planned() {
	local out
	out=$(make -n -C "$SRC" OPT="$BASE_OPT" "$@" rdmactl) || return 1
	grep -c -- ' -c -o build/' <<<"$out" || true
	grep -q -- '-o rdmactl ' <<<"$out" && echo link
	return 0
}

sources() {
	(cd "$SRC" && ls lib/*/*.c cmd/*.c | wc -l)
}

@test "make: nothing to do after a build with the same flags" {
	run planned
	assert_success
	assert_output 0
	# The flags file is not rewritten when nothing changed.
	local before
	before=$(date -r "$SRC/build/.flags" +%s.%N)
	make -s -C "$SRC" OPT="$BASE_OPT" rdmactl
	assert_equal "$(date -r "$SRC/build/.flags" +%s.%N)" "$before"
}

@test "make: WERROR, OPT, CFLAGS, CC or LDFLAGS recompile every object and relink" {
	local n arg
	n=$(sources)
	[ "$n" -gt 20 ]
	for arg in WERROR=1 OPT=-O1 CFLAGS=-O1 CC=gcc LDFLAGS=-Wl,-O1 "LDLIBS=-lm -pthread"; do
		run planned "$arg"
		assert_success
		assert_equal "$output" "$(printf '%s\n' "$n" link)"
	done
	# make -n changed nothing: still up to date with the default flags.
	run planned
	assert_output 0
}

@test "make: a real build with other flags is up to date for them, not for the base ones" {
	local n
	n=$(sources)
	run make -C "$SRC" -j"$(nproc)" OPT="-O0 -g0" rdmactl
	assert_success
	assert_equal "$(grep -c '^  CC ' <<<"$output")" "$n"
	assert_line "  LD      rdmactl"
	grep -q -- ' -O0 -g0 ' "$SRC/build/.flags"
	run planned OPT="-O0 -g0"
	assert_output 0
	run planned
	assert_output "$(printf '%s\n' "$n" link)"
}

@test "link: rdmactl starts without RDMA's libraries; a listing loads none of them" {
	# libibverbs needs libnl-route-3, whose constructors ran at every start:
	# bench and the live GID table dlopen() them (lib/kernel/verbs_lib.h).
	run readelf -d "$SRC/rdmactl"
	assert_success
	assert_output --partial 'libnl-3.so'
	refute_output --partial 'libibverbs'
	refute_output --partial 'librdmacm'
	refute_output --partial 'libnl-route'
	run env LD_DEBUG=files "$SRC/rdmactl" --root "$TOP/testdata/hosts/cx6dx" port gids
	assert_success
	assert_output --partial 'mlx5_0'
	refute_output --partial 'libibverbs'
	refute_output --partial 'libnl-route'
}

@test "README: its test command is exactly what .ci/run runs, and docs/HACKING.md names it" {
	local ci
	ci=$(grep -E '^scripts/install-deps ' "$TOP/.ci/run")
	[ "$(wc -l <<<"$ci")" -eq 1 ]
	grep -qxF "    $ci" "$TOP/README" || fail "README does not show: $ci"
	grep -qF "\`$ci\`" "$TOP/docs/HACKING.md" || fail "docs/HACKING.md does not show: $ci"
}

@test "make ci: check and asan run every tier once, the lab's apart (LAB_APART), nothing twice" {
	local with apart asan
	with=$(make -s -n -C "$TOP" check asan | grep -E '(^|[[:space:]])tests/run ' | sed 's/.*tests\/run //')
	apart=$(make -s -n -C "$TOP" check asan LAB_APART=1 | grep -E '(^|[[:space:]])tests/run ' |
		sed 's/.*tests\/run //')
	# The sanitizer run's tiers (its make is not a literal $(MAKE) line: -n does not run it).
	asan=$(make -s -n -C "$TOP" asan-check ASAN_AFTER_CHECK=1 LAB_APART=1 |
		grep -E '(^|[[:space:]])tests/run ' | sed 's/.*tests\/run //')
	# check's line has lab; with LAB_APART the same tiers but lab.
	[[ " $with " == *" lab "* ]] || fail "check without LAB_APART: $with"
	[[ " $apart " != *" lab "* ]] || fail "check with LAB_APART: $apart"
	[ "$(tr ' ' '\n' <<<"$with" | grep -v '^lab$' | grep . | sort)" = \
		"$(tr ' ' '\n' <<<"$apart" | grep . | sort)" ] || fail "tiers differ: $with / $apart"
	# Every tier in one of the two runs; only unit and cli in both (the plain run keeps the
	# cli files that test the tree, the sanitizer run the others).  netns and corrupt run
	# under the sanitizers only.
	[ "$asan" = "unit cli corrupt netns" ] || fail "asan runs: $asan"
	[[ " $with " != *" netns "* && " $with " != *" corrupt "* ]] || fail "check runs netns or corrupt too: $with"
	[ "$(tr ' ' '\n' <<<"$with $asan" | grep . | sort -u | tr '\n' ' ')" = \
		"ansible cli corrupt fuzz lab netns package unit " ]
	# tests/ci starts the lab by itself, runs lint and format-check, then check and asan
	# in one make (which splits the cli files between them) with LAB_APART=1.
	grep -q 'tests/run lab' "$TOP/tests/ci"
	grep -qE 'make_\[@\]\}" lint format-check 2>&1' "$TOP/tests/ci"
	grep -qE 'make_\[@\]\}" check asan LAB_APART=1' "$TOP/tests/ci"
	run env CI_NICE=20 "$TOP/tests/ci"
	assert_failure 2
	assert_output --partial "CI_NICE must be 0 to 19"
}

# make asan's SANITIZER_LOG_DIR: AddressSanitizer writes its reports to files there
# (log_path), and tests/run fails the tier that left one, even where the test itself
# passed (a test that expects exit status 1 passes on AddressSanitizer's exit 1 too).
# sanitizer_tree NAME: a copy of tests/run in $BATS_TEST_TMPDIR/tree (sets tree) and a
# unit test binary units/test_NAME that runs stdin's lines, with $path where
# AddressSanitizer would write (log_path from ASAN_OPTIONS; .PID added), then passes by
# its own TAP.
sanitizer_tree() {
	tree=$BATS_TEST_TMPDIR/tree
	mkdir -p "$tree/tests" "$tree/units"
	cp "$TOP/tests/run" "$tree/tests/"
	{
		cat <<'HEAD'
#!/bin/bash
path=${ASAN_OPTIONS##*log_path=}
path=${path%%:*}
HEAD
		cat
		echo "printf '1..1\nok 1 - passes by its own account\n'"
	} >"$tree/units/test_$1"
	chmod 755 "$tree/units/test_$1"
}

@test "tests/run: a sanitizer report fails its tier, whatever its test said" {
	local tree logs=$BATS_TEST_TMPDIR/reports
	sanitizer_tree reported <<'UNIT'
[ "$path" != "$ASAN_OPTIONS" ] || exit 3
echo 'SUMMARY: AddressSanitizer: heap-use-after-free x.c:7 in f' >"$path.$$"
UNIT
	run env UNIT_DIR="$tree/units" SANITIZER_LOG_DIR="$logs" "$tree/tests/run" unit
	assert_failure
	assert_line "not ok - unit: 1 sanitizer report(s), in $logs/unit"
	assert_output --regexp "# report\.[0-9]+: SUMMARY: AddressSanitizer: heap-use-after-free x\.c:7 in f"
	assert_line "1 passed, 1 failed, 0 skipped"
	compgen -G "$logs/unit/report.*" >/dev/null
	# No report: the same tier passes, its check counted; without the variable, no check.
	sed -i '/SUMMARY/d' "$tree/units/test_reported"
	run env UNIT_DIR="$tree/units" SANITIZER_LOG_DIR="$logs" "$tree/tests/run" unit
	assert_success
	assert_line "ok - unit: no sanitizer report"
	assert_line "2 passed, 0 failed, 0 skipped"
	[ -z "$(compgen -G "$logs/unit/report.*")" ] || fail "a report in $logs/unit"
	run env -u SANITIZER_LOG_DIR ASAN_OPTIONS= UNIT_DIR="$tree/units" "$tree/tests/run" unit
	assert_failure
	assert_line "0 passed, 1 failed, 0 skipped"
	# A relative folder would move with each test's working directory: refused.
	run env UNIT_DIR="$tree/units" SANITIZER_LOG_DIR=reports "$tree/tests/run" unit
	assert_failure 2
	assert_output --partial "SANITIZER_LOG_DIR must be an absolute path"
}

@test "tests/run: rdmactl run as another user reports into the spool too" {
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || skip "needs root and setpriv"
	local tree logs=$BATS_TEST_TMPDIR/reports
	# As tests/cli/metrics.bats runs rdmactl: as nobody, who cannot reach the checkout.
	sanitizer_tree nobody <<'UNIT'
setpriv --reuid=65534 --regid=65534 --clear-groups \
	bash -c 'echo "SUMMARY: AddressSanitizer: 64 byte(s) leaked" >"$1.$$"' _ "$path" || exit 3
UNIT
	run env UNIT_DIR="$tree/units" SANITIZER_LOG_DIR="$logs" "$tree/tests/run" unit
	assert_failure
	assert_line "not ok - unit: 1 sanitizer report(s), in $logs/unit"
	assert_line "1 passed, 1 failed, 0 skipped"
}
