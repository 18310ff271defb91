#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every printed fix is a command that runs: the fixes of diag, bond check and
# pfc show's verdict on every fixture, each rdmactl one run as it is (with
# --root FIXTURE --dry-run), none a usage error or "not supported"; no
# finding without a fix, no placeholder where a value of the host belongs.
load ../helpers

# Every finding and verdict of $1 as compact JSON: {what, fix, fix_command, fix_argv}.
fixes_of() {
	local host=$1
	{
		rd "$host" -j diag 2>/dev/null | jq -c '.findings[] | {what: .id, fix, fix_command, fix_argv}'
		rd "$host" -j bond check 2>/dev/null |
			jq -c '.. | objects | select(has("id") and has("severity")) | {what: .id, fix, fix_command, fix_argv}'
		rd "$host" -j pfc show 2>/dev/null |
			jq -c '.netdevs[] | .verdict | {what: "pfc.verdict", fix: (.fix_command // ""), fix_command, fix_argv} | select(.fix_argv != null)'
	} || true
}

@test "fixes: every finding says what to do, names no placeholder, and its command is in its text" {
	local host n=0 fixes bad
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		fixes=$(fixes_of "$host")
		[ -n "$fixes" ] || continue
		n=$((n + $(wc -l <<<"$fixes")))
		# One jq per host (not four per finding): each finding that breaks a rule, with
		# the rule.  A placeholder is a word a person must replace: what the host has
		# was not put in.
		bad=$(jq -r '. as $f
			| if (.fix | type != "string" or length == 0) then "a finding without a fix"
			  elif (.fix | test("\\b(NETDEV|PF_NETDEV|FILE|METRES|SUBNET|ADDR|LEN|IF|MEMBER|NS|N|PCI)\\b"))
			  then "a placeholder in"
			  elif ((.fix_command == null) != (.fix_argv == null)) then "fix_command and fix_argv disagree"
			  elif (.fix_command != null and (.fix | contains($f.fix_command) | not))
			  then "the text does not show its command"
			  else empty end | "\(.): \($f | tojson)"' <<<"$fixes") || fail "$host: jq: $bad"
		[ -z "$bad" ] || fail "$host: $bad"
	done
	[ "$n" -ge 60 ] || fail "only $n findings on the fixtures"
}

@test "fixes: every rdmactl fix runs on its fixture (--root --dry-run): no usage error, nothing unsupported" {
	local host total=0 ran argv
	for host in "$HOSTS"/*/; do
		host=$(basename "$host")
		ran=0
		while IFS= read -r f; do
			mapfile -t argv < <(jq -r '.fix_argv[]' <<<"$f")
			[ "${argv[0]}" = rdmactl ] || continue
			run --separate-stderr rd "$host" --dry-run "${argv[@]:1}"
			[ "$status" -ne 2 ] || fail "$host: '${argv[*]}' is a usage error: $stderr"
			[[ "$output$stderr" != *"not supported"* ]] || fail "$host: '${argv[*]}': $stderr"
			# A fix that cannot even be planned on its own host is no fix (0:
			# it plans nothing there, 4: it plans a change).
			[ "$status" -eq 0 ] || [ "$status" -eq 4 ] ||
				fail "$host: '${argv[*]}' exits $status: $stderr"
			ran=$((ran + 1))
		done < <(fixes_of "$host" | jq -c 'select(.fix_argv != null)' | sort -u)
		echo "# $host: $ran fix commands run" >&3
		total=$((total + ran))
	done
	echo "# all fixtures: $total fix commands run" >&3
	[ "$total" -ge 20 ] || fail "only $total fix commands on the fixtures"
}

@test "fixes: on InfiniBand no PFC is advised; a bond's members are fixed through the bond" {
	run --separate-stderr rd ib-hdr -j diag
	! grep -q "pfc apply" <<<"$output" || fail "PFC advised on InfiniBand: $output"
	jq -e '[.skipped[] | select(.id | startswith("qos.")) | .reason] | all(test("InfiniBand"))' \
		<<<"$output" || fail "$output"
	run --separate-stderr rd lag-mistakes -j diag
	[ "$(jq -c '[.findings[] | select(.id == "qos.pfc-too-many" or .id == "qos.members-differ") | .fix_argv]' <<<"$output")" = \
	  '[["rdmactl","pfc","apply","dev","bond1","profile","roce-lossless"],["rdmactl","pfc","apply","dev","bond1","profile","roce-lossless"]]' ]
}
