/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h - what a run measured, per link and in all, as client and server report it */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/counters.h"
#include "base/err.h"
#include "bench/bench.h"
#include "bench/engine.h"
#include "bench/links.h"
#include "bench/stats.h"

/* One link as the report shows it. */
struct rdc_bench_link_report {
	struct rdc_bench_endpoint local, remote;
	uint32_t path_mtu;
	struct rdc_bench_result res;	  /* owns its interval and latency arrays */
	struct rdc_lat_stats lat;	  /* lat only */
	struct rdc_counter_set counters;  /* deltas over the run of the port's error, congestion
					    and pause counters that exist */
	struct rdc_bench_link_count peer; /* what the other side counted */
	/*
	 * The port's carrier (state ACTIVE), watched during the measured part:
	 * its last outage, CLOCK_MONOTONIC times (rdc_bench_report_clock_s()
	 * puts them on the report's clock).
	 */
	bool carrier_lost;	  /* the port left ACTIVE during the run */
	uint64_t carrier_lost_ns; /* when (the last time, when it went more than once) */
	bool carrier_back;	  /* ACTIVE again after that, before the run's end */
	uint64_t carrier_back_ns;
	uint32_t carrier_losses; /* how many times it left ACTIVE */
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
	/*
	 * bidir: the server's own requesters' window (protocol 4's RESULT
	 * window_ns), over which its direction's rates are counted; 0: none.
	 */
	uint64_t server_window_ns;
	double host_cpu_percent;     /* busy share of all CPUs over the window */
	int status;		     /* 0, or -errno when the run was cut short */
	char error[RDC_ERR_MSG_LEN]; /* why: an error record's message, whole */
};

void rdc_bench_report_free(struct rdc_bench_report *r);

/*
 * The report's one clock: every time a report shows (intervals, carrier
 * lost and back, stalls, failures) is seconds from its origin, the end of
 * the warm-up (the start of traffic when there is none).  A time before it
 * (in the warm-up) is negative.
 */
uint64_t rdc_bench_report_origin_ns(const struct rdc_bench_report *r);
double rdc_bench_report_clock_s(const struct rdc_bench_report *r, uint64_t t);

/* One look at @lr's port at @now: record a loss of carrier, or its return. */
void rdc_bench_carrier_note(struct rdc_bench_link_report *lr, bool active, uint64_t now);

/*
 * What a port counter means, for the text: "retransmissions", "timeouts",
 * "receiver not ready", "drops", "congestion", "pause frames", ...; NULL for a
 * counter the report names as it is.  @name is the kernel's, @group the set's.
 */
const char *rdc_bench_counter_meaning(const char *group, const char *name);
