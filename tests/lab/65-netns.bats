#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# RDMA and network namespaces (issue 25), as a pod sees them: shared mode with
# a namespace holding eth1, bench between two such namespaces, exclusive mode
# with an empty one.  Soft-RoCE facts this file rests on (DESIGN.md §6): an
# rxe device cannot move between namespaces, moving its netdev unregisters it,
# and 'rdma link add' run inside a namespace makes the device in the root one.

load lab_helper

setup_file() {
	need_lab 2
	[ -n "$LAB_SKIP" ] || "$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

teardown() {
	[ -n "${LAB_SKIP:-}" ] || "$LAB" reset >/dev/null 2>&1 || true
}

# pod_holds_eth1 HOST: namespace pod1 on HOST takes eth1 with its address
# (198.18.2.x), and rxe1, which the move unregistered, is made again on it
# from inside pod1.  Returns when pod1 sees rxe1's RoCE v2 GID of that address.
pod_holds_eth1() {
	local x=1
	[ "$1" = b ] && x=2
	on "$1" "set -e
		ip netns add pod1
		ip link set eth1 netns pod1
		ip -n pod1 link set lo up
		ip -n pod1 addr add 198.18.2.$x/24 dev eth1
		ip -n pod1 link set eth1 up
		ip netns exec pod1 rdma link add rxe1 type rxe netdev eth1
		for i in \$(seq 100); do
			ip netns exec pod1 grep -qx '0000:0000:0000:0000:0000:ffff:c612:02$(printf %02x $x)' \
				/sys/class/infiniband/rxe1/ports/1/gids/1 2>/dev/null && exit 0
			sleep 0.1
		done
		echo 'rxe1 never got the GID of 198.18.2.$x in pod1' >&2
		exit 1"
}

@test "shared mode: a namespace holding eth1 sees every device, its own GIDs marked as such" {
	pod_holds_eth1 a
	run --separate-stderr on a ./rdmactl -n pod1 -j port
	assert_success
	jq -e '.netns_mode == "shared" and ([.ports[].device] | sort) == ["rxe0", "rxe1"] and
		(.ports[] | select(.device == "rxe1") | .netdev == "eth1" and .carrier == true) and
		(.ports[] | select(.device == "rxe0") | .netdev == null)' <<<"$output" || fail "$output"
	run --separate-stderr on a ./rdmactl -n pod1 port
	assert_success
	assert_line 'rdma netns shared'

	# The GIDs of the netdev the namespace holds are its own; eth0's are another's.
	run --separate-stderr on a ./rdmactl -n pod1 -j port gids
	assert_success
	jq -e '[.gids[] | select(.device == "rxe1" and .ip == "198.18.2.1")] |
		length == 1 and .[0].netdev == "eth1" and .[0].netdev_in_netns == true' <<<"$output" ||
		fail "$output"
	jq -e '[.gids[] | select(.device == "rxe0")] | length > 0 and
		all(.netdev == "eth0" and .netdev_in_netns == false)' <<<"$output" || fail "$output"
	run --separate-stderr on a ./rdmactl -n pod1 port gids
	assert_success
	assert_line --regexp '^rxe0/1 +1 +::ffff:198\.18\.1\.1 +RoCE v2 +eth0 \(other netns\) +\*$'
	assert_line --regexp '^rxe1/1 +1 +::ffff:198\.18\.2\.1 +RoCE v2 +eth1 +\*$'
	# ... and the root namespace sees it the other way round.
	run --separate-stderr on a ./rdmactl -j port gids rxe1
	assert_success
	jq -e '[.gids[] | select(.ip == "198.18.2.1")] | length == 1 and
		.[0].netdev_in_netns == false' <<<"$output" || fail "$output"

	# Every read verb reads what pod1 sees.
	run --separate-stderr on a ./rdmactl -n pod1 -j port stats eth1
	assert_success
	jq -e '.stats[0].netdev == "eth1" and (.stats[0].counters | length) > 0' <<<"$output" ||
		fail "$output"
	run --separate-stderr on a ./rdmactl -n pod1 -j pfc show
	assert_success
	jq -e '[.netdevs[].netdev] | index("eth1") != null and
		index("eth0") == null' <<<"$output" || fail "$output"
	run --separate-stderr on a ./rdmactl -n pod1 -j bond show
	assert_success
	[ "$output" != "" ] && jq -e '.bonds == []' <<<"$output" || fail "$output"
	# 0, or 3 for warnings (the lab's kernel has no modules for some checks).
	run --separate-stderr on a ./rdmactl -n pod1 -j diag interval 0
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "exit $status: $stderr"
	jq -e '.kind == "diag-run"' <<<"$output" || fail "$output"
	run --separate-stderr on a ./rdmactl -n pod1 port features
	assert_success
	assert_line 'rdma.netns-mode=shared'
	assert_line 'rdma.devices=2'
}

# The RDMA path is link 1 (rxe0 on eth0, in each root namespace): Soft-RoCE in
# the lab's kernel (6.1) routes and receives RoCE in the initial namespace only,
# so rxe1 on an eth1 inside pod1 fails its first send (local QP operation
# error).  The benchmark's own TCP connection reaches the server only through
# pod1 (the root namespaces have no 198.18.2.0/24 any more): it proves where
# each side ran.
@test "bench between namespaces: server and client each in pod1, over one link" {
	pod_holds_eth1 a
	pod_holds_eth1 b
	on b "(timeout 60 ./rdmactl -n pod1 bench server once >/tmp/netns-server.out 2>&1 &)
		for i in \$(seq 50); do ip netns exec pod1 ss -Hltn 'sport = :18515' | grep -q . && exit 0; sleep 0.1; done
		cat /tmp/netns-server.out; exit 1"
	run --separate-stderr on a ./rdmactl bench client 198.18.2.2 link rxe0:rxe0 duration 1
	assert_failure
	run --separate-stderr env LAB_TIMEOUT=120 "$LAB" run a ./rdmactl -n pod1 -j bench client 198.18.2.2 link rxe0:rxe0 duration 2
	assert_success
	jq -e '(.links | length) == 1 and .links[0].local.device == "rxe0" and
		.links[0].remote.ip == "198.18.1.2" and .total.gbps > 0' <<<"$output" || fail "$output"
	run on b 'for i in $(seq 50); do grep -q "done, client measured" /tmp/netns-server.out && break; sleep 0.1; done; cat /tmp/netns-server.out'
	assert_output --partial 'run 1 from 198.18.2.1:'
	assert_output --partial 'done, client measured'
}

@test "exclusive mode: an empty namespace sees no device and says why; the root keeps its devices" {
	# The kernel changes the mode only while no namespace but the initial one exists.
	on a 'rdma system set netns exclusive && ip netns add pod2'
	run --separate-stderr on a ./rdmactl -n pod2 port
	assert_failure 1
	[[ $stderr == *"no RDMA devices found; the RDMA netns mode is exclusive"*"rdma dev set DEV netns NS"* ]] ||
		fail "$stderr"
	run --separate-stderr on a ./rdmactl -n pod2 -j port
	assert_failure 1
	jq -e '.netns_mode == "exclusive" and .ports == []' <<<"$output" || fail "$output"
	run --separate-stderr on a ./rdmactl -n pod2 -j diag interval 0
	[[ $stderr == *"no RDMA ports"*"exclusive"* ]] || fail "$stderr"
	run --separate-stderr on a ./rdmactl -n pod2 port features
	assert_success
	assert_line 'rdma.capable=false'
	assert_line 'rdma.netns-mode=exclusive'

	# The root namespace keeps its devices and says which mode it is in.
	run --separate-stderr on a ./rdmactl -j port
	assert_success
	jq -e '.netns_mode == "exclusive" and ([.ports[].device] | sort) == ["rxe0", "rxe1"]' <<<"$output" ||
		fail "$output"
	# A bundle taken now records the mode: read back offline, it says exclusive.
	on a 'rm -f /tmp/netns-excl.tgz; ./rdmactl diag collect out /tmp/netns-excl.tgz interval 0 >/dev/null'
	run --separate-stderr on a './rdmactl --root /tmp/netns-excl.tgz -j port; rm -f /tmp/netns-excl.tgz'
	assert_success
	jq -e '.netns_mode == "exclusive" and ([.ports[].device] | sort) == ["rxe0", "rxe1"]' <<<"$output" ||
		fail "$output"
	# Soft-RoCE cannot be moved in: the fact the message's "driver must support" is about.
	run on a 'rdma dev set rxe1 netns pod2'
	assert_failure
	assert_output --partial 'Operation not supported'
}
