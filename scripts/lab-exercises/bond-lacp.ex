title: 802.3ad (LACP) over the two links, the partner's state
chapter: 3 bonding: LACP and active-backup

[goal]
On a and b: bond0 in 802.3ad over eth0 and eth1, LACP at the fast rate, layer3+4
hashing, MII monitoring every 100 ms, 198.18.10.1/24 (a) and 198.18.10.2/24 (b);
both members in one aggregator, their LACP partners in sync and distributing.
[try]
scripts/lab run a ./rdmactl bond create bond0 mode 802.3ad members eth0,eth1 miimon 100 lacp-rate fast xmit-hash layer3+4
scripts/lab run a ip address add 198.18.10.1/24 dev bond0
scripts/lab run a ./rdmactl bond show          # before b has its bond: no partner
(the same on b with 198.18.10.2)
scripts/lab run a ./rdmactl bond show          # partner state, aggregator
scripts/lab run a cat /proc/net/bonding/bond0
[look]
- LACP is a conversation: a member distributes only when the partner (a switch, here
  host b) answers and agrees. Until b has its bond, a's members wait.
- Both members must land in one aggregator (same aggregator id): a member in another
  one carries nothing.
- layer3+4 hashes on addresses and ports: RoCE v2 flows (one UDP source port per QP)
  spread over the members; layer2 would put every flow between two hosts on one.
- fast LACP (1 s) notices a dead partner in 3 s; slow takes 90 s.
[start]
[check]
both: ./rdmactl -j bond show bond0 | jq -e '.bonds[0] | .mode == "802.3ad" and .lacp_rate == "fast" and .xmit_hash_policy == "layer3+4" and .miimon_ms == 100 and [.members[].netdev] == ["eth0", "eth1"]' >/dev/null   ## bond0: 802.3ad over eth0 and eth1, lacp-rate fast, layer3+4, miimon 100, on a and b
both: ip -4 -o address show dev bond0 | grep -q " 198\.18\.10\.$(me)/24 "   ## 198.18.10.1/24 on a's bond0, 198.18.10.2/24 on b's
both: ./rdmactl -j bond show bond0 | jq -e '[.bonds[0].members[].aggregator_id] | (unique | length == 1) and .[0] != null' >/dev/null   ## both members in one aggregator, on a and b
both: ./rdmactl -j bond show bond0 | jq -e '[.bonds[0].members[].partner_port_state.flags // [] | index("in_sync") != null and index("distributing") != null] | all' >/dev/null   ## every member's LACP partner is in sync and distributing
a: ping -q -c 3 -i 0.2 -W 2 198.18.10.2 >/dev/null   ## a reaches b over bond0
[solve]
both: ./rdmactl bond create bond0 mode 802.3ad members eth0,eth1 miimon 100 lacp-rate fast xmit-hash layer3+4 >/dev/null &&
	ip address add "198.18.10.$(me)/24" dev bond0
both: wait_for 60 eval "./rdmactl -j bond show bond0 | jq -e '[.bonds[0].members[].partner_port_state.flags // [] | index(\"distributing\") != null] | all' >/dev/null"
