#!/usr/bin/env bats
# pfc against the real kernel: a veth has no dcbnl operations
load ../helpers

setup() {
	need_netns
}

@test "netns: pfc set/apply on a veth say the driver has no DCB support, exit 1; show says unknown" {
	run "${NETNS[@]}" bash -euc '
		mount -t sysfs sysfs /sys
		ip link add veth0 type veth peer name veth1
		rd=$1
		$rd pfc set dev veth0 prio-pfc 3:on && exit 9
		echo "rc=$?"
		$rd pfc apply dev veth0 profile roce-lossless || echo "rc=$?"
		$rd -j pfc show dev veth0' _ "$RDMACTL"
	assert_success
	assert_line --index 0 "rdmactl: pfc: cannot read DCB of 'veth0': Operation not supported (its driver implements no dcbnl operations; virtual devices such as veth and virtio, and most VFs, have no DCB support)"
	assert_line --index 1 "rc=1"
	assert_line --index 3 "rc=1"
	# show answers: every DCB value unknown, with the reason, never a guess.
	[ "$(echo "${lines[4]}" | jq -c '.netdevs[0] | [.pfc.source, .pfc.reason, .trust.source, .ets.source]')" = \
	  '["unknown","the driver implements no dcbnl operations","unknown","unknown"]' ]
	# Every key of an unknown section is there, null (schema 3).
	echo "${lines[4]}" | jq -e '.netdevs[0] | (.pfc | has("enabled_prios") and .enabled_prios == null and .prios == null) and
		.trust.value == null and .dscp_prio.map == null and .ets.prio_tc == null'
	echo "${lines[4]}" | "$TOP/tests/schema-check" -q -
}

@test "netns: an unknown interface is the kernel's 'no such device'" {
	run "${NETNS[@]}" bash -c '"$1" pfc show dev nosuch0' _ "$RDMACTL"
	assert_failure 1
	assert_output --partial "cannot read DCB of 'nosuch0'"
}
