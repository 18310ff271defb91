#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Schema 3: one finding shape in diag and bond check, every key there (null when it
# does not apply), evidence typed, skipped checks named like findings, summary counts
# never named like the arrays beside them.
load ../helpers

FIXTURES=$TOP/testdata/hosts

# The keys of every finding diag and bond check print on every fixture, one line per distinct set.
finding_key_sets() {
	local h
	for h in "$FIXTURES"/*/; do
		"$RDMACTL" --root "$h" -j diag | jq -c '.findings[] | keys'
		"$RDMACTL" --root "$h" -j bond check 2>/dev/null | jq -c '.bonds[]?.findings[] | keys'
	done | sort -u
}

@test "findings: one shape in diag and bond check, device/port/netdev/bond always there" {
	run finding_key_sets
	assert_success
	assert_output '["bond","device","evidence","fix","fix_argv","fix_command","id","netdev","port","severity","since_reset","title","why"]'
}

@test "findings: a finding about the host has device, port, netdev and bond null" {
	# degraded: host.driver-mismatch or host.kernel-modules is about the host, not a port.
	run "$RDMACTL" --root "$FIXTURES/degraded" -j diag
	jq -e '[.findings[] | select(.id | startswith("host.")) | select(.device == null)] | length > 0 and
		all(has("device") and has("port") and has("netdev") and has("bond") and .port == null and .netdev == null and .bond == null)' \
		<<<"$output" >/dev/null || fail "$output"
	# A bond's finding from bond check names the bond and nulls the rest.
	run "$RDMACTL" --root "$FIXTURES/lag-mistakes" -j bond check
	jq -e '[.bonds[].findings[]] | length > 0 and all(.bond != null)' <<<"$output" >/dev/null || fail "$output"
}

@test "findings: evidence is one typed value each, counters over a window with delta and window_s" {
	local h out
	for h in "$FIXTURES"/*/; do
		out=$("$RDMACTL" --root "$h" -j diag) || true # 1 or 3: it found something
		jq -e '[.findings[].evidence[]] | all(
			(keys == ["delta","detail","name","since_reset","source","value","window_s"]) and
			(.name | test("^[^ ]+$")) and
			((.delta == null) == (.window_s == null)) and
			(.value | type) != "object" and (.value | type) != "array")' <<<"$out" >/dev/null ||
			fail "$h: $(jq -c '[.findings[].evidence[]]' <<<"$out")"
		# No value is a number or a counter dressed as words.
		jq -e '[.findings[].evidence[] | select(.value | type == "string") | .value] |
			all(test("^[+-]?[0-9]+(\\.[0-9]+)?( |$)|^\\+[0-9]+ in ") | not)' <<<"$out" >/dev/null ||
			fail "$h: numbers as text: $(jq -c '[.findings[].evidence[] | select(.value | type == "string") | .value]' <<<"$out")"
	done
	# seed-gateway's flap over its 5 s window: numbers, not "+1 in 5.0 s (now 74)".
	run "$RDMACTL" --root "$FIXTURES/seed-gateway" -j diag
	jq -e '.findings[] | select(.id == "link.flapping") | .evidence[] | select(.name == "link_downed") |
		.value == 74 and .delta == 1 and .window_s == 5 and .since_reset == false' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "findings: skipped checks name their object with the finding's four keys" {
	run "$RDMACTL" --root "$FIXTURES/ab-2nic" -j diag
	jq -e '(.skipped | length) > 0 and (.skipped | all(keys == ["bond","device","id","netdev","port","reason"])) and
		any(.skipped[]; .device == "mlx5_0" and .port == 1 and .netdev == "ens1f0np0")' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "findings: summary counts are never named like the arrays beside them" {
	run "$RDMACTL" --root "$FIXTURES/ab-2nic" -j diag
	jq -e '(.summary | keys) == ["checks_run","dropped","fail","info","ports_count","skipped_count","warn"] and
		.summary.ports_count == (.ports | length) and .summary.skipped_count == (.skipped | length)' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "findings: diag list's policy defaults are numbers" {
	run "$RDMACTL" -j diag list
	assert_success
	jq -e '(.policy | length) > 0 and (.policy | all((.default | type) == "number" and .min <= .default and .default <= .max))' \
		<<<"$output" >/dev/null || fail "$output"
}
