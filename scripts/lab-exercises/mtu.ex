title: active MTU versus netdev MTU, 4200 -> 4096, seen in bench
chapter: 5 performance tuning

[goal]
eth0 carries MTU 4200 on a and b (set with rdmactl), rxe0's active MTU is 4096 on
both, and a bench run over link 1 (saved as /root/lab/mtu.json on a) moved its
data with a 4096-byte path MTU.
[try]
scripts/lab run a ./rdmactl port show rxe0          # active MTU 1024 of netdev MTU 1500
scripts/lab run a ./rdmactl port set eth0 mtu 4200
scripts/lab run b ./rdmactl port set eth0 mtu 4200
scripts/lab run a ./rdmactl port show rxe0
scripts/lab run b ./rdmactl bench server once &     # then, on a:
scripts/lab run a 'mkdir -p /root/lab; ./rdmactl -j bench client 198.18.1.2 link rxe0 duration 2 > /root/lab/mtu.json'
[look]
- RoCE's MTU is one of 256, 512, 1024, 2048, 4096: the largest that fits in the
  netdev MTU after the IP, UDP, BTH and ICRC headers (about 58 bytes). A 1500-byte
  Ethernet MTU gives 1024; 4096 needs at least 4154, hence the usual 4200 (and 9000
  on switches).
- Both ends agree on the path MTU when the QP connects (bench prints "mtu" per
  link): the smaller side wins, so set it on a and b (and every switch port).
- Bigger packets cost fewer per-packet operations: compare the Gb/s before and after.
[start]
[check]
both: [ "$(cat /sys/class/net/eth0/mtu)" = 4200 ] || { echo "eth0 MTU $(cat /sys/class/net/eth0/mtu)" >&2; false; }   ## eth0 has MTU 4200 on a and b
both: active_mtu_is rxe0 4096   ## rxe0's active MTU is 4096 on a and b
a: saved mtu '.links | length == 1 and .[0].status == "ok" and .[0].path_mtu_bytes == 4096 and .[0].bytes > 0'   ## a bench run over link 1 in /root/lab/mtu.json moved data with a 4096-byte path MTU
[solve]
both: ./rdmactl port set eth0 mtu 4200 >/dev/null && wait_for 10 active_mtu_is rxe0 4096
host: bench_save mtu b 198.18.1.2 link rxe0 duration 2
