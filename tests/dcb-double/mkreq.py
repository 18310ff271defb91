#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkreq.py - build one dcbnl request, printed as hex for dcb-double-probe.

    mkreq.py set eth9 --ets 2,0,0,2,0,0,0,0/50,0,0,50,0,0,0,0/0,0,0,3,0,0,6,0 --pfc 8,0
    mkreq.py del eth9 --app 5:26:3
    mkreq.py get eth9 --flags 0x305

The layout follows iproute2's dcb: struct dcbmsg, DCB_ATTR_IFNAME, then a
DCB_ATTR_IEEE nest (NLA_F_NESTED, as libmnl sets it) holding, in this order,
ETS, PFC, MAXRATE, BUFFER, the rewrite table, the APP table, the APP-trust
table and any --ieee-raw attributes.  The --*-raw options and --len/--ifname-raw
build malformed requests.
"""
import argparse
import struct
import sys

CMDS = {  # name: (nlmsg_type, dcb cmd)
    "get": (78, 21),
    "set": (79, 20),
    "del": (79, 27),
    "gdcbx": (78, 22),
    "sdcbx": (79, 23),
}
NLA_F_NESTED = 0x8000


def attr(atype, data):
    n = 4 + len(data)
    return struct.pack("<HH", n, atype) + data + b"\0" * (-n % 4)


def nums(text, count):
    vals = [int(x, 0) for x in text.split(",")]
    if len(vals) != count:
        sys.exit(f"mkreq: expected {count} values in {text!r}")
    return vals


def apps(specs):
    out = b""
    for spec in specs:
        sel, proto, prio = (int(x, 0) for x in spec.split(":"))
        # DCB_ATTR_DCB_APP (2) carries the PCP selector, DCB_ATTR_IEEE_APP (1) the rest
        out += attr(2 if sel == 255 else 1, struct.pack("<BBH", sel, prio, proto))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=sorted(CMDS))
    ap.add_argument("dev")
    ap.add_argument("--cmd-num", type=int, help="another dcbnl command number")
    ap.add_argument("--type", type=int, help="another nlmsg_type")
    ap.add_argument("--flags", type=lambda x: int(x, 0), default=0x5, help="default NLM_F_REQUEST|NLM_F_ACK")
    ap.add_argument("--seq", type=int, default=1)
    ap.add_argument("--ets", help="TSA,x8/TX_BW,x8/PRIO_TC,x8")
    ap.add_argument("--pfc", help="PFC_EN,DELAY[,PFC_CAP]")
    ap.add_argument("--maxrate", help="8 kbit/s values")
    ap.add_argument("--buffer", help="PRIO2BUFFER,x8/SIZE,x8[/TOTAL]")
    ap.add_argument("--app", action="append", default=[], help="SEL:PROTO:PRIO (repeat)")
    ap.add_argument("--app-table", action="store_true", help="an APP table even with no --app")
    ap.add_argument("--rewr", action="append", default=[], help="SEL:PROTO:PRIO (repeat)")
    ap.add_argument("--trust", help="APP-trust selectors, comma separated")
    ap.add_argument("--ieee-raw", action="append", default=[], help="TYPE:HEX inside the IEEE nest")
    ap.add_argument("--no-ieee", action="store_true", help="leave the IEEE nest out")
    ap.add_argument("--dcbx", type=lambda x: int(x, 0), help="a DCB_ATTR_DCBX u8")
    ap.add_argument("--top-raw", action="append", default=[], help="TYPE:HEX top-level attribute")
    ap.add_argument("--ifname-raw", help="hex payload of DCB_ATTR_IFNAME instead of DEV")
    ap.add_argument("--len", type=int, help="force nlmsg_len")
    ap.add_argument("--cut", type=int, help="send only this many bytes")
    a = ap.parse_args()

    mtype, cmd = CMDS[a.cmd]
    if a.type is not None:
        mtype = a.type
    if a.cmd_num is not None:
        cmd = a.cmd_num
    body = struct.pack("<BBH", 0, cmd, 0)
    ifname = bytes.fromhex(a.ifname_raw) if a.ifname_raw is not None else a.dev.encode() + b"\0"
    body += attr(1, ifname)

    ieee = b""
    if a.ets:
        tsa, bw, prio_tc = (nums(x, 8) for x in a.ets.split("/"))
        ets = struct.pack("<BBB", 0, 0, 0) + bytes(bw) + bytes(8) + bytes(tsa) + bytes(prio_tc) + bytes(24)
        ieee += attr(1, ets)
    if a.pfc:
        vals = nums(a.pfc, len(a.pfc.split(",")))
        en, delay, cap = (vals + [0])[:3]
        ieee += attr(2, struct.pack("<BBBxHxx8Q8Q", cap, en, 0, delay, *([0] * 16)))
    if a.maxrate:
        ieee += attr(7, struct.pack("<8Q", *nums(a.maxrate, 8)))
    if a.buffer:
        parts = a.buffer.split("/")
        total = int(parts[2], 0) if len(parts) > 2 else 0
        ieee += attr(10, struct.pack("<8B8II", *nums(parts[0], 8), *nums(parts[1], 8), total))
    if a.rewr:
        ieee += attr(NLA_F_NESTED | 12, apps(a.rewr))
    if a.app or a.app_table:
        ieee += attr(NLA_F_NESTED | 3, apps(a.app))
    if a.trust:
        sels = [int(x, 0) for x in a.trust.split(",")]
        ieee += attr(NLA_F_NESTED | 11, b"".join(attr(2 if s == 255 else 1, bytes([s])) for s in sels))
    for raw in a.ieee_raw:
        t, h = raw.split(":")
        ieee += attr(int(t, 0), bytes.fromhex(h))
    if not a.no_ieee and a.cmd in ("set", "del"):
        body += attr(NLA_F_NESTED | 13, ieee)
    if a.dcbx is not None:
        body += attr(14, bytes([a.dcbx]))
    for raw in a.top_raw:
        t, h = raw.split(":")
        body += attr(int(t, 0), bytes.fromhex(h))

    length = 16 + len(body)
    msg = struct.pack("<IHHII", a.len if a.len is not None else length, mtype, a.flags, a.seq, 0) + body
    if a.cut is not None:
        msg = msg[: a.cut]
    print(msg.hex())


if __name__ == "__main__":
    main()
