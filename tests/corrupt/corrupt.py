#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/corrupt/corrupt.py - the corruption tier (issue 12): every fixture host,
broken on purpose, through every read-only verb.

For each host in testdata/hosts/ a private clone (a mkdtemp folder, 0700, removed
on exit) is broken one way at a time, the read-only verbs run on it, and the
break is undone before the next.  What breaks and where is drawn from a seeded
generator (CORRUPT_SEED, default 12): the same seed gives the same cases.

Breaks (KIND in the case names):
  truncated, empty, garbage (random bytes, NUL, invalid UTF-8, ESC and C1
  sequences), huge (the file followed by NULs to 8 MiB, sparse: over the
  1 MiB read cap), fifo, link-out (a symlink to a file outside the root),
  link-loop (a symlink to itself), dir-for-file, overflow-* (numbers past
  64 bits) on sysfs and procfs files the verbs read; file-for-dir, dir-loop,
  dir-link-out on the directories they walk; odd-name (an entry named with
  invalid UTF-8, escapes and a newline), many (5000 more entries), big-index
  (GID or port indexes past 32 and 64 bits) in the folders they list; rec-*
  on kernel.rec (truncated mid-line, bits flipped, reply bytes changed three
  ways, an nlmsg_len of 0x7fffffff, 0 or under the header, a line over the
  line cap, a file over the size cap, empty, garbage, FIFO, symlink out, a
  directory).

Each break is one TAP test; it passes when every verb below, under a time
limit, exits without a signal or a hang, with a documented status (0 or 1;
'bond check' and 'diag run' also 3), with no sanitizer report on stderr, with
stdout that is valid JSON (strict UTF-8, no NaN) when non-empty and present
when the status is 0, with a message on stderr when a show verb fails, and
without anything from outside the root (a marker in the files the links
point to).  The text run of diag must carry no raw ESC.

Usage: tests/corrupt/corrupt.py [--list] [--case ID] [--keep] [HOST...]
  --list      print the case ids and exit
  --case ID   run only this case (HOST/KIND/PATH, as a failure prints it)
  --keep      keep the broken clone of the last case run and print its path
Environment: RDMACTL (binary under test, default ./rdmactl), CORRUPT_SEED,
CORRUPT_TIMEOUT (seconds a run, default 20), CORRUPT_JOBS (hosts at a time,
default the CPU count); RDMACTL_CAPTURE_DIR with RDMACTL_REAL (tests/run's
JSON capture): RDMACTL_REAL is run, and each JSON output is kept in that
folder for tests/schema-check, as tests/json-capture keeps them.
"""

import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOSTS = os.path.join(TOP, "testdata", "hosts")
SEED = os.environ.get("CORRUPT_SEED", "12")
TIMEOUT = float(os.environ.get("CORRUPT_TIMEOUT", "20"))
MARKER = "CORRUPTLEAK%08d" % (int(SEED) if SEED.isdigit() else 0)
HUGE = 8 << 20  # over RDC_FS_READ_MAX (1 MiB)
REC_HUGE = 65 << 20  # over RDC_NL_REC_MAX_BYTES (64 MiB)
REC_LINE = 1 << 20  # RDC_NL_REC_MAX_LINE
# tests/run's JSON capture (RDMACTL is then tests/json-capture, RDMACTL_REAL the binary).
CAPTURE_DIR = os.environ.get("RDMACTL_CAPTURE_DIR") if os.environ.get("RDMACTL_REAL") else None

# (verb arguments, allowed exit statuses, JSON?).  'port stats' takes the bundle's two
# samples (interval WINDOW: the host's recorded window; one reading on a host of one
# sample) so that rates run on the broken values; diag takes one sample (interval 0).
VERBS = [
    (["port"], {0, 1}, True),
    (["port", "gids"], {0, 1}, True),
    (["port", "stats", "interval", "WINDOW"], {0, 1}, True),
    (["pfc", "show"], {0, 1}, True),
    (["bond", "show"], {0, 1}, True),
    (["bond", "check"], {0, 1, 3}, True),
    (["diag", "run", "interval", "0"], {0, 1, 3}, True),
    (["diag", "list"], {0, 1}, True),
    (["diag", "run", "interval", "0"], {0, 1, 3}, False),
    # Prometheus text only (-j is refused): a broken file is left out, never a wrong number.
    (["diag", "metrics"], {0, 1}, False),
]
# Verbs whose 1 means "could not read or find": they must say why on stderr.
SAYS_WHY = {"port", "pfc", "bond show"}

# The files the read-only verbs read (found with strace over every host), in groups
# so that each kind of break lands on several parts of the tool.
FILE_GROUPS = {
    "ibdev": ["sys/class/infiniband/*/" + f
              for f in ("node_guid", "node_type", "fw_ver", "board_id", "sys_image_guid", "hca_type")],
    "port": ["sys/class/infiniband/*/ports/*/" + f
             for f in ("state", "phys_state", "rate", "link_layer", "lid")],
    "gid": ["sys/class/infiniband/*/ports/*/gid_attrs/types/*", "sys/class/infiniband/*/ports/*/gid_attrs/ndevs/*",
            "sys/class/infiniband/*/ports/*/gids/[0-3]"],
    "counter": ["sys/class/infiniband/*/ports/*/counters/*", "sys/class/infiniband/*/ports/*/hw_counters/*"],
    "netdev": ["sys/class/net/*/" + f
               for f in ("mtu", "operstate", "speed", "carrier", "ifindex", "flags", "duplex", "carrier_changes")],
    "netstat": ["sys/class/net/*/statistics/*"],
    "bond": ["proc/net/bonding/*", "sys/class/net/*/bonding/mode", "sys/class/net/*/bonding/slaves"],
    "dcb": ["sys/class/net/*/ecn/roce_np/cnp_*", "sys/class/net/*/ecn/roce_*/enable/*",
            "sys/kernel/config/rdma_cm/*/ports/*/default_roce_*"],
    "pci": ["sys/class/infiniband/*/device/" + f
            for f in ("numa_node", "current_link_speed", "current_link_width", "max_link_speed", "max_link_width")] +
           ["sys/class/net/*/device/local_cpulist"],
    "proc": ["proc/irq/*/smp_affinity_list", "proc/sys/kernel/osrelease", "proc/sys/net/ipv4/conf/*/rp_filter",
             "proc/sys/net/ipv4/conf/*/arp_ignore", "proc/sys/net/ipv4/conf/*/arp_announce"],
}
# Files that hold one decimal number, for the overflows.
NUMERIC = ["sys/class/infiniband/*/ports/*/counters/*", "sys/class/infiniband/*/ports/*/hw_counters/*",
           "sys/class/net/*/statistics/*", "sys/class/net/*/mtu", "sys/class/net/*/speed", "sys/class/net/*/ifindex",
           "sys/class/net/*/carrier_changes", "sys/class/infiniband/*/device/numa_node",
           "proc/sys/net/ipv4/conf/*/rp_filter"]
DIR_TARGETS = ["sys/class/infiniband", "sys/class/net", "sys/class/infiniband/*/ports",
               "sys/class/infiniband/*/ports/*", "sys/class/infiniband/*/ports/*/gids",
               "sys/class/infiniband/*/ports/*/gid_attrs/types", "sys/class/infiniband/*/ports/*/counters",
               "sys/class/infiniband/*/ports/*/hw_counters", "sys/class/net/*/statistics",
               "sys/class/net/*/bonding", "proc/net/bonding", "sys/class/infiniband/*/device/net",
               "sys/class/net/*/device/msi_irqs", "sys/kernel/config/rdma_cm", "proc/irq"]
LINK_DIRS = ["sys/class/infiniband/*", "sys/class/net/*", "sys/class/infiniband/*/device"]
FILE_KINDS = ["truncated", "empty", "garbage", "huge", "fifo", "link-out", "link-loop", "dir-for-file"]
OVERFLOWS = {
    "overflow-2to64": b"18446744073709551616\n",
    "overflow-neg": b"-9223372036854775809\n",
    "overflow-long": b"340282366920938463463374607431768211456000000000000\n",
}
# Listed folders where an extra entry goes (odd-name, many) and index folders (big-index).
LIST_DIRS = ["sys/class/net", "sys/class/infiniband", "sys/class/infiniband/*/ports",
             "sys/class/infiniband/*/ports/*/counters", "sys/class/infiniband/*/ports/*/hw_counters",
             "sys/class/infiniband/*/ports/*/gids", "sys/class/net/*/statistics", "proc/net/bonding",
             "sys/class/net/*/ecn/roce_np"]
INDEX_DIRS = ["sys/class/infiniband/*/ports/*/gids", "sys/class/infiniband/*/ports/*/gid_attrs/types",
              "sys/class/infiniband/*/ports/*/gid_attrs/ndevs", "sys/class/infiniband/*/ports"]
ODD_NAME = b"x\xff\xfe\x1b[2J\x1b]0;t\x07\xc2\x9b\ny z"
MANY = 5000
REC_KINDS = ["rec-truncated", "rec-bitflip", "rec-hexflip", "rec-hexflip2", "rec-hexflip3", "rec-nlmsg-len",
             "rec-nlmsg-zero", "rec-nlmsg-short", "rec-long-line", "rec-huge",
             "rec-empty", "rec-garbage", "rec-fifo", "rec-link-out", "rec-dir"]


def matches(root, patterns, want_dir=False):
    """Paths under root matching the patterns, relative, sorted; files, or directories."""
    out = set()
    for pat in patterns:
        for p in glob.glob(os.path.join(glob.escape(root), pat)):
            if os.path.isdir(p) if want_dir else (os.path.isfile(p) and not os.path.isdir(p)):
                out.add(os.path.relpath(p, root))
    return sorted(out)


def plan_host(host):
    """The cases of one host: (case id, kind, logical path)."""
    root = os.path.join(HOSTS, host)
    rng = random.Random("%s:%s" % (SEED, host))
    cases = [("%s/pristine/-" % host, "pristine", None)]
    groups = [g for g in FILE_GROUPS if matches(root, FILE_GROUPS[g])]
    rng.shuffle(groups)
    # Every kind on two groups, the groups taken in turn so that each gets several kinds.
    i = 0
    for kind in FILE_KINDS:
        for _ in range(3):
            g = groups[i % len(groups)]
            i += 1
            cases.append((kind, rng.choice(matches(root, FILE_GROUPS[g]))))
    num = [matches(root, [pat]) for pat in NUMERIC]
    num = [m for m in num if m]
    for kind in OVERFLOWS:
        cases.append((kind, rng.choice(rng.choice(num))))
    dirs = matches(root, DIR_TARGETS, want_dir=True)
    cases += [("file-for-dir", d) for d in rng.sample(dirs, 2)]
    cases.append(("dir-link-out", rng.choice(dirs)))
    cases.append(("dir-loop", rng.choice(matches(root, LINK_DIRS, want_dir=True))))
    lists = matches(root, LIST_DIRS, want_dir=True)
    cases += [("odd-name", d) for d in rng.sample(lists, 2)]
    cases.append(("many", rng.choice(lists)))
    cases.append(("big-index", rng.choice(matches(root, INDEX_DIRS, want_dir=True))))
    if os.path.isfile(os.path.join(root, "kernel.rec")):
        cases += [(kind, "kernel.rec") for kind in REC_KINDS]
    out, seen = [cases[0]], set()
    for kind, path in cases[1:]:
        cid = "%s/%s/%s" % (host, kind, path)
        if cid not in seen:
            seen.add(cid)
            out.append((cid, kind, path))
    return out


def garbage(rng, n):
    """Random bytes with the nasty ones sure to be there: NUL, invalid UTF-8, ESC, C1 CSI."""
    parts = [bytes(rng.randrange(256) for _ in range(n)), b"\0", b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80",
             b"\x1b[2J\x1b]0;x\x07", b"\xc2\x9b", b"\xf4\x90\x80\x80"]
    rng.shuffle(parts)
    return b"".join(parts)


class Clone:
    """A host copied into a private folder, broken one way at a time."""

    def __init__(self, host, tmp):
        self.src = os.path.join(HOSTS, host)
        self.root = os.path.join(tmp, host)
        shutil.copytree(self.src, self.root, symlinks=True)
        self.outside = os.path.join(tmp, "outside")
        self.undo = None

    def real(self, path):
        """The path with its parents' symlinks resolved, relative to the root (links stay inside)."""
        parent = os.path.realpath(os.path.join(self.root, os.path.dirname(path)))
        rel = os.path.relpath(os.path.join(parent, os.path.basename(path)), self.root)
        if rel.startswith(".."):
            raise RuntimeError("%s leaves the root" % path)
        return rel

    def restore(self):
        if self.undo is None:
            return
        rel, self.undo = self.undo, None
        dst, src = os.path.join(self.root, rel), os.path.join(self.src, rel)
        if os.path.isdir(dst) and not os.path.islink(dst):
            shutil.rmtree(dst)
        elif os.path.lexists(dst):
            os.unlink(dst)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst)

    def replace(self, rel):
        """Remove rel (file, link or tree) so that something else takes its place."""
        self.undo = rel
        p = os.path.join(self.root, rel)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)
        return p

    def apply(self, kind, path, rng):
        rel = self.real(path)
        p = os.path.join(self.root, rel)
        if kind.startswith("rec-"):
            kind = kind[4:]
            if kind not in ("empty", "garbage", "fifo", "link-out", "dir"):
                self.rewrite(rel, rec_mutate(kind, open(p, "rb").read(), rng))
                if kind == "huge":
                    os.truncate(p, REC_HUGE)
                return
        if kind == "truncated":
            data = open(p, "rb").read()
            return self.rewrite(rel, data[:rng.randrange(max(len(data) - 1, 1))])
        if kind == "empty":
            return self.rewrite(rel, b"")
        if kind == "garbage":
            return self.rewrite(rel, garbage(rng, rng.randrange(1, 300)))
        if kind in OVERFLOWS:
            return self.rewrite(rel, OVERFLOWS[kind])
        if kind == "huge":
            data = open(p, "rb").read()
            self.rewrite(rel, data)
            os.truncate(p, HUGE)
            return
        if kind == "fifo":
            os.mkfifo(self.replace(rel), 0o644)
        elif kind in ("link-out", "dir-link-out"):
            os.symlink(self.outside_target(kind == "dir-link-out"), self.replace(rel))
        elif kind in ("link-loop", "dir-loop"):
            os.symlink(os.path.basename(rel), self.replace(rel))
        elif kind in ("dir-for-file", "dir"):
            os.mkdir(self.replace(rel))
            with open(os.path.join(p, "1"), "w") as f:
                f.write("1\n")
        elif kind in ("odd-name", "many", "big-index"):
            self.add_entries(kind, rel, rng)
        elif kind == "file-for-dir":
            with open(self.replace(rel), "w") as f:
                f.write("1\n")
        else:
            raise RuntimeError("unknown kind " + kind)

    def add_entries(self, kind, rel, rng):
        """Copies of an entry of folder rel under other names: odd bytes, thousands, a 2^32+1 index."""
        self.undo = rel
        d = os.path.join(self.root, rel).encode()
        entries = sorted(os.listdir(d))
        if not entries:
            raise RuntimeError("%s is empty" % rel)
        src = os.path.join(d, rng.choice(entries))
        if kind == "odd-name":
            names = [ODD_NAME]
        elif kind == "big-index":
            names = [b"4294967297", b"18446744073709551617", b"-1"]
        else:  # 5000 files, 100 links to a device, 20 ports (each costs every verb a whole walk)
            n = MANY if not os.path.isdir(src) else 100 if os.path.islink(src) else 20
            names = [b"zz%05d" % i for i in range(n)]
        for name in names:
            dst = os.path.join(d, name)
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
            elif os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True)
            else:
                shutil.copy2(src, dst)

    def rewrite(self, rel, data):
        p = self.replace(rel)
        with open(p, "wb") as f:
            f.write(data)

    def outside_target(self, want_dir):
        """Outside the root: a file and a folder holding the leak marker (names and bytes)."""
        if not os.path.isdir(self.outside):
            sub = os.path.join(self.outside, "dir", MARKER)
            os.makedirs(sub)
            for name in ("file", "dir/" + MARKER + "/mtu", "dir/" + MARKER + "/state", "dir/mtu"):
                with open(os.path.join(self.outside, name), "w") as f:
                    f.write("1: %s\n" % MARKER)
        return os.path.join(self.outside, "dir" if want_dir else "file")


def rec_mutate(kind, data, rng):
    """A broken copy of a recording."""
    lines = data.split(b"\n")
    replies = [i for i, ln in enumerate(lines) if ln.startswith(b"< ") and len(ln) > 40]
    if kind == "truncated":
        return data[:rng.randrange(len(data) // 4, len(data) - 1)]
    if kind == "bitflip":
        b = bytearray(data)
        for _ in range(8):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    if kind.startswith("hexflip"):
        # Still well-formed hex: the checks at load or the parsers behind them must cope.
        for _ in range(16):
            i = rng.choice(replies)
            ln = bytearray(lines[i])
            j = rng.randrange(2, len(ln))
            ln[j] = ord(rng.choice("0123456789abcdef"))
            lines[i] = bytes(ln)
        return b"\n".join(lines)
    if kind.startswith("nlmsg-"):
        # The first reply's nlmsg_len: past the datagram, 0 (a parser that steps by it
        # never moves) or shorter than the header.
        i = rng.choice(replies)
        lines[i] = b"< " + {"len": b"ffffff7f", "zero": b"00000000", "short": b"0f000000"}[kind[6:]] + lines[i][10:]
        return b"\n".join(lines)
    if kind == "long-line":
        i = rng.choice(replies)
        lines.insert(i, b"< " + b"00" * (REC_LINE // 2 + 64))
        return b"\n".join(lines)
    if kind == "huge":
        return data  # apply() extends it, sparse
    raise RuntimeError("unknown kind " + kind)


def strict_json(text):
    """One JSON document, or a stream of them one a line (port stats with an interval)."""
    def bad(c):
        raise ValueError("non-JSON constant " + c)

    lines = text.rstrip("\n").split("\n")
    if len(lines) == 1 or lines[0].lstrip().startswith("{") and lines[0].rstrip().endswith("}"):
        for ln in lines:
            json.loads(ln, parse_constant=bad)
    else:
        json.loads(text, parse_constant=bad)


def capture(cmd, stdout):
    """Keep a JSON output for tests/schema-check, as tests/json-capture would have."""
    fd, path = tempfile.mkstemp(suffix=".json", dir=CAPTURE_DIR)
    with os.fdopen(fd, "wb") as f:
        f.write(stdout)
    with open(path[: -len(".json")] + ".cmd", "w") as f:
        f.write(shell_quote(["rdmactl"] + cmd[1:]) + "\n")


def check_run(clone, args, allowed, as_json, env):
    """Run one verb; the list of what is wrong (empty: fine)."""
    cmd = [env["RDMACTL"], "--root", clone.root] + (["-j"] if as_json else []) + args
    try:
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return cmd, ["hung: no exit within %g s" % TIMEOUT]
    except OSError as e:  # e.g. the binary being relinked by a make running beside us
        return cmd, ["cannot run %s: %s" % (cmd[0], e)]
    if as_json and CAPTURE_DIR and r.stdout:
        capture(cmd, r.stdout)
    bad = []
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode < 0:
        bad.append("killed by signal %d" % -r.returncode)
    elif r.returncode not in allowed:
        bad.append("exit %d (allowed: %s)" % (r.returncode, ", ".join(map(str, sorted(allowed)))))
    for word in ("runtime error:", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer"):
        if word in err:
            bad.append("sanitizer: " + word)
            break
    if MARKER.encode() in r.stdout + r.stderr:
        bad.append("read outside the root (marker in the output)")
    if as_json:
        if r.stdout:
            try:
                strict_json(r.stdout.decode("utf-8"))
            except ValueError as e:
                bad.append("stdout is not JSON: %s" % str(e)[:120])
        elif r.returncode == 0:
            bad.append("exit 0 with nothing on stdout")
    elif b"\x1b" in r.stdout:
        bad.append("raw ESC in text output")
    verb = args[0] if args[0] != "bond" else " ".join(args[:2])
    if r.returncode == 1 and verb in SAYS_WHY and not err.strip():
        bad.append("exit 1 with nothing on stderr")
    if bad:
        tail = [ln for ln in err.splitlines() if ln.strip()][:6]
        bad += ["stderr: " + ln[:200] for ln in tail]
    return cmd, bad


def child_env():
    env = dict(os.environ)
    env.pop("RDMACTL_REPLAY_STRICT", None)
    env["NO_COLOR"] = "1"
    env["RDMACTL"] = os.environ.get("RDMACTL", os.path.join(TOP, "rdmactl"))
    if CAPTURE_DIR:
        # tests/run's capture: this driver has every output in hand already, so it keeps
        # the JSON ones itself and runs the binary directly, not through tests/json-capture
        # (a shell, mkfifo and tee for each of thousands of runs).
        env["RDMACTL"] = os.environ["RDMACTL_REAL"]
        for k in ("RDMACTL_REAL", "RDMACTL_CAPTURE_DIR"):
            env.pop(k, None)
    # A sanitizer report must not hide behind exit 1, which is an allowed status.  It is
    # read from stderr here, so not sent to a file (tests/run's SANITIZER_LOG_DIR).
    inherited = [o for o in os.environ.get("ASAN_OPTIONS", "").split(":") if o and not o.startswith("log_path=")]
    env["ASAN_OPTIONS"] = ":".join(inherited + ["verify_asan_link_order=0", "exitcode=86", "detect_leaks=1"])
    env["UBSAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("UBSAN_OPTIONS"), "print_stacktrace=1",
                                                    "halt_on_error=1", "exitcode=87"]))
    return env


def shell_quote(args):
    return " ".join("'%s'" % a.replace("'", "'\\''") if not a.replace("/", "").replace(".", "")
                    .replace("-", "").replace("_", "").isalnum() else a for a in args)


def run_host(host, cases, tmp, env, keep):
    """Run a host's cases; a list of (case id, ok, lines to print)."""
    clone = Clone(host, tmp)
    results = []
    try:
        with open(os.path.join(HOSTS, host, "WINDOW")) as f:
            window = f.read().strip()
    except FileNotFoundError:
        window = None  # one sample: no rates to take
    for cid, kind, path in cases:
        rng = random.Random("%s:%s" % (SEED, cid))
        lines = []
        t0 = time.monotonic()
        try:
            if kind != "pristine":
                clone.apply(kind, path, rng)
            for args, allowed, as_json in VERBS:
                if "WINDOW" in args:
                    args = [window if a == "WINDOW" else a for a in args] if window \
                        else args[:args.index("WINDOW") - 1]
                cmd, bad = check_run(clone, args, allowed, as_json, env)
                if bad:
                    lines.append("# %s: %s" % (" ".join(args) + ("" if as_json else " (text)"), bad[0]))
                    lines += ["#   " + b for b in bad[1:]]
                    lines.append("#   reproduce: tests/corrupt/corrupt.py --keep --case '%s', then %s"
                                 % (cid, shell_quote(cmd).replace(clone.root, "KEPT")))
        except Exception as e:  # a driver bug fails the case, not the tier
            lines.append("# driver error: %r" % e)
        if keep:
            lines.append("# kept: %s (%s)" % (clone.root, cid))
        else:
            clone.restore()
        results.append((cid, not lines or (keep and len(lines) == 1), lines, time.monotonic() - t0))
    return results


def main(argv):
    listing = keep = False
    only = None
    hosts = []
    it = iter(argv)
    for a in it:
        if a == "--list":
            listing = True
        elif a == "--keep":
            keep = True
        elif a == "--case":
            only = next(it, None)
        elif a.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            hosts.append(a)
    if only:
        hosts = [only.split("/")[0]]
    hosts = hosts or sorted(h for h in os.listdir(HOSTS) if os.path.isdir(os.path.join(HOSTS, h)))
    unknown = [h for h in hosts if not os.path.isdir(os.path.join(HOSTS, h))]
    if unknown:
        print("corrupt: no such host in testdata/hosts: %s" % ", ".join(unknown), file=sys.stderr)
        return 2
    plan = {h: [c for c in plan_host(h) if only is None or c[0] == only] for h in hosts}
    total = sum(len(c) for c in plan.values())
    if listing:
        for h in hosts:
            for cid, _, _ in plan[h]:
                print(cid)
        return 0
    if total == 0:
        print("corrupt: no such case: %s" % only, file=sys.stderr)
        return 2
    if keep and total != 1:
        print("corrupt: --keep needs exactly one --case", file=sys.stderr)
        return 2
    env = child_env()
    if not os.access(env["RDMACTL"], os.X_OK):
        print("corrupt: no binary at %s (make, or set RDMACTL)" % env["RDMACTL"], file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="rdmactl-corrupt.")
    done, lock = {}, threading.Condition()
    jobs = int(os.environ.get("CORRUPT_JOBS", os.cpu_count() or 1))

    def worker(queue):
        while True:
            with lock:
                if not queue:
                    return
                h = queue.pop(0)
            res = run_host(h, plan[h], os.path.join(tmp, "w-" + h), env, keep) if plan[h] else []
            with lock:
                done[h] = res
                lock.notify_all()

    start = time.monotonic()
    failed = 0
    try:
        for h in hosts:
            os.makedirs(os.path.join(tmp, "w-" + h))
        queue = list(hosts)
        threads = [threading.Thread(target=worker, args=(queue,), daemon=True) for _ in range(max(jobs, 1))]
        for t in threads:
            t.start()
        print("1..%d" % total, flush=True)
        n = 0
        for h in hosts:  # in host order, each as soon as it is done
            with lock:
                while h not in done:
                    lock.wait()
            for cid, ok, lines, secs in done[h]:
                n += 1
                failed += not ok
                print("%s %d - corrupt %s (%.1f s)" % ("ok" if ok else "not ok", n, cid, secs))
                for ln in lines:
                    print(ln)
            sys.stdout.flush()
        print("# %d cases (%d runs each) on %d hosts in %.0f s, seed %s, binary %s"
              % (total, len(VERBS), len(hosts), time.monotonic() - start, SEED, env["RDMACTL"]))
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
