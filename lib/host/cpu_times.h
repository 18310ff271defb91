/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_times.h - host-wide CPU time from /proc/stat, for busy percentages */
#pragma once

#include <stdint.h>

#include "base/err.h"

/* The host-wide CPU times of /proc/stat's "cpu" line, in clock ticks. */
struct rdc_cpu_times {
	uint64_t busy;	/* user+nice+system+irq+softirq+steal */
	uint64_t total; /* busy + idle + iowait */
};

/*
 * Parse the first line of /proc/stat.  guest and guest_nice are already
 * counted in user and nice, so they are not added again.  -EINVAL when the
 * line is not there or has fewer than 8 numbers (kernels since 2.6.11 have them).
 */
int rdc_cpu_times_parse(const char *text, struct rdc_cpu_times *t);
int rdc_cpu_times_read(struct rdc_cpu_times *t, struct rdc_err *err);
/* Busy percentage between two readings; 0 when no tick passed. */
double rdc_cpu_busy_percent(const struct rdc_cpu_times *a, const struct rdc_cpu_times *b);
