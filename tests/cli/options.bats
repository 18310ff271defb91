#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# global options after the verb as before it, did-you-mean for options, -V with the
# libraries' versions, -n NETNS refused where it cannot apply
load ../helpers

@test "options after the verb: -j, --json, -p, --root as before it" {
	run "$RDMACTL" --root "$HOSTS/cx6dx" -j port show
	assert_success
	before=$output
	run "$RDMACTL" port show -j --root "$HOSTS/cx6dx"
	assert_success
	assert_equal "$output" "$before"
	run "$RDMACTL" --root "$HOSTS/cx6dx" port -j mlx5_0
	assert_success
	jq -e '.ports | length > 0' <<<"$output"
	run "$RDMACTL" --root="$HOSTS/cx6dx" port show mlx5_0 --json -p
	assert_success
	assert_line --index 0 "{"
	run rd cx6dx diag list --json
	assert_success
	jq -e . <<<"$output" >/dev/null
	# A bundle and --yaml after the verb.
	run rd cx6dx port show -jp
	assert_success
	assert_line --index 0 "{"
	run rd cx6dx port show --yaml
	assert_success
	refute_line --index 0 "{"
}

@test "options after the verb: keyword values stay the keyword's" {
	# -f's value is a word of its own, even "-" or one that looks like an option.
	run rd cx6dx pfc apply -f -j
	assert_failure
	refute_output --partial "unknown"
	run rd cx6dx pfc apply -f "$BATS_TEST_TMPDIR/none.yaml" -j --dry-run
	assert_failure 1
	assert_output --partial "none.yaml"
	# The value of a global option after the verb is its value, not an object.
	run "$RDMACTL" port show --root "$HOSTS/cx6dx" mlx5_0 -j
	assert_success
	jq -e '[.ports[].device] | unique == ["mlx5_0"]' <<<"$output"
}

@test "options after the verb: combinations, -- and unknown ones" {
	run rd cx6dx port show -j --yaml
	assert_failure 2
	assert_output --partial "--json and --yaml exclude each other"
	run rd cx6dx port show --jsn
	assert_failure 2
	assert_output --partial "unknown option '--jsn'; did you mean '--json'?"
	# After "--" a word is a name, never an option.
	run rd cx6dx port show -- -j
	assert_failure
	refute_output --partial "did you mean"
	run rd cx6dx port show -h
	assert_success
	assert_output --partial "rdmactl port show"
	run rd cx6dx port -V
	assert_success
	assert_line --index 0 --regexp '^rdmactl [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "did you mean for options before the verb" {
	run "$RDMACTL" --jsn port
	assert_failure 2
	assert_output --partial "unknown option '--jsn'; did you mean '--json'?"
	run "$RDMACTL" --dryrun port
	assert_output --partial "did you mean '--dry-run'?"
	run "$RDMACTL" --rot=/x port
	assert_output --partial "did you mean '--root'?"
	# An abbreviation getopt_long accepts is no typo.
	run "$RDMACTL" --js --root "$HOSTS/cx6dx" port
	assert_success
	run "$RDMACTL" --frobnicate port
	assert_failure 2
	assert_output --partial "unknown or incomplete option '--frobnicate'"
	run "$RDMACTL" -n
	assert_failure 2
	assert_output --partial "'-n' needs a value NETNS"
}

@test "-V names rdmactl and the libraries, -j as JSON" {
	run "$RDMACTL" -V
	assert_success
	assert_line --index 0 --regexp '^rdmactl [0-9]+\.[0-9]+\.[0-9]+$'
	assert_line --regexp '^  rdma-core +[0-9]+\.[0-9]+ +\(at build time\)$'
	assert_line --regexp '^  libibverbs +[0-9]+\.[0-9]+ +\(at build time\)$'
	assert_line --regexp '^  libnl +[0-9]+\.[0-9]+\.[0-9]+ +\(in use\)$'
	assert_line --regexp '^  libmnl +[0-9.]+ +\(at build time\)$'
	assert_line --regexp '^  libyaml +[0-9]+\.[0-9]+\.[0-9]+ +\(in use\)$'
	if command -v pkg-config >/dev/null; then
		assert_line --regexp "^  libyaml +$(pkg-config --modversion yaml-0.1) "
	fi
	run "$RDMACTL" --version -j
	assert_success
	jq -e '(.version | test("^[0-9]+\\.[0-9]+\\.[0-9]+$")) and
		([.libraries[].name] == ["rdma-core","libibverbs","libnl","libmnl","libyaml"]) and
		([.libraries[].source] == ["build","build","runtime","build","runtime"]) and
		all(.libraries[]; .version | length > 0)' <<<"$output"
}

@test "-n NETNS is refused with --root and --replay, and a missing one fails" {
	run "$RDMACTL" -n x --root "$HOSTS/cx6dx" port
	assert_failure 2
	assert_output --partial "-n enters a live network namespace: not with --root or --replay"
	run rd cx6dx port show --netns x
	assert_failure 2
	run "$RDMACTL" --replay /dev/null -n x port
	assert_failure 2
	run "$RDMACTL" -n "$BATS_TEST_TMPDIR/nosuch" port
	assert_failure 1
	assert_output --partial "cannot open network namespace '$BATS_TEST_TMPDIR/nosuch'"
}

@test "a device named without its keyword: did you mean 'dev NAME'" {
	run rd cx6dx pfc set ens1f0np0 prio-pfc 3:on
	assert_failure 2
	assert_output --partial "unexpected argument 'ens1f0np0'; did you mean 'dev ens1f0np0'?"
	run rd cx6dx pfc set nosuchdev prio-pfc 3:on
	assert_failure 2
	refute_output --partial "did you mean"
}

@test "value errors name the valid values" {
	run rd cx6dx pfc set dev ens1f0np0 prio-pfc 3:maybe
	assert_failure 2
	assert_output --partial "'prio-pfc 3:maybe': bad value 'maybe', expected on or off"
	run rd cx6dx pfc set dev ens1f0np0 tc-tsa 0:fast
	assert_failure 2
	assert_output --partial "expected strict, cbs, ets or vendor"
	run rd cx6dx pfc set dev ens1f0np0 prio-tc 9:1
	assert_failure 2
	assert_output --partial "'9' is not all or 0-7"
	run rd cx6dx bench client 10.0.0.1 mtu 9000
	assert_failure 2
	assert_output --partial "256, 512, 1024, 2048 or 4096"
}
