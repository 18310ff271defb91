#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# mkseeds.py - write valid bench control frames (lib/bench/proto.h) as libFuzzer seeds
# Usage: tests/fuzz/mkseeds.py [DIR]      (default: tests/fuzz/corpus next to this script)
import os
import struct
import sys

MAGIC = b"RDCB"
VERSION = 1
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


def params(test=0, size=65536, qps=2, depth=128, dur=5 * 10**9, iters=0):
    return struct.pack(">BIIIQQQQBI", test, size, qps, depth, dur, iters, 10**9, 10**9, 104,
                       1024)


def link(ep, qps):
    gid = bytes(10) + b"\xff\xff" + bytes([198, 18, 1, 1])
    out = struct.pack(">I", ep) + gid + struct.pack(">IIIIQQI", 3, 4096, 16, 0x1234,
                                                    0x7f0000001000, 65536 * len(qps), len(qps))
    for qpn, psn in qps:
        out += struct.pack(">II", qpn, psn)
    return out


def seeds():
    yield "hello", frame(HELLO, s("rdmactl 0.1.0"))
    yield "ports", frame(PORTS, s("server-a") + struct.pack(">I", 2) +
                         endpoint("mlx5_0", 1, "ens1f0", "198.18.1.2", 24, 1, 0) +
                         endpoint("mlx5_1", 1, "ens1f1", "198.18.2.2", 24, 0))
    yield "ports-empty", frame(PORTS, s("") + struct.pack(">I", 0))
    yield "setup", frame(SETUP, params() + struct.pack(">I", 2) +
                         link(0, [(0x11, 0x123456), (0x12, 0xffffff)]) +
                         link(1, [(0xffffff, 0), (0x800000, 1)]))
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
    yield "hello-v2", frame(HELLO, s("rdmactl 0.2.0"), version=2)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
