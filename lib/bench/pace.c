// SPDX-License-Identifier: GPL-2.0-or-later
/* pace.c - bench's software rate limit: a virtual clock advanced per message posted */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bench/pace.h"

void rdc_bench_pace_init(struct rdc_bench_pace *pc, uint64_t rate_bps, uint32_t msg_bytes,
			 uint32_t chain, uint32_t depth, uint64_t start_ns)
{
	/* At most 16 MiB * 8 bits * 10^9: about 1.3e17, well inside 64 bits. */
	uint64_t bit_ns = (uint64_t)msg_bytes * 8u * 1000000000ull;

	*pc = (struct rdc_bench_pace){.rate_bps = rate_bps, .next_ns = start_ns};
	if (!rate_bps)
		return;
	pc->cost_ns = bit_ns / rate_bps;
	pc->cost_rem = bit_ns % rate_bps;
	/*
	 * A millisecond of traffic at most, and no more than a queue holds; but
	 * always a whole chain (at least one message), or none could go.
	 */
	pc->burst_ns = (uint64_t)depth * pc->cost_ns;
	if (pc->burst_ns > RDC_BENCH_PACE_BURST_NS)
		pc->burst_ns = RDC_BENCH_PACE_BURST_NS;
	if (pc->burst_ns < (uint64_t)(chain ? chain : 1) * pc->cost_ns)
		pc->burst_ns = (uint64_t)(chain ? chain : 1) * pc->cost_ns;
}

uint32_t rdc_bench_pace_allow(struct rdc_bench_pace *pc, uint64_t now, uint32_t want)
{
	uint64_t n;

	if (!pc->rate_bps || !want)
		return want;
	/* Credit an idle link does not keep: at most burst_ns behind now. */
	if (now > pc->burst_ns && pc->next_ns < now - pc->burst_ns) {
		pc->next_ns = now - pc->burst_ns;
		pc->frac = 0;
	}
	if (pc->next_ns > now)
		return 0;
	/* Messages that start at next_ns, next_ns + cost, ... up to now. */
	n = pc->cost_ns ? (now - pc->next_ns) / pc->cost_ns + 1 : want;
	return n < want ? (uint32_t)n : want;
}

void rdc_bench_pace_take(struct rdc_bench_pace *pc, uint32_t n)
{
	if (!pc->rate_bps)
		return;
	/* n <= RDC_BENCH_MAX_DEPTH and cost_rem < 10^13: no overflow. */
	pc->next_ns += (uint64_t)n * pc->cost_ns;
	pc->frac += (uint64_t)n * pc->cost_rem;
	pc->next_ns += pc->frac / pc->rate_bps;
	pc->frac %= pc->rate_bps;
}

uint64_t rdc_bench_pace_wait_ns(const struct rdc_bench_pace *pc, uint64_t now)
{
	if (!pc->rate_bps || pc->next_ns <= now)
		return 0;
	return pc->next_ns - now;
}

int rdc_bench_rate_parse(const char *s, uint64_t *bps)
{
	unsigned int digits = 0, dots = 0;
	double v;

	for (const char *c = s; *c; c++) {
		if (*c == '.')
			dots++;
		else if (*c >= '0' && *c <= '9')
			digits++;
		else
			return -EINVAL;
	}
	/* A dozen digits are 10000 Gb/s to the bit: more is a typo, and strtod's to round. */
	if (!digits || dots > 1 || digits > 20)
		return -EINVAL;
	v = strtod(s, NULL) * 1e9;
	if (!isfinite(v) || v < (double)RDC_BENCH_RATE_MIN_BPS - 0.5 ||
	    v >= (double)RDC_BENCH_RATE_MAX_BPS + 0.5)
		return -ERANGE;
	*bps = (uint64_t)llround(v);
	return 0;
}
