#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What a container needs (docs/kubernetes.md): read verbs work with no capability at
# all, writes need CAP_NET_ADMIN and nothing more.  Each command runs under setpriv
# with a bounding set of only the capabilities named (root without them is as
# unprivileged as a pod's root with `drop: [ALL]`), in a private network namespace
# with a veth pair.
load ../helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (setpriv keeps capabilities only from root)"
	command -v setpriv >/dev/null || skip "needs setpriv (util-linux)"
	unshare -nm true 2>/dev/null || skip "needs unshare -nm"
}

# in_ns SCRIPT: SCRIPT in a new network and mount namespace holding veth rdc0/rdc1,
# with $1 = rdmactl; "caps LIST CMD..." runs CMD with only capabilities LIST ("-all" none).
in_ns() {
	unshare -nm bash -euc '
		mount --make-rprivate /
		mount -t sysfs sysfs /sys
		ip link add rdc0 type veth peer name rdc1
		caps() {
			local set=-all
			[ "$1" = none ] || set=-all,+$1
			shift
			setpriv --inh-caps=-all --ambient-caps=-all --bounding-set="$set" -- "$@"
		}
		# The script reads exit statuses itself.
		set +e
		'"$1" _ "$RDMACTL"
}

@test "capabilities: the process really has none, or only CAP_NET_ADMIN" {
	run in_ns '
		caps none grep ^CapEff /proc/self/status
		caps net_admin grep ^CapEff /proc/self/status'
	assert_success
	assert_line --index 0 --regexp '^CapEff:[[:space:]]+0+$'
	# CAP_NET_ADMIN is bit 12.
	assert_line --index 1 --regexp '^CapEff:[[:space:]]+0+1000$'
}

@test "capabilities: read verbs need none (bond show, pfc show, a dry run, fixtures)" {
	run in_ns '
		rd=$1
		caps none $rd -j bond show; echo "bond show: rc=$?"
		caps none $rd -j pfc show dev rdc0 >/dev/null 2>&1; echo "pfc show: rc=$?"
		caps none $rd port set rdc0 mtu 2000 --dry-run; echo "dry run: rc=$?"
		caps none $rd --root '"$HOSTS"'/cx6dx -j port >/dev/null; echo "port: rc=$?"
		caps none $rd --root '"$HOSTS"'/cx6dx -j diag >/dev/null; echo "diag: rc=$?"
		caps none $rd --root '"$HOSTS"'/cx6dx port features >/dev/null; echo "features: rc=$?"'
	assert_success
	assert_line '{"schema":3,"kind":"bond-show","bonds":[]}'
	assert_line "bond show: rc=0"
	# veth has no DCB: what pfc show says of any NIC without it, not a permission error.
	assert_line --regexp "^pfc show: rc=[01]$"
	assert_line --partial "rdc0: mtu 1500 -> 2000"
	assert_line "dry run: rc=4"
	assert_line "port: rc=0"
	assert_line --regexp "^diag: rc=[03]$"
	assert_line "features: rc=0"
	refute_output --partial "CAP_NET_ADMIN"
}

@test "capabilities: a write needs CAP_NET_ADMIN, says so without it, and needs nothing else" {
	run in_ns '
		rd=$1
		caps none $rd port set rdc0 mtu 2000 2>&1; echo "none: rc=$?"
		ip -o link show rdc0 | grep -o "mtu [0-9]*"
		caps net_admin $rd port set rdc0 mtu 2000; echo "net_admin: rc=$?"
		ip -o link show rdc0 | grep -o "mtu [0-9]*"'
	assert_success
	assert_line --partial "needs CAP_NET_ADMIN"
	assert_line "none: rc=1"
	assert_line --index 2 "mtu 1500"
	assert_line "rdc0: mtu 1500 -> 2000"
	assert_line "net_admin: rc=0"
	assert_line "mtu 2000"
}
