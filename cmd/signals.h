/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signals.h - SIGINT, SIGTERM and SIGHUP held off while a change is written or undone */
#pragma once

#include <signal.h>

#include "base/err.h"
#include "cmd.h"

/*
 * A write and its rollback are one critical section: a signal that killed the
 * process between a step and its undo would leave the device half changed.
 *
 *   rdc_sig_defer_begin();                 the signals only record themselves
 *   for each step: if (rdc_sig_pending()) stop; write it
 *   on a failure or a pending signal: undo what was written
 *   sig = rdc_sig_defer_end();             old handlers back; 0 or the signal
 *   if (sig) return rdc_sig_report(ctx, sig, undo_failed ? &undo_err : NULL);
 *
 * The handlers are installed with SA_RESTART: a netlink recv() under way
 * finishes instead of failing with EINTR, which would lose the kernel's answer
 * to a request it may have carried out.  A second signal is recorded like the
 * first (the first is the one reported); a signal ignored on entry stays
 * ignored; SIGKILL, as ever, is not deferred.  Not nestable.
 */
void rdc_sig_defer_begin(void);
/* The first signal that arrived since rdc_sig_defer_begin(), or 0. */
int rdc_sig_pending(void);
/* The same as a flag an engine polls between its steps (rdc_bond_plan_apply). */
volatile sig_atomic_t *rdc_sig_flag(void);
/* Put the previous handlers back; returns the signal that arrived in between, or 0. */
int rdc_sig_defer_end(void);
/*
 * "rdmactl: VERB: interrupted, old state restored (SIGTERM)" and 128 + @sig,
 * the status a shell gives a process the signal killed; or, when @undo (not
 * NULL) says restoring failed, that error and RDC_EXIT_FAIL.
 */
int rdc_sig_report(struct rdc_ctx *ctx, int sig, const struct rdc_err *undo);
/*
 * After rdc_sig_report() restored the old state: flush, and die by the signal
 * itself (default action), so that a calling shell sees the interrupt as such
 * and stops its script, as it would had the signal not been deferred.  Called
 * by main() once everything is written; returns when no signal was deferred.
 */
void rdc_sig_die_if_interrupted(void);
/*
 * The end of a deferred write: rdc_sig_defer_end(), then the write's own
 * failure (@rc, @err: it says itself whether the old state came back; a signal
 * changes nothing), else the signal's report (@undo_rc non-zero: @undo says
 * why restoring failed), else 0.
 */
int rdc_sig_finish(struct rdc_ctx *ctx, int rc, struct rdc_err *err, int undo_rc,
		   const struct rdc_err *undo);
/* "SIGINT", "SIGTERM", "SIGHUP" or "signal N". */
const char *rdc_sig_name(int sig, char *buf, size_t len);
