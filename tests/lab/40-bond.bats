#!/usr/bin/env bats
# shellcheck disable=SC2016,SC2154 # '...' expands in the VM; bats' run sets $stderr
# The bonding driver in the VMs: an active-backup bond over links 1 and 2
# on both hosts, failover when a cable is pulled (from inside a VM, while
# traffic runs), RoCE v2 over the bond, and the way back.
# The tests build on each other, in file order; teardown_file puts the
# lab back as it was ('scripts/lab reset').

load lab_helper

setup_file() {
	need_lab 2
	[ -z "$LAB_SKIP" ] || return 0
	local rc=0
	in_vm a "make_bond 198.18.100.1" &
	in_vm b "make_bond 198.18.100.2" || rc=1
	wait $! || rc=1
	if [ $rc != 0 ]; then
		"$LAB" reset >/dev/null 2>&1
		false
	fi
}

setup() { skip_unless_lab; }

teardown_file() {
	[ -n "$LAB_SKIP" ] || "$LAB" reset >/dev/null 2>&1 || true
}

@test "bond: active-backup over eth0 and eth1 on both hosts, traffic flows" {
	for h in a b; do
		run --separate-stderr on "$h" 'cat /proc/net/bonding/bond0'
		assert_success
		assert_line "Bonding Mode: fault-tolerance (active-backup)"
		assert_line "Currently Active Slave: eth0"
		assert_line "Slave Interface: eth1"
	done
	run --separate-stderr on b 'busybox ping -c 3 -W 2 198.18.100.1'
	assert_success
}

@test "bond: a cable pulled inside b while pinging: both fail over to eth1, pings go on" {
	# One script in the VM: traffic runs, the cable goes (the host carries
	# out the request), the traffic keeps going over link 2.
	run --separate-stderr on b '
		busybox ping -q -i 0.2 -c 25 -W 1 198.18.100.1 >/tmp/ping.out 2>&1 &
		p=$!
		. tests/lab/guest.bash
		nap 2
		scripts/lab link 1 down || exit 1
		wait_for 10 active_slave_is bond0 eth1 || exit 1
		wait $p
		cat /tmp/ping.out'
	assert_success
	received=$(sed -n 's/.* \([0-9]*\) packets received.*/\1/p' <<<"$output")
	[ "${received:-0}" -ge 20 ] || fail "lost too many pings over the failover: $output"
	run --separate-stderr in_vm a 'wait_for 10 active_slave_is bond0 eth1'
	assert_success
}

@test "bond: RoCE v2 over the bond (rxe on bond0) runs on the surviving link" {
	on a 'rdma link add rxeb type rxe netdev bond0' &
	on b 'rdma link add rxeb type rxe netdev bond0'
	wait $!
	run write_bw "-n 50" rxeb:198.18.100.1:rxeb:198.18.100.2:18540
	assert_success
}

@test "bond: cable back, both hosts return to the primary eth0" {
	"$LAB" link 1 up
	run both 'wait_for 30 active_slave_is bond0 eth0'
	assert_success
}

@test "bond: --confirm cutting the bond the session runs over, unconfirmed: back within SEC + 2 s" {
	# b's probes stand for the operator's SSH session to a over bond0: at least 25 (about
	# as long as the cut and the rollback take) and at most 60; past 25, they stop ten
	# answers after the cut, two losses in a row (one lost alone, say to ARP, is no
	# cut).  The clock and the pause are bash's own: a process costs 50 ms under TCG.
	in_vm b 'cut=0 run=0 after=0
	for ((i = 0; i < 60 && (i < 25 || after < 10); i++)); do
		if busybox ping -c 1 -W 1 198.18.100.1 >/dev/null 2>&1; then r=ok run=0; else r=lost run=$((run + 1)); fi
		[ "$run" -lt 2 ] || cut=1
		[ "$r" = lost ] || [ "$cut" = 0 ] || after=$((after + 1))
		echo "${EPOCHREALTIME/./}000 $r"; nap 0.2
	done >/tmp/probes' &
	local probes=$! t0 t1
	sleep 3
	run --separate-stderr on a ./rdmactl --confirm 3 port set bond0 down
	assert_success
	[[ $stderr == *"(in 3 s) unless confirmed: 'rdmactl confirm'" ]] || fail "$stderr"
	wait $probes
	run on b cat /tmp/probes
	# The outage: from the first lost probe to the first answered one after it.
	t0=$(awk '$2 == "lost" {print $1; exit}' <<<"$output")
	t1=$(awk -v t0="$t0" '$1 > t0 && $2 == "ok" {print $1; exit}' <<<"$output")
	[ -n "$t0" ] || fail "the bond was never cut: $output"
	[ -n "$t1" ] || fail "the bond never came back: $output"
	echo "# outage $(((t1 - t0) / 1000000)) ms" >&3
	[ $(((t1 - t0) / 1000000)) -le 5000 ] || fail "back after $(((t1 - t0) / 1000000)) ms: $output"
	run on a 'cat /sys/class/net/bond0/flags; ls /run/rdmactl | wc -l'
	(( ${lines[0]} & 1 )) || fail "bond0 is down: $output"
	assert_line --index 1 0
}
