#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: bond
short_description: A bond for RDMA (RoCE LAG) in netplan's bond schema
description:
  - Converges one bond to its netplan description (C(interfaces), C(parameters)) with
    C(rdmactl bond apply -f -), in the kernel's order, with rollback; or deletes it
    (C(rdmactl bond delete)).
  - A thin wrapper around C(rdmactl --json); only what differs is sent. C(changed) is rdmactl's.
  - Check mode runs rdmactl with C(--dry-run); diff mode shows rdmactl's C(before) and C(after).
version_added: "1.0.0"
author:
  - rdmactl contributors (@rdmactl)
extends_documentation_fragment:
  - rdmactl.roce.rdmactl
options:
  name:
    description: The bond's name.
    type: str
    required: true
    aliases: [bond]
  state:
    description: C(present) converges the bond, C(absent) releases every member and deletes it.
    type: str
    choices: [present, absent]
    default: present
  interfaces:
    description:
      - The members, exactly (netplan C(interfaces)); when given, members not listed are
        released and listed ones enslaved.
      - Left out (the default), the members are not managed - an existing bond keeps the
        members it has (read with C(rdmactl bond show)), so a task that only changes
        C(parameters) never releases a RoCE LAG's members. Creating a bond needs them.
    type: list
    elements: str
  parameters:
    description:
      - The bond parameters, with netplan's names (C(mii-monitor-interval)) or the same with
        underscores (C(mii_monitor_interval)), validated by an argument spec of their own.
      - C(mode) (C(balance-rr), C(active-backup), C(balance-xor), C(broadcast), C(802.3ad),
        C(balance-tlb), C(balance-alb); C(active-backup), C(802.3ad) or C(balance-xor) for
        RoCE LAG).
      - C(mii-monitor-interval), C(up-delay), C(down-delay) (C(N), C(Nms) or C(Ns); up and down
        delays a multiple of the MII interval).
      - C(lacp-rate) (C(fast), C(slow)), C(transmit-hash-policy) (C(layer2), C(layer2+3),
        C(layer3+4), C(encap2+3), C(encap3+4), C(vlan+srcmac); C(layer3+4) spreads RoCE),
        C(ad-select) (C(stable), C(bandwidth), C(count)), C(primary) (a member),
        C(min-links) (a number).
      - Other netplan parameters are refused; rdmactl does not set them.
    type: dict
    default: {}
attributes:
  check_mode:
    description: Runs rdmactl with C(--dry-run), which reports what would change and sends nothing.
    support: full
  diff_mode:
    description: Returns rdmactl's C(before) and C(after) of each object it changes.
    support: full
notes:
  - Needs C(rdmactl) on the managed host and root (CAP_NET_ADMIN) to write.
  - Addresses, routes and the rest of netplan are not rdmactl's; keep them in netplan.
'''

EXAMPLES = r'''
- name: RoCE LAG over both ports
  rdmactl.roce.bond:
    name: bond0
    interfaces: [ens1f0np0, ens1f1np1]
    parameters:
      mode: 802.3ad
      mii-monitor-interval: 100
      lacp-rate: fast
      transmit-hash-policy: layer3+4

- name: Only a parameter; the members are left as they are (no interfaces given)
  rdmactl.roce.bond:
    name: bond0
    parameters:
      lacp-rate: slow

- name: The bonds of a host's netplan file, one by one
  rdmactl.roce.bond:
    name: "{{ item.key }}"
    interfaces: "{{ item.value.interfaces }}"
    parameters: "{{ item.value.parameters }}"
  loop: "{{ netplan.network.bonds | dict2items }}"

- name: No bond
  rdmactl.roce.bond:
    name: bond0
    state: absent
'''

RETURN = r'''
changed:
  description: rdmactl's top-level C(changed) (in check mode, whether it would change).
  returned: always
  type: bool
  sample: true
dry_run:
  description: Whether rdmactl ran with C(--dry-run) (check mode).
  returned: success, but not when I(state=absent) found no bond
  type: bool
  sample: true
netplan:
  description: The netplan document given to rdmactl on standard input.
  returned: success, when state is present
  type: str
  sample: |
    network:
      version: 2
      bonds:
        "bond0":
          interfaces:
            - "ens1f0np0"
            - "ens1f1np1"
          parameters:
            mode: "802.3ad"
            mii-monitor-interval: "100"
            lacp-rate: "fast"
            transmit-hash-policy: "layer3+4"
msg:
  description:
    - rdmactl's message when it failed, or when I(state=absent) found no bond (error id
      C(not-found)), which is no failure.
  returned: failure, or when I(state=absent) found no bond
  type: str
  sample: "rdmactl: bond: no bond 'bond9': No such device"
rc:
  description: rdmactl's exit status when it failed.
  returned: when rdmactl failed
  type: int
  sample: 1
stdout:
  description: rdmactl's standard output when it failed, its error document (kind C(error)).
  returned: when rdmactl failed
  type: str
  sample: "{\"schema\":3,\"kind\":\"error\",\"error\":{\"id\":\"not-found\",\"errno\":19,\"message\":\"no
          bond 'bond7': No such device\",\"object\":\"bond7\"}}\n"
stderr:
  description: rdmactl's standard error when it failed.
  returned: when rdmactl failed
  type: str
  sample: "rdmactl: bond: no bond 'bond7': No such device\n"
error_id:
  description:
    - The id of rdmactl's error document when it failed (rdmactl(8) ERRORS, for example
      C(not-found), C(busy), C(permission-denied)); null when it printed none. Act on this,
      not on I(msg).
  returned: when rdmactl failed
  type: str
  sample: "not-found"
errno:
  description: The errno of rdmactl's error document when it failed; null when it printed none.
  returned: when rdmactl failed
  type: int
  sample: 19
error_object:
  description: What rdmactl's error document is about (the bond or netdev named) when it failed; null when none.
  returned: when rdmactl failed
  type: str
  sample: "bond7"
no_dcb:
  description: Whether rdmactl's error id is C(no-dcb) (a netdev whose driver has no dcbnl operations).
  returned: when C(rdmactl bond apply) failed
  type: bool
  sample: false
cmd:
  description: The rdmactl command line that ran.
  returned: success, and when rdmactl failed
  type: list
  elements: str
  sample: ["/usr/sbin/rdmactl", "--json", "--dry-run", "bond", "apply", "-f", "-"]
rdmactl:
  description: rdmactl's JSON document, kind C(bond-change) (per bond C(changed), C(steps), C(before), C(after)).
  returned: success, but not when I(state=absent) found no bond
  type: dict
  sample: {"schema": 3, "kind": "bond-change", "changed": true, "dry_run": true,
           "bonds": [{"bond": "bond0", "changed": true, "dry_run": true,
                      "steps": [{"op": "down", "netdev": "bond0",
                                 "text": "set bond0 down (mode, lacp-rate and ad-select change only then)"},
                                {"op": "set", "netdev": "bond0", "text": "set bond0 lacp-rate slow"},
                                {"op": "up", "netdev": "bond0", "text": "set bond0 up"}], "skipped": [],
                      "before": {"bond": "bond0", "mode": "802.3ad", "admin_up": true, "carrier": true,
                                 "operstate": "up", "mtu_bytes": 9000, "miimon_ms": 100, "updelay_ms": 0,
                                 "downdelay_ms": 0, "arp_interval_ms": 0, "xmit_hash_policy": "layer3+4",
                                 "lacp_rate": "fast", "ad_select": "stable", "min_links": 0, "primary": null,
                                 "active_member": null,
                                 "ad_info": {"aggregator_id": 1, "num_ports": 2, "actor_key": 29,
                                             "partner_key": 1001, "partner_mac": "44:38:39:ff:00:01"},
                                 "members": [{"netdev": "ens1f0np0", "state": "active", "mii_status": "up",
                                              "admin_up": true, "carrier": true, "operstate": "up",
                                              "rate_gbps": 100, "duplex": "full", "mtu_bytes": 9000,
                                              "link_failure_count": 0, "perm_hwaddr": "0c:42:a1:65:9b:20",
                                              "aggregator_id": 1,
                                              "actor_port_state": {"value": 63,
                                                                   "flags": ["activity", "short_timeout",
                                                                             "aggregating", "in_sync",
                                                                             "collecting", "distributing"]},
                                              "partner_port_state": {"value": 63,
                                                                     "flags": ["activity", "short_timeout",
                                                                               "aggregating", "in_sync",
                                                                               "collecting", "distributing"]}}],
                                 "rdma": {"device": "mlx5_bond_0", "port": 1, "roce_lag": true,
                                          "soft_roce": false, "reason": null}}, "after": null}]}
'''

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible_collections.rdmactl.roce.plugins.module_utils import rdmactl as rd

# option -> the netplan parameter rdmactl reads
NETPLAN = (
    ('mode', 'mode'),
    ('mii_monitor_interval', 'mii-monitor-interval'),
    ('lacp_rate', 'lacp-rate'),
    ('transmit_hash_policy', 'transmit-hash-policy'),
    ('up_delay', 'up-delay'),
    ('down_delay', 'down-delay'),
    ('primary', 'primary'),
    ('min_links', 'min-links'),
    ('ad_select', 'ad-select'),
)


# The netplan parameters' own argument spec (netplan's '-' read as '_').
PARAMETERS_SPEC = dict(
    mode=dict(type='str', choices=['balance-rr', 'active-backup', 'balance-xor', 'broadcast',
                                   '802.3ad', 'balance-tlb', 'balance-alb']),
    mii_monitor_interval=dict(type='str'),
    lacp_rate=dict(type='str', choices=['fast', 'slow']),
    transmit_hash_policy=dict(type='str', choices=['layer2', 'layer2+3', 'layer3+4', 'encap2+3',
                                                   'encap3+4', 'vlan+srcmac']),
    up_delay=dict(type='str'),
    down_delay=dict(type='str'),
    primary=dict(type='str'),
    min_links=dict(type='int'),
    ad_select=dict(type='str', choices=['stable', 'bandwidth', 'count']),
)


def validate_parameters(module, raw):
    normalized = {}
    for key, value in (raw or {}).items():
        name = str(key).replace('-', '_')
        if name in normalized:
            module.fail_json(msg='parameters: %s given twice (as %s)' % (name, key))
        normalized[name] = value
    checked = ArgumentSpecValidator(PARAMETERS_SPEC).validate(normalized)
    if checked.error_messages:
        module.fail_json(msg='parameters: %s' % '; '.join(checked.error_messages))
    return checked.validated_parameters


def quote(value):
    """A YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return '"%s"' % str(value).replace('\\', '\\\\').replace('"', '\\"')


def netplan_document(name, interfaces, parameters):
    lines = ['network:', '  version: 2', '  bonds:', '    %s:' % quote(name)]
    if interfaces:
        lines.append('      interfaces:')
        lines += ['        - %s' % quote(i) for i in interfaces]
    params = [(key, parameters.get(opt)) for opt, key in NETPLAN
              if parameters.get(opt) is not None]
    if params:
        lines.append('      parameters:')
        lines += ['        %s: %s' % (key, quote(v)) for key, v in params]
    return '\n'.join(lines) + '\n'


def current_members(module, name):
    """The members the bond has now: what a task without 'interfaces' keeps."""
    doc, _rc, err, cmd = rd.run(module, ['bond', 'show', name], fail=False)
    if doc is None:
        args = err.fail_args()
        args['msg'] = 'interfaces: needed to create bond %s (%s)' % (name, err)
        module.fail_json(cmd=cmd, **args)
    return rd.bond_members(doc, name)


def main():
    spec = rd.rdmactl_argument_spec()
    spec.update(
        name=dict(type='str', required=True, aliases=['bond']),
        state=dict(type='str', choices=['present', 'absent'], default='present'),
        interfaces=dict(type='list', elements='str'),
        parameters=dict(type='dict', default={}),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    if p['state'] == 'absent':
        doc, _rc, err, cmd = rd.run(module, ['bond', 'delete', p['name']], dry_run=module.check_mode,
                                    fail=False)
        if doc is None:
            # Already gone is what was asked for (the error id, never the English).
            if err.id == rd.ERROR_NOT_FOUND and err.object == p['name']:
                module.exit_json(changed=False, cmd=cmd, msg=str(err))
            module.fail_json(cmd=cmd, **err.fail_args())
        module.exit_json(**rd.result(module, doc, cmd))
    # Bad parameters are the task's own error: said before anything is read.
    parameters = validate_parameters(module, p['parameters'])
    interfaces = p['interfaces']
    if interfaces is None:
        interfaces = current_members(module, p['name'])
    text = netplan_document(p['name'], interfaces, parameters)
    doc, _rc, _err, cmd = rd.run(module, ['bond', 'apply', '-f', '-'], dry_run=module.check_mode,
                                 data=text)
    res = rd.result(module, doc, cmd)
    res['netplan'] = text
    module.exit_json(**res)


if __name__ == '__main__':
    main()
