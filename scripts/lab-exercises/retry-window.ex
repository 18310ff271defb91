title: the RC retry window: a blackholed link kills the QP when predicted
chapter: 4 failover and the RC retry window

[goal]
1. A bench run whose data goes over link 1 (control over link 2), with an RC retry
   window you choose (qp-timeout, retry-cnt: 0.2 to 10 s), saved as
   /root/lab/retry.json on a. While it runs, blackhole link 1: the cable stays in,
   every packet is dropped. The QP must die of retry exhaustion when the window
   says (qp_survival_s): not at once, not never.
2. A second run (/root/lab/retry-survive.json) whose window outlasts a blackhole of
   a second or more: the QP stalls and lives.
3. Answer survive-timeout: the smallest qp-timeout that, with retry-cnt 7, outlasts
   a 1.5 s failover.
[try]
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a 'mkdir -p /root/lab; ./rdmactl -j bench client 198.18.2.2 link 198.18.1.1:198.18.1.2 qp-timeout 16 retry-cnt 3 duration 15 > /root/lab/retry.json' &
sleep 4; scripts/lab link 1 blackhole; wait; scripts/lab link 1 clear
scripts/lab run a 'jq "{qp_survival_s, link: .links[0] | {status, wc_status, retries_held_s}}" /root/lab/retry.json'
./rdmactl bond check qp-timeout 16 retry-cnt 3     # on a host with a bond: the same maths
scripts/lab exercise answer retry-window survive-timeout N
[look]
- The requester waits T_ack = 4.096 us * 2^qp-timeout for an ACK, then resends;
  after retry-cnt resends it gives up: "transport retry counter exceeded". The
  window is T_ack * (retry-cnt + 1): 14 and 7 (perftest's) give 0.54 s.
- A pulled cable is not a test of this on Soft-RoCE: rxe holds requests while the
  carrier is down. A blackhole keeps the carrier: only silence, as with a dead
  switch port or a failover that takes too long.
- A bond failover longer than the window kills every QP on it: bond check weighs
  miimon/downdelay against the window, and says which qp-timeout survives.
[start]
[check]
a: saved retry '.links[0].status == "failed" and .links[0].wc_status == "transport retry counter exceeded"'   ## a run (/root/lab/retry.json) whose QP died of retry exhaustion
a: saved retry '.qp_survival_s >= 0.2 and .qp_survival_s <= 10'   ## its window was chosen between 0.2 and 10 s
a: saved retry '.links[0].retries_held_s != null and (.links[0].retries_held_s / .qp_survival_s) as $r | $r > 0.5 and $r < 3'   ## it died when the window said: its retries held 0.5 to 3 times qp_survival_s
a: saved retry-survive '.links[0].status == "ok" and .links[0].longest_stall_s >= 1 and .qp_survival_s > .links[0].longest_stall_s'   ## a second run (/root/lab/retry-survive.json) stalled a second or more and lived: its window outlasted the blackhole
host: want=$(awk 'BEGIN { for (t = 1; t <= 31; t++) if (4.096e-6 * 2 ^ t * 8 > 1.5) { print t; exit } }') &&
	[ "${ANSWER_survive_timeout:-}" = "$want" ] || { echo "answer survive-timeout: ${ANSWER_survive_timeout:-none}" >&2; false; }   ## answer survive-timeout: the smallest qp-timeout that, with retry-cnt 7, outlasts a 1.5 s failover
[solve]
host: bench_server b &&
	{ on a 'mkdir -p /root/lab && ./rdmactl -j bench client 198.18.2.2 link 198.18.1.1:198.18.1.2 qp-timeout 16 retry-cnt 3 duration 15 >/root/lab/retry.json' & b=$!; } &&
	sleep 5 && "$LAB" link 1 blackhole >/dev/null; wait "$b"; "$LAB" link 1 clear >/dev/null
host: bench_server b &&
	{ on a 'mkdir -p /root/lab && ./rdmactl -j bench client 198.18.2.2 link 198.18.1.1:198.18.1.2 qp-timeout 18 retry-cnt 7 duration 12 >/root/lab/retry-survive.json' & b=$!; } &&
	sleep 5 && "$LAB" link 1 blackhole >/dev/null && sleep 1.5; "$LAB" link 1 clear >/dev/null; wait "$b"
host: "$LAB" exercise answer retry-window survive-timeout "$(awk 'BEGIN { for (t = 1; t <= 31; t++) if (4.096e-6 * 2 ^ t * 8 > 1.5) { print t; exit } }')"
