#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# man pages: they render, and they cannot drift from the tables behind
# `rdmactl --help` and `rdmactl help VERB`, nor from the JSON the verbs print
load ../helpers

setup() {
	MAN=$TOP/man
	export RDMACTL HOSTS	# for the examples, run in a child shell
}

# The verbs of `rdmactl --help`.
verbs() {
	"$RDMACTL" --help | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# The actions of `rdmactl help VERB`.
actions() {
	"$RDMACTL" help "$1" | sed -nE "s/^  rdmactl $1 ([a-z][a-z0-9-]*).*/\\1/p"
}

# The keywords of `rdmactl help VERB`: the indented words under each action.
keywords() {
	"$RDMACTL" help "$1" | sed -nE 's/^      ([a-z][a-z0-9-]*)( [A-Z]+)? {2,}.*/\1/p' | sort -u
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
json_paths() {
	jq -r '[paths(..) | map(select(type == "string"))
		| if index("counters") then .[:index("counters") + 1] else . end
		| join(".")] | unique[]' | sort -u
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
		summary=$("$RDMACTL" --help | sed -nE "s/^  $v +(.*)/\\1/p")
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
	magic=$(sed -n 's/^#define NL_REC_MAGIC "\(.*\)"$/\1/p' "$TOP/lib/nl.c")
	[ -n "$magic" ] || skip "NL_REC_MAGIC not found in lib/nl.c"
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
		# Interval mode: sample, interval_s, rates and per-counter objects.
		{
			"$RDMACTL" --root "$host" -j port stats interval 0.01 count 2 | json_paths
			"$RDMACTL" --root "$host" -j port stats interval 0.01 count 1 |
				jq -r '.stats[].counters[][] | keys[]'
			"$RDMACTL" --root "$host" -j port stats | jq -r '.stats[].counters | keys[]'
		} >>"$BATS_TEST_TMPDIR/keys"
	done
	[ "$n" -gt 0 ] || skip "no fixture hosts generated in testdata/hosts"
	sort -u "$BATS_TEST_TMPDIR/keys" -o "$BATS_TEST_TMPDIR/keys"
	# Documented either as *key* or *parent.key*; array elements are documented
	# under the array ("ports", "gids", "stats").
	while read -r key; do
		case $key in
		*.*) key=${key#ports.} key=${key#gids.} key=${key#stats.} ;;
		esac
		assert_bold "$MAN/rdmactl-port.8.scd" "$key"
	done <"$BATS_TEST_TMPDIR/keys"
}

@test "the port set JSON keys are documented" {
	# set is refused under --root, so its keys are listed here from port_set.c.
	assert_bold "$MAN/rdmactl-port.8.scd" netdev changed dry_run before after \
		before.mtu after.mtu before.admin_up after.admin_up before.operstate after.operstate
	local key
	for key in netdev changed dry_run before after mtu admin_up operstate; do
		grep -qF "\"$key\"" "$TOP/cmd/port_set.c" || fail "port_set.c no longer emits '$key'"
	done
}

@test "the jq examples in the man pages run on the fixtures" {
	command -v jq >/dev/null || skip "jq not installed"
	local page line cmd host out n=0
	for host in cx6dx degraded; do
		[ -d "$HOSTS/$host/sys/class/infiniband" ] || skip "fixture testdata/hosts/$host not generated"
	done
	for page in "$MAN"/*.scd; do
		# "$ rdmactl ... | jq ..." lines of literal blocks, with "\\(" unescaped
		# and intervals shortened.  A filter may select nothing on one host
		# (cx6dx is healthy), but not on both.
		while IFS= read -r line; do
			out=""
			for host in cx6dx degraded; do
				cmd=${line#'$ '}
				cmd=${cmd//\\\\/\\}
				cmd="\"\$RDMACTL\" --root \"\$HOSTS/$host\"${cmd#rdmactl}"
				cmd=${cmd//interval 1 /interval 0.01 }
				cmd=${cmd//count 60/count 2}
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
			[ "$status" -eq 0 ] || fail "${page##*/}: '$line' fails: $output"
			n=$((n + 1))
		done < <(grep -E '^\$ rdmactl --root testdata/' "$page")
	done
	[ "$n" -ge 1 ] || skip "no fixture named in the examples is generated"
}
