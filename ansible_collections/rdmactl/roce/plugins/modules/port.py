#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: port
short_description: MTU and up/down of an RDMA port's netdev
description:
  - Sets the MTU and the administrative state of a netdev, named directly or by the RDMA port
    or address on it, with C(rdmactl port set) over rtnetlink.
  - A thin wrapper around C(rdmactl --json); only what differs is sent, then read back, and the
    old state is put back on failure. C(changed) is rdmactl's.
  - Check mode runs rdmactl with C(--dry-run); diff mode shows rdmactl's C(before) and C(after).
version_added: "1.0.0"
author:
  - rdmactl contributors (@rdmactl)
extends_documentation_fragment:
  - rdmactl.roce.rdmactl
options:
  dev:
    description: The netdev, an RDMA C(DEV[/PORT]), or an address on the netdev.
    type: str
    required: true
    aliases: [netdev, name]
  mtu:
    description: The netdev MTU in bytes (68-65535).
    type: int
  state:
    description: Bring the netdev up or take it down.
    type: str
    choices: [up, down]
attributes:
  check_mode:
    description: Runs rdmactl with C(--dry-run), which reports what would change and sends nothing.
    support: full
  diff_mode:
    description: Returns rdmactl's C(before) and C(after) of each object it changes.
    support: full
notes:
  - Needs C(rdmactl) on the managed host and root (CAP_NET_ADMIN) to write.
'''

EXAMPLES = r'''
- name: Jumbo frames on the RoCE port, up
  rdmactl.roce.port:
    dev: ens1f0np0
    mtu: 9000
    state: up

- name: The port of mlx5_1, by its RDMA name
  rdmactl.roce.port:
    dev: mlx5_1/1
    mtu: 4200
'''

RETURN = r'''
changed:
  description: rdmactl's top-level C(changed) (in check mode, whether it would change).
  returned: always
  type: bool
  sample: true
dry_run:
  description: Whether rdmactl ran with C(--dry-run) (check mode).
  returned: success
  type: bool
  sample: true
msg:
  description: rdmactl's message when it failed.
  returned: failure
  type: str
  sample: "rdmactl: port: no RDMA device or network interface 'nosuch0'"
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
          RDMA device or network interface 'nosuch0'\",\"object\":\"nosuch0\"}}\n"
stderr:
  description: rdmactl's standard error when it failed.
  returned: when rdmactl failed
  type: str
  sample: "rdmactl: port: no RDMA device or network interface 'nosuch0'\n"
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
  description: What rdmactl's error document is about (the netdev or device named) when it failed; null when none.
  returned: when rdmactl failed
  type: str
  sample: "nosuch0"
no_dcb:
  description: Whether rdmactl's error id is C(no-dcb) (a netdev whose driver has no dcbnl operations).
  returned: when rdmactl failed
  type: bool
  sample: false
cmd:
  description: The rdmactl command line that ran.
  returned: success, and when rdmactl failed
  type: list
  elements: str
  sample: ["/usr/sbin/rdmactl", "--json", "--dry-run", "port", "set", "ens1f0np0", "mtu", "4200", "up"]
rdmactl:
  description: rdmactl's JSON document, kind C(port-change) (C(changed), C(before), C(after)).
  returned: success
  type: dict
  sample: {"schema": 3, "kind": "port-change", "netdev": "ens1f0np0", "changed": true, "dry_run": true,
           "before": {"mtu_bytes": 9000, "admin_up": true, "carrier": true, "operstate": "up"},
           "after": {"mtu_bytes": 4200, "admin_up": true, "carrier": true, "operstate": "up"}}
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.roce.plugins.module_utils import rdmactl as rd


def main():
    spec = rd.rdmactl_argument_spec()
    spec.update(
        dev=dict(type='str', required=True, aliases=['netdev', 'name']),
        mtu=dict(type='int'),
        state=dict(type='str', choices=['up', 'down']),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True,
                           required_one_of=[['mtu', 'state']])
    p = module.params
    args = ['port', 'set', p['dev']]
    if p['mtu'] is not None:
        if not 68 <= p['mtu'] <= 65535:
            module.fail_json(msg='mtu must be 68-65535, not %d' % p['mtu'])
        args += ['mtu', p['mtu']]
    if p['state']:
        args.append(p['state'])
    doc, _rc, _err, cmd = rd.run(module, args, dry_run=module.check_mode)
    module.exit_json(**rd.result(module, doc, cmd))


if __name__ == '__main__':
    main()
