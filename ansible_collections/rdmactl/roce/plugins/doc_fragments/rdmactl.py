# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type


class ModuleDocFragment(object):
    # The options every module passes to rdmactl itself (module_utils/rdmactl.py
    # rdmactl_argument_spec), written once.
    DOCUMENTATION = r'''
options:
  rdmactl:
    description: The rdmactl binary on the managed host, a name looked up in PATH or a path.
    type: str
    default: rdmactl
  root:
    description:
      - Read a captured host (a C(rdmactl diag collect) bundle or a fixture) below this directory
        instead of the running one. Writes are refused there; check mode works.
    type: path
  netns:
    description:
      - Run rdmactl in this network namespace (C(rdmactl --netns)) - a name that C(ip netns)
        made under C(/run/netns), or a path such as C(/proc/PID/ns/net) - to read and configure
        the netdevs and RDMA devices a container or a namespaced workload sees.
    type: str
    version_added: "1.2.0"
'''
