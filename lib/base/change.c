// SPDX-License-Identifier: GPL-2.0-or-later
/* change.c - the one change engine: plans applied in order, undone newest first */
#include <errno.h>
#include <string.h>

#include "base/change.h"

bool rdc_change_any(const struct rdc_change *changes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!changes[i].ops->empty(changes[i].plan))
			return true;
	return false;
}

static bool stop_set(volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

int rdc_change_commit(const struct rdc_change *changes, size_t n, volatile sig_atomic_t *stop,
		      struct rdc_change_result *res, struct rdc_err *err)
{
	size_t done;

	memset(res, 0, sizeof(*res));
	for (done = 0; done < n && !stop_set(stop); done++) {
		const struct rdc_change *c = &changes[done];

		if (c->ops->empty(c->plan))
			continue;
		/* A failed or stopped apply has put its own plan back. */
		res->rc = c->ops->apply(c->plan, stop, err);
		if (res->rc)
			break;
	}
	if (stop_set(stop))
		res->stopped = (int)*stop;
	if (!res->rc && !res->stopped) {
		res->applied = done;
		return 0;
	}
	/* Newest first: a later plan may rest on an earlier one (a bond on its members). */
	for (size_t k = done; k-- > 0;) {
		const struct rdc_change *c = &changes[k];
		struct rdc_err one = {0};
		int rc;

		if (c->ops->empty(c->plan))
			continue;
		rc = c->ops->revert(c->plan, &one);
		if (!rc)
			continue;
		if (!res->undo_rc) {
			res->undo_rc = rc;
			res->undo = one;
		}
		if (err)
			rdc_err_append(err, "restoring '%s' failed too: %s: %s",
				       c->ops->name(c->plan), one.msg, strerror(one.code));
	}
	return res->rc;
}

int rdc_change_restore(const struct rdc_change *changes, size_t n, struct rdc_err *err)
{
	struct rdc_err busy = {0};
	int first = 0, busy_rc = 0;

	/*
	 * Another writer's value left alone (-EBUSY) is a restore that did all
	 * it may; any other failure is one that did not, and is the one
	 * returned (and described) when there is one.
	 */
	for (size_t k = n; k-- > 0;) {
		const struct rdc_change *c = &changes[k];
		struct rdc_err one = {0};
		int rc;

		if (c->ops->empty(c->plan))
			continue; /* nothing was sent for it, as rdc_change_commit() skips it */
		rc = c->ops->revert(c->plan, &one);
		if (!rc)
			continue;
		if (rc == -EBUSY) {
			if (!busy_rc)
				busy = one;
			else
				rdc_err_append(&busy, "and '%s': %s", c->ops->name(c->plan),
					       one.msg);
			busy_rc = rc;
			continue;
		}
		if (!first) {
			first = rc;
			if (err)
				*err = one;
		} else if (err) {
			rdc_err_append(err, "restoring '%s' failed too: %s", c->ops->name(c->plan),
				       one.msg);
		}
	}
	if (!first && busy_rc && err)
		*err = busy;
	return first ? first : busy_rc;
}
