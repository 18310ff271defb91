# Helpers for the lab tests (tests/lab/*.bats). The tests run on the host
# and drive the two VMs with scripts/lab; 'scripts/lab test' boots the lab,
# runs them and powers it off. Run by hand, they skip when no lab is up.
bats_load_library bats-support 2>/dev/null || load '/usr/lib/bats/bats-support/load'
bats_load_library bats-assert 2>/dev/null || load '/usr/lib/bats/bats-assert/load'

bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd -P)
LAB="$TOP/scripts/lab"

# on HOST CMD: run CMD (a bash command line) in VM HOST, in the checkout.
on() { "$LAB" run "$@"; }

# In setup_file: unless a lab with at least $1 links is up, say why in
# LAB_SKIP, and setup() skips every test with skip_unless_lab (bats 1.8
# cannot skip from setup_file).
need_lab() {
	local st links
	export LAB_SKIP=
	if ! st=$("$LAB" status); then
		# Under 'scripts/lab test' (LAB_RUN) the lab was up when the suite began: a lab
		# gone since is a failure (the runner then tries the file again on a new lab),
		# not a reason to skip.
		if [ -n "${LAB_RUN:-}" ]; then
			echo "the lab of 'scripts/lab test' ($LAB_RUN) is down: $st" >&2
			return 1
		fi
		LAB_SKIP="no lab is up (scripts/lab test boots one and runs these)"
		return 0
	fi
	links=$(sed -n 's/^lab: up .*, \([0-9]*\) link(s),.*/\1/p' <<<"$st")
	[ "${links:-0}" -ge "${1:-1}" ] || LAB_SKIP="needs a lab with ${1:-1} links, this one has ${links:-none}"
}

skip_unless_lab() {
	[ -z "${LAB_SKIP:-}" ] || skip "$LAB_SKIP"
	[ ! -s "$LAB_BROKEN" ] || fail "the lab broke under an earlier test of this file: $(cat "$LAB_BROKEN")"
}

# Set by diagnose_failure when 'scripts/lab fault' finds the lab broken (a guest gone
# or silent, a kernel fault, a NIC queue QEMU stopped serving): the file's later
# tests then fail at once in skip_unless_lab.  'scripts/lab test' runs the tests of a
# file that did not pass on a broken lab again on a new one, so what they would do on
# this lab is thrown away, after minutes of timeouts (four 60-bench tests took 132 s
# so in one CI run).
LAB_BROKEN=$BATS_FILE_TMPDIR/lab-broken
# The kernel faults whose first lines diagnose_failure prints (scripts/lab's
# LAB_KERNEL_FAULTS, which decide whether the lab broke), as grep arguments.
LAB_FAULTS=(-e "WARNING: CPU:" -e "BUG:" -e "Oops:" -e "NETDEV WATCHDOG")

need_rdmactl() {
	[ -x "$TOP/rdmactl" ] || skip "no ./rdmactl at the checkout root yet (make builds it)"
}

# in_vm HOST CMD: CMD with the guest helpers (tests/lab/guest.bash) loaded.
in_vm() {
	local h=$1
	shift
	on "$h" ". tests/lab/guest.bash; $*"
}

# Plug back every cable that 'scripts/lab status' reports pulled.
restore_links() {
	local n
	for n in $("$LAB" status | sed -n 's/^  link \([0-9]*\): cable down.*/\1/p'); do
		"$LAB" link "$n" up >/dev/null
	done
}

# both CMD: in_vm CMD on a and b at once; fails if either fails, with its
# output.
both() {
	local rc=0
	in_vm a "$*" >"$BATS_TEST_TMPDIR/both.a" 2>&1 &
	in_vm b "$*" >"$BATS_TEST_TMPDIR/both.b" 2>&1 || { rc=1; sed 's/^/b: /' "$BATS_TEST_TMPDIR/both.b"; }
	wait $! || { rc=1; sed 's/^/a: /' "$BATS_TEST_TMPDIR/both.a"; }
	return $rc
}

# write_bw "IB_WRITE_BW OPTIONS" DEV_A:IP_A:DEV_B:IP_B:PORT...: one
# ib_write_bw per argument, all at once: servers on a, clients on b, each
# with its device's RoCE v2 GID for its IP (-x). Prints the clients' output
# (see bw_side in guest.bash); fails unless every end succeeds.
write_bw() {
	local opts=$1 s da ipa db ipb port sa=() sb=() ports=() spid rc=0
	shift
	for s; do
		IFS=: read -r da ipa db ipb port <<<"$s"
		sa+=("$da:$ipa:$port")
		sb+=("$db:$ipb:$port:$ipa")
		ports+=("$port")
	done
	LAB_TIMEOUT=90 in_vm a "bw_side '$opts' ${sa[*]}" >"$BATS_TEST_TMPDIR/servers" 2>&1 &
	spid=$!
	if ! in_vm a "for p in ${ports[*]}; do wait_for 30 listening \$p || exit 1; done"; then
		kill "$spid"
		cat "$BATS_TEST_TMPDIR/servers"
		return 1
	fi
	LAB_TIMEOUT=90 in_vm b "bw_side '$opts' ${sb[*]}" 2>&1 || rc=$?
	if ! wait "$spid"; then
		echo "servers on a failed:"
		cat "$BATS_TEST_TMPDIR/servers"
		rc=1
	fi
	return $rc
}

# bw_averages OUTPUT: "DEV PORT GBPS" for each run in write_bw's output,
# from ib_write_bw's result line ("65536  406  0.00  0.11  0.000201").
bw_averages() {
	awk '$1 == "==" { dev = $2; port = $3 } $1 == 65536 && NF == 5 { print dev, port, $4 }' <<<"$1"
}

# In teardown: when the test failed, print what the VMs' kernels said and
# the RDMA resources left, so a CI failure (whose VM logs are not kept)
# tells a wedged Soft-RoCE or a stuck process from a wrong answer. bats
# shows teardown's output only for a failed test.
diagnose_failure() {
	[ -z "${LAB_SKIP:-}" ] || return 0
	[ "${BATS_TEST_COMPLETED:-}" != 1 ] || return 0
	local h out
	if [ -s "$LAB_BROKEN" ]; then
		echo "== (diagnosed when the lab broke: $(cat "$LAB_BROKEN"))"
		return 0
	fi
	for h in a b; do
		echo "== $h: kernel warnings and errors (the first lines of each trace, the last 20), RDMA links and QPs, rdmactl processes"
		# A trace is tens of lines: its head says where the kernel was.
		out=$(LAB_TIMEOUT=20 on "$h" "dmesg 2>&1 | grep -A3 $(printf '%q ' "${LAB_FAULTS[@]}") | head -n 24;"'
			dmesg --level=emerg,alert,crit,err,warn 2>&1 | tail -n 20;
			rdma link show 2>&1; rdma res show qp 2>&1 | head -n 20;
			pgrep -a rdmactl || true' 2>&1) || out+=$'\n'"$h: no answer in 20 s"
		echo "$out"
		# A link that stopped carrying anything shows here: which NIC, which
		# direction (counters), a qdisc left behind, ARP that failed, memory.
		echo "== $h: the lab links (packets and drops rx/tx, qdisc, neighbours, a ping each), memory"
		# shellcheck disable=SC2016 # expands in the guest
		LAB_TIMEOUT=20 on "$h" 'for d in /sys/class/net/eth*; do n=${d##*/} s=$d/statistics;
				echo "$n $(cat $d/operstate) carrier $(cat $d/carrier 2>/dev/null) rx $(cat $s/rx_packets) drop $(cat $s/rx_dropped) tx $(cat $s/tx_packets) drop $(cat $s/tx_dropped) err $(cat $s/tx_errors)";
				tc -s qdisc show dev $n root | head -n 3;
			done;
			ip neigh show | grep -v "^fe80";
			for a in $(ip -4 -o addr show | awk "\$4 ~ /^198\\.18\\./ { print \$4 }"); do a=${a%/*}; p=${a%.*}.$(( ${a##*.} == 1 ? 2 : 1 ));
				ping -c1 -W1 -I ${a} $p >/dev/null 2>&1 && echo "ping $a -> $p ok" || echo "ping $a -> $p FAILED"; done;
			grep -E "^(MemFree|MemAvailable|Slab)" /proc/meminfo | tr -s " " | paste -sd" "' 2>&1 || echo "$h: no answer in 20 s"
	done
	# Whether the lab broke is the lab's one check (scripts/lab fault: a guest gone or
	# silent, a kernel fault, a NIC queue QEMU stopped serving, which leaves no kernel
	# fault until a QP waits on its packets), the one 'scripts/lab test' asks too.
	if [ ! -s "$LAB_BROKEN" ] && out=$(timeout 90 "$LAB" fault 2>&1); then
		echo "== the lab broke: $out"
		echo "$out" >>"$LAB_BROKEN"
	fi
}

# Last in teardown, after a failed try that bats runs again (a file that sets
# BATS_TEST_RETRIES): bats keeps only the last try's output, so say on the TAP
# stream that this try failed and what it printed, the test's lines first, then
# teardown's diagnostics (scripts/lab test counts these lines).  Every line ends
# in a newline, so that the next "ok" starts one.  A failure that repeats still
# fails the test.
note_retry() {
	[ "${BATS_TEST_COMPLETED:-}" != 1 ] || return 0
	[ "${BATS_TEST_TRY_NUMBER:-1}" -le "${BATS_TEST_RETRIES:-0}" ] || return 0
	{
		echo "# retry: try $BATS_TEST_TRY_NUMBER of \"$BATS_TEST_DESCRIPTION\" failed; running it again. It said (first 200 lines):"
		[ ! -r "${BATS_OUT:-}" ] || awk 'NR <= 200 { print "#   " $0 }' "$BATS_OUT"
	} >&3
}
