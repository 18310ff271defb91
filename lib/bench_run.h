/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_run.h - a whole run as client or server: control connection, links, report */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "bench_engine.h"
#include "bench_stats.h"
#include "counters.h"
#include "err.h"

/* One link as the report shows it. */
struct rdc_bench_link_report {
	struct rdc_bench_endpoint local, remote;
	uint32_t path_mtu;
	struct rdc_bench_result res;	  /* owns its interval and latency arrays */
	struct rdc_lat_stats lat;	  /* lat only */
	struct rdc_counter_set counters;  /* deltas over the run of the port's error, congestion
					    and pause counters that exist */
	struct rdc_bench_link_count peer; /* what the other side counted */
	bool carrier_lost;		  /* the port left ACTIVE during the run */
	uint64_t carrier_lost_ns;	  /* when, from the start */
};

struct rdc_bench_report {
	struct rdc_bench_params params;
	char peer[64];	    /* "198.18.1.1:18515" or the client's address on a server */
	char peer_host[64]; /* the peer's host name */
	uint32_t nlinks;
	struct rdc_bench_link_report links[RDC_BENCH_MAX_LINKS];
	bool started;	   /* the data moved; the link results mean something */
	uint64_t start_ns; /* CLOCK_MONOTONIC of the common start */
	uint64_t window_start_ns, window_end_ns; /* the common window */
	double host_cpu_percent;		 /* busy share of all CPUs over the window */
	int status;				 /* 0, or -errno when the run was cut short */
	char error[256];
};

void rdc_bench_report_free(struct rdc_bench_report *r);

struct rdc_bench_client_opts {
	const char *host;
	uint16_t port;
	struct rdc_bench_params params;
	struct rdc_bench_link_spec specs[RDC_BENCH_MAX_LINKS];
	uint32_t nspecs;
	volatile sig_atomic_t *interrupted; /* set by a signal handler to end the run */
};

struct rdc_bench_client_cb {
	/* The links are paired and connected; the run starts next. */
	void (*linked)(void *arg, const struct rdc_bench_report *r);
	/* Interval @k (from the window start) ended: @bytes per link. */
	void (*interval)(void *arg, const struct rdc_bench_report *r, size_t k,
			 const uint64_t *bytes);
	void *arg;
};

/*
 * Run a benchmark against a server.  Returns 0 when the run went through
 * (links may still have failed: see each link's res.status), or -errno
 * with @err when it could not start or was cut short (then r->started says
 * whether the link results are partial measurements).
 */
int rdc_bench_client_run(const struct rdc_bench_client_opts *o,
			 const struct rdc_bench_client_cb *cb, struct rdc_bench_report *r,
			 struct rdc_err *err);

struct rdc_bench_server_opts {
	const char *bind; /* NULL: every address */
	uint16_t port;
	bool has_allow;
	uint32_t allow_net, allow_prefix; /* clients allowed, host order */
	bool once;
	volatile sig_atomic_t *interrupted;
};

struct rdc_bench_server_cb {
	void (*listening)(void *arg, const char *addr, uint16_t port);
	/* A run's links are set up (r->links' local side is this host). */
	void (*run_begin)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	/* A run ended, or a client was turned away (r->status, r->error). */
	void (*run_end)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	void *arg;
};

/*
 * Serve runs one after another until interrupted (or after one with @once).
 * *@last_status is the last run's status: 0, or -errno when it failed.
 */
int rdc_bench_server_serve(const struct rdc_bench_server_opts *o,
			   const struct rdc_bench_server_cb *cb, int *last_status,
			   struct rdc_err *err);

/*
 * "10.0.0.0/8" -> net 0x0a000000, prefix 8; "10.1.2.3" -> prefix 32.
 * The host bits must be zero.  -EINVAL otherwise.
 */
int rdc_cidr4_parse(const char *text, uint32_t *net, uint32_t *prefix);
