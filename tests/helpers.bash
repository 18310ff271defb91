# SPDX-License-Identifier: GPL-2.0-or-later
# helpers.bash - shared setup for the bats tiers
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RDMACTL=${RDMACTL:-$TOP/rdmactl}
HOSTS=$TOP/testdata/hosts
export NO_COLOR=1
# Tests preload the dcbnl NIC double; an ASan build of rdmactl must accept
# a preload that is not its runtime (a no-op for ordinary builds).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
# Write verbs lock their netdevs (base/lock.h): in this run's scratch, not /run/lock.
export RDMACTL_LOCK_DIR=${RDMACTL_LOCK_DIR:-$BATS_RUN_TMPDIR/rdmactl-lock}
# Undo journals (cmd/write.h) likewise: never /run/rdmactl of the machine.
export RDMACTL_RUN_DIR=${RDMACTL_RUN_DIR:-$BATS_RUN_TMPDIR/rdmactl-run}

# rdmactl on a fixture host: rd HOST ARGS...
rd() {
	local host=$1
	shift
	"$RDMACTL" --root "$HOSTS/$host" "$@"
}

# Parse stdin with a real JSON parser; fails on anything but one JSON document.
json_valid() {
	python3 -c 'import json,sys; json.load(sys.stdin)'
}

# Parse stdin with a real YAML parser (safe loader) and print it back as JSON.
yaml_to_json() {
	python3 -c 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'
}

# The netns tier's namespaces: `unshare -nm` as root, else `unshare -rnm` (a user
# namespace, in which the caller is root over its own network namespace).
# Sets NETNS to the command, or skips: the machine allows neither.
# shellcheck disable=SC2034 # NETNS is for the netns tests
need_netns() {
	if [ "$(id -u)" -eq 0 ] && unshare -nm true 2>/dev/null; then
		NETNS=(unshare -nm)
	elif unshare -rnm true 2>/dev/null; then
		NETNS=(unshare -rnm)
	else
		skip "needs root or user namespaces (unshare -rnm)"
	fi
}

# jq definitions for `port stats` documents, whose counters are a list of
# {group, name, value, delta, per_s}: `cmap` gives {GROUP: {NAME: value}},
# `cmap_rates` {GROUP: {NAME: {value, delta, per_s}}} (for lookups in tests).
# shellcheck disable=SC2034 # used inside jq programs of the tests
JQ_CMAP='def cmap: .counters | reduce .[] as $c ({}; .[$c.group][$c.name] = $c.value);
def cmap_rates: .counters | reduce .[] as $c ({}; .[$c.group][$c.name] = ($c | {value, delta, per_s}));
'
