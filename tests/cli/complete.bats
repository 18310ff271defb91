#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shell completion: the hidden `rdmactl __complete WORD... CUR` and the bash and
# zsh wrappers in completions/, which must add nothing but path completion
load ../helpers

# The verbs of `rdmactl --help`, as rdmactl(8)'s tests read them.
verbs() {
	"$RDMACTL" --help | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# The keywords of one action in `rdmactl help VERB` (see man.bats): the first
# word of the lines indented by six under it, but its help line.
keywords() {
	"$RDMACTL" help "$1" | awk -v act="  rdmactl $1 $2" '
		/^  [^ ]/ { sel = $0 == act || index($0, act " ") == 1; skip = 1; next }
		skip { if (/^      [^ ]/) skip = 0; next }
		sel && /^      [^ ]/ { print $1 }'
}

setup() {
	# The wrappers run the command being completed: put rdmactl and its links on PATH.
	BIN=$BATS_TEST_TMPDIR/bin
	mkdir -p "$BIN"
	ln -sf "$RDMACTL" "$BIN/rdmactl"
	local v
	for v in $(verbs); do
		ln -sf "$RDMACTL" "$BIN/rdmactl-$v"
	done
	# What the empty word completes to: every verb, and help.
	# shellcheck disable=SC2046
	VERBS=$(lines help $(verbs))
	PATH=$BIN:$PATH
	# A root without devices keeps the live host's netdevs out of exact comparisons.
	EMPTY=$BATS_TEST_TMPDIR/empty
	mkdir -p "$EMPTY"
	CX6=$HOSTS/cx6dx
	# shellcheck source=completions/rdmactl.bash
	source "$TOP/completions/rdmactl.bash"
}

# The fixture is in git: without it the checkout is broken, not the machine.
need_cx6dx() {
	[ -d "$CX6/sys/class/infiniband" ] || fail "fixture testdata/hosts/cx6dx is missing"
}

# Complete the last of WORDS (possibly empty) as bash would, cursor at its end.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	# bash runs completion functions without errexit; so do we.
	set +e
	_rdmactl
	set -e
	reply=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
}

# The sorted lines of ARGS, to compare with $reply.
lines() {
	printf '%s\n' "$@" | sort
}

# Every ARG is one of the candidates in $reply.
assert_reply_has() {
	local w
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$reply" || fail "'$w' missing from completions: $(tr '\n' ' ' <<<"$reply")"
	done
}

refute_reply_has() {
	local w
	for w in "$@"; do
		! grep -qxF -- "$w" <<<"$reply" || fail "'$w' should not be completed: $(tr '\n' ' ' <<<"$reply")"
	done
}

# The keywords of pfc set that may still come: all but dev and ARGS, plus --dry-run.
set_rest() {
	local k
	for k in $(keywords pfc set) --dry-run; do
		[[ " dev $* " == *" $k "* ]] || echo "$k"
	done | sort
}

# A stand-in for rdmactl that logs its arguments to $STUB/args and answers
# with those of CANDIDATES that start with its last argument.
make_stub() {
	export STUB_CANDS="$*"
	STUB=$BATS_TEST_TMPDIR/stub
	mkdir -p "$STUB"
	cat >"$STUB/rdmactl" <<-'EOF'
	#!/bin/bash
	printf '%s\n' "$@" >"${0%/*}/args"
	cur=${!#}
	for c in $STUB_CANDS; do [[ $c == "$cur"* ]] && echo "$c"; done
	exit 0
	EOF
	chmod +x "$STUB/rdmactl"
	ln -sf rdmactl "$STUB/rdmactl-port"
	PATH=$STUB:$PATH
}

# ---- rdmactl __complete ---------------------------------------------------

@test "__complete: verbs and help for an empty word, filtered by prefix" {
	[ "$(wc -l <<<"$VERBS")" -ge 3 ]
	run "$RDMACTL" __complete ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$VERBS"
	run "$RDMACTL" __complete p
	assert_success
	# shellcheck disable=SC2046
	assert_equal "$(sort <<<"$output")" "$(lines $(verbs | grep '^p'))"
	run "$RDMACTL" __complete po
	assert_output port
	run "$RDMACTL" __complete
	assert_success
	assert_equal "$(sort <<<"$output")" "$VERBS"
}

@test "__complete: every global option of --help, and nothing unknown" {
	run "$RDMACTL" __complete --
	assert_success
	local opts opt
	opts=$("$RDMACTL" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$opts" ]
	for opt in $opts; do
		grep -qE -- "^$opt=?\$" <<<"$output" || fail "--help lists $opt, __complete does not"
	done
	for opt in $output; do
		grep -qxF -- "${opt%=}" <<<"$opts" || fail "__complete offers $opt, --help does not list it"
	done
	run "$RDMACTL" __complete --col
	assert_output "--color="
}

@test "__complete: the actions of 'help VERB', plus help, for every verb" {
	local v actions
	for v in $(verbs); do
		actions=$("$RDMACTL" help "$v" | sed -nE "s/^  rdmactl $v ([a-z]+).*/\\1/p")
		[ -n "$actions" ]
		run "$RDMACTL" __complete --root "$EMPTY" "$v" ""
		assert_success
		# shellcheck disable=SC2086
		assert_equal "$(sort <<<"$output")" "$(lines $actions help)"
	done
	run "$RDMACTL" __complete --root "$EMPTY" port s
	assert_equal "$(sort <<<"$output")" "$(lines set show stats)"
}

@test "__complete: keywords of port set and port stats, not repeated" {
	run "$RDMACTL" __complete --root "$EMPTY" port set ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines mtu up down --dry-run)"
	run "$RDMACTL" __complete --root "$EMPTY" port set ens1f0np0 mtu 9000 ""
	assert_equal "$(sort <<<"$output")" "$(lines up down --dry-run)"
	run "$RDMACTL" __complete --root "$EMPTY" port stats ""
	assert_equal "$(sort <<<"$output")" "$(lines all count errors interval nonzero)"
	run "$RDMACTL" __complete --root "$EMPTY" port stats errors ""
	assert_equal "$(sort <<<"$output")" "$(lines all count interval nonzero)"
	run "$RDMACTL" __complete --root "$EMPTY" port stats nonzero ""
	assert_equal "$(sort <<<"$output")" "$(lines count errors interval)"
	run "$RDMACTL" __complete --root "$EMPTY" port show ""
	assert_output ""
}

@test "__complete: mtu values are the table's suggestions" {
	run "$RDMACTL" __complete port set ens1f0np0 mtu ""
	assert_success
	assert_equal "$output" "$(printf '%s\n' 1500 4200 9000)"
	run "$RDMACTL" __complete port set ens1f0np0 mtu 9
	assert_output 9000
	# A number without suggestions: nothing, not the keywords.
	run "$RDMACTL" __complete port stats interval ""
	assert_success
	assert_output ""
}

@test "__complete: devices, ports and netdevs of the --root host" {
	need_cx6dx
	run "$RDMACTL" __complete --root "$CX6" port show ""
	assert_success
	for w in mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1 ens1f0np0 ens1f1np1; do
		assert_line "$w"
	done
	run "$RDMACTL" __complete --root "$CX6" port gids mlx5_
	assert_equal "$(sort <<<"$output")" "$(lines mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1)"
	# The default action takes an object too, next to the action words.
	run "$RDMACTL" __complete --root "$CX6" port ens1f
	assert_equal "$(sort <<<"$output")" "$(lines ens1f0np0 ens1f0np0.100 ens1f1np1)"
	# One object only.
	run "$RDMACTL" __complete --root "$CX6" port show mlx5_0 ""
	assert_output ""
}

@test "__complete: unknown verbs and words complete to nothing, exit 0" {
	run "$RDMACTL" __complete prot ""
	assert_success
	assert_output ""
	run "$RDMACTL" __complete help ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(verbs | sort)"
}

@test "__complete: the value of --root, --replay and --record is left to the shell" {
	# ":dir" or ":file" ("a path: the shell completes it"), not the verbs; after the verb too.
	local opt want
	for opt in --root --replay --record; do
		want=:file
		[ "$opt" = --root ] && want=:dir
		run "$RDMACTL" __complete "$opt" ""
		assert_success
		assert_output "$want"
		run "$RDMACTL" __complete -j "$opt" /tm
		assert_success
		assert_output "$want"
		run "$RDMACTL" __complete port show "$opt" /tm
		assert_success
		assert_output "$want"
	done
	# After the path, the verbs.
	run "$RDMACTL" __complete --root "$EMPTY" ""
	assert_equal "$(sort <<<"$output")" "$VERBS"
}

@test "__complete: keywords of pfc set, from 'help pfc', not repeated" {
	local kws
	kws=$(keywords pfc set)
	# The table's keywords, multi-value ones included ("prio-pfc {all|P}:{on|off}...").
	for k in dev prio-pfc trust dscp-prio ecn; do
		grep -qx -- "$k" <<<"$kws" || fail "'$k' not among the keywords of 'help pfc' set: $kws"
	done
	run "$RDMACTL" __complete --root "$EMPTY" pfc set ""
	assert_success
	# shellcheck disable=SC2086
	assert_equal "$(sort <<<"$output")" "$(lines $kws --dry-run)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 ""
	assert_equal "$(sort <<<"$output")" "$(set_rest)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 trust dscp roce-tos 106 ""
	assert_equal "$(sort <<<"$output")" "$(set_rest trust roce-tos)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 --dry-run tc-
	assert_equal "$(sort <<<"$output")" "$(lines tc-bw tc-maxrate tc-tsa)"
}

@test "__complete: trust and roce-mode values are the table's suggestions" {
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 trust ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines dscp pcp)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 trust d
	assert_output dscp
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 roce-mode ""
	assert_equal "$(sort <<<"$output")" "$(lines v1 v2)"
	# A number without suggestions: nothing, not the keywords.
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 roce-tos ""
	assert_success
	assert_output ""
}

@test "__complete: pfc apply offers profile, and roce-lossless as its value" {
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply ""
	assert_success
	# shellcheck disable=SC2046
	assert_equal "$(sort <<<"$output")" "$(lines $(keywords pfc apply) --dry-run)"
	assert_line profile
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev ens1f0np0 pro
	assert_equal "$(sort <<<"$output")" "$(lines profile)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev ens1f0np0 profile ""
	assert_output roce-lossless
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev ens1f0np0 profile r
	assert_output roce-lossless
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev ens1f0np0 profile roce-lossless p
	assert_equal "$(sort <<<"$output")" "$(lines prio)"
}

@test "__complete: after the KEY:VALUE words of a multi-value keyword, more keywords" {
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3:on ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(set_rest prio-pfc)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc all:off 3:on \
		dscp-prio 26:3 48:6 ""
	assert_equal "$(sort <<<"$output")" "$(set_rest prio-pfc dscp-prio)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3:on t
	assert_equal "$(sort <<<"$output")" "$(lines tc-bw tc-maxrate tc-tsa trust)"
	# The value of the keyword after them.
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3:on trust ""
	assert_equal "$(sort <<<"$output")" "$(lines dscp pcp)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 tc-bw all:0 0:50 3:50 \
		trust dscp ""
	assert_equal "$(sort <<<"$output")" "$(set_rest tc-bw trust)"
}

@test "__complete: right after a multi-value keyword, its keys, no keyword (a KEY:VALUE is due)" {
	# "prio-pfc trust" is a usage error ("'prio-pfc' needs {all|P}:{on|off}...").
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines all: 0: 1: 2: 3: 4: 5: 6: 7:)"
}

@test "__complete: the values of prio-pfc, tc-tsa and prio-tc after KEY:" {
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3:
	assert_equal "$(sort <<<"$output")" "$(lines 3:on 3:off)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc all:off 3:o
	assert_equal "$(sort <<<"$output")" "$(lines 3:on 3:off)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 tc-tsa all:
	assert_equal "$(sort <<<"$output")" "$(lines all:cbs all:ets all:strict all:vendor)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 prio-tc 7:
	assert_equal "$(sort <<<"$output")" "$(lines 7:0 7:1 7:2 7:3 7:4 7:5 7:6 7:7)"
	# A rate or a size has no fixed set: nothing after the colon.
	run "$RDMACTL" __complete --root "$EMPTY" pfc set dev ens1f0np0 tc-maxrate 0:
	assert_output ""
}

@test "__complete: a file after -f, options and their values after the verb" {
	run "$RDMACTL" __complete bond apply -f ""
	assert_output ":file"
	run "$RDMACTL" __complete pfc apply -f ""
	assert_output ":file"
	# -f takes dev beside it, and nothing else; dev alone still offers -f, a profile does not.
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply -f p.yaml ""
	assert_equal "$(sort <<<"$output")" "$(lines --dry-run dev)"
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev eth0 ""
	assert_line -- -f
	run "$RDMACTL" __complete --root "$EMPTY" pfc apply dev eth0 profile roce-lossless ""
	refute_line -- -f
	run "$RDMACTL" __complete diag -f pol
	assert_output ":file"
	# Global options after the verb are skipped: the keywords still follow.
	run "$RDMACTL" __complete --root "$EMPTY" port set -j eth0 ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines down mtu up --dry-run)"
	run "$RDMACTL" __complete --root "$EMPTY" port show --root "$EMPTY" -j ""
	refute_output --partial -- "--"
	run "$RDMACTL" __complete --root "$EMPTY" port show --js
	assert_output "--json"
	run "$RDMACTL" __complete --net
	assert_output "--netns"
}

@test "__complete: pfc devices and netdevs of the --root host" {
	need_cx6dx
	run "$RDMACTL" __complete --root "$CX6" pfc show ""
	assert_success
	for w in dev mlx5_0 mlx5_0/1 ens1f0np0 ens1f1np1; do
		assert_line "$w"
	done
	run "$RDMACTL" __complete --root "$CX6" pfc set dev ens1
	assert_equal "$(sort <<<"$output")" "$(lines ens1f0np0 ens1f0np0.100 ens1f1np1)"
	run "$RDMACTL" __complete --root "$CX6" pfc apply dev mlx5_1
	assert_equal "$(sort <<<"$output")" "$(lines mlx5_1 mlx5_1/1)"
	# set and apply take their netdev after dev only.
	run "$RDMACTL" __complete --root "$CX6" pfc set ens
	assert_output ""
}

@test "__complete: bench actions, and every client keyword after HOST" {
	run "$RDMACTL" __complete --root "$EMPTY" bench ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines client server help)"
	run "$RDMACTL" __complete --root "$EMPTY" bench s
	assert_output server
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 ""
	assert_success
	# shellcheck disable=SC2046
	assert_equal "$(sort <<<"$output")" "$(lines $(keywords bench client))"
	for k in test link qps tx-depth cq-mod post-list inline rate-limit hugepages bidir rdma-cm size duration iters warmup interval dscp tclass mtu port \
		expect-gbps min-link-gbps; do
		assert_line "$k"
	done
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 te
	assert_output test
	# The HOST is a name or an address: no device names for it.
	need_cx6dx
	run "$RDMACTL" __complete --root "$CX6" bench client mlx
	assert_success
	assert_output ""
}

@test "__complete: bench test values; a given keyword is not offered again" {
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 test ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines write read send lat lat-read lat-send)"
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 test l
	assert_equal "$(sort <<<"$output")" "$(lines lat lat-read lat-send)"
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 test lat-s
	assert_output lat-send
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 cq-wait ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines auto events poll)"
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 test read qps 2 ""
	refute_line test
	refute_line qps
	assert_line size
	# A number without suggestions: nothing, not the keywords.
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 qps ""
	assert_success
	assert_output ""
}

@test "__complete: bench link may be given again, and takes a port of the host" {
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 link rxe0 ""
	assert_success
	assert_line link
	assert_line test
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 link rxe0 link rxe1 li
	assert_output link
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 link rxe0 qps 2 link rxe1 ""
	assert_line link
	refute_line qps
	need_cx6dx
	run "$RDMACTL" __complete --root "$CX6" bench client 1.2.3.4 link mlx5_1
	assert_equal "$(sort <<<"$output")" "$(lines mlx5_1 mlx5_1/1)"
	run "$RDMACTL" __complete --root "$CX6" bench client 1.2.3.4 link ens1
	assert_equal "$(sort <<<"$output")" "$(lines ens1f0np0 ens1f0np0.100 ens1f1np1)"
}

@test "__complete: bench keywords that exclude each other" {
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 iters 10 ""
	refute_line duration
	refute_line iters
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 tclass 104 ""
	refute_line dscp
	refute_line tclass
	# The parser refuses both orders, and completion offers neither after the other.
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 duration 5 ""
	refute_line duration
	refute_line iters
	assert_line qps
	run "$RDMACTL" __complete --root "$EMPTY" bench client 1.2.3.4 dscp 26 ""
	refute_line tclass
	refute_line dscp
	assert_line qps
}

@test "__complete: bench server keywords, once each, and no object" {
	run "$RDMACTL" __complete --root "$EMPTY" bench server ""
	assert_success
	# shellcheck disable=SC2046
	assert_equal "$(sort <<<"$output")" "$(lines $(keywords bench server))"
	assert_equal "$(sort <<<"$output")" "$(lines bind port allow once)"
	run "$RDMACTL" __complete --root "$EMPTY" bench server once port 18515 ""
	assert_equal "$(sort <<<"$output")" "$(lines allow bind)"
	run "$RDMACTL" __complete --root "$EMPTY" bench server a
	assert_output allow
	need_cx6dx
	run "$RDMACTL" __complete --root "$CX6" bench server ""
	assert_equal "$(sort <<<"$output")" "$(lines bind port allow once)"
}

# ---- bash -----------------------------------------------------------------

@test "bash: registered for rdmactl and the rdmactl-port link" {
	run complete -p rdmactl
	assert_output --partial "-F _rdmactl"
	run complete -p rdmactl-port
	assert_output --partial "-F _rdmactl"
}

@test "bash: registered for the link of every verb" {
	local v missing=""
	for v in $(verbs); do
		complete -p "rdmactl-$v" >/dev/null 2>&1 || missing+=" rdmactl-$v"
	done
	[ -z "$missing" ] || fail "completions/rdmactl.bash does not register$missing"
}

@test "bash: the links registered are the verbs the rdmactl on PATH names" {
	# A binary with other verbs: its links, and none of the real ones.
	make_stub alpha beta-2
	run --separate-stderr bash -c 'source "$1" && complete -p' _ "$TOP/completions/rdmactl.bash"
	assert_success
	assert_equal "$stderr" ""
	assert_line "complete -F _rdmactl rdmactl"
	assert_line "complete -F _rdmactl rdmactl-alpha"
	assert_line "complete -F _rdmactl rdmactl-beta-2"
	refute_line --partial rdmactl-port
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete help "")"
	# No rdmactl on PATH: rdmactl alone, quietly.
	mkdir -p "$BATS_TEST_TMPDIR/nobin"
	run --separate-stderr "$BASH" -c 'PATH=$2; source "$1" && complete -p' _ \
		"$TOP/completions/rdmactl.bash" "$BATS_TEST_TMPDIR/nobin"
	assert_success
	assert_equal "$stderr" ""
	assert_output "complete -F _rdmactl rdmactl"
}

@test "bash: verbs" {
	comp rdmactl ""
	assert_equal "$reply" "$VERBS"
	comp rdmactl po
	assert_equal "$reply" port
	comp rdmactl pf
	assert_equal "$reply" pfc
	comp rdmactl --root "$EMPTY" -j ""
	assert_equal "$reply" "$VERBS"
	comp rdmactl help ""
	assert_equal "$reply" "$(verbs | sort)"
}

@test "bash: global options" {
	comp rdmactl --
	assert_reply_has --json --yaml --pretty --root --replay --record --dry-run --color= --version --help
	comp rdmactl --ro
	assert_equal "$reply" --root
}

@test "bash: actions of port" {
	comp rdmactl --root "$EMPTY" port ""
	assert_equal "$reply" "$(lines show gids stats set features help)"
	comp rdmactl --root "$EMPTY" port g
	assert_equal "$reply" gids
}

@test "bash: keywords of port set" {
	comp rdmactl --root "$EMPTY" port set ""
	assert_equal "$reply" "$(lines mtu up down --dry-run)"
	comp rdmactl --root "$EMPTY" port set ens1f0np0 ""
	assert_equal "$reply" "$(lines mtu up down --dry-run)"
	comp rdmactl --root "$EMPTY" port set ens1f0np0 mtu 9000 ""
	assert_equal "$reply" "$(lines up down --dry-run)"
	comp rdmactl --root "$EMPTY" port set ens1f0np0 --d
	assert_equal "$reply" --dry-run
}

@test "bash: mtu value suggestions" {
	comp rdmactl port set ens1f0np0 mtu ""
	assert_equal "$reply" "$(lines 1500 4200 9000)"
	comp rdmactl port set ens1f0np0 mtu 4
	assert_equal "$reply" 4200
}

@test "bash: device names from a --root fixture" {
	need_cx6dx
	comp rdmactl --root "$CX6" port show ""
	assert_reply_has mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1 ens1f0np0 ens1f1np1
	comp rdmactl --root "$CX6" port gids m
	assert_equal "$reply" "$(lines mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1)"
	comp rdmactl --root "$CX6" port set ens1
	assert_equal "$reply" "$(lines ens1f0np0 ens1f0np0.100 ens1f1np1)"
	comp rdmactl --root "$CX6" port set mlx5_1/1 mtu 9000 ""
	refute_reply_has mlx5_0 mtu
	assert_reply_has up down
	# Relative --root paths are the shell's current directory, as for rdmactl.
	cd "$TOP"
	comp rdmactl --root testdata/hosts/cx6dx port stats mlx5_1
	assert_equal "$reply" "$(lines mlx5_1 mlx5_1/1)"
}

@test "bash: paths after --root, --replay and --record (no bash-completion loaded)" {
	local d=$BATS_TEST_TMPDIR/paths
	mkdir -p "$d/bundle-a" "$d/bundle-b"
	touch "$d/bundle.rec"
	comp rdmactl --root "$d/bun"
	assert_equal "$reply" "$(lines "$d/bundle-a" "$d/bundle-b")"
	comp rdmactl --replay "$d/bundle."
	assert_equal "$reply" "$d/bundle.rec"
	comp rdmactl -j --record "$d/bundle"
	assert_equal "$reply" "$(lines "$d/bundle-a" "$d/bundle-b" "$d/bundle.rec")"
	# --root=DIR: bash splits at '='; the reply replaces only the part after it.
	comp rdmactl --root = "$d/bundle-"
	assert_equal "$reply" "$(lines "$d/bundle-a" "$d/bundle-b")"
	# After the path, completion goes on as usual.
	comp rdmactl --root "$d/bundle-a" ""
	assert_equal "$reply" "$VERBS"
}

@test "bash: paths with bash-completion's _filedir" {
	[ -r /usr/share/bash-completion/bash_completion ] || skip "bash-completion not installed"
	# shellcheck disable=SC1091
	source /usr/share/bash-completion/bash_completion || true
	declare -F _filedir >/dev/null || skip "bash-completion has no _filedir"
	source "$TOP/completions/rdmactl.bash"
	local d=$BATS_TEST_TMPDIR/paths
	mkdir -p "$d/bundle-a" "$d/bundle-b"
	touch "$d/bundle.rec"
	comp rdmactl --root "$d/bun"
	assert_equal "$reply" "$(lines "$d/bundle-a" "$d/bundle-b")"
	comp rdmactl --replay "$d/bundle."
	assert_equal "$reply" "$d/bundle.rec"
}

@test "bash: as rdmactl-port the verb is implied" {
	comp rdmactl-port ""
	assert_reply_has show gids stats set help
	comp rdmactl-port -
	assert_reply_has --json --root --help
	comp rdmactl-port --root "$EMPTY" set ""
	assert_equal "$reply" "$(lines mtu up down --dry-run)"
	comp "$BIN/rdmactl-port" --root "$EMPTY" s
	assert_equal "$reply" "$(lines set show stats)"
}

@test "bash: the words handed to __complete" {
	make_stub port
	comp rdmactl --root /x port set ens1f0np0 mtu ""
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete --root /x port set ens1f0np0 mtu "")"
	# The link inserts its verb after the leading options, where rdmactl reads it.
	comp rdmactl-port --root /x -j set m
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete --root /x -j port set m)"
	comp rdmactl-port ""
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete port "")"
	comp rdmactl-port --j
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete --j)"
	# "~/" is the home directory, as the shell would expand it.
	# shellcheck disable=SC2088
	comp rdmactl --root "~/bundle" port ""
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete --root "$HOME/bundle" port "")"
}

@test "bash: --color=WHEN is one word to rdmactl, and the reply fits after '='" {
	make_stub --color= --color=auto --color=always --color=never
	comp rdmactl --color = a
	assert_equal "$(cat "$STUB/args")" "$(printf '%s\n' __complete --color=a)"
	assert_equal "$reply" "$(lines always auto)"
	comp rdmactl --color = ""
	assert_equal "$reply" "$(lines always auto never)"
	comp rdmactl --col
	assert_equal "$reply" "$(lines --color= --color=always --color=auto --color=never)"
}

@test "bash: nothing to offer gives an empty reply, not an error" {
	comp rdmactl nosuchverb ""
	assert_equal "$reply" ""
	comp rdmactl port stats interval ""
	assert_equal "$reply" ""
	comp "$BATS_TEST_TMPDIR/nowhere/rdmactl" ""
	assert_equal "$reply" ""
}

@test "bash: pfc set keywords and values" {
	comp rdmactl --root "$EMPTY" pfc ""
	assert_equal "$reply" "$(lines show set apply help)"
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 ""
	assert_equal "$reply" "$(set_rest)"
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 trust ""
	assert_equal "$reply" "$(lines dscp pcp)"
	comp rdmactl --root "$EMPTY" pfc apply dev ens1f0np0 profile ""
	assert_equal "$reply" roce-lossless
}

@test "bash: KEY:VALUE words, which bash splits at ':'" {
	# COMP_WORDBREAKS has ':': bash hands "3:on" over as "3" ":" "on".
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3 : on ""
	assert_equal "$reply" "$(set_rest prio-pfc)"
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc all : off 3 : on t
	assert_equal "$reply" "$(lines tc-bw tc-maxrate tc-tsa trust)"
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 dscp-prio 26 : 3 trust d
	assert_equal "$reply" dscp
	# rdmactl gets them as one word each.
	make_stub trust
	comp rdmactl pfc set dev ens1f0np0 prio-pfc all : off 3 : on ""
	assert_equal "$(cat "$STUB/args")" \
		"$(printf '%s\n' __complete pfc set dev ens1f0np0 prio-pfc all:off 3:on "")"
}

@test "bash: files after -f and --replay after the verb, a map key without a space" {
	local d=$BATS_TEST_TMPDIR/files
	mkdir -p "$d"
	touch "$d/bonds.yaml" "$d/policy.yaml"
	comp rdmactl bond apply -f "$d/bo"
	assert_equal "$reply" "$d/bonds.yaml"
	comp rdmactl port show --replay "$d/po"
	assert_equal "$reply" "$d/policy.yaml"
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc al
	assert_equal "$reply" "all:"
	# The prefix before ':' is bash's word already: the reply is the value.
	comp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc 3 : o
	assert_equal "$reply" "$(lines on off)"
}

@test "bash: as rdmactl-pfc the verb is implied" {
	comp rdmactl-pfc --root "$EMPTY" ""
	assert_equal "$reply" "$(lines show set apply help)"
	comp rdmactl-pfc --root "$EMPTY" set dev ens1f0np0 prio-pfc 3 : on trust ""
	assert_equal "$reply" "$(lines dscp pcp)"
	comp "$BIN/rdmactl-pfc" --root "$EMPTY" apply dev x profile ""
	assert_equal "$reply" roce-lossless
}

@test "bash: bench keywords and values" {
	comp rdmactl --root "$EMPTY" bench ""
	assert_equal "$reply" "$(lines client server help)"
	comp rdmactl --root "$EMPTY" bench client 198.18.1.1 te
	assert_equal "$reply" test
	comp rdmactl --root "$EMPTY" bench client 198.18.1.1 test ""
	assert_equal "$reply" "$(lines write read send lat lat-read lat-send)"
	comp rdmactl --root "$EMPTY" bench client 198.18.1.1 link rxe0 li
	assert_equal "$reply" link
	comp rdmactl --root "$EMPTY" bench server ""
	assert_equal "$reply" "$(lines bind port allow once)"
}

@test "bash: as rdmactl-bench the verb is implied" {
	run complete -p rdmactl-bench
	assert_output --partial "-F _rdmactl"
	comp rdmactl-bench --root "$EMPTY" ""
	assert_equal "$reply" "$(lines client server help)"
	comp rdmactl-bench --root "$EMPTY" client 198.18.1.1 test ""
	assert_equal "$reply" "$(lines write read send lat lat-read lat-send)"
	comp "$BIN/rdmactl-bench" --root "$EMPTY" server o
	assert_equal "$reply" once
	# "LOCAL:REMOTE": bash splits at ':'; rdmactl gets one word.
	make_stub qps
	ln -sf rdmactl "$STUB/rdmactl-bench"
	comp rdmactl-bench client 198.18.1.1 link rxe0 : 198.18.1.1 ""
	assert_equal "$(cat "$STUB/args")" \
		"$(printf '%s\n' __complete bench client 198.18.1.1 link rxe0:198.18.1.1 "")"
}

# ---- zsh ------------------------------------------------------------------

@test "zsh: _rdmactl parses" {
	command -v zsh >/dev/null || skip "zsh not installed"
	run zsh -n "$TOP/completions/_rdmactl"
	assert_success
	assert_output ""
	# rdmactl, and every rdmactl-VERB by pattern: no list of verbs to keep.
	run head -1 "$TOP/completions/_rdmactl"
	assert_output "#compdef rdmactl -p rdmactl-*"
}

@test "zsh: compinit binds rdmactl and the link of every verb to _rdmactl" {
	command -v zsh >/dev/null || skip "zsh not installed"
	local v
	for v in "" $(verbs); do
		run zsh -f -c '
			fpath=("$1" $fpath)
			autoload -Uz compinit && compinit -u -D
			print -r -- ${_comps[$2]:-${_patcomps[(k)$2]}}' _ "$TOP/completions" "rdmactl${v:+-$v}"
		assert_success
		assert_output _rdmactl
	done
}

# Run _rdmactl in zsh with compadd, compset, _files and _directories replaced by
# stand-ins that print what they were given.
zcomp() {
	zsh -f -c '
		fpath=("$1" $fpath)
		autoload -Uz _rdmactl
		compadd() {
			local s=
			while [[ $1 == -* && $1 != -- ]]; do
				[[ $1 == -S ]] && { s="(no suffix) "; shift; }
				shift
			done
			[[ $1 == -- ]] && shift
			print -rl -- "$s$@[@]"
		}
		compset() { [[ $1 == -P ]] && { IPREFIX+=${(M)PREFIX##$~2}; PREFIX=${PREFIX##$~2}; }; }
		_files() { print -r -- "_files $IPREFIX|$PREFIX"; }
		_directories() { print -r -- "_directories $IPREFIX|$PREFIX"; }
		shift
		words=("$@"); CURRENT=$#; PREFIX=$words[CURRENT]; IPREFIX=
		_rdmactl
	' zcomp "$TOP/completions" "$@"
}

@test "zsh: candidates come from __complete" {
	command -v zsh >/dev/null || skip "zsh not installed"
	run zcomp rdmactl ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$VERBS"
	run zcomp rdmactl --root "$EMPTY" port set ""
	assert_equal "$(sort <<<"$output")" "$(lines mtu up down --dry-run)"
	run zcomp rdmactl port set ens1f0np0 mtu ""
	assert_equal "$(sort <<<"$output")" "$(lines 1500 4200 9000)"
	run zcomp rdmactl --col
	assert_output "(no suffix) --color="
	run zcomp rdmactl-port --root "$EMPTY" ""
	assert_equal "$(sort <<<"$output")" "$(lines show gids stats set features help)"
}

@test "zsh: pfc keywords, values, and KEY:VALUE words" {
	command -v zsh >/dev/null || skip "zsh not installed"
	run zcomp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 prio-pfc all:off 3:on ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(set_rest prio-pfc)"
	run zcomp rdmactl --root "$EMPTY" pfc set dev ens1f0np0 trust ""
	assert_equal "$(sort <<<"$output")" "$(lines dscp pcp)"
	run zcomp rdmactl --root "$EMPTY" pfc apply dev ens1f0np0 profile ""
	assert_output roce-lossless
}

@test "zsh: bench, also as rdmactl-bench" {
	command -v zsh >/dev/null || skip "zsh not installed"
	run zcomp rdmactl --root "$EMPTY" bench client 198.18.1.1 test ""
	assert_success
	assert_equal "$(sort <<<"$output")" "$(lines write read send lat lat-read lat-send)"
	run zcomp rdmactl-bench --root "$EMPTY" ""
	assert_equal "$(sort <<<"$output")" "$(lines client server help)"
	run zcomp rdmactl-bench --root "$EMPTY" client 198.18.1.1 link rxe0 li
	assert_output link
}

@test "zsh: device names from a --root fixture" {
	command -v zsh >/dev/null || skip "zsh not installed"
	need_cx6dx
	run zcomp rdmactl --root "$CX6" port gids m
	assert_equal "$(sort <<<"$output")" "$(lines mlx5_0 mlx5_0/1 mlx5_1 mlx5_1/1)"
}

@test "zsh: paths after --root, --replay and --record" {
	command -v zsh >/dev/null || skip "zsh not installed"
	run zcomp rdmactl --root ""
	assert_output "_directories |"
	run zcomp rdmactl -j --replay /tm
	assert_output "_files |/tm"
	run zcomp rdmactl --record=/tm
	assert_output "_files --record=|/tm"
	run zcomp rdmactl --root=/tm
	assert_output "_directories --root=|/tm"
}
