/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pfc.h - `rdmactl pfc`: shared pieces of show, set and apply */
#pragma once

#include "dcb/plan.h"
#include "dcb/profile.h"
#include "host/dcb.h"
#include "cmd.h"

/* What `pfc set` keywords (and a keyword device of a YAML file) fill. */
struct pfc_set_opts {
	const char *dev;
	struct rdc_dcb_want want;
};

/* What `pfc show` keywords fill: the profile the verdict judges by. */
struct pfc_show_opts {
	struct rdc_dcb_profile profile; /* roce-lossless unless given */
};

/* What `pfc apply` keywords (and a profile device of a YAML file) fill. */
struct pfc_apply_opts {
	const char *dev;
	struct rdc_dcb_profile profile; /* name NULL: no profile given */
	const char *file;
};

int pfc_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts);
int pfc_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		void *opts);
int pfc_apply_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts);
void pfc_set_defaults(void *opts);

/* Resolve NAME (a netdev, or an RDMA DEV[/PORT]) to a target; prints errors, returns exit code. */
int pfc_target(struct rdc_ctx *ctx, const char *name, struct rdc_dcb_target *t);
/* Cross-keyword checks of a set want (trust pcp with dscp-prio); prints, returns exit code. */
int pfc_set_check(struct rdc_ctx *ctx, const struct rdc_args *args, const struct pfc_set_opts *so);
/* Read the device and plan the change (allocated into *plan); prints errors, returns exit code. */
int pfc_prepare(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_want *want, struct rdc_dcb_plan **plan);
/* The report of one device: changed, dry_run, the differences, before and after. */
void pfc_report(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_plan *plan);
