// SPDX-License-Identifier: GPL-2.0-or-later
/* bench.c - what a run agrees on: the test, its parameters and their limits */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "base/util.h"
#include "bench/bench.h"
#include "bench/pace.h"

static const char *const test_names[] = {
	[RDC_BENCH_WRITE] = "write",	   [RDC_BENCH_READ] = "read",
	[RDC_BENCH_SEND] = "send",	   [RDC_BENCH_LAT] = "lat",
	[RDC_BENCH_LAT_READ] = "lat-read", [RDC_BENCH_LAT_SEND] = "lat-send",
};

static const char *const cq_wait_names[] = {"auto", "poll", "events"};

/* The index of @name in @names (the protocol's value), or -EINVAL. */
static int name_index(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -EINVAL;
}

const char *rdc_bench_test_name(enum rdc_bench_test test)
{
	return (unsigned int)test < RDC_ARRAY_SIZE(test_names) ? test_names[test] : NULL;
}

int rdc_bench_test_parse(const char *name, enum rdc_bench_test *test)
{
	int i = name_index(name, test_names, RDC_ARRAY_SIZE(test_names));

	if (i < 0)
		return i;
	*test = (enum rdc_bench_test)i;
	return 0;
}

const char *rdc_bench_cq_wait_name(enum rdc_bench_cq_wait w)
{
	return (unsigned int)w < RDC_ARRAY_SIZE(cq_wait_names) ? cq_wait_names[w] : NULL;
}

int rdc_bench_cq_wait_parse(const char *name, enum rdc_bench_cq_wait *w)
{
	int i = name_index(name, cq_wait_names, RDC_ARRAY_SIZE(cq_wait_names));

	if (i < 0)
		return i;
	*w = (enum rdc_bench_cq_wait)i;
	return 0;
}

void rdc_bench_params_default(struct rdc_bench_params *p, enum rdc_bench_test test)
{
	memset(p, 0, sizeof(*p));
	p->test = test;
	p->size = rdc_bench_test_is_lat(test) ? 2 : 65536;
	p->qps = 1;
	p->tx_depth = rdc_bench_test_is_lat(test) ? 1 : 128;
	p->duration_ns = 5000000000ull;
	p->warmup_ns = 1000000000ull;
	p->interval_ns = 1000000000ull;
	p->qp_timeout = 14;
	p->retry_cnt = 7;
	p->rnr_retry = 7;
	p->cq_mod = 0;
	p->post_list = 1;
	p->inline_size = RDC_BENCH_INLINE_DEFAULT;
}

uint32_t rdc_bench_cq_mod(const struct rdc_bench_params *p)
{
	if (rdc_bench_test_is_lat(p->test))
		return 1;
	if (p->cq_mod)
		return p->cq_mod;
	if (p->post_list > 1)
		return p->post_list;
	return p->size > 8192 || p->tx_depth < 4 ? 1 : p->tx_depth / 4;
}

uint32_t rdc_bench_inline_bytes(const struct rdc_bench_params *p)
{
	if (p->inline_size != RDC_BENCH_INLINE_DEFAULT)
		return p->inline_size;
	/* A read sends no data: lat-read's default is 0. */
	return p->test == RDC_BENCH_LAT || p->test == RDC_BENCH_LAT_SEND ? RDC_BENCH_LAT_INLINE : 0;
}

static uint64_t page_round(uint64_t n)
{
	return (n + 4095) & ~4095ull;
}

uint64_t rdc_bench_slot_bytes(const struct rdc_bench_params *p)
{
	/* lat: an area to send from and one the peer writes into */
	return page_round(rdc_bench_test_is_lat(p->test) ? 2ull * p->size : p->size);
}

uint64_t rdc_bench_silence_ns(uint64_t base_ns, uint64_t bytes)
{
	/* Whole seconds: under 512 KiB, the limit of small messages exactly. */
	uint64_t extra_s = bytes / RDC_BENCH_SLOW_BYTES_PER_S;
	uint64_t room_ns =
		base_ns < RDC_BENCH_SILENCE_MAX_NS ? RDC_BENCH_SILENCE_MAX_NS - base_ns : 0;

	if (extra_s >= room_ns / 1000000000ull)
		return base_ns + room_ns;
	return base_ns + extra_s * 1000000000ull;
}

uint64_t rdc_bench_wait_bytes(const struct rdc_bench_params *p)
{
	if (rdc_bench_test_is_lat(p->test))
		return 2ull * p->size;
	return (uint64_t)rdc_bench_cq_mod(p) * p->size;
}

uint64_t rdc_bench_params_memory(const struct rdc_bench_params *p, uint32_t nlinks)
{
	return rdc_bench_slot_bytes(p) * p->qps * nlinks;
}

uint64_t rdc_bench_sweep_iters(enum rdc_bench_test test)
{
	return test == RDC_BENCH_WRITE ? 5000 : 1000;
}

int rdc_bench_params_check(const struct rdc_bench_params *p, struct rdc_err *err)
{
	const uint64_t max_ns = (uint64_t)RDC_BENCH_MAX_SECONDS * 1000000000ull;

	if (!rdc_bench_test_name(p->test))
		return rdc_err_set(err, EINVAL, "unknown test %d", (int)p->test);
	if (p->size < 1 || p->size > RDC_BENCH_MAX_SIZE)
		return rdc_err_set(err, EINVAL, "message size %u is outside 1-%u bytes", p->size,
				   RDC_BENCH_MAX_SIZE);
	if (p->qps < 1 || p->qps > RDC_BENCH_MAX_QPS)
		return rdc_err_set(err, EINVAL, "%u QPs per link is outside 1-%u", p->qps,
				   RDC_BENCH_MAX_QPS);
	if (rdc_bench_test_is_lat(p->test) &&
	    (p->iters > RDC_BENCH_MAX_LAT_ITERS ||
	     p->duration_ns > (uint64_t)RDC_BENCH_MAX_LAT_SECONDS * 1000000000ull))
		return rdc_err_set(err, EINVAL,
				   "lat keeps every sample: at most %u iterations or %u s per run",
				   RDC_BENCH_MAX_LAT_ITERS, RDC_BENCH_MAX_LAT_SECONDS);
	if (rdc_bench_test_is_lat(p->test) && p->bidir)
		return rdc_err_set(err, EINVAL,
				   "bidir applies to the bandwidth tests write, read and send, not "
				   "%s: a latency test has one message in flight",
				   rdc_bench_test_name(p->test));
	if (rdc_bench_test_is_lat(p->test) && p->qps != 1)
		return rdc_err_set(err, EINVAL, "the latency test runs one QP per link");
	if (p->tx_depth < 1 || p->tx_depth > RDC_BENCH_MAX_DEPTH)
		return rdc_err_set(err, EINVAL, "send queue depth %u is outside 1-%u", p->tx_depth,
				   RDC_BENCH_MAX_DEPTH);
	if (!p->duration_ns == !p->iters)
		return rdc_err_set(err, EINVAL,
				   "a run has either a duration or a count of iterations");
	if (p->duration_ns > max_ns || p->warmup_ns > max_ns)
		return rdc_err_set(err, EINVAL, "duration and warm-up are at most %u s",
				   RDC_BENCH_MAX_SECONDS);
	if (p->iters > RDC_BENCH_MAX_ITERS)
		return rdc_err_set(err, EINVAL, "at most %llu iterations",
				   (unsigned long long)RDC_BENCH_MAX_ITERS);
	if (p->interval_ns < 100000000ull || p->interval_ns > max_ns)
		return rdc_err_set(err, EINVAL, "the interval is 0.1 s to %u s",
				   RDC_BENCH_MAX_SECONDS);
	if (p->duration_ns && p->duration_ns / p->interval_ns > RDC_BENCH_MAX_INTERVALS)
		return rdc_err_set(err, EINVAL, "more than %u intervals in one run",
				   RDC_BENCH_MAX_INTERVALS);
	if (p->mtu && (p->mtu < 256 || p->mtu > 4096 || (p->mtu & (p->mtu - 1))))
		return rdc_err_set(err, EINVAL, "MTU %u is not one of 256, 512, 1024, 2048, 4096",
				   p->mtu);
	if (p->qp_timeout > RDC_BENCH_QP_TIMEOUT_MAX)
		return rdc_err_set(err, EINVAL, "QP ACK timeout %u is outside 0-%u", p->qp_timeout,
				   RDC_BENCH_QP_TIMEOUT_MAX);
	if (p->retry_cnt > RDC_BENCH_RETRY_MAX || p->rnr_retry > RDC_BENCH_RETRY_MAX)
		return rdc_err_set(err, EINVAL, "QP retry counts are 0-%u, not %u and %u",
				   RDC_BENCH_RETRY_MAX, p->retry_cnt, p->rnr_retry);
	if (rdc_bench_test_is_lat(p->test) &&
	    (p->tx_depth != 1 || p->cq_mod > 1 || p->post_list != 1))
		return rdc_err_set(err, EINVAL,
				   "a latency test has one message in flight: tx-depth, cq-mod and "
				   "post-list apply to the bandwidth tests");
	if (p->rate_limit_bps && (p->rate_limit_bps < RDC_BENCH_RATE_MIN_BPS ||
				  p->rate_limit_bps > RDC_BENCH_RATE_MAX_BPS))
		return rdc_err_set(err, EINVAL,
				   "rate-limit %" PRIu64 " bit/s is outside 0.000001 to 10000 Gb/s",
				   p->rate_limit_bps);
	if (p->rate_limit_bps && rdc_bench_test_is_lat(p->test))
		return rdc_err_set(err, EINVAL,
				   "rate-limit applies to the bandwidth tests: a latency test has "
				   "one message in flight");
	if (p->cq_mod > p->tx_depth)
		return rdc_err_set(err, EINVAL, "cq-mod %u is over the send queue depth %u",
				   p->cq_mod, p->tx_depth);
	if (p->post_list < 1 || p->post_list > p->tx_depth)
		return rdc_err_set(err, EINVAL,
				   "post-list %u is outside 1 to the send queue depth %u",
				   p->post_list, p->tx_depth);
	if (!rdc_bench_test_is_lat(p->test)) {
		/*
		 * Chains of post_list (L) requests, one in cq_mod (C) signalled: once
		 * every signalled one has completed, the posted count modulo C are
		 * still outstanding (none of them will complete on its own), at most
		 * C - gcd(L, C).  A chain must still fit beside them, or the queue
		 * stops with nothing in flight that could ever complete.
		 */
		uint32_t c = rdc_bench_cq_mod(p), l = p->post_list, a = c, b = l, need;

		while (b) {
			uint32_t t = a % b;

			a = b;
			b = t;
		}
		need = c - a + l;
		if (need > p->tx_depth)
			return rdc_err_set(
				err, EINVAL,
				"cq-mod %u with post-list %u needs tx-depth %u or more (is "
				"%u): the unsignalled requests left after the last "
				"signalled one would leave no room for the next chain",
				c, l, need, p->tx_depth);
	}
	if (p->inline_size != RDC_BENCH_INLINE_DEFAULT && p->inline_size > RDC_BENCH_MAX_INLINE)
		return rdc_err_set(err, EINVAL, "inline %u is over %u bytes", p->inline_size,
				   RDC_BENCH_MAX_INLINE);
	if (p->rdma_cm > 1)
		return rdc_err_set(err, EINVAL, "rdma-cm is 0 or 1, not %u", p->rdma_cm);
	if (!rdc_bench_cq_wait_name(p->cq_wait))
		return rdc_err_set(err, EINVAL,
				   "cq-wait %u is not auto (0), poll (1) or events (2)",
				   p->cq_wait);
	if (p->cq_wait == RDC_BENCH_CQ_WAIT_EVENTS && rdc_bench_test_is_lat(p->test))
		return rdc_err_set(err, EINVAL,
				   "cq-wait events applies to the bandwidth tests: a latency test "
				   "polls for its one message in flight");
	if ((p->test == RDC_BENCH_READ || p->test == RDC_BENCH_LAT_READ) &&
	    rdc_bench_inline_bytes(p))
		return rdc_err_set(
			err, EINVAL,
			"inline applies to write, send, lat and lat-send: a read sends no data");
	return 0;
}

int rdc_bench_sweep_check(const struct rdc_bench_params *p, struct rdc_err *err)
{
	struct rdc_bench_params one = *p;

	for (one.size = RDC_BENCH_SWEEP_MIN; one.size <= RDC_BENCH_SWEEP_MAX; one.size *= 2) {
		int rc = rdc_bench_params_check(&one, err);

		if (rc) {
			rdc_err_prefix(err, "size all, at %u bytes", one.size);
			return rc;
		}
	}
	return 0;
}
