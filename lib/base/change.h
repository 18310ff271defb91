/* SPDX-License-Identifier: GPL-2.0-or-later */
/* change.h - the one change engine: plans applied in order, undone newest first */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/*
 * Every write of rdmactl (a link's MTU and state, a netdev's DCB settings, a
 * bond) is a list of plans, each read and planned before anything is sent.
 * A kind of plan is four operations; the engine knows nothing else of it.
 *
 *   empty   nothing to send: skipped, never reverted
 *   apply   send it and verify; a failed (or stopped) apply has already put
 *           back what it changed itself; @stop, when it may check between
 *           steps, ends it early (then it returns -EINTR, undone)
 *   revert  put back the state before, however much of the plan went
 *           through (all of it; part of it when a run died, the plan then
 *           read back from the undo journal): only what still reads as the
 *           plan left it; a value that reads neither that nor the old one is
 *           another writer's, left as it is and named (-EBUSY)
 *   name    what it changes ("eth0", "bond0"), for messages
 *
 * and three more for the undo journal (base/journal.h), which keeps a plan
 * in /run until its write is done:
 *
 *   kind, blob_size, blob   the plan's bytes as the journal keeps them
 *                           (fixed-size, no pointers) and its word for them
 *   load     those bytes back into a plan, every count and name checked
 *            (the file could be from a damaged /run); free() the result
 */
struct rdc_change_ops {
	bool (*empty)(const void *plan);
	int (*apply)(void *plan, volatile sig_atomic_t *stop, struct rdc_err *err);
	int (*revert)(void *plan, struct rdc_err *err);
	const char *(*name)(const void *plan);
	const char *kind;
	size_t blob_size;
	const void *(*blob)(const void *plan);
	int (*load)(const void *blob, const char *name, void **plan, struct rdc_err *err);
};

struct rdc_change {
	const struct rdc_change_ops *ops;
	void *plan;
};

/* What rdc_change_commit() did. */
struct rdc_change_result {
	int rc;		     /* 0, or the first failure (-errno, described in the caller's err) */
	int stopped;	     /* *stop's value when it ended the commit (a signal), else 0 */
	size_t applied;	     /* plans applied and kept (0 after a rollback) */
	int undo_rc;	     /* 0, or the first revert that failed (-errno) */
	struct rdc_err undo; /* that first revert's error */
};

/*
 * Apply @n changes in order.  On the first failure, or when *@stop is set
 * (checked before each plan, and by a plan between its own steps), revert
 * every plan applied before, newest first, keeping the first revert error
 * (also appended to @err's detail: "restoring 'eth0' failed too: ...").  @stop may
 * be NULL.  Returns res->rc.
 */
int rdc_change_commit(const struct rdc_change *changes, size_t n, volatile sig_atomic_t *stop,
		      struct rdc_change_result *res, struct rdc_err *err);

/* Whether any of @n changes has something to send. */
bool rdc_change_any(const struct rdc_change *changes, size_t n);

/*
 * Revert @n changes (loaded from an undo journal, or after a commit), newest
 * first, every non-empty one tried.  Returns the first failure other than -EBUSY
 * (described in @err, the others appended); else -EBUSY when a value was
 * another writer's and left (@err names it); else 0.
 */
int rdc_change_restore(const struct rdc_change *changes, size_t n, struct rdc_err *err);
