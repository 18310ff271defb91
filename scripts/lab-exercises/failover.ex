title: bond failover under ping and RDMA traffic, in milliseconds
chapter: 4 failover and the RC retry window

[goal]
With bond0 in active-backup on both hosts (this exercise starts from the bond-ab
goal), measure the failover a pulled cable causes: 'bond failover bond0 wait 60' on
a, under probes and an RDMA stream to b, saved as /root/lab/failover.json, while you
pull link 1's cable. Then plug it back: eth0, the primary, takes over again.
Answers: outage-ms (the outage the probes saw) and qp-survived (yes or no).
[try]
scripts/lab run b ./rdmactl bench server once &       # b's end of the RDMA stream
scripts/lab run a 'mkdir -p /root/lab; ./rdmactl -j bond failover bond0 wait 60 peer 198.18.10.2 > /root/lab/failover.json' &
sleep 5; scripts/lab link 1 down; wait
scripts/lab run a 'jq . /root/lab/failover.json'
(or without -j and the redirect, to read it as text)
scripts/lab link 1 up
scripts/lab run a ./rdmactl bond show
scripts/lab exercise answer failover outage-ms N
scripts/lab exercise answer failover qp-survived yes|no
[look]
- detect_s: from the cable pull to the bond's MII monitor marking eth0 down (up
  to miimon); react_s: from there to eth1 active.
- probe.outage_s: what traffic felt; probe.lost_after_outage: a clean switch loses
  nothing after it (balance-rr on either end would keep losing).
- A cable pull is seen at both ends, so both bonds switch. 'member eth0' (taking
  eth0 down on a alone) is not the same test back to back: b's eth0 keeps its
  carrier and keeps sending to a's dead member until the fail-back. A switch in
  between hides that; two hosts cabled directly do not.
- rdma: Soft-RoCE holds requests while a carrier is down and resends after, so the
  QP survives a short failover; hardware RoCE gives up after its retry window
  (retry-window exercise).
- Fail-back: with eth0 back, the primary takes over again: a second, shorter outage.
[start]
host: "$LAB" exercise solve bond-ab >/dev/null
[check]
a: saved failover '.kind == "bond-failover" and .bond == "bond0" and .member == "eth0" and .failover and .active_after == "eth1"'   ## a failover of a's bond0 from eth0 to eth1 measured, saved as /root/lab/failover.json
a: saved failover '.probe.ran and .probe.outage_s != null and (.probe.gap_open_start or .probe.gap_open_end | not)'   ## the probes to b saw the outage begin and end
a: saved failover '.probe.lost_after_outage != null and .probe.lost_after_outage <= 2'   ## nothing lost after the outage: the switch was clean
a: saved failover '.rdma.ran'   ## an RDMA stream ran through it (rdmactl bench server on b)
a: saved failover .failover && [ "$(cat /sys/class/net/eth0/carrier)" = 1 ] && active_is bond0 eth0   ## the cable back in, eth0 (the primary) active again: the fail-back
a: near "${ANSWER_outage_ms:-x}" "$(jq ".probe.outage_s * 1000" /root/lab/failover.json)" 0.05 ||
	{ echo "answer outage-ms: ${ANSWER_outage_ms:-none}" >&2; false; }   ## answer outage-ms: the outage the probes saw, in ms (5% either way)
a: want=$(jq -r 'if .rdma.qp_survived then "yes" else "no" end' /root/lab/failover.json) && [ "${ANSWER_qp_survived:-}" = "$want" ] ||
	{ echo "answer qp-survived: ${ANSWER_qp_survived:-none}" >&2; false; }   ## answer qp-survived: whether the RDMA stream's QP lived through it
[solve]
host: on a 'rm -f /root/lab/failover.log' && bench_server b &&
	{ on a 'mkdir -p /root/lab && ./rdmactl -j bond failover bond0 wait 60 peer 198.18.10.2 2>&1 >/root/lab/failover.json | tee /root/lab/failover.log >&2' & fo=$!; } &&
	on a 'wait_for 30 measuring /root/lab/failover.log' && "$LAB" link 1 down >/dev/null; wait "$fo"; rc=$?
	"$LAB" link 1 up >/dev/null && on a 'wait_for 30 active_is bond0 eth0' && exit $rc
host: "$LAB" exercise answer failover outage-ms "$(on a 'jq .probe.outage_s*1000 /root/lab/failover.json')"
host: "$LAB" exercise answer failover qp-survived "$(on a "jq -r 'if .rdma.qp_survived then \"yes\" else \"no\" end' /root/lab/failover.json")"
