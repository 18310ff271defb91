/* SPDX-License-Identifier: GPL-2.0-or-later */
/* client.h - a whole run as the client: control connection, links, report */
#pragma once

#include <signal.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/bench.h"
#include "bench/links.h"
#include "bench/report.h"

struct rdc_bench_client_opts {
	const char *host;
	uint16_t port;
	struct rdc_bench_params params;
	struct rdc_bench_link_spec specs[RDC_BENCH_MAX_LINKS];
	uint32_t nspecs;
	volatile sig_atomic_t *interrupted; /* set by a signal handler to end the run */
	/*
	 * perftest -a: one run per power of two from RDC_BENCH_SWEEP_MIN to
	 * RDC_BENCH_SWEEP_MAX bytes (params.size is ignored), one after the other
	 * on one control connection.
	 */
	bool size_all;
};

struct rdc_bench_client_cb {
	/* The links are paired and connected; the run starts next. */
	void (*linked)(void *arg, const struct rdc_bench_report *r);
	/* Interval @k (from the window start) ended: @bytes per link. */
	void (*interval)(void *arg, const struct rdc_bench_report *r, size_t k,
			 const uint64_t *bytes);
	/*
	 * size_all: the run of one size ended, whole or cut short (r->status
	 * and the links' res.status say which); @r is emptied for the next
	 * size after this returns.
	 */
	void (*size_done)(void *arg, const struct rdc_bench_report *r);
	void *arg;
};

/*
 * Run a benchmark against a server.  Returns 0 when the run went through
 * (links may still have failed: see each link's res.status), or -errno
 * with @err when it could not start or was cut short (then r->started says
 * whether the link results are partial measurements).  A sweep (size_all)
 * stops at the first size where a link failed, -EIO naming it; @r holds
 * the last size's run.
 */
int rdc_bench_client_run(const struct rdc_bench_client_opts *o,
			 const struct rdc_bench_client_cb *cb, struct rdc_bench_report *r,
			 struct rdc_err *err);
