# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)
"""Run rdmactl --json on the managed host and read its documents.

Every JSON key the collection reads is named in KEYS below, and nowhere
else: when rdmactl renames a key, this table is the one place to change.
"""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json

# The keys of rdmactl's JSON documents that the modules and filters read
# (docs/HACKING.md section 8, the JSON glossary).
KEYS = {
    # writes: top level
    'changed': 'changed',
    'dry_run': 'dry_run',
    # writes: per object (a list of objects, or the document itself)
    'objects': ('netdevs', 'devices', 'bonds'),
    'object_name': ('netdev', 'bond', 'device'),
    'before': 'before',
    'after': 'after',
    # port show / port gids
    'ports': 'ports',
    'port_netdev': 'netdev',
    'port_fields': ('device', 'port', 'netdev', 'upper', 'bond_mode', 'members', 'state',
                    'link_layer'),
    'object_upper': 'upper',
    'object_relation': 'relation',
    'object_changed': 'changed',
    'gids': 'gids',
    'gid_ip': 'ip',
    'gid_family': 'ip_family',
    'gid_link_local': 'link_local',
    # pfc show
    'dcb_devices': ('netdevs', 'devices'),
    'dcb_netdev': 'netdev',
    'dcb_pfc': 'pfc',
    'dcb_source': 'source',
    'dcb_reason': 'reason',
    # bond show
    'bonds': 'bonds',
    'bond_name': 'bond',
    'bond_members': 'members',
    'member_netdev': 'netdev',
    # diag run, bond check
    'findings': 'findings',
    'finding_id': 'id',
    'finding_severity': 'severity',
    'finding_title': 'title',
    'finding_about': ('device', 'port', 'netdev', 'bond'),
    # bench client report
    'bench_links': 'links',
    'bench_status': 'status',
    'bench_gbps': 'gbps',
    'bench_local': 'local',
    'bench_remote': 'remote',
    'bench_device': 'device',
    'bench_netdev': 'netdev',
    'bench_ip': 'ip',
    'bench_total': 'total',
    'bench_error': 'error',
}

SEVERITIES = ('fail', 'warn', 'info')

# The ids of rdmactl's error documents that the modules act on (rdmactl(8)
# ERRORS): the netdev's driver has no dcbnl operations (virtio, veth, most
# VFs), and the object named does not exist.
ERROR_NO_DCB = 'no-dcb'
ERROR_NOT_FOUND = 'not-found'

# rdmactl's exit status for a --dry-run that would change something
# (rdmactl(8) EXIT STATUS): check mode's answer, not a failure.
EXIT_PENDING = 4


def rdmactl_argument_spec():
    """The options every module of the collection shares."""
    return dict(
        rdmactl=dict(type='str', default='rdmactl'),
        root=dict(type='path'),
        netns=dict(type='str'),
    )


def rdmactl_command(module, args, dry_run=False):
    """The argv of one rdmactl call: the binary, --json, the options, ARGS."""
    binary = module.params['rdmactl']
    if '/' in binary:
        path = binary
    else:
        path = module.get_bin_path(binary, required=True)
    cmd = [path, '--json']
    if module.params.get('root'):
        cmd += ['--root', module.params['root']]
    if module.params.get('netns'):
        cmd += ['--netns', module.params['netns']]
    if dry_run:
        cmd.append('--dry-run')
    return cmd + [str(a) for a in args]


def error_message(stderr, stdout=''):
    """rdmactl's own message: its stderr lines, or stdout when stderr is empty."""
    text = (stderr or '').strip() or (stdout or '').strip()
    return text or 'rdmactl failed without a message'


def error_document(stdout):
    """The 'error' object of the error document a failed rdmactl --json run
    printed on stdout (kind "error"), or None."""
    try:
        doc = json.loads(stdout or '')
    except ValueError:
        return None
    if isinstance(doc, dict) and doc.get('kind') == 'error' and isinstance(doc.get('error'), dict):
        return doc['error']
    return None


class Failure(object):
    """A failed rdmactl run: its message (stderr), the error document's id,
    errno and object (None when it printed none), rc, stdout and stderr.
    str() is the message."""

    def __init__(self, rc, stdout, stderr, msg=None):
        error = error_document(stdout) or {}
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr
        self.msg = msg or error_message(stderr, stdout)
        self.id = error.get('id')
        self.errno = error.get('errno')
        self.object = error.get('object')

    def __str__(self):
        return self.msg

    def fail_args(self):
        """What fail_json reports of it: always rc, stdout, stderr and the id."""
        return dict(msg=self.msg, rc=self.rc, stdout=self.stdout, stderr=self.stderr,
                    error_id=self.id, errno=self.errno, error_object=self.object)


def run(module, args, dry_run=False, data=None, ok_rcs=(0,), fail=True):
    """Run rdmactl --json ARGS; return (document, rc, stderr, cmd).

    A status outside OK_RCS fails the module with rdmactl's message, status,
    output and error id (or, with fail=False, returns a None document and a
    Failure in place of stderr)."""
    cmd = rdmactl_command(module, args, dry_run=dry_run)
    if dry_run:
        ok_rcs = tuple(ok_rcs) + (EXIT_PENDING,)
    rc, out, err = module.run_command(cmd, data=data, binary_data=data is not None)
    if rc not in ok_rcs:
        failure = Failure(rc, out, err)
        if not fail:
            return None, rc, failure, cmd
        module.fail_json(cmd=cmd, no_dcb=failure.id == ERROR_NO_DCB, **failure.fail_args())
    try:
        doc = json.loads(out)
    except ValueError as e:
        failure = Failure(rc, out, err, msg='rdmactl printed no JSON document: %s' % e)
        if not fail:
            return None, rc, failure, cmd
        module.fail_json(cmd=cmd, **failure.fail_args())
    if not isinstance(doc, dict):
        module.fail_json(cmd=cmd, **Failure(rc, out, err, msg='rdmactl printed JSON that is not an object').fail_args())
    # An error document is a failure whatever OK_RCS allows (diag run's 1 is findings).
    if doc.get('kind') == 'error':
        failure = Failure(rc, out, err)
        if not fail:
            return None, rc, failure, cmd
        module.fail_json(cmd=cmd, no_dcb=failure.id == ERROR_NO_DCB, **failure.fail_args())
    return doc, rc, err, cmd


def changed(doc):
    return bool(doc.get(KEYS['changed'], False))


def dry_run(doc):
    return bool(doc.get(KEYS['dry_run'], False))


def objects(doc):
    """The changed objects of a write: the per-device or per-bond list, or the
    document itself where the write is about one object (port set)."""
    for key in KEYS['objects']:
        if isinstance(doc.get(key), list):
            return doc[key]
    if KEYS['before'] in doc or KEYS['after'] in doc:
        return [doc]
    return []


def object_name(obj, index):
    for key in KEYS['object_name']:
        if obj.get(key) is not None:
            return str(obj[key])
    return str(index)


def diff(doc):
    """Ansible's diff from rdmactl's per-object before/after, keyed by object."""
    before, after = {}, {}
    for i, obj in enumerate(objects(doc)):
        name = object_name(obj, i)
        before[name] = obj.get(KEYS['before'])
        after[name] = obj.get(KEYS['after'])
    return {'before': before, 'after': after}


def result(module, doc, cmd):
    """The module's result of a write: changed, dry_run, the diff in diff
    mode, and rdmactl's document."""
    res = dict(changed=changed(doc), dry_run=dry_run(doc), cmd=cmd, rdmactl=doc)
    if module._diff:
        res['diff'] = diff(doc)
    return res


# ------------------------------------------------------------------ reading shows

def ports(doc):
    return list(doc.get(KEYS['ports']) or [])


def rdma_netdevs(port_list):
    """The netdevs of the RDMA ports, in order, once each."""
    seen = []
    for p in port_list:
        n = p.get(KEYS['port_netdev'])
        if n and n not in seen:
            seen.append(n)
    return seen


def rdma_ports(port_list):
    """Each RDMA port with its own (physical) netdev and the bond it is used
    through (upper): the ports a loop over the host's links wants."""
    return [dict((k, p.get(k)) for k in KEYS['port_fields']) for p in port_list]


def netdev_changes(doc):
    """What a pfc write did per netdev (a bond: per member): netdev, upper,
    relation and changed."""
    out = []
    for i, obj in enumerate(objects(doc)):
        out.append(dict(netdev=object_name(obj, i), upper=obj.get(KEYS['object_upper']),
                        relation=obj.get(KEYS['object_relation']),
                        changed=bool(obj.get(KEYS['object_changed'], False))))
    return out


def gids(doc):
    return list(doc.get(KEYS['gids']) or [])


def ipv4_addresses(gid_list):
    """The IPv4 addresses of the RoCE GIDs, in order, once each."""
    seen = []
    for g in gid_list:
        ip = g.get(KEYS['gid_ip'])
        if g.get(KEYS['gid_family']) == 'ipv4' and ip and ip not in seen:
            seen.append(ip)
    return seen


def dcb_devices(doc):
    for key in KEYS['dcb_devices']:
        if isinstance(doc.get(key), list):
            return doc[key]
    return []


# What 'pfc show' says in the reason of a netdev whose driver has no dcbnl
# operations.  A show is a document, not an error: it has no error id.
NO_DCB_REASON = 'no dcbnl operations'


def dcb_supported(dev):
    """False when the netdev's driver has no dcbnl operations, None when unknown."""
    pfc = dev.get(KEYS['dcb_pfc']) or {}
    if pfc.get(KEYS['dcb_source']) != 'unknown':
        return True
    if NO_DCB_REASON in str(pfc.get(KEYS['dcb_reason']) or ''):
        return False
    return None


def dcb_netdev(dev):
    return dev.get(KEYS['dcb_netdev'])


def bonds(doc):
    return list(doc.get(KEYS['bonds']) or [])


def bond_members(doc, name):
    """The member netdevs of bond NAME in a bond show document, in order."""
    for b in bonds(doc):
        if b.get(KEYS['bond_name']) == name:
            return [m.get(KEYS['member_netdev']) for m in b.get(KEYS['bond_members']) or []
                    if m.get(KEYS['member_netdev'])]
    return []


def findings(doc):
    """Each finding as id, severity, title and what it is about."""
    out = []
    for f in doc.get(KEYS['findings']) or []:
        item = dict(id=f.get(KEYS['finding_id']), severity=f.get(KEYS['finding_severity']),
                    title=f.get(KEYS['finding_title']))
        for key in KEYS['finding_about']:
            if f.get(key) is not None:
                item[key] = f[key]
        out.append(item)
    return out


def summary(finding_list):
    """Findings counted by severity."""
    counts = dict((s, 0) for s in SEVERITIES)
    for f in finding_list:
        counts[f.get('severity')] = counts.get(f.get('severity'), 0) + 1
    return counts


# ------------------------------------------------------------------ bench report

def bench_links(report):
    """One row per link of a bench client report: local and remote device,
    netdev and address, status and Gb/s."""
    rows = []
    for link in (report or {}).get(KEYS['bench_links']) or []:
        local = link.get(KEYS['bench_local']) or {}
        remote = link.get(KEYS['bench_remote']) or {}
        rows.append(dict(
            local_device=local.get(KEYS['bench_device']),
            local_netdev=local.get(KEYS['bench_netdev']),
            local_ip=local.get(KEYS['bench_ip']),
            remote_device=remote.get(KEYS['bench_device']),
            remote_netdev=remote.get(KEYS['bench_netdev']),
            remote_ip=remote.get(KEYS['bench_ip']),
            status=link.get(KEYS['bench_status']),
            gbps=link.get(KEYS['bench_gbps']),
            error=link.get(KEYS['bench_error']),
        ))
    return rows


def bench_total_gbps(report):
    total = (report or {}).get(KEYS['bench_total']) or {}
    return total.get(KEYS['bench_gbps'])


def bench_error(report):
    return (report or {}).get(KEYS['bench_error'])
