#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# mkseeds.py - write the libFuzzer seeds of every target (Makefile FUZZ_TARGETS) into
# CORPUS/TARGET/: valid inputs, and the bad ones that were bugs (huge nlmsg_len, INT_MIN errno,
# duplicate YAML keys, ...).  Deterministic: the same script writes the same bytes.
# Usage: tests/fuzz/mkseeds.py [CORPUS]      (default: tests/fuzz/corpus next to this script)
import glob
import gzip
import io
import os
import struct
import sys
import tarfile

MAGIC = b"RDCB"
VERSION = 5  # RDC_BENCH_PROTO_VERSION: a seed of another version only meets the refusal
HELLO, PORTS, SETUP, SETUP_OK, START, STARTED, DONE, RESULT, ERROR = range(1, 10)


def frame(mtype, payload=b"", version=VERSION):
    return MAGIC + struct.pack(">HHI", version, mtype, len(payload)) + payload


def s(text):
    b = text.encode()
    return struct.pack(">H", len(b)) + b


def endpoint(dev, port, netdev, ip, prefix, active, numa=-1):
    a = bytes(int(x) for x in ip.split("."))
    gid = bytes(10) + b"\xff\xff" + a
    return (s(dev) + struct.pack(">I", port) + s(netdev) + struct.pack(">I", 3) + gid +
            a + struct.pack(">BIIBi", prefix, 4096, 100000, active, numa))


def params(test=0, size=65536, qps=2, depth=128, dur=5 * 10**9, iters=0, cq_wait=0):
    # ... traffic class 104, MTU limit 1024, QP timeout 14, retry count 7, RNR retry 7,
    # cq-mod 0 (the engine's), post-list 1, inline the default, no rate-limit, hugepages,
    # bidir or rdma-cm; cq-wait 0 auto, 1 poll, 2 events
    return struct.pack(">BIIIQQQQBIBBBIIIQBBBB", test, size, qps, depth, dur, iters, 10**9,
                       10**9, 104, 1024, 14, 7, 7, 0, 1, 0xffffffff, 0, 0, 0, 0, cq_wait)


def link(ep, qps):
    gid = bytes(10) + b"\xff\xff" + bytes([198, 18, 1, 1])
    out = struct.pack(">I", ep) + gid + struct.pack(">IIIIQQI", 3, 4096, 16, 0x1234,
                                                    0x7f0000001000, 65536 * len(qps), len(qps))
    for qpn, psn in qps:
        out += struct.pack(">II", qpn, psn)
    return out


def bench_seeds():
    yield "hello", frame(HELLO, s("rdmactl 0.1.0"))
    yield "ports", frame(PORTS, s("server-a") + struct.pack(">I", 2) +
                         endpoint("mlx5_0", 1, "ens1f0", "198.18.1.2", 24, 1, 0) +
                         endpoint("mlx5_1", 1, "ens1f1", "198.18.2.2", 24, 0))
    yield "ports-empty", frame(PORTS, s("") + struct.pack(">I", 0))
    yield "setup", frame(SETUP, params() + struct.pack(">I", 2) +
                         link(0, [(0x11, 0x123456), (0x12, 0xffffff)]) +
                         link(1, [(0xffffff, 0), (0x800000, 1)]))
    yield "setup-events", frame(SETUP, params(cq_wait=2) + struct.pack(">I", 1) +
                                link(0, [(0x13, 0x10)]))
    yield "setup-lat", frame(SETUP, params(3, 2, 1, 1, 0, 1000) + struct.pack(">I", 1) +
                             link(0, [(0x100, 0x200)]))
    yield "setup-ok", frame(SETUP_OK, struct.pack(">I", 1) + link(0, [(0x21, 0x654321)]))
    yield "start", frame(START)
    yield "started", frame(STARTED)
    yield "done", frame(DONE, struct.pack(">QI", 5 * 10**9, 2) +
                        struct.pack(">QQI", 62500000000, 953674, 0) +
                        struct.pack(">QQI", 61000000000, 930000, 3))
    yield "result", frame(RESULT, struct.pack(">QI", 5 * 10**9, 1) +
                          struct.pack(">QQI", 1, 1, 0))
    yield "error", frame(ERROR, struct.pack(">I", 16) + s("server busy: a run from 198.18.1.1"))
    yield "hello-v1", frame(HELLO, s("rdmactl 0.1.0"), version=1)
    # A peer's text that is not UTF-8 and carries terminal escapes (issue 12).
    hostile = b"busy \xff\xfe \x1b[2J\x1b]0;owned\x07"
    yield "error-hostile-text", frame(ERROR, struct.pack(">I", 16) +
                                      struct.pack(">H", len(hostile)) + hostile)


REC = "# rdmactl kernel recording v1\n"


def nlmsg(mtype, payload=b"", flags=0, seq=0, length=None):
    n = 16 + len(payload)
    return struct.pack("<IHHII", n if length is None else length, mtype, flags, seq, 0) + payload


def getlink(ifindex):
    return nlmsg(18, struct.pack("<BxHiII", 0, 0, ifindex, 0, 0), 0x5)


def nlerr(error, mtype=2):
    body = struct.pack("<i", error) + (nlmsg(18, bytes(16))[:16] if mtype == 2 else b"")
    return nlmsg(mtype, body, 0x100)


def rec(*exchanges):
    out = REC
    for req, answers in exchanges:
        out += req + "\n"
        for a in answers:
            out += (a if isinstance(a, str) else "< " + a.hex()) + "\n"
    return out.encode()


def nl_rec_seeds(top):
    req = "> nl 0 " + getlink(2).hex()
    newlink = nlmsg(16, struct.pack("<BxHiII", 0, 1, 2, 0, 0) + struct.pack("<HHI", 8, 4, 9000))
    yield "ok", rec((req, [newlink, nlerr(0)]))
    yield "two-in-one", rec((req, [newlink + nlerr(0)]), (req, [newlink, nlerr(0)]))
    yield "extack", rec((req, [nlmsg(2, struct.pack("<i", -1) + bytes(16) +
                                     struct.pack("<HH", 8, 1) + b"bad\0", 0x300)]))
    yield "dump-done", rec(("> nl 0 " + nlmsg(18, bytes(16), 0x301).hex(),
                            [newlink, nlmsg(3, struct.pack("<i", 0))]))
    yield "errno", rec((req, ["! 95"]))
    yield "ioctl", rec(("> ioctl ethtool eth0 0a000000", ["< 0a00000001000000"[:18]]),
                       ("> ioctl ethtool eth1 0a000000", ["! 95"]))
    # The bugs: nlmsg_len past INT_MAX (SEGV in the sequence rewrite), INT_MIN errno (negated).
    yield "huge-nlmsg-len", rec((req, [nlmsg(2, bytes(20), length=0x90000000)]))
    yield "intmin-errno", rec((req, [nlerr(-2**31)]))
    yield "intmin-done", rec((req, [nlmsg(3, struct.pack("<i", -2**31))]))
    yield "short-header", rec((req, [nlerr(0) + bytes(8)]))
    # Found by fuzz_nl_rec: an NLMSG_ERROR too short for its errno failed without a message.
    yield "short-nlmsgerr", rec((req, [nlmsg(2, b"\x00\x00")]))
    path = os.path.join(top, "testdata/hosts/degraded/kernel.rec")
    if os.path.exists(path):
        with open(path, "rb") as f:
            head = f.read()[:60000]
            yield "fixture-degraded", head[:head.rindex(b"\n") + 1]  # whole lines only


# fuzz_nl_reply: records (u8 ctl: slot | 0x08 new datagram | 0x10 "! ERRNO", u16 type, u16 flags,
# u16 len, payload), little-endian, that answer the readers' requests (the slots of
# fuzz_nl_reply.c).  From the fixtures: each host's own answers, taken by their request's shape.
NLR_DCB, NLR_CTRL, NLR_STATS, NLR_PAUSE, NLR_LINKS, NLR_ADDR4, NLR_ADDR6 = range(7)


def nlr(slot, mtype, payload=b"", flags=0, fresh=True, ctl=0):
    return struct.pack("<BHHH", slot | (0x08 if fresh else 0) | ctl, mtype, flags,
                       len(payload)) + payload


def nlr_datagram(slot, data):
    """One recorded datagram as records: each message's header rewritten, payload kept."""
    out, off = b"", 0
    while off + 16 <= len(data):
        n, mtype, flags = struct.unpack_from("<IHH", data, off)
        out += nlr(slot, mtype, data[off + 16:off + n], flags, off == 0)
        off += (n + 3) & ~3
    return out


def nlr_slot(proto, req):
    """Which slot a recorded request is, or None."""
    n, mtype, flags = struct.unpack_from("<IHH", req)
    if proto == 0 and mtype == 78 and req[17] == 21:
        return NLR_DCB
    if proto == 0 and mtype == 18 and flags & 0x300 == 0x300 and n == 32:
        return NLR_LINKS
    if proto == 0 and mtype == 22 and flags & 0x300 == 0x300:
        return {2: NLR_ADDR4, 10: NLR_ADDR6}.get(req[16])
    if proto == 16 and mtype == 16:
        return NLR_CTRL
    if proto == 16 and mtype == 20 and req[16] == 32:
        return NLR_STATS
    if proto == 16 and mtype == 20 and req[16] == 21 and len(req) > 40:
        return NLR_PAUSE  # with ETHTOOL_A_HEADER_FLAGS (the statistics)
    return None


def nlr_answers(path):
    """{slot: [answers]}, an answer a list of datagrams, of a recording's exchanges."""
    found, cur = {}, None
    with open(path) as f:
        for line in f:
            part = line.split()
            if line.startswith("> nl "):
                cur = nlr_slot(int(part[2]), bytes.fromhex(part[3]))
                if cur is not None:
                    found.setdefault(cur, []).append([])
            elif line.startswith("> "):
                cur = None
            elif line.startswith("< ") and cur is not None:
                found[cur][-1].append(bytes.fromhex(part[1]))
    return found


def nl_reply_seeds(top):
    for path in sorted(glob.glob(os.path.join(top, "testdata/hosts/*/kernel.rec"))):
        host = os.path.basename(os.path.dirname(path))
        found = nlr_answers(path)

        def richest(slot):
            answers = [a for a in found.get(slot, []) if a]
            return max(answers, key=lambda a: sum(map(len, a))) if answers else []

        groups = {"dcb-ethtool": [NLR_DCB, NLR_CTRL, NLR_STATS, NLR_PAUSE],
                  "links": [NLR_LINKS], "addrs": [NLR_ADDR4, NLR_ADDR6]}
        for name, slots in groups.items():
            data = b"".join(nlr_datagram(slot, d) for slot in slots for d in richest(slot))
            if data and len(data) <= 65536:  # whole under make fuzz's -max_len
                yield f"{host}-{name}", data
    ack = struct.pack("<i", 0) + bytes(16)
    extack = struct.pack("<HH", 16, 1) + b"no dcb here\0"
    # The transport's own attributes: an extended ack, whole and cut; a dump's error with one.
    yield "extack", nlr(NLR_DCB, 2, struct.pack("<i", -95) + bytes(16) + extack, 0x300)
    yield "extack-cut", nlr(NLR_DCB, 2, struct.pack("<i", -95) + bytes(16) + extack[:10], 0x300)
    yield "extack-uncapped", nlr(NLR_DCB, 2, struct.pack("<i", -22) +
                                 struct.pack("<IHHII", 32, 78, 5, 0, 0) + bytes(16) + extack,
                                 0x200)
    yield "done-extack", nlr(NLR_LINKS, 3, struct.pack("<i", -22) + extack, 0x202)
    # The controller's family id: 4 bytes instead of 2, then none at all.
    genl = struct.pack("<BBH", 1, 2, 0)
    yield "ctrl-bad-id", nlr(NLR_CTRL, 16, genl + struct.pack("<HHI", 8, 1, 20)) + \
        nlr(NLR_CTRL, 2, ack, 0x100, False)
    yield "ctrl-no-id", nlr(NLR_CTRL, 16, genl + struct.pack("<HH", 12, 2) + b"ethtool\0") + \
        nlr(NLR_CTRL, 2, ack, 0x100, False)
    yield "errno", nlr(NLR_DCB, 94, ctl=0x10) + nlr(NLR_LINKS, 1, ctl=0x10)


def parse_seeds():
    for i, t in enumerate(["0\n", "18446744073709551615\n", "18446744073709551616\n", "0x1f\n",
                           "-9223372036854775808\n", "9000", "1.5", "4k", "1G", "0-3,8,10-11\n",
                           "fe80:0000:0000:0000:0e42:a1ff:fe00:0001\n",
                           "0000:0000:0000:0000:0000:ffff:c612:0101\n",
                           "cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 2 3 4 5 6 7 8 9 10\n",
                           "198.18.1.0/24", "RoCE v2\n", "IB/RoCE v1\n", "N/A (no PMA)\n", ""]):
        yield "v%02d" % i, t.encode()
    # The bugs: base 0 ("010" read as 8), port_*_data x 4 past 2^64, an interval of 1e-300,
    # and bytes that are not UTF-8 or are terminal escapes.
    yield "octal-looking", b"010\n"
    yield "data-times-4-wraps", b"4611686018427387904\n"
    yield "tiny-interval", b"1e-300"
    yield "not-utf8", b"\xff\xfe\xc3(\n"
    yield "escape-seq", b"\x1b[2J\x1b]0;owned\x07\n"


PFC_YAML = b"""devices:
  - dev: eth9
    profile: roce-lossless
  - dev: eth8
    prio-pfc: all:off 4:on
    dscp-prio: [34:4]
"""

NETPLAN_YAML = b"""network:
  version: 2
  renderer: networkd
  ethernets:
    ens1f0np0: {}
    ens1f1np1: {}
  bonds:
    bond0:
      interfaces: [ens1f0np0, ens1f1np1]
      parameters:
        mode: 802.3ad
        mii-monitor-interval: 100ms
        lacp-rate: fast
        transmit-hash-policy: layer3+4
"""

POLICY_YAML = b"""roce-prio: 3
roce-dscp: 26
tx-pause-pct-warn: 10
pre-fec-ber-warn: 1e-8
"""


def yaml_seeds(good, dup_key, extra=()):
    yield "ok", good
    yield "dup-key", good + dup_key
    yield from extra
    yield "alias", b"a: &x 1\nb: *x\n"
    yield "two-docs", good + b"---\n" + good
    yield "flow", b"{a: [1, {b: 2}]}\n"
    yield "empty", b""
    yield "tab", b"a:\t1\n"


def bond_procfs_seeds(top):
    for path in sorted(glob.glob(os.path.join(top, "testdata/hosts/*/proc/net/bonding/*"))):
        host = path.split(os.sep)[-5]
        with open(path, "rb") as f:
            yield host + "-" + os.path.basename(path), f.read()


def tgz(members):
    buf = io.BytesIO()
    # gzip's header carries a time: 0 keeps the seeds the same bytes on every run.
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if kind == "link":
                info.type, info.linkname = tarfile.SYMTYPE, data
                tar.addfile(info)
            elif kind == "fifo":
                info.type = tarfile.FIFOTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def bundle_seeds():
    good = [("sys/class/net/lo/mtu", b"65536\n", "file"),
            ("kernel.rec", REC.encode() + b"> nl 0 " + getlink(1).hex().encode() + b"\n! 19\n",
             "file")]
    yield "ok", tgz(good)
    yield "bad-rec", tgz([("kernel.rec", rec(("> nl 0 " + getlink(2).hex(),
                                              [nlerr(-2**31)])), "file")])
    yield "escape", tgz(good + [("../outside", b"x", "file"), ("sys/x", "/etc/passwd", "link")])
    # The bugs of issue 12: links out of the root, a FIFO, a loop, bytes no terminal should see.
    ib = "sys/class/infiniband/mlx5_0/"
    yield "links-out", tgz(good + [(ib + "fw_ver", "/etc/hostname", "link"),
                                   (ib + "board_id", "/proc/self/environ", "link"),
                                   (ib + "node_desc", "../../../../../../etc/hostname", "link")])
    yield "fifo", tgz(good + [(ib + "fw_ver", b"", "fifo"), ("sys/class/net/lo/mtu2", b"", "fifo")])
    yield "loop", tgz(good + [("sys/a", "b", "link"), ("sys/b", "a", "link")])
    yield "hostile-text", tgz(good + [(ib + "fw_ver", b"\x1b[2J\xff\xfe16.35\n", "file"),
                                      (ib + "board_id", b"MT_\x00\x07\n", "file")])


def makefile_version(top):
    with open(os.path.join(top, "Makefile")) as f:
        for line in f:
            if line.startswith("VERSION :="):
                return line.split(":=", 1)[1].strip()
    return "0"


def link_plan(name, mtu_before, mtu_after):
    """struct rdc_link_plan as x86-64 lays it out (host/link.h, kernel/rtnl.h)."""
    def link(mtu):
        b = struct.pack("<i16sIII?24s", 7, name.encode(), mtu, 68, 65535, True, b"up")
        return b + b"\0" * (60 - len(b))
    plan = link(mtu_before) + link(mtu_after) + struct.pack("<qi4x?7x", mtu_after, -1, True)
    return plan


def journal_seeds(top):
    version = makefile_version(top).encode()
    head = (b"rdmactl-undo 1\nversion " + version + b"\nnetns 4026531840\npid 4242\n"
            b"started 1764851000\n")
    plan = link_plan("eth0", 1500, 9000)
    yield "applying", (head + b"state applying\ncommand rdmactl port set eth0 mtu 9000\n"
                       b"netdev eth0\nchange link eth0 " + str(len(plan)).encode() + b"\n" +
                       plan + b"\nend\n")
    yield "pending", (head + b"state pending\ndeadline 1764851030\ncommand rdmactl confirm\n"
                      b"netdev eth0\nnetdev eth1\nend\n")
    yield "other-version", b"rdmactl-undo 1\nversion 0.0.0\nend\n"
    yield "bad-size", (head + b"state applying\nchange bond bond0 99999\nxx\nend\n")


def seeds(top):
    yield "bench_proto", bench_seeds()
    yield "nl_rec", nl_rec_seeds(top)
    yield "nl_reply", nl_reply_seeds(top)
    yield "parse", parse_seeds()
    yield "pfc_yaml", yaml_seeds(PFC_YAML, b"devices: []\n", [
        ("same-netdev-twice", PFC_YAML + b"  - dev: eth9\n    prio-pfc: 3:on\n"),
        ("option-as-key", b"--dry-run: yes\n" + PFC_YAML),
        ("key-twice", b"devices:\n  - dev: eth9\n    prio-pfc: 3:on\n    prio-pfc: 4:on\n")])
    yield "netplan_yaml", yaml_seeds(NETPLAN_YAML, b"network: {}\n", [
        ("interface-twice", NETPLAN_YAML + b"    bond1:\n      interfaces: [ens1f0np0]\n"),
        ("option-as-name", b"network:\n  bonds:\n    --dry-run:\n      interfaces: [-f]\n")])
    yield "policy_yaml", yaml_seeds(POLICY_YAML, b"roce-prio: 4\n")
    yield "bond_procfs", bond_procfs_seeds(top)
    yield "bundle", bundle_seeds()
    yield "journal", journal_seeds(top)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus")
    for target, items in seeds(top):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for name, data in items:
            with open(os.path.join(d, name + ".bin"), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
