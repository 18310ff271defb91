// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bench.c - bench: statistics, control protocol, parameters, link pairing, small parsers */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <math.h>

#include <cmocka.h>

#include "base/cpulist.h"
#include "base/ipv4.h"
#include "base/util.h"
#include "bench/bench.h"
#include "bench/client.h"
#include "bench/ctl.h"
#include "bench/engine.h"
#include "bench/proto.h"
#include "bench/report.h"
#include "bench/server.h"
#include "bench/stats.h"
#include "host/cpu_times.h"
#include "kernel/addr.h"
#include "seam/fs.h"

/* cmocka 1.1's assert_float_equal() goes through float: too coarse for these. */
#define assert_near(got, want, eps)                                                                \
	do {                                                                                       \
		double got_ = (got), want_ = (want);                                               \
		if (!(fabs(got_ - want_) <= (eps)))                                                \
			fail_msg("%s = %.17g, expected %.17g (+-%g)", #got, got_, want_,           \
				 (double)(eps));                                                   \
	} while (0)

#define NS_PER_S 1000000000ull

/* ==== statistics ==== */

static void test_rates(void **state)
{
	static const struct {
		uint64_t count, ns;
		double gbps, mmsgps;
	} cases[] = {
		{0, 0, 0, 0},
		{1000, 0, 0, 0}, /* no time passed: 0, not inf */
		{0, NS_PER_S, 0, 0},
		{125, 1000, 1.0, 125.0},
		{12500000000ull, NS_PER_S, 100.0, 12500.0}, /* 12.5 GB in 1 s: 100 Gb/s */
		{1000000, NS_PER_S, 0.008, 1.0},
		{1, 1000, 0.008, 1.0},
		{62500000000ull, 5 * NS_PER_S, 100.0, 12500.0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		assert_near(rdc_bench_gbps(cases[i].count, cases[i].ns), cases[i].gbps, 1e-9);
		assert_near(rdc_bench_mmsgps(cases[i].count, cases[i].ns), cases[i].mmsgps, 1e-9);
	}
}

static void test_imbalance(void **state)
{
	static const struct {
		double rates[4];
		size_t n;
		double want;
	} cases[] = {
		{{0}, 0, 0},
		{{42}, 1, 0}, /* fewer than two: no imbalance */
		{{10, 10, 10}, 3, 0},
		{{90, 110}, 2, 0.2},
		{{100, 50, 150}, 3, 1.0},
		{{25, 25, 25, 15}, 4, 10.0 / 22.5},
		{{0, 0}, 2, 0}, /* zero mean */
		{{0, 10}, 2, 2.0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++)
		assert_near(rdc_bench_imbalance(cases[i].rates, cases[i].n), cases[i].want, 1e-12);
}

static void test_interval_range(void **state)
{
	static const struct {
		uint64_t bytes[4];
		size_t n;
		uint64_t interval_ns;
		double min, max;
	} cases[] = {
		{{0}, 0, NS_PER_S, 0, 0},
		{{125000000}, 1, NS_PER_S, 1, 1},
		{{125000000, 250000000, 62500000}, 3, NS_PER_S, 0.5, 2},
		{{0, 1250000000, 1250000000}, 3, NS_PER_S, 0, 10}, /* a stalled interval */
		{{12500000, 25000000}, 2, NS_PER_S / 10, 1, 2},	   /* 0.1 s intervals */
		{{125, 250}, 2, 0, 0, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		double min = -1, max = -1;

		rdc_bench_interval_range(cases[i].bytes, cases[i].n, cases[i].interval_ns, &min,
					 &max);
		assert_near(min, cases[i].min, 1e-12);
		assert_near(max, cases[i].max, 1e-12);
	}
}

/* The nearest rank computed exactly: ceil(p/100 * n) with p given in thousandths of a percent. */
static size_t exact_rank(uint64_t p_milli, size_t n)
{
	uint64_t r = (p_milli * n + 99999) / 100000;

	return r ? (size_t)r : 1;
}

static void test_percentile(void **state)
{
	static uint64_t s[20000];
	static const struct {
		size_t n;
		double p;
		uint64_t want; /* samples are 1..n */
	} cases[] = {
		{1, 50, 1},	   {1, 99, 1},		{1, 99.9, 1},	 {1, 100, 1},
		{2, 50, 1},	   {2, 50.1, 2},	{100, 50, 50},	 {100, 99, 99},
		{100, 99.9, 100},  {100, 100, 100},	{100, 1, 1},	 {100, 0.5, 1},
		{10, 99.9, 10},	   {1000, 50, 500},	{1000, 99, 990}, {1000, 99.9, 999},
		{1000, 100, 1000}, {10000, 99.9, 9990}, {3, 50, 2},
	};
	static const uint64_t ps[] = {50000, 90000, 99000, 99900, 99990}; /* thousandths of % */

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(s); i++)
		s[i] = i + 1;
	assert_int_equal(rdc_percentile_sorted(s, 0, 50), 0);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		uint64_t got = rdc_percentile_sorted(s, cases[i].n, cases[i].p);

		if (got != cases[i].want)
			fail_msg("p%g of 1..%zu is %llu, expected %llu (nearest rank)", cases[i].p,
				 cases[i].n, (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
	/* Every n up to 20000: the rank must not be pushed up by the rounding of p/100. */
	for (size_t k = 0; k < RDC_ARRAY_SIZE(ps); k++)
		for (size_t n = 1; n <= RDC_ARRAY_SIZE(s); n++) {
			uint64_t got = rdc_percentile_sorted(s, n, (double)ps[k] / 1000.0);

			if (got != exact_rank(ps[k], n))
				fail_msg("p%g of 1..%zu is %llu, expected %zu",
					 (double)ps[k] / 1000.0, n, (unsigned long long)got,
					 exact_rank(ps[k], n));
		}
}

/* The log2 buckets of the latency histogram: [0, 1) us, then [2^(k-1), 2^k) us, the last open. */
static void test_lat_histogram(void **state)
{
	static const struct {
		uint64_t ns;
		unsigned int bucket;
	} cases[] = {
		{0, 0},
		{999, 0},
		{1000, 1},
		{1999, 1},
		{2000, 2},
		{3999, 2},
		{4000, 3},
		{10386000, 14}, /* 10.4 ms, the lab's p50: [8192, 16384) us */
		{(1ull << 31) * 1000, 32},
		{(1ull << 32) * 1000 - 1, 32},
		{(1ull << 32) * 1000, 33},
		{UINT64_MAX, 33},
	};
	uint64_t samples[] = {500, 1500, 1600, 9000, 9000, 3000000};
	struct rdc_lat_stats st;
	uint64_t from, to, sum = 0;

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		unsigned int k = rdc_lat_bucket(cases[i].ns);

		if (k != cases[i].bucket)
			fail_msg("%llu ns: bucket %u, expected %u", (unsigned long long)cases[i].ns,
				 k, cases[i].bucket);
		rdc_lat_bucket_range(k, &from, &to);
		assert_true(cases[i].ns / 1000 >= from);
		if (to)
			assert_true(cases[i].ns / 1000 < to);
	}
	rdc_lat_bucket_range(0, &from, &to);
	assert_true(from == 0 && to == 1);
	rdc_lat_bucket_range(4, &from, &to);
	assert_true(from == 8 && to == 16);
	rdc_lat_bucket_range(RDC_LAT_BUCKETS - 1, &from, &to);
	assert_true(from == 1ull << 32 && to == 0);
	rdc_lat_stats_compute(samples, RDC_ARRAY_SIZE(samples), &st);
	assert_int_equal(st.hist[0], 1);  /* 0.5 us */
	assert_int_equal(st.hist[1], 2);  /* 1.5, 1.6 us */
	assert_int_equal(st.hist[4], 2);  /* 9 us: [8, 16) */
	assert_int_equal(st.hist[12], 1); /* 3 ms: [2048, 4096) us */
	for (unsigned int k = 0; k < RDC_LAT_BUCKETS; k++)
		sum += st.hist[k];
	assert_int_equal(sum, RDC_ARRAY_SIZE(samples));
}

static void test_lat_stats(void **state)
{
	static const struct {
		uint64_t in[8];
		size_t n;
		double min, p50, p99, p999, max, mean, stdev; /* us */
	} cases[] = {
		{{0}, 0, 0, 0, 0, 0, 0, 0, 0},
		{{1500}, 1, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 0},
		/* sum of squares 10e6 ns^2 over n-1 = 4: sqrt(2.5e6) ns */
		{{3000, 1000, 5000, 2000, 4000}, 5, 1, 3, 5, 5, 5, 3, 1.5811388300841898},
		/* deviations of a few ns: sqrt(5/3) ns, not 0 as perftest's integer stdev */
		{{1003, 1000, 1002, 1001},
		 4,
		 1.0,
		 1.001,
		 1.003,
		 1.003,
		 1.003,
		 1.0015,
		 1.2909944487358056e-3},
		{{1500, 1501, 1500},
		 3,
		 1.5,
		 1.5,
		 1.501,
		 1.501,
		 1.501,
		 1.5003333333333333,
		 5.7735026918962584e-4},
		{{2000, 2000, 2000, 2000}, 4, 2, 2, 2, 2, 2, 2, 0},
		/* one outlier is kept (perftest drops the two largest) */
		{{1000, 1000, 1000, 1000, 1000, 1000, 1000, 9000},
		 8,
		 1,
		 1,
		 9,
		 9,
		 9,
		 2,
		 2.8284271247461903},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		uint64_t s[8];
		struct rdc_lat_stats st;

		memcpy(s, cases[i].in, sizeof(s));
		memset(&st, 0xa5, sizeof(st));
		rdc_lat_stats_compute(s, cases[i].n, &st);
		assert_int_equal(st.count, cases[i].n);
		assert_near(st.min_us, cases[i].min, 1e-12);
		assert_near(st.p50_us, cases[i].p50, 1e-12);
		assert_near(st.p99_us, cases[i].p99, 1e-12);
		assert_near(st.p999_us, cases[i].p999, 1e-12);
		assert_near(st.max_us, cases[i].max, 1e-12);
		assert_near(st.mean_us, cases[i].mean, 1e-12);
		assert_near(st.stdev_us, cases[i].stdev, 1e-12);
		for (size_t k = 1; k < cases[i].n; k++) /* sorted in place */
			assert_true(s[k - 1] <= s[k]);
	}
}

static void test_cpu_times_parse(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t busy, total;
	} cases[] = {
		/* a real first line: user nice system idle iowait irq softirq steal guest guest_nice */
		{"cpu  27340 0 19956 197095 681 0 412 0 0 0\ncpu0 12077 0 9176 101236 40 0 161 0 0 "
		 "0\n",
		 0, 47708, 245484},
		/* guest (60) and guest_nice (7) are inside user and nice already */
		{"cpu  100 10 50 1000 20 5 5 2 60 7\n", 0, 172, 1192},
		{"cpu  1 2 3 4 5 6 7 8", 0, 27, 36},	 /* exactly 8: kernels since 2.6.11 */
		{"cpu  1 2 3 4 5 6 7\n", -EINVAL, 0, 0}, /* fewer than 8 */
		{"cpu  1 2 3 4\ncpu0 5 6 7 8", -EINVAL, 0, 0},
		{"cpu0 1 2 3 4 5 6 7 8", -EINVAL, 0, 0},
		{"intr 1 2 3 4 5 6 7 8", -EINVAL, 0, 0},
		{"cpu", -EINVAL, 0, 0},
		{"", -EINVAL, 0, 0},
		{"cpu  a b c d e f g h", -EINVAL, 0, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_cpu_times t = {0};

		assert_int_equal(rdc_cpu_times_parse(cases[i].in, &t), cases[i].rc);
		if (cases[i].rc == 0) {
			assert_int_equal(t.busy, cases[i].busy);
			assert_int_equal(t.total, cases[i].total);
		}
	}
}

/* The live /proc/stat parses, and time only moves forward. */
static void test_cpu_times_live(void **state)
{
	struct rdc_cpu_times a, b;
	char buf[4096];
	size_t n;
	FILE *fp = fopen("/proc/stat", "r");

	(void)state;
	if (!fp) {
		skip();
		return;
	}
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	assert_int_equal(rdc_cpu_times_parse(buf, &a), 0);
	assert_true(a.total >= a.busy);
	assert_int_equal(rdc_cpu_times_read(&b, NULL), 0);
	assert_true(b.total >= a.total);
	assert_true(b.busy >= a.busy);
	assert_true(rdc_cpu_busy_percent(&a, &b) >= 0 && rdc_cpu_busy_percent(&a, &b) <= 100);
}

static void test_cpu_busy_percent(void **state)
{
	static const struct {
		struct rdc_cpu_times a, b;
		double want;
	} cases[] = {
		{{100, 1000}, {150, 1100}, 50},	 {{100, 1000}, {100, 1100}, 0},
		{{100, 1000}, {200, 1100}, 100}, {{100, 1000}, {125, 1400}, 6.25},
		{{100, 1000}, {100, 1000}, 0}, /* no tick passed */
		{{100, 1000}, {150, 900}, 0},  /* counters went back: nonsense, not negative */
		{{100, 1000}, {50, 1100}, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++)
		assert_near(rdc_cpu_busy_percent(&cases[i].a, &cases[i].b), cases[i].want, 1e-12);
}

/* ==== the control protocol ==== */

#define FRAME_CAP (RDC_BENCH_HDR_LEN + RDC_BENCH_MAX_FRAME + 64)

/* An endpoint for the tables below; @ip is dotted, @prefix its length.  Padding stays zero. */
static void ep_set(struct rdc_bench_endpoint *e, const char *dev, uint32_t port, const char *netdev,
		   const char *ip, uint32_t prefix, bool active)
{
	struct in_addr in;

	memset(e, 0, sizeof(*e));
	rdc_strlcpy(e->device, dev, sizeof(e->device));
	e->port = port;
	rdc_strlcpy(e->netdev, netdev, sizeof(e->netdev));
	e->gid_index = 3;
	assert_int_equal(inet_pton(AF_INET, ip, &in), 1);
	e->ipv4 = ntohl(in.s_addr);
	/* ::ffff:a.b.c.d */
	e->gid[10] = e->gid[11] = 0xff;
	memcpy(&e->gid[12], &in.s_addr, 4);
	e->prefix_len = prefix;
	e->active_mtu = 4096;
	e->rate_mbps = 100000;
	e->active = active;
	e->numa_node = 0;
}

static struct rdc_bench_endpoint ep(const char *dev, uint32_t port, const char *netdev,
				    const char *ip, uint32_t prefix, bool active)
{
	struct rdc_bench_endpoint e;

	ep_set(&e, dev, port, netdev, ip, prefix, active);
	return e;
}

/* One valid message of each type, with every field set to something recognisable. */
static void sample_msg(struct rdc_bench_msg *m, unsigned int type)
{
	memset(m, 0, sizeof(*m));
	m->version = RDC_BENCH_PROTO_VERSION;
	m->type = (uint16_t)type;
	switch (type) {
	case RDC_BENCH_MSG_HELLO:
		strcpy(m->u.hello.software, "rdmactl 0.1.0");
		break;
	case RDC_BENCH_MSG_PORTS:
		strcpy(m->u.ports.host, "server-a");
		m->u.ports.count = 3;
		ep_set(&m->u.ports.eps[0], "mlx5_0", 1, "ens1f0", "198.18.1.2", 24, true);
		ep_set(&m->u.ports.eps[1], "mlx5_1", 2, "ens1f1", "198.18.2.2", 16, false);
		m->u.ports.eps[1].numa_node = -1;
		m->u.ports.eps[1].rate_mbps = 0;
		ep_set(&m->u.ports.eps[2], "rxe0", 1, "eth0", "10.255.0.1", 32, true);
		memset(m->u.ports.eps[2].device, 'd', sizeof(m->u.ports.eps[2].device) - 1);
		memset(m->u.ports.eps[2].netdev, 'n', sizeof(m->u.ports.eps[2].netdev) - 1);
		m->u.ports.eps[2].gid_index = 0xffffffff;
		m->u.ports.eps[2].numa_node = 7;
		break;
	case RDC_BENCH_MSG_SETUP:
		rdc_bench_params_default(&m->u.setup.params, RDC_BENCH_READ);
		m->u.setup.params.qps = 3;
		m->u.setup.params.traffic_class = 26 << 2;
		m->u.setup.params.mtu = 1024;
		m->u.setup.params.qp_timeout = 31;
		m->u.setup.params.retry_cnt = 0;
		m->u.setup.params.rnr_retry = 3;
		m->u.setup.params.iters = 12345;
		m->u.setup.params.duration_ns = 0;
		m->u.setup.params.cq_mod = 100;
		m->u.setup.params.post_list = 0xfedcba98;
		m->u.setup.params.inline_size = RDC_BENCH_INLINE_DEFAULT;
		m->u.setup.params.bidir = true;
		m->u.setup.params.rdma_cm = 1;
		m->u.setup.params.cq_wait = RDC_BENCH_CQ_WAIT_EVENTS;
		/* fall through */
	case RDC_BENCH_MSG_SETUP_OK:
		m->u.setup.nlinks = 2;
		for (uint32_t l = 0; l < 2; l++) {
			struct rdc_bench_link_wire *w = &m->u.setup.links[l];

			w->endpoint = l ? RDC_BENCH_MAX_ENDPOINTS - 1 : 0;
			for (int b = 0; b < 16; b++)
				w->gid[b] = (uint8_t)(0x10 * l + b);
			w->gid_index = 3 + l;
			w->mtu = 4096;
			w->rd_atom = 16;
			w->rkey = 0xdeadbeef - l;
			w->vaddr = 0x7f1234560000ull + l * 0x100000ull;
			w->length = 3 * 65536;
			w->nqps = 3;
			w->qps[0].qpn = 0x000011 + l;
			w->qps[1].qpn = 0xffffff;
			w->qps[1].psn = 0xabcdef;
			w->qps[2].qpn = 0x800000;
			w->qps[2].psn = 0xffffff;
		}
		break;
	case RDC_BENCH_MSG_DONE:
	case RDC_BENCH_MSG_RESULT:
		m->u.count.window_ns = 5 * NS_PER_S;
		m->u.count.nlinks = 2;
		/* fields one by one: a compound literal's padding is not zero for memcmp() */
		m->u.count.links[0].bytes = 62500000000ull;
		m->u.count.links[0].msgs = 953674;
		m->u.count.links[1].bytes = UINT64_MAX;
		m->u.count.links[1].msgs = 1ull << 40;
		m->u.count.links[1].errors = 7;
		break;
	case RDC_BENCH_MSG_ERROR:
		m->u.error.code = EBUSY;
		strcpy(m->u.error.text, "server is busy with a run from 198.18.1.1");
		break;
	default: /* START, STARTED */
		break;
	}
}

static void test_msg_roundtrip(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct rdc_bench_msg in, out;

	(void)state;
	for (unsigned int type = RDC_BENCH_MSG_HELLO; type <= RDC_BENCH_MSG_MAX; type++) {
		struct rdc_err err = {0};
		uint16_t version, htype;
		uint32_t plen;
		long len;

		sample_msg(&in, type);
		len = rdc_bench_msg_encode(&in, buf, sizeof(buf));
		assert_true(len >= RDC_BENCH_HDR_LEN);
		assert_memory_equal(buf, RDC_BENCH_PROTO_MAGIC, 4);
		assert_int_equal(rdc_bench_hdr_decode(buf, &version, &htype, &plen, &err), 0);
		assert_int_equal(version, RDC_BENCH_PROTO_VERSION);
		assert_int_equal(htype, type);
		assert_int_equal(plen, (uint32_t)len - RDC_BENCH_HDR_LEN);
		memset(&out, 0x5a, sizeof(out));
		if (rdc_bench_msg_decode(buf, (size_t)len, &out, &err))
			fail_msg("%s: %s", rdc_bench_msg_name(type), err.msg);
		assert_memory_equal(&in, &out, sizeof(in));
		/* The encoding is canonical: encoding the decoded message gives the same bytes. */
		{
			static uint8_t again[FRAME_CAP];

			assert_int_equal(rdc_bench_msg_encode(&out, again, sizeof(again)), len);
			assert_memory_equal(buf, again, (size_t)len);
		}
	}
	/* Every test value goes through SETUP (protocol 3: lat-read and lat-send too). */
	for (int t = RDC_BENCH_WRITE; t <= RDC_BENCH_TEST_LAST; t++) {
		struct rdc_err err = {0};
		long len;

		sample_msg(&in, RDC_BENCH_MSG_SETUP);
		rdc_bench_params_default(&in.u.setup.params, (enum rdc_bench_test)t);
		len = rdc_bench_msg_encode(&in, buf, sizeof(buf));
		assert_true(len > RDC_BENCH_HDR_LEN);
		memset(&out, 0x5a, sizeof(out));
		if (rdc_bench_msg_decode(buf, (size_t)len, &out, &err))
			fail_msg("test %d: %s", t, err.msg);
		assert_int_equal(out.u.setup.params.test, t);
		assert_memory_equal(&in, &out, sizeof(in));
	}
	/* START and STARTED are a bare header. */
	sample_msg(&in, RDC_BENCH_MSG_START);
	assert_int_equal(rdc_bench_msg_encode(&in, buf, sizeof(buf)), RDC_BENCH_HDR_LEN);
}

static void test_msg_names(void **state)
{
	static const struct {
		unsigned int type;
		const char *name;
	} cases[] = {
		{RDC_BENCH_MSG_HELLO, "HELLO"},	    {RDC_BENCH_MSG_PORTS, "PORTS"},
		{RDC_BENCH_MSG_SETUP, "SETUP"},	    {RDC_BENCH_MSG_SETUP_OK, "SETUP_OK"},
		{RDC_BENCH_MSG_START, "START"},	    {RDC_BENCH_MSG_STARTED, "STARTED"},
		{RDC_BENCH_MSG_DONE, "DONE"},	    {RDC_BENCH_MSG_RESULT, "RESULT"},
		{RDC_BENCH_MSG_ERROR, "ERROR"},	    {0, "unknown"},
		{RDC_BENCH_MSG_MAX + 1, "unknown"}, {0xffff, "unknown"},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++)
		assert_string_equal(rdc_bench_msg_name(cases[i].type), cases[i].name);
}

static void test_encode_limits(void **state)
{
	static uint8_t buf[FRAME_CAP];
	static struct rdc_bench_msg m;

	(void)state;
	/* Every buffer shorter than the message: -EMSGSIZE, and nothing written past @cap. */
	for (unsigned int type = RDC_BENCH_MSG_HELLO; type <= RDC_BENCH_MSG_MAX; type++) {
		long len;

		sample_msg(&m, type);
		len = rdc_bench_msg_encode(&m, buf, sizeof(buf));
		assert_true(len > 0);
		for (long cap = 0; cap < len; cap++) {
			memset(buf, 0xee, sizeof(buf));
			assert_int_equal(rdc_bench_msg_encode(&m, buf, (size_t)cap), -EMSGSIZE);
			assert_int_equal(buf[cap], 0xee);
		}
		assert_int_equal(rdc_bench_msg_encode(&m, buf, (size_t)len), len);
	}
	/* Counts over the limits: -EINVAL before anything is written. */
	sample_msg(&m, RDC_BENCH_MSG_PORTS);
	m.u.ports.count = RDC_BENCH_MAX_ENDPOINTS + 1;
	assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.ports.count = RDC_BENCH_MAX_ENDPOINTS;
	assert_true(rdc_bench_msg_encode(&m, buf, sizeof(buf)) > 0);
	for (unsigned int type = RDC_BENCH_MSG_SETUP; type <= RDC_BENCH_MSG_SETUP_OK; type++) {
		sample_msg(&m, type);
		m.u.setup.nlinks = RDC_BENCH_MAX_LINKS + 1;
		assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
		sample_msg(&m, type);
		m.u.setup.links[1].nqps = RDC_BENCH_MAX_QPS + 1;
		assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
		/* the largest SETUP fits a frame */
		m.u.setup.nlinks = RDC_BENCH_MAX_LINKS;
		for (uint32_t l = 0; l < RDC_BENCH_MAX_LINKS; l++)
			m.u.setup.links[l].nqps = RDC_BENCH_MAX_QPS;
		assert_true(rdc_bench_msg_encode(&m, buf, sizeof(buf)) > 0);
	}
	for (unsigned int type = RDC_BENCH_MSG_DONE; type <= RDC_BENCH_MSG_RESULT; type++) {
		sample_msg(&m, type);
		m.u.count.nlinks = RDC_BENCH_MAX_LINKS + 1;
		assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	}
	sample_msg(&m, RDC_BENCH_MSG_HELLO);
	m.type = 0;
	assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.type = RDC_BENCH_MSG_MAX + 1;
	assert_int_equal(rdc_bench_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
}

/* A hand-built frame, for what the encoder would never produce. */
struct frame {
	uint8_t b[FRAME_CAP];
	size_t n;
};

static void f_bytes(struct frame *f, const void *p, size_t n)
{
	assert_true(f->n + n <= sizeof(f->b));
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void f_u8(struct frame *f, uint8_t v)
{
	f_bytes(f, &v, 1);
}

static void f_u16(struct frame *f, uint16_t v)
{
	uint8_t b[2] = {v >> 8, v & 0xff};

	f_bytes(f, b, 2);
}

static void f_u32(struct frame *f, uint32_t v)
{
	uint8_t b[4] = {v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff};

	f_bytes(f, b, 4);
}

static void f_u64(struct frame *f, uint64_t v)
{
	f_u32(f, v >> 32);
	f_u32(f, v & 0xffffffffu);
}

/* A string of @n bytes (may hold a NUL), with its u16 length. */
static void f_str(struct frame *f, const char *s, size_t n)
{
	f_u16(f, (uint16_t)n);
	f_bytes(f, s, n);
}

static void f_start(struct frame *f, uint16_t version, uint16_t type)
{
	f->n = 0;
	f_bytes(f, RDC_BENCH_PROTO_MAGIC, 4);
	f_u16(f, version);
	f_u16(f, type);
	f_u32(f, 0);
}

/* Patch the header's length to what was written. */
static void f_end(struct frame *f)
{
	uint32_t len = (uint32_t)(f->n - RDC_BENCH_HDR_LEN);

	f->b[8] = len >> 24;
	f->b[9] = (len >> 16) & 0xff;
	f->b[10] = (len >> 8) & 0xff;
	f->b[11] = len & 0xff;
}

/*
 * SETUP's params as protocol 5 writes them; without @with_v4 as protocol 3
 * did (no rate-limit, hugepages, bidir, rdma-cm, cq-wait).
 */
static void f_params_bidir(struct frame *f, uint8_t test, bool with_v4, uint8_t bidir)
{
	f_u8(f, test);
	f_u32(f, 65536);	/* size */
	f_u32(f, 1);		/* qps */
	f_u32(f, 128);		/* tx depth */
	f_u64(f, 5 * NS_PER_S); /* duration */
	f_u64(f, 0);		/* iters */
	f_u64(f, NS_PER_S);	/* warmup */
	f_u64(f, NS_PER_S);	/* interval */
	f_u8(f, 0);		/* traffic class */
	f_u32(f, 0);		/* mtu */
	f_u8(f, 14);		/* qp timeout */
	f_u8(f, 7);		/* retry count */
	f_u8(f, 7);		/* rnr retry */
	f_u32(f, 0);		/* cq-mod (protocol 3) */
	f_u32(f, 1);		/* post-list */
	f_u32(f, 0xffffffff);	/* inline: the default */
	if (!with_v4)
		return;
	f_u64(f, 0);	/* rate-limit (protocol 4): none */
	f_u8(f, 0);	/* hugepages: no */
	f_u8(f, bidir); /* bidir */
	f_u8(f, 0);	/* rdma-cm: no */
	f_u8(f, 0);	/* cq-wait (protocol 5): auto */
}

static void f_params(struct frame *f, uint8_t test)
{
	f_params_bidir(f, test, true, 0);
}

/* One link with @nqps QPs, the first one's qpn and psn given. */
static void f_link(struct frame *f, uint32_t endpoint, uint32_t nqps, uint32_t qpn, uint32_t psn)
{
	static const uint8_t gid[16] = {[10] = 0xff, [11] = 0xff, 198, 18, 1, 1};

	f_u32(f, endpoint);
	f_bytes(f, gid, 16);
	f_u32(f, 3);	   /* gid index */
	f_u32(f, 4096);	   /* mtu */
	f_u32(f, 16);	   /* rd_atom */
	f_u32(f, 0x1234);  /* rkey */
	f_u64(f, 0x1000);  /* vaddr */
	f_u64(f, 0x10000); /* length */
	f_u32(f, nqps);
	for (uint32_t q = 0; q < nqps && q < 2 * RDC_BENCH_MAX_QPS; q++) {
		f_u32(f, q ? q : qpn);
		f_u32(f, q ? q : psn);
	}
}

static void f_endpoint(struct frame *f, const char *dev, size_t devlen, uint8_t prefix,
		       uint8_t active)
{
	static const uint8_t gid[16] = {[10] = 0xff, [11] = 0xff, 198, 18, 1, 1};

	f_str(f, dev, devlen);
	f_u32(f, 1); /* port */
	f_str(f, "eth0", 4);
	f_u32(f, 3); /* gid index */
	f_bytes(f, gid, 16);
	f_u32(f, 0xc6120101);
	f_u8(f, prefix);
	f_u32(f, 4096);	  /* active mtu */
	f_u32(f, 100000); /* rate */
	f_u8(f, active);
	f_u32(f, 0xffffffff); /* numa node -1 */
}

struct bad_case {
	const char *what;
	int rc;
	const char *msg; /* a part of err.msg */
};

static const struct bad_case bad_cases[] = {
	/* 0 */ {"valid HELLO (control)", 0, NULL},
	/* 1 */ {"bad magic", -EPROTO, "bad magic"},
	/* 2 */ {"version 1 (an older rdmactl)", -EPROTONOSUPPORT, "version mismatch"},
	/* 3 */ {"version 0", -EPROTONOSUPPORT, "version mismatch"},
	/* 4 */ {"unknown type 0", -EPROTO, "unknown message type 0"},
	/* 5 */ {"unknown type 10", -EPROTO, "unknown message type 10"},
	/* 6 */ {"link count 17", -EPROTO, "bad link count"},
	/* 7 */ {"link count 16 (control)", 0, NULL},
	/* 8 */ {"qp count 65", -EPROTO, "bad qp count"},
	/* 9 */ {"qp count 64 (control)", 0, NULL},
	/* 10 */ {"endpoint count 33", -EPROTO, "bad endpoint count"},
	/* 11 */ {"string as long as its field", -EPROTO, "bad software name"},
	/* 12 */ {"string one shorter than its field (control)", 0, NULL},
	/* 13 */ {"string with a NUL", -EPROTO, "bad software name"},
	/* 14 */ {"string past the payload", -EPROTO, "bad software name"},
	/* 15 */ {"qpn over 24 bits", -EPROTO, "bad qpn/psn"},
	/* 16 */ {"psn over 24 bits", -EPROTO, "bad qpn/psn"},
	/* 17 */ {"prefix length 33", -EPROTO, "bad prefix length"},
	/* 18 */ {"prefix length 32 (control)", 0, NULL},
	/* 19 */ {"active 2", -EPROTO, "bad active"},
	/* 20 */ {"device name of 64 bytes", -EPROTO, "bad device name"},
	/* 21 */ {"test 6", -EPROTO, "bad test"},
	/* 22 */ {"test 3 (control)", 0, NULL},
	/* 23 */ {"trailing byte after START", -EPROTO, "1 trailing bytes"},
	/* 24 */ {"trailing bytes after HELLO", -EPROTO, "3 trailing bytes"},
	/* 25 */ {"link endpoint 32", -EPROTO, "bad link endpoint"},
	/* 26 */ {"DONE link count 17", -EPROTO, "bad link count"},
	/* 27 */ {"ERROR text of RDC_ERR_MSG_LEN bytes", -EPROTO, "bad error text"},
	/* 28 */ {"empty PORTS (control)", 0, NULL},
	/* 29 */ {"HELLO without payload", -EPROTO, "bad software name"},
	/* 30 */ {"bidir 2", -EPROTO, "bad bidir"},
	/* 31 */ {"bidir 1 (control)", 0, NULL},
	/* 32 */
	{"SETUP body of protocol 3 (no rate-limit, hugepages, bidir) in a frame of 4", -EPROTO,
	 "bad rate-limit"},
};

/* Build frame @k of the table above into @f. */
static void bad_frame(struct frame *f, size_t k)
{
	static char big[RDC_ERR_MSG_LEN];

	memset(big, 'a', sizeof(big));
	switch (k) {
	case 0:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_str(f, "x", 1);
		break;
	case 1:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_str(f, "x", 1);
		f->b[3] = 'X';
		break;
	case 2:
	case 3:
		f_start(f, k == 2 ? 1 : 0, RDC_BENCH_MSG_HELLO);
		f_str(f, "x", 1);
		break;
	case 4:
	case 5:
		f_start(f, RDC_BENCH_PROTO_VERSION, k == 4 ? 0 : 10);
		break;
	case 6:
	case 7:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP_OK);
		f_u32(f, k == 6 ? 17 : 16);
		for (int l = 0; l < (k == 6 ? 17 : 16); l++)
			f_link(f, 0, 1, 1, 1);
		break;
	case 8:
	case 9:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP_OK);
		f_u32(f, 1);
		f_link(f, 0, k == 8 ? 65 : 64, 1, 1);
		break;
	case 10:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_PORTS);
		f_str(f, "host", 4);
		f_u32(f, 33);
		for (int e = 0; e < 33; e++)
			f_endpoint(f, "rxe0", 4, 24, 1);
		break;
	case 11:
	case 12:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_str(f, big, k == 11 ? 32 : 31);
		break;
	case 13:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_str(f, "ab\0c", 4);
		break;
	case 14:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_u16(f, 10);
		f_bytes(f, "abc", 3);
		break;
	case 15:
	case 16:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP_OK);
		f_u32(f, 1);
		f_link(f, 0, 1, k == 15 ? 0x1000000 : 5, k == 16 ? 0x1000000 : 5);
		break;
	case 17:
	case 18:
	case 19:
	case 20:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_PORTS);
		f_str(f, "host", 4);
		f_u32(f, 1);
		f_endpoint(f, big, k == 20 ? 64 : 63, k == 17 ? 33 : 32, k == 19 ? 2 : 1);
		break;
	case 21:
	case 22:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params(f, k == 21 ? 6 : 5);
		f_u32(f, 1);
		f_link(f, 0, 1, 1, 1);
		break;
	case 23:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_START);
		f_u8(f, 0);
		break;
	case 24:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		f_str(f, "x", 1);
		f_bytes(f, "abc", 3);
		break;
	case 25:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP_OK);
		f_u32(f, 1);
		f_link(f, RDC_BENCH_MAX_ENDPOINTS, 1, 1, 1);
		break;
	case 26:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_DONE);
		f_u64(f, 1);
		f_u32(f, 17);
		break;
	case 27:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_ERROR);
		f_u32(f, EIO);
		f_str(f, big, RDC_ERR_MSG_LEN);
		break;
	case 28:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_PORTS);
		f_str(f, "", 0);
		f_u32(f, 0);
		break;
	case 29:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
		break;
	case 30:
	case 31:
	case 32:
		f_start(f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params_bidir(f, RDC_BENCH_SEND, k != 32, k == 30 ? 2 : 1);
		/* No links; in a v3 body bidir would be the link count's first byte: one short. */
		f_u32(f, 0);
		break;
	default:
		fail_msg("no frame %zu", k);
	}
	f_end(f);
}

static void test_decode_rejects(void **state)
{
	static struct frame f;
	static struct rdc_bench_msg m;

	(void)state;
	for (size_t k = 0; k < RDC_ARRAY_SIZE(bad_cases); k++) {
		struct rdc_err err = {0};
		int rc;

		bad_frame(&f, k);
		rc = rdc_bench_msg_decode(f.b, f.n, &m, &err);
		if (rc != bad_cases[k].rc)
			fail_msg("%s: %d (%s), expected %d", bad_cases[k].what, rc, err.msg,
				 bad_cases[k].rc);
		if (bad_cases[k].msg && !strstr(err.msg, bad_cases[k].msg))
			fail_msg("%s: '%s' lacks '%s'", bad_cases[k].what, err.msg,
				 bad_cases[k].msg);
	}
}

/*
 * rdma_cm, the next to last byte of SETUP's params (protocol 4): what a peer
 * sends decodes as it came and rdc_bench_params_check() takes only 0 and 1;
 * a SETUP that ends before it is short.
 */
static void test_params_rdma_cm(void **state)
{
	static const struct {
		uint8_t value;
		int rc;
	} cases[] = {{0, 0}, {1, 0}, {2, -EINVAL}, {255, -EINVAL}};
	static struct frame f;
	static struct rdc_bench_msg m;

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_err err = {0};

		memset(&f, 0, sizeof(f));
		f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params(&f, RDC_BENCH_WRITE);
		f.b[f.n - 2] = cases[i].value;
		f_u32(&f, 1);
		f_link(&f, 0, 1, 1, 1);
		f_end(&f);
		assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), 0);
		assert_int_equal(m.u.setup.params.rdma_cm, cases[i].value);
		assert_int_equal(rdc_bench_params_check(&m.u.setup.params, &err), cases[i].rc);
		if (cases[i].rc)
			assert_non_null(strstr(err.msg, "rdma-cm is 0 or 1"));
	}
	{
		struct rdc_err err = {0};

		memset(&f, 0, sizeof(f));
		f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params(&f, RDC_BENCH_WRITE);
		f.n -= 2; /* the message ends where rdma-cm would be */
		f_end(&f);
		assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), -EPROTO);
		assert_non_null(strstr(err.msg, "bad rdma-cm"));
	}
}

/*
 * cq-wait, the last byte of SETUP's params (protocol 5): decoded as it came;
 * rdc_bench_params_check() takes auto, poll and events (events for the
 * bandwidth tests only); a SETUP that ends before it (protocol 4's params) is
 * short.
 */
static void test_params_cq_wait(void **state)
{
	static const struct {
		uint8_t value, test;
		int rc;
		const char *msg;
	} cases[] = {
		{RDC_BENCH_CQ_WAIT_AUTO, RDC_BENCH_WRITE, 0, NULL},
		{RDC_BENCH_CQ_WAIT_POLL, RDC_BENCH_SEND, 0, NULL},
		{RDC_BENCH_CQ_WAIT_EVENTS, RDC_BENCH_READ, 0, NULL},
		{RDC_BENCH_CQ_WAIT_POLL, RDC_BENCH_LAT, 0, NULL},
		{RDC_BENCH_CQ_WAIT_EVENTS, RDC_BENCH_LAT_SEND, -EINVAL, "applies to the bandwidth"},
		{3, RDC_BENCH_WRITE, -EINVAL, "cq-wait 3 is not auto (0), poll (1) or events (2)"},
		{255, RDC_BENCH_WRITE, -EINVAL, "cq-wait 255 is not"},
	};
	static struct frame f;
	static struct rdc_bench_msg m;
	enum rdc_bench_cq_wait w;

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_err err = {0};

		memset(&f, 0, sizeof(f));
		f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params(&f, cases[i].test);
		if (rdc_bench_test_is_lat(cases[i].test)) {
			/* One message in flight: size 65536 -> 2, tx depth 128 -> 1 (big-endian). */
			f.b[RDC_BENCH_HDR_LEN + 2] = 0;
			f.b[RDC_BENCH_HDR_LEN + 4] = 2;
			f.b[RDC_BENCH_HDR_LEN + 12] = 1;
		}
		f.b[f.n - 1] = cases[i].value;
		f_u32(&f, 1);
		f_link(&f, 0, 1, 1, 1);
		f_end(&f);
		assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), 0);
		assert_int_equal(m.u.setup.params.cq_wait, cases[i].value);
		assert_int_equal(rdc_bench_params_check(&m.u.setup.params, &err), cases[i].rc);
		if (cases[i].msg && !strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
	}
	{
		struct rdc_err err = {0};

		memset(&f, 0, sizeof(f));
		f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_SETUP);
		f_params(&f, RDC_BENCH_WRITE);
		f.n--; /* protocol 4's params: the message ends where cq-wait would be */
		f_end(&f);
		assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), -EPROTO);
		assert_non_null(strstr(err.msg, "bad cq-wait"));
	}
	/* The keyword's words and back. */
	assert_int_equal(rdc_bench_cq_wait_parse("events", &w), 0);
	assert_int_equal(w, RDC_BENCH_CQ_WAIT_EVENTS);
	assert_string_equal(rdc_bench_cq_wait_name(RDC_BENCH_CQ_WAIT_POLL), "poll");
	assert_int_equal(rdc_bench_cq_wait_parse("Events", &w), -EINVAL);
	assert_null(rdc_bench_cq_wait_name((enum rdc_bench_cq_wait)3));
}

static void test_decode_header(void **state)
{
	static struct rdc_bench_msg m;
	struct frame f;
	struct rdc_err err;
	uint16_t version, type;
	uint32_t len;

	(void)state;
	/* Shorter than a header. */
	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_START);
	for (size_t n = 0; n < RDC_BENCH_HDR_LEN; n++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(rdc_bench_msg_decode(f.b, n, &m, &err), -EPROTO);
		assert_non_null(strstr(err.msg, "short message"));
	}
	assert_int_equal(rdc_bench_msg_decode(f.b, RDC_BENCH_HDR_LEN, &m, NULL), 0);
	assert_int_equal(m.type, RDC_BENCH_MSG_START);

	/* A length over the frame limit, in the header alone and in a whole message. */
	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
	f.b[8] = 0;
	f.b[9] = 1;
	f.b[10] = 0;
	f.b[11] = 1; /* 65537 */
	assert_int_equal(rdc_bench_hdr_decode(f.b, &version, &type, &len, &err), -EMSGSIZE);
	assert_int_equal(len, RDC_BENCH_MAX_FRAME + 1);
	f.n = RDC_BENCH_HDR_LEN + RDC_BENCH_MAX_FRAME + 1;
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), -EMSGSIZE);
	f.b[11] = 0; /* exactly the limit is a frame (whose HELLO is then malformed) */
	assert_int_equal(rdc_bench_hdr_decode(f.b, &version, &type, &len, NULL), 0);
	assert_int_equal(len, RDC_BENCH_MAX_FRAME);
	f.b[8] = 0xff; /* 4 GiB - 1: no wrap-around */
	assert_int_equal(rdc_bench_hdr_decode(f.b, &version, &type, &len, NULL), -EMSGSIZE);

	/* A length field that does not match the bytes, either way. */
	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
	f_str(&f, "abc", 3);
	f_end(&f);
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), 0);
	f.b[11]++;
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "does not match"));
	f.b[11] -= 2;
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), -EPROTO);

	/* Another version (2: before cq-mod, post-list, inline): the fields are filled so the caller can name it. */
	f_start(&f, 2, RDC_BENCH_MSG_PORTS);
	f_u32(&f, 0);
	f_end(&f);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_bench_hdr_decode(f.b, &version, &type, &len, &err), -EPROTONOSUPPORT);
	assert_int_equal(version, 2);
	assert_int_equal(type, RDC_BENCH_MSG_PORTS);
	assert_int_equal(len, 4);
	assert_int_equal(err.code, EPROTONOSUPPORT);
	assert_non_null(strstr(err.msg, "version mismatch"));
	assert_non_null(strstr(err.msg, "peer speaks 2, this rdmactl speaks 5"));

	/* Protocol 3 (before rate-limit, hugepages and bidir): refused by its header, in words, before its SETUP is read. */
	f_start(&f, 3, RDC_BENCH_MSG_SETUP);
	f_params_bidir(&f, RDC_BENCH_WRITE, false, 0);
	f_u32(&f, 0);
	f_end(&f);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, &err), -EPROTONOSUPPORT);
	assert_non_null(strstr(err.msg, "peer speaks 3, this rdmactl speaks 5"));

	/* 3: before rdma-cm. */
	f_start(&f, 3, RDC_BENCH_MSG_PORTS);
	f_u32(&f, 0);
	f_end(&f);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_bench_hdr_decode(f.b, &version, &type, &len, &err), -EPROTONOSUPPORT);
	assert_int_equal(version, 3);
	assert_non_null(strstr(err.msg, "peer speaks 3, this rdmactl speaks 5"));
}

/* Every truncation of every valid message, its header length patched to match, fails cleanly. */
static void test_decode_truncations(void **state)
{
	static uint8_t full[FRAME_CAP], cut[FRAME_CAP];
	static struct rdc_bench_msg m, out;

	(void)state;
	for (unsigned int type = RDC_BENCH_MSG_HELLO; type <= RDC_BENCH_MSG_MAX; type++) {
		long len;

		sample_msg(&m, type);
		len = rdc_bench_msg_encode(&m, full, sizeof(full));
		assert_true(len > 0);
		for (long n = 0; n < len; n++) {
			struct rdc_err err = {0};
			int rc;

			memcpy(cut, full, (size_t)n);
			if (n >= RDC_BENCH_HDR_LEN) {
				uint32_t plen = (uint32_t)(n - RDC_BENCH_HDR_LEN);

				cut[8] = plen >> 24;
				cut[9] = (plen >> 16) & 0xff;
				cut[10] = (plen >> 8) & 0xff;
				cut[11] = plen & 0xff;
			}
			rc = rdc_bench_msg_decode(cut, (size_t)n, &out, &err);
			if (rc != -EPROTO)
				fail_msg("%s cut to %ld of %ld bytes: %d", rdc_bench_msg_name(type),
					 n, len, rc);
			assert_true(err.msg[0] != '\0');
		}
	}
}

static void test_decode_control_chars(void **state)
{
	static struct rdc_bench_msg m;
	struct frame f;
	const char text[] = "a\x01"
			    "b\x7f\x1b[31mred\t\r\n\xc3\xa9";

	(void)state;
	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_HELLO);
	f_str(&f, text, sizeof(text) - 1);
	f_end(&f);
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), 0);
	/* bytes >= 0x80 (UTF-8) pass; C0 and DEL do not */
	assert_string_equal(m.u.hello.software, "a?b??[31mred???\xc3\xa9");

	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_ERROR);
	f_u32(&f, EPERM);
	f_str(&f, "\x1b]0;owned\x07", 10);
	f_end(&f);
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), 0);
	assert_int_equal(m.u.error.code, EPERM);
	assert_string_equal(m.u.error.text, "?]0;owned?");

	f_start(&f, RDC_BENCH_PROTO_VERSION, RDC_BENCH_MSG_PORTS);
	f_str(&f, "h\nost", 5);
	f_u32(&f, 1);
	f_endpoint(&f, "rx\te0", 5, 24, 1);
	f_end(&f);
	assert_int_equal(rdc_bench_msg_decode(f.b, f.n, &m, NULL), 0);
	assert_string_equal(m.u.ports.host, "h?ost");
	assert_string_equal(m.u.ports.eps[0].device, "rx?e0");
	assert_int_equal(m.u.ports.eps[0].numa_node, -1);
	assert_int_equal(m.u.ports.eps[0].ipv4, 0xc6120101);
}

/* ==== parameters ==== */

static void test_params_default(void **state)
{
	static const struct {
		enum rdc_bench_test test;
		uint32_t size, depth;
	} cases[] = {
		{RDC_BENCH_WRITE, 65536, 128}, {RDC_BENCH_READ, 65536, 128},
		{RDC_BENCH_SEND, 65536, 128},  {RDC_BENCH_LAT, 2, 1},
		{RDC_BENCH_LAT_READ, 2, 1},    {RDC_BENCH_LAT_SEND, 2, 1},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;
		struct rdc_err err = {0};

		memset(&p, 0xa5, sizeof(p));
		rdc_bench_params_default(&p, cases[i].test);
		assert_int_equal(p.test, cases[i].test);
		assert_int_equal(p.size, cases[i].size);
		assert_int_equal(p.qps, 1);
		assert_int_equal(p.tx_depth, cases[i].depth);
		assert_int_equal(p.duration_ns, 5 * NS_PER_S);
		assert_int_equal(p.iters, 0);
		assert_int_equal(p.warmup_ns, NS_PER_S);
		assert_int_equal(p.interval_ns, NS_PER_S);
		assert_int_equal(p.traffic_class, 0);
		assert_int_equal(p.mtu, 0);
		assert_int_equal(p.qp_timeout, 14);
		assert_int_equal(p.retry_cnt, 7);
		assert_int_equal(p.rnr_retry, 7);
		assert_int_equal(p.cq_mod, 0);
		assert_int_equal(p.post_list, 1);
		assert_int_equal(p.inline_size, RDC_BENCH_INLINE_DEFAULT);
		assert_int_equal(p.rdma_cm, 0);
		assert_int_equal(rdc_bench_params_check(&p, &err), 0);
	}
}

#define K (-1ll) /* keep the default */

static void test_params_check(void **state)
{
	static const struct {
		const char *what;
		enum rdc_bench_test test;
		long long size, qps, depth, duration, iters, warmup, interval, mtu;
		int rc;
	} cases[] = {
		{"defaults", RDC_BENCH_WRITE, K, K, K, K, K, K, K, K, 0},
		{"lat defaults", RDC_BENCH_LAT, K, K, K, K, K, K, K, K, 0},
		{"size 0", RDC_BENCH_WRITE, 0, K, K, K, K, K, K, K, -EINVAL},
		{"size 1", RDC_BENCH_WRITE, 1, K, K, K, K, K, K, K, 0},
		{"size 16M", RDC_BENCH_WRITE, 16 << 20, K, K, K, K, K, K, K, 0},
		{"size 16M+1", RDC_BENCH_WRITE, (16 << 20) + 1, K, K, K, K, K, K, K, -EINVAL},
		{"qps 0", RDC_BENCH_WRITE, K, 0, K, K, K, K, K, K, -EINVAL},
		{"qps 64", RDC_BENCH_WRITE, K, 64, K, K, K, K, K, K, 0},
		{"qps 65", RDC_BENCH_WRITE, K, 65, K, K, K, K, K, K, -EINVAL},
		{"lat qps 2", RDC_BENCH_LAT, K, 2, K, K, K, K, K, K, -EINVAL},
		{"lat-read qps 2", RDC_BENCH_LAT_READ, K, 2, K, K, K, K, K, K, -EINVAL},
		{"lat-send qps 2", RDC_BENCH_LAT_SEND, K, 2, K, K, K, K, K, K, -EINVAL},
		{"depth 0", RDC_BENCH_WRITE, K, K, 0, K, K, K, K, K, -EINVAL},
		{"depth 1024", RDC_BENCH_WRITE, K, K, 1024, K, K, K, K, K, 0},
		{"depth 1025", RDC_BENCH_WRITE, K, K, 1025, K, K, K, K, K, -EINVAL},
		{"duration and iters", RDC_BENCH_WRITE, K, K, K, K, 1000, K, K, K, -EINVAL},
		{"neither", RDC_BENCH_WRITE, K, K, K, 0, 0, K, K, K, -EINVAL},
		{"iters only", RDC_BENCH_LAT, K, K, K, 0, 1000, 0, K, K, 0},
		{"iters max", RDC_BENCH_WRITE, K, K, K, 0, 100000000, K, K, K, 0},
		{"iters max+1", RDC_BENCH_WRITE, K, K, K, 0, 100000001, K, K, K, -EINVAL},
		{"duration 1 day", RDC_BENCH_WRITE, K, K, K, 86400 * NS_PER_S, K, K, 864 * NS_PER_S,
		 K, 0},
		{"duration over 1 day", RDC_BENCH_WRITE, K, K, K, 86400 * NS_PER_S + 1, K, K,
		 864 * NS_PER_S, K, -EINVAL},
		{"warmup over 1 day", RDC_BENCH_WRITE, K, K, K, K, K, 86400 * NS_PER_S + 1, K, K,
		 -EINVAL},
		{"warmup 0", RDC_BENCH_WRITE, K, K, K, K, K, 0, K, K, 0},
		{"interval 0.1 s", RDC_BENCH_WRITE, K, K, K, K, K, K, 100000000, K, 0},
		{"interval < 0.1 s", RDC_BENCH_WRITE, K, K, K, K, K, K, 99999999, K, -EINVAL},
		{"interval 0", RDC_BENCH_WRITE, K, K, K, K, K, K, 0, K, -EINVAL},
		{"100001 intervals", RDC_BENCH_WRITE, K, K, K, 10000100000000ll, K, K, 100000000, K,
		 -EINVAL},
		{"100000 intervals", RDC_BENCH_WRITE, K, K, K, 10000000000000ll, K, K, 100000000, K,
		 0},
		{"mtu 0", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 0, 0},
		{"mtu 256", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 256, 0},
		{"mtu 4096", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 4096, 0},
		{"mtu 1000", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 1000, -EINVAL},
		{"mtu 128", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 128, -EINVAL},
		{"mtu 8192", RDC_BENCH_WRITE, K, K, K, K, K, K, K, 8192, -EINVAL},
		/* the most one link can register is exactly the limit: 16 MiB x 64 QPs */
		{"16M x 64 QPs", RDC_BENCH_WRITE, 16 << 20, 64, K, K, K, K, K, K, 0},
		{"lat 16M", RDC_BENCH_LAT, 16 << 20, K, K, K, K, K, K, K, 0},
		{"unknown test", (enum rdc_bench_test)4, K, K, K, K, K, K, K, K, -EINVAL},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;
		struct rdc_err err = {0};
		int rc;

		rdc_bench_params_default(&p, cases[i].test == RDC_BENCH_LAT ? RDC_BENCH_LAT
									    : RDC_BENCH_WRITE);
		p.test = cases[i].test;
		if (cases[i].size != K)
			p.size = (uint32_t)cases[i].size;
		if (cases[i].qps != K)
			p.qps = (uint32_t)cases[i].qps;
		if (cases[i].depth != K)
			p.tx_depth = (uint32_t)cases[i].depth;
		if (cases[i].duration != K)
			p.duration_ns = (uint64_t)cases[i].duration;
		if (cases[i].iters != K)
			p.iters = (uint64_t)cases[i].iters;
		if (cases[i].warmup != K)
			p.warmup_ns = (uint64_t)cases[i].warmup;
		if (cases[i].interval != K)
			p.interval_ns = (uint64_t)cases[i].interval;
		if (cases[i].mtu != K)
			p.mtu = (uint32_t)cases[i].mtu;
		rc = rdc_bench_params_check(&p, &err);
		if (rc != cases[i].rc)
			fail_msg("%s: %d (%s), expected %d", cases[i].what, rc, err.msg,
				 cases[i].rc);
		if (rc)
			assert_true(err.code == EINVAL && err.msg[0]);
	}
}

#undef K

/*
 * perftest's knobs: -t, -Q, -l, -I.  What the client may ask and what the
 * engine then does (cq-mod and inline with their defaults resolved).
 */
static void test_params_knobs(void **state)
{
	static const struct {
		const char *what;
		enum rdc_bench_test test;
		uint32_t size, depth, cq_mod, post_list, inline_size;
		int rc;
		uint32_t sig_every, inline_bytes;
	} cases[] = {
#define D RDC_BENCH_INLINE_DEFAULT
		/* test, size, depth, cq-mod, post-list, inline: rc, signalling, inline */
		{"write 64K", RDC_BENCH_WRITE, 65536, 128, 0, 1, D, 0, 1, 0},
		{"write 8K", RDC_BENCH_WRITE, 8192, 128, 0, 1, D, 0, 32, 0},
		{"write 8K+1", RDC_BENCH_WRITE, 8193, 128, 0, 1, D, 0, 1, 0},
		{"write depth 3", RDC_BENCH_WRITE, 64, 3, 0, 1, D, 0, 1, 0},
		{"write depth 64", RDC_BENCH_WRITE, 64, 64, 0, 1, D, 0, 16, 0},
		{"cq-mod 100", RDC_BENCH_WRITE, 65536, 128, 100, 1, D, 0, 100, 0},
		{"cq-mod = depth", RDC_BENCH_WRITE, 64, 16, 16, 1, D, 0, 16, 0},
		{"cq-mod > depth", RDC_BENCH_WRITE, 64, 16, 17, 1, D, -EINVAL, 17, 0},
		{"post-list 8: cq-mod 8", RDC_BENCH_SEND, 64, 128, 0, 8, D, 0, 8, 0},
		{"post-list 8, cq-mod 1", RDC_BENCH_SEND, 64, 128, 1, 8, D, 0, 1, 0},
		{"post-list = depth", RDC_BENCH_READ, 64, 32, 0, 32, D, 0, 32, 0},
		{"post-list > depth", RDC_BENCH_READ, 64, 32, 0, 33, D, -EINVAL, 33, 0},
		{"post-list 0", RDC_BENCH_WRITE, 64, 32, 0, 0, D, -EINVAL, 8, 0},
		/* Unsignalled tails: at most C - gcd(L, C) wait beside a chain of L. */
		{"post-list 3, cq-mod 128", RDC_BENCH_WRITE, 64, 128, 128, 3, D, -EINVAL, 128, 0},
		{"post-list 3, cq-mod 126", RDC_BENCH_WRITE, 64, 128, 126, 3, D, 0, 126, 0},
		{"post-list 100, cq-mod 64", RDC_BENCH_WRITE, 64, 128, 64, 100, D, -EINVAL, 64, 0},
		{"post-list 64, cq-mod 32", RDC_BENCH_WRITE, 64, 128, 32, 64, D, 0, 32, 0},
		{"depth 8, post-list 8, cq-mod 3", RDC_BENCH_SEND, 64, 8, 3, 8, D, -EINVAL, 3, 0},
		{"inline 64", RDC_BENCH_WRITE, 64, 128, 0, 1, 64, 0, 32, 64},
		{"inline 0", RDC_BENCH_WRITE, 64, 128, 0, 1, 0, 0, 32, 0},
		{"inline 1024", RDC_BENCH_SEND, 64, 128, 0, 1, 1024, 0, 32, 1024},
		{"inline 1025", RDC_BENCH_SEND, 64, 128, 0, 1, 1025, -EINVAL, 32, 1025},
		{"read inline 64", RDC_BENCH_READ, 64, 128, 0, 1, 64, -EINVAL, 32, 64},
		{"read inline 0", RDC_BENCH_READ, 64, 128, 0, 1, 0, 0, 32, 0},
		{"lat", RDC_BENCH_LAT, 2, 1, 0, 1, D, 0, 1, 220},
		{"lat inline 0", RDC_BENCH_LAT, 2, 1, 0, 1, 0, 0, 1, 0},
		{"lat cq-mod 1", RDC_BENCH_LAT, 2, 1, 1, 1, D, 0, 1, 220},
		{"lat depth 2", RDC_BENCH_LAT, 2, 2, 0, 1, D, -EINVAL, 1, 220},
		{"lat cq-mod 2", RDC_BENCH_LAT, 2, 1, 2, 1, D, -EINVAL, 1, 220},
		{"lat post-list 2", RDC_BENCH_LAT, 2, 1, 0, 2, D, -EINVAL, 1, 220},
		{"lat-send", RDC_BENCH_LAT_SEND, 2, 1, 0, 1, D, 0, 1, 220},
		{"lat-send inline 0", RDC_BENCH_LAT_SEND, 2, 1, 0, 1, 0, 0, 1, 0},
		{"lat-send depth 2", RDC_BENCH_LAT_SEND, 2, 2, 0, 1, D, -EINVAL, 1, 220},
		{"lat-read: nothing inline", RDC_BENCH_LAT_READ, 2, 1, 0, 1, D, 0, 1, 0},
		{"lat-read inline 64", RDC_BENCH_LAT_READ, 2, 1, 0, 1, 64, -EINVAL, 1, 64},
		{"lat-read inline 0", RDC_BENCH_LAT_READ, 2, 1, 0, 1, 0, 0, 1, 0},
		{"lat-read cq-mod 2", RDC_BENCH_LAT_READ, 2, 1, 2, 1, D, -EINVAL, 1, 0},
		{"lat-read post-list 2", RDC_BENCH_LAT_READ, 2, 1, 0, 2, D, -EINVAL, 1, 0},
#undef D
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;
		struct rdc_err err = {0};
		int rc;

		rdc_bench_params_default(&p, cases[i].test);
		p.size = cases[i].size;
		p.tx_depth = cases[i].depth;
		p.cq_mod = cases[i].cq_mod;
		p.post_list = cases[i].post_list;
		p.inline_size = cases[i].inline_size;
		rc = rdc_bench_params_check(&p, &err);
		if (rc != cases[i].rc)
			fail_msg("%s: %d (%s), expected %d", cases[i].what, rc, err.msg,
				 cases[i].rc);
		if (rdc_bench_cq_mod(&p) != cases[i].sig_every)
			fail_msg("%s: cq-mod %u, expected %u", cases[i].what, rdc_bench_cq_mod(&p),
				 cases[i].sig_every);
		assert_int_equal(rdc_bench_inline_bytes(&p), cases[i].inline_bytes);
	}
}

/*
 * bidir (perftest -b): the bandwidth tests only; the check the server runs
 * on a client's SETUP says so in words.  It changes no other limit.
 */
static void test_params_bidir(void **state)
{
	static const struct {
		enum rdc_bench_test test;
		int rc;
	} cases[] = {
		{RDC_BENCH_WRITE, 0},	       {RDC_BENCH_READ, 0},
		{RDC_BENCH_SEND, 0},	       {RDC_BENCH_LAT, -EINVAL},
		{RDC_BENCH_LAT_READ, -EINVAL}, {RDC_BENCH_LAT_SEND, -EINVAL},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;
		struct rdc_err err = {0};

		rdc_bench_params_default(&p, cases[i].test);
		assert_false(p.bidir);
		assert_int_equal(rdc_bench_params_check(&p, NULL), 0);
		p.bidir = true;
		if (rdc_bench_params_check(&p, &err) != cases[i].rc)
			fail_msg("%s bidir: %s", rdc_bench_test_name(cases[i].test), err.msg);
		if (cases[i].rc) {
			assert_non_null(strstr(err.msg, "bidir applies to the bandwidth tests"));
			assert_non_null(strstr(err.msg, rdc_bench_test_name(cases[i].test)));
		}
		/* Registered memory is the same: both directions use one buffer per QP. */
		assert_int_equal(rdc_bench_params_memory(&p, 2), rdc_bench_slot_bytes(&p) * 2);
	}
}

/*
 * A peer's ERROR whole (protocol 3): a message with a path of 3000 bytes
 * goes over the control connection and comes back as "server: MESSAGE",
 * not cut at 255 bytes or at 200 as the waits once cut theirs.
 */
static void test_ctl_error_whole(void **state)
{
	static struct rdc_bench_msg m;
	static char text[3100], want[RDC_ERR_MSG_LEN];
	struct rdc_err err = {0};
	int sv[2];
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), "cannot read '");
	for (; n < 3000; n++)
		text[n] = (char)('a' + n % 26);
	snprintf(text + n, sizeof(text) - n, "': No such file");
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	rdc_bench_ctl_send_error(sv[0], ENOENT, text);
	assert_int_equal(rdc_bench_ctl_expect(sv[1], &m, RDC_BENCH_MSG_PORTS, 1000, "server", &err),
			 -ENOENT);
	snprintf(want, sizeof(want), "server: %s", text);
	assert_string_equal(err.msg, want);
	/* A wait that ends says what it waited for, the reason whole after it. */
	close(sv[0]);
	memset(&err, 0, sizeof(err));
	assert_int_equal(
		rdc_bench_ctl_expect(sv[1], &m, RDC_BENCH_MSG_RESULT, 1000, "server", &err),
		-ECONNRESET);
	assert_string_equal(err.msg,
			    "waiting for RESULT from the server: the peer closed the connection");
	close(sv[1]);
}

/* The QP retry settings a peer sends are checked like the rest (IB spec limits). */
static void test_params_check_retry(void **state)
{
	static const struct {
		unsigned int timeout, retry, rnr;
		int rc;
	} cases[] = {
		{0, 0, 0, 0},	     {31, 7, 7, 0},	  {32, 7, 7, -EINVAL},
		{14, 8, 7, -EINVAL}, {14, 7, 8, -EINVAL}, {255, 255, 255, -EINVAL},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;
		struct rdc_err err = {0};

		rdc_bench_params_default(&p, RDC_BENCH_WRITE);
		p.qp_timeout = (uint8_t)cases[i].timeout;
		p.retry_cnt = (uint8_t)cases[i].retry;
		p.rnr_retry = (uint8_t)cases[i].rnr;
		assert_int_equal(rdc_bench_params_check(&p, &err), cases[i].rc);
		if (cases[i].rc)
			assert_non_null(strstr(err.msg, "QP"));
	}
}

/* size all: perftest -a's range and counts, every size checked, the failing one named. */
static void test_params_sweep(void **state)
{
	struct rdc_bench_params p;
	struct rdc_err err = {0};
	unsigned int n = 0;

	(void)state;
	for (uint32_t size = RDC_BENCH_SWEEP_MIN; size <= RDC_BENCH_SWEEP_MAX; size *= 2)
		n++;
	assert_int_equal(n, RDC_BENCH_SWEEP_SIZES);
	assert_int_equal(RDC_BENCH_SWEEP_MIN, 2);
	assert_int_equal(RDC_BENCH_SWEEP_MAX, 8388608);
	assert_true(RDC_BENCH_SWEEP_MAX <= RDC_BENCH_MAX_SIZE);
	assert_true(RDC_BENCH_SWEEP_SIZES <= RDC_BENCH_SESSION_RUNS);
	assert_int_equal(rdc_bench_sweep_iters(RDC_BENCH_WRITE), 5000);
	for (int t = RDC_BENCH_READ; t <= RDC_BENCH_TEST_LAST; t++) {
		assert_int_equal(rdc_bench_sweep_iters((enum rdc_bench_test)t), 1000);
		rdc_bench_params_default(&p, (enum rdc_bench_test)t);
		assert_int_equal(rdc_bench_sweep_check(&p, &err), 0);
	}
	/* One QP's largest slot: 8 MiB (twice for lat), within the memory limit for 16 links. */
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	p.size = RDC_BENCH_SWEEP_MAX;
	assert_true(rdc_bench_params_memory(&p, 16) <= RDC_BENCH_MAX_MEMORY);
	p.qps = 16;
	assert_true(rdc_bench_params_memory(&p, 16) > RDC_BENCH_MAX_MEMORY);
	/* A bad knob fails at the first size, and says so. */
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	p.post_list = 200;
	assert_int_equal(rdc_bench_sweep_check(&p, &err), -EINVAL);
	if (!strstr(err.msg, "size all, at 2 bytes") || !strstr(err.msg, "post-list 200"))
		fail_msg("%s", err.msg);
	/* A lat sweep keeps every sample of each size: the per-run limit holds per size. */
	rdc_bench_params_default(&p, RDC_BENCH_LAT_SEND);
	p.duration_ns = 0;
	p.iters = RDC_BENCH_MAX_LAT_ITERS + 1;
	assert_int_equal(rdc_bench_sweep_check(&p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "keeps every sample"));
}

static void test_params_memory(void **state)
{
	static const struct {
		enum rdc_bench_test test;
		uint32_t size, qps, nlinks;
		uint64_t slot, memory;
	} cases[] = {
		{RDC_BENCH_WRITE, 1, 1, 1, 4096, 4096},
		{RDC_BENCH_WRITE, 4096, 1, 1, 4096, 4096},
		{RDC_BENCH_WRITE, 4097, 2, 1, 8192, 16384},
		{RDC_BENCH_READ, 65536, 3, 2, 65536, 393216},
		{RDC_BENCH_LAT, 2, 1, 1, 4096, 4096},
		{RDC_BENCH_LAT, 2048, 1, 4, 4096, 16384},
		{RDC_BENCH_LAT, 2049, 1, 1, 8192, 8192},
		{RDC_BENCH_LAT, 16 << 20, 1, 1, 32 << 20, 32 << 20},
		/* one link is at most the limit; two are over it (the client and server check) */
		{RDC_BENCH_WRITE, 16 << 20, 64, 1, 16 << 20, 1ull << 30},
		{RDC_BENCH_WRITE, 16 << 20, 64, 2, 16 << 20, 2ull << 30},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_params p;

		rdc_bench_params_default(&p, cases[i].test);
		p.size = cases[i].size;
		p.qps = cases[i].qps;
		assert_int_equal(rdc_bench_slot_bytes(&p), cases[i].slot);
		assert_int_equal(rdc_bench_params_memory(&p, cases[i].nlinks), cases[i].memory);
	}
}

static void test_test_names(void **state)
{
	static const struct {
		const char *in;
		int rc;
		enum rdc_bench_test test;
	} cases[] = {
		{"write", 0, RDC_BENCH_WRITE},
		{"read", 0, RDC_BENCH_READ},
		{"send", 0, RDC_BENCH_SEND},
		{"lat", 0, RDC_BENCH_LAT},
		{"lat-read", 0, RDC_BENCH_LAT_READ},
		{"lat-send", 0, RDC_BENCH_LAT_SEND},
		{"lat-write", -EINVAL, 0},
		{"lat-", -EINVAL, 0},
		{"Write", -EINVAL, 0},
		{"bw", -EINVAL, 0},
		{"", -EINVAL, 0},
		{"writ", -EINVAL, 0},
		{"write ", -EINVAL, 0},
		{"latency", -EINVAL, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		enum rdc_bench_test t = (enum rdc_bench_test)99;

		assert_int_equal(rdc_bench_test_parse(cases[i].in, &t), cases[i].rc);
		if (!cases[i].rc) {
			assert_int_equal(t, cases[i].test);
			assert_string_equal(rdc_bench_test_name(t), cases[i].in);
		}
	}
	assert_null(rdc_bench_test_name((enum rdc_bench_test)(RDC_BENCH_TEST_LAST + 1)));
	/* The latency tests, and only they. */
	assert_true(rdc_bench_test_is_lat(RDC_BENCH_LAT));
	assert_true(rdc_bench_test_is_lat(RDC_BENCH_LAT_READ));
	assert_true(rdc_bench_test_is_lat(RDC_BENCH_LAT_SEND));
	assert_false(rdc_bench_test_is_lat(RDC_BENCH_WRITE));
	assert_false(rdc_bench_test_is_lat(RDC_BENCH_READ));
	assert_false(rdc_bench_test_is_lat(RDC_BENCH_SEND));
	assert_null(rdc_bench_test_name((enum rdc_bench_test) - 1));
}

/* ==== links ==== */

static void test_link_spec_parse(void **state)
{
	static char local63[80], local64[80], remote63[80], remote64[80];
	const struct {
		const char *in;
		int rc;
		const char *local, *remote;
	} cases[] = {
		{"rxe0", 0, "rxe0", ""},
		{"rxe0/1", 0, "rxe0/1", ""},
		{"198.18.1.2", 0, "198.18.1.2", ""},
		{"rxe0:198.18.1.1", 0, "rxe0", "198.18.1.1"},
		{"198.18.1.2:rxe1/1", 0, "198.18.1.2", "rxe1/1"},
		{"eth0:eth1", 0, "eth0", "eth1"},
		{"a:b:c", -EINVAL, NULL, NULL},
		{":x", -EINVAL, NULL, NULL},
		{"x:", -EINVAL, NULL, NULL},
		{":", -EINVAL, NULL, NULL},
		{"", -EINVAL, NULL, NULL},
		{"fe80::1", -EINVAL, NULL, NULL},
		{local63, 0, local63, ""},
		{local64, -EINVAL, NULL, NULL},
		{remote63, 0, "x", remote63 + 2},
		{remote64, -EINVAL, NULL, NULL},
	};

	(void)state;
	memset(local63, 'a', 63);
	memset(local64, 'a', 64);
	memcpy(remote63, "x:", 2);
	memset(remote63 + 2, 'a', 63);
	memcpy(remote64, "x:", 2);
	memset(remote64 + 2, 'a', 64);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_bench_link_spec s;

		memset(&s, 0x5a, sizeof(s));
		if (rdc_bench_link_spec_parse(cases[i].in, &s) != cases[i].rc)
			fail_msg("'%s' did not give %d", cases[i].in, cases[i].rc);
		if (!cases[i].rc) {
			assert_string_equal(s.local, cases[i].local);
			assert_string_equal(s.remote, cases[i].remote);
		}
	}
}

/* A pairing scenario: endpoint tables, specs, and the expected pairs or error. */
struct pair_case {
	const char *what;
	struct rdc_bench_endpoint local[4], remote[4];
	uint32_t nlocal, nremote;
	struct rdc_bench_link_spec specs[3];
	uint32_t nspecs;
	int rc;
	uint32_t npairs;
	struct rdc_bench_pair pairs[3];
};

static void run_pair_case(const struct pair_case *c)
{
	struct rdc_bench_pair pairs[RDC_BENCH_MAX_LINKS];
	struct rdc_err err = {0};
	uint32_t npairs = 99;
	int rc;

	memset(pairs, 0xff, sizeof(pairs));
	rc = rdc_bench_pair_links(c->local, c->nlocal, c->remote, c->nremote, c->specs, c->nspecs,
				  pairs, &npairs, &err);
	if (rc != c->rc)
		fail_msg("%s: %d (%s), expected %d", c->what, rc, err.msg, c->rc);
	if (rc) {
		assert_true(err.msg[0]);
		return;
	}
	if (npairs != c->npairs)
		fail_msg("%s: %u pairs, expected %u", c->what, npairs, c->npairs);
	for (uint32_t i = 0; i < npairs; i++)
		if (pairs[i].local != c->pairs[i].local || pairs[i].remote != c->pairs[i].remote)
			fail_msg("%s: pair %u is %u->%u, expected %u->%u", c->what, i,
				 pairs[i].local, pairs[i].remote, c->pairs[i].local,
				 c->pairs[i].remote);
}

static void test_pair_links(void **state)
{
	/* Two client ports, two server ports, their subnets in the opposite order. */
	const struct rdc_bench_endpoint l0 = ep("rxe0", 1, "eth0", "198.18.1.1", 24, true);
	const struct rdc_bench_endpoint l1 = ep("rxe1", 1, "eth1", "198.18.2.1", 24, true);
	const struct rdc_bench_endpoint r0 = ep("mlx5_1", 1, "ens1f1", "198.18.2.2", 24, true);
	const struct rdc_bench_endpoint r1 = ep("mlx5_0", 1, "ens1f0", "198.18.1.2", 24, true);
	struct rdc_bench_endpoint l0_down = l0;
	struct rdc_bench_endpoint l0_b = ep("rxe0", 1, "eth0", "198.18.3.1", 24, true);
	const struct rdc_bench_endpoint r_b = ep("mlx5_2", 1, "ens2", "198.18.3.2", 24, true);
	const struct rdc_bench_endpoint far = ep("mlx5_9", 1, "ens9", "10.9.9.9", 24, true);
	const struct rdc_bench_endpoint wide = ep("rxe2", 1, "eth2", "10.1.0.1", 16, true);
	const struct rdc_bench_endpoint narrow = ep("mlx5_3", 1, "ens3", "10.1.5.2", 24, true);
	static struct pair_case cases[24];
	size_t n = 0;

	(void)state;
	l0_down.active = false;
	cases[n++] = (struct pair_case){
		.what = "auto: each port with the one in its subnet",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.npairs = 2,
		.pairs = {{0, 1}, {1, 0}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: an inactive port is skipped",
		.local = {l0_down, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.npairs = 1,
		.pairs = {{1, 0}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: one link per port with two addresses",
		.local = {l0, l0_b, l1},
		.nlocal = 3,
		.remote = {r_b, r1, r0},
		.nremote = 3,
		.npairs = 2,
		.pairs = {{0, 1}, {2, 2}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: the second address of a port when the first has no peer",
		.local = {l0, l0_b},
		.nlocal = 2,
		.remote = {r_b},
		.nremote = 1,
		.npairs = 1,
		.pairs = {{1, 0}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: the shorter prefix decides",
		.local = {wide},
		.nlocal = 1,
		.remote = {r0, narrow},
		.nremote = 2,
		.npairs = 1,
		.pairs = {{0, 1}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: two rails in one subnet land on two server ports",
		.local = {ep("mlx5_0", 1, "ens1", "10.0.0.1", 24, true),
			  ep("mlx5_1", 1, "ens2", "10.0.0.2", 24, true)},
		.nlocal = 2,
		.remote = {ep("mlx5_0", 1, "ens1", "10.0.0.11", 24, true),
			   ep("mlx5_1", 1, "ens2", "10.0.0.12", 24, true)},
		.nremote = 2,
		.npairs = 2,
		.pairs = {{0, 0}, {1, 1}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: a server port that is not ACTIVE is passed over",
		.local = {ep("mlx5_0", 1, "ens1", "10.0.0.1", 24, true)},
		.nlocal = 1,
		.remote = {ep("mlx5_0", 1, "ens1", "10.0.0.11", 24, false),
			   ep("mlx5_1", 1, "ens2", "10.0.0.12", 24, true)},
		.nremote = 2,
		.npairs = 1,
		.pairs = {{0, 1}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: one server port left for two rails: both use it",
		.local = {ep("mlx5_0", 1, "ens1", "10.0.0.1", 24, true),
			  ep("mlx5_1", 1, "ens2", "10.0.0.2", 24, true)},
		.nlocal = 2,
		.remote = {ep("mlx5_0", 1, "ens1", "10.0.0.11", 24, true)},
		.nremote = 1,
		.npairs = 2,
		.pairs = {{0, 0}, {1, 0}},
	};
	cases[n++] = (struct pair_case){
		.what = "auto: no shared subnet",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {far},
		.nremote = 1,
		.rc = -ENETUNREACH,
	};
	cases[n++] = (struct pair_case){
		.what = "auto: only inactive ports",
		.local = {l0_down},
		.nlocal = 1,
		.remote = {r1},
		.nremote = 1,
		.rc = -ENETUNREACH,
	};
	cases[n++] = (struct pair_case){
		.what = "empty remote table",
		.local = {l0},
		.nlocal = 1,
		.nremote = 0,
		.rc = -ENOENT,
	};
	cases[n++] = (struct pair_case){
		.what = "empty local table",
		.nlocal = 0,
		.remote = {r0},
		.nremote = 1,
		.rc = -ENOENT,
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: by device, by device/port, by IP, by netdev",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.specs = {{"rxe1", ""}, {"rxe0/1", ""}, {"198.18.2.1", ""}},
		.nspecs = 3,
		.npairs = 3,
		.pairs = {{1, 0}, {0, 1}, {1, 0}},
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: netdev and a remote named across subnets",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.specs = {{"eth0", ""}, {"rxe0", "mlx5_1"}, {"198.18.2.1", "198.18.1.2"}},
		.nspecs = 3,
		.npairs = 3,
		.pairs = {{0, 1}, {0, 0}, {1, 1}},
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: unknown local",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.specs = {{"rxe9", ""}},
		.nspecs = 1,
		.rc = -ENOENT,
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: port that does not exist",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.specs = {{"rxe0/2", ""}},
		.nspecs = 1,
		.rc = -ENOENT,
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: unknown remote",
		.local = {l0, l1},
		.nlocal = 2,
		.remote = {r0, r1},
		.nremote = 2,
		.specs = {{"rxe0", "mlx5_9"}},
		.nspecs = 1,
		.rc = -ENOENT,
	};
	cases[n++] = (struct pair_case){
		.what = "explicit: no remote in the local's subnet",
		.local = {l0},
		.nlocal = 1,
		.remote = {far},
		.nremote = 1,
		.specs = {{"rxe0", ""}},
		.nspecs = 1,
		.rc = -ENETUNREACH,
	};
	for (size_t i = 0; i < n; i++)
		run_pair_case(&cases[i]);

	/* More specs than links: -EINVAL. */
	{
		struct rdc_bench_link_spec specs[RDC_BENCH_MAX_LINKS + 1];
		struct rdc_bench_pair pairs[RDC_BENCH_MAX_LINKS + 1];
		uint32_t npairs;

		for (size_t i = 0; i < RDC_ARRAY_SIZE(specs); i++)
			assert_int_equal(rdc_bench_link_spec_parse("rxe0", &specs[i]), 0);
		assert_int_equal(rdc_bench_pair_links(&l0, 1, &r1, 1, specs, RDC_BENCH_MAX_LINKS,
						      pairs, &npairs, NULL),
				 0);
		assert_int_equal(npairs, RDC_BENCH_MAX_LINKS);
		assert_int_equal(rdc_bench_pair_links(&l0, 1, &r1, 1, specs,
						      RDC_BENCH_MAX_LINKS + 1, pairs, &npairs,
						      NULL),
				 -EINVAL);
	}
}

/* ==== small parsers ==== */

static void test_cidr4_parse(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint32_t net, prefix;
	} cases[] = {
		{"10.0.0.0/8", 0, 0x0a000000, 8},
		{"10.1.2.3", 0, 0x0a010203, 32},
		{"198.18.0.0/15", 0, 0xc6120000, 15},
		{"0.0.0.0/0", 0, 0, 0},
		{"255.255.255.255/32", 0, 0xffffffff, 32},
		{"10.0.0.1/8", -EINVAL, 0, 0}, /* host bits */
		{"198.19.0.0/15", -EINVAL, 0, 0},
		{"/8", -EINVAL, 0, 0},
		{"10.0.0.0/33", -EINVAL, 0, 0},
		{"10.0.0.0/", -EINVAL, 0, 0},
		{"10.0.0.0/-1", -EINVAL, 0, 0},
		{"10.0.0.0/+8", -EINVAL, 0, 0},
		{"10.0.0.0/8/8", -EINVAL, 0, 0},
		{"10.0.0/8", -EINVAL, 0, 0},
		{"x", -EINVAL, 0, 0},
		{"", -EINVAL, 0, 0},
		{" 10.0.0.0/8", -EINVAL, 0, 0},
		{"100000000000000000000/8", -EINVAL, 0, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		uint32_t net = 0x5a5a5a5a, prefix = 99;

		if (rdc_ipv4_cidr_parse(cases[i].in, &net, &prefix) != cases[i].rc)
			fail_msg("'%s' did not give %d", cases[i].in, cases[i].rc);
		if (!cases[i].rc) {
			assert_int_equal(net, cases[i].net);
			assert_int_equal(prefix, cases[i].prefix);
		}
	}
}

static void test_ipv4_mask(void **state)
{
	static const struct {
		unsigned int prefix;
		uint32_t mask;
	} cases[] = {
		{0, 0},		  {1, 0x80000000},  {8, 0xff000000},  {24, 0xffffff00},
		{31, 0xfffffffe}, {32, 0xffffffff}, {33, 0xffffffff},
	};
	static const struct {
		uint32_t a, b;
		unsigned int prefix;
		int same;
	} subnets[] = {
		{0xc6120101, 0xc61201fe, 24, 1}, {0xc6120101, 0xc6120201, 24, 0},
		{0xc6120101, 0xc6120201, 22, 1}, {0x0a000001, 0xc0a80001, 0, 1},
		{0x0a000001, 0x0a000002, 32, 0}, {0x0a000001, 0x0a000001, 32, 1},
	};
	char buf[INET_ADDRSTRLEN];

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++)
		assert_int_equal(rdc_ipv4_mask(cases[i].prefix), cases[i].mask);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(subnets); i++)
		assert_int_equal(
			!!rdc_ipv4_same_subnet(subnets[i].a, subnets[i].b, subnets[i].prefix),
			subnets[i].same);
	rdc_ipv4_format(0xc6120101, buf);
	assert_string_equal(buf, "198.18.1.1");
	rdc_ipv4_format(0, buf);
	assert_string_equal(buf, "0.0.0.0");
}

static void test_cpulist_parse(void **state)
{
	static const struct {
		const char *in;
		size_t ncpus;
		int rc;
		uint32_t set; /* bit i: CPU i */
	} cases[] = {
		{"0-3,8,10-11", 16, 0, 0x0d0f},
		{"0", 16, 0, 0x1},
		{"", 16, 0, 0},
		{"\n", 16, 0, 0},
		{"0-3\n", 16, 0, 0xf}, /* as sysfs has it */
		{"31", 32, 0, 0x80000000},
		{"0-100", 4, 0, 0xf}, /* beyond ncpus: ignored */
		{"2,70,4000000000", 8, 0, 0x4},
		{"5-5", 8, 0, 0x20},
		{"3-1", 16, -EINVAL, 0},
		{"a", 16, -EINVAL, 0},
		{"1-", 16, -EINVAL, 0},
		{"-1", 16, -EINVAL, 0},
		{",1", 16, -EINVAL, 0},
		{"1,,2", 16, -EINVAL, 0},
		{"1 2", 16, -EINVAL, 0},
		{"0,", 16, -EINVAL, 0}, /* a trailing comma */
		{"0-3x", 16, -EINVAL, 0},
		{"1--3", 16, -EINVAL, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		unsigned char cpus[40];
		int rc;

		memset(cpus, 0x77, sizeof(cpus));
		rc = rdc_cpulist_parse(cases[i].in, cpus, cases[i].ncpus);
		if (rc != cases[i].rc)
			fail_msg("'%s' gave %d, expected %d", cases[i].in, rc, cases[i].rc);
		if (!rc)
			for (size_t c = 0; c < cases[i].ncpus; c++)
				if (cpus[c] != ((cases[i].set >> c) & 1))
					fail_msg("'%s': cpu %zu is %u", cases[i].in, c, cpus[c]);
		/* nothing written past ncpus */
		for (size_t c = cases[i].ncpus; c < sizeof(cpus); c++)
			assert_int_equal(cpus[c], 0x77);
	}
}

static void test_parse_size(void **state)
{
	static const struct {
		const char *in;
		uint64_t max;
		int rc;
		uint64_t v;
	} cases[] = {
		{"65536", RDC_BENCH_MAX_SIZE, 0, 65536},
		{"64K", RDC_BENCH_MAX_SIZE, 0, 65536},
		{"64k", RDC_BENCH_MAX_SIZE, 0, 65536},
		{"1M", RDC_BENCH_MAX_SIZE, 0, 1048576},
		{"16M", RDC_BENCH_MAX_SIZE, 0, 16777216},
		{"16384K", RDC_BENCH_MAX_SIZE, 0, 16777216},
		{"0", RDC_BENCH_MAX_SIZE, 0, 0},
		{"0K", RDC_BENCH_MAX_SIZE, 0, 0},
		{"2047", 2047, 0, 2047},
		{"1K", 2047, 0, 1024},
		{"", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"12X", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"K", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"1G", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"64KB", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"1.5M", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"-1", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"+1", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{" 1", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"0x10", RDC_BENCH_MAX_SIZE, -EINVAL, 0},
		{"16777217", RDC_BENCH_MAX_SIZE, -ERANGE, 0},
		{"16385K", RDC_BENCH_MAX_SIZE, -ERANGE, 0},
		{"17M", RDC_BENCH_MAX_SIZE, -ERANGE, 0},
		{"1K", 1023, -ERANGE, 0},
		{"18014398509481984K", UINT64_MAX, -ERANGE, 0}, /* 2^54 K: would wrap to 0 */
		{"123456789012345678901234567890123", UINT64_MAX, -EINVAL, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		uint64_t v = 0;
		int rc = rdc_parse_size(cases[i].in, cases[i].max, &v);

		if (rc != cases[i].rc)
			fail_msg("'%s' (max %llu) gave %d, expected %d", cases[i].in,
				 (unsigned long long)cases[i].max, rc, cases[i].rc);
		if (!rc)
			assert_int_equal(v, cases[i].v);
	}
}

/* issue 13: every time a report shows is on one clock, from the end of the warm-up. */
static void test_report_clock(void **state)
{
	struct rdc_bench_report r = {0};

	(void)state;
	r.start_ns = 1000000000ull;
	r.params.warmup_ns = 1000000000ull;
	assert_true(rdc_bench_report_origin_ns(&r) == 2000000000ull);
	assert_near(rdc_bench_report_clock_s(&r, 4100000000ull), 2.1, 1e-9);
	/* In the warm-up: before the origin, negative (not a huge unsigned number). */
	assert_near(rdc_bench_report_clock_s(&r, 1600000000ull), -0.4, 1e-9);
	/* No warm-up: the origin is the start. */
	r.params.warmup_ns = 0;
	assert_near(rdc_bench_report_clock_s(&r, 1250000000ull), 0.25, 1e-9);
}

/* An outage is lost and back; a link lost twice keeps the last; never back stays open. */
static void test_carrier_note(void **state)
{
	struct rdc_bench_link_report lr = {0};

	(void)state;
	rdc_bench_carrier_note(&lr, true, 100);
	assert_false(lr.carrier_lost);
	rdc_bench_carrier_note(&lr, false, 200);
	rdc_bench_carrier_note(&lr, false, 250); /* still down: the loss is not moved */
	assert_true(lr.carrier_lost);
	assert_false(lr.carrier_back);
	assert_true(lr.carrier_lost_ns == 200);
	rdc_bench_carrier_note(&lr, true, 325);
	rdc_bench_carrier_note(&lr, true, 400); /* still up: the return is not moved */
	assert_true(lr.carrier_back);
	assert_true(lr.carrier_back_ns == 325);
	assert_int_equal(lr.carrier_losses, 1);
	/* Lost again and not back: the last outage, open. */
	rdc_bench_carrier_note(&lr, false, 500);
	assert_true(lr.carrier_lost && !lr.carrier_back);
	assert_true(lr.carrier_lost_ns == 500 && lr.carrier_back_ns == 0);
	assert_int_equal(lr.carrier_losses, 2);
}

/* Counters that mean retransmission or loss are called so in the text. */
static void test_counter_meaning(void **state)
{
	(void)state;
	assert_string_equal(rdc_bench_counter_meaning("hw", "rcvd_seq_err"), "retransmissions");
	assert_string_equal(rdc_bench_counter_meaning("hw", "completer_retry_err"),
			    "retransmissions");
	assert_string_equal(rdc_bench_counter_meaning("hw", "out_of_sequence"), "retransmissions");
	assert_string_equal(rdc_bench_counter_meaning("hw", "local_ack_timeout_err"), "timeouts");
	assert_string_equal(rdc_bench_counter_meaning("hw", "out_of_buffer"), "drops");
	assert_string_equal(rdc_bench_counter_meaning("pause", "rx_prio3_pause"), "pause frames");
	assert_null(rdc_bench_counter_meaning("hw", "rcvd_pkts"));
}

/* issue 13: a host without RDMA devices has no endpoint, and says why. */
static void test_endpoints_usable(void **state)
{
	char root[] = "/tmp/test_bench.XXXXXX", cmd[64];
	struct rdc_err err = {0};
	uint32_t n = 99;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	assert_int_equal(rdc_bench_endpoints_usable(&n, &err), -ENODEV);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.msg, "no RDMA device on this host"));
	rdc_fs_set_root(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* The no-progress limits grow with the bytes a link waits for, up to a cap, never overflowing. */
static void test_silence_limits(void **state)
{
	const uint64_t s = 1000000000ull;
	struct rdc_bench_params p;

	(void)state;
	/* Under 512 KiB: the base limit exactly (whole seconds only). */
	assert_int_equal(rdc_bench_silence_ns(10 * s, 64), 10 * s);
	assert_int_equal(rdc_bench_silence_ns(10 * s, 0), 10 * s);
	assert_int_equal(rdc_bench_silence_ns(10 * s, (512u << 10) - 1), 10 * s);
	assert_int_equal(rdc_bench_silence_ns(10 * s, 512u << 10), 11 * s);
	/* 8 MiB at 512 KiB/s: 16 s more. */
	assert_int_equal(rdc_bench_silence_ns(10 * s, 8u << 20), 26 * s);
	assert_int_equal(rdc_bench_silence_ns(5 * s, 2ull * (8u << 20)), 37 * s);
	/* The cap, whatever the bytes: no overflow on the way. */
	assert_int_equal(rdc_bench_silence_ns(3 * s, 100ull << 20), RDC_BENCH_SILENCE_MAX_NS);
	assert_int_equal(rdc_bench_silence_ns(3 * s, UINT64_MAX), RDC_BENCH_SILENCE_MAX_NS);
	assert_int_equal(rdc_bench_silence_ns(10 * s, 30ull << 20), RDC_BENCH_SILENCE_MAX_NS);
	/* Just under the cap's bytes: 59 s, under the cap. */
	assert_int_equal(rdc_bench_silence_ns(0, (30ull << 20) - 1), 59 * s);
	/* A base over the cap stays what it is. */
	assert_int_equal(rdc_bench_silence_ns(90 * s, 8u << 20), 90 * s);

	/* What a link waits for: lat a round trip, the others one completion's messages. */
	rdc_bench_params_default(&p, RDC_BENCH_LAT);
	p.size = 8u << 20;
	assert_int_equal(rdc_bench_wait_bytes(&p), 16u << 20);
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	p.size = 8u << 20;
	assert_int_equal(rdc_bench_wait_bytes(&p), 8u << 20);
	p.size = 64; /* a quarter of the queue signalled: 32 x 64 bytes */
	assert_int_equal(rdc_bench_wait_bytes(&p), 32 * 64);
	p.cq_mod = 100;
	assert_int_equal(rdc_bench_wait_bytes(&p), 100 * 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_imbalance),
		cmocka_unit_test(test_interval_range),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_lat_stats),
		cmocka_unit_test(test_lat_histogram),
		cmocka_unit_test(test_cpu_times_parse),
		cmocka_unit_test(test_cpu_times_live),
		cmocka_unit_test(test_cpu_busy_percent),
		cmocka_unit_test(test_msg_roundtrip),
		cmocka_unit_test(test_msg_names),
		cmocka_unit_test(test_encode_limits),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_decode_header),
		cmocka_unit_test(test_params_rdma_cm),
		cmocka_unit_test(test_params_cq_wait),
		cmocka_unit_test(test_decode_truncations),
		cmocka_unit_test(test_decode_control_chars),
		cmocka_unit_test(test_params_default),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_params_check_retry),
		cmocka_unit_test(test_params_knobs),
		cmocka_unit_test(test_params_bidir),
		cmocka_unit_test(test_ctl_error_whole),
		cmocka_unit_test(test_params_memory),
		cmocka_unit_test(test_silence_limits),
		cmocka_unit_test(test_test_names),
		cmocka_unit_test(test_link_spec_parse),
		cmocka_unit_test(test_pair_links),
		cmocka_unit_test(test_cidr4_parse),
		cmocka_unit_test(test_ipv4_mask),
		cmocka_unit_test(test_cpulist_parse),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_report_clock),
		cmocka_unit_test(test_carrier_note),
		cmocka_unit_test(test_counter_meaning),
		cmocka_unit_test(test_endpoints_usable),
		cmocka_unit_test(test_params_sweep),
	};

	return cmocka_run_group_tests_name("bench", tests, NULL, NULL);
}
