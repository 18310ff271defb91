# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
name: rdmactl_lab
short_description: Run tasks in rdmactl's lab VMs through scripts/lab
description:
  - Reaches the two qemu VMs of rdmactl's lab (C(scripts/lab up)), which have no ssh.
    Commands go through C(scripts/lab run HOST CMD) (bash in the VM, like ssh); files move
    through the VM's writable 9p spool share (C(.lab/run/spool-HOST) on this machine,
    C(/run/lab/spool) in the VM).
  - The VMs mount this machine's C(/) read-only, so their python3 and the checkout's
    C(./rdmactl) are this machine's; C(/root) and C(/tmp) are tmpfs in the VMs, so Ansible's
    default remote tmp works.
author:
  - rdmactl contributors (@rdmactl)
options:
  remote_addr:
    description: The lab host, C(a) or C(b).
    type: str
    default: inventory_hostname
    vars:
      - name: inventory_hostname
      - name: ansible_host
  lab_script:
    description: The checkout's C(scripts/lab).
    type: path
    default: scripts/lab
    env:
      - name: RDMACTL_LAB
    vars:
      - name: ansible_lab_script
  lab_run_dir:
    description:
      - The running lab's folder of run files (C(LAB_RUN)); default C(LAB_DIR/run), or the
        checkout's C(.lab/run) next to I(lab_script).
    type: path
    env:
      - name: LAB_RUN
    vars:
      - name: ansible_lab_run_dir
  lab_timeout:
    description: Seconds one command may run in the VM (scripts/lab's C(LAB_TIMEOUT)).
    type: int
    default: 900
    vars:
      - name: ansible_lab_timeout
extends_documentation_fragment:
  - connection_pipelining
notes:
  - With pipelining on (C(ansible_pipelining=true)), a module's code goes to the VM through the
    spool as the command's standard input, so a task costs one C(scripts/lab run) instead of four or
    five, each of which costs a second or more under TCG.
'''

import os
import shlex
import shutil
import subprocess
import uuid

from ansible.errors import AnsibleConnectionFailure, AnsibleError
from ansible.module_utils.common.text.converters import to_bytes, to_native, to_text
from ansible.plugins.connection import ConnectionBase
from ansible.utils.display import Display

display = Display()

# Where the VM sees its spool share (scripts/lab-guest).
GUEST_SPOOL = '/run/lab/spool'


class Connection(ConnectionBase):
    """Commands by 'scripts/lab run', files through the 9p spool."""

    transport = 'rdmactl_lab'
    # The guest runs each command with stdin from /dev/null; standard input is
    # handed over as a file in the spool instead.
    has_pipelining = True
    has_tty = False

    def __init__(self, *args, **kwargs):
        super(Connection, self).__init__(*args, **kwargs)
        self._lab = None
        self._host = None
        self._spool = None

    def _connect(self):
        if self._connected:
            return self
        lab = os.path.abspath(os.path.expanduser(self.get_option('lab_script')))
        if not os.access(lab, os.X_OK):
            raise AnsibleConnectionFailure('no executable lab script at %s (set ansible_lab_script)' % lab)
        host = self.get_option('remote_addr')
        if host not in ('a', 'b'):
            raise AnsibleConnectionFailure("lab host must be 'a' or 'b', not %r (set ansible_host)" % host)
        # scripts/lab's defaults: LAB_RUN, else LAB_DIR/run, else the checkout's .lab/run.
        lab_dir = os.environ.get('LAB_DIR') or os.path.join(os.path.dirname(os.path.dirname(lab)), '.lab')
        run_dir = self.get_option('lab_run_dir') or os.path.join(lab_dir, 'run')
        spool = os.path.join(run_dir, 'spool-%s' % host)
        if not os.path.isdir(spool):
            raise AnsibleConnectionFailure('lab host %s is not up (no %s; scripts/lab up)' % (host, spool))
        self._lab, self._host, self._spool = lab, host, spool
        self._connected = True
        return self

    def _lab_run(self, cmd):
        env = dict(os.environ, LAB_TIMEOUT=str(self.get_option('lab_timeout')))
        argv = [self._lab, 'run', self._host, cmd]
        display.vvv(u'LAB RUN %s: %s' % (self._host, to_text(cmd)), host=self._host)
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
        out, err = p.communicate()
        # scripts/lab's own failures: the host is not running, went away.
        if p.returncode == 255 or (p.returncode == 1 and err.startswith(b'lab: ') and
                                   (b'is not running' in err or b'still booting' in err)):
            raise AnsibleConnectionFailure('lab host %s: %s' % (self._host, to_native(err.strip())))
        return p.returncode, out, err

    def exec_command(self, cmd, in_data=None, sudoable=True):
        super(Connection, self).exec_command(cmd, in_data=in_data, sudoable=sudoable)
        self._connect()
        if not in_data:
            return self._lab_run(to_text(cmd))
        name = self._spool_name()
        local = os.path.join(self._spool, name)
        with open(local + '.tmp', 'wb') as f:
            f.write(to_bytes(in_data))
        os.rename(local + '.tmp', local)
        try:
            return self._lab_run('exec <%s\n%s' % (shlex.quote(GUEST_SPOOL + '/' + name), to_text(cmd)))
        finally:
            os.unlink(local)

    def _spool_name(self):
        return 'xfer-%s' % uuid.uuid4().hex

    def put_file(self, in_path, out_path):
        super(Connection, self).put_file(in_path, out_path)
        self._connect()
        display.vvv(u'PUT %s TO %s' % (in_path, out_path), host=self._host)
        if not os.path.exists(to_bytes(in_path, errors='surrogate_or_strict')):
            raise AnsibleError('file or module does not exist: %s' % to_native(in_path))
        name = self._spool_name()
        local = os.path.join(self._spool, name)
        shutil.copyfile(in_path, local + '.tmp')
        os.rename(local + '.tmp', local)
        try:
            rc, _out, err = self._lab_run('cp -- %s %s' % (
                shlex.quote(GUEST_SPOOL + '/' + name), shlex.quote(to_text(out_path))))
        finally:
            os.unlink(local)
        if rc != 0:
            raise AnsibleError('failed to put %s to %s: %s' % (in_path, out_path, to_native(err)))

    def fetch_file(self, in_path, out_path):
        super(Connection, self).fetch_file(in_path, out_path)
        self._connect()
        display.vvv(u'FETCH %s TO %s' % (in_path, out_path), host=self._host)
        name = self._spool_name()
        local = os.path.join(self._spool, name)
        rc, _out, err = self._lab_run('cp -- %s %s' % (
            shlex.quote(to_text(in_path)), shlex.quote(GUEST_SPOOL + '/' + name)))
        try:
            if rc != 0:
                raise AnsibleError('failed to fetch %s: %s' % (in_path, to_native(err)))
            shutil.copyfile(local, out_path)
        finally:
            if os.path.exists(local):
                os.unlink(local)

    def close(self):
        self._connected = False
