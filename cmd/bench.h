/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - what `rdmactl bench` shares with its tests: the client's document */
#pragma once

#include <stdbool.h>

#include "bench/bench.h"
#include "bench/report.h"
#include "out/out.h"

/*
 * Emit run @r as the client's document ("bench-client") on @o, in the text
 * or a machine format; @said_clock: the progress lines already said the
 * report's clock.  Fills @link_gbps (each link's Gb/s, over the run's window
 * in duration mode) and returns the total Gb/s, for the thresholds.
 */
double bench_client_doc(struct rdc_out *o, const struct rdc_bench_report *r, bool said_clock,
			double link_gbps[RDC_BENCH_MAX_LINKS]);
