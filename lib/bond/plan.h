/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - changing a bond the careful way: read, plan in the kernel's order, write, verify, undo */
#pragma once

#include <net/if.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/change.h"
#include "base/err.h"
#include "bond/bond.h"
#include "kernel/addr.h"

#define RDC_BOND_PLAN_STEPS 96
#define RDC_BOND_PLAN_ADDR6 32 /* the joining members' static IPv6 addresses a plan keeps */

/* What a bond should become: `bond create/set/add/del` keywords or a netplan file say it. */
struct rdc_bond_want {
	char name[IF_NAMESIZE];
	bool create;		   /* create it when it does not exist */
	struct rdc_bond_opts opts; /* the options given (primary by name below) */
	char primary[IF_NAMESIZE]; /* with opts.primary_given; "" clears it */
	bool members_exact;	   /* the member set is exactly members[] (create, apply) */
	size_t nmembers;	   /* members to have (exact) or to add */
	char members[RDC_BOND_MAX_MEMBERS][IF_NAMESIZE];
	size_t nremove; /* members to release (del) */
	char remove[RDC_BOND_MAX_MEMBERS][IF_NAMESIZE];
};

enum rdc_bond_op {
	RDC_BOND_OP_CREATE, /* the bond, with opts */
	RDC_BOND_OP_DELETE, /* the bond */
	RDC_BOND_OP_OPTS,   /* bond options (opts; undo_opts put back what was) */
	RDC_BOND_OP_DOWN,   /* admin state of netdev */
	RDC_BOND_OP_UP,
	RDC_BOND_OP_ENSLAVE, /* netdev into the bond */
	RDC_BOND_OP_RELEASE, /* netdev out of the bond */
};

struct rdc_bond_step {
	enum rdc_bond_op op;
	char netdev[IF_NAMESIZE];
	struct rdc_bond_opts opts, undo_opts;
	char text[200]; /* what it does, as an operator would say it ("set eth0 down") */
};

/* A static IPv6 address of a member that joins, kept to be put back after an undo. */
struct rdc_bond_addr6 {
	char netdev[IF_NAMESIZE];
	struct rdc_addr6 addr;
};

struct rdc_bond_plan {
	char name[IF_NAMESIZE];
	bool existed;			/* the bond was there before */
	struct rdc_bond before;		/* as read (when it existed) */
	struct rdc_bond_opts want_opts; /* the options the bond should read afterwards */
	char primary[IF_NAMESIZE];
	size_t nmembers; /* the members it should have afterwards */
	char members[RDC_BOND_MAX_MEMBERS][IF_NAMESIZE];
	bool deleted; /* the plan removes the bond */
	size_t nsteps;
	struct rdc_bond_step steps[RDC_BOND_PLAN_STEPS];
	size_t nskipped; /* options given that the mode does not use: not sent */
	char skipped[8][48];
	struct rdc_bond after; /* read back after apply (or the expectation on a dry run) */
	/*
	 * The joining members' permanent IPv6 addresses, link-local ones aside:
	 * the kernel drops them when a member goes down to be enslaved
	 * (keep_addr_on_down 0, the default; seen in the lab, the enslave
	 * itself keeps them), and puts back only the link-local one.  An undo
	 * (rollback or revert) adds back those missing.  addr6_unread: they
	 * could not all be read (a --root bundle or recording without them,
	 * more than RDC_BOND_PLAN_ADDR6), so an undo cannot vouch for them.
	 */
	size_t naddr6;
	struct rdc_bond_addr6 addr6[RDC_BOND_PLAN_ADDR6];
	bool addr6_unread;
};

/*
 * Read the bond and its would-be members and plan @w in the order the kernel
 * demands: a mode change only while the bond is down and has no members,
 * lacp_rate and ad_select only while it is down, members down before they
 * are enslaved.  Only options the mode uses are sent; nothing that already
 * reads as wanted.  Nothing is written.  -EINVAL (with why) for a want that
 * cannot be: a member that is no netdev, or is another bond's, a primary
 * that is not a member.
 */
int rdc_bond_plan_make(const struct rdc_bond_want *w, struct rdc_bond_plan *p, struct rdc_err *err);
/* Plan removing the bond: members released and left up, then the bond deleted. */
int rdc_bond_plan_delete(const char *name, struct rdc_bond_plan *p, struct rdc_err *err);
static inline bool rdc_bond_plan_empty(const struct rdc_bond_plan *p)
{
	return p->nsteps == 0;
}
/*
 * Run the steps; read the bond back and compare with the plan.  On any
 * failure undo every step done, newest first, then add back the members'
 * static IPv6 addresses that went, so the bond and its members read as
 * before; err says what failed, whether the undo did too, and which IPv6
 * addresses were added back.
 * @stop, when set by a signal, ends the run between steps (then undone).
 */
int rdc_bond_plan_apply(struct rdc_bond_plan *p, volatile sig_atomic_t *stop, struct rdc_err *err);
/*
 * A bond plan as one change of the engine (base/change.h): @plan is a struct
 * rdc_bond_plan.  Its revert undoes, newest first, each step whose effect
 * is there now (the apply may have stopped anywhere: a crash, a journal),
 * then adds back the members' static IPv6 addresses; a bond whose mode reads
 * neither the old one nor the plan's is another writer's and left alone.
 */
extern const struct rdc_change_ops rdc_bond_change_ops;
