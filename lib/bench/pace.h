/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pace.h - bench's software rate limit (rate-limit): when the next message may be posted */
#pragma once

#include <stdint.h>

/*
 * perftest's --rate_limit_type SW, as a virtual clock: each message of
 * @msg_bytes moves the time the next one may go by msg_bytes * 8 / rate.
 * The requester asks once per post batch how many messages may go at the
 * time it already read for its loop (no clock read per message), and
 * posts a chain only when all of it may.  A link that fell behind (its
 * queue was full, the thread was descheduled) keeps the credit of at most
 * RDC_BENCH_PACE_BURST_NS of traffic (at most @depth messages, at least
 * one chain of @chain): it does not make up a slow warm-up inside the
 * window, and its rate over the window stays at or under the limit.  Pure
 * arithmetic:
 * times are nanoseconds on any monotonic clock.  Exact in integers (the
 * fraction of a nanosecond is kept in units of 1 / rate_bps).
 */
struct rdc_bench_pace {
	uint64_t rate_bps; /* bits per second; 0: unlimited */
	uint64_t cost_ns;  /* one message's time at the rate, whole nanoseconds ... */
	uint64_t cost_rem; /* ... and cost_rem / rate_bps of one */
	uint64_t frac;	   /* fractions accumulated, < rate_bps */
	uint64_t next_ns;  /* when the next message may be posted */
	uint64_t burst_ns; /* how far next_ns may fall behind now */
};

#define RDC_BENCH_PACE_BURST_NS 1000000ull	 /* 1 ms of traffic */
#define RDC_BENCH_RATE_MIN_BPS 1000ull		 /* 1 kb/s: 0.000001 Gb/s */
#define RDC_BENCH_RATE_MAX_BPS 10000000000000ull /* 10 Tb/s: 10000 Gb/s */

/* Start pacing at @start_ns: the first message may go then. */
void rdc_bench_pace_init(struct rdc_bench_pace *pc, uint64_t rate_bps, uint32_t msg_bytes,
			 uint32_t chain, uint32_t depth, uint64_t start_ns);
/* How many of @want messages may be posted at @now (all of them when unlimited). */
uint32_t rdc_bench_pace_allow(struct rdc_bench_pace *pc, uint64_t now, uint32_t want);
/* @n messages were posted. */
void rdc_bench_pace_take(struct rdc_bench_pace *pc, uint32_t n);
/* Nanoseconds from @now until one more message may go; 0: it may now. */
uint64_t rdc_bench_pace_wait_ns(const struct rdc_bench_pace *pc, uint64_t now);

/*
 * "2.5" (Gb/s, 10^9 bit/s, as link rates and expect-gbps) to bits per
 * second: digits with at most one decimal point, nothing else (no sign,
 * exponent, hex or unit), RDC_BENCH_RATE_MIN_BPS to RDC_BENCH_RATE_MAX_BPS
 * after rounding to whole bits.  -EINVAL when it is not such a number,
 * -ERANGE when it is outside.
 */
int rdc_bench_rate_parse(const char *s, uint64_t *bps);
