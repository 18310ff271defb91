/* SPDX-License-Identifier: GPL-2.0-or-later */
/* link.h - a netdev's MTU and admin state, changed the careful way: diff, write, verify, restore */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/change.h"
#include "base/err.h"
#include "kernel/rtnl.h"

struct rdc_link_plan {
	struct rdc_link before; /* as read */
	struct rdc_link after;	/* what it should read when done; after apply, what it reads */
	struct rdc_link_change change; /* only what differs: nothing sent when nothing does */
	bool changed;
};

/*
 * Read @ifname's link now: over rtnetlink, or from sysfs (mtu, flags,
 * operstate) under --root and when a recording has no answer.
 */
int rdc_link_read(const char *ifname, struct rdc_link *link, struct rdc_err *err);
/* The sysfs half alone (min_mtu and max_mtu stay 0: sysfs does not say). */
int rdc_link_read_sysfs(const char *ifname, struct rdc_link *link, struct rdc_err *err);
/*
 * @ifname's carrier from sysfs: 1 or 0, -1 unknown (the kernel answers
 * EINVAL while the netdev is admin down; a bundle may lack the file).
 */
int rdc_link_carrier(const char *ifname);
/*
 * Read @ifname and plan @mtu (bytes, or -1: leave) and @admin_up (-1: leave,
 * 0: down, 1: up).  Nothing is written.
 */
int rdc_link_plan_make(const char *ifname, int64_t mtu, int admin_up, struct rdc_link_plan *plan,
		       struct rdc_err *err);
/*
 * Send the change (nothing when the plan is empty), read the link back and
 * compare; when it reads otherwise, put back what this run changed and still
 * reads as this run wrote it (rdc_link_undo_own()): -EIO; a value another
 * writer set meanwhile is left and named: -EBUSY.
 * plan->after becomes what the link reads.
 */
int rdc_link_plan_apply(struct rdc_link_plan *plan, struct rdc_err *err);
/*
 * After a change that does not read as planned (pure): in @undo, the values
 * to put back, only those this run changed (@change) that still read what it
 * wrote (@want); -1 for the rest.  Returns whether the MTU reads neither
 * @before's nor @want's: another writer's, not to be undone.
 */
bool rdc_link_undo_own(const struct rdc_link *before, const struct rdc_link_change *change,
		       const struct rdc_link *want, const struct rdc_link *now,
		       struct rdc_link_change *undo);

/*
 * A link plan as one change of the engine (base/change.h): @plan is a struct
 * rdc_link_plan; its revert puts back plan->before's MTU and state where the
 * link still reads plan->after's (rdc_link_undo_own()).
 */
extern const struct rdc_change_ops rdc_link_change_ops;
