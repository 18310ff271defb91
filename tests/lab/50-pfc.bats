#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# rdmactl pfc on Soft-RoCE: RDMA-CM defaults through configfs; no DCB on virtio.

load lab_helper

setup_file() { need_lab 1; }

setup() {
	skip_unless_lab
	need_rdmactl
}

@test "rdmactl pfc: roce-tos and roce-mode on rxe0 through configfs, set, shown, idempotent" {
	run --separate-stderr on a ./rdmactl -j pfc set dev rxe0 roce-tos 106 roce-mode v2
	assert_success
	jq -e '.changed == true and .netdevs[0].netdev == "eth0" and
		.netdevs[0].after.roce[0] == {"device": "rxe0", "port": 1, "source": "configfs", "reason": null,
		"default_roce_mode": "RoCE v2", "default_roce_tos": 106} and
		(.netdevs[0].before.pfc | .source == "unknown" and .enabled_prios == null)' <<<"$output" || fail "$output"
	run --separate-stderr on a cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos \
		/sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_mode
	assert_success
	assert_output $'106\nRoCE v2'
	run --separate-stderr on a ./rdmactl -j pfc show dev eth0
	assert_success
	jq -e '.netdevs[0].roce[0] | .device == "rxe0" and .port == 1 and .source == "configfs" and
		.default_roce_tos == 106 and .default_roce_mode == "RoCE v2"' <<<"$output" || fail "$output"
	jq -e '.netdevs[0].pfc | .source == "unknown" and .prios == null' <<<"$output" || fail "virtio has no DCB: $output"
	run --separate-stderr on a ./rdmactl -j pfc set dev rxe0 roce-tos 106 roce-mode v2
	assert_success
	jq -e '.changed == false' <<<"$output" || fail "second set changed something: $output"
	# rxe supports RoCE v2 only: the kernel refuses v1, and the ToS written
	# just before it in the same change is put back.
	run on a ./rdmactl pfc set dev rxe0 roce-tos 0 roce-mode v1
	assert_failure 1
	assert_output --partial "default_roce_mode': Invalid argument (old state restored)"
	run on a cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos
	assert_output 106
	run on a ./rdmactl pfc set dev rxe0 roce-tos 0
	assert_success
	run on a cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos
	assert_output 0
}

@test "rdmactl pfc: PFC on a virtio NIC is refused with the reason" {
	run on a ./rdmactl pfc set dev eth0 prio-pfc 3:on
	assert_failure 1
	assert_output --partial "its driver implements no dcbnl operations"
}
