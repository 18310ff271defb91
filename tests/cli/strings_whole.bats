#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 23 item 1: no string is ever cut.  JSON carries every finding's text whole (nothing
# ends " ..." or mid-word); text wraps it at the width (80 when stdout is no terminal) with a
# hanging indent, and the wrapped lines say the same words as the JSON.
load ../helpers

FIXTURES=$TOP/testdata/hosts

@test "strings whole: no JSON string of diag or bond check ends cut (' ...')" {
	local h out
	for h in "$FIXTURES"/*/; do
		out=$("$RDMACTL" --root "$h" -j diag 2>/dev/null) || true # 1 or 3: it found something
		jq -e '[.. | strings | select(endswith(" ...") or endswith("..."))] | length == 0' \
			<<<"$out" >/dev/null || fail "$h: $(jq -c '[.. | strings | select(endswith("..."))]' <<<"$out")"
		out=$("$RDMACTL" --root "$h" -j bond check 2>/dev/null) || true
		[ -z "$out" ] || jq -e '[.. | strings | select(endswith("..."))] | length == 0' \
			<<<"$out" >/dev/null || fail "$h: bond check: $out"
	done
}

# Lines past 80 columns that are more than one unbreakable unit (a word, a source path, or a
# quoted command, which stays whole so that it can be copied).
too_wide() {
	awk -v q="'" 'length($0) > 80 {
		t = $0; sub(/^ +/, "", t)
		if (t !~ / / || (substr(t, 1, 1) == q && index(substr(t, 2), q) + 1 >= length(t) - 2)) next
		print
	}'
}

# bond check's own header line ("bond0: active-backup, failover within ...") is not a
# finding and is not wrapped yet: only the findings' lines (indented) are checked there.
@test "strings whole: text lines fit 80 columns, only one unbreakable unit runs past" {
	local h args out
	for h in "$FIXTURES"/*/; do
		for args in "diag" "-b diag" "-v diag"; do
			# shellcheck disable=SC2086
			out=$("$RDMACTL" --root "$h" $args 2>/dev/null | too_wide) || true
			[ -z "$out" ] || fail "$h $args: lines past 80 columns: $out"
		done
		out=$("$RDMACTL" --root "$h" bond check 2>/dev/null | grep '^ ' | too_wide) || true
		[ -z "$out" ] || fail "$h bond check: lines past 80 columns: $out"
	done
}

# -b: one finding per line, its title wrapped under a hang of 6; joined again, each line
# ends with the finding's whole title as JSON has it.
@test "strings whole: every title wrapped in text is the JSON title, word for word" {
	local h json text title
	for h in "$FIXTURES"/*/; do
		json=$("$RDMACTL" --root "$h" -j diag 2>/dev/null) || true
		text=$("$RDMACTL" --root "$h" -b diag 2>/dev/null |
			awk '/^      [^ ]/ { sub(/^ +/, ""); line = line " " $0; next }
			     { if (line != "") print line; line = $0 }
			     END { if (line != "") print line }') || true
		while IFS= read -r title; do
			[ -n "$title" ] || continue
			grep -qF -- ": $title" <<<"$text" || fail "$h: title not whole in text: '$title'
$text"
		done < <(jq -r '.findings[].title' <<<"$json")
	done
}
