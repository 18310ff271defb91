/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procfs.h - the text of /proc/net/bonding/<bond> into a bond record */
#pragma once

#include <stddef.h>

#include "base/err.h"
#include "kernel/bondnl.h"

/*
 * Parse the @len bytes of @text, the contents of /proc/net/bonding/<bond>
 * (bond_procfs.c), into @b.  The caller has initialised @b with
 * rdc_bondnl_init() and may have filled it from netlink: only what the text
 * says is written, members are matched by name ("Slave Interface: NAME")
 * and added when new, and nothing is cleared.  The text says nothing of
 * ifindexes, MTUs, member states (active/backup) or carriers of members.
 *
 * The text is untrusted (it may come from another host's support bundle):
 * any bytes, any line length, no NUL needed.  Unknown lines and unknown
 * words in known lines are skipped (kernels add fields and names); numbers,
 * interface names and addresses in known lines must be well-formed.
 *
 * Returns 0, -EINVAL (the text does not start with "Ethernet Channel
 * Bonding Driver:", or a malformed value), -ERANGE (a number beyond what
 * its field holds) or -E2BIG (more than RDC_BOND_MAX_MEMBERS members), with
 * the line in @err.  On error @b holds what the lines before that one said.
 */
int rdc_bond_procfs_parse(const char *text, size_t len, struct rdc_bond *b, struct rdc_err *err);
