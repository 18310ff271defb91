#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# What becomes of a member, against the real bonding driver: its static
# IPv6 address after a rollback or a revert (the kernel drops a netdev's
# IPv6 addresses when it goes down, and rdmactl takes members down to
# enslave them), and `bond failover member IF` on a when the peer b has no
# bond at all. The lab runs with IPv6 off; a's eth1 gets it here, and
# teardown_file turns it off again.

load lab_helper

R=${RDMACTL_VM:-./rdmactl}
V6=fd00:9::1/64
MIIMON=100
# TCG on a shared host: a VM stalls whenever qemu is not scheduled (seen: 400 ms).
SLACK_MS=400

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	"$LAB" reset >/dev/null 2>&1 || true
}

teardown_file() {
	[ -z "$LAB_SKIP" ] || return 0
	# What 'lab reset' does not put back: a sysctl, b's route and neighbour.
	on a 'echo 1 >/proc/sys/net/ipv6/conf/eth1/disable_ipv6' >/dev/null 2>&1 || true
	on b 'ip route del 198.18.9.1/32 dev eth1; ip neigh del 198.18.9.1 dev eth1' >/dev/null 2>&1 || true
	"$LAB" reset >/dev/null 2>&1 || true
}

setup() {
	skip_unless_lab
	need_rdmactl
}

# jq on the JSON a command printed, failing with the document.
expect() {
	jq -e --argjson miimon $MIIMON --argjson slack $SLACK_MS "$1" <<<"$output" >/dev/null ||
		fail "not ($1): $(jq . <<<"$output" 2>/dev/null || echo "$output")"
}

# eth1_state: "gone|bond1 free|enslaved FLAGS" and then eth1's global IPv6 and IPv4 addresses.
eth1_state() {
	run --separate-stderr on a 'for b in bond1 bond2; do test -e /sys/class/net/$b && echo $b; done; echo end;
		test -e /sys/class/net/eth1/master && echo enslaved || echo free; cat /sys/class/net/eth1/flags;
		ip -o addr show dev eth1 scope global | while read -r _ _ fam a _; do echo "$fam $a"; done'
	assert_success
}

@test "setup: eth1 on a has IPv6 and a static address $V6" {
	run --separate-stderr on a "echo 0 >/proc/sys/net/ipv6/conf/eth1/disable_ipv6 && ip -6 address add $V6 dev eth1"
	assert_success
	eth1_state
	assert_line "inet6 $V6"
	assert_line "inet 198.18.2.1/24"
}

@test "bond --dry-run create: the plan is as before, nothing about addresses, nothing sent" {
	run --separate-stderr on a "$R -j --dry-run bond create bond1 mode active-backup members eth1 miimon 100"
	assert_failure 4 # would change
	expect '.dry_run and .changed and .bonds[0].after == null'
	expect '[.bonds[0].steps[].op] == ["create", "down", "enslave", "up", "up"]'
	expect '[.bonds[0].steps[].text] == ["create bond1 mode active-backup miimon 100", "set eth1 down (to be enslaved)", "enslave eth1 to bond1", "set eth1 up", "set bond1 up"]'
	eth1_state
	assert_line "inet6 $V6"
	assert_line free
}

@test "bond create with a member the kernel refuses after eth1 joined: eth1 gets $V6 back" {
	# eth1 goes down and is enslaved (its IPv6 address goes with that), then the
	# kernel refuses lo: the rollback releases eth1, brings it up, and adds the
	# address back.
	run --separate-stderr on a "$R bond create bond1 mode active-backup members eth1,lo miimon 100"
	assert_failure 1
	[[ $stderr == *"enslave lo to bond1"*"old state restored, IPv6 $V6 on eth1 added back"* ]] || fail "$stderr"
	eth1_state
	assert_line --index 0 end
	assert_line free
	(($(sed -n 3p <<<"$output") & 1)) || fail "eth1 is not up: $output"
	assert_line "inet6 $V6"
	assert_line "inet 198.18.2.1/24"
	# lo came back up too (it was taken down to be enslaved).
	run on a 'cat /sys/class/net/lo/flags'
	(($(head -1 <<<"$output") & 1)) || fail "lo is not up: $output"
}

@test "bond apply where the second bond fails: the first is reverted, eth1 gets $V6 back" {
	run on a 'cat >/tmp/bond-revert.yaml <<YAML
network:
  version: 2
  bonds:
    bond1:
      interfaces: [eth1]
      parameters:
        mode: active-backup
        mii-monitor-interval: 100
    bond2:
      interfaces: [eth0, lo]
      parameters:
        mode: active-backup
YAML'
	assert_success
	run --separate-stderr on a "$R bond apply -f /tmp/bond-revert.yaml"
	assert_failure 1
	[[ $stderr == *"enslave lo to bond2"*"old state restored"* ]] || fail "$stderr"
	[[ $stderr != *"failed too"* ]] || fail "$stderr"
	eth1_state
	assert_line --index 0 end
	assert_line free
	(($(sed -n 3p <<<"$output") & 1)) || fail "eth1 is not up: $output"
	assert_line "inet6 $V6"
	assert_line "inet 198.18.2.1/24"
}

@test "bond create that succeeds: eth1's IPv6 address is gone (a member has none), delete leaves it up" {
	# The restore is for an undo only: a member of a bond keeps no address.
	run --separate-stderr on a "$R -j bond create bond1 mode active-backup members eth1 miimon 100"
	assert_success
	expect '.changed and [.bonds[0].after.members[].netdev] == ["eth1"]'
	eth1_state
	assert_line enslaved
	refute_line "inet6 $V6"
	run --separate-stderr on a "$R -j bond delete bond1"
	assert_success
	eth1_state
	assert_line free
	(($(sed -n 3p <<<"$output") & 1)) || fail "eth1 is not up: $output"
	on a 'echo 1 >/proc/sys/net/ipv6/conf/eth1/disable_ipv6'
}

# ---- failover measured on a, whose peer b has no bond ----
#
# Back to back there is no switch that learns where a's active member is, so
# b cannot follow a failover by itself. What makes the probe stream work over
# either of a's members:
# - b has the peer address 198.18.9.2/32 on both eth0 and eth1 (its own
#   addresses stay), so a reaches it over either cable;
# - b answers over eth1 always (a /32 route and a permanent neighbour for
#   198.18.9.1 on eth1, with a's eth1 MAC), and a's bond takes frames on its
#   backup member too (all_slaves_active 1): the answers get through before
#   the failover (eth0 active) and after it (eth1 active);
# - a's bond has fail_over_mac active: its MAC is the active member's, so a
#   failover changes it, which flushes a's neighbour cache; a asks for
#   198.18.9.2 again over eth1 and gets b's eth1 MAC (otherwise it would keep
#   sending to b's eth0 MAC over the other cable, where b's eth1 drops it).
# The outage is therefore detection + reaction + one ARP exchange.

@test "failover: member eth0 of a taken down and restored while b, unbonded, answers" {
	local a_eth1_mac
	a_eth1_mac=$(on a 'cat /sys/class/net/eth1/address') || fail "no MAC for a's eth1"
	run --separate-stderr on b "ip address add 198.18.9.2/32 dev eth0 && ip address add 198.18.9.2/32 dev eth1 &&
		ip route replace 198.18.9.1/32 dev eth1 &&
		ip neigh replace 198.18.9.1 lladdr $a_eth1_mac dev eth1 nud permanent"
	assert_success
	# fail_over_mac and all_slaves_active can only be set while the bond has no
	# member: ip makes the bond, rdmactl converges it.
	run --separate-stderr on a "ip link add bond0 type bond mode active-backup fail_over_mac active all_slaves_active 1 &&
		$R -j bond create bond0 mode active-backup members eth0,eth1 miimon $MIIMON primary eth0"
	assert_success
	expect '.changed and .bonds[0].before != null and [.bonds[0].after.members[].netdev] == ["eth0", "eth1"]'
	run --separate-stderr in_vm a "ip link set bond0 up && ip address add 198.18.9.1/24 dev bond0 &&
		wait_for 15 active_slave_is bond0 eth0 && wait_for 15 busybox ping -c 1 -W 1 -I bond0 198.18.9.2 >/dev/null"
	assert_success

	LAB_TIMEOUT=150 run --separate-stderr on a "$R -j bond failover bond0 member eth0 peer 198.18.9.2 no-rdma"
	[ "$status" -eq 0 ] || fail "exit $status: $stderr $output"
	jq -r '"detect \(.detect_s) s, react \(.react_s) s, failover \(.failover_s) s, outage \(.probe.outage_s) s (\(.probe.gap_lost) probes of \(.probe.sent) lost, resolution \(.probe.resolution_s) s), recovered \(.probe.recovered_after_fault_s) s after the fault, failback gap \(.probe.failback_gap_s) s"' \
		<<<"$output" | sed 's/^/# /' >&3
	expect '.failover and .member == "eth0" and .active_before == "eth0" and .active_after == "eth1" and .active_final == "eth0"'
	# The kernel's side, as 45-bond-failover checks it.
	expect '.detect_s != null and .detect_s >= 0 and .detect_s * 1000 <= $miimon + $slack'
	expect '.react_s != null and .react_s >= 0 and .react_s * 1000 <= $slack'
	expect 'any(.events[]; .what == "fault_injected") and any(.events[]; .what == "restored")'
	expect 'any(.events[]; .netdev == "bond0" and .what == "active_member" and .value == "eth1")'
	# Traffic's side: probes lost over the failover, then answered again over eth1
	# before the restore (the gap is closed at both ends), no RDMA asked for.
	expect '.probe.ran and .probe.gap_lost > 0 and (.probe.gap_open_start or .probe.gap_open_end | not)'
	expect '.probe.outage_s > 0 and .probe.outage_s * 1000 <= (.detect_s + .react_s) * 1000 + $miimon + 2 * $slack'
	expect '.probe.recovered_after_fault_s > 0 and .restore_s > .fault_s + .probe.recovered_after_fault_s'
	expect '.rdma.ran == false and .rdma.qp_survived == null'
	# eth0 is back: up, still a member, active again (the primary).
	run --separate-stderr in_vm a 'cat /sys/class/net/eth0/flags; basename "$(readlink /sys/class/net/eth0/master)";
		wait_for 10 active_slave_is bond0 eth0 && echo active'
	assert_success
	(($(head -1 <<<"$output") & 1)) || fail "eth0 is not up: $output"
	assert_line bond0
	assert_line active
	run --separate-stderr on a "$R -j bond show bond0"
	expect '[.bonds[0].members[] | select(.netdev == "eth0") | .mii_status] == ["up"]'
}
