title: the lossless profile on a DCB NIC, checked with iproute2 dcb
chapter: 2 PFC, ETS and trust

[goal]
eth0 on host a, a ConnectX-like NIC here (scripts/lab-nic puts the NIC double in
front of it), carries the lossless RoCE profile: PFC on priority 3 and on no other,
DSCP trust, DSCP 26 on priority 3. Checked with iproute2 dcb, as on a real NIC.
[try]
scripts/lab shell a
  scripts/lab-nic ./rdmactl pfc show dev eth0
  scripts/lab-nic dcb pfc show dev eth0
  scripts/lab-nic dcb app show dev eth0
  scripts/lab-nic ./rdmactl --dry-run pfc apply dev eth0 profile roce-lossless
  scripts/lab-nic ./rdmactl pfc apply dev eth0 profile roce-lossless
  scripts/lab-nic dcb pfc show dev eth0
[look]
- PFC pauses one priority, not the port: only the RoCE priority (3) is lossless;
  the others keep dropping, as TCP expects.
- Trust decides where a packet's priority comes from: the VLAN tag's PCP, or the
  DSCP in the IP header. Routed RoCE v2 has no tag to trust: DSCP it is.
- The DSCP map puts DSCP 26 (RoCE data) on priority 3 and 48 (CNPs) on 6.
- What a virtual NIC cannot show: pause frames on a wire and traffic that really
  waits for them. On hardware, watch the rx_prio3_pause counters.
[start]
host: make -s -f tests/dcb-double/double.mk >/dev/null
[check]
a: scripts/lab-nic dcb -j pfc show dev eth0 | jq -e '.prio_pfc == [false,false,false,true,false,false,false,false]' >/dev/null   ## dcb pfc show: PFC on priority 3 and on no other
a: scripts/lab-nic dcb -j app show dev eth0 | jq -e '.dscp_prio | any(. == [26, 3])' >/dev/null   ## dcb app show: DSCP 26 on priority 3
a: scripts/lab-nic ./rdmactl -j pfc show dev eth0 | jq -e '.netdevs[0].trust.value == "dscp"' >/dev/null   ## eth0 trusts DSCP (rdmactl pfc show: Debian 12's dcb has no apptrust)
a: scripts/lab-nic ./rdmactl -j pfc show dev eth0 | jq -e '.netdevs[0].verdict.matches' >/dev/null   ## rdmactl's verdict: eth0 matches roce-lossless
[solve]
a: scripts/lab-nic ./rdmactl pfc apply dev eth0 profile roce-lossless >/dev/null
