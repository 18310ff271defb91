/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port.h - the actions of `rdmactl port`, one file each */
#pragma once

#include <stdbool.h>

#include "host/ibdev.h"
#include "host/rdma_netns.h"
#include "host/resolve.h"
#include "cmd.h"

#include <stdint.h>

int port_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts);
int port_gids_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts);
int port_stats_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		   void *opts);
int port_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts);

/* `port stats` keywords, converted by its table. */
/* Which counters `port stats` prints. */
enum port_stats_filter {
	PORT_STATS_ALL,
	/* faults (errors, drops, discards, retries: rdc_counter_is_fault) not 0, or that moved */
	PORT_STATS_ERRORS,
	PORT_STATS_ERRORS_ALL, /* every fault counter, 0 or not */
	PORT_STATS_NONZERO,    /* value not 0, or with an interval: moved */
};

struct port_stats_opts {
	double interval_s; /* 0: one sample */
	uint32_t count;	   /* 0: until interrupted */
	bool errors;	   /* the keywords, combined by port_stats_filter() */
	bool nonzero;
	bool all;
};

enum port_stats_filter port_stats_filter(const struct port_stats_opts *so);
const char *port_stats_filter_name(enum port_stats_filter filter);

/* `port set` keywords, converted by its table. */
struct port_set_opts {
	uint32_t mtu; /* bytes */
	bool mtu_given;
	int admin_up; /* -1: leave, 0: down, 1: up */
};

extern const struct rdc_action port_actions[];

/*
 * Read all ports and keep the ones @object names (all when NULL): a device,
 * DEV/PORT, a netdev (upper ones too) or an IP address; @q (may be NULL)
 * says which it was (host/resolve.h).  Prints the error and returns an exit
 * code, or 0 with @ports filled.
 */
int port_select(struct rdc_ctx *ctx, const char *object, struct rdc_port_list *ports,
		struct rdc_port_query *q);
/*
 * A host without RDMA devices: nothing to act on.  Says so on stderr and
 * returns the exit code (1) when @count is 0 and nothing else was
 * reported (@issues); 0 otherwise.
 */
int port_none_found(struct rdc_ctx *ctx, size_t count, unsigned int issues);
/* The RDMA subsystem's netns mode, UNKNOWN when the kernel (or the bundle) does not say. */
enum rdc_rdma_netns_mode port_netns_mode(void);
/* Emit a non-empty string, or null in JSON/YAML (skipped in text). */
void port_out_opt_str(struct rdc_out *o, const char *key, const char *fmt, const char *v);
/* The same, but a value that exists and could not be read (@bad) is null, or "?" in text. */
void port_out_str_or_bad(struct rdc_out *o, const char *key, const char *fmt, const char *v,
			 bool bad);
/*
 * Print one line on stderr per value that could not be read (file and why,
 * control characters escaped); returns how many values that was.
 */
unsigned int port_report_issues(struct rdc_ctx *ctx, const struct rdc_issues *is);
/* The same for every issue of a port: its own, its PCI function's, its netdev's. */
unsigned int port_report_port_issues(struct rdc_ctx *ctx, const struct rdc_port *p);
