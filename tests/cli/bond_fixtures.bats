#!/usr/bin/env bats
# bond fixtures: each host's three views of its bonds (sysfs, /proc/net/bonding and the
# recorded RTM_GETLINK dump of kernel.rec) agree; the dump is decoded by our own code here
load ../helpers

# bond_decode DIR: decode DIR/kernel.rec's link dump (request exactly nlmsghdr{32, RTM_GETLINK,
# NLM_F_REQUEST|NLM_F_DUMP} + a zero ifinfomsg), check it against DIR's sysfs and procfs, print
# one line per bond ("no bonds" when none) and "MISMATCH ..." per disagreement; exit 1 on any.
bond_decode() {
	python3 - "$1" <<'EOF'
import os, struct, sys

root = sys.argv[1]
RTM_NEWLINK, RTM_GETLINK, NLMSG_DONE = 16, 18, 3
NLM_F_MULTI = 0x2
MODES = ["balance-rr", "active-backup", "balance-xor", "broadcast", "802.3ad",
         "balance-tlb", "balance-alb"]
PROC_MODES = ["load balancing (round-robin)", "fault-tolerance (active-backup)",
              "load balancing (xor)", "fault-tolerance (broadcast)",
              "IEEE 802.3ad Dynamic link aggregation", "transmit load balancing",
              "adaptive load balancing"]
HASHES = ["layer2", "layer3+4", "layer2+3", "encap2+3", "encap3+4", "vlan+srcmac"]
MII = ["up", "going down", "down", "going back"]
# Attribute numbers (uapi if_link.h), written out here on purpose: this decoder shares nothing
# with scripts/mkhosts or lib/. IFLA_: 3 IFNAME, 4 MTU, 10 MASTER, 18 LINKINFO, 33 CARRIER;
# IFLA_INFO_: 1 KIND, 2 DATA, 4 SLAVE_KIND, 5 SLAVE_DATA; IFLA_BOND_: 1 MODE, 2 ACTIVE_SLAVE,
# 3 MIIMON, 4 UPDELAY, 5 DOWNDELAY, 11 PRIMARY, 14 XMIT_HASH_POLICY, 18 MIN_LINKS,
# 21 AD_LACP_RATE, 22 AD_SELECT, 23 AD_INFO {1 AGGREGATOR, 2 NUM_PORTS, 3 ACTOR_KEY,
# 4 PARTNER_KEY, 5 PARTNER_MAC}; IFLA_BOND_SLAVE_: 1 STATE, 2 MII_STATUS,
# 3 LINK_FAILURE_COUNT, 4 PERM_HWADDR, 6 AD_AGGREGATOR_ID, 7 AD_ACTOR_OPER_PORT_STATE,
# 8 AD_PARTNER_OPER_PORT_STATE (u16).
bad = []


def fail(msg):
    bad.append(msg)


def attrs(data, where):
    """{type: payload} of a run of attributes; checks lengths and padding."""
    out, off = {}, 0
    while off < len(data):
        if len(data) - off < 4:
            fail(f"{where}: trailing bytes")
            break
        n, t = struct.unpack_from("<HH", data, off)
        if n < 4 or off + n > len(data):
            fail(f"{where}: attribute {t} length {n}")
            break
        if t & 0x8000:
            fail(f"{where}: attribute {t & 0x3fff} has NLA_F_NESTED")
        pad = data[off + n:off + ((n + 3) & ~3)]
        if pad.strip(b"\0"):
            fail(f"{where}: attribute {t} padding not zero")
        out[t & 0x3fff] = data[off + 4:off + n]
        off += (n + 3) & ~3
    return out


def u(b):
    return int.from_bytes(b, "little")


def strz(b):
    if not b.endswith(b"\0"):
        fail(f"string {b!r} not NUL-terminated")
    return b.rstrip(b"\0").decode()


def mac(b):
    return ":".join(f"{x:02x}" for x in b)


def sysfs(path):
    p = os.path.join(root, path)
    with open(p) as f:
        v = f.read()
    if v and not v.endswith("\n"):
        fail(f"{path}: no newline")
    return v.rstrip("\n")


# ---- the recorded dump ----
with open(os.path.join(root, "kernel.rec")) as f:
    lines = f.read().split("\n")
want = struct.pack("<IHH", 32, RTM_GETLINK, 0x301)
found = []
for i, line in enumerate(lines):
    if line.startswith("> nl 0 "):
        req = bytes.fromhex(line.split()[-1])
        if req[:8] == want and req[16:] == bytes(16):
            replies = []
            for r in lines[i + 1:]:
                if not r.startswith("< "):
                    break
                replies.append(bytes.fromhex(r[2:]))
            found.append((req, replies))
if len(found) != 1:
    sys.exit(f"{root}: {len(found)} RTM_GETLINK dump requests recorded")
req, replies = found[0]
seq = struct.unpack_from("<I", req, 8)[0]
links, done_at = {}, None
for d, blob in enumerate(replies):
    off = 0
    while off < len(blob):
        n, mtype, flags, rseq, _ = struct.unpack_from("<IHHII", blob, off)
        if rseq != seq:
            fail(f"seq {rseq} != {seq}")
        if not flags & NLM_F_MULTI:
            fail("reply without NLM_F_MULTI")
        if mtype == NLMSG_DONE:
            done_at = (d, off)
            if struct.unpack_from("<i", blob, off + 16)[0] != 0:
                fail("DONE with an error")
        elif mtype == RTM_NEWLINK:
            _, _, typ, index, iflags, _ = struct.unpack_from("<BBHiII", blob, off + 16)
            a = attrs(blob[off + 32:off + n], f"link {index}")
            link = {"index": index, "flags": iflags, "type": typ,
                    "name": strz(a[3]), "mtu": u(a[4]), "carrier": u(a[33]),
                    "master": u(a[10]) if 10 in a else 0}
            li = attrs(a.get(18, b""), "linkinfo")
            link["kind"] = strz(li[1]) if 1 in li else None
            link["data"] = attrs(li.get(2, b""), "info_data")
            link["slave_kind"] = strz(li[4]) if 4 in li else None
            link["slave"] = attrs(li.get(5, b""), "slave_data")
            links[link["name"]] = link
        else:
            fail(f"unexpected message type {mtype}")
        off += (n + 3) & ~3
if done_at != (len(replies) - 1, 0) or len(replies[-1]) != 20:
    fail("NLMSG_DONE is not alone in the last datagram")
names = [l["name"] for l in sorted(links.values(), key=lambda l: l["index"])]
by_index = {l["index"]: l for l in links.values()}

# every netdev of the tree, and nothing more, with its sysfs values
netdevs = sorted(os.listdir(os.path.join(root, "sys/class/net")))
netdevs = [n for n in netdevs if n != "bonding_masters"]
if sorted(names) != netdevs:
    fail(f"dump {names} != sysfs {netdevs}")
for name, l in links.items():
    base = f"sys/class/net/{name}"
    if int(sysfs(f"{base}/ifindex")) != l["index"]:
        fail(f"{name}: ifindex")
    if int(sysfs(f"{base}/mtu")) != l["mtu"]:
        fail(f"{name}: mtu")
    if int(sysfs(f"{base}/carrier")) != l["carrier"]:
        fail(f"{name}: carrier")
    if int(sysfs(f"{base}/flags"), 16) & ~l["flags"]:
        fail(f"{name}: flags")
    master = os.path.join(root, base, "master")
    if os.path.islink(master):
        up = os.path.basename(os.readlink(master))
        if by_index.get(l["master"], {}).get("name") != up:
            fail(f"{name}: IFLA_MASTER is not {up}")
    elif l["master"]:
        fail(f"{name}: IFLA_MASTER without a master link")

bonds = [l for l in links.values() if l["kind"] == "bond"]
procdir = os.path.join(root, "proc/net/bonding")
procs = sorted(os.listdir(procdir)) if os.path.isdir(procdir) else []
if sorted(b["name"] for b in bonds) != procs:
    fail(f"bonds in netlink {[b['name'] for b in bonds]} != procfs {procs}")
masters = os.path.join(root, "sys/class/net/bonding_masters")
if bonds and sysfs("sys/class/net/bonding_masters").split() != [b["name"] for b in bonds]:
    fail("bonding_masters")
if not bonds and os.path.exists(masters):
    fail("bonding_masters without a bond")
if not bonds and any(l["slave_kind"] for l in links.values()):
    fail("a bond slave without a bond")


def procfs(name):
    """/proc/net/bonding/NAME: the bond's keys, and per member its keys."""
    with open(os.path.join(procdir, name)) as f:
        text = f.read()
    if not text.startswith("Ethernet Channel Bonding Driver: v"):
        fail(f"{name}: first line")
    bond, members, cur, block = {}, [], None, None
    for line in text.split("\n")[1:]:
        key, _, val = line.partition(":")
        key, val = key.strip(), val.strip()
        if key == "Slave Interface":
            cur = {"name": val}
            members.append(cur)
            block = None
        elif key.startswith("details "):
            block = key.split()[1]
        elif cur is not None:
            cur[f"{block} {key}" if block and line.startswith("    ") else key] = val
        elif key:
            bond[key] = val
    return bond, members


out = []
for b in sorted(bonds, key=lambda l: l["index"]):
    name, d = b["name"], b["data"]
    pb, pm = procfs(name)
    mode = u(d[1])
    bs = f"sys/class/net/{name}/bonding"
    mode_proc = pb["Bonding Mode"].split(" (fail_over_mac")[0]
    if PROC_MODES.index(mode_proc) != mode or sysfs(f"{bs}/mode") != f"{MODES[mode]} {mode}":
        fail(f"{name}: mode")
    hash_ = u(d[14])
    if sysfs(f"{bs}/xmit_hash_policy") != f"{HASHES[hash_]} {hash_}":
        fail(f"{name}: sysfs xmit_hash_policy")
    if "Transmit Hash Policy" in pb and pb["Transmit Hash Policy"] != f"{HASHES[hash_]} ({hash_})":
        fail(f"{name}: procfs hash policy")
    for key, attr, sys_ in (("MII Polling Interval (ms)", 3, "miimon"),
                            ("Up Delay (ms)", 4, "updelay"), ("Down Delay (ms)", 5, "downdelay")):
        if int(pb[key]) != u(d[attr]) or int(sysfs(f"{bs}/{sys_}")) != u(d[attr]):
            fail(f"{name}: {sys_}")
    mii = "up" if b["carrier"] else "down"
    if pb["MII Status"] != mii or sysfs(f"{bs}/mii_status") != mii:
        fail(f"{name}: MII status")
    active = by_index[u(d[2])]["name"] if 2 in d else ""
    primary = by_index[u(d[11])]["name"] if 11 in d else ""
    if mode in (1, 5, 6):
        if pb["Currently Active Slave"] != (active or "None"):
            fail(f"{name}: active slave")
        if pb["Primary Slave"].split(" (")[0] != (primary or "None"):
            fail(f"{name}: primary")
    if sysfs(f"{bs}/active_slave") != active or sysfs(f"{bs}/primary") != primary:
        fail(f"{name}: sysfs active_slave/primary")
    lacp = u(d[21])
    if sysfs(f"{bs}/lacp_rate") != f"{['slow', 'fast'][lacp]} {lacp}":
        fail(f"{name}: sysfs lacp_rate")
    agg = None
    if mode == 4:
        if pb["LACP rate"] != ["slow", "fast"][lacp] or int(pb["Min links"]) != u(d[18]):
            fail(f"{name}: 802.3ad info")
        sel = ["stable", "bandwidth", "count"][u(d[22])]
        if pb["Aggregator selection policy (ad_select)"] != sel:
            fail(f"{name}: ad_select")
        ad = attrs(d[23], "ad_info")
        agg = u(ad[1])
        want = (str(agg), str(u(ad[2])), str(u(ad[3])), str(u(ad[4])), mac(ad[5]))
        got = (pb["Aggregator ID"], pb["Number of ports"], pb["Actor Key"],
               pb["Partner Key"], pb["Partner Mac Address"])
        sys_ = tuple(sysfs(f"{bs}/{f}") for f in ("ad_aggregator", "ad_num_ports", "ad_actor_key",
                                                  "ad_partner_key", "ad_partner_mac"))
        if got != want or sys_ != want:
            fail(f"{name}: aggregator {got} {sys_} != netlink {want}")
    elif 23 in d:
        fail(f"{name}: AD_INFO outside 802.3ad")
    slaves = [l for l in links.values() if l["master"] == b["index"]]
    if sorted(m["name"] for m in pm) != sorted(s["name"] for s in slaves):
        fail(f"{name}: members {[m['name'] for m in pm]} != {[s['name'] for s in slaves]}")
    if sysfs(f"{bs}/slaves").split() != [m["name"] for m in pm]:
        fail(f"{name}: sysfs slaves order")
    states = []
    for m in pm:
        s = links[m["name"]]
        sd = s["slave"]
        ss = f"sys/class/net/{m['name']}/bonding_slave"
        if s["slave_kind"] != "bond":
            fail(f"{m['name']}: slave kind")
        st, mii = u(sd[1]), u(sd[2])
        if mode == 1:
            want_state = 0 if m["name"] == active else 1
        elif mode == 4:
            want_state = 0 if u(sd.get(6, b"\xff\xff")) == agg else 1
        else:
            want_state = 0
        if st != want_state or sysfs(f"{ss}/state") != ["active", "backup"][st]:
            fail(f"{m['name']}: state")
        if m["MII Status"] != MII[mii] or sysfs(f"{ss}/mii_status") != MII[mii]:
            fail(f"{m['name']}: mii status")
        if (MII[mii] == "up") != bool(s["carrier"]):
            fail(f"{m['name']}: mii status vs carrier")
        lfc = u(sd[3])
        if int(m["Link Failure Count"]) != lfc or int(sysfs(f"{ss}/link_failure_count")) != lfc:
            fail(f"{m['name']}: link failure count")
        if m["Permanent HW addr"] != mac(sd[4]) or sysfs(f"{ss}/perm_hwaddr") != mac(sd[4]):
            fail(f"{m['name']}: perm hwaddr")
        speed = sysfs(f"sys/class/net/{m['name']}/speed")
        if m["Speed"] != ("Unknown" if speed == "-1" else f"{speed} Mbps"):
            fail(f"{m['name']}: speed")
        duplex = sysfs(f"sys/class/net/{m['name']}/duplex")
        if m["Duplex"] != ("Unknown" if duplex == "unknown" else duplex):
            fail(f"{m['name']}: duplex")
        if sysfs(f"sys/class/net/{m['name']}/mtu") != str(b["mtu"]):
            fail(f"{m['name']}: mtu differs from the bond's")
        if mode == 4:
            got = (m["Aggregator ID"], m["actor port state"], m["partner port state"])
            want = (str(u(sd[6])), str(u(sd[7])), str(u(sd[8])))
            sys_ = tuple(sysfs(f"{ss}/{f}") for f in (
                "ad_aggregator_id", "ad_actor_oper_port_state", "ad_partner_oper_port_state"))
            if got != want or sys_ != want or len(sd[8]) != 2:
                fail(f"{m['name']}: 802.3ad {got} {sys_} != netlink {want}")
        elif 6 in sd or sysfs(f"{ss}/ad_aggregator_id") != "N/A":
            fail(f"{m['name']}: aggregator outside 802.3ad")
        states.append(f"{m['name']}:{['active', 'backup'][st]}:{MII[mii]}")
    out.append(f"{name} {MODES[mode]} hash={HASHES[hash_]} miimon={u(d[3])} "
               f"lacp_rate={['slow', 'fast'][lacp]} active={active or '-'} "
               f"primary={primary or '-'} members={','.join(states)}")
for msg in bad:
    print(f"MISMATCH {msg}")
print("\n".join(out) if out else "no bonds")
sys.exit(1 if bad else 0)
EOF
}

@test "bond fixtures: every recording answers the link dump, in agreement with sysfs and procfs" {
	n=0
	for dir in "$HOSTS"/*/; do
		[ -e "$dir/kernel.rec" ] || continue
		# A captured bundle (diag collect: VERSIONS) keeps only what rdmactl reads, not the
		# whole of sysfs this compares with; mkhosts --verify and replay check its recording.
		[ ! -e "$dir/VERSIONS" ] || continue
		run bond_decode "$dir"
		[ "$status" -eq 0 ] || fail "$(basename "$dir"): $output"
		refute_output --partial MISMATCH
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
}

@test "bond fixtures: cx6dx-lag is an 802.3ad RoCE LAG over both PFs of one card" {
	run bond_decode "$HOSTS/cx6dx-lag"
	assert_success
	assert_output "bond0 802.3ad hash=layer3+4 miimon=100 lacp_rate=fast active=- primary=- members=ens1f0np0:active:up,ens1f1np1:active:up"
	h=$HOSTS/cx6dx-lag/sys
	# one ibdev with one port whose netdev is the bond
	[ "$(cd "$h/class/infiniband" && echo *)" = mlx5_bond_0 ]
	[ "$(cd "$h/class/infiniband/mlx5_bond_0/ports" && echo *)" = 1 ]
	[ "$(cat "$h"/class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs/* | sort -u)" = bond0 ]
	# the members are the two functions of one PCI device (same domain:bus:device)
	[ "$(basename "$(readlink -f "$h/class/net/ens1f0np0/device")")" = 0000:3b:00.0 ]
	[ "$(basename "$(readlink -f "$h/class/net/ens1f1np1/device")")" = 0000:3b:00.1 ]
	[ ! -e "$HOSTS/cx6dx-lag/sys/bus/pci/devices/0000:3b:00.1/infiniband" ]
	grep -qx 'Aggregator ID: 1' "$HOSTS/cx6dx-lag/proc/net/bonding/bond0"
}

@test "bond fixtures: ab-2nic is active-backup over ports of two cards, failed over" {
	run bond_decode "$HOSTS/ab-2nic"
	assert_success
	assert_output "bond0 active-backup hash=layer2 miimon=100 lacp_rate=slow active=ens2f0np0 primary=ens1f0np0 members=ens1f0np0:backup:down,ens2f0np0:active:up"
	h=$HOSTS/ab-2nic/sys
	# the members sit on two PCI devices: no LAG; every port keeps its ibdev
	[ "$(basename "$(readlink -f "$h/class/net/ens1f0np0/device")")" = 0000:3b:00.0 ]
	[ "$(basename "$(readlink -f "$h/class/net/ens2f0np0/device")")" = 0000:86:00.0 ]
	[ "$(cd "$h/class/infiniband" && echo *)" = "mlx5_0 mlx5_1 mlx5_2 mlx5_3" ]
	# the bond's GIDs sit on both slaves' ports, its address only on the active one
	[ "$(cat "$h"/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/* | sort -u)" = bond0 ]
	[ "$(cat "$h"/class/infiniband/mlx5_2/ports/1/gid_attrs/ndevs/* | sort -u)" = bond0 ]
	[ "$(cat "$h/class/infiniband/mlx5_2/ports/1/gids/3")" = 0000:0000:0000:0000:0000:ffff:c0a8:280f ]
	[ "$(cat "$h/class/infiniband/mlx5_0/ports/1/gids/2")" = 0000:0000:0000:0000:0000:0000:0000:0000 ]
	[ "$(cat "$h/class/infiniband/mlx5_0/ports/1/state")" = "1: DOWN" ]
	[ "$(cat "$h/class/net/bond0/speed")" = 100000 ]
	grep -qx 'Speed: Unknown' "$HOSTS/ab-2nic/proc/net/bonding/bond0"
}

@test "bond fixtures: the other hosts have no bond" {
	for h in cx6dx degraded; do
		run bond_decode "$HOSTS/$h"
		assert_success
		assert_output "no bonds"
	done
	for h in cx6dx ib-hdr rxe degraded; do
		[ ! -e "$HOSTS/$h/proc/net/bonding" ]
		[ ! -e "$HOSTS/$h/sys/class/net/bonding_masters" ]
		[ -z "$(find "$HOSTS/$h/sys" -name bonding_slave -o -name bonding)" ]
	done
}

@test "bond fixtures: the decoder sees a disagreement between the views" {
	cp -a "$HOSTS/ab-2nic" "$BATS_TEST_TMPDIR/h"
	bond=$BATS_TEST_TMPDIR/h/proc/net/bonding/bond0
	sed -i 's/^Currently Active Slave: ens2f0np0/Currently Active Slave: ens1f0np0/' "$bond"
	run bond_decode "$BATS_TEST_TMPDIR/h"
	assert_failure
	assert_output --partial "MISMATCH bond0: active slave"

	cp "$HOSTS/ab-2nic/proc/net/bonding/bond0" "$bond"
	sed -i 's/^Link Failure Count: 3$/Link Failure Count: 4/' "$bond"
	run bond_decode "$BATS_TEST_TMPDIR/h"
	assert_failure
	assert_output --partial "MISMATCH ens1f0np0: link failure count"

	cp "$HOSTS/ab-2nic/proc/net/bonding/bond0" "$bond"
	echo backup >"$BATS_TEST_TMPDIR/h/sys/class/net/ens2f0np0/bonding_slave/state"
	run bond_decode "$BATS_TEST_TMPDIR/h"
	assert_failure
	assert_output --partial "MISMATCH ens2f0np0: state"
}

@test "bond fixtures: regenerating the hosts with recordings changes no byte" {
	"$TOP/scripts/mkhosts" -q --out "$BATS_TEST_TMPDIR" cx6dx cx6dx-lag degraded ab-2nic
	for h in cx6dx cx6dx-lag degraded ab-2nic; do
		diff -r --no-dereference "$HOSTS/$h" "$BATS_TEST_TMPDIR/$h"
	done
}
