/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - what `rdmactl bench` shares with its tests: the client's document */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "bench/bench.h"
#include "bench/report.h"
#include "bench/stats.h"
#include "out/out.h"

/*
 * Emit run @r as the client's document ("bench-client") on @o, in the text
 * or a machine format; @said_clock: the progress lines already said the
 * report's clock.  Fills @link_gbps (each link's Gb/s, over the run's window
 * in duration mode) and returns the total Gb/s, for the thresholds.
 */
double bench_client_doc(struct rdc_out *o, const struct rdc_bench_report *r, bool said_clock,
			double link_gbps[RDC_BENCH_MAX_LINKS]);

/*
 * One size of a sweep (size all): a row of the text's table, an object of
 * the document's "sizes", with the keys of a single run's "total" and, for
 * the latency tests, latency_us over every link's samples.
 */
struct bench_size_row {
	struct rdc_bench_params params; /* the run's: size, iters or duration */
	int status;			/* 0, or -errno: cut short, or a link failed */
	char error[RDC_ERR_MSG_LEN];
	uint64_t bytes, msgs, window_ns;
	double gbps, mmsgs_per_s, imbalance, host_cpu_pct;
	struct rdc_lat_stats lat; /* the latency tests */
};

struct bench_sweep {
	size_t nrows;
	struct bench_size_row rows[RDC_BENCH_SWEEP_SIZES];
};

/* Add run @r (one size of a sweep) as a row; -ENOMEM when its samples cannot be merged. */
int bench_sweep_add(struct bench_sweep *sw, const struct rdc_bench_report *r);

/*
 * bench_client_doc() with a sweep's rows (@sweep NULL: a single run, "sizes"
 * null): the top-level keys are the last size's run, "sizes" holds every
 * row; @said_rows: the progress lines already showed the rows.
 */
double bench_client_doc_sweep(struct rdc_out *o, const struct rdc_bench_report *r, bool said_clock,
			      double link_gbps[RDC_BENCH_MAX_LINKS],
			      const struct bench_sweep *sweep, bool said_rows);
