// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - changing a bond the careful way: read, plan in the kernel's order, write, verify, undo */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "base/util.h"
#include "bond/plan.h"
#include "host/link.h"
#include "host/netdev.h"
#include "kernel/rtnl.h"
#include "seam/fs.h"

/* Which modes use an option (bond_options.c's unsuppmodes, inverted). */
#define MODE_BIT(m) (1u << (m))
#define MODES_HASH                                                                                 \
	(MODE_BIT(RDC_BOND_BALANCE_XOR) | MODE_BIT(RDC_BOND_8023AD) |                              \
	 MODE_BIT(RDC_BOND_BALANCE_TLB))
#define MODES_LACP MODE_BIT(RDC_BOND_8023AD)
#define MODES_PRIMARY                                                                              \
	(MODE_BIT(RDC_BOND_ACTIVE_BACKUP) | MODE_BIT(RDC_BOND_BALANCE_TLB) |                       \
	 MODE_BIT(RDC_BOND_BALANCE_ALB))

static bool mode_uses(int mode, unsigned int modes)
{
	return mode >= 0 && mode < 32 && (modes & MODE_BIT(mode));
}

static int plan_step(struct rdc_bond_plan *p, enum rdc_bond_op op, const char *netdev,
		     struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(5, 6);
static int plan_step(struct rdc_bond_plan *p, enum rdc_bond_op op, const char *netdev,
		     struct rdc_err *err, const char *fmt, ...)
{
	struct rdc_bond_step *s;
	va_list ap;

	if (p->nsteps == RDC_BOND_PLAN_STEPS)
		return rdc_err_set(err, E2BIG, "bond '%s': more than %d steps", p->name,
				   RDC_BOND_PLAN_STEPS);
	s = &p->steps[p->nsteps++];
	memset(s, 0, sizeof(*s));
	s->op = op;
	rdc_strlcpy(s->netdev, netdev, sizeof(s->netdev));
	va_start(ap, fmt);
	vsnprintf(s->text, sizeof(s->text), fmt, ap);
	va_end(ap);
	return 0;
}

static bool name_in(const char *name, const char (*list)[IF_NAMESIZE], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static bool is_member(const struct rdc_bond *b, const char *name)
{
	for (size_t i = 0; i < b->nmembers; i++)
		if (!strcmp(b->members[i].name, name))
			return true;
	return false;
}

/* The kernel keeps up/down delays in miimon ticks: what it will read back. */
static uint32_t delay_as_read(uint32_t delay_ms, int64_t miimon_ms)
{
	return miimon_ms > 0 ? (uint32_t)(delay_ms / (uint64_t)miimon_ms * (uint64_t)miimon_ms)
			     : delay_ms;
}

/* A netdev that may join @bond: it exists, is no bond, and belongs to no other master. */
static int member_check(const char *bond, const char *name, struct rdc_err *err)
{
	struct rdc_netdev nd = {0};
	int rc = 0;

	if (!strcmp(name, bond))
		return rdc_err_set_usage(err, "'%s' cannot be a member of itself", bond);
	if (!rdc_netdev_exists(name) || rdc_netdev_read(name, &nd, NULL))
		rc = rdc_err_set_usage(err, "member '%s': no such network interface", name);
	else if (nd.is_bond)
		rc = rdc_err_set_usage(err, "member '%s' is itself a bond", name);
	else if (nd.master[0] && strcmp(nd.master, bond))
		rc = rdc_err_set_usage(err, "member '%s' already belongs to '%s'", name, nd.master);
	rdc_netdev_free(&nd);
	return rc;
}

/*
 * The options that differ from what the bond reads (all of them for a new
 * bond), without those its mode does not use (noted as skipped).
 */
static void plan_opts(struct rdc_bond_plan *p, const struct rdc_bond_want *w, int mode,
		      struct rdc_bond_opts *diff)
{
	const struct rdc_bond *b = &p->before;
	const struct rdc_bond_opts *o = &w->opts;
	bool fresh = !p->existed;
	int64_t miimon = o->miimon_given ? o->miimon_ms : b->miimon_ms;

	memset(diff, 0, sizeof(*diff));
#define SKIP(given, name)                                                                          \
	do {                                                                                       \
		if ((given) && p->nskipped < RDC_ARRAY_SIZE(p->skipped))                           \
			rdc_strlcpy(p->skipped[p->nskipped++], name, sizeof(p->skipped[0]));       \
	} while (0)
	if (o->mode_given && (fresh || o->mode != b->mode)) {
		diff->mode_given = true;
		diff->mode = o->mode;
	}
	if (o->miimon_given && (fresh || (int64_t)o->miimon_ms != b->miimon_ms)) {
		diff->miimon_given = true;
		diff->miimon_ms = o->miimon_ms;
	}
	if (o->updelay_given &&
	    (fresh || (int64_t)delay_as_read(o->updelay_ms, miimon) != b->updelay_ms)) {
		diff->updelay_given = true;
		diff->updelay_ms = o->updelay_ms;
	}
	if (o->downdelay_given &&
	    (fresh || (int64_t)delay_as_read(o->downdelay_ms, miimon) != b->downdelay_ms)) {
		diff->downdelay_given = true;
		diff->downdelay_ms = o->downdelay_ms;
	}
	if (o->min_links_given && (fresh || (int64_t)o->min_links != b->min_links)) {
		diff->min_links_given = true;
		diff->min_links = o->min_links;
	}
	if (o->hash_given && !mode_uses(mode, MODES_HASH))
		SKIP(true, "xmit-hash");
	else if (o->hash_given && (fresh || o->hash != b->xmit_hash_policy)) {
		diff->hash_given = true;
		diff->hash = o->hash;
	}
	if (o->lacp_rate_given && !mode_uses(mode, MODES_LACP))
		SKIP(true, "lacp-rate");
	else if (o->lacp_rate_given && (fresh || o->lacp_rate != b->lacp_rate)) {
		diff->lacp_rate_given = true;
		diff->lacp_rate = o->lacp_rate;
	}
	if (o->ad_select_given && !mode_uses(mode, MODES_LACP))
		SKIP(true, "ad-select");
	else if (o->ad_select_given && (fresh || o->ad_select != b->ad_select)) {
		diff->ad_select_given = true;
		diff->ad_select = o->ad_select;
	}
	if (o->primary_given && !mode_uses(mode, MODES_PRIMARY))
		SKIP(true, "primary");
	else if (o->primary_given && (fresh || strcmp(w->primary, b->primary)))
		diff->primary_given = true; /* resolved to an ifindex when written */
#undef SKIP
}

/* What the bond had, for the undo of an OPTS step that changes @o. */
static void opts_before(const struct rdc_bond *b, const struct rdc_bond_opts *o,
			struct rdc_bond_opts *undo)
{
	memset(undo, 0, sizeof(*undo));
	undo->mode_given = o->mode_given && b->mode >= 0;
	undo->mode = b->mode;
	undo->miimon_given = o->miimon_given && b->miimon_ms >= 0;
	undo->miimon_ms = (uint32_t)b->miimon_ms;
	undo->updelay_given = o->updelay_given && b->updelay_ms >= 0;
	undo->updelay_ms = (uint32_t)b->updelay_ms;
	undo->downdelay_given = o->downdelay_given && b->downdelay_ms >= 0;
	undo->downdelay_ms = (uint32_t)b->downdelay_ms;
	undo->min_links_given = o->min_links_given && b->min_links >= 0;
	undo->min_links = (uint32_t)b->min_links;
	undo->hash_given = o->hash_given && b->xmit_hash_policy >= 0;
	undo->hash = b->xmit_hash_policy;
	undo->lacp_rate_given = o->lacp_rate_given && b->lacp_rate >= 0;
	undo->lacp_rate = b->lacp_rate;
	undo->ad_select_given = o->ad_select_given && b->ad_select >= 0;
	undo->ad_select = b->ad_select;
	/* primary: by name (p->before.primary) when written; "" clears it (ifindex 0) */
	undo->primary_given = o->primary_given;
}

/* "mode 802.3ad miimon 100" for a step's text. */
static void opts_text(const struct rdc_bond_opts *o, const char *primary, char *buf, size_t size)
{
	size_t n = 0;

#define ADD(...) n += (size_t)snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__)
	buf[0] = '\0';
	if (o->mode_given)
		ADD(" mode %s", rdc_bond_mode_name(o->mode));
	if (o->miimon_given)
		ADD(" miimon %u", o->miimon_ms);
	if (o->updelay_given)
		ADD(" updelay %u", o->updelay_ms);
	if (o->downdelay_given)
		ADD(" downdelay %u", o->downdelay_ms);
	if (o->hash_given)
		ADD(" xmit-hash %s", rdc_bond_hash_name(o->hash));
	if (o->lacp_rate_given)
		ADD(" lacp-rate %s", rdc_bond_lacp_rate_name(o->lacp_rate));
	if (o->ad_select_given)
		ADD(" ad-select %s", rdc_bond_ad_select_name(o->ad_select));
	if (o->min_links_given)
		ADD(" min-links %u", o->min_links);
	if (o->primary_given)
		ADD(" primary %s", primary[0] ? primary : "none");
#undef ADD
}

static bool opts_any(const struct rdc_bond_opts *o)
{
	return o->mode_given || o->miimon_given || o->updelay_given || o->downdelay_given ||
	       o->hash_given || o->lacp_rate_given || o->ad_select_given || o->min_links_given ||
	       o->primary_given;
}

static int step_opts(struct rdc_bond_plan *p, const struct rdc_bond_opts *o, const char *primary,
		     struct rdc_err *err)
{
	char text[160];
	int rc;

	if (!opts_any(o))
		return 0;
	opts_text(o, primary, text, sizeof(text));
	rc = plan_step(p, RDC_BOND_OP_OPTS, primary, err, "set %s%s", p->name, text);
	if (!rc) {
		p->steps[p->nsteps - 1].opts = *o;
		opts_before(&p->before, o, &p->steps[p->nsteps - 1].undo_opts);
	}
	return rc;
}

/*
 * Whether a netdev is administratively up, from sysfs "flags" (hex, IFF_UP is
 * bit 0): a bundle answers that without a recording of per-link requests.
 */
static int admin_up(const char *name, bool *up, struct rdc_err *err)
{
	uint64_t flags = 0;
	int rc = rdc_fs_read_x64(&flags, err, "/sys/class/net/%s/flags", name);

	*up = !rc && (flags & 0x1); /* IFF_UP */
	return rc;
}

/* Down (when up), enslave, up: the kernel refuses to enslave a netdev that is up. */
static int steps_join(struct rdc_bond_plan *p, const char *m, struct rdc_err *err)
{
	bool up;
	int rc = admin_up(m, &up, err);

	if (!rc && up)
		rc = plan_step(p, RDC_BOND_OP_DOWN, m, err, "set %s down (to be enslaved)", m);
	if (!rc)
		rc = plan_step(p, RDC_BOND_OP_ENSLAVE, m, err, "enslave %s to %s", m, p->name);
	if (!rc)
		rc = plan_step(p, RDC_BOND_OP_UP, m, err, "set %s up", m);
	return rc;
}

/* Release, and up again: the kernel closes a released member. */
static int steps_leave(struct rdc_bond_plan *p, const char *m, struct rdc_err *err)
{
	int rc = plan_step(p, RDC_BOND_OP_RELEASE, m, err, "release %s from %s", m, p->name);

	return rc ? rc : plan_step(p, RDC_BOND_OP_UP, m, err, "set %s up", m);
}

/* fe80::/10 */
static bool addr6_link_local(const struct rdc_addr6 *a)
{
	return a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80;
}

/* The ifindex from sysfs, as admin_up() reads flags: 0 when unknown. */
static int ifindex_sysfs(const char *name)
{
	uint64_t v;

	if (rdc_fs_read_u64(&v, NULL, "/sys/class/net/%s/ifindex", name) || !v || v > INT32_MAX)
		return 0;
	return (int)v;
}

/*
 * Keep the permanent IPv6 addresses of the members that join: the "set
 * down (to be enslaved)" step takes them away, and an undo must put them
 * back.  One dump for all members; nothing is sent when none joins.  A dump
 * that cannot be read (a bundle, a recording without it) is no reason not
 * to plan: the plan says so (addr6_unread) and goes on.
 */
static void plan_addr6_keep(struct rdc_bond_plan *p, const char (*join)[IF_NAMESIZE], size_t njoin)
{
	struct rdc_addr6_list all;

	if (!njoin)
		return;
	if (rdc_addr6_list(&all, NULL)) {
		p->addr6_unread = true;
		return;
	}
	for (size_t i = 0; i < njoin; i++) {
		int ifindex = ifindex_sysfs(join[i]);

		for (size_t k = 0; ifindex > 0 && k < all.count; k++) {
			const struct rdc_addr6 *a = &all.items[k];

			if (a->ifindex != ifindex || !(a->flags & IFA_F_PERMANENT) ||
			    addr6_link_local(a))
				continue;
			if (p->naddr6 == RDC_BOND_PLAN_ADDR6) {
				p->addr6_unread = true;
				break;
			}
			rdc_strlcpy(p->addr6[p->naddr6].netdev, join[i], IF_NAMESIZE);
			p->addr6[p->naddr6++].addr = *a;
		}
	}
	rdc_addr6_list_free(&all);
}

int rdc_bond_plan_make(const struct rdc_bond_want *w, struct rdc_bond_plan *p, struct rdc_err *err)
{
	struct rdc_bond_opts diff, now, later;
	char release[RDC_BOND_MAX_MEMBERS][IF_NAMESIZE], join[RDC_BOND_MAX_MEMBERS][IF_NAMESIZE];
	size_t nrelease = 0, njoin = 0;
	bool needs_down, was_up;
	int mode, rc;

	memset(p, 0, sizeof(*p));
	rdc_strlcpy(p->name, w->name, sizeof(p->name));
	rc = rdc_bond_read(w->name, &p->before, err);
	if (rc && rc != -ENODEV)
		return rc;
	p->existed = !rc;
	rdc_err_clear(err);
	if (!p->existed && !w->create) {
		rdc_err_set(err, ENODEV, "no bond '%s'", w->name);
		rdc_err_mark(err, RDC_ERRK_NOT_FOUND, w->name);
		return -ENODEV;
	}
	if (!p->existed && rdc_netdev_exists(w->name)) {
		rdc_err_set(err, EEXIST, "'%s' exists and is not a bond", w->name);
		rdc_err_mark(err, RDC_ERRK_EXISTS, w->name);
		return -EEXIST;
	}
	if (!p->existed && !w->opts.mode_given)
		return rdc_err_set_usage(err, "a new bond needs a mode");
	if (!p->existed)
		rdc_bondnl_init(&p->before);
	mode = w->opts.mode_given ? w->opts.mode : p->before.mode;

	/* The member set afterwards. */
	if (w->members_exact) {
		for (size_t i = 0; i < w->nmembers; i++)
			rdc_strlcpy(p->members[p->nmembers++], w->members[i], IF_NAMESIZE);
	} else {
		for (size_t i = 0; i < p->before.nmembers; i++)
			if (!name_in(p->before.members[i].name,
				     (const char(*)[IF_NAMESIZE])w->remove, w->nremove))
				rdc_strlcpy(p->members[p->nmembers++], p->before.members[i].name,
					    IF_NAMESIZE);
		for (size_t i = 0; i < w->nmembers; i++)
			if (!name_in(w->members[i], (const char(*)[IF_NAMESIZE])p->members,
				     p->nmembers)) {
				if (p->nmembers == RDC_BOND_MAX_MEMBERS)
					return rdc_err_set(err, E2BIG, "more than %d members",
							   RDC_BOND_MAX_MEMBERS);
				rdc_strlcpy(p->members[p->nmembers++], w->members[i], IF_NAMESIZE);
			}
	}
	for (size_t i = 0; i < w->nremove; i++)
		if (!is_member(&p->before, w->remove[i]))
			return rdc_err_set_usage(err, "'%s' is not a member of '%s'", w->remove[i],
						 w->name);
	for (size_t i = 0; i < p->nmembers; i++) {
		for (size_t k = i + 1; k < p->nmembers; k++)
			if (!strcmp(p->members[i], p->members[k]))
				return rdc_err_set_usage(err, "member '%s' named twice",
							 p->members[i]);
		rc = member_check(w->name, p->members[i], err);
		if (rc)
			return rc;
	}
	if (w->opts.primary_given && w->primary[0] &&
	    !name_in(w->primary, (const char(*)[IF_NAMESIZE])p->members, p->nmembers))
		return rdc_err_set_usage(err, "primary '%s' is not a member of '%s'", w->primary,
					 w->name);
	plan_opts(p, w, mode, &diff);
	p->want_opts = w->opts;
	rdc_strlcpy(p->primary, w->primary, sizeof(p->primary));

	/* Who leaves and who joins; a mode change needs the bond empty, so all do. */
	for (size_t i = 0; i < p->before.nmembers; i++)
		if (diff.mode_given ||
		    !name_in(p->before.members[i].name, (const char(*)[IF_NAMESIZE])p->members,
			     p->nmembers))
			rdc_strlcpy(release[nrelease++], p->before.members[i].name, IF_NAMESIZE);
	for (size_t i = 0; i < p->nmembers; i++)
		if ((diff.mode_given && p->existed) || !is_member(&p->before, p->members[i]))
			rdc_strlcpy(join[njoin++], p->members[i], IF_NAMESIZE);

	plan_addr6_keep(p, (const char(*)[IF_NAMESIZE])join, njoin);

	/* Options now (with the mode) and after the members joined (primary names one). */
	now = diff;
	now.primary_given = false;
	memset(&later, 0, sizeof(later));
	later.primary_given = diff.primary_given;
	needs_down =
		p->existed && (diff.mode_given || diff.lacp_rate_given || diff.ad_select_given);
	was_up = p->existed && p->before.admin_up;

	if (!p->existed) {
		char text[160];

		opts_text(&now, "", text, sizeof(text));
		rc = plan_step(p, RDC_BOND_OP_CREATE, w->name, err, "create %s%s", w->name, text);
		if (rc)
			return rc;
		p->steps[p->nsteps - 1].opts = now;
	}
	for (size_t i = 0; i < nrelease && !rc; i++)
		rc = steps_leave(p, release[i], err);
	if (!rc && needs_down && was_up)
		rc = plan_step(p, RDC_BOND_OP_DOWN, w->name, err,
			       "set %s down (mode, lacp-rate and ad-select change only then)",
			       w->name);
	if (!rc && p->existed)
		rc = step_opts(p, &now, "", err);
	for (size_t i = 0; i < njoin && !rc; i++)
		rc = steps_join(p, join[i], err);
	if (!rc && later.primary_given)
		rc = step_opts(p, &later, w->primary, err);
	if (!rc && (!p->existed || (needs_down && was_up)))
		rc = plan_step(p, RDC_BOND_OP_UP, w->name, err, "set %s up", w->name);
	return rc;
}

int rdc_bond_plan_delete(const char *name, struct rdc_bond_plan *p, struct rdc_err *err)
{
	int rc;

	memset(p, 0, sizeof(*p));
	rdc_strlcpy(p->name, name, sizeof(p->name));
	rc = rdc_bond_read(name, &p->before, err);
	if (rc)
		return rc;
	p->existed = true;
	p->deleted = true;
	for (size_t i = 0; i < p->before.nmembers && !rc; i++)
		rc = steps_leave(p, p->before.members[i].name, err);
	if (!rc)
		rc = plan_step(p, RDC_BOND_OP_DELETE, name, err, "delete %s", name);
	return rc;
}

/* ---- the write phase ---- */

static int link_admin(const char *name, bool up, struct rdc_err *err)
{
	struct rdc_link_change change = {.mtu = -1, .admin_up = up};
	struct rdc_link l;
	int rc = rdc_link_read(name, &l, err);

	if (rc || l.admin_up == up)
		return rc;
	return rdc_link_set(&l, &change, err);
}

static int ifindex_of(const char *name, int *ifindex, struct rdc_err *err)
{
	struct rdc_link l;
	int rc = rdc_link_read(name, &l, err);

	*ifindex = rc ? 0 : l.ifindex;
	return rc;
}

/* Send @o to the bond; a primary is resolved by name (@primary) now, when it exists. */
static int write_opts(const char *bond, struct rdc_bond_opts o, const char *primary,
		      struct rdc_err *err)
{
	int ifindex, rc;

	if (o.primary_given && primary[0]) {
		rc = ifindex_of(primary, &o.primary_ifindex, err);
		if (rc)
			return rc;
	}
	rc = ifindex_of(bond, &ifindex, err);
	return rc ? rc : rdc_bondnl_set(ifindex, bond, &o, err);
}

static int step_do(const struct rdc_bond_plan *p, const struct rdc_bond_step *s, bool undo,
		   struct rdc_err *err)
{
	int member, master, rc;

	switch (s->op) {
	case RDC_BOND_OP_CREATE:
		if (undo) {
			rc = ifindex_of(p->name, &master, err);
			return rc ? rc : rdc_bondnl_delete(master, p->name, err);
		}
		return rdc_bondnl_create(p->name, &s->opts, err);
	case RDC_BOND_OP_DELETE:
		if (undo) {
			struct rdc_bond_opts o = {0};

			opts_before(&p->before,
				    &(struct rdc_bond_opts){.mode_given = true,
							    .miimon_given = true,
							    .updelay_given = true,
							    .downdelay_given = true,
							    .min_links_given = true},
				    &o);
			return rdc_bondnl_create(p->name, &o, err);
		}
		rc = ifindex_of(p->name, &master, err);
		return rc ? rc : rdc_bondnl_delete(master, p->name, err);
	case RDC_BOND_OP_OPTS:
		return write_opts(p->name, undo ? s->undo_opts : s->opts,
				  undo ? p->before.primary : s->netdev, err);
	case RDC_BOND_OP_DOWN:
	case RDC_BOND_OP_UP:
		return link_admin(s->netdev, (s->op == RDC_BOND_OP_UP) != undo, err);
	case RDC_BOND_OP_ENSLAVE:
	case RDC_BOND_OP_RELEASE:
		rc = ifindex_of(s->netdev, &member, err);
		if (!rc)
			rc = ifindex_of(p->name, &master, err);
		if (rc)
			return rc;
		if ((s->op == RDC_BOND_OP_ENSLAVE) != undo)
			return rdc_bondnl_enslave(member, s->netdev, master, err);
		return rdc_bondnl_enslave(member, s->netdev, 0, err);
	}
	return -EINVAL;
}

/*
 * After the undo steps: add back the kept IPv6 addresses a member lacks now,
 * and name them in @said ("fd00:9::1/64 on eth1").  Returns the first
 * failure (the others are tried all the same).
 */
static int plan_addr6_restore(const struct rdc_bond_plan *p, char *said, size_t size,
			      struct rdc_err *err)
{
	struct rdc_addr6_list now;
	size_t used = 0, added = 0;
	int rc, first = 0;

	said[0] = '\0';
	if (!p->naddr6)
		return 0;
	rc = rdc_addr6_list(&now, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < p->naddr6; i++) {
		const struct rdc_bond_addr6 *k = &p->addr6[i];
		char text[INET6_ADDRSTRLEN + 8];

		if (rdc_addr6_find(&now, &k->addr))
			continue;
		rc = rdc_addr6_add(&k->addr, first ? NULL : err);
		if (rc) {
			if (!first)
				rdc_err_prefix(err, "%s", k->netdev);
			first = first ? first : rc;
			continue;
		}
		rdc_addr6_format(&k->addr, text, sizeof(text));
		/* Room for the first few; the count says the rest. */
		if (used < size)
			used += (size_t)snprintf(said + used, size - used, "%s%s on %s",
						 added ? ", " : "", text, k->netdev);
		added++;
	}
	rdc_addr6_list_free(&now);
	if (used >= size && size > 5)
		memcpy(said + size - 5, " ...", 5);
	return first;
}

/* Did the undone steps take a member down or enslave it (its IPv6 addresses went)? */
static bool plan_touched_members(const struct rdc_bond_plan *p, size_t done)
{
	for (size_t i = 0; i < done; i++)
		if ((p->steps[i].op == RDC_BOND_OP_DOWN || p->steps[i].op == RDC_BOND_OP_ENSLAVE) &&
		    strcmp(p->steps[i].netdev, p->name))
			return true;
	return false;
}

/* Does the bond read what the plan wanted? Names the first difference in @why. */
static int plan_verify(struct rdc_bond_plan *p, struct rdc_err *err)
{
	const struct rdc_bond_opts *o = &p->want_opts;
	struct rdc_bond *a = &p->after;
	int rc;

	if (p->deleted) {
		rc = rdc_bond_read(p->name, a, NULL);
		return rc == -ENODEV ? 0 : rdc_err_set(err, EIO, "'%s' still exists", p->name);
	}
	rc = rdc_bond_read(p->name, a, err);
	if (rc)
		return rc;
	if (o->mode_given && a->mode != o->mode)
		return rdc_err_set(err, EIO, "'%s' reads mode %s, not %s", p->name,
				   rdc_bond_mode_name(a->mode), rdc_bond_mode_name(o->mode));
	if (o->miimon_given && a->miimon_ms != (int64_t)o->miimon_ms)
		return rdc_err_set(err, EIO, "'%s' reads miimon %lld, not %u", p->name,
				   (long long)a->miimon_ms, o->miimon_ms);
	if (a->nmembers != p->nmembers)
		return rdc_err_set(err, EIO, "'%s' has %zu members, not %zu", p->name, a->nmembers,
				   p->nmembers);
	for (size_t i = 0; i < p->nmembers; i++)
		if (!is_member(a, p->members[i]))
			return rdc_err_set(err, EIO, "'%s' is not a member of '%s' afterwards",
					   p->members[i], p->name);
	return 0;
}

int rdc_bond_plan_apply(struct rdc_bond_plan *p, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	struct rdc_err undo_err = {0};
	char added[160];
	size_t done, undone;
	int rc = 0, failed_undo = 0;

	for (done = 0; done < p->nsteps; done++) {
		if (stop && *stop) {
			rc = rdc_err_set(err, EINTR, "interrupted before '%s'",
					 p->steps[done].text);
			break;
		}
		rc = step_do(p, &p->steps[done], false, err);
		if (rc) {
			rdc_err_prefix(err, "%s", p->steps[done].text);
			break;
		}
	}
	if (!rc) {
		rc = plan_verify(p, err);
		if (!rc)
			return 0;
	}
	/* Undo every step done, newest first; keep going past a failed undo. */
	undone = done;
	while (done-- > 0)
		if (step_do(p, &p->steps[done], true, failed_undo ? NULL : &undo_err))
			failed_undo++;
	/* The members are out of the bond and up again: their IPv6 addresses can go back. */
	if (plan_addr6_restore(p, added, sizeof(added), failed_undo ? NULL : &undo_err))
		failed_undo++;
	if (failed_undo)
		rdc_err_append(err, "restoring the old state failed too: %s", undo_err.msg);
	else if (added[0])
		rdc_err_append(err, "old state restored, IPv6 %s added back", added);
	else
		rdc_err_append(err, "old state restored");
	if (p->addr6_unread && plan_touched_members(p, undone))
		rdc_err_append(err, "the members' IPv6 addresses were not all known: check them");
	rdc_bond_read(p->name, &p->after, NULL);
	return rc;
}

/* ---- the change engine's view of a bond plan ---- */

static bool bond_change_empty(const void *p)
{
	return rdc_bond_plan_empty(p);
}

static int bond_change_apply(void *p, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	return rdc_bond_plan_apply(p, stop, err);
}

static const char *bond_change_name(const void *p)
{
	return ((const struct rdc_bond_plan *)p)->name;
}

/* The plan is fixed-size and pointer-free: the journal keeps it as it is. */
static const void *bond_change_blob(const void *p)
{
	return p;
}

#define TERMINATED(a) (memchr((a), '\0', sizeof(a)) != NULL)

/* Every bool of the options a byte of 0 or 1. */
static bool bond_opts_valid(const struct rdc_bond_opts *o)
{
	const bool *given[] = {&o->mode_given,	    &o->miimon_given,	 &o->updelay_given,
			       &o->downdelay_given, &o->hash_given,	 &o->lacp_rate_given,
			       &o->ad_select_given, &o->min_links_given, &o->primary_given};

	for (size_t i = 0; i < RDC_ARRAY_SIZE(given); i++)
		if (!rdc_bool_stored_ok(given[i]))
			return false;
	return true;
}

static bool bond_read_valid(const struct rdc_bond *b)
{
	if (!rdc_bool_stored_ok(&b->admin_up) || !rdc_bool_stored_ok(&b->carrier) ||
	    !rdc_bool_stored_ok(&b->rdma_soft) || !TERMINATED(b->name) || !TERMINATED(b->primary) ||
	    !TERMINATED(b->active_member) || !TERMINATED(b->ad_partner_mac) ||
	    !TERMINATED(b->rdma_device) || !TERMINATED(b->rdma_reason) ||
	    b->nmembers > RDC_BOND_MAX_MEMBERS)
		return false;
	for (size_t i = 0; i < b->nmembers; i++)
		if (!rdc_bool_stored_ok(&b->members[i].carrier) ||
		    !TERMINATED(b->members[i].name) || !TERMINATED(b->members[i].duplex) ||
		    !TERMINATED(b->members[i].perm_hwaddr))
			return false;
	return true;
}

/* Every count in range, every name a name: the journal may be damaged. */
static bool bond_plan_valid(const struct rdc_bond_plan *p, const char *name)
{
	if (!TERMINATED(p->name) || strcmp(p->name, name) || !TERMINATED(p->primary) ||
	    p->nmembers > RDC_BOND_MAX_MEMBERS || p->nsteps > RDC_BOND_PLAN_STEPS ||
	    p->nskipped > RDC_ARRAY_SIZE(p->skipped) || p->naddr6 > RDC_BOND_PLAN_ADDR6 ||
	    !bond_read_valid(&p->before) || !bond_read_valid(&p->after) ||
	    !rdc_bool_stored_ok(&p->existed) || !rdc_bool_stored_ok(&p->deleted) ||
	    !rdc_bool_stored_ok(&p->addr6_unread) || !bond_opts_valid(&p->want_opts))
		return false;
	for (size_t i = 0; i < p->nmembers; i++)
		if (!TERMINATED(p->members[i]) || !rdc_ifname_valid(p->members[i]))
			return false;
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct rdc_bond_step *st = &p->steps[i];

		if (st->op < RDC_BOND_OP_CREATE || st->op > RDC_BOND_OP_RELEASE ||
		    !TERMINATED(st->netdev) || !TERMINATED(st->text) ||
		    !bond_opts_valid(&st->opts) || !bond_opts_valid(&st->undo_opts) ||
		    (st->netdev[0] && !rdc_ifname_valid(st->netdev)))
			return false;
	}
	for (size_t i = 0; i < p->nskipped; i++)
		if (!TERMINATED(p->skipped[i]))
			return false;
	for (size_t i = 0; i < p->naddr6; i++)
		if (!TERMINATED(p->addr6[i].netdev) || p->addr6[i].addr.prefix_len > 128)
			return false;
	return true;
}

static int bond_change_load(const void *blob, const char *name, void **out, struct rdc_err *err)
{
	struct rdc_bond_plan *p = malloc(sizeof(*p));

	if (!p)
		return rdc_err_set(err, ENOMEM, "out of memory");
	memcpy(p, blob, sizeof(*p));
	if (!bond_plan_valid(p, name)) {
		free(p);
		return rdc_err_set(err, EINVAL,
				   "not a bond plan of '%s' (a count, a name or a flag "
				   "out of range)",
				   name);
	}
	*out = p;
	return 0;
}

/* Whether @netdev is enslaved to @bond now. */
static bool enslaved_to(const char *netdev, const char *bond)
{
	struct rdc_netdev nd;
	bool yes = !rdc_netdev_read(netdev, &nd, NULL) && !strcmp(nd.master, bond);

	rdc_netdev_free(&nd);
	return yes;
}

/*
 * Whether the step's effect is there now, so its undo has something to
 * undo: the run that wrote the journal may have stopped before or after
 * any step.  Each undo is then one the kernel takes (no release of a
 * netdev that is not a member, no delete of a bond that is not there).
 */
/* Whether any option the step set reads as it set it (its effect is there). */
static bool opts_in_effect(const struct rdc_bond_plan *p, const struct rdc_bond_opts *o)
{
	struct rdc_bond now;

	if (rdc_bond_read(p->name, &now, NULL))
		return false;
	return (o->mode_given && now.mode == o->mode) ||
	       (o->miimon_given && now.miimon_ms == (int64_t)o->miimon_ms) ||
	       (o->updelay_given && now.updelay_ms == (int64_t)o->updelay_ms) ||
	       (o->downdelay_given && now.downdelay_ms == (int64_t)o->downdelay_ms) ||
	       (o->hash_given && now.xmit_hash_policy == o->hash) ||
	       (o->lacp_rate_given && now.lacp_rate == o->lacp_rate) ||
	       (o->ad_select_given && now.ad_select == o->ad_select) ||
	       (o->min_links_given && now.min_links == (int64_t)o->min_links) || o->primary_given;
}

/*
 * A member's "up" after it joined (or left) is there only while it is a
 * member (or not): once the join was undone, the member is up because it
 * was up before, and taking it down would be a flap of the undo's own.
 */
static bool up_in_effect(const struct rdc_bond_plan *p, size_t i)
{
	const struct rdc_bond_step *st = &p->steps[i];
	bool up;

	if (admin_up(st->netdev, &up, NULL) || !up)
		return false;
	while (i-- > 0)
		if (!strcmp(p->steps[i].netdev, st->netdev)) {
			if (p->steps[i].op == RDC_BOND_OP_ENSLAVE)
				return enslaved_to(st->netdev, p->name);
			if (p->steps[i].op == RDC_BOND_OP_RELEASE)
				return !enslaved_to(st->netdev, p->name);
			break;
		}
	return true;
}

static bool step_in_effect(const struct rdc_bond_plan *p, size_t i)
{
	const struct rdc_bond_step *st = &p->steps[i];
	bool up;

	switch (st->op) {
	case RDC_BOND_OP_CREATE:
		return rdc_netdev_exists(p->name);
	case RDC_BOND_OP_OPTS:
		return rdc_netdev_exists(p->name) && opts_in_effect(p, &st->opts);
	case RDC_BOND_OP_DELETE:
		return !rdc_netdev_exists(p->name);
	case RDC_BOND_OP_DOWN:
		return !admin_up(st->netdev, &up, NULL) && !up;
	case RDC_BOND_OP_UP:
		return up_in_effect(p, i);
	case RDC_BOND_OP_ENSLAVE:
		return enslaved_to(st->netdev, p->name);
	case RDC_BOND_OP_RELEASE:
		return rdc_netdev_exists(p->name) && !enslaved_to(st->netdev, p->name);
	}
	return false;
}

/*
 * The undo of each step whose effect is there, newest first, then the
 * members' IPv6 addresses.  A bond whose mode reads neither what it was nor
 * what the plan set was changed by another writer since: left alone.
 */
static int bond_change_revert(void *pv, struct rdc_err *err)
{
	struct rdc_bond_plan *p = pv;
	struct rdc_bond now;
	char added[160];
	int rc = 0, r;

	if (p->want_opts.mode_given && !rdc_bond_read(p->name, &now, NULL) &&
	    now.mode != p->want_opts.mode && (!p->existed || now.mode != p->before.mode))
		return rdc_err_set(err, EBUSY,
				   "'%s' reads mode %s, neither what it was nor what that change "
				   "set: left as it is (another writer's)",
				   p->name, rdc_bond_mode_name(now.mode));
	for (size_t i = p->nsteps; i-- > 0;) {
		if (!step_in_effect(p, i))
			continue;
		r = step_do(p, &p->steps[i], true, rc ? NULL : err);
		if (r && !rc) {
			rdc_err_prefix(err, "undoing '%s'", p->steps[i].text);
			rc = r;
		}
	}
	r = plan_addr6_restore(p, added, sizeof(added), rc ? NULL : err);
	return rc ? rc : r;
}

const struct rdc_change_ops rdc_bond_change_ops = {
	.empty = bond_change_empty,
	.apply = bond_change_apply,
	.revert = bond_change_revert,
	.name = bond_change_name,
	.kind = "bond",
	.blob_size = sizeof(struct rdc_bond_plan),
	.blob = bond_change_blob,
	.load = bond_change_load,
};
