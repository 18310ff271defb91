/* SPDX-License-Identifier: GPL-2.0-or-later */
/* profile.h - named QoS profiles as data: what they want of a netdev, as pfc set would say it */
#pragma once

#include <stdint.h>

#include "base/argv.h"
#include "base/err.h"
#include "dcb/plan.h"

/*
 * roce-lossless, the settings NVIDIA's and the switch vendors' RoCE guides
 * agree on: DSCP trust; RoCE data on DSCP 26 -> priority 3 -> TC 3, PFC on
 * that priority only, ETS 50/50 with TC 0; CNPs on DSCP 48 -> priority 6 ->
 * TC 6, strict and not PFC-enabled; RDMA-CM ToS = DSCP << 2 | ECT(0); ECN
 * and the CNP DSCP/priority where the driver exposes them.
 */
struct rdc_dcb_profile {
	const char *name;
	uint32_t prio;	   /* the lossless priority, 0-7 */
	uint32_t dscp;	   /* the RoCE data DSCP, 0-63 */
	uint32_t cnp_dscp; /* the CNP DSCP */
	uint32_t cnp_prio; /* the CNP priority */
};

/* The profiles there are, NULL-terminated (for help, completion and messages). */
extern const char *const rdc_dcb_profile_names[];

/* @p = the profile @name with its defaults; -ENOENT for an unknown name. */
int rdc_dcb_profile_init(struct rdc_dcb_profile *p, const char *name);
/* Parameters that contradict each other (CNPs on the lossless priority): -EINVAL with why. */
int rdc_dcb_profile_check(const struct rdc_dcb_profile *p, struct rdc_err *err);
/*
 * The desired state of @p on @t: the same want `pfc set` keywords or a
 * keyword device of a YAML file would give.  ECN is wanted where the driver
 * has MLNX_OFED's ECN files, the RDMA-CM defaults where @t has RDMA ports
 * and rdma_cm's configfs is there.
 */
void rdc_dcb_profile_want(const struct rdc_dcb_profile *p, const struct rdc_dcb_target *t,
			  struct rdc_dcb_want *w);

/*
 * The command that applies @p to @dev, as words: "rdmactl pfc apply dev DEV
 * profile NAME", then prio, dscp, cnp-dscp and cnp-prio where they are not
 * the profile's defaults.
 */
void rdc_dcb_profile_argv(const struct rdc_dcb_profile *p, const char *dev, struct rdc_argv *a);
