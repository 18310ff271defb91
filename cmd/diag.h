/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.h - `rdmactl diag`: what its keywords fill, and the actions in the other files */
#pragma once

#include <stdint.h>

#include "cmd.h"
#include "diag/diag.h"

struct diag_opts {
	uint64_t interval_ns;	 /* between the two samples; 0: one sample */
	int profile;		 /* 1: roce-lossless given */
	unsigned int prio, dscp; /* the profile's */
	const char *policy_file; /* -f */
	const char *out;	 /* collect: the bundle to write */
};

void diag_defaults(void *opts);
/* Run the checks on @h and print the report; the exit status of the findings. */
int diag_report(struct rdc_ctx *ctx, const struct rdc_diag_host *h, const char *const *only,
		size_t nonly, const char *const *skip, size_t nskip);

int diag_collect_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts);
extern const struct rdc_param diag_collect_params[];
