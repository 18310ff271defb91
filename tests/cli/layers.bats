#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154,SC2016 # bats' run sets $stderr; sed scripts in single quotes
# scripts/check-layers: every #include "..." of lib/*/*.[ch] and cmd/*.[ch] points down
load ../helpers

CHECK=$TOP/scripts/check-layers

# The rules as the design states them (docs/HACKING.md): LAYER: what it may
# include besides its own folder.  Written here again on purpose, to test the
# script's table against it.
SPEC="uapi:
base: uapi
out: base
seam: base
kernel: seam base uapi
host: kernel seam base
dcb: host kernel seam base
bench: host kernel seam base
bond: host kernel seam base
diag: host dcb bond base
cmd: base out host dcb bench bond diag"

setup() {
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T"
}

# A copy of lib/ with a cmd/ that includes only what it may.
clean_tree() {
	cp -r "$TOP/lib" "$T/"
	mkdir -p "$T/cmd"
	printf '#pragma once\n#include "base/err.h"\n#include "out/out.h"\n' >"$T/cmd/cmd.h"
	cat >"$T/cmd/verb.c" <<-'EOF'
	#include <stdio.h>
	#include "base/util.h"
	#include "host/ibdev.h"
	#include "dcb/plan.h"
	#include "bench/client.h"
	#include "cmd.h"
	EOF
}

@test "check-layers: a copy of lib/ and a cmd/ with legal includes passes, silently" {
	clean_tree
	run "$CHECK" "$T"
	assert_success
	assert_output ""
}

@test "check-layers: each violation is one line, FILE:LINE, the include and the rule" {
	clean_tree
	printf '#include <stdio.h>\n#include "cmd.h"\n#include "seam/fs.h"\n' >"$T/cmd/bad.c"
	printf '/* x */\n#include "host/ibdev.h"\n' >"$T/lib/kernel/bad.c"
	printf '#include "err.h"\n' >"$T/lib/host/bad.h"
	printf '#  include "kernel/rtnl.h"\n' >>"$T/cmd/verb.c"
	printf '#include "uapi/dcbnl_ext.h"\n#include "frob/frob.h"\n' >"$T/lib/dcb/bad.c"
	printf '#include "cmd.h"\n' >"$T/lib/base/bad.c"
	mkdir "$T/lib/frob"
	printf '#include "base/err.h"\n' >"$T/lib/frob/frob.c"
	run --separate-stderr "$CHECK" "$T"
	assert_failure 1
	assert_line "cmd/bad.c:3: \"seam/fs.h\": cmd may include only base, out, host, dcb, bench, bond, diag and cmd's own headers"
	assert_line "cmd/verb.c:7: \"kernel/rtnl.h\": cmd may include only base, out, host, dcb, bench, bond, diag and cmd's own headers"
	assert_line "lib/kernel/bad.c:2: \"host/ibdev.h\": kernel may include only kernel, seam, base, uapi"
	assert_line "lib/host/bad.h:1: \"err.h\": includes name their folder: \"base/err.h\""
	assert_line "lib/dcb/bad.c:1: \"uapi/dcbnl_ext.h\": dcb may include only dcb, host, kernel, seam, base"
	assert_line "lib/dcb/bad.c:2: \"frob/frob.h\": 'frob' is not a layer (lib/frob/ has no row in scripts/check-layers)"
	assert_line "lib/base/bad.c:1: \"cmd.h\": lib/ never includes cmd/"
	assert_line "lib/frob/frob.c:1: \"base/err.h\": lib/frob/ is not a layer (no row in scripts/check-layers)"
	[ "${#lines[@]}" -eq 8 ]
	assert_equal "$stderr" "check-layers: 8 include(s) against the layers in $(cd "$T" && ls lib/*/*.[ch] cmd/*.[ch] | wc -l) files"
}

@test "check-layers: every pair of layers, allowed or not, as the design's table says" {
	local row layer allowed target want=""
	# lib/L/all.c (cmd/all.c) includes every layer's header, one a line.
	while IFS= read -r row; do
		layer=${row%%:*} allowed=" ${row#*:} "
		if [ "$layer" = cmd ]; then
			mkdir -p "$T/cmd" && f=$T/cmd/all.c
		else
			mkdir -p "$T/lib/$layer" && f=$T/lib/$layer/all.c
		fi
		for target in uapi base out seam kernel host dcb bench bond diag; do
			echo "#include \"$target/h.h\"" >>"$f"
			[ "$target" = "$layer" ] || [[ $allowed == *" $target "* ]] ||
				want+="$layer->$target"$'\n'
		done
	done <<<"$SPEC"
	run --separate-stderr "$CHECK" "$T"
	assert_failure 1
	got=$(sed -E 's|^(lib/)?([a-z]+)/all\.c:[0-9]+: "([a-z]+)/h\.h": .*|\2->\3|' <<<"$output" | sort)
	assert_equal "$got" "$(sort <<<"${want%$'\n'}")"
}

@test "check-layers: docs/HACKING.md shows the script's table" {
	# The table after the "check-layers table" mark, up to the blank line: its
	# rows "| `layer` | `a`, `b` | ... |" as "layer: a b".
	doc=$(sed -n '/<!-- check-layers table -->/,/^$/p' "$TOP/docs/HACKING.md" |
		sed -nE 's/^\| `([a-z]+)` \| ([^|]*) \|.*/\1: \2/p' |
		sed -E 's/`//g; s/,//g; s/ +(nothing)? *$//')
	[ -n "$doc" ]
	script=$(python3 -c '
import runpy, sys
for k, v in runpy.run_path(sys.argv[1], run_name="check_layers")["LAYERS"].items():
    print((k + ": " + " ".join(v)).rstrip())' "$CHECK")
	assert_equal "$doc" "$script"
	assert_equal "$(sed 's/: *$/:/' <<<"$SPEC")" "$script"
}

@test "check-layers: usage errors and an empty tree exit 2" {
	run "$CHECK" --help
	assert_failure 2
	run "$CHECK" "$T"
	assert_failure 2
	assert_output --partial "no lib/*/*.[ch] or cmd/*.[ch]"
}

@test "check-layers: angle brackets and paths that walk are our headers too (<seam/fs.h>, host/../kernel)" {
	clean_tree
	printf '#include <seam/fs.h>\n#include "host/../kernel/rtnl.h"\n#include "./base/util.h"\n#include <link.h>\n#include <net/if.h>\n' \
		>"$T/cmd/walk.c"
	run "$CHECK" "$T"
	assert_failure 1
	assert_line 'cmd/walk.c:1: "seam/fs.h": cmd may include only base, out, host, dcb, bench, bond, diag and cmd'"'"'s own headers'
	assert_line 'cmd/walk.c:2: "host/../kernel/rtnl.h": not written as FOLDER/NAME.h: it means "kernel/rtnl.h"'
	assert_line 'cmd/walk.c:3: "./base/util.h": not written as FOLDER/NAME.h: it means "base/util.h"'
	# glibc's <link.h> and <net/if.h> are the system's, not lib/host/link.h or a layer.
	refute_output --partial 'link.h"'
	refute_output --partial 'net/if.h'
}

@test "check-layers --objects: a cmd/ object that calls a seam/ function is refused, however it got the header" {
	command -v cc >/dev/null && command -v nm >/dev/null || skip "no cc or nm"
	local B=$BATS_TEST_TMPDIR/build
	mkdir -p "$B/lib/seam" "$B/lib/base" "$B/cmd"
	printf 'int rdc_nl_fake_open(void) { return 0; }\n' >"$BATS_TEST_TMPDIR/seam.c"
	printf 'int rdc_base_fake(void) { return 1; }\n' >"$BATS_TEST_TMPDIR/base.c"
	printf 'int rdc_nl_fake_open(void);\nint rdc_base_fake(void);\nint verb(void) { return rdc_base_fake() + rdc_nl_fake_open(); }\n' \
		>"$BATS_TEST_TMPDIR/verb.c"
	cc -c -o "$B/lib/seam/nl.o" "$BATS_TEST_TMPDIR/seam.c"
	cc -c -o "$B/lib/base/util.o" "$BATS_TEST_TMPDIR/base.c"
	cc -c -o "$B/cmd/verb.o" "$BATS_TEST_TMPDIR/verb.c"
	clean_tree
	run --separate-stderr "$CHECK" --objects "$B" "$T"
	assert_failure 1
	assert_output "cmd/verb.o: rdc_nl_fake_open: defined in seam/, which cmd may not use"
	# The project's own objects pass.
	[ -d "$TOP/build/cmd" ] || skip "not built"
	run "$CHECK" --objects "$TOP/build"
	assert_success
	assert_output ""
}
