/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bond.h - `rdmactl bond`: what its keywords fill, and its actions in the other files */
#pragma once

#include <stdbool.h>

#include "bond/plan.h"
#include "cmd.h"

/* Everything a bond action's keywords may fill (each action's table fills its part). */
struct bond_opts {
	struct rdc_bond_want want;
	const char *file;	 /* apply -f */
	unsigned int qp_timeout; /* check: the RC QP's ACK timeout exponent */
	unsigned int retry_cnt;	 /* check */
	const char *member;	 /* failover member IF */
	double wait_s;		 /* failover wait SEC */
	const char *peer;	 /* failover peer HOST */
	uint32_t probe_hz;	 /* failover */
	bool no_rdma;		 /* failover: probes only */
	uint16_t bench_port;	 /* failover: the peer's bench server */
};

void bond_defaults(void *opts);

/*
 * A netdev's state beside what struct rdc_bond holds, in port show's names:
 * admin_up (IFF_UP), carrier and operstate (the kernel's word), read from
 * sysfs when the bond is reported.  The bond record has no admin state or
 * operstate of a member, and its carrier only from netlink.
 */
struct bond_netdev_state {
	int admin_up;	    /* 1, 0, -1 unknown */
	int carrier;	    /* 1, 0, -1 unknown (the kernel refuses to say while admin down) */
	char operstate[24]; /* "up", "down", ...; "" unknown */
};

/* The bond's and each member's (members[i] is b->members[i]'s). */
struct bond_states {
	struct bond_netdev_state bond;
	struct bond_netdev_state members[RDC_BOND_MAX_MEMBERS];
};

/* Read @b's states now; what cannot be read stays unknown. */
void bond_states_read(const struct rdc_bond *b, struct bond_states *s);
/*
 * One bond in JSON/YAML (and text for show): options, members, RoCE LAG.
 * @s: the states read with @b (bond_states_read()); NULL: unknown (null).
 */
void bond_emit(struct rdc_out *o, const char *key, const struct rdc_bond *b,
	       const struct bond_states *s, bool text);

int bond_check_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		   void *opts);
int bond_failover_run(struct rdc_ctx *ctx, const struct rdc_action *act,
		      const struct rdc_args *args, void *opts);
extern const struct rdc_param bond_check_params[];
extern const struct rdc_param bond_failover_params[];
