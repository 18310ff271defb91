#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/ansible/returns.py - the modules' RETURN samples, from real runs and checked.

Usage:
  tests/ansible/returns.py run DIR           every scenario below, one playbook: each result
                                             in DIR/MODULE.SCENARIO.json
  tests/ansible/returns.py check DIR MODULE  RETURN of rdmactl.roce.MODULE (ansible-doc -j)
                                             against those results; a line per problem, exit 1
  tests/ansible/returns.py write DIR [MODULE...]
                                             rewrite the sample: lines of the modules' RETURN
                                             from those results (SAMPLES says which run and cut)

The scenarios run on fixture hosts (--root testdata/hosts/NAME; writes in check mode), so
that they are the same on every machine. check says, for each module:
  - a sample that is an rdmactl document (schema and kind; a str sample holding one, too)
    validates against schemas/KIND.schema.json (tests/schema-check);
  - each result's keys are documented (but Ansible's own), a success has every key
    RETURN says is returned always or success, a failure every one returned always;
  - each sample has RETURN's type and the keys of the real value (a list of dicts: its
    first item's), and is a real value cut: the same keys, list items left out, never
    changed (the path of the binary reads /usr/sbin/rdmactl, the Debian package's);
  - each documented key comes back in some run.
Run by tests/ansible/returns.bats; `write` is how samples are made (then check).
"""
import ast
import copy
import json
import os
import subprocess
import sys

import yaml

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOSTS = os.path.join(TOP, 'testdata', 'hosts')
COLL = os.path.join(TOP, 'ansible_collections', 'rdmactl', 'roce')
RDMACTL = os.environ.get('RDMACTL') or os.path.join(TOP, 'rdmactl')
SAMPLE_BINARY = '/usr/sbin/rdmactl'
WIDTH = 110  # sample lines; pep8 allows 160
# Keys Ansible adds to a result, or that every module may have.
ANSIBLE_OWN = {'changed', 'failed', 'msg', 'invocation', 'diff', 'skipped', 'skip_reason',
               'warnings', 'deprecations', 'exception', 'stdout_lines', 'stderr_lines',
               'ansible_facts', 'module_stdout', 'module_stderr'}
BOND = {'name': 'bond0', 'interfaces': ['ens1f0np0', 'ens1f1np1'],
        'parameters': {'mode': '802.3ad', 'mii-monitor-interval': '100', 'lacp-rate': 'fast',
                       'transmit-hash-policy': 'layer3+4'}}

# MODULE -> SCENARIO -> (fixture host, arguments, check mode, diff mode)
SCENARIOS = {
    'pfc': {
        'lag': ('cx6dx-lag', {'dev': 'bond0', 'profile': 'roce-lossless', 'prio': 4}, True, True),
        'skip': ('rxe-bond', {'dev': 'eth0', 'profile': 'roce-lossless', 'no_dcb': 'skip'}, True, False),
        'nodcb': ('rxe-bond', {'dev': 'eth0', 'profile': 'roce-lossless'}, True, False),
        'refused': ('cx6dx', {'dev': 'ens1f0np0', 'profile': 'roce-lossless', 'trust': 'dscp'}, True, False),
    },
    'port': {
        'mtu': ('cx6dx', {'dev': 'ens1f0np0', 'mtu': 4200, 'state': 'up'}, True, True),
        'missing': ('cx6dx', {'dev': 'nosuch0', 'mtu': 4200}, True, False),
        'refused': ('cx6dx', {'dev': 'ens1f0np0', 'mtu': 50}, True, False),
    },
    'bond': {
        'slow': ('cx6dx-lag', {'name': 'bond0', 'parameters': {'lacp-rate': 'slow'}}, True, True),
        'create': ('cx6dx', BOND, True, False),
        'delete': ('cx6dx-lag', {'name': 'bond0', 'state': 'absent'}, True, False),
        'gone': ('cx6dx', {'name': 'bond9', 'state': 'absent'}, True, False),
        'nomember': ('cx6dx', dict(BOND, interfaces=['ens1f0np0', 'nosuch0']), True, False),
        'new': ('cx6dx', {'name': 'bond7', 'parameters': {'mode': '802.3ad'}}, True, False),
        'refused': ('cx6dx', {'name': 'bond0', 'parameters': {'lacp-rate': 'often'}}, True, False),
    },
    'facts': {
        'lag': ('cx6dx-lag', {}, False, False),
        'virtio': ('rxe-bond', {'gather': ['dcb']}, False, False),
        'ib': ('ib-hdr', {'gather': ['ports', 'dcb']}, False, False),
    },
}


def keep(path, *items):
    """A cut: the list at PATH keeps ITEMS (indices)."""
    def cut(v):
        t = v
        for p in path[:-1]:
            t = t[p]
        t[path[-1]] = [t[path[-1]][i] for i in items]
        return v
    return cut


def only(*items):
    return lambda v: [v[i] for i in items]


def no_root(cmd):
    """A command line as on a host: without the fixture's --root DIR."""
    i = cmd.index('--root')
    return cmd[:i] + cmd[i + 2:]


FACTS = ('ansible_facts', 'rdmactl')
# MODULE -> key path -> (scenario, cuts): where each sample comes from.
SAMPLES = {
    'pfc': {
        ('changed',): ('lag', []), ('dry_run',): ('lag', []), ('dcb_supported',): ('lag', []),
        ('netdevs',): ('lag', []), ('msg',): ('skip', []), ('rc',): ('nodcb', []),
        ('stdout',): ('nodcb', []), ('stderr',): ('nodcb', []), ('error_id',): ('skip', []),
        ('errno',): ('nodcb', []), ('error_object',): ('nodcb', []), ('cmd',): ('lag', [no_root]),
        ('rdmactl',): ('lag', [keep(('netdevs',), 0)]),
    },
    'port': {
        ('changed',): ('mtu', []), ('dry_run',): ('mtu', []), ('msg',): ('missing', []),
        ('rc',): ('missing', []), ('stdout',): ('missing', []), ('stderr',): ('missing', []),
        ('error_id',): ('missing', []), ('errno',): ('missing', []),
        ('error_object',): ('missing', []), ('no_dcb',): ('missing', []),
        ('cmd',): ('mtu', [no_root]), ('rdmactl',): ('mtu', []),
    },
    'bond': {
        ('changed',): ('slow', []), ('dry_run',): ('slow', []), ('netplan',): ('create', []),
        ('msg',): ('gone', []), ('rc',): ('new', []), ('stdout',): ('new', []),
        ('stderr',): ('new', []), ('error_id',): ('new', []), ('errno',): ('new', []),
        ('error_object',): ('new', []),
        ('no_dcb',): ('nomember', []), ('cmd',): ('slow', [no_root]),
        ('rdmactl',): ('slow', [keep(('bonds', 0, 'before', 'members'), 0)]),
    },
    'facts': {
        FACTS + ('ports',): ('lag', []), FACTS + ('rdma_netdevs',): ('lag', []),
        FACTS + ('rdma_ports',): ('lag', []), FACTS + ('gids',): ('lag', [only(3)]),
        FACTS + ('ipv4',): ('lag', []), FACTS + ('dcb',): ('lag', [only(0), keep((0, 'pfc', 'prios'), 3)]),
        FACTS + ('no_dcb',): ('virtio', []),
        FACTS + ('bonds',): ('lag', [keep((0, 'members'), 0)]),
        FACTS + ('diag',): ('lag', [keep(('findings',), 0, 1)]), FACTS + ('errors',): ('ib', []),
    },
}


# ------------------------------------------------------------------ running

def ansible_env(directory):
    env = dict(os.environ)
    env.setdefault('ANSIBLE_COLLECTIONS_PATH', TOP)
    for k, v in (('ANSIBLE_COLLECTIONS_SCAN_SYS_PATH', 'false'), ('ANSIBLE_NOCOLOR', '1'),
                 ('ANSIBLE_HOME', os.path.join(directory, 'ansible-home')),
                 ('ANSIBLE_LOCAL_TEMP', os.path.join(directory, 'ansible-local')),
                 ('ANSIBLE_REMOTE_TEMP', os.path.join(directory, 'ansible-remote')),
                 ('ANSIBLE_RETRY_FILES_ENABLED', 'false'), ('ANSIBLE_LOCALHOST_WARNING', 'false'),
                 ('ANSIBLE_INVENTORY_UNPARSED_WARNING', 'false'),
                 ('RDMACTL_LOCK_DIR', os.path.join(directory, 'lock')),
                 ('RDMACTL_RUN_DIR', os.path.join(directory, 'run'))):
        env.setdefault(k, v)
    return env


def run_all(directory):
    """Every scenario as a task of one playbook; each result in DIR/MODULE.SCENARIO.json."""
    os.makedirs(directory, exist_ok=True)
    tasks = []
    for module, scenarios in SCENARIOS.items():
        for name, (host, args, check, diff) in scenarios.items():
            a = dict(args, rdmactl=RDMACTL, root=os.path.join(HOSTS, host))
            tasks.append({'name': '%s %s' % (module, name), 'rdmactl.roce.' + module: a,
                          'check_mode': check, 'diff': diff, 'register': 'r', 'ignore_errors': True})
            tasks.append({'name': 'keep %s %s' % (module, name), 'check_mode': False, 'diff': False,
                          'ansible.builtin.copy': {'content': '{{ r | to_json }}', 'mode': '0644',
                                                   'dest': os.path.join(directory, '%s.%s.json' % (module, name))}})
    play = os.path.join(directory, 'play.yml')
    with open(play, 'w') as f:
        json.dump([{'name': 'RETURN samples', 'hosts': 'localhost', 'gather_facts': False,
                    'tasks': tasks}], f, indent=1)
    p = subprocess.run(['ansible-playbook', '-i', 'localhost,', '-c', 'local', '-e',
                        'ansible_python_interpreter={{ ansible_playbook_python }}', play],
                       env=ansible_env(directory), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    with open(os.path.join(directory, 'play.log'), 'w') as f:
        f.write(p.stdout)
    if p.returncode != 0:
        sys.exit('returns: ansible-playbook exit %d:\n%s' % (p.returncode, p.stdout[-3000:]))


def normalize(v):
    """The binary's path as the Debian package has it."""
    if isinstance(v, dict):
        return dict((k, normalize(x)) for k, x in v.items())
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return SAMPLE_BINARY if v == RDMACTL else v


def results(directory, module):
    out = {}
    for name in SCENARIOS[module]:
        with open(os.path.join(directory, '%s.%s.json' % (module, name))) as f:
            out[name] = normalize(json.load(f))
    return out


def returns(module, directory):
    """RETURN of rdmactl.roce.MODULE as ansible-doc -j parses it."""
    env = ansible_env(directory)
    out = subprocess.check_output(['ansible-doc', '-j', 'rdmactl.roce.' + module], env=env,
                                  universal_newlines=True)
    return json.loads(out)['rdmactl.roce.' + module]['return']


def dig(v, path):
    for p in path:
        if not isinstance(v, dict) or p not in v:
            raise KeyError(p)
        v = v[p]
    return v


def documented(ret, prefix=()):
    """(path, entry) of every documented key, nested ones (contains) too."""
    for key, entry in ret.items():
        yield prefix + (key,), entry
        if entry.get('contains'):
            for x in documented(entry['contains'], prefix + (key,)):
                yield x


# ------------------------------------------------------------------ checking

TYPES = {'str': (str,), 'bool': (bool,), 'int': (int,), 'float': (int, float), 'dict': (dict,),
         'list': (list,), 'complex': (dict, list)}


def type_ok(v, entry):
    t = entry.get('type', 'str')
    if v is None or t == 'raw':
        return True
    if t in ('int', 'float') and isinstance(v, bool):
        return False
    if not isinstance(v, TYPES.get(t, object)):
        return False
    if t == 'list' and entry.get('elements'):
        return all(type_ok(x, {'type': entry['elements']}) for x in v)
    return True


def is_cut(sample, real):
    """SAMPLE is REAL with list items left out: same keys, same values, same order."""
    if isinstance(sample, dict):
        return isinstance(real, dict) and set(sample) == set(real) and \
            all(is_cut(sample[k], real[k]) for k in sample)
    if isinstance(sample, list):
        if not isinstance(real, list):
            return False
        i = 0
        for s in sample:
            while i < len(real) and not is_cut(s, real[i]):
                i += 1
            if i == len(real):
                return False
            i += 1
        return True
    return type(sample) is type(real) and sample == real


def top_keys(v):
    if isinstance(v, dict):
        return sorted(v)
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return sorted(v[0])
    return None


def rdmactl_documents(v):
    if isinstance(v, str):
        try:
            v = json.loads(v)
        except ValueError:
            return []
    return [v] if isinstance(v, dict) and 'schema' in v and 'kind' in v else []


def check(directory, module):
    ret = returns(module, directory)
    runs = results(directory, module)
    problems = []
    docs = list(documented(ret))
    by_path = dict(docs)

    # (b) each result's keys documented; always (success: and success) keys there.
    for name, res in runs.items():
        ok = not res.get('failed')
        for path, entry in [((), {'contains': ret})] + docs:
            if not entry.get('contains'):
                continue
            try:
                v = dig(res, path)
            except KeyError:
                continue
            if not isinstance(v, dict):
                continue
            for k in sorted(v):
                if path + (k,) not in by_path and not (path == () and k in ANSIBLE_OWN):
                    problems.append('%s: %s returns %s, which RETURN does not document'
                                    % (name, module, '.'.join(path + (k,))))
            for k, sub in entry['contains'].items():
                if (sub.get('returned') == 'always' or (ok and sub.get('returned') == 'success')) \
                        and k not in v:
                    problems.append('%s: %s is returned %s, but this %s has none'
                                    % (name, '.'.join(path + (k,)), sub['returned'],
                                       'success' if ok else 'failure'))

    # (a), (c): each sample an rdmactl document that validates, of its type, a real value cut.
    sample_docs = []
    for path, entry in docs:
        key = '.'.join(path)
        reals = []
        for name, res in runs.items():
            try:
                reals.append((name, dig(res, path)))
            except KeyError:
                pass
        if not reals:
            problems.append('%s: no run returns it' % key)
        if 'sample' not in entry:
            if not entry.get('contains'):
                problems.append('%s: no sample' % key)
            continue
        sample = entry['sample']
        sample_docs += [(key, d) for d in rdmactl_documents(sample)]
        if not type_ok(sample, entry):
            problems.append('%s: the sample is not of type %s%s: %s'
                            % (key, entry.get('type'), '/' + entry['elements'] if entry.get('elements') else '',
                               json.dumps(sample)[:200]))
        if not reals:
            continue
        cut_of = [name for name, real in reals if is_cut(sample, real)]
        full = [(n, r) for n, r in reals if r not in (None, [], {})] or reals
        name, real = ([(n, r) for n, r in reals if n in cut_of] or full)[0]
        if top_keys(sample) != top_keys(real):
            problems.append('%s: the sample has the keys %s, the real value of run %s %s'
                            % (key, top_keys(sample), name, top_keys(real)))
        if not cut_of:
            problems.append('%s: the sample is no real value cut (not of any run); run %s gives %s'
                            % (key, name, json.dumps(real)[:300]))

    if sample_docs:
        path = os.path.join(directory, 'samples-%s.json' % module)
        with open(path, 'w') as f:
            for _key, d in sample_docs:
                f.write(json.dumps(d) + '\n')
        p = subprocess.run([os.path.join(TOP, 'tests', 'schema-check'), path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            problems += ['a sample against schemas/: ' + line.replace(path, os.path.basename(path)).strip()
                         for line in p.stdout.splitlines() if not line.startswith('schema: ')] or \
                ['a sample against schemas/: exit %d' % p.returncode]
    for p in problems:
        print('%s: %s' % (module, p))
    print('%s: %d keys, %d samples (%d rdmactl documents), %d runs, %d problem(s)'
          % (module, len(docs), sum('sample' in e for _p, e in docs), len(sample_docs), len(runs),
             len(problems)))
    return not problems


# ------------------------------------------------------------------ writing samples

def units(quoted):
    """A JSON string's text in units: an escape sequence is one."""
    i, out = 0, []
    while i < len(quoted):
        n = 1 if quoted[i] != '\\' else (6 if quoted[i + 1] == 'u' else 2)
        out.append(quoted[i:i + n])
        i += n
    return out


def flow(v, col):
    """V as YAML flow (JSON) text starting at column COL: its lines, the continuations
    indented (more than the key's, as YAML wants)."""
    one = json.dumps(v, ensure_ascii=False)
    if col + len(one) <= WIDTH or not isinstance(v, (dict, list, str)):
        return [one]
    if isinstance(v, str):
        # Double-quoted, folded at a space (YAML reads the line break as that space), or
        # where there is none, broken with an escaped line break between two letters.
        lines, cur, room = [], [], WIDTH - col
        for u in units(one):
            cur.append(u)
            if sum(map(len, cur)) < room:
                continue
            spaces = [i for i in range(1, len(cur) - 1) if cur[i] == ' ' and cur[i - 1] != ' ' != cur[i + 1]]
            if spaces:
                lines.append(''.join(cur[:spaces[-1]]))
                cur = cur[spaces[-1] + 1:]
            elif len(cur[-1]) == 1 and len(cur[-2]) == 1 and ' ' not in cur[-2:] and '"' not in cur[-2:]:
                lines.append(''.join(cur[:-1]) + '\\')
                cur = cur[-1:]
        lines.append(''.join(cur))
        return [lines[0]] + [' ' * col + x for x in lines[1:]]
    items = list(v.items()) if isinstance(v, dict) else [(None, x) for x in v]
    open_, close = ('{', '}') if isinstance(v, dict) else ('[', ']')
    lines = [open_]
    for n, (k, x) in enumerate(items):
        head = '' if k is None else json.dumps(k, ensure_ascii=False) + ': '
        tail = ',' if n < len(items) - 1 else close
        body = flow(x, col + 1 + len(head))
        text = head + body[0] + ('' if len(body) > 1 else tail)
        cur = lines[-1]
        if cur == open_:
            lines[-1] = cur + text
        elif len(body) == 1 and (col if len(lines) == 1 else 0) + len(cur) + 1 + len(text) <= WIDTH:
            lines[-1] = cur + ' ' + text
        else:
            lines.append(' ' * (col + 1) + text)
        if len(body) > 1:
            lines += body[1:-1] + [body[-1] + tail]
    return lines


def sample_lines(v, indent):
    """The sample: line(s) of V for a key whose properties are at INDENT."""
    pad = ' ' * indent
    if isinstance(v, str) and '\n' in v.rstrip('\n') and v.endswith('\n') and not v.endswith('\n\n') \
            and not v.startswith(' '):
        return [pad + 'sample: |'] + [pad + '  ' + line if line else '' for line in v[:-1].split('\n')]
    body = flow(v, indent + len('sample: '))
    return [pad + 'sample: ' + body[0]] + body[1:]


def indent_of(line):
    return len(line) - len(line.lstrip(' '))


def block(lines, start, end, ind, name):
    """The line of NAME: at indentation IND in LINES[START:END], and the end of its block."""
    for i in range(start, end):
        if lines[i].rstrip() == ' ' * ind + name + ':' or \
                (name == 'sample' and indent_of(lines[i]) == ind and lines[i].lstrip().startswith('sample:')):
            j = i + 1
            while j < end and (not lines[j].strip() or indent_of(lines[j]) > ind):
                j += 1
            return i, j
    return None, None


def set_sample(lines, path, value):
    """Put VALUE as the sample of PATH (a key, nested ones in contains) into RETURN's LINES."""
    start, end, ind = 0, len(lines), 0
    for n, key in enumerate(path):
        if n:
            i, j = block(lines, start, end, ind + 2, 'contains')
            if i is None:
                raise KeyError('.'.join(path))
            start, end, ind = i + 1, j, ind + 4
        i, j = block(lines, start, end, ind, key)
        if i is None:
            raise KeyError('.'.join(path))
        start, end = i + 1, j
    i, j = block(lines, start, end, ind + 2, 'sample')
    if i is not None:
        del lines[i:j]
        end -= j - i
    i, _j = block(lines, start, end, ind + 2, 'contains')
    new = sample_lines(value, ind + 2)
    got = yaml.safe_load('\n'.join(new) + '\n')['sample']
    if got != value:
        raise ValueError('%s: the sample does not read back: %r' % ('.'.join(path), got))
    lines[end if i is None else i:end if i is None else i] = new


def write(directory, module):
    path = os.path.join(COLL, 'plugins', 'modules', module + '.py')
    with open(path) as f:
        src = f.read()
    node = [n for n in ast.parse(src).body if isinstance(n, ast.Assign) and
            getattr(n.targets[0], 'id', None) == 'RETURN'][0]
    lines = src.split('\n')
    first, last = node.lineno - 1, node.end_lineno - 1
    if lines[first] != "RETURN = r'''" or lines[last] != "'''":
        sys.exit("%s: RETURN is not r''' ... ''' on lines of their own" % path)
    body = lines[first + 1:last]
    runs = results(directory, module)
    for key_path, (scenario, cuts) in SAMPLES[module].items():
        v = copy.deepcopy(dig(runs[scenario], key_path))
        for cut in cuts:
            v = cut(v)
        set_sample(body, key_path, v)
    text = '\n'.join(lines[:first + 1] + body + lines[last:])
    if yaml.safe_load('\n'.join(body)) is None:
        sys.exit('%s: RETURN is empty' % path)
    with open(path, 'w') as f:
        f.write(text)
    print('%s: %d samples' % (os.path.relpath(path, TOP), len(SAMPLES[module])))


def main(argv):
    if len(argv) >= 2 and argv[0] == 'run':
        run_all(argv[1])
    elif len(argv) == 3 and argv[0] == 'check':
        sys.exit(0 if check(argv[1], argv[2]) else 1)
    elif len(argv) >= 2 and argv[0] == 'write':
        for m in argv[2:] or list(SAMPLES):
            write(argv[1], m)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
