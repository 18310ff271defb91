/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signals.h - every signal handler of rdmactl: held off around a write, or a stop flag for a wait */
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
 * changes nothing, but -EINTR from a plan the signal stopped is the signal's),
 * else the signal's report (@undo_rc non-zero: @undo says why restoring
 * failed), else 0.
 */
int rdc_sig_finish(struct rdc_ctx *ctx, int rc, struct rdc_err *err, int undo_rc,
		   const struct rdc_err *undo);
/*
 * The other kind of run, one that waits or streams (diag's and metrics'
 * interval, a bench client or server, bond failover): SIGINT and SIGTERM end
 * it early and cleanly by setting the flag returned, which its loop polls.
 * RDC_SIG_STOP_RESTART keeps a netlink read under way going (SA_RESTART);
 * without it a blocking call returns EINTR at once (sockets, poll).
 * RDC_SIG_STOP_NO_SIGPIPE ignores SIGPIPE: a peer's closed socket is an
 * error of the write, not the end of the process.  Unlike a write's, these
 * are installed even over a signal ignored on entry (a script's background
 * job has SIGINT ignored and is still ended by kill -INT), as they always
 * were.  rdc_sig_stop_end() puts the previous handlers back (a run
 * that ends with the process may leave them).  Not nestable, and not inside
 * rdc_sig_defer_begin().
 */
enum {
	RDC_SIG_STOP_RESTART = 1 << 0,
	RDC_SIG_STOP_NO_SIGPIPE = 1 << 1,
};
volatile sig_atomic_t *rdc_sig_stop_begin(unsigned int flags);
void rdc_sig_stop_end(void);

/* "SIGINT", "SIGTERM", "SIGHUP" or "signal N". */
const char *rdc_sig_name(int sig, char *buf, size_t len);
