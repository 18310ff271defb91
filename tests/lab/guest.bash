# Helpers sourced inside a lab VM by the lab tests:
#   scripts/lab run a '. tests/lab/guest.bash; wait_for 10 rxe_state_is rxe0 ACTIVE'
# Every exec costs ~0.1-0.3 s under TCG, so these stay in bash builtins where
# they can, and every wait is bounded.

exec 7<>/run/lab/tick # a FIFO nobody writes to: read -t on it is a sleep
nap() { read -r -t "$1" -u 7 _ || true; }

# wait_for SECS CMD...: run CMD until it succeeds, for SECS seconds at most.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		if [ $SECONDS -ge $end ]; then
			echo "after ${end}s, still not: $*" >&2
			return 1
		fi
		nap 0.2
	done
}

# v2_gid_index DEV IP: the index of DEV's RoCE v2 GID for IPv4 address IP
# (an IPv4-mapped IPv6 address, ::ffff:a.b.c.d, in sysfs' long form).
v2_gid_index() {
	local dev=$1 ip=$2 want g i type a b c d
	IFS=. read -r a b c d <<<"$ip"
	printf -v want '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d"
	for g in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		i=${g##*/}
		read -r g <"$g"
		[ "$g" = "$want" ] || continue
		read -r type </sys/class/infiniband/"$dev"/ports/1/gid_attrs/types/"$i" || continue
		[ "$type" = "RoCE v2" ] && echo "$i" && return 0
	done
	echo "no RoCE v2 GID for $ip on $dev" >&2
	return 1
}

# rxe_state_is DEV STATE: sysfs port state ("4: ACTIVE") ends in STATE.
rxe_state_is() {
	local s
	read -r s </sys/class/infiniband/"$1"/ports/1/state
	[ "${s#*: }" = "$2" ]
}

# operstate_is NETDEV STATE: sysfs operstate of NETDEV is STATE.
operstate_is() {
	local s
	read -r s </sys/class/net/"$1"/operstate && [ "$s" = "$2" ]
}

# rdmactl_state_is DEV STATE: what './rdmactl -j port' says about DEV.
rdmactl_state_is() {
	./rdmactl -j port | jq -e --arg d "$1" --arg s "$2" \
		'[.ports[] | select(.device == $d)] | length == 1 and .[0].state == $s' >/dev/null
}

# listening PORT: a TCP socket listens on PORT (ib_write_bw's server).
listening() {
	[ -n "$(ss -Htln "sport = :$1")" ]
}

# active_slave_is BOND DEV
active_slave_is() {
	grep -qx "Currently Active Slave: $2" /proc/net/bonding/"$1"
}

# make_bond ADDR: bond0, active-backup over eth0 (primary) and eth1, with
# ADDR/24; waits until eth0 is the active slave.
make_bond() {
	ip link add bond0 type bond mode active-backup miimon 100 primary eth0 &&
		ip link set eth0 down && ip link set eth1 down &&
		ip link set eth0 master bond0 && ip link set eth1 master bond0 &&
		ip addr add "$1/24" dev bond0 && ip link set bond0 up &&
		wait_for 15 active_slave_is bond0 eth0
}

# bw_side "OPTIONS" DEV:IP:PORT[:SERVER_IP]...: one ib_write_bw per argument,
# all at once, each with DEV's RoCE v2 GID for IP; a server without
# SERVER_IP, a client of SERVER_IP with it. Prints "== DEV PORT (exit N
# after Ss)" and the output of each; fails if any fails.
bw_side() {
	local opts=$1 spec dev ip port peer x pids=() names=() i rc=0
	shift
	for spec; do
		IFS=: read -r dev ip port peer <<<"$spec"
		x=$(v2_gid_index "$dev" "$ip") || return 1
		# shellcheck disable=SC2086 # OPTIONS are words
		ib_write_bw -d "$dev" -x "$x" $opts -p "$port" --report_gbits $peer >"/tmp/bw.$port" 2>&1 &
		pids+=($!)
		names+=("$dev $port")
	done
	for i in "${!pids[@]}"; do
		x=0
		wait "${pids[$i]}" || x=$?
		[ $x = 0 ] || rc=1
		echo "== ${names[$i]} (exit $x after ${SECONDS}s)"
		cat "/tmp/bw.${names[$i]#* }"
	done
	return $rc
}

# bond_rxe DEV: a Soft-RoCE device DEV on bond0, waited for until ACTIVE.
bond_rxe() {
	rdma link add "$1" type rxe netdev bond0 && wait_for 15 rxe_state_is "$1" ACTIVE
}
