#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# fixtures: the DCB, ethtool, address and sysfs facts scripts/mkhosts records, as rdmactl reads them
load ../helpers

# Hosts with a kernel recording (testdata/hosts/README.md).
RECORDED="cx6dx cx6dx-lag degraded ab-2nic seed-gateway clean-2port"

setup() {
	command -v jq >/dev/null || skip "jq not installed"
}

# kernel.rec of HOST decoded on its own (not with the generator's code), as JSON:
# gstats {IF: [{name: value} per answer]}, std {IF: [{group: {index: value}}]},
# drvinfo/pause/fec {IF: fields or errno}, link {IF: settings or errno}, addrs [...].
rec_json() {
	python3 - "$HOSTS/$1/kernel.rec" <<'EOF'
import json, socket, struct, sys

def msgs(blob):
    off = 0
    while off + 16 <= len(blob):
        n, t = struct.unpack_from("<IH", blob, off)
        yield t, blob[off + 16:off + n]
        off += (n + 3) & ~3

def attrs(data):
    off, out = 0, []
    while off + 4 <= len(data):
        n, t = struct.unpack_from("<HH", data, off)
        out.append((t & 0x3FFF, data[off + 4:off + n]))
        off += (n + 3) & ~3
    return out

def cstr(b):
    return b.split(b"\0")[0].decode()

def bits(words):
    return [32 * i + b for i, w in enumerate(words) for b in range(32) if w >> b & 1]

ex = []
for line in open(sys.argv[1]).read().split("\n")[1:]:
    if line.startswith("> "):
        p = line[2:].split(" ")
        ex.append({"kind": p[0], "arg": p[2] if p[0] == "ioctl" else p[1],
                   "req": bytes.fromhex(p[-1]), "rep": [], "err": None})
    elif line.startswith("< "):
        ex[-1]["rep"].append(bytes.fromhex(line[2:]))
    elif line.startswith("! "):
        ex[-1]["err"] = int(line[2:])
out = {k: {} for k in ("gstrings", "gstats", "std", "drvinfo", "pause", "fec", "link")}
out["addrs"] = []
for e in ex:
    ifn, r = e["arg"], (e["rep"][0] if e["rep"] else None)
    if e["kind"] == "ioctl":
        cmd = struct.unpack_from("<I", e["req"])[0]
        if cmd == 0x1B:
            n = struct.unpack_from("<I", r, 8)[0]
            out["gstrings"][ifn] = [cstr(r[12 + 32 * i:44 + 32 * i]) for i in range(n)]
        elif cmd == 0x1D:
            n = struct.unpack_from("<I", r, 4)[0]
            out["gstats"].setdefault(ifn, []).append(
                dict(zip(out["gstrings"][ifn], struct.unpack_from(f"<{n}Q", r, 8))))
        elif cmd == 0x03:
            out["drvinfo"][ifn] = e["err"] or {
                "driver": cstr(r[4:36]), "version": cstr(r[36:68]),
                "fw_version": cstr(r[68:100]), "bus_info": cstr(r[100:132]),
                "n_stats": struct.unpack_from("<I", r, 180)[0]}
        elif cmd == 0x12:
            out["pause"][ifn] = e["err"] or list(struct.unpack_from("<3I", r, 4))
        elif cmd == 0x50:
            out["fec"][ifn] = e["err"] or list(struct.unpack_from("<2I", r, 4))
        elif cmd == 0x4C:
            if e["err"]:
                out["link"][ifn] = e["err"]
                continue
            asked = struct.unpack_from("<b", e["req"], 15)[0]
            got = struct.unpack_from("<b", r, 15)[0]
            link = out["link"].setdefault(ifn, {})
            if asked == 0:
                # the base zeroed but for cmd and -N, the rest as sent
                link["handshake"] = got
                link["handshake_zero"] = not any(r[4:15] + r[16:])
                continue
            speed, duplex, port, _, autoneg = struct.unpack_from("<IBBBB", r, 4)
            w = [struct.unpack_from(f"<{asked}I", r, 48 + 4 * asked * k) for k in range(3)]
            link.update(nwords=got, speed=speed, duplex=duplex, port=port, autoneg=autoneg,
                        supported=bits(w[0]), advertising=bits(w[1]), lp=bits(w[2]),
                        size=len(r), rest_zero=not any(r[48 + 12 * asked:]))
    elif e["kind"] == "nl" and e["arg"] == "0":
        for rep in e["rep"]:
            for t, p in msgs(rep):
                if t != 20:  # RTM_NEWADDR
                    continue
                fam, plen, _, scope, idx = struct.unpack_from("<BBBBI", p)
                a = dict(attrs(p[8:]))
                out["addrs"].append({
                    "family": 4 if fam == 2 else 6, "ifindex": idx, "prefix": plen,
                    "scope": scope, "label": cstr(a[3]) if 3 in a else None,
                    "ip": socket.inet_ntop(socket.AF_INET if fam == 2 else socket.AF_INET6,
                                           a[1])})
    elif e["kind"] == "nl" and e["arg"] == "16":
        for rep in e["rep"]:
            for t, p in msgs(rep):
                if t < 16 or t == 0x10 or p[0] != 33:  # ETHTOOL_MSG_STATS_GET_REPLY
                    continue
                top = attrs(p[4:])
                name = cstr(dict(attrs(dict(top)[2]))[2])
                groups = {}
                for at, g in top:
                    if at != 4:
                        continue
                    g = attrs(g)
                    stats = {}
                    for st, sd in g:
                        if st == 4:
                            (i, v), = [(x, struct.unpack("<Q", y)[0]) for x, y in attrs(sd)]
                            stats[str(i)] = v
                    groups[str(struct.unpack("<I", dict(g)[2])[0])] = stats
                out["std"].setdefault(name, []).append(groups)
json.dump(out, sys.stdout)
EOF
}

# The first line of a sysfs/procfs file of HOST.
val() {
	head -n1 "$HOSTS/$1/$2"
}

# shellcheck disable=SC2154 # bats' run sets stderr
@test "fixtures: every recorded host answers pfc show, text and JSON, exit 0" {
	for h in $RECORDED; do
		run --separate-stderr rd "$h" pfc show
		[ "$status" -eq 0 ] || fail "$h: pfc show exit $status: $stderr"
		run --separate-stderr rd "$h" -j pfc show
		assert_success
		echo "$output" | json_valid
	done
	# no recording: dcbnl cannot be answered
	run --separate-stderr rd ib-hdr pfc show
	assert_failure 1
	[[ $stderr == *"No data available"* ]]
}

@test "fixtures: cx6dx is lossless RoCE as pfc apply profile roce-lossless leaves it" {
	run --separate-stderr rd cx6dx -j pfc show
	assert_success
	[ "$(echo "$output" | jq -c '[.netdevs[].netdev]')" = '["ens1f0np0","ens1f1np1"]' ]
	for i in 0 1; do
		d=$(echo "$output" | jq -c ".netdevs[$i]")
		[ "$(echo "$d" | jq -c '[.dcbx.host, .dcbx.cee, .dcbx.ieee, .dcbx.lld_managed]')" = '[true,true,true,false]' ]
		[ "$(echo "$d" | jq -c '[.pfc.source, .pfc.pfc_cap, .pfc.delay_bits, .pfc.enabled_prios]')" = '["dcbnl",8,7,[3]]' ]
		[ "$(echo "$d" | jq -c '[.pfc.prios[] | select(.enabled) | .prio]')" = '[3]' ]
		[ "$(echo "$d" | jq -c '[.trust.value, .trust.source]')" = '["dscp","dcbnl-app"]' ]
		# The map is ordered by DSCP (the kernel lists mlx5's newest first).
		[ "$(echo "$d" | jq -c '.dscp_prio.map')" = '[{"dscp":26,"prio":3},{"dscp":48,"prio":6}]' ]
		[ "$(echo "$d" | jq -c '.verdict | [.profile, .prio, .dscp, .matches, .differences]')" = '["roce-lossless",3,26,true,[]]' ]
		[ "$(echo "$d" | jq -c '.ets | [.ets_cap, .willing, .prio_tc, .tc_tsa, .tc_bw_pct]')" = \
		  '[8,false,[0,0,0,3,0,0,6,0],["ets","strict","strict","ets","strict","strict","strict","strict"],[50,100,100,50,100,100,100,100]]' ]
		[ "$(echo "$d" | jq -c '.maxrate.tc_maxrate_kbps')" = '[0,0,0,0,0,0,0,0]' ]
		[ "$(echo "$d" | jq -c '.buffer | [.prio_buffer, .buffer_size_bytes[0], .total_size_bytes]')" = \
		  '[[0,0,0,0,0,0,0,0],262016,262016]' ]
		[ "$(echo "$d" | jq -c '.roce[0] | [.source, .default_roce_mode, .default_roce_tos]')" = '["configfs","RoCE v2",106]' ]
	done
	# dcbnl's PFC frame counts are the driver's per-priority pause counters
	pfc=$(echo "$output" | jq -c '.netdevs[0].pfc.prios[3] | [.tx_pfc_frames, .rx_pfc_frames]')
	run --separate-stderr rd cx6dx -j port stats mlx5_0
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap).driver | [.tx_prio3_pause, .rx_prio3_pause]')" = "$pfc" ]
	[ "$pfc" != '[0,0]' ]
}

@test "fixtures: cx6dx-lag has DCB on the members, and bond0 stands for them" {
	run --separate-stderr rd cx6dx-lag -j pfc show
	assert_success
	[ "$(echo "$output" | jq -c '[.netdevs[] | [.netdev, .upper, .pfc.source, .ets.source, .trust.source]]')" = \
	  '[["ens1f0np0","bond0","dcbnl","dcbnl","dcbnl-app"],["ens1f1np1","bond0","dcbnl","dcbnl","dcbnl-app"]]' ]
	# The RoCE LAG port's RDMA-CM defaults are shown once, with the first member.
	[ "$(echo "$output" | jq -c '[.netdevs[].roce | map([.device, .default_roce_tos])]')" = '[[["mlx5_bond_0",106]],[]]' ]
	for s in ens1f0np0 ens1f1np1; do
		run --separate-stderr rd cx6dx-lag -j pfc show dev "$s"
		assert_success
		[ "$(echo "$output" | jq -c '.netdevs[0] | [.pfc.enabled_prios, .trust.value, .dscp_prio.map, .ets.prio_tc]')" = \
		  '[[3],"dscp",[{"dscp":26,"prio":3},{"dscp":48,"prio":6}],[0,0,0,3,0,0,6,0]]' ]
	done
}

@test "fixtures: degraded has the driver's DCB defaults and global pause" {
	run --separate-stderr rd degraded -j pfc show
	assert_success
	for i in 0 1; do
		d=$(echo "$output" | jq -c ".netdevs[$i]")
		[ "$(echo "$d" | jq -c '[.pfc.source, .pfc.enabled_prios, .trust.value, .dscp_prio.map]')" = '["dcbnl",[],"pcp",[]]' ]
		[ "$(echo "$d" | jq -c '.ets | [.prio_tc, .tc_tsa, .tc_bw_pct]')" = \
		  '[[1,0,2,3,4,5,6,7],["vendor","vendor","vendor","vendor","vendor","vendor","vendor","vendor"],[100,100,100,100,100,100,100,100]]' ]
		[ "$(echo "$d" | jq -c '[.dcbx.host, .roce[0].source]')" = '[true,"unknown"]' ]
		[ "$(echo "$d" | jq -c '.verdict.matches')" = false ]
		[ "$(echo "$d" | jq -c '[.verdict.differences[] | select(.what == "pfc.prios.enabled" and .index == 3 or .what == "trust.value")]')" = \
		  '[{"what":"pfc.prios.enabled","index":3,"device":null,"port":null,"have":false,"want":true},{"what":"trust.value","index":null,"device":null,"port":null,"have":"pcp","want":"dscp"}]' ]
	done
	# 802.3x PAUSE frames: counted on priority 0 by dcbnl, "global" by ethtool
	pfc=$(echo "$output" | jq -c '.netdevs[1].pfc.prios[0] | [.tx_pfc_frames, .rx_pfc_frames]')
	[ "$(echo "$output" | jq -c '[.netdevs[1].pfc.prios[1:][] | .tx_pfc_frames + .rx_pfc_frames] | add')" = 0 ]
	run --separate-stderr rd degraded -j port stats mlx5_1
	c=$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap)')
	[ "$(echo "$c" | jq -c '[.driver.tx_global_pause, .driver.rx_global_pause]')" = "$pfc" ]
	[ "$(echo "$c" | jq -c '[.driver.tx_pause_ctrl_phy, .driver.rx_pause_ctrl_phy]')" = "$pfc" ]
	[ "$(echo "$c" | jq -c '[.pause.tx_frames, .pause.rx_frames]')" = "$pfc" ]
	[ "$(echo "$c" | jq '.driver | has("rx_prio3_pause")')" = false ]
	[ "$(echo "$c" | jq '.driver.rx_prio3_bytes')" = 0 ]
}

@test "fixtures: seed-gateway trusts DSCP with mlnx_qos's 64 entries, PFC on 3" {
	run --separate-stderr rd seed-gateway -j pfc show
	assert_success
	[ "$(echo "$output" | jq -c '[.netdevs[].netdev]')" = '["ens1f0np0","ens1f1np1"]' ]
	for i in 0 1; do
		d=$(echo "$output" | jq -c ".netdevs[$i]")
		[ "$(echo "$d" | jq -c '[.pfc.enabled_prios, .trust.value, (.dscp_prio.map | length)]')" = '[[3],"dscp",64]' ]
		[ "$(echo "$d" | jq '[.dscp_prio.map[] | select(.prio != (.dscp / 8 | floor))] | length')" = 0 ]
		[ "$(echo "$d" | jq -c '[.dscp_prio.map[] | select(.dscp == 26 or .dscp == 48)] | map([.dscp, .prio])')" = '[[26,3],[48,6]]' ]
		[ "$(echo "$d" | jq -c '.verdict.matches')" = true ]
		[ "$(echo "$d" | jq -c '.ets | [.prio_tc, .tc_tsa[0], .tc_tsa[3], .tc_bw_pct[0], .tc_bw_pct[3]]')" = '[[0,0,0,3,0,0,6,0],"ets","ets",50,50]' ]
		[ "$(echo "$d" | jq -c '.roce[0] | [.default_roce_mode, .default_roce_tos]')" = '["RoCE v2",106]' ]
	done
}

@test "fixtures: the ethtool ioctls answer drvinfo, pause, FEC and the link settings handshake" {
	for h in $RECORDED; do
		j=$(rec_json "$h")
		for nd in $(echo "$j" | jq -r '.drvinfo | to_entries[] | select(.value.driver == "mlx5_core") | .key'); do
			# n_stats is the ETH_SS_STATS count the statistics ioctls use
			[ "$(echo "$j" | jq ".drvinfo[\"$nd\"].n_stats")" = "$(echo "$j" | jq ".gstrings[\"$nd\"] | length")" ] ||
				fail "$h $nd: n_stats"
			[ "$(echo "$j" | jq -r ".drvinfo[\"$nd\"].version")" = "$(val "$h" proc/sys/kernel/osrelease)" ]
			bus=$(echo "$j" | jq -r ".drvinfo[\"$nd\"].bus_info")
			[ "$(basename "$(readlink "$HOSTS/$h/sys/class/net/$nd/device")")" = "$bus" ]
			link=$(echo "$j" | jq -c ".link[\"$nd\"]")
			[ "$(echo "$link" | jq -c '[.handshake, .handshake_zero, .nwords, .size, .rest_zero, .port, .autoneg]')" = '[-4,true,4,1572,true,5,1]' ] ||
				fail "$h $nd: $link"
			if [ "$(val "$h" "sys/class/net/$nd/carrier")" = 1 ]; then
				[ "$(echo "$link" | jq .speed)" = "$(val "$h" "sys/class/net/$nd/speed")" ]
				[ "$(echo "$j" | jq -c ".fec[\"$nd\"]")" = '[8,2]' ] # RS active, configured auto
				echo "$link" | jq -e '.advertising | any(. == 50)' >/dev/null # FEC_RS
			else
				[ "$(echo "$link" | jq .speed)" = 4294967295 ] # SPEED_UNKNOWN
				[ "$(echo "$j" | jq -c ".fec[\"$nd\"]")" = '[2,2]' ]
			fi
		done
		[ "$(echo "$j" | jq -c '[.drvinfo.lo, .pause.lo, .fec.lo, .link.lo]')" = '[95,95,95,95]' ]
	done
	j=$(rec_json cx6dx)
	# 100GBASE-CR2 and -CR4 supported and advertised, FEC modes supported; pause off
	[ "$(echo "$j" | jq -c '.link.ens1f0np0 | [(.supported | any(. == 59)), (.advertising | any(. == 38)), (.supported | contains([49,50,51,74]))]')" = '[true,true,true]' ]
	[ "$(echo "$j" | jq -c '.pause.ens1f0np0')" = '[0,0,0]' ]
	[ "$(echo "$j" | jq -c '.drvinfo.ens1f0np0 | [.fw_version, .bus_info]')" = '["22.39.1002 (MT_0000000359)","0000:3b:00.0"]' ]
	[ "$(echo "$j" | jq -c '[.drvinfo["ens1f0np0.100"].driver, .link["ens1f0np0.100"].speed, .pause["ens1f0np0.100"]]')" = '["802.1Q VLAN Support",100000,95]' ]
	[ "$(rec_json degraded | jq -c '.pause.ens1f1np1')" = '[0,1,1]' ]
	j=$(rec_json cx6dx-lag)
	[ "$(echo "$j" | jq -c '.link.bond0 | [.speed, .port, .supported]')" = '[200000,255,[]]' ]
	[ "$(echo "$j" | jq -r '.drvinfo.bond0.driver')" = bonding ]
	j=$(rec_json seed-gateway)
	[ "$(echo "$j" | jq -c '.link.ens1f1np1 | [.speed, (.supported | any(. == 31)), (.supported | map(select(. == 59 or . == 34)))]')" = '[25000,true,[]]' ]
}

@test "fixtures: the address dumps agree with the GIDs" {
	for h in $RECORDED; do
		j=$(rec_json "$h")
		echo "$j" | jq -e '[.addrs[] | select(.family == 4 and .ip == "127.0.0.1")] | length == 1' >/dev/null
		# Both ways in one pass (a python3 per GID was a third of the tier's time):
		# every GID's address is on its netdev, every non-loopback address has a GID.
		echo "$j" | python3 -c '
import glob, ipaddress, json, os, sys
root, j = sys.argv[1], json.load(sys.stdin)
have = {(a["ip"], a["ifindex"]) for a in j["addrs"]}
gids = set()
bad = []
for gd in glob.glob(root + "/sys/class/infiniband/*/ports/1"):
    for n in glob.glob(gd + "/gid_attrs/ndevs/*"):
        gid = open(gd + "/gids/" + os.path.basename(n)).read().strip()
        nd = open(n).read().strip()
        ifindex = int(open(root + "/sys/class/net/" + nd + "/ifindex").read())
        a = ipaddress.IPv6Address(gid)
        if (str(a.ipv4_mapped or a), ifindex) not in have:
            bad.append("GID %s of %s has no address" % (gid, nd))
    for g in glob.glob(gd + "/gids/*"):
        gids.add(open(g).read().strip())
for a in j["addrs"]:
    if a["ifindex"] == 1:
        continue
    ip = ipaddress.ip_address(a["ip"])
    want = (ipaddress.IPv6Address("::ffff:" + str(ip)) if ip.version == 4 else ip).exploded
    if want not in gids:
        bad.append("%s has no GID" % a["ip"])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)' "$HOSTS/$h" || fail "$h: GIDs and addresses differ"
	done
	j=$(rec_json seed-gateway)
	[ "$(echo "$j" | jq -c '[.addrs[] | select(.family == 4 and .ifindex > 1) | [.label, .ip, .prefix]]')" = \
	  '[["ens1f0np0","10.10.1.5",24],["ens1f1np1","10.10.2.5",24]]' ]
}

@test "fixtures: carrier counters, sysctls, IRQs and modules are where diag reads them" {
	for h in $RECORDED ib-hdr rxe; do
		rel=$(val "$h" proc/sys/kernel/osrelease)
		if [ "$h" = degraded ]; then
			[ ! -e "$HOSTS/$h/lib/modules/$rel" ]
		else
			[ -d "$HOSTS/$h/lib/modules/$rel" ] || fail "$h: no /lib/modules/$rel"
		fi
		for k in arp_ignore arp_announce rp_filter; do
			val "$h" "proc/sys/net/ipv4/conf/all/$k" >/dev/null
		done
		for nd in "$HOSTS/$h"/sys/class/net/*/; do
			nd=$(basename "$nd")
			c=$(val "$h" "sys/class/net/$nd/carrier_changes")
			u=$(val "$h" "sys/class/net/$nd/carrier_up_count")
			d=$(val "$h" "sys/class/net/$nd/carrier_down_count")
			[ "$c" -eq $((u + d)) ] || fail "$h $nd: carrier counts"
			for k in arp_ignore arp_announce rp_filter; do
				val "$h" "proc/sys/net/ipv4/conf/$nd/$k" >/dev/null
			done
		done
	done
	[ "$(val seed-gateway sys/class/net/ens1f1np1/carrier_changes)" = 148 ]
	[ "$(val seed-gateway sys/class/net/ens1f0np0/carrier_changes)" = 2 ]
	[ "$(val degraded sys/class/net/ens1f1np1/carrier_changes)" = 75 ]
	[ "$(val clean-2port proc/sys/net/ipv4/conf/ens1f1np1/arp_ignore)" = 1 ]
	[ "$(val clean-2port proc/sys/net/ipv4/conf/all/arp_announce)" = 2 ]
	# IRQs outside the function's NUMA node: none where tuned, half on degraded
	for h in cx6dx degraded seed-gateway; do
		for nd in "$HOSTS/$h"/sys/class/net/*np[0-9]; do
			nd=${nd##*/}
			local_cpus=$(val "$h" "sys/class/net/$nd/device/local_cpulist")
			# One python3 per netdev, not per IRQ: IRQs whose affinity misses the local CPUs.
			read -r total remote < <(python3 -c '
import glob, os, sys
def cpus(l): return {c for p in l.split(",") for a, _, b in [p.partition("-")] for c in range(int(a), int(b or a) + 1)}
root, nd, local = sys.argv[1], sys.argv[2], cpus(sys.argv[3])
irqs = [os.path.basename(i) for i in glob.glob(root + "/sys/class/net/" + nd + "/device/msi_irqs/*")]
remote = sum(1 for i in irqs if not cpus(open(root + "/proc/irq/" + i + "/smp_affinity_list").read().strip()) & local)
print(len(irqs), remote)' "$HOSTS/$h" "$nd" "$local_cpus")
			case $h in
			degraded) [ "$total/$remote" = 33/16 ] || fail "$h $nd: $total/$remote" ;;
			cx6dx) [ "$total/$remote" = 33/0 ] || fail "$h $nd: $total/$remote" ;;
			*) [ "$total/$remote" = 17/0 ] || fail "$h $nd: $total/$remote" ;;
			esac
		done
	done
}

@test "fixtures: seed-gateway's bad link moves between the two samples, 98% of the traffic on it" {
	j=$(rec_json seed-gateway)
	[ "$(echo "$j" | jq -c '[.gstats[] | length]')" = '[2,2]' ]
	[ "$(echo "$j" | jq -c '[.std.ens1f0np0, .std.ens1f1np1] | map(length)')" = '[2,2]' ]
	d=$(echo "$j" | jq -c '.gstats.ens1f1np1 | .[0] as $a | .[1] as $b | [$b | keys[] | {(.): ($b[.] - $a[.])}] | add')
	[ "$(echo "$d" | jq -c '[.link_down_events_phy, .rx_crc_errors_phy, .rx_symbol_err_phy, .rx_pcs_symbol_err_phy, .rx_corrected_bits_phy]')" = \
	  '[1,1843,4127,52817,2104330]' ]
	[ "$(echo "$j" | jq -c '.gstats.ens1f1np1[0] | [.link_down_events_phy, .rx_crc_errors_phy, .rx_symbol_err_phy]')" = '[73,28456,61237]' ]
	# the standard groups move with the driver counters
	[ "$(echo "$j" | jq -c '.std.ens1f1np1 | [.[1]["1"]["4"] - .[0]["1"]["4"], .[1]["0"]["0"] - .[0]["0"]["0"]]')" = '[1843,4127]' ]
	# the healthy link's error counters stay 0 in both samples
	[ "$(echo "$j" | jq -c '[.gstats.ens1f0np0[] | .link_down_events_phy + .rx_crc_errors_phy + .rx_symbol_err_phy + .rx_pcs_symbol_err_phy]')" = '[0,0]' ]
	# share of bytes on ens1f1np1 in the window and since boot: 98%
	for w in delta total; do
		share=$(echo "$j" | jq --arg w "$w" '.gstats | map_values(if $w == "delta" then (.[1].tx_bytes_phy + .[1].rx_bytes_phy - .[0].tx_bytes_phy - .[0].rx_bytes_phy) else (.[0].tx_bytes_phy + .[0].rx_bytes_phy) end) | .ens1f1np1 / (.ens1f0np0 + .ens1f1np1) * 1000 | round')
		[ "$share" -ge 978 ] && [ "$share" -le 982 ] || fail "$w share $share"
	done
	p=$HOSTS/seed-gateway/sys/class/infiniband
	xmit() { echo $(($(cat "$p/$1/ports/1/counters/port_xmit_data") + $(cat "$p/$1/ports/1/counters/port_rcv_data"))); }
	a=$(xmit mlx5_0) b=$(xmit mlx5_1)
	[ $((b * 1000 / (a + b))) -ge 978 ]
	[ "$(cat "$p/mlx5_1/ports/1/counters/link_downed")" = 73 ]
	[ "$(cat "$p/mlx5_0/ports/1/counters/link_downed")" = 0 ]
	[ "$(val seed-gateway sys/class/net/ens1f0np0/mtu)/$(val seed-gateway sys/class/net/ens1f1np1/mtu)" = 9000/1500 ]
	[ ! -e "$HOSTS/seed-gateway/sys/class/net/bonding_masters" ]
	# port stats over the bundle's window: its two samples, 5 s apart, and the delta
	run --separate-stderr rd seed-gateway -j port stats mlx5_1 interval 5 count 1
	assert_success
	[ "$(echo "$output" | jq -c "$JQ_CMAP"'(.stats[0] | cmap_rates).driver.rx_crc_errors_phy | [.value, .delta]')" = '[30299,1843]' ]
}

@test "fixtures: clean-2port has no error anywhere and balanced links" {
	j=$(rec_json clean-2port)
	[ "$(echo "$j" | jq '[.gstats[][] | to_entries[] | select(.key | test("err|discard|drop|down|range|oversize|undersize|fragments|jabbers|out_of|storm|module|unsupported")) | .value] | add')" = 0 ]
	share=$(echo "$j" | jq '.gstats | map_values(.[1].tx_bytes_phy + .[1].rx_bytes_phy - .[0].tx_bytes_phy - .[0].rx_bytes_phy) | .ens1f0np0 / (.ens1f0np0 + .ens1f1np1) * 100 | round')
	[ "$share" -ge 45 ] && [ "$share" -le 55 ]
	p=$HOSTS/clean-2port/sys/class/infiniband
	for f in symbol_error link_error_recovery link_downed port_rcv_errors port_xmit_discards \
		local_link_integrity_errors excessive_buffer_overrun_errors; do
		[ "$(cat "$p"/mlx5_*/ports/1/counters/$f | sort -u)" = 0 ] || fail "$f"
	done
	for f in out_of_sequence packet_seq_err local_ack_timeout_err out_of_buffer req_transport_retries_exceeded; do
		[ "$(cat "$p"/mlx5_*/ports/1/hw_counters/$f | sort -u)" = 0 ] || fail "$f"
	done
	[ "$(cat "$HOSTS"/clean-2port/sys/class/net/ens1f*/statistics/rx_*err* | sort -u)" = 0 ]
	[ "$(cat "$HOSTS"/clean-2port/sys/class/net/ens1f*/mtu | sort -u)" = 9000 ]
	[ "$(cat "$HOSTS"/clean-2port/sys/class/net/ens1f*/carrier_changes | sort -u)" = 2 ]
	for c in current max; do
		[ "$(val clean-2port "sys/class/net/ens1f0np0/device/${c}_link_width")" = 8 ]
	done
}

@test "fixtures: the generator is deterministic and every tree verifies" {
	"$TOP/scripts/mkhosts" -q --out "$BATS_TEST_TMPDIR"
	# git keeps no empty directory (ib-hdr's gid_attrs/ndevs): not a difference
	find "$BATS_TEST_TMPDIR" -type d -empty -delete
	for h in "$HOSTS"/*/; do
		h=$(basename "$h")
		# A captured host is not generated: mkhosts --list says so, --verify checks it below.
		if "$TOP/scripts/mkhosts" --list | grep -q "^$h .*(captured)$"; then
			[ ! -e "$BATS_TEST_TMPDIR/$h" ] || fail "mkhosts wrote captured host $h"
			continue
		fi
		out=$(diff -r --no-dereference "$HOSTS/$h" "$BATS_TEST_TMPDIR/$h" 2>&1 || true)
		while IFS= read -r line; do
			[ -n "$line" ] || continue
			if [[ $line == "Only in $HOSTS/"* ]]; then
				d=${line#Only in }
				d="${d%%: *}/${d#*: }"
				[ -d "$d" ] && [ -z "$(ls -A "$d")" ] && continue
			fi
			fail "$h differs from the generator's: $line"
		done <<<"$out"
	done
	run "$TOP/scripts/mkhosts" --verify
	assert_success
}
