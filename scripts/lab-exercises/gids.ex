title: which GID index a RoCE v2 application must use
chapter: 1 GIDs and RoCEv2

[goal]
Host a gets a second address, 198.18.1.11/24 on eth0, and you find the GID index a
RoCE v2 application must be given for it on rxe0 (ib_write_bw -x N,
NCCL_IB_GID_INDEX=N), and what kind of GID index 0 is.
Answers: v2-index (a number) and index0-type ("RoCE v1" or "RoCE v2").
[try]
scripts/lab shell a
  ./rdmactl port gids rxe0
  ip address add 198.18.1.11/24 dev eth0
  ./rdmactl port gids rxe0        # a new GID per RoCE version rxe0 speaks
  grep . /sys/class/infiniband/rxe0/ports/1/gid_attrs/types/*
(Ctrl-] leaves the shell)
scripts/lab exercise answer gids v2-index N
scripts/lab exercise answer gids index0-type "RoCE vN"
[look]
- Each address gives a GID per RoCE version the device speaks: ConnectX lists a RoCE
  v1 and a RoCE v2 GID for it, Soft-RoCE only RoCE v2. The RoCE v2 GID of an IPv4
  address is IPv4-mapped (::ffff:198.18.1.11) and travels in UDP/IP: it routes.
  rdmactl marks the one to use "recommended".
- Index 0 is the link-local GID (fe80::, from the MAC address). A program that takes
  index 0 by default (many do) addresses its peer by IPv6 link-local: with IPv6 off,
  or to a peer in another subnet, its QP fails to reach RTR.
- Indexes follow the addresses: adding or removing one shifts them. Look them up
  (rdmactl port gids, show_gids); never hard-code them.
[start]
[check]
a: ip -4 -o address show dev eth0 | grep -q ' 198\.18\.1\.11/24 '   ## host a has a second address, 198.18.1.11/24 on eth0
a: v2_index rxe0 198.18.1.11 >/dev/null   ## rxe0 lists a RoCE v2 GID for 198.18.1.11
a: want=$(v2_index rxe0 198.18.1.11) && [ "${ANSWER_v2_index:-}" = "$want" ] ||
	{ echo "answer v2-index: ${ANSWER_v2_index:-none}" >&2; false; }   ## answer v2-index: the GID index of that RoCE v2 GID
a: want=$(./rdmactl -j port gids rxe0 | jq -r '.gids[] | select(.index == 0) | .type') &&
	[ "${ANSWER_index0_type:-}" = "$want" ] ||
	{ echo "answer index0-type: ${ANSWER_index0_type:-none}" >&2; false; }   ## answer index0-type: the RoCE version of rxe0's GID index 0
[solve]
a: ip address add 198.18.1.11/24 dev eth0 && wait_for 10 v2_index rxe0 198.18.1.11 >/dev/null
host: "$LAB" exercise answer gids v2-index "$(on a 'v2_index rxe0 198.18.1.11')"
host: "$LAB" exercise answer gids index0-type "$(on a "./rdmactl -j port gids rxe0 | jq -r '.gids[] | select(.index == 0) | .type'")"
