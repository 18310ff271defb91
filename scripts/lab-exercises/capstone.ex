title: the storage gateway: flapping link, no aggregation, fixed and proven
chapter: all chapters: the course's opening case

[goal]
Host a is the course's storage gateway: two links, one flapping, no aggregation.
1. diag finds the flapping link (eth1) and the missing aggregation, saved as
   /root/lab/capstone-diag.json on a (flap link 2 while diag samples).
2. bond apply turns both links into bond0 on a and b: 802.3ad, layer3+4
   (scripts/lab-exercises/files/gateway-bond.yaml), 198.18.10.1/24 on a and
   198.18.10.2/24 on b, Soft-RoCE on bond0.
3. pfc apply gives a's bond0 the lossless profile: both members, on the NIC double.
4. bond failover measures the switch in milliseconds under probes and RDMA
   (/root/lab/capstone-failover.json on a) while link 1's cable is pulled: clean,
   nothing lost after it. Then the cable goes back in.
5. bench over the bond moves bytes on both members: both links add up.
[try]
scripts/lab run a './rdmactl diag run interval 8' &
scripts/lab link 2 down; scripts/lab link 2 up; scripts/lab link 2 down; scripts/lab link 2 up
scripts/lab run a ./rdmactl bond apply -f scripts/lab-exercises/files/gateway-bond.yaml
scripts/lab run a 'ip address add 198.18.10.1/24 dev bond0; rdma link delete rxe0; rdma link delete rxe1'
scripts/lab run a rdma link add rxeb type rxe netdev bond0
(b likewise, with 198.18.10.2)
scripts/lab run a scripts/lab-nic ./rdmactl pfc apply dev bond0 profile roce-lossless
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a './rdmactl bond failover bond0 wait 60 peer 198.18.10.2' &
sleep 8; scripts/lab link 1 down; wait; scripts/lab link 1 up
scripts/lab run b ./rdmactl bench server once &
scripts/lab run a './rdmactl bench client 198.18.10.2 qps 16 duration 3'
scripts/lab run a 'ip -s link show eth0; ip -s link show eth1'
[look]
Every chapter at once: diag's evidence (carrier changes) and its fix lines; a bond
that the peer agrees with (LACP) and that spreads RoCE flows (layer3+4: one UDP
source port per QP); PFC set once on the bond and landing on each member; a
failover measured, not guessed; and bandwidth that shows up on both links. What
the lab cannot show: line rate, and pause frames on a wire.
[start]
host: make -s -f tests/dcb-double/double.mk >/dev/null
[check]
a: saved capstone-diag 'any(.findings[]; .id == "link.flapping" and .netdev == "eth1")'   ## diag (/root/lab/capstone-diag.json) found the flapping link, eth1
a: saved capstone-diag 'any(.findings[]; .id == "bond.none")'   ## ... and the missing aggregation (bond.none)
both: ./rdmactl -j bond show bond0 | jq -e '.bonds[0] | .mode == "802.3ad" and .xmit_hash_policy == "layer3+4" and [.members[].netdev] == ["eth0", "eth1"]' >/dev/null &&
	ip -4 -o address show dev bond0 | grep -q " 198\.18\.10\.$(me)/24 " &&
	./rdmactl -j port gids bond0 | jq -e --arg ip "198.18.10.$(me)" 'any(.gids[]; .ip == $ip and .type == "RoCE v2")' >/dev/null   ## bond0 (802.3ad, layer3+4) over eth0 and eth1 on a and b, with its address and RDMA on it
a: for m in eth0 eth1; do scripts/lab-nic dcb -j pfc show dev $m | jq -e '.prio_pfc == [false,false,false,true,false,false,false,false]' >/dev/null || exit 1; done   ## PFC on priority 3 on both members of a's bond0 (dcb pfc show)
a: saved capstone-failover '.failover and .member == "eth0" and .detect_s != null and .react_s != null and .probe.ran and (.probe.gap_open_end | not) and .probe.lost * 100 <= .probe.sent'   ## a failover measured (/root/lab/capstone-failover.json): the bond dropped eth0 (detection and reaction, in seconds), probes went on, under 1% lost
host: bench_server b && on a 'members_carry 198.18.10.2 1000000 eth0 eth1'   ## a bench over the bond moves bytes on both eth0 and eth1: both links add up
[solve]
host: { on a 'mkdir -p /root/lab && ./rdmactl -j diag run interval 8 >/root/lab/capstone-diag.json' & } &&
	sleep 3 && for i in 1 2; do "$LAB" link 2 down >/dev/null && "$LAB" link 2 up >/dev/null; done; wait; true
both: ./rdmactl bond apply -f scripts/lab-exercises/files/gateway-bond.yaml >/dev/null &&
	ip address add "198.18.10.$(me)/24" dev bond0 &&
	rdma link delete rxe0 && rdma link delete rxe1 &&
	rdma link add rxeb type rxe netdev bond0 &&
	wait_for 20 grep -q ACTIVE /sys/class/infiniband/rxeb/ports/1/state
both: wait_for 60 eval "./rdmactl -j bond show bond0 | jq -e '[.bonds[0].members[].partner_port_state.flags // [] | index(\"distributing\") != null] | all' >/dev/null"
a: scripts/lab-nic ./rdmactl pfc apply dev bond0 profile roce-lossless >/dev/null
# The cable goes 8 s in, not at 'ready' (1.5-2 s, the failover exercise's solve): the
# check wants under 1% of all probes lost, so the fault needs seconds of probes before
# it (a pull at 'ready' lost 103 of 2086, CI).
host: bench_server b &&
	{ on a './rdmactl -j bond failover bond0 wait 60 peer 198.18.10.2 >/root/lab/capstone-failover.json' & fo=$!; } &&
	sleep 8 && "$LAB" link 1 down >/dev/null; wait "$fo"; rc=$?; "$LAB" link 1 up >/dev/null && exit $rc
both: wait_for 60 eval "./rdmactl -j bond show bond0 | jq -e '[.bonds[0].members[].partner_port_state.flags // [] | index(\"distributing\") != null] | all' >/dev/null"
