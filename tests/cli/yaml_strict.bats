#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck disable=SC2154 # bats' run sets $stderr
# The YAML files of `pfc apply -f` and `bond apply -f` are strict: what YAML
# allows and a desired state must not (a key twice, a section twice, a device
# twice, an option as a key) is an error naming its line, and nothing is sent.
load ../helpers

DOUBLE=$TOP/build/dcb-double
LAG=cx6dx-lag

setup() {
	[ -e "$DOUBLE/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	[ -d "$HOSTS/$LAG/sys/class/net" ] || fail "fixture testdata/hosts/$LAG is missing"
	export DCB_DOUBLE_DEVS=eth9,eth8
	export DCB_DOUBLE_STATE=$BATS_TEST_TMPDIR/state
	export DCB_DOUBLE_LOG=$BATS_TEST_TMPDIR/log
	F=$BATS_TEST_TMPDIR/f.yaml
}

# rdmactl with the NIC double preloaded (pfc's writes go to it).
dbl() { LD_PRELOAD=$DOUBLE/libdcbdouble.so "$RDMACTL" "$@"; }

# pfc apply -f $F must fail with $1 and say $2; the double then logged no change.
pfc_refused() {
	dbl pfc show dev eth9 >/dev/null # the double answers (and logs) a read
	run --separate-stderr dbl pfc apply -f "$F"
	[ "$status" -eq "$1" ] || fail "exit $status, not $1: $stderr"
	[[ $stderr == *"$2"* ]] || fail "'$stderr' does not say '$2'"
	[ -s "$DCB_DOUBLE_LOG" ] || fail "the double logged nothing"
	! grep -qE '^(SET|DEL)' "$DCB_DOUBLE_LOG" || fail "sent: $(grep -E '^(SET|DEL)' "$DCB_DOUBLE_LOG")"
	[ -z "$output" ] || fail "printed a report: $output"
}

@test "pfc apply -f: a key given twice is an error at the second, with the first's line" {
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\n    prio-pfc: 4:on\n' >"$F"
	pfc_refused 1 "$F line 4: 'prio-pfc' given twice (first at line 3)"
	printf 'devices:\n  - dev: eth9\n    profile: roce-lossless\n    prio: 3\n    prio: 4\n' >"$F"
	pfc_refused 1 "$F line 5: 'prio' given twice (first at line 4)"
}

@test "pfc apply -f: a second 'devices:' is an error, not merged into the first" {
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\ndevices:\n  - dev: eth8\n    prio-pfc: 4:on\n' >"$F"
	pfc_refused 1 "$F line 4: 'devices' given twice (first at line 1)"
}

@test "pfc apply -f: the same netdev twice is an error naming both lines" {
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\n  - dev: eth8\n    prio-pfc: 3:on\n  - dev: eth9\n    prio-pfc: 4:on\n' >"$F"
	pfc_refused 2 "$F line 6: 'eth9' is also the device at line 2"
	# A profile device and a keyword device are the same device too.
	printf 'devices:\n  - dev: eth8\n    profile: roce-lossless\n  - dev: eth8\n    trust: dscp\n' >"$F"
	pfc_refused 2 "$F line 4: 'eth8' is also the device at line 2"
}

@test "pfc apply -f: an option as a key is not a setting, never a dry run" {
	for key in --dry-run -f --json; do
		printf 'devices:\n  - dev: eth9\n    prio-pfc: 5:on\n    %s:\n' "$key" >"$F"
		pfc_refused 1 "$F line 4: '$key' is not a setting"
	done
	printf 'devices:\n  - dev: eth9\n    Prio-Pfc: 5:on\n' >"$F"
	pfc_refused 1 "$F line 3: 'Prio-Pfc' is not a setting"
	# As a value it is a bad value of that keyword.
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 5:on --dry-run\n' >"$F"
	pfc_refused 2 "'prio-pfc --dry-run': expected KEY:VALUE"
}

# bond apply -f on the fixture host: a file error comes before any plan, so
# --dry-run shows it is the file that is refused (writes are refused under --root anyway).
bond_refused() {
	run --separate-stderr rd "$LAG" -j --dry-run bond apply -f "$F"
	[ "$status" -eq "$1" ] || fail "exit $status, not $1: $stderr"
	[[ $stderr == *"$2"* ]] || fail "'$stderr' does not say '$2'"
	# No plan: the error document alone.
	[ "$(jq -s -c 'map(.kind)' <<<"$output")" = '["error"]' ] || fail "printed a plan: $output"
}

BOND0='    bond0:
      interfaces: [ens1f0np0, ens1f1np1]
      parameters:
        mode: 802.3ad
'

@test "bond apply -f: keys twice anywhere, sections twice, a second document are errors" {
	printf 'network:\n  bonds:\n%s' "$BOND0" >"$F"
	run --separate-stderr rd "$LAG" -j --dry-run bond apply -f "$F"
	assert_success
	printf 'network:\n  bonds:\n%s        mode: active-backup\n' "$BOND0" >"$F"
	bond_refused 1 "$F line 7: 'mode' given twice"
	printf 'network:\n  ethernets:\n    ens1f0np0: {mtu: 9000, mtu: 1500}\n  bonds:\n%s' "$BOND0" >"$F"
	bond_refused 1 "$F line 3: 'mtu' given twice"
	printf 'network:\n  bonds:\n%s  bonds:\n    bond1:\n      interfaces: [x0]\n' "$BOND0" >"$F"
	bond_refused 1 "$F line 7: 'bonds' given twice"
	printf 'network:\n  bonds:\n%sbonds:\n  bond1:\n    interfaces: [x0]\n' "$BOND0" >"$F"
	bond_refused 1 "$F line 7: 'bonds' beside 'network'"
	printf 'network:\n  bonds:\n%s---\nnetwork:\n  bonds:\n    bond1:\n      interfaces: [x0]\n' "$BOND0" >"$F"
	bond_refused 1 "$F line 7: only one document is allowed"
	printf 'm: &m [ens1f0np0, ens1f1np1]\nnetwork:\n  bonds:\n    bond0:\n      interfaces: *m\n' >"$F"
	bond_refused 1 "$F line 5: aliases are not allowed"
}

@test "bond apply -f: the same interface twice, or in two bonds, is an error with its line" {
	printf 'network:\n  bonds:\n    bond0:\n      interfaces: [ens1f0np0, ens1f1np1, ens1f0np0]\n      parameters:\n        mode: 802.3ad\n' >"$F"
	bond_refused 1 "$F line 4: interface 'ens1f0np0' given twice in 'bond0'"
	printf 'network:\n  bonds:\n%s    bond1:\n      interfaces: [ens1f1np1]\n      parameters:\n        mode: active-backup\n' "$BOND0" >"$F"
	bond_refused 1 "$F line 8: interface 'ens1f1np1' is in bond 'bond0' (line 3) too"
}

@test "bond apply -f: a name that reads as an option is no interface name" {
	printf 'network:\n  bonds:\n    --dry-run:\n      interfaces: [ens1f0np0]\n      parameters:\n        mode: 802.3ad\n' >"$F"
	bond_refused 1 "$F line 3: bond '--dry-run' is not an interface name"
	printf 'network:\n  bonds:\n    bond0:\n      interfaces: [--dry-run]\n' >"$F"
	bond_refused 1 "$F line 4: interface '--dry-run' is not an interface name"
	printf 'network:\n  bonds:\n%s        --dry-run: true\n' "$BOND0" >"$F"
	bond_refused 2 "$F line 7: bond parameter '--dry-run' is not one rdmactl sets"
}

@test "apply -f: a FIFO is refused at once (never opened for reading), a huge file is refused unread" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr timeout 10 "$RDMACTL" pfc apply -f "$BATS_TEST_TMPDIR/fifo"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"'$BATS_TEST_TMPDIR/fifo' is not a regular file"* ]] || fail "$stderr"
	run --separate-stderr timeout 10 "$RDMACTL" bond apply -f "$BATS_TEST_TMPDIR/fifo"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"is not a regular file"* ]] || fail "$stderr"
	run --separate-stderr timeout 10 "$RDMACTL" --root "$HOSTS/$LAG" diag -f "$BATS_TEST_TMPDIR/fifo"
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "exit $status: $stderr"
	[[ $stderr == *"is not a regular file"* ]] || fail "$stderr"
	truncate -s 2M "$F"
	run --separate-stderr dbl pfc apply -f "$F"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"is over 1048576 bytes"* ]] || fail "$stderr"
}

@test "pfc apply -f -: the file comes from standard input, as for bond and diag" {
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\n    prio-pfc: 4:on\n' >"$F"
	run --separate-stderr dbl pfc apply -f - <"$F"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"- line 4: 'prio-pfc' given twice"* ]] || fail "$stderr"
	printf 'devices:\n  - dev: eth9\n    prio-pfc: 3:on\n' >"$F"
	run --separate-stderr dbl --dry-run pfc apply -f - <"$F"
	assert_failure 4 # would change
}

@test "bond apply -f: a mapping of thousands of keys is refused at once (was quadratic: minutes)" {
	{
		printf 'network:\n  version: 2\n  x:\n'
		seq -f '    k%g: 1' 1 75000
	} >"$F"
	run --separate-stderr timeout 20 "$RDMACTL" --root "$HOSTS/$LAG" --dry-run bond apply -f "$F"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"$F line 4: more than 256 keys in one mapping"* ]] || fail "$stderr"
}

@test "bond apply -f: a document nested 80000 deep is refused at depth 32, as it is read (was quadratic: 22 s)" {
	{
		printf 'network:\n  bonds:\n    bond0: '
		perl -e 'print "[" x 80000, "]" x 80000, "\n"'
	} >"$F"
	run --separate-stderr timeout 20 "$RDMACTL" --root "$HOSTS/$LAG" --dry-run bond apply -f "$F"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"$F line 3: nested more than 32 deep"* ]] || fail "$stderr"
	# 32 deep is still a document: the error is then about what it says.
	{
		printf 'network:\n  bonds:\n    bond0: '
		perl -e 'print "[" x 29, "]" x 29, "\n"'
	} >"$F"
	run --separate-stderr "$RDMACTL" --root "$HOSTS/$LAG" --dry-run bond apply -f "$F"
	[ "$status" -ne 0 ]
	[[ $stderr != *"nested more than"* ]] || fail "$stderr"
}
