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
          sample: [{"device": "mlx5_bond_0", "port": 1, "link_layer": "Ethernet", "state": "ACTIVE",
                    "phys_state": "LINK_UP", "rate_gbps": 100, "rate_lanes": "2X HDR", "lid": null,
                    "sm_lid": null, "netdev": "bond0", "upper": null, "admin_up": true, "carrier": true,
                    "operstate": "up", "mtu_bytes": 9000, "active_mtu_bytes": 4096,
                    "active_mtu_limited": false, "bond_mode": "802.3ad",
                    "members": ["ens1f0np0", "ens1f1np1"], "node_type": "CA", "fw_ver": "22.39.1002",
                    "board_id": "MT_0000000359", "hca_type": "MT4125", "node_guid": "0c42:a103:0065:9b20",
                    "sys_image_guid": "0c42:a103:0065:9b20", "driver": "mlx5_core", "pci": "0000:3b:00.0",
                    "numa_node": 0,
                    "pcie": {"current_speed_gts": 16, "current_width": 16, "max_speed_gts": 16,
                             "max_width": 16, "degraded": false}}]
        rdma_netdevs:
          description:
            - The netdevs of the RDMA ports, once each, as C(port show) names them - the port's
              own netdev, which under RoCE LAG (and rxe on a bond) is the bond, so a bond
              appears here. C(rdmactl.roce.pfc) takes a bond and configures its members.
            - For the physical ports and the bond each is used through, see I(rdma_ports).
          type: list
          elements: str
          returned: when ports are gathered
          sample: ["bond0"]
        rdma_ports:
          description:
            - Each RDMA port with its own netdev (C(netdev)), the bond it is a member of
              (C(upper), null if none), and under RoCE LAG the bond's mode and members
              (C(bond_mode), C(members)).
          type: list
          elements: dict
          returned: when ports are gathered
          sample: [{"device": "mlx5_bond_0", "port": 1, "netdev": "bond0", "upper": null,
                    "bond_mode": "802.3ad", "members": ["ens1f0np0", "ens1f1np1"], "state": "ACTIVE",
                    "link_layer": "Ethernet"}]
        gids:
          description: C(rdmactl port gids)'s GIDs.
          type: list
          elements: dict
          returned: when gathered
          sample: [{"device": "mlx5_bond_0", "port": 1, "index": 3,
                    "gid": "0000:0000:0000:0000:0000:ffff:c0a8:1e0b", "ip": "192.168.30.11",
                    "ip_family": "ipv4", "type": "RoCE v2", "netdev": "bond0", "netdev_in_netns": true,
                    "link_local": false, "recommended": true}]
        ipv4:
          description: The IPv4 addresses of the RoCE GIDs, once each.
          type: list
          elements: str
          returned: when gids are gathered
          sample: ["192.168.30.11"]
        dcb:
          description: C(rdmactl pfc show)'s devices (PFC, ETS, trust, DSCP map, ...).
          type: list
          elements: dict
          returned: when gathered
          sample: [{"netdev": "ens1f0np0", "upper": "bond0", "relation": "roce_lag",
                    "dcbx": {"source": "dcbnl", "reason": null, "host": true, "lld_managed": false,
                             "cee": true, "ieee": true, "static": false},
                    "pfc": {"source": "dcbnl", "reason": null, "pfc_cap": 8, "delay_bits": 7,
                            "enabled_prios": [3],
                            "prios": [{"prio": 3, "enabled": true, "tx_pfc_frames": 62655,
                                       "rx_pfc_frames": 799053, "tx_pause_duration_us": 125310,
                                       "rx_pause_duration_us": 13583901}], "pause_duration_source": "ethtool"},
                    "trust": {"source": "dcbnl-app", "reason": null, "value": "dscp"},
                    "dscp_prio": {"source": "dcbnl-app", "reason": null,
                                  "map": [{"dscp": 26, "prio": 3}, {"dscp": 48, "prio": 6}]},
                    "ets": {"source": "dcbnl", "reason": null, "ets_cap": 8, "willing": false,
                            "prio_tc": [0, 0, 0, 3, 0, 0, 6, 0],
                            "tc_tsa": ["ets", "strict", "strict", "ets", "strict", "strict", "strict",
                                       "strict"], "tc_bw_pct": [50, 100, 100, 50, 100, 100, 100, 100]},
                    "maxrate": {"source": "dcbnl", "reason": null,
                                "tc_maxrate_kbps": [0, 0, 0, 0, 0, 0, 0, 0]},
                    "buffer": {"source": "dcbnl", "reason": null, "prio_buffer": [0, 0, 0, 0, 0, 0, 0, 0],
                               "buffer_size_bytes": [262016, 0, 0, 0, 0, 0, 0, 0], "total_size_bytes": 262016},
                    "ecn": {"source": "unknown", "reason": "no MLNX_OFED ecn sysfs on this driver",
                            "prios": null},
                    "cnp": {"source": "unknown", "reason": "no MLNX_OFED ecn sysfs on this driver",
                            "dscp": null, "prio": null},
                    "roce": [{"device": "mlx5_bond_0", "port": 1, "source": "configfs", "reason": null,
                              "default_roce_mode": "RoCE v2", "default_roce_tos": 106}],
                    "verdict": {"profile": "roce-lossless", "prio": 3, "dscp": 26, "cnp_dscp": 48,
                                "cnp_prio": 6, "matches": true, "reason": null, "differences": [],
                                "fix_command": null, "fix_argv": null}}]
        no_dcb:
          description: The netdevs whose driver implements no dcbnl operations (virtio, veth).
          type: list
          elements: str
          returned: when dcb is gathered
          sample: ["eth0", "eth1"]
        bonds:
          description: C(rdmactl bond show)'s bonds.
          type: list
          elements: dict
          returned: when gathered
          sample: [{"bond": "bond0", "mode": "802.3ad", "admin_up": true, "carrier": true, "operstate": "up",
                    "mtu_bytes": 9000, "miimon_ms": 100, "updelay_ms": 0, "downdelay_ms": 0,
                    "arp_interval_ms": 0, "xmit_hash_policy": "layer3+4", "lacp_rate": "fast",
                    "ad_select": "stable", "min_links": 0, "primary": null, "active_member": null,
                    "ad_info": {"aggregator_id": 1, "num_ports": 2, "actor_key": 29, "partner_key": 1001,
                                "partner_mac": "44:38:39:ff:00:01"},
                    "members": [{"netdev": "ens1f0np0", "state": "active", "mii_status": "up",
                                 "admin_up": true, "carrier": true, "operstate": "up", "rate_gbps": 100,
                                 "duplex": "full", "mtu_bytes": 9000, "link_failure_count": 0,
                                 "perm_hwaddr": "0c:42:a1:65:9b:20", "aggregator_id": 1,
                                 "actor_port_state": {"value": 63,
                                                      "flags": ["activity", "short_timeout", "aggregating",
                                                                "in_sync", "collecting", "distributing"]},
                                 "partner_port_state": {"value": 63,
                                                        "flags": ["activity", "short_timeout", "aggregating",
                                                                  "in_sync", "collecting", "distributing"]}}],
                    "rdma": {"device": "mlx5_bond_0", "port": 1, "roce_lag": true, "soft_roce": false,
                             "reason": null}}]
        diag:
          description: diag's findings (id, severity, title, what about) and their count by
            severity (C(summary) with C(fail), C(warn), C(info)).
          type: dict
          returned: when gathered
          sample: {"findings": [{"id": "link.crc-errors", "severity": "warn",
                                 "title": "receive errors since the counters were reset: symbol_error 1",
                                 "device": "mlx5_bond_0", "port": 1, "netdev": "ens1f0np0"},
                                {"id": "qos.lossless-drops", "severity": "warn",
                                 "title": "9 packets dropped for lack of receive buffer since boot/counter
                                          reset while PFC is on", "device": "mlx5_bond_0", "port": 1,
                                 "netdev": "ens1f0np0"}], "summary": {"fail": 0, "warn": 8, "info": 2}}
        errors:
          description: rdmactl's message for each part it could not read.
          type: dict
          returned: always
          sample: {"dcb": "rdmactl: pfc: cannot read DCB of 'ib0': No data available"}
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
