#!/usr/bin/env bats
# The real kernel: rtnetlink and ethtool on veth pairs in a private network namespace,
# as root or, unprivileged, in a user namespace (tests/helpers.bash need_netns).
load ../helpers

setup() {
	need_netns
}

teardown() {
	# A --confirm watcher a failed test left waiting (the namespace lives while it does).
	pkill -KILL -f -- "^[^ ]*rdmactl --confirm [0-9]+ port set veth0 " 2>/dev/null || true
}

# Run a script in a fresh network and mount namespace with its own sysfs and a veth
# pair; the script gets rdmactl as $1 and a private directory as $2.
in_netns() {
	"${NETNS[@]}" bash -euc '
		mount -t sysfs sysfs /sys
		ip link add veth0 type veth peer name veth1
		'"$1" _ "$RDMACTL" "$BATS_TEST_TMPDIR"
}

@test "netns: port set mtu and up, read back by ip and by rdmactl" {
	run in_netns '
		rd=$1
		$rd port set veth0 mtu 9000 up
		ip -o link show veth0
		$rd -j port set veth0 mtu 9000 up'
	assert_success
	# Up, but its peer is down: a veth has no carrier then, and the line says so.
	assert_line --index 0 "veth0: mtu 1500 -> 9000 down -> up (no-carrier)"
	assert_line --index 1 --regexp 'veth0@veth1: <.*UP.*> mtu 9000 '
	[ "$(echo "${lines[2]}" | jq -c '[.changed, .before.mtu_bytes, .after.mtu_bytes, .after.admin_up, .before.carrier, .after.carrier]')" = \
	  '[false,9000,9000,true,false,false]' ]
}

@test "netns: port set reports the carrier the kernel reads: none while down, then the peer's" {
	run in_netns '
		rd=$1
		ip link set veth1 up
		$rd -j port set veth0 up
		$rd port set veth0 mtu 4000
		$rd -j port set veth0 down
		cat /sys/class/net/veth0/carrier 2>&1 || true'
	assert_success
	# Down: sysfs carrier reads EINVAL (null); up with its peer up: carrier.
	[ "$(echo "${lines[0]}" | jq -c '[.changed, .before.admin_up, .before.carrier, .after.admin_up, .after.carrier, .after.operstate]')" = \
	  '[true,false,null,true,true,"up"]' ] || fail "${lines[0]}"
	assert_line --index 1 "veth0: mtu 1500 -> 4000"
	[ "$(echo "${lines[2]}" | jq -c '[.before.carrier, .after.admin_up, .after.carrier]')" = '[true,false,null]' ] || fail "${lines[2]}"
	assert_line --index 3 --partial "Invalid argument"
}

@test "netns: port set down, then JSON reports before and after" {
	run in_netns '
		rd=$1
		ip link set veth0 up mtu 4000
		$rd -j port set veth0 down mtu 1500
		ip -o link show veth0'
	assert_success
	[ "$(echo "${lines[0]}" | jq -c '[.schema, .netdev, .changed, .dry_run, .before.mtu_bytes, .before.admin_up, .after.mtu_bytes, .after.admin_up]')" = \
	  '[3,"veth0",true,false,4000,true,1500,false]' ]
	# Up without its peer: no carrier; down: none to read.
	[ "$(echo "${lines[0]}" | jq -c '[.before.carrier, .after.carrier]')" = '[false,null]' ]
	refute_line --index 1 --regexp '<[^>]*\bUP\b'
	assert_line --index 1 --partial "mtu 1500"
}

@test "netns: nothing differs, nothing is sent (only the read is recorded)" {
	run in_netns '
		rd=$1
		ip link set veth0 mtu 2000
		$rd --record "$2/set.rec" port set veth0 mtu 2000 down
		# RTM_GETLINK is type 18 (12 00 little endian), RTM_NEWLINK 16 (10 00).
		grep -cE "^> nl 0 .{8}1200" "$2/set.rec"
		grep -cE "^> nl 0 .{8}1000" "$2/set.rec" || true'
	assert_success
	assert_line --index 0 --partial "already mtu 2000, down (nothing sent)"
	assert_line --index 1 1
	assert_line --index 2 0
}

@test "netns: --dry-run prints the change and sends nothing" {
	run in_netns '
		rd=$1
		rc=0; $rd --dry-run port set veth0 mtu 9000 up || rc=$?; echo "exit $rc"
		rc=0; $rd -j port set --dry-run veth0 mtu 9000 || rc=$?; echo "exit $rc"
		ip -o link show veth0'
	assert_success
	assert_line --index 0 "veth0: mtu 1500 -> 9000 down -> up (dry run: nothing sent)"
	# 4: a dry run that would change something.
	assert_line --index 1 "exit 4"
	[ "$(echo "${lines[2]}" | jq -c '[.changed, .dry_run, .after.mtu_bytes]')" = '[true,true,9000]' ]
	assert_line --index 3 "exit 4"
	assert_line --index 4 --partial "mtu 1500"
}

@test "netns: without CAP_NET_ADMIN the error says so and nothing changes" {
	# The capability dropped from every set (in a user namespace no other uid is
	# mapped to switch to); root keeps its uid, so only the capability is missing.
	run in_netns '
		rd=$1
		setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-net_admin \
			$rd port set veth0 mtu 1400 && exit 9
		echo "rc=$?"
		ip -o link show veth0'
	assert_success
	assert_line --index 0 "rdmactl: port: cannot change 'veth0': Operation not permitted (needs CAP_NET_ADMIN: run as root)"
	assert_line --index 1 "rc=1"
	assert_line --index 2 --partial "mtu 1500"
}

@test "netns: port set on an unknown interface exits 1" {
	run in_netns '$1 port set nosuch0 mtu 1500 || echo "rc=$?"'
	assert_output --partial "no RDMA device or network interface 'nosuch0'"
	assert_output --partial "rc=1"
}

@test "netns: ethtool statistics of a veth (driver strings) in text, JSON and YAML" {
	run in_netns '
		rd=$1
		$rd -j port stats veth0
		$rd --yaml port stats veth0 | python3 -c "import sys,yaml,json; print(json.dumps(yaml.safe_load(sys.stdin)))"
		$rd port stats veth1'
	assert_success
	[ "$(echo "${lines[0]}" | jq -c "$JQ_CMAP"'.stats[0] | [.device, .netdev, (cmap.driver | has("peer_ifindex")), (cmap.netdev | has("rx_bytes"))]')" = \
	  '[null,"veth0",true,true]' ]
	[ "$(echo "${lines[0]}" | jq -S .)" = "$(echo "${lines[1]}" | jq -S .)" ]
	assert_output --regexp "driver +peer_ifindex +[0-9]+"
}

@test "netns: stats interval reports traffic as rates, one document per sample" {
	run in_netns '
		rd=$1
		# The peer: a network namespace of its own, held by a process (ip netns
		# add would need a writable /run), entered with nsenter.
		unshare -n sleep 60 &
		peer=$!
		while [ "$(readlink /proc/$peer/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
			sleep 0.01
		done
		ip link set veth1 netns "$peer"
		ip addr add 198.18.200.1/24 dev veth0
		ip link set veth0 up
		nsenter -t "$peer" -n ip addr add 198.18.200.2/24 dev veth1
		nsenter -t "$peer" -n ip link set veth1 up
		# UDP to the peer through bash itself: no ping needed.
		# It sends for as long as the samples take, however slow the machine is.
		(while :; do echo x >/dev/udp/198.18.200.2/9; sleep 0.02; done) &
		udp=$!
		$rd -j port stats veth0 interval 0.4 count 2
		kill "$udp" "$peer"'
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	[ "$(echo "${lines[0]}" | jq -c '[.sample, (.interval_s > 0.3), .stats[0].rates.source]')" = '[1,true,"netdev"]' ]
	[ "$(echo "${lines[1]}" | jq '.sample')" = 2 ]
	# Datagrams went out during the window: packets per second and the delta are positive.
	[ "$(printf '%s\n' "${lines[@]}" | jq -s 'map(.stats[0].rates.tx_packets_per_s) | add > 0')" = true ]
	[ "$(printf '%s\n' "${lines[@]}" | jq -s "$JQ_CMAP"'map((.stats[0] | cmap_rates).netdev.tx_packets.delta) | add')" -gt 0 ]
}

@test "netns: a recording replays to the same answer, and bundles refuse writes" {
	run in_netns '
		rd=$1 t=$2
		$rd --record "$t/s.rec" -j port stats veth0 >"$t/live.json"
		$rd --replay "$t/s.rec" -j port stats veth0 >"$t/replay.json"
		jq -S ".stats[0].counters | map(select(.group == \"driver\"))" "$t/live.json" >"$t/a"
		jq -S ".stats[0].counters | map(select(.group == \"driver\"))" "$t/replay.json" >"$t/b"
		cmp "$t/a" "$t/b" && echo same
		grep -c "^> ioctl ethtool veth0" "$t/s.rec"'
	assert_success
	assert_line --index 0 same
	assert_line --index 1 3
}

@test "netns: port set waits for another writer's lock on the netdev, and says who holds it" {
	run in_netns '
		rd=$1
		mkdir -p "$RDMACTL_LOCK_DIR"
		lock=$RDMACTL_LOCK_DIR/net$(stat -L -c %i /proc/self/ns/net).veth0.lock
		# Another writer (flock(1) plays it) holds veth0 for 3 s.
		flock "$lock" sh -c "echo \$\$ >\"$lock\"; touch \"$2/held\"; sleep 3" &
		holder=$!
		while [ ! -e "$2/held" ]; do sleep 0.05; done
		rc=0
		RDMACTL_LOCK_WAIT=1 $rd port set veth0 mtu 1400 2>"$2/err" || rc=$?
		echo "rc $rc"
		sed "s/pid [0-9]*/pid N/; s|$RDMACTL_LOCK_DIR|DIR|" "$2/err"
		ip -o link show veth0 | grep -o "mtu [0-9]*"
		# A run that waits longer than the holder holds gets the lock, then writes.
		$rd port set veth0 mtu 1400
		wait $holder
		ip -o link show veth0 | grep -o "mtu [0-9]*"'
	assert_success
	assert_line --index 0 "rc 1"
	[[ ${lines[1]} == "rdmactl: port: busy: pid N holds veth0 (DIR/net"*".veth0.lock), still after 1 s; try again when it is done: Device or resource busy" ]] ||
		fail "${lines[1]}"
	assert_line --index 2 "mtu 1500"
	assert_line --index 3 "veth0: mtu 1500 -> 1400"
	assert_line --index 4 "mtu 1400"
}

@test "netns: port set runs on one netdev at once serialise: every one succeeds, none undoes another" {
	run in_netns '
		rd=$1
		pids=
		for i in $(seq 12); do
			$rd port set veth0 mtu $((1400 + i % 2 * 100)) >/dev/null 2>"$2/err.$i" &
			pids="$pids $!"
		done
		bad=0
		for p in $pids; do wait $p || bad=$((bad + 1)); done
		echo "failed $bad"
		cat "$2"/err.*
		# The lock of veth0 in this namespace (the directory serves the whole run).
		ls "$RDMACTL_LOCK_DIR" | grep -cx "net$(stat -L -c %i /proc/self/ns/net)\.veth0\.lock"'
	assert_success
	assert_line --index 0 "failed 0"
	assert_line --index 1 "1"
}

@test "netns: port set --confirm: unconfirmed, the MTU before comes back; confirmed, the new one stays" {
	run in_netns '
		rd=$1
		export RDMACTL_RUN_DIR=$2/run
		mtu() { ip -o link show veth0 | grep -o "mtu [0-9]*"; }
		$rd --confirm 1 port set veth0 mtu 4000 >/dev/null 2>"$2/err"
		mtu
		for i in $(seq 150); do mtu | grep -qx "mtu 1500" && break; sleep 0.1; done
		mtu
		for i in $(seq 50); do [ -z "$(ls "$RDMACTL_RUN_DIR")" ] && break; sleep 0.1; done
		echo "journals $(ls "$RDMACTL_RUN_DIR" | wc -l)"
		$rd --confirm 1 port set veth0 mtu 4000 >/dev/null 2>&1
		$rd confirm veth0
		sleep 2
		mtu
		echo "journals $(ls "$RDMACTL_RUN_DIR" | wc -l)"
		cat "$2/err"'
	assert_success
	assert_line --index 0 "mtu 4000"
	assert_line --index 1 "mtu 1500"
	assert_line --index 2 "journals 0"
	assert_line --index 3 --regexp "^rdmactl --confirm 1 port set veth0 mtu 4000 \(pending, pid [0-9]+\) on veth0$"
	assert_line --index 4 "1 change confirmed: kept as it is"
	assert_line --index 5 "mtu 4000"
	assert_line --index 6 "journals 0"
	assert_line --index 7 --regexp "^rdmactl: port: changed; the state before comes back at [0-9:]{8} \(in 1 s\) unless confirmed: 'rdmactl confirm'$"
}

@test "netns: a pending change whose watcher died stops writes; undo keeps another writer's MTU and says so" {
	run in_netns '
		rd=$1
		export RDMACTL_RUN_DIR=$2/run
		$rd --confirm 600 port set veth0 mtu 4321 up >/dev/null 2>&1
		# The watcher: its command line starts with the rdmactl binary (this
		# script'"'"'s with bash; $rd may be the tiers'"'"' json-capture, which execs it).
		pkill -KILL -f -- "^[^ ]*rdmactl --confirm 600 port set veth0 mtu 4321 up"
		rc=0
		$rd port set veth0 mtu 3000 2>"$2/err" || rc=$?
		echo "rc $rc"
		grep -o "has a change awaiting confirmation until" "$2/err"
		ip -o link show veth0 | grep -o "mtu [0-9]*"
		# Another tool changes the MTU meanwhile; the admin state is still this change'"'"'s.
		ip link set veth0 mtu 3500
		rc=0
		$rd undo veth0 >/dev/null 2>"$2/err" || rc=$?
		echo "undo $rc"
		cat "$2/err"
		ip -o link show veth0 | grep -o "mtu [0-9]*"
		ip -o link show veth0 | grep -c "<[^>]*,UP" || true
		echo "journals $(ls "$RDMACTL_RUN_DIR" | wc -l)"'
	assert_success
	assert_line --index 0 "rc 1"
	assert_line --index 1 "has a change awaiting confirmation until"
	assert_line --index 2 "mtu 4321"
	assert_line --index 3 "undo 1"
	assert_line --index 4 --partial "'veth0' reads mtu 3500, neither the 1500 it had nor the 4321 that change set: left as it is (another writer's)"
	assert_line --index 5 "mtu 3500"
	assert_line --index 6 "0"
	assert_line --index 7 "journals 0"
}

@test "netns: port set killed right after its request: the next write names it, undo puts the link back" {
	[ -e "$TOP/build/dcb-double/libdcbdouble.so" ] || fail "dcb double not built (make -f tests/dcb-double/double.mk)"
	DD=$TOP/build/dcb-double/libdcbdouble.so run in_netns '
		rd=$1
		export RDMACTL_RUN_DIR=$2/run
		rc=0
		# The double kills rdmactl once the kernel carried out its first change.
		(LD_PRELOAD=$DD DCB_DOUBLE_KILL=1 $rd port set veth0 mtu 4000 up; exit $?) >/dev/null 2>&1 || rc=$?
		echo "rc $rc"
		ip -o link show veth0 | grep -o "mtu [0-9]*"
		rc=0
		$rd port set veth0 mtu 3000 >/dev/null 2>"$2/err" || rc=$?
		echo "rc $rc"
		grep -o "has a change that did not finish: .rdmactl port set veth0 mtu 4000 up." "$2/err"
		$rd undo veth0
		ip -o link show veth0 | grep -o "mtu [0-9]*"
		ip -o link show veth0 | grep -c "<[^>]*,UP" || true'
	assert_success
	assert_line --index 0 "rc 137"
	assert_line --index 1 "mtu 4000"
	assert_line --index 2 "rc 1"
	assert_line --index 3 "has a change that did not finish: 'rdmactl port set veth0 mtu 4000 up'"
	assert_line --index 5 "1 change undone: the state before is back"
	assert_line --index 6 "mtu 1500"
	assert_line --index 7 "0"
}
