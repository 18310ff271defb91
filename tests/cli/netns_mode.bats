#!/usr/bin/env bats
# The RDMA subsystem's netns mode (issue 25): nldev SYS_GET as the fixtures record it
# (scripts/mkhosts, testdata/hosts/README.md), and what port, port gids, port features and
# diag say with it; SR-IOV VFs moved into pods in exclusive mode (sriov-exclusive, -pod).
load ../helpers

# A copy of fixture HOST in DIR with no RDMA device left: a namespace nothing was moved into.
emptied() {
	local host=$1 dir=$2
	mkdir "$dir"
	cp -a "$HOSTS/$host/." "$dir/"
	rm -f "$dir"/sys/class/infiniband/*
}

@test "netns mode: a recorded shared mode is the JSON's netns_mode and the text's last line" {
	run --separate-stderr rd cx6dx -j port
	assert_success
	jq -e '.netns_mode == "shared" and (.ports | length) == 2' <<<"$output" >/dev/null ||
		fail "$output"
	run --separate-stderr rd cx6dx port
	assert_success
	assert_equal "${lines[-1]}" "rdma netns shared"
	# Exactly once, after the ports.
	assert_equal "$(grep -c '^rdma netns ' <<<"$output")" 1
	run rd cx6dx port features
	assert_success
	assert_line rdma.netns-mode=shared
}

@test "netns mode: every generated recording answers SYS_GET; 6.8 kernels with three attributes" {
	local h rec n=0
	for h in "$HOSTS"/*/; do
		rec=$h/kernel.rec
		[ -f "$rec" ] || continue
		[ "$(basename "$h")" != rxe-bond ] || continue # captured before rdmactl asked
		# > nl 20 <len 16><type 0x1406><flags REQUEST|ACK>...
		grep -q '^> nl 20 1000000006140500' "$rec" || fail "$h: no SYS_GET"
		n=$((n + 1))
	done
	[ "$n" -ge 12 ] || fail "only $n recordings"
	# RHEL 9.4 (5.14): NETNS_MODE (66) and COPY_ON_FORK (93); 6.8: PRIVILEGED_QKEY_MODE
	# (96) between them, as nldev_sys_get_doit() puts them.
	local hdr='[0-9a-f]{16}' # seq and port id
	grep -Eqx "< 2000000006140000${hdr}050042000100000005005d0001000000" \
		"$HOSTS/cx6dx/kernel.rec" || fail "cx6dx's answer"
	grep -Eqx "< 2800000006140000${hdr}0500420001000000050060000000000005005d0001000000" \
		"$HOSTS/ab-2nic/kernel.rec" || fail "ab-2nic's answer"
	grep -Eqx "< 2800000006140000${hdr}0500420000000000050060000000000005005d0001000000" \
		"$HOSTS/sriov-exclusive/kernel.rec" || fail "sriov-exclusive's answer"
}

@test "netns mode: unknown without a recording (rxe) or without the exchange (rxe-bond): null, no line" {
	local h
	for h in rxe rxe-bond; do
		run --separate-stderr rd "$h" -j port
		assert_success
		jq -e 'has("netns_mode") and .netns_mode == null' <<<"$output" >/dev/null ||
			fail "$h: $output"
		run --separate-stderr rd "$h" port
		assert_success
		refute_line --partial "rdma netns"
		run --separate-stderr rd "$h" port features
		assert_success
		refute_line --regexp '^rdma\.netns-mode='
	done
}

@test "sriov-exclusive: the PFs and the host's VFs listed, the VFs moved into pods not" {
	run --separate-stderr rd sriov-exclusive -j port
	assert_success
	jq -e '.netns_mode == "exclusive"' <<<"$output" >/dev/null || fail "$output"
	assert_equal "$(jq -r '[.ports[] | "\(.device)=\(.netdev)"] | join(" ")' <<<"$output")" \
		"mlx5_0=ens1f0np0 mlx5_1=ens1f1np1 mlx5_2=ens1f0v0 mlx5_3=ens1f0v1"
	run --separate-stderr rd sriov-exclusive port
	assert_success
	refute_output --partial mlx5_4
	refute_output --partial mlx5_5
	assert_equal "${lines[-1]}" "rdma netns exclusive"
	# Their PCI functions are there, bound, without class devices.
	local d
	for d in 0000:3b:00.4 0000:3b:00.5; do
		d=$HOSTS/sriov-exclusive/sys/bus/pci/devices/$d
		[ -e "$d/physfn" ] && [ -e "$d/driver" ] || fail "$d"
		[ ! -e "$d/infiniband" ] && [ ! -e "$d/net" ] || fail "$d has class devices"
	done
	run rd sriov-exclusive port features
	assert_success
	assert_line rdma.netns-mode=exclusive
	assert_line rdma.devices=4
	run --separate-stderr rd sriov-exclusive -j port features
	jq -e '.netns_mode == "exclusive" and .devices_count == 4' <<<"$output" >/dev/null ||
		fail "$output"
}

@test "sriov-exclusive-pod: only mlx5_4, its netdev net1, its GIDs in this namespace" {
	run --separate-stderr rd sriov-exclusive-pod -j port
	assert_success
	jq -e '.netns_mode == "exclusive" and ([.ports[] | [.device, .port, .netdev]] ==
		[["mlx5_4", 1, "net1"]])' <<<"$output" >/dev/null || fail "$output"
	run --separate-stderr rd sriov-exclusive-pod -j port gids
	assert_success
	assert_equal "$(jq -r '[.gids[] | "\(.index) \(.ip) \(.type) \(.netdev) \(.netdev_in_netns)"] |
		join(",")' <<<"$output")" \
		"0 fe80::aff:fe38:d905 RoCE v1 net1 true,1 fe80::aff:fe38:d905 RoCE v2 net1 true,2 10.56.217.5 RoCE v1 net1 true,3 10.56.217.5 RoCE v2 net1 true"
	run --separate-stderr rd sriov-exclusive-pod port gids
	assert_success
	refute_output --partial "other netns"
	run rd sriov-exclusive-pod port features
	assert_success
	assert_line rdma.devices=1
	assert_line rdma.netns-mode=exclusive
}

@test "an empty namespace in exclusive mode: exit 1, the mode and how to move a device in" {
	emptied sriov-exclusive-pod "$BATS_TEST_TMPDIR/ns"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/ns" port
	assert_failure 1
	[[ $stderr == *"no RDMA devices found; the RDMA netns mode is exclusive"* ]] || fail "$stderr"
	[[ $stderr == *"rdma dev set DEV netns NS"* ]] || fail "$stderr"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/ns" -j port
	assert_failure 1
	jq -e '.kind == "port-show" and .ports == [] and .netns_mode == "exclusive"' \
		<<<"$output" >/dev/null || fail "$output"
	[[ $stderr == *"the RDMA netns mode is exclusive"* ]] || fail "$stderr"
	# diag runs the host-wide checks and says why there is no port.
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/ns" diag
	[[ $stderr == *"no RDMA ports"* && $stderr == *exclusive* ]] || fail "$stderr"
}

@test "an empty namespace in shared mode: the host has no RDMA device at all" {
	emptied cx6dx "$BATS_TEST_TMPDIR/ns"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/ns" port
	assert_failure 1
	[[ $stderr == *"the RDMA netns mode is shared (every namespace sees every RDMA device), so this host has none"* ]] ||
		fail "$stderr"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/ns" -j port
	assert_failure 1
	jq -e '.ports == [] and .netns_mode == "shared"' <<<"$output" >/dev/null || fail "$output"
	# Unknown mode (no recording): the plain message, no guess.
	emptied rxe "$BATS_TEST_TMPDIR/rxe"
	run --separate-stderr "$RDMACTL" --root "$BATS_TEST_TMPDIR/rxe" port
	assert_failure 1
	[[ $stderr == *"no RDMA devices found"* && $stderr != *"netns mode"* ]] || fail "$stderr"
}

@test "netns mode: strict replay, every fixture's SYS_GET answer used once by port" {
	local h
	for h in cx6dx sriov-exclusive sriov-exclusive-pod; do
		RDMACTL_REPLAY_STRICT=asked run --separate-stderr "$RDMACTL" --root "$HOSTS/$h" -j port
		[ "$status" -eq 0 ] && [ -z "$stderr" ] || fail "$h: exit $status: $stderr"
	done
}
