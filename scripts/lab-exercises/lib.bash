# shellcheck shell=bash
# scripts/lab-exercises/lib.bash - helpers for the exercises' commands (README.md), loaded
# on the machine that runs the lab (host: lines, with $LAB) and inside the VMs (a:, b:).
# Inside a VM every exec costs 0.1-0.3 s under TCG: waits read an idle FIFO, not sleep.

# A check like 'rdmactl ... | jq -e ...' must fail when rdmactl does: Debian 12's jq 1.6
# exits 0 on empty input, even with -e.
set -o pipefail

if [ -p /run/lab/tick ]; then
	exec 7<>/run/lab/tick
	nap() { read -r -t "$1" -u 7 _ || true; }
else
	nap() { sleep "$1"; }
fi

# wait_for SECS CMD...: run CMD until it succeeds, SECS seconds at most.
wait_for() {
	local secs=$1 end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || { echo "after $secs s still not: $*" >&2; return 1; }
		nap 0.2
	done
}

# me: this VM's host number in the lab's addresses (a 1, b 2: 198.18.N.me).
me() { if [ "$HOSTNAME" = a ]; then echo 1; else echo 2; fi; }

# saved NAME FILTER: /root/lab/NAME.json exists and jq FILTER holds on it.
saved() {
	local f=/root/lab/$1.json
	[ -s "$f" ] || { echo "no $f yet" >&2; return 1; }
	jq -e "$2" "$f" >/dev/null && return 0
	echo "$f: not ($2)" >&2
	# What the condition read from the top of the file, so that a failed check
	# says why (a path inside any(...), all(...) or select(...) is relative: left out).
	local path
	grep -oP '(?<![\w\])"\.])(?<![a-z]\()\.[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*' <<<"$2" | sort -u |
		while read -r path; do
			printf '    %s = %s\n' "$path" "$(jq -c "$path" "$f" 2>&1)" >&2
		done
	return 1
}

# v2_index DEV IP: the GID index of DEV's RoCE v2 GID for IPv4 address IP.
v2_index() {
	./rdmactl -j port gids "$1" |
		jq -er --arg ip "$2" '[.gids[] | select(.ip == $ip and .type == "RoCE v2") | .index] | first'
}

# active_mtu_is DEV BYTES
active_mtu_is() {
	[ "$(./rdmactl -j port show "$1" | jq -r '.ports[0].active_mtu_bytes')" = "$2" ]
}

# listening PORT: a TCP socket listens on PORT.
listening() { [ -n "$(ss -Hltn "sport = :$1")" ]; }

# near A B REL: A within REL (a fraction) of B, both numbers.
near() {
	awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN {
		n = "^-?[0-9]+(\\.[0-9]+)?$"
		if (a !~ n || b !~ n) exit 1
		d = a - b; if (d < 0) d = -d; exit !(d <= r * b) }'
}

# measuring LOG: 'rdmactl bond failover' whose standard error goes to LOG says it is
# ready for the fault (its baseline taken, the probes and the RDMA stream running).
# A run that ended first (its "done" line) ends the waiting command at once.
measuring() {
	grep -q ' ready$' "$1" 2>/dev/null && return 0
	if grep -q ' done$' "$1" 2>/dev/null; then
		echo "bond failover ended before it was ready ($1)" >&2
		exit 1
	fi
	return 1
}

# active_is BOND MEMBER: the bond's active member (active-backup).
active_is() { [ "$(cat "/sys/class/net/$1/bonding/active_slave")" = "$2" ]; }

# members_carry SERVER_IP MIN_BYTES NETDEV...: a bench run to SERVER_IP (16 QPs, 2 s)
# sends at least MIN_BYTES out of each NETDEV (a bond's members: does the hash spread it?).
# The counters count every attempt: a run that fails (Soft-RoCE over a bond whose
# flows just moved between members sometimes answers "remote invalid request") is
# said, and the bytes it moved still count.
members_carry() {
	local ip=$1 min=$2 m d
	local -A t0
	shift 2
	for m; do read -r "t0[$m]" <"/sys/class/net/$m/statistics/tx_bytes" || return 1; done
	./rdmactl bench client "$ip" qps 16 duration 2 >/dev/null || echo "(the bench run failed; its bytes count)" >&2
	for m; do
		read -r d <"/sys/class/net/$m/statistics/tx_bytes" || return 1
		d=$((d - t0[$m]))
		[ "$d" -ge "$min" ] || { echo "$m sent $d bytes of the run" >&2; return 1; }
	done
}

# --- on the machine that runs the lab ($LAB) ---

# on HOST CMD: CMD in VM HOST with these helpers.
on() { "$LAB" run "$1" ". scripts/lab-exercises/lib.bash; $2"; }

# bench_server HOST: 'rdmactl bench server once' in HOST, in the background; returns
# once it listens.  It serves one run and ends ('lab reset' stops one left over).
bench_server() {
	LAB_TIMEOUT=300 "$LAB" run "$1" "exec ./rdmactl bench server once" >/dev/null 2>&1 &
	on "$1" "wait_for 30 listening 18515"
}

# bench_save NAME SERVER_HOST SERVER_IP KEYWORDS...: a bench run from the other VM to
# SERVER_IP, its JSON report saved as /root/lab/NAME.json in the client's VM.
bench_save() {
	local name=$1 sh=$2 ip=$3 ch=a
	shift 3
	[ "$sh" = a ] && ch=b
	bench_server "$sh" || return 1
	LAB_TIMEOUT=300 "$LAB" run "$ch" "mkdir -p /root/lab && ./rdmactl -j bench client $ip $* >/root/lab/$name.json"
}
