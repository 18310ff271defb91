/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pfc.h - `rdmactl pfc`: shared pieces of show, set and apply */
#pragma once

#include <net/if.h>

#include "dcb/plan.h"
#include "host/ibdev.h"
#include "cmd.h"

#define PFC_MAX_PORTS 8

/* The netdev a `dev X` or DEV[/PORT] argument means, and its RDMA ports. */
struct pfc_target {
	char netdev[IF_NAMESIZE];
	size_t nports;
	struct {
		char device[RDC_IBDEV_NAME];
		unsigned int port;
	} ports[PFC_MAX_PORTS];
};

extern const struct rdc_action pfc_actions[];

int pfc_show_run(struct rdc_ctx *ctx, int argc, char **argv);
int pfc_set_run(struct rdc_ctx *ctx, int argc, char **argv);
int pfc_apply_run(struct rdc_ctx *ctx, int argc, char **argv);

/* Resolve NAME (a netdev, or an RDMA DEV[/PORT]) to a target; prints errors, returns exit code. */
int pfc_target(struct rdc_ctx *ctx, const char *name, struct pfc_target *t);

/*
 * Turn the set keywords of @act found in @args into @want and file changes
 * (RoCE ToS/mode, ECN) on @t; usage errors print and return RDC_EXIT_USAGE.
 */
struct pfc_extra {
	int roce_tos;  /* -1: leave */
	int roce_mode; /* -1: leave, 1: RoCE v1, 2: RoCE v2 */
	bool ecn_given[RDC_DCB_PRIOS];
	bool ecn_on[RDC_DCB_PRIOS];
	int cnp_dscp; /* -1: leave */
	int cnp_prio;
};
int pfc_want_from_args(struct rdc_ctx *ctx, const struct rdc_action *act,
		       const struct rdc_args *args, struct rdc_dcb_want *want,
		       struct pfc_extra *extra);

/* Read the device and plan the change (allocated into *plan); prints errors, returns exit code. */
int pfc_prepare(struct rdc_ctx *ctx, const struct pfc_target *t, const struct rdc_dcb_want *want,
		const struct pfc_extra *extra, struct rdc_dcb_plan **plan);
/* The report of one device: changed, dry_run, the differences, before and after. */
void pfc_report(struct rdc_ctx *ctx, const struct pfc_target *t, const struct rdc_dcb_plan *plan);
/* The JSON/YAML/text of one device's DCB state (used by show and by change reports). */
void pfc_emit_state(struct rdc_out *o, const struct pfc_target *t, const struct rdc_dcb *dcb);
