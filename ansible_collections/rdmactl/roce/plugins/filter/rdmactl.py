# -*- coding: utf-8 -*-
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright: rdmactl contributors
# GNU General Public License v2.0+ (see https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt)
"""Filters that turn rdmactl's reports into lines for people (the playbooks' tables).

Keys are read through module_utils/rdmactl.py only."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

from ansible.errors import AnsibleFilterError
from ansible_collections.rdmactl.roce.plugins.module_utils import rdmactl as rd


def _gbps(v):
    return '-' if v is None else '%.3f' % v


def _end(device, netdev, ip):
    name = device or '?'
    if netdev:
        name += ' (%s)' % netdev
    if ip:
        name += ' %s' % ip
    return name


def bench_rows(report):
    """One dict per link of a bench client report (see module_utils)."""
    if not isinstance(report, dict):
        raise AnsibleFilterError('bench_rows wants a bench report (a dict), not %r' % type(report))
    return rd.bench_links(report)


def bench_table(report, server, client):
    """The lines of one pair's table: a row per link, then the total."""
    lines = ['%s -> %s' % (client, server)]
    if not isinstance(report, dict):
        return lines + ['  no report: %s' % report]
    rows = rd.bench_links(report)
    width = max([len(_end(r['local_device'], r['local_netdev'], r['local_ip'])) for r in rows] + [5])
    lines.append('  %-*s  %-30s  %-7s  %10s' % (width, 'local', 'remote', 'status', 'Gb/s'))
    for r in rows:
        lines.append('  %-*s  %-30s  %-7s  %10s' % (
            width, _end(r['local_device'], r['local_netdev'], r['local_ip']),
            _end(r['remote_device'], r['remote_netdev'], r['remote_ip']),
            r['status'] or '-', _gbps(r['gbps'])))
        if r['error']:
            lines.append('  %-*s  %s' % (width, '', r['error']))
    lines.append('  %-*s  %-30s  %-7s  %10s' % (width, 'total', '', '', _gbps(rd.bench_total_gbps(report))))
    err = rd.bench_error(report)
    if err:
        lines.append('  error: %s' % (err.get('message') if isinstance(err, dict) else err))
    return lines


def bench_fleet(records, worst=5):
    """The fleet summary: pairs, links, total, and the WORST slowest (or failed) links.

    RECORDS: a list of dicts with server, client and report (a bench client report,
    or a string saying why there is none)."""
    links = []
    total = 0.0
    failed_pairs = []
    for rec in records or []:
        report = rec.get('report')
        if not isinstance(report, dict):
            failed_pairs.append('%s -> %s: %s' % (rec.get('client'), rec.get('server'), report))
            continue
        total += rd.bench_total_gbps(report) or 0.0
        for r in rd.bench_links(report):
            r = dict(r, server=rec.get('server'), client=rec.get('client'))
            links.append(r)
    # Failed links first, then the slowest.
    links.sort(key=lambda r: (r['status'] == 'ok', r['gbps'] if r['gbps'] is not None else -1.0))
    lines = ['fleet: %d pair(s), %d link(s), %s Gb/s in all' % (len(records or []), len(links), _gbps(total))]
    if links:
        lines.append('worst links:')
        for r in links[:int(worst)]:
            lines.append('  %s %s -> %s %s  %s  %s Gb/s' % (
                r['client'], _end(r['local_device'], r['local_netdev'], r['local_ip']),
                r['server'], _end(r['remote_device'], r['remote_netdev'], r['remote_ip']),
                r['status'] or '-', _gbps(r['gbps'])) + ('  (%s)' % r['error'] if r['error'] else ''))
    for f in failed_pairs:
        lines.append('no report: %s' % f)
    return lines


def findings_lines(finding_list, host=''):
    """One line per finding: severity, id, what it is about, title."""
    out = []
    for f in finding_list or []:
        about = f.get('netdev') or f.get('bond') or f.get('device') or ''
        prefix = host + ': ' if host else ''
        about = about + ': ' if about else ''
        out.append('%s%-4s %s %s%s' % (prefix, f.get('severity'), f.get('id'), about, f.get('title')))
    return out


class FilterModule(object):
    def filters(self):
        return {
            'bench_rows': bench_rows,
            'bench_table': bench_table,
            'bench_fleet': bench_fleet,
            'findings_lines': findings_lines,
        }
