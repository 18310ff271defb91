/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_metrics.h - `rdmactl diag metrics`: node_exporter textfile metrics of the RDMA ports */
#pragma once

#include <stdint.h>

#include "cmd.h"

/* What its keywords fill. */
struct diag_metrics_opts {
	uint64_t interval_ns;	 /* between two counter samples; 0 (default): one sample */
	const char *out;	 /* the .prom file to replace atomically; NULL: stdout */
	const char *policy_file; /* -f: the diag thresholds */
};

void diag_metrics_defaults(void *opts);
int diag_metrics_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts);
extern const struct rdc_param diag_metrics_params[];
