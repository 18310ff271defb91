/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port.h - the actions of `rdmactl port`, one file each */
#pragma once

#include "host/ibdev.h"
#include "cmd.h"

int port_show_run(struct rdc_ctx *ctx, int argc, char **argv);
int port_gids_run(struct rdc_ctx *ctx, int argc, char **argv);
int port_stats_run(struct rdc_ctx *ctx, int argc, char **argv);
int port_set_run(struct rdc_ctx *ctx, int argc, char **argv);

extern const struct rdc_action port_actions[];

/*
 * Read all ports and keep the ones @object names (all when NULL).  Prints the
 * error and returns an exit code, or 0 with @ports filled.
 */
int port_select(struct rdc_ctx *ctx, const char *object, struct rdc_port_list *ports);
/* Emit a non-empty string, or null in JSON/YAML (skipped in text). */
void port_out_opt_str(struct rdc_out *o, const char *key, const char *fmt, const char *v);
