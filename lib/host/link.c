// SPDX-License-Identifier: GPL-2.0-or-later
/* link.c - a netdev's MTU and admin state, changed the careful way: diff, write, verify, restore */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/link.h"
#include "host/netdev.h"
#include "seam/fs.h"
#include "seam/nl.h"

int rdc_link_carrier(const char *ifname)
{
	int64_t v;

	if (rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/carrier", ifname) || (v != 0 && v != 1))
		return -1;
	return (int)v;
}

int rdc_link_read_sysfs(const char *ifname, struct rdc_link *link, struct rdc_err *err)
{
	uint64_t flags;
	int64_t v;
	int rc;

	memset(link, 0, sizeof(*link));
	if (!rdc_netdev_exists(ifname))
		return rdc_err_set(err, ENODEV, "no network interface '%s'", ifname);
	rdc_strlcpy(link->name, ifname, sizeof(link->name));
	rc = rdc_fs_read_i64(&v, err, "/sys/class/net/%s/ifindex", ifname);
	if (rc)
		return rc;
	link->ifindex = v > 0 && v <= INT32_MAX ? (int)v : 0;
	rc = rdc_fs_read_i64(&v, err, "/sys/class/net/%s/mtu", ifname);
	if (rc)
		return rc;
	if (v < 0 || v > UINT32_MAX)
		return rdc_err_set(err, ERANGE, "'/sys/class/net/%s/mtu' holds %lld, not an MTU",
				   ifname, (long long)v);
	link->mtu = (uint32_t)v;
	/* The admin state is IFF_UP of the flags, which the kernel prints "%#x". */
	rc = rdc_fs_read_x64(&flags, err, "/sys/class/net/%s/flags", ifname);
	if (rc)
		return rc;
	link->admin_up = flags & IFF_UP;
	/* min_mtu/max_mtu are not in sysfs: 0 says unknown, as for an old kernel. */
	if (rdc_fs_read(link->operstate, sizeof(link->operstate), NULL,
			"/sys/class/net/%s/operstate", ifname) < 0)
		rdc_strlcpy(link->operstate, "unknown", sizeof(link->operstate));
	return 0;
}

/*
 * Under --root the bundle's sysfs is the link as captured (its recording
 * rarely holds this RTM_GETLINK, and strict replay would count asking for
 * it); a recording without the answer (ENODATA) falls back the same way.
 */
int rdc_link_read(const char *ifname, struct rdc_link *link, struct rdc_err *err)
{
	int rc;

	if (rdc_fs_root())
		return rdc_link_read_sysfs(ifname, link, err);
	rc = rdc_link_get(ifname, link, err);
	if (rc == -ENODATA && (rdc_nl_mode() == RDC_NL_REPLAY || rdc_nl_mode() == RDC_NL_OFF)) {
		rdc_err_clear(err);
		rc = rdc_link_read_sysfs(ifname, link, err);
	}
	return rc;
}

int rdc_link_plan_make(const char *ifname, int64_t mtu, int admin_up, struct rdc_link_plan *plan,
		       struct rdc_err *err)
{
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->change.mtu = -1;
	plan->change.admin_up = -1;
	rc = rdc_link_read(ifname, &plan->before, err);
	if (rc)
		return rc;
	plan->after = plan->before;
	if (mtu >= 0 && (uint32_t)mtu != plan->before.mtu)
		plan->change.mtu = plan->after.mtu = (uint32_t)mtu;
	if (admin_up >= 0 && (bool)admin_up != plan->before.admin_up) {
		plan->after.admin_up = admin_up;
		plan->change.admin_up = admin_up;
		/*
		 * The operstate the plan leads to: a link taken down is "down"; one
		 * brought up depends on its carrier, which no plan knows ("": unknown).
		 */
		rdc_strlcpy(plan->after.operstate, admin_up ? "" : "down",
			    sizeof(plan->after.operstate));
	}
	plan->changed = plan->change.mtu >= 0 || plan->change.admin_up >= 0;
	return 0;
}

bool rdc_link_undo_own(const struct rdc_link *before, const struct rdc_link_change *change,
		       const struct rdc_link *want, const struct rdc_link *now,
		       struct rdc_link_change *undo)
{
	bool mtu_ours = change->mtu >= 0 && now->mtu == want->mtu && now->mtu != before->mtu;
	bool up_ours = change->admin_up >= 0 && now->admin_up == want->admin_up &&
		       now->admin_up != before->admin_up;

	undo->mtu = mtu_ours ? (int64_t)before->mtu : -1;
	undo->admin_up = up_ours ? before->admin_up : -1;
	return now->mtu != want->mtu && now->mtu != before->mtu;
}

int rdc_link_plan_apply(struct rdc_link_plan *plan, struct rdc_err *err)
{
	const struct rdc_link *before = &plan->before;
	struct rdc_link want = plan->after, now;
	struct rdc_err undo_err = {0};
	int rc;

	if (!plan->changed)
		return 0;
	rc = rdc_link_set(before, &plan->change, err);
	if (!rc)
		rc = rdc_link_get(before->name, &now, err);
	if (rc)
		return rc;
	plan->after = now;
	if (now.mtu == want.mtu && now.admin_up == want.admin_up)
		return 0;
	/*
	 * The kernel took the request but the link says otherwise.  Only a value
	 * that still reads what this run wrote is put back: one that reads
	 * neither that nor the value before was set by another writer meanwhile
	 * (ip link, NetworkManager, a second rdmactl without the lock) and is
	 * theirs, named in the error rather than undone.
	 */
	struct rdc_link_change undo;
	bool mtu_theirs = rdc_link_undo_own(before, &plan->change, &want, &now, &undo);

	if (mtu_theirs)
		rc = rdc_err_set(err, EBUSY,
				 "'%s' changed under this run: it reads mtu %u, neither the %u it "
				 "had nor the %u this run set (another writer?)",
				 before->name, now.mtu, before->mtu, want.mtu);
	else
		rc = rdc_err_set(err, EIO, "'%s' reads mtu %u %s after the change, not mtu %u %s",
				 before->name, now.mtu, now.admin_up ? "up" : "down", want.mtu,
				 want.admin_up ? "up" : "down");
	if ((undo.mtu >= 0 || undo.admin_up >= 0) && rdc_link_set(&now, &undo, &undo_err))
		rdc_err_detail(err, "restoring what this run changed failed too");
	else if (undo.mtu >= 0 || undo.admin_up >= 0)
		rdc_err_detail(err, "what this run changed is restored");
	else
		rdc_err_detail(err, "nothing of this run's is left to restore");
	return rc;
}

/* ---- the change engine's view of a link plan ---- */

static bool link_change_empty(const void *p)
{
	return !((const struct rdc_link_plan *)p)->changed;
}

/* One RTM_NEWLINK: there is no step boundary to stop at. */
static int link_change_apply(void *p, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	(void)stop;
	return rdc_link_plan_apply(p, err);
}

static const char *link_change_name(const void *p)
{
	return ((const struct rdc_link_plan *)p)->before.name;
}

/* The plan is fixed-size and pointer-free: the journal keeps it as it is. */
static const void *link_change_blob(const void *p)
{
	return p;
}

static bool link_valid(const struct rdc_link *l)
{
	return memchr(l->name, '\0', sizeof(l->name)) && rdc_ifname_valid(l->name) &&
	       memchr(l->operstate, '\0', sizeof(l->operstate)) && rdc_bool_stored_ok(&l->admin_up);
}

static int link_change_load(const void *blob, const char *name, void **out, struct rdc_err *err)
{
	struct rdc_link_plan *plan = malloc(sizeof(*plan));

	if (!plan)
		return rdc_err_set(err, ENOMEM, "out of memory");
	memcpy(plan, blob, sizeof(*plan));
	if (!rdc_bool_stored_ok(&plan->changed) || !link_valid(&plan->before) ||
	    !link_valid(&plan->after) || strcmp(plan->before.name, name) || plan->change.mtu < -1 ||
	    plan->change.mtu > UINT32_MAX || plan->change.admin_up < -1 ||
	    plan->change.admin_up > 1) {
		free(plan);
		return rdc_err_set(
			err, EINVAL,
			"not a link plan of '%s' (a name, a value or a flag out of range)", name);
	}
	*out = plan;
	return 0;
}

/*
 * Whatever part of the change went through: a value that reads what the
 * plan wrote goes back; one that reads the old value needs nothing; an MTU
 * that reads neither is another writer's and stays.
 */
static int link_change_revert(void *p, struct rdc_err *err)
{
	const struct rdc_link_plan *plan = p;
	struct rdc_link_change undo;
	struct rdc_link now;
	bool theirs;
	int rc = rdc_link_get(plan->before.name, &now, err);

	if (rc)
		return rc;
	/* An MTU this plan never set is nobody's business here, whatever it reads. */
	theirs = rdc_link_undo_own(&plan->before, &plan->change, &plan->after, &now, &undo) &&
		 plan->change.mtu >= 0;
	if (undo.mtu >= 0 || undo.admin_up >= 0) {
		rc = rdc_link_set(&now, &undo, err);
		if (rc)
			return rc;
	}
	if (theirs)
		return rdc_err_set(
			err, EBUSY,
			"'%s' reads mtu %u, neither the %u it had nor the %u that change "
			"set: left as it is (another writer's)",
			now.name, now.mtu, plan->before.mtu, plan->after.mtu);
	return 0;
}

const struct rdc_change_ops rdc_link_change_ops = {
	.empty = link_change_empty,
	.apply = link_change_apply,
	.revert = link_change_revert,
	.name = link_change_name,
	.kind = "link",
	.blob_size = sizeof(struct rdc_link_plan),
	.blob = link_change_blob,
	.load = link_change_load,
};
