/* SPDX-License-Identifier: GPL-2.0-or-later */
/* write.h - a verb's write: its undo journal, the commit, and --confirm's revert */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/change.h"
#include "base/journal.h"
#include "cmd.h"

#define RDC_CONFIRM_MAX_S 86400 /* --confirm SEC: 1 s to a day */

/*
 * Commit @changes (base/change.h) as a verb's write: when the run holds its
 * netdevs' locks (root, live), their plans go into an undo journal first
 * (base/journal.h) and the journal goes when the write is verified or undone;
 * one whose undo failed is kept, for `rdmactl undo`.  Under --confirm SEC a
 * verified write leaves its journal pending, a detached watcher restores it
 * when SEC pass unless `rdmactl confirm` came, and the dispatcher waits for
 * it on a terminal (rdc_confirm_wait).  Returns res->rc, or the journal's
 * failure before anything was sent (then nothing is).  Nothing is applied,
 * -EPERM, unless the gate is open and the action asked (rdc_writes_allowed).
 */
int rdc_write_commit(struct rdc_ctx *ctx, const struct rdc_change *changes, size_t n,
		     volatile sig_atomic_t *stop, struct rdc_change_result *res,
		     struct rdc_err *err);

/*
 * After the verb's report, a write awaiting confirmation: say how to confirm;
 * on a terminal wait for Enter (confirmed) until the deadline (restored,
 * RDC_EXIT_FAIL); SIGINT or SIGTERM there restore at once.  Off a terminal
 * it returns at once and the watcher keeps the deadline.  Frees the journal.
 */
int rdc_confirm_wait(struct rdc_ctx *ctx);

/* The journal kinds this build knows (for rdc_journal_plans). */
extern const struct rdc_change_ops *const rdc_journal_kinds[];

/*
 * Settle journal @path under the locks of its netdevs (taken in the order it
 * lists them, the same for everyone): with @restore, put the state before it
 * back (ops->restore, newest first) and remove it; without, just remove it
 * (confirm).  @j gets what the journal said.  -ENOENT: settled by someone
 * else meanwhile.  A restore that fails keeps the journal.
 */
int rdc_journal_settle(const char *path, bool restore, struct rdc_journal *j, struct rdc_err *err);

/*
 * Whether a journal of this network namespace holds @ifname: 0 none,
 * -EBUSY with the journal named and what to do (undo or confirm).
 */
int rdc_journal_guard(const char *ifname, struct rdc_err *err);
