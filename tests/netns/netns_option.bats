#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl -n NETNS: netlink and sysfs of a named network namespace, as `ip -n`.
# Needs root: `ip netns add` and setns(2); all of it in a private mount namespace
# with its own /run, so nothing is left behind.
load ../helpers

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (setns into a named network namespace)"
	unshare -m true 2>/dev/null || skip "needs unshare -m"
	command -v ip >/dev/null || skip "needs ip(8)"
}

# Run a script in a private mount namespace where network namespace rdtest
# exists with veth pair rdv0/rdv1; the script gets rdmactl as $1.
in_named_netns() {
	unshare -m bash -euc '
		mount --make-rprivate /
		mount -t tmpfs tmpfs /run
		ip netns add rdtest
		ip -n rdtest link add rdv0 type veth peer name rdv1
		'"$1" _ "$RDMACTL"
}

@test "netns option: -n NAME writes through that namespace's netlink" {
	run in_named_netns '
		rd=$1
		$rd -n rdtest port set rdv0 mtu 4000 up
		ip -n rdtest -o link show rdv0
		$rd port set rdv0 mtu 4000 || echo "host: rc=$?"'
	assert_success
	# Its peer rdv1 is down: up without carrier, as port set says.
	assert_line --index 0 "rdv0: mtu 1500 -> 4000 down -> up (no-carrier)"
	assert_line --index 1 --regexp "rdv0@rdv1: <.*UP.*> mtu 4000 "
	assert_line --regexp "^host: rc=[12]$"
}

@test "netns option: after the verb, as --netns, with -j, and as a path" {
	run in_named_netns '
		rd=$1
		$rd port set rdv1 mtu 2000 -j --netns rdtest
		$rd port set rdv1 --dry-run mtu 3000 -n /run/netns/rdtest'
	assert_failure 4 # would change
	[ "$(jq -c '[.netdev, .after.mtu_bytes]' <<<"${lines[0]}")" = '["rdv1",2000]' ]
	assert_line --index 1 --partial "rdv1: mtu 2000 -> 3000"
}

@test "netns option: sysfs shows the namespace's netdevs" {
	# The hint for a netdev named without 'dev' looks it up in /sys/class/net.
	run in_named_netns '
		rd=$1
		$rd -n rdtest pfc set rdv0 prio-pfc 3:on || echo "rc=$?"
		$rd pfc set rdv0 prio-pfc 3:on || echo "rc=$?"'
	assert_line --index 0 "rdmactl: pfc: set: unexpected argument 'rdv0'; did you mean 'dev rdv0'?"
	# On the host, rdv0 does not exist: no hint.
	assert_line --index 3 "rdmactl: pfc: set: unexpected argument 'rdv0'"
	assert_line --index 5 "rc=2"
}

@test "netns option: a missing namespace fails with its path" {
	run in_named_netns '
		rd=$1
		$rd -n nosuch port'
	assert_failure 1
	assert_output --partial "cannot open network namespace '/run/netns/nosuch': No such file or directory"
}

@test "netns option: completion offers the named namespaces after -n and --netns" {
	run in_named_netns '
		rd=$1
		ip netns add rdother
		echo "-n: $($rd __complete -n "" | tr "\n" " ")"
		echo "--netns r: $($rd __complete --netns rdo | tr "\n" " ")"
		echo "-jn: $($rd __complete -jn "" | tr "\n" " ")"'
	assert_success
	assert_line --index 0 "-n: rdother rdtest "
	assert_line --index 1 "--netns r: rdother "
	assert_line --index 2 "-jn: rdother rdtest "
}
