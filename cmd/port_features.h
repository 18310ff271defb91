/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port_features.h - `rdmactl port features`: node labels for Node Feature Discovery */
#pragma once

#include "cmd.h"

struct port_features_opts {
	const char *out; /* NULL or "-": standard output */
};

extern const struct rdc_param port_features_params[];

int port_features_run(struct rdc_ctx *ctx, const struct rdc_action *act,
		      const struct rdc_args *args, void *opts);
