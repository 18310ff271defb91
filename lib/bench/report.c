// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - a run's report: what it owns */
#include <stdlib.h>
#include <string.h>

#include "bench/report.h"

void rdc_bench_report_free(struct rdc_bench_report *r)
{
	for (uint32_t i = 0; i < r->nlinks; i++) {
		free(r->links[i].res.interval_bytes);
		free(r->links[i].res.lat_ns);
		rdc_counters_free(&r->links[i].counters);
	}
	memset(r, 0, sizeof(*r));
}
