#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: facts
short_description: RDMA ports, GIDs, DCB, bonds and a diag summary as host facts
description:
  - Gathers what C(rdmactl --json) reports of the managed host into C(ansible_facts.rdmactl)
    (C(port show), C(port gids), C(pfc show), C(bond show), C(diag run)).
  - A part rdmactl cannot read (a host without RDMA devices, a netdev without DCB) is recorded
    in C(errors) with rdmactl's message instead of failing the task.
version_added: "1.0.0"
author:
  - rdmactl contributors (@rdmactl)
extends_documentation_fragment:
  - rdmactl.roce.rdmactl
options:
  gather:
    description: What to gather.
    type: list
    elements: str
    choices: [ports, gids, dcb, bonds, diag]
    default: [ports, gids, dcb, bonds, diag]
  netdevs:
    description:
      - The netdevs whose DCB to read. Default, the netdevs of the RDMA ports (rdmactl's
        C(pfc show) without a device).
    type: list
    elements: str
  diag_interval:
    description: Seconds between diag's two counter samples (0, the default, is one sample).
    type: float
    default: 0
  diag_args:
    description:
      - More words for C(rdmactl diag run), e.g. C([profile, roce-lossless, prio, 3]) or
        C([skip, qos]).
    type: list
    elements: str
    default: []
attributes:
  check_mode:
    description: Only reads; runs the same in check mode.
    support: full
  diff_mode:
    description: Changes nothing, so there is no diff.
    support: none
  facts:
    description: Sets C(ansible_facts.rdmactl).
    support: full
notes:
  - Reads only; safe in check mode.
'''

EXAMPLES = r'''
- name: Everything, with diag judging the lossless profile
  rdmactl.roce.facts:
    diag_args: [profile, roce-lossless]

- name: Only the ports and their GIDs
  rdmactl.roce.facts:
    gather: [ports, gids]

- name: The RDMA netdevs
  ansible.builtin.debug:
    var: ansible_facts.rdmactl.rdma_netdevs
'''

RETURN = r'''
ansible_facts:
  description: The facts.
  returned: always
  type: complex
  contains:
    rdmactl:
      description: What rdmactl reported, by part.
      returned: always
      type: complex
      contains:
        ports:
          description: C(rdmactl port show)'s ports (device, port, netdev, state, MTUs ...).
          type: list
          elements: dict
          returned: when gathered
        rdma_netdevs:
          description:
            - The netdevs of the RDMA ports, once each, as C(port show) names them - the port's
              own netdev, which under RoCE LAG (and rxe on a bond) is the bond, so a bond
              appears here. C(rdmactl.roce.pfc) takes a bond and configures its members.
            - For the physical ports and the bond each is used through, see I(rdma_ports).
          type: list
          elements: str
          returned: when ports are gathered
        rdma_ports:
          description:
            - Each RDMA port with its own netdev (C(netdev)), the bond it is a member of
              (C(upper), null if none), and under RoCE LAG the bond's mode and members
              (C(bond_mode), C(members)).
          type: list
          elements: dict
          returned: when ports are gathered
          sample: [{"device": "mlx5_3", "port": 1, "netdev": "ens2f1np1", "upper": "bond1",
                    "bond_mode": null, "members": null, "state": "ACTIVE",
                    "link_layer": "Ethernet"}]
        gids:
          description: C(rdmactl port gids)'s GIDs.
          type: list
          elements: dict
          returned: when gathered
        ipv4:
          description: The IPv4 addresses of the RoCE GIDs, once each.
          type: list
          elements: str
          returned: when gids are gathered
        dcb:
          description: C(rdmactl pfc show)'s devices (PFC, ETS, trust, DSCP map, ...).
          type: list
          elements: dict
          returned: when gathered
        no_dcb:
          description: The netdevs whose driver implements no dcbnl operations (virtio, veth).
          type: list
          elements: str
          returned: when dcb is gathered
        bonds:
          description: C(rdmactl bond show)'s bonds.
          type: list
          elements: dict
          returned: when gathered
        diag:
          description: diag's findings (id, severity, title, what about) and their count by
            severity (C(summary) with C(fail), C(warn), C(info)).
          type: dict
          returned: when gathered
          sample: {"summary": {"fail": 0, "warn": 1, "info": 0},
                   "findings": [{"id": "qos.pfc-too-many", "severity": "warn",
                                 "title": "PFC is on the CNP priority 6", "netdev": "ens1f0np0"}]}
        errors:
          description: rdmactl's message for each part it could not read.
          type: dict
          returned: always
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.roce.plugins.module_utils import rdmactl as rd


def main():
    spec = rd.rdmactl_argument_spec()
    parts = ['ports', 'gids', 'dcb', 'bonds', 'diag']
    spec.update(
        gather=dict(type='list', elements='str', choices=parts, default=parts),
        netdevs=dict(type='list', elements='str'),
        diag_interval=dict(type='float', default=0),
        diag_args=dict(type='list', elements='str', default=[]),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    facts = dict(errors={})
    errors = facts['errors']

    def read(part, args, ok_rcs=(0,)):
        doc, _rc, err, _cmd = rd.run(module, args, ok_rcs=ok_rcs, fail=False)
        if doc is None:
            errors[part] = str(err)
        return doc

    if 'ports' in p['gather']:
        doc = read('ports', ['port', 'show'])
        facts['ports'] = rd.ports(doc) if doc else []
        facts['rdma_netdevs'] = rd.rdma_netdevs(facts['ports'])
        facts['rdma_ports'] = rd.rdma_ports(facts['ports'])
    if 'gids' in p['gather']:
        doc = read('gids', ['port', 'gids'])
        facts['gids'] = rd.gids(doc) if doc else []
        facts['ipv4'] = rd.ipv4_addresses(facts['gids'])
    if 'dcb' in p['gather']:
        facts['dcb'] = []
        for dev in p['netdevs'] or [None]:
            doc = read('dcb' if dev is None else 'dcb ' + dev,
                       ['pfc', 'show'] + ([] if dev is None else ['dev', dev]))
            facts['dcb'] += rd.dcb_devices(doc) if doc else []
        facts['no_dcb'] = [rd.dcb_netdev(d) for d in facts['dcb'] if rd.dcb_supported(d) is False]
    if 'bonds' in p['gather']:
        doc = read('bonds', ['bond', 'show'])
        facts['bonds'] = rd.bonds(doc) if doc else []
    if 'diag' in p['gather']:
        # diag exits 1 with failures and 3 with warnings: both are a report.
        doc = read('diag', ['diag', 'run', 'interval', p['diag_interval']] + p['diag_args'],
                   ok_rcs=(0, 1, 3))
        found = rd.findings(doc) if doc else []
        facts['diag'] = dict(findings=found, summary=rd.summary(found))
    module.exit_json(changed=False, ansible_facts=dict(rdmactl=facts))


if __name__ == '__main__':
    main()
