title: active-backup over the two links, RDMA on the bond
chapter: 3 bonding: LACP and active-backup

[goal]
On a and b: bond0 in active-backup over eth0 and eth1 (MII monitoring every 100 ms,
eth0 preferred), 198.18.10.1/24 on a's bond0 and 198.18.10.2/24 on b's, and a
Soft-RoCE device on bond0 whose RoCE v2 GID carries that address.
[try]
scripts/lab run a ./rdmactl bond create bond0 mode active-backup members eth0,eth1 miimon 100 primary eth0
scripts/lab run a ip address add 198.18.10.1/24 dev bond0
scripts/lab run a 'rdma link delete rxe0; rdma link delete rxe1'
scripts/lab run a rdma link add rxeb type rxe netdev bond0
(the same on b with 198.18.10.2)
scripts/lab run a ./rdmactl bond show
scripts/lab run a ./rdmactl port gids bond0
scripts/lab run a ./rdmactl bond check
[look]
- One member carries everything; the other waits. Half the bandwidth, but no switch
  support needed and a failover the bond decides alone.
- Without miimon (or arp_interval) the bond never notices a dead link.
- The RDMA device must sit on the bond, not on a member: a member has no address
  of its own. Soft-RoCE devices left on the members even list the bond's address
  (the kernel's GID table follows upper devices) and cannot carry its traffic:
  delete rxe0 and rxe1, or bench and failover may pick one of them. rdmactl names the members behind the bond
  (port show: members; pfc and diag act on them).
- bond check weighs the failover time (miimon, downdelay) against the QPs' retry
  window: see the failover and retry-window exercises.
[start]
[check]
both: ./rdmactl -j bond show bond0 | jq -e '.bonds[0] | .mode == "active-backup" and .miimon_ms == 100 and .primary == "eth0" and [.members[].netdev] == ["eth0", "eth1"]' >/dev/null   ## bond0: active-backup over eth0 and eth1, miimon 100, primary eth0, on a and b
both: ip -4 -o address show dev bond0 | grep -q " 198\.18\.10\.$(me)/24 "   ## 198.18.10.1/24 on a's bond0, 198.18.10.2/24 on b's
a: ping -q -c 3 -i 0.2 -W 2 198.18.10.2 >/dev/null   ## a reaches b over bond0
both: ./rdmactl -j port gids bond0 | jq -e --arg ip "198.18.10.$(me)" 'any(.gids[]; .ip == $ip and .type == "RoCE v2")' >/dev/null   ## an RDMA device on bond0 with a RoCE v2 GID for the bond's address, on a and b
both: ! rdma -j link show | jq -e 'any(.[]; .netdev == "eth0" or .netdev == "eth1")' >/dev/null   ## no RDMA device left on a member (eth0, eth1), on a and b
[solve]
both: ./rdmactl bond create bond0 mode active-backup members eth0,eth1 miimon 100 primary eth0 >/dev/null &&
	ip address add "198.18.10.$(me)/24" dev bond0 &&
	rdma link delete rxe0 && rdma link delete rxe1 &&
	rdma link add rxeb type rxe netdev bond0 &&
	wait_for 20 grep -q ACTIVE /sys/class/infiniband/rxeb/ports/1/state
