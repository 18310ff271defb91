title: traffic on one link: diag names it, both links add up
chapter: 6 multi-link balance

[goal]
1. While bench moves data over link 1 only, diag (saved as
   /root/lab/balance-diag.json on a) names the imbalance between the two links.
2. A bench run over link 1 alone (/root/lab/balance-one.json) and one over both
   links at once (/root/lab/balance-both.json), both links ok.
3. Answer gain: the both-links total divided by the one-link total, to one decimal.
[try]
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a './rdmactl bench client 198.18.1.2 link rxe0 duration 15' &
scripts/lab run a './rdmactl diag run interval 5'                 # while it runs
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a 'mkdir -p /root/lab; ./rdmactl -j bench client 198.18.1.2 link rxe0 duration 3 > /root/lab/balance-one.json'
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a './rdmactl -j bench client 198.18.1.2 duration 3 > /root/lab/balance-both.json'
scripts/lab exercise answer balance gain X.Y
[look]
- Without bench's link keyword every active port is used, paired by subnet: one
  report, a total and an imbalance.
- diag's links.traffic-imbalance compares the bytes each RoCE link moved between
  its two samples: one link doing all the work is the course's opening case.
- Under emulation the two links share the VMs' CPUs: the gain stays well below 2
  (LAB_SMP=2 gives each VM a second vCPU). On hardware, two links are two pipes.
[start]
[check]
a: saved balance-diag 'any(.findings[]; .id == "links.traffic-imbalance")'   ## diag (/root/lab/balance-diag.json) named the imbalance while only link 1 carried traffic
a: saved balance-one '(.links | length) == 1 and .links[0].status == "ok" and .total.gbps > 0'   ## a bench run over one link (/root/lab/balance-one.json)
a: saved balance-both '(.links | length) == 2 and all(.links[]; .status == "ok" and .gbps > 0)'   ## a bench run over both links at once (/root/lab/balance-both.json), both moving data
a: want=$(jq -s '.[1].total.gbps / .[0].total.gbps' /root/lab/balance-one.json /root/lab/balance-both.json) &&
	awk -v a="${ANSWER_gain:-x}" -v w="$want" 'BEGIN { d = a - w; exit !(a ~ /^[0-9]+(\.[0-9]+)?$/ && d < 0.051 && d > -0.051) }' ||
	{ echo "answer gain: ${ANSWER_gain:-none}" >&2; false; }   ## answer gain: both links' total over one link's, to one decimal
[solve]
host: bench_server b &&
	{ on a './rdmactl bench client 198.18.1.2 link rxe0 duration 14 >/dev/null' & } &&
	sleep 4 && on a 'mkdir -p /root/lab; ./rdmactl -j diag run interval 5 >/root/lab/balance-diag.json'; wait; true
host: bench_save balance-one b 198.18.1.2 link rxe0 duration 3 && bench_save balance-both b 198.18.1.2 duration 3
host: "$LAB" exercise answer balance gain "$(on a "jq -s -r '.[1].total.gbps / .[0].total.gbps * 10 | round / 10' /root/lab/balance-one.json /root/lab/balance-both.json")"
