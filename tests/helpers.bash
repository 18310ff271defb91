# SPDX-License-Identifier: GPL-2.0-or-later
# helpers.bash - shared setup for the bats tiers
bats_require_minimum_version 1.5.0

# bats-support and bats-assert, their src/ files sourced in the order their load.bash
# gives, without the "$(dirname ...)" that each line of a load.bash forks and execs: 15 a
# test, every test of the cli, netns and ansible tiers (bats sources this file for each
# test), about 50 ms a test on a 2-CPU VM whose process starts cost 3.5 ms.  A load.bash
# of another form is loaded as it is.
bats_lib_load() {
	local dir=$1 line n=0
	local re='^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/(src/[A-Za-z0-9_]+\.bash)"$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			# shellcheck disable=SC1090 # the package's own files
			source "$dir/${BASH_REMATCH[1]}" || return 1
			n=$((n + 1))
		elif [[ $line =~ ^[[:space:]]*[^#[:space:]] ]]; then
			n=-1
			break
		fi
	done <"$dir/load.bash"
	[ "$n" -gt 0 ] || load "$dir/load.bash"
}
bats_lib_load /usr/lib/bats/bats-support
bats_lib_load /usr/lib/bats/bats-assert

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RDMACTL=${RDMACTL:-$TOP/rdmactl}
HOSTS=$TOP/testdata/hosts
export NO_COLOR=1
# Tests preload the dcbnl NIC double; an ASan build of rdmactl must accept
# a preload that is not its runtime (a no-op for ordinary builds).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
# Write verbs lock their netdevs (base/lock.h): in this test file's scratch, not /run/lock.
# Per file, not per run: with BATS_JOBS (tests/run) two files run at once, and neither may
# wait for the other's locks or see (or undo) the other's journals.
export RDMACTL_LOCK_DIR=${RDMACTL_LOCK_DIR:-${BATS_FILE_TMPDIR:-$BATS_RUN_TMPDIR}/rdmactl-lock}
# Undo journals (cmd/write.h) likewise: never /run/rdmactl of the machine.
export RDMACTL_RUN_DIR=${RDMACTL_RUN_DIR:-${BATS_FILE_TMPDIR:-$BATS_RUN_TMPDIR}/rdmactl-run}

# rdmactl on a fixture host: rd HOST ARGS...
rd() {
	local host=$1
	shift
	"$RDMACTL" --root "$HOSTS/$host" "$@"
}

# A TCP port of 127.0.0.1 for a test's own server, that nothing else can take before the
# server binds it, also with test files running in parallel (BATS_JOBS): below the kernel's
# ephemeral range (ip_local_port_range), where no connect() and no bind to port 0 (another
# test's pick) lands, reserved for this bats run (mkdir is atomic: two tests never get the
# same one), and with no socket on it now (/proc/net/tcp, tcp6).
own_port() {
	local lo p hex i
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
	# An ephemeral range that starts low leaves no room below it: 10000-32767 then, still
	# reserved and checked.
	[ "$lo" -gt 12000 ] || lo=32768
	mkdir -p "$BATS_RUN_TMPDIR/ports"
	for i in $(seq 200); do
		p=$((10000 + ${SRANDOM:-$RANDOM} % (lo - 10000)))
		mkdir "$BATS_RUN_TMPDIR/ports/$p" 2>/dev/null || continue
		hex=$(printf %04X "$p")
		cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -qE "^ *[0-9]+: [0-9A-F]+:$hex " && continue
		echo "$p"
		return 0
	done
	echo "own_port: no free TCP port in 10000-$((lo - 1)) after $i tries" >&2
	return 1
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
