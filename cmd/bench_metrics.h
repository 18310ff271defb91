/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_metrics.h - the last bench run per link as node_exporter textfile metrics */
#pragma once

#include "base/err.h"
#include "bench/report.h"
#include "out/prom.h"

/*
 * Add the metrics of run @r (client side) to @m: per link (labels device,
 * port, netdev of the local end, and test) its bandwidth, message rate,
 * latency (lat), failed completions, longest stall, carrier losses and
 * outage, the port counters' change over the run; for the run its total,
 * success and @now_s (Unix time) as rdmactl_bench_last_run_timestamp_seconds.
 * What the run did not measure is left out.  0 or -errno (the set's error).
 */
int bench_metrics_fill(struct rdc_prom *m, const struct rdc_bench_report *r, double now_s,
		       struct rdc_err *err);

/*
 * The same into a fresh set, written atomically to @path (rdc_prom_write_file():
 * a device, link, FIFO, another user's file or "-" is refused).
 */
int bench_metrics_write(const struct rdc_bench_report *r, const char *path, struct rdc_err *err);

/* The same as text, for `metrics -` (rdc_prom_render(): *@buf malloc'd, the caller frees it). */
int bench_metrics_render(const struct rdc_bench_report *r, char **buf, size_t *len,
			 struct rdc_err *err);
