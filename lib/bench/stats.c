// SPDX-License-Identifier: GPL-2.0-or-later
/* stats.c - rates, percentiles, standard deviation, /proc/stat CPU */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stats.h"
#include "seam/fs.h"

double rdc_bench_gbps(uint64_t bytes, uint64_t ns)
{
	/* bits per nanosecond are Gb/s */
	return ns ? (double)bytes * 8.0 / (double)ns : 0.0;
}

double rdc_bench_mmsgps(uint64_t msgs, uint64_t ns)
{
	/* messages per microsecond are millions per second */
	return ns ? (double)msgs * 1e3 / (double)ns : 0.0;
}

double rdc_bench_imbalance(const double *rates, size_t n)
{
	double min, max, sum = 0;

	if (n < 2)
		return 0;
	min = max = rates[0];
	for (size_t i = 0; i < n; i++) {
		sum += rates[i];
		if (rates[i] < min)
			min = rates[i];
		if (rates[i] > max)
			max = rates[i];
	}
	if (sum <= 0)
		return 0;
	return (max - min) / (sum / (double)n);
}

void rdc_bench_interval_range(const uint64_t *bytes, size_t n, uint64_t interval_ns, double *min,
			      double *max)
{
	*min = *max = 0;
	for (size_t i = 0; i < n; i++) {
		double g = rdc_bench_gbps(bytes[i], interval_ns);

		if (i == 0 || g < *min)
			*min = g;
		if (i == 0 || g > *max)
			*max = g;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t rdc_percentile_sorted(const uint64_t *sorted, size_t n, double p)
{
	uint64_t ppm, rank;

	if (!n)
		return 0;
	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	/*
	 * The rank in integers: in doubles 99.9 / 100 * 1000 is a hair above
	 * 999 and its ceiling one rank too high.
	 */
	ppm = (uint64_t)llround(p * 1e6);
	rank = (ppm * n + 100000000 - 1) / 100000000;
	return sorted[rank ? rank - 1 : 0];
}

unsigned int rdc_lat_bucket(uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned int k = 0;

	/* us in [2^(k-1), 2^k): k is its bit length */
	while (us && k < RDC_LAT_BUCKETS - 1) {
		us >>= 1;
		k++;
	}
	return k;
}

void rdc_lat_bucket_range(unsigned int k, uint64_t *from_us, uint64_t *to_us)
{
	*from_us = k ? 1ull << (k - 1) : 0;
	*to_us = k + 1 < RDC_LAT_BUCKETS ? 1ull << k : 0;
}

void rdc_lat_stats_compute(uint64_t *samples, size_t n, struct rdc_lat_stats *st)
{
	double sum = 0, sq = 0, mean;

	memset(st, 0, sizeof(*st));
	st->count = n;
	if (!n)
		return;
	qsort(samples, n, sizeof(*samples), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		sum += (double)samples[i];
		st->hist[rdc_lat_bucket(samples[i])]++;
	}
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (double)samples[i] - mean;

		sq += d * d;
	}
	st->min_us = (double)samples[0] / 1e3;
	st->max_us = (double)samples[n - 1] / 1e3;
	st->p50_us = (double)rdc_percentile_sorted(samples, n, 50) / 1e3;
	st->p99_us = (double)rdc_percentile_sorted(samples, n, 99) / 1e3;
	st->p999_us = (double)rdc_percentile_sorted(samples, n, 99.9) / 1e3;
	st->mean_us = mean / 1e3;
	st->stdev_us = n > 1 ? sqrt(sq / (double)(n - 1)) / 1e3 : 0;
}
