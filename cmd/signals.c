// SPDX-License-Identifier: GPL-2.0-or-later
/* signals.c - SIGINT, SIGTERM and SIGHUP deferred around a write; a stop flag for a wait */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/log.h"
#include "base/util.h"
#include "signals.h"

/* SIGHUP too: a closed ssh session mid-apply is the common way to lose the terminal. */
static const int sig_deferred[] = {SIGINT, SIGTERM, SIGHUP};

static volatile sig_atomic_t sig_first;
static struct sigaction sig_old[RDC_ARRAY_SIZE(sig_deferred)];
static bool sig_active;

/* Async-signal-safe: one store; the first signal is the one reported. */
static void sig_record_cb(int sig)
{
	if (!sig_first)
		sig_first = sig;
}

void rdc_sig_defer_begin(void)
{
	struct sigaction sa = {.sa_handler = sig_record_cb, .sa_flags = SA_RESTART};

	assert(!sig_active && "rdc_sig_defer_begin() does not nest");
	sig_active = true;
	sig_first = 0;
	/* The handler runs with all three blocked: one record at a time. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sig_deferred); i++)
		sigaddset(&sa.sa_mask, sig_deferred[i]);
	/*
	 * A signal ignored on entry (nohup, or SIGINT of a shell's background
	 * job) stays ignored: it was never going to stop us.
	 */
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sig_deferred); i++)
		if (!sigaction(sig_deferred[i], NULL, &sig_old[i]) &&
		    sig_old[i].sa_handler != SIG_IGN)
			sigaction(sig_deferred[i], &sa, NULL);
}

/* ---- a run that waits: a flag to stop at ---- */

static const int sig_stops[] = {SIGINT, SIGTERM, SIGPIPE};
static volatile sig_atomic_t sig_stop;
static struct sigaction sig_stop_old[RDC_ARRAY_SIZE(sig_stops)];
static bool sig_stop_active;

static void sig_stop_cb(int sig)
{
	(void)sig;
	sig_stop = 1;
}

volatile sig_atomic_t *rdc_sig_stop_begin(unsigned int flags)
{
	struct sigaction sa = {.sa_handler = sig_stop_cb};
	struct sigaction ign = {.sa_handler = SIG_IGN};

	assert(!sig_stop_active && !sig_active && "rdc_sig_stop_begin() does not nest");
	sig_stop_active = true;
	sig_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	if (flags & RDC_SIG_STOP_RESTART)
		sa.sa_flags = SA_RESTART;
	/*
	 * Installed even over SIG_IGN: a script's background job starts with
	 * SIGINT ignored, and `kill -INT` is still how it ends a bench server.
	 */
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sig_stops); i++) {
		if (sigaction(sig_stops[i], NULL, &sig_stop_old[i]))
			continue;
		if (sig_stops[i] != SIGPIPE)
			sigaction(sig_stops[i], &sa, NULL);
		else if (flags & RDC_SIG_STOP_NO_SIGPIPE)
			sigaction(SIGPIPE, &ign, NULL);
	}
	return &sig_stop;
}

void rdc_sig_stop_end(void)
{
	assert(sig_stop_active && "rdc_sig_stop_end() without begin");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sig_stops); i++)
		sigaction(sig_stops[i], &sig_stop_old[i], NULL);
	sig_stop_active = false;
}

/* ---- a write: signals held off ---- */

int rdc_sig_pending(void)
{
	return sig_first;
}

volatile sig_atomic_t *rdc_sig_flag(void)
{
	return &sig_first;
}

int rdc_sig_defer_end(void)
{
	assert(sig_active && "rdc_sig_defer_end() without begin");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sig_deferred); i++)
		sigaction(sig_deferred[i], &sig_old[i], NULL);
	sig_active = false;
	return sig_first;
}

const char *rdc_sig_name(int sig, char *buf, size_t len)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	default:
		snprintf(buf, len, "signal %d", sig);
		return buf;
	}
}

/* The signal whose rollback finished: main() ends the process by it. */
static int sig_to_raise;

int rdc_sig_report(struct rdc_ctx *ctx, int sig, const struct rdc_err *undo)
{
	struct rdc_err err = {0};
	char buf[24];

	if (undo) {
		sig_to_raise = 0; /* a failed restore is an error to report, exit 1 */
		rdc_err_set(&err, undo->code, "interrupted (%s), restoring the old state failed",
			    rdc_sig_name(sig, buf, sizeof(buf)));
		rdc_err_detail(&err, "%s", undo->msg);
		if (undo->detail[0])
			rdc_err_append(&err, "%s", undo->detail);
		return rdc_fail(ctx, &err);
	}
	rdc_err_set(&err, 0, "interrupted, old state restored");
	rdc_err_detail(&err, "%s", rdc_sig_name(sig, buf, sizeof(buf)));
	rdc_log_error_record(ctx->verb, &err);
	sig_to_raise = sig;
	return 128 + sig;
}

void rdc_sig_die_if_interrupted(void)
{
	if (!sig_to_raise)
		return;
	fflush(NULL);
	signal(sig_to_raise, SIG_DFL);
	raise(sig_to_raise);
}

int rdc_sig_finish(struct rdc_ctx *ctx, int rc, struct rdc_err *err, int undo_rc,
		   const struct rdc_err *undo)
{
	int sig = rdc_sig_defer_end();

	/*
	 * Stopped by the signal inside a plan, between two of its steps (-EINTR,
	 * a bond's): the plan undid its own and says how ("old state restored",
	 * maybe more: IPv6 put back, or a failed undo).  Anything beyond the
	 * plain restore is worth a line; a failed undo is the run's failure.
	 */
	if (sig && rc == -EINTR) {
		if (strcmp(err->detail, "old state restored")) {
			rdc_log_error_record(ctx->verb, err);
			if (strstr(err->detail, "failed"))
				return RDC_EXIT_FAIL;
		}
		rc = 0;
	}
	if (rc)
		return rdc_fail(ctx, err);
	if (sig)
		return rdc_sig_report(ctx, sig, undo_rc ? undo : NULL);
	return 0;
}
