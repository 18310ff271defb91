#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: pfc
short_description: Lossless RoCE on a netdev - PFC, ETS, trust, DSCP map, RoCE ToS
description:
  - Applies the C(roce-lossless) profile (C(rdmactl pfc apply)) or explicit DCB settings in
    iproute2 dcb's grammar (C(rdmactl pfc set)) to one netdev on the managed host.
  - A thin wrapper around C(rdmactl --json); rdmactl reads the current state, writes only what
    differs, reads it back and rolls back on failure. C(changed) is rdmactl's.
  - Check mode runs rdmactl with C(--dry-run); diff mode shows rdmactl's C(before) and C(after).
version_added: "1.0.0"
author:
  - rdmactl contributors (@rdmactl)
extends_documentation_fragment:
  - rdmactl.roce.rdmactl
options:
  dev:
    description:
      - The netdev, or an RDMA device as C(DEV[/PORT]) on it.
      - A bond (RoCE LAG or not), or a VLAN on one, configures every member behind it, all of
        them or none (rdmactl rolls back the members already written when one fails);
        I(netdevs) in the result lists each member.
    type: str
    required: true
    aliases: [netdev]
  profile:
    description:
      - A whole profile, applied idempotently with rollback. C(roce-lossless) is DSCP trust,
        PFC on one priority, the CNP priority strict.
      - Mutually exclusive with the explicit settings.
    type: str
    choices: [roce-lossless]
  prio:
    description: The profile's lossless RoCE priority (0-7; rdmactl's default 3).
    type: int
  dscp:
    description: The profile's RoCE data DSCP (0-63; rdmactl's default 26).
    type: int
  cnp_dscp:
    description: The profile's CNP DSCP (0-63; rdmactl's default 48).
    type: int
  cnp_prio:
    description: The profile's CNP priority (0-7; rdmactl's default 6).
    type: int
  pfc_prios:
    description:
      - The priorities that are lossless (PFC on); every other priority has PFC off. C([3]) is
        C(prio-pfc all:off 3:on); C([]) turns PFC off everywhere.
      - Mutually exclusive with I(prio_pfc).
    type: list
    elements: int
    version_added: "1.2.0"
  prio_pfc:
    description:
      - "PFC per priority, as C({all|P}:{on|off}) words, e.g. C([all:off, 3:on]), or as a dict of
        priority (or C(all)) to a bool, e.g. C({all: false, 3: true})."
    type: raw
  delay:
    description: The PFC delay allowance in bit times (0-65535).
    type: int
  prio_tc:
    description:
      - Priority to traffic class, as C({all|P}:TC) words.
      - "Or a dict of priority to TC, e.g. C({all: 0, 3: 3})."
    type: raw
  tc_tsa:
    description:
      - Transmission selection per TC, as C({all|TC}:{strict|cbs|ets|vendor}) words.
      - "Or a dict of TC to algorithm, e.g. C({all: ets, 6: strict})."
    type: raw
  tc_bw:
    description:
      - ETS bandwidth per TC, as C({all|TC}:PERCENT) words; the ETS TCs sum to 100.
      - "Or a dict of TC to percent, e.g. C({0: 50, 3: 50})."
    type: raw
  tc_maxrate:
    description:
      - Rate limit per TC, as C({all|TC}:RATE) words (RATE 0 or e.g. C(25Gbit)).
      - Or a dict of TC to rate.
    type: raw
  prio_buffer:
    description:
      - Priority to receive buffer, as C({all|P}:BUF) words.
      - Or a dict of priority to buffer.
    type: raw
  buffer_size:
    description:
      - Receive buffer sizes, as C({all|BUF}:SIZE) words (bytes, or with K/M).
      - Or a dict of buffer to size.
    type: raw
  trust:
    description: Trust DSCP (APP entries) or PCP.
    type: str
    choices: [dscp, pcp]
  dscp_prio:
    description:
      - DSCP to priority, as C(DSCP:P) words (the APP table, selector 5).
      - "Or a dict of DSCP to priority, e.g. C({26: 3, 48: 6})."
    type: raw
  roce_tos:
    description: The RDMA-CM default ToS (0-255) on the netdev's RDMA ports.
    type: int
  roce_mode:
    description: The RDMA-CM default RoCE mode on the netdev's RDMA ports.
    type: str
    choices: [v1, v2]
  ecn:
    description:
      - ECN reaction and notification point per priority, as C({all|P}:{on|off}) words.
      - Or a dict of priority (or C(all)) to a bool.
    type: raw
  no_dcb:
    description:
      - What to do when the netdev's driver implements no dcbnl operations (virtio, veth, most
        VFs). C(fail) fails the task with rdmactl's message; C(skip) returns unchanged with
        RV(dcb_supported=false) and the message, so that a play can report such hosts.
    type: str
    choices: [fail, skip]
    default: fail
attributes:
  check_mode:
    description: Runs rdmactl with C(--dry-run), which reports what would change and sends nothing.
    support: full
  diff_mode:
    description: Returns rdmactl's C(before) and C(after) of each object it changes.
    support: full
notes:
  - Needs C(rdmactl) on the managed host and root (CAP_NET_ADMIN) to write.
  - The keywords and the JSON are those of rdmactl-pfc(8).
'''

EXAMPLES = r'''
- name: Lossless RoCE on priority 3, DSCP 26
  rdmactl.roce.pfc:
    dev: ens1f0np0
    profile: roce-lossless

- name: The profile on priority 4, DSCP 34; hosts without DCB are reported, not failed
  rdmactl.roce.pfc:
    dev: "{{ item }}"
    profile: roce-lossless
    prio: 4
    dscp: 34
    no_dcb: skip
  loop: "{{ ansible_facts.rdmactl.rdma_netdevs }}"

- name: Explicit settings in dcb's grammar
  rdmactl.roce.pfc:
    dev: ens1f0np0
    prio_pfc: ["all:off", "3:on"]
    trust: dscp
    dscp_prio: ["26:3", "48:6"]

- name: The same as structured options
  rdmactl.roce.pfc:
    dev: ens1f0np0
    pfc_prios: [3]
    trust: dscp
    dscp_prio: {26: 3, 48: 6}
'''

RETURN = r'''
changed:
  description: rdmactl's top-level C(changed) (in check mode, whether it would change).
  returned: always
  type: bool
  sample: true
dry_run:
  description: Whether rdmactl ran with C(--dry-run) (check mode).
  returned: success, when the netdev has DCB
  type: bool
  sample: true
dcb_supported:
  description:
    - False when the netdev's driver has no dcbnl operations (error id C(no-dcb)); with
      I(no_dcb=skip) the task then succeeds unchanged.
  returned: success, and when rdmactl failed
  type: bool
  sample: true
netdevs:
  description:
    - What was (in check mode, would be) done per netdev; several for a bond, one per member.
  returned: success, when the netdev has DCB
  type: list
  elements: dict
  sample: [{"netdev": "ens1f0np0", "upper": "bond0", "relation": "roce_lag", "changed": true},
           {"netdev": "ens1f1np1", "upper": "bond0", "relation": "roce_lag", "changed": true}]
msg:
  description: rdmactl's message when it failed, or why nothing was done (I(no_dcb=skip)).
  returned: failure, or when dcb_supported is false
  type: str
  sample: "rdmactl: pfc: cannot read DCB of 'eth0': Operation not supported (its driver implements no dcbnl
          operations; virtual devices such as veth and virtio, and most VFs, have no DCB support)"
rc:
  description: rdmactl's exit status when it failed.
  returned: when rdmactl failed
  type: int
  sample: 1
stdout:
  description: rdmactl's standard output when it failed, its error document (kind C(error)).
  returned: when rdmactl failed
  type: str
  sample: "{\"schema\":3,\"kind\":\"error\",\"error\":{\"id\":\"no-dcb\",\"errno\":95,\"message\":\"cannot
          read DCB of 'eth0': Operation not supported (its driver implements no dcbnl operations; virtual
          devices such as veth and virtio, and most VFs, have no DCB support)\",\"object\":\"eth0\"}}\n"
stderr:
  description: rdmactl's standard error when it failed.
  returned: when rdmactl failed
  type: str
  sample: "rdmactl: pfc: cannot read DCB of 'eth0': Operation not supported (its driver implements no dcbnl
          operations; virtual devices such as veth and virtio, and most VFs, have no DCB support)\n"
error_id:
  description:
    - The id of rdmactl's error document (rdmactl(8) ERRORS) when it failed, or why nothing was
      done; C(no-dcb) when the driver has no dcbnl operations. Act on this, not on I(msg).
  returned: when rdmactl failed, or when dcb_supported is false
  type: str
  sample: "no-dcb"
errno:
  description: The errno of rdmactl's error document when it failed; null when it printed none.
  returned: when rdmactl failed
  type: int
  sample: 95
error_object:
  description: What rdmactl's error document is about (a netdev, a device) when it failed; null when none.
  returned: when rdmactl failed
  type: str
  sample: "eth0"
cmd:
  description: The rdmactl command line that ran.
  returned: success, and when rdmactl failed
  type: list
  elements: str
  sample: ["/usr/sbin/rdmactl", "--json", "--dry-run", "pfc", "apply", "dev", "bond0", "profile",
           "roce-lossless", "prio", "4"]
rdmactl:
  description: rdmactl's JSON document, kind C(pfc-change) (per netdev C(changed), C(before), C(after)).
  returned: success, when the netdev has DCB
  type: dict
  sample: {"schema": 3, "kind": "pfc-change", "changed": true, "dry_run": true,
           "netdevs": [{"netdev": "ens1f0np0", "upper": "bond0", "relation": "roce_lag", "changed": true,
                        "dry_run": true,
                        "before": {"pfc": {"source": "dcbnl", "reason": null, "pfc_cap": 8, "delay_bits": 7,
                                           "enabled_prios": [3]},
                                   "trust": {"source": "dcbnl-app", "reason": null, "value": "dscp"},
                                   "dscp_prio": {"source": "dcbnl-app", "reason": null,
                                                 "map": [{"dscp": 26, "prio": 3}, {"dscp": 48, "prio": 6}]},
                                   "ets": {"source": "dcbnl", "reason": null, "ets_cap": 8, "willing": false,
                                           "prio_tc": [0, 0, 0, 3, 0, 0, 6, 0],
                                           "tc_tsa": ["ets", "strict", "strict", "ets", "strict", "strict",
                                                      "strict", "strict"],
                                           "tc_bw_pct": [50, 100, 100, 50, 100, 100, 100, 100]},
                                   "maxrate": {"source": "dcbnl", "reason": null,
                                               "tc_maxrate_kbps": [0, 0, 0, 0, 0, 0, 0, 0]},
                                   "buffer": {"source": "dcbnl", "reason": null,
                                              "prio_buffer": [0, 0, 0, 0, 0, 0, 0, 0],
                                              "buffer_size_bytes": [262016, 0, 0, 0, 0, 0, 0, 0],
                                              "total_size_bytes": 262016},
                                   "ecn": {"source": "unknown",
                                           "reason": "no MLNX_OFED ecn sysfs on this driver", "prios": null},
                                   "cnp": {"source": "unknown",
                                           "reason": "no MLNX_OFED ecn sysfs on this driver", "dscp": null,
                                           "prio": null},
                                   "roce": [{"device": "mlx5_bond_0", "port": 1, "source": "configfs",
                                             "reason": null, "default_roce_mode": "RoCE v2",
                                             "default_roce_tos": 106}]},
                        "after": {"pfc": {"source": "dcbnl", "reason": null, "pfc_cap": 8, "delay_bits": 7,
                                          "enabled_prios": [4]},
                                  "trust": {"source": "dcbnl-app", "reason": null, "value": "dscp"},
                                  "dscp_prio": {"source": "dcbnl-app", "reason": null,
                                                "map": [{"dscp": 26, "prio": 4}, {"dscp": 48, "prio": 6}]},
                                  "ets": {"source": "dcbnl", "reason": null, "ets_cap": 8, "willing": false,
                                          "prio_tc": [0, 0, 0, 0, 4, 0, 6, 0],
                                          "tc_tsa": ["ets", "strict", "strict", "strict", "ets", "strict",
                                                     "strict", "strict"],
                                          "tc_bw_pct": [50, 0, 0, 0, 50, 0, 0, 0]},
                                  "maxrate": {"source": "dcbnl", "reason": null,
                                              "tc_maxrate_kbps": [0, 0, 0, 0, 0, 0, 0, 0]},
                                  "buffer": {"source": "dcbnl", "reason": null,
                                             "prio_buffer": [0, 0, 0, 0, 0, 0, 0, 0],
                                             "buffer_size_bytes": [262016, 0, 0, 0, 0, 0, 0, 0],
                                             "total_size_bytes": 262016},
                                  "ecn": {"source": "unknown",
                                          "reason": "no MLNX_OFED ecn sysfs on this driver", "prios": null},
                                  "cnp": {"source": "unknown",
                                          "reason": "no MLNX_OFED ecn sysfs on this driver", "dscp": null,
                                          "prio": null},
                                  "roce": [{"device": "mlx5_bond_0", "port": 1, "source": "configfs",
                                            "reason": null, "default_roce_mode": "RoCE v2",
                                            "default_roce_tos": 106}]}}]}
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.roce.plugins.module_utils import rdmactl as rd

# option -> (keyword, 'list' for several words or 'one' for one value)
SETTINGS = (
    ('pfc_prios', 'prio-pfc', 'prios'),
    ('prio_pfc', 'prio-pfc', 'list'),
    ('delay', 'delay', 'one'),
    ('prio_tc', 'prio-tc', 'list'),
    ('tc_tsa', 'tc-tsa', 'list'),
    ('tc_bw', 'tc-bw', 'list'),
    ('tc_maxrate', 'tc-maxrate', 'list'),
    ('prio_buffer', 'prio-buffer', 'list'),
    ('buffer_size', 'buffer-size', 'list'),
    ('trust', 'trust', 'one'),
    ('dscp_prio', 'dscp-prio', 'list'),
    ('roce_tos', 'roce-tos', 'one'),
    ('roce_mode', 'roce-mode', 'one'),
    ('ecn', 'ecn', 'list'),
)
PROFILE_PARAMS = (('prio', 'prio', 7), ('dscp', 'dscp', 63), ('cnp_dscp', 'cnp-dscp', 63),
                  ('cnp_prio', 'cnp-prio', 7))
RANGES = dict(delay=65535, roce_tos=255)


def map_key(module, opt, key):
    """A dict key of a structured option: a number (YAML keys may be ints), 'all', or a name
    rdmactl knows (AF31); one word, which rdmactl checks."""
    k = str(key)
    if not k or ':' in k or k.split() != [k]:
        module.fail_json(msg="%s: key '%s' is not one word without a colon" % (opt, k))
    return k


def map_order(k):
    """'all' first (later words override it), then numbers in order, then names."""
    if k == 'all':
        return (0, 0, '')
    if k.isdigit():
        return (1, int(k), '')
    return (2, 0, k)


def map_value(module, opt, key, v):
    """A bool is dcb's on/off; a number or a string is its own word (3, ets, 25Gbit)."""
    if isinstance(v, bool):
        return 'on' if v else 'off'
    if isinstance(v, (int, float, str)) and str(v).split() == [str(v)]:
        return str(v)
    module.fail_json(msg="%s: the value of %s must be one word, a number or a bool, not %r"
                     % (opt, key, v))


def setting_words(module, opt, v):
    """dcb's KEY:VALUE words from a list of words or a dict (all first, then by number)."""
    if isinstance(v, dict):
        if not v:
            module.fail_json(msg='%s needs at least one entry' % opt)
        keys = [(map_key(module, opt, k), k) for k in v]
        keys.sort(key=lambda kk: map_order(kk[0]))
        return ['%s:%s' % (k, map_value(module, opt, k, v[orig])) for k, orig in keys]
    if isinstance(v, str):
        # What Ansible's list type took before these options took dicts: "all:off,3:on".
        v = [w for w in v.replace(',', ' ').split() if w]
    if isinstance(v, (list, tuple)):
        if not v:
            module.fail_json(msg='%s needs at least one word' % opt)
        for w in v:
            # YAML 1.1 reads an unquoted 26:3 as a base-60 number (1563).
            if not isinstance(w, str) or ':' not in w:
                module.fail_json(msg='%s: %r is not a KEY:VALUE word; quote it ("26:3") or use a '
                                 'dict' % (opt, w))
        return list(v)
    module.fail_json(msg='%s must be a list of KEY:VALUE words or a dict, not %s'
                     % (opt, type(v).__name__))


def command_args(module):
    p = module.params
    if p['profile']:
        args = ['pfc', 'apply', 'dev', p['dev'], 'profile', p['profile']]
        for opt, kw, top in PROFILE_PARAMS:
            if p[opt] is not None:
                if not 0 <= p[opt] <= top:
                    module.fail_json(msg='%s must be 0-%d, not %d' % (opt, top, p[opt]))
                args += [kw, p[opt]]
        return args
    args = ['pfc', 'set', 'dev', p['dev']]
    for opt, kw, kind in SETTINGS:
        v = p[opt]
        if v is None:
            continue
        if kind == 'prios':
            if any(not 0 <= prio <= 7 for prio in v):
                module.fail_json(msg='%s: priorities are 0-7, not %s' % (opt, v))
            args += [kw, 'all:off'] + ['%d:on' % prio for prio in sorted(set(v))]
        elif kind == 'list':
            args += [kw] + setting_words(module, opt, v)
        else:
            if opt in RANGES and not 0 <= v <= RANGES[opt]:
                module.fail_json(msg='%s must be 0-%d, not %d' % (opt, RANGES[opt], v))
            args += [kw, v]
    return args


def main():
    spec = rd.rdmactl_argument_spec()
    spec.update(
        dev=dict(type='str', required=True, aliases=['netdev']),
        profile=dict(type='str', choices=['roce-lossless']),
        prio=dict(type='int'),
        dscp=dict(type='int'),
        cnp_dscp=dict(type='int'),
        cnp_prio=dict(type='int'),
        pfc_prios=dict(type='list', elements='int'),
        prio_pfc=dict(type='raw'),
        delay=dict(type='int'),
        prio_tc=dict(type='raw'),
        tc_tsa=dict(type='raw'),
        tc_bw=dict(type='raw'),
        tc_maxrate=dict(type='raw'),
        prio_buffer=dict(type='raw'),
        buffer_size=dict(type='raw'),
        trust=dict(type='str', choices=['dscp', 'pcp']),
        dscp_prio=dict(type='raw'),
        roce_tos=dict(type='int'),
        roce_mode=dict(type='str', choices=['v1', 'v2']),
        ecn=dict(type='raw'),
        no_dcb=dict(type='str', choices=['fail', 'skip'], default='fail'),
    )
    settings = [s[0] for s in SETTINGS]
    module = AnsibleModule(
        argument_spec=spec,
        supports_check_mode=True,
        required_one_of=[['profile'] + settings],
        mutually_exclusive=[['profile', s] for s in settings] + [['pfc_prios', 'prio_pfc']],
        required_by=dict((o, 'profile') for o, _kw, _top in PROFILE_PARAMS),
    )
    args = command_args(module)
    doc, _rc, failure, cmd = rd.run(module, args, dry_run=module.check_mode, fail=False)
    if doc is None:
        # rdmactl's error id says it, never its English (rdmactl(8) ERRORS).
        no_dcb = failure.id == rd.ERROR_NO_DCB
        if module.params['no_dcb'] == 'skip' and no_dcb:
            module.exit_json(changed=False, dcb_supported=False, msg=str(failure), cmd=cmd,
                             error_id=failure.id)
        module.fail_json(cmd=cmd, dcb_supported=not no_dcb, **failure.fail_args())
    res = rd.result(module, doc, cmd)
    res['dcb_supported'] = True
    res['netdevs'] = rd.netdev_changes(doc)
    module.exit_json(**res)


if __name__ == '__main__':
    main()
