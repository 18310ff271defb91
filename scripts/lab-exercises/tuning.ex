title: what tuning changes: QPs per link, seen in bench's report
chapter: 5 performance tuning

[goal]
Two bench runs over link 1 with 64 KiB writes, one with 1 QP
(/root/lab/tune-qps1.json on a) and one with 4 QPs (/root/lab/tune-qps4.json), and
your answer to which moved more: faster (1 or 4).
[try]
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a 'mkdir -p /root/lab; ./rdmactl -j bench client 198.18.1.2 link rxe0 qps 1 duration 3 > /root/lab/tune-qps1.json'
(again with qps 4 and tune-qps4.json)
scripts/lab run a 'jq "{qps_per_link, gbps: .total.gbps, cpu: [.links[].cpu_s]}" /root/lab/tune-qps*.json'
scripts/lab exercise answer tuning faster 1|4
Also try size 4K against 64K, and mtu (mtu exercise); and LAB_SMP=2 scripts/lab up:
with one vCPU, the rxe kernel threads and bench's poller share one CPU.
[look]
- More QPs keep more requests in flight (tx-depth each): on hardware that fills the
  pipe until the NIC's or the PCIe's limit; under Soft-RoCE the CPU is the limit, so
  more QPs may move less (cpu_s).
- Message size: per-message costs (doorbells, completions) shrink with larger
  messages; past the MTU they are cut into packets anyway.
- Compare runs on the same link with one thing changed; this lab's figures are
  emulation's, only ratios mean something.
[start]
[check]
a: saved tune-qps1 '.qps_per_link == 1 and (.links | length) == 1 and .links[0].status == "ok"'   ## a run with 1 QP over one link (/root/lab/tune-qps1.json)
a: saved tune-qps4 '.qps_per_link == 4 and (.links | length) == 1 and .links[0].status == "ok"'   ## a run with 4 QPs over one link (/root/lab/tune-qps4.json)
a: saved tune-qps1 . && saved tune-qps4 . && [ "$(jq -c '[.test, .msg_size_bytes, .links[0].local.ip]' /root/lab/tune-qps1.json)" = "$(jq -c '[.test, .msg_size_bytes, .links[0].local.ip]' /root/lab/tune-qps4.json)" ]   ## both over the same link, same test and message size: one thing changed
a: want=$(jq -s -r 'if .[0].total.gbps >= .[1].total.gbps then 1 else 4 end' /root/lab/tune-qps1.json /root/lab/tune-qps4.json) &&
	[ "${ANSWER_faster:-}" = "$want" ] || { echo "answer faster: ${ANSWER_faster:-none}" >&2; false; }   ## answer faster: the run (1 or 4 QPs) that moved more Gb/s
[solve]
host: bench_save tune-qps1 b 198.18.1.2 link rxe0 qps 1 duration 3 && bench_save tune-qps4 b 198.18.1.2 link rxe0 qps 4 duration 3
host: "$LAB" exercise answer tuning faster "$(on a "jq -s -r 'if .[0].total.gbps >= .[1].total.gbps then 1 else 4 end' /root/lab/tune-qps1.json /root/lab/tune-qps4.json")"
