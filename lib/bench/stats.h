/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.h - the arithmetic of a benchmark report: rates, latency statistics, CPU */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Gb/s (10^9 bit/s, as link rates are quoted) of @bytes over @ns; 0 when @ns is 0. */
double rdc_bench_gbps(uint64_t bytes, uint64_t ns);
/* Millions of messages per second. */
double rdc_bench_mmsgps(uint64_t msgs, uint64_t ns);
/* (max - min) / mean of @n rates; 0 for fewer than two or a zero mean. */
double rdc_bench_imbalance(const double *rates, size_t n);

/* Lowest and highest of @n interval byte counts as Gb/s over @interval_ns each. */
void rdc_bench_interval_range(const uint64_t *bytes, size_t n, uint64_t interval_ns, double *min,
			      double *max);

/*
 * Latency histogram, log2 buckets of microseconds: bucket 0 holds samples
 * below 1 us, bucket k (k >= 1) those in [2^(k-1), 2^k) us; the last one
 * everything from 2^(RDC_LAT_BUCKETS - 2) us (about 1.2 h) on.
 */
#define RDC_LAT_BUCKETS 34

struct rdc_lat_stats {
	size_t count;
	double min_us, p50_us, p99_us, p999_us, max_us, mean_us, stdev_us;
	uint64_t hist[RDC_LAT_BUCKETS];
};

/* The bucket of a sample of @ns nanoseconds. */
unsigned int rdc_lat_bucket(uint64_t ns);
/* Bucket @k's range in microseconds: [*from_us, *to_us); to_us 0 for the last, open one. */
void rdc_lat_bucket_range(unsigned int k, uint64_t *from_us, uint64_t *to_us);

/*
 * Statistics of @n latency samples in nanoseconds.  Sorts @samples in place.
 * Percentiles by nearest rank: the p-th is the smallest sample with at least
 * p% of the samples at or below it (sorted[ceil(p/100 * n) - 1]).  Every
 * sample is kept (perftest drops the two largest).  The standard deviation is
 * the sample one (n - 1), computed in double from the mean.
 */
void rdc_lat_stats_compute(uint64_t *samples, size_t n, struct rdc_lat_stats *st);
/* The nearest-rank percentile @p (0 < p <= 100) of @n sorted samples. */
uint64_t rdc_percentile_sorted(const uint64_t *sorted, size_t n, double p);
