// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bench_rate.c - bench's rate-limit (pacing, parsing) and hugepages (the pool, its check) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "bench/bench.h"
#include "bench/hugepages.h"
#include "bench/pace.h"
#include "bench/proto.h"

#define NS_PER_S 1000000000ull

/* ==== rate-limit: the pacing arithmetic ==== */

/* Unlimited: everything asked for goes, whenever. */
static void test_pace_unlimited(void **state)
{
	struct rdc_bench_pace pc;

	(void)state;
	rdc_bench_pace_init(&pc, 0, 65536, 1, 128, 1000);
	assert_int_equal(rdc_bench_pace_allow(&pc, 0, 7), 7);
	assert_int_equal(rdc_bench_pace_allow(&pc, 1000, 128), 128);
	rdc_bench_pace_take(&pc, 128);
	assert_int_equal(rdc_bench_pace_allow(&pc, 1000, 128), 128);
	assert_int_equal(rdc_bench_pace_wait_ns(&pc, 1000), 0);
}

/*
 * 1 KiB at 8.192 Mb/s is 1000 messages a second: one every 1 ms exactly.
 * The first may go at the start, the next 1 ms later, never earlier.
 */
static void test_pace_exact(void **state)
{
	struct rdc_bench_pace pc;
	const uint64_t t0 = 5 * NS_PER_S, ms = 1000000;

	(void)state;
	rdc_bench_pace_init(&pc, 8192000, 1024, 4, 128, t0); /* 4 ms of credit */
	assert_int_equal(pc.cost_ns, ms);
	assert_int_equal(pc.cost_rem, 0);
	assert_int_equal(rdc_bench_pace_allow(&pc, t0 - 1, 1), 0);
	assert_int_equal(rdc_bench_pace_wait_ns(&pc, t0 - 1), 1);
	assert_int_equal(rdc_bench_pace_allow(&pc, t0, 4), 1);
	rdc_bench_pace_take(&pc, 1);
	assert_int_equal(rdc_bench_pace_allow(&pc, t0 + ms - 1, 4), 0);
	assert_int_equal(rdc_bench_pace_wait_ns(&pc, t0 + ms - 1), 1);
	assert_int_equal(rdc_bench_pace_allow(&pc, t0 + ms, 4), 1);
	/* Checked once for a batch: at t0 + 2.5 ms, messages 2 and 3 (1 and 2 ms) are due. */
	assert_int_equal(rdc_bench_pace_allow(&pc, t0 + 2 * ms + ms / 2, 4), 2);
	rdc_bench_pace_take(&pc, 2);
	assert_int_equal(pc.next_ns, t0 + 3 * ms);
	assert_int_equal(rdc_bench_pace_allow(&pc, t0 + 2 * ms + ms / 2, 4), 0);
	assert_int_equal(rdc_bench_pace_wait_ns(&pc, t0 + 2 * ms + ms / 2), ms / 2);
}

/*
 * A cost that is not whole nanoseconds: at 9 Gb/s 1 byte is 8/9 ns, and 9
 * messages cost exactly 8 ns: the remainder is carried, never lost or
 * rounded up.
 */
static void test_pace_fraction(void **state)
{
	struct rdc_bench_pace pc;

	(void)state;
	rdc_bench_pace_init(&pc, 9000000000ull, 1, 1, 1024, 0);
	assert_int_equal(pc.cost_ns, 0);
	assert_int_equal(pc.cost_rem, 8000000000ull);
	for (int i = 0; i < 9; i++)
		rdc_bench_pace_take(&pc, 1);
	assert_int_equal(pc.next_ns, 8);
	assert_int_equal(pc.frac, 0);
	/* 64 KiB at 3 Gb/s: 524288 bits / 3 = 174762.67 ns; three cost 524288 exactly. */
	rdc_bench_pace_init(&pc, 3000000000ull, 65536, 1, 128, 0);
	assert_int_equal(pc.cost_ns, 174762);
	rdc_bench_pace_take(&pc, 3);
	assert_int_equal(pc.next_ns, 524288);
	assert_int_equal(pc.frac, 0);
}

/*
 * Over a long run the posts follow the rate to the message: one second of
 * turns every 10 us at 1 Gb/s of 4 KiB (30517.578125 a second) posts
 * 30518 (the first at 0, then one per cost), whatever the batch.
 */
static void test_pace_long_run(void **state)
{
	struct rdc_bench_pace pc;
	uint64_t sent = 0;

	(void)state;
	rdc_bench_pace_init(&pc, 1000000000ull, 4096, 8, 128, 0);
	for (uint64_t now = 0; now < NS_PER_S; now += 10000) {
		uint32_t n = rdc_bench_pace_allow(&pc, now, 8);

		if (n == 8) {
			rdc_bench_pace_take(&pc, n);
			sent += n;
		}
	}
	/* Whole chains of 8 only: at or under the rate, and within a chain of it. */
	assert_true(sent <= 30518 + 8);
	assert_true(sent >= 30518 - 8);
}

/*
 * A link that fell behind keeps at most 1 ms of credit (or a queue, or a
 * chain): after a 2 s stall at 8.192 Mb/s of 1 KiB (1 ms each), two
 * messages (the millisecond's and the one due now), not 2000.
 */
static void test_pace_burst(void **state)
{
	struct rdc_bench_pace pc;
	const uint64_t ms = 1000000;

	(void)state;
	rdc_bench_pace_init(&pc, 8192000, 1024, 1, 128, 0);
	assert_int_equal(pc.burst_ns, ms);
	assert_int_equal(rdc_bench_pace_allow(&pc, 2 * NS_PER_S, 1024), 2);
	/* A chain longer than the millisecond: the credit is the chain. */
	rdc_bench_pace_init(&pc, 8192000, 1024, 8, 128, 0);
	assert_int_equal(pc.burst_ns, 8 * ms);
	assert_int_equal(rdc_bench_pace_allow(&pc, 2 * NS_PER_S, 1024), 9);
	/* Fast: 1 ms of 4 KiB at 100 Gb/s is 3051 messages; a queue of 16 caps it. */
	rdc_bench_pace_init(&pc, 100000000000ull, 4096, 1, 16, 0);
	assert_int_equal(pc.burst_ns, 16 * pc.cost_ns);
	assert_int_equal(rdc_bench_pace_allow(&pc, NS_PER_S, 1024), 17);
}

/* ==== rate-limit: the keyword's value ==== */

static void test_rate_parse(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t bps;
	} cases[] = {
		{"2.5", 0, 2500000000ull},
		{"10", 0, 10000000000ull},
		{"0.4", 0, 400000000ull},
		{".5", 0, 500000000ull},
		{"5.", 0, 5000000000ull},
		{"0.000001", 0, 1000},
		{"10000", 0, 10000000000000ull},
		{"0.0000009", -ERANGE, 0},
		{"0", -ERANGE, 0},
		{"10000.1", -ERANGE, 0},
		{"400mbps", -EINVAL, 0},
		{"2.5gbps", -EINVAL, 0},
		{"2.5G", -EINVAL, 0},
		{"1e3", -EINVAL, 0},
		{"0x10", -EINVAL, 0},
		{"-1", -EINVAL, 0},
		{"+1", -EINVAL, 0},
		{" 1", -EINVAL, 0},
		{"1.2.3", -EINVAL, 0},
		{".", -EINVAL, 0},
		{"", -EINVAL, 0},
		{"inf", -EINVAL, 0},
		{"nan", -EINVAL, 0},
		{"000000000000000000001", -EINVAL, 0},
	};

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		uint64_t bps = 12345;
		int rc = rdc_bench_rate_parse(cases[i].in, &bps);

		if (rc != cases[i].rc)
			fail_msg("'%s': %d, expected %d", cases[i].in, rc, cases[i].rc);
		if (!rc && bps != cases[i].bps)
			fail_msg("'%s': %llu bit/s, expected %llu", cases[i].in,
				 (unsigned long long)bps, (unsigned long long)cases[i].bps);
		if (rc && bps != 12345)
			fail_msg("'%s': wrote a value on failure", cases[i].in);
	}
}

/* ==== the parameters and their wire form ==== */

static void test_params_rate_huge(void **state)
{
	struct rdc_bench_params p;
	struct rdc_err err = {0};

	(void)state;
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	assert_int_equal(p.rate_limit_bps, 0);
	assert_false(p.hugepages);
	p.rate_limit_bps = 2500000000ull;
	p.hugepages = true;
	assert_int_equal(rdc_bench_params_check(&p, &err), 0);
	p.rate_limit_bps = RDC_BENCH_RATE_MIN_BPS - 1;
	assert_int_equal(rdc_bench_params_check(&p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "rate-limit 999 bit/s is outside"));
	p.rate_limit_bps = RDC_BENCH_RATE_MAX_BPS + 1;
	assert_int_equal(rdc_bench_params_check(&p, &err), -EINVAL);
	/* Not for the latency tests (one message in flight); hugepages are. */
	for (int t = RDC_BENCH_LAT; t <= RDC_BENCH_LAT_SEND; t++) {
		rdc_bench_params_default(&p, (enum rdc_bench_test)t);
		p.hugepages = true;
		assert_int_equal(rdc_bench_params_check(&p, &err), 0);
		p.rate_limit_bps = 1000000000ull;
		assert_int_equal(rdc_bench_params_check(&p, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "rate-limit applies to the bandwidth tests"));
	}
}

/* SETUP with a one-QP link, its parameters given. */
static long setup_frame(uint8_t *buf, size_t cap, const struct rdc_bench_params *p)
{
	static struct rdc_bench_msg m;

	memset(&m, 0, sizeof(m));
	m.type = RDC_BENCH_MSG_SETUP;
	m.u.setup.params = *p;
	m.u.setup.nlinks = 1;
	m.u.setup.links[0].mtu = 1024;
	m.u.setup.links[0].nqps = 1;
	m.u.setup.links[0].qps[0].qpn = 17;
	return rdc_bench_msg_encode(&m, buf, cap);
}

/*
 * Protocol 4: rate-limit (u64 bit/s) and hugepages (u8) follow inline in
 * SETUP's parameters, then bidir and rdma-cm (u8 each), and since protocol 5
 * cq-wait (u8) ends them; all come back as sent, and a hugepages byte other
 * than 0 or 1 is refused by name.
 */
static void test_setup_rate_huge_wire(void **state)
{
	static uint8_t buf[RDC_BENCH_HDR_LEN + RDC_BENCH_MAX_FRAME];
	static struct rdc_bench_msg out;
	struct rdc_bench_params p;
	struct rdc_err err = {0};
	/* test u8, size/qps/depth u32, 4 x u64, tclass u8, mtu u32, 3 x u8, 3 x u32, then ours */
	const size_t rate_at = RDC_BENCH_HDR_LEN + 1 + 12 + 32 + 1 + 4 + 3 + 12;
	long len;

	(void)state;
	assert_int_equal(RDC_BENCH_PROTO_VERSION, 5);
	rdc_bench_params_default(&p, RDC_BENCH_SEND);
	p.rate_limit_bps = 0x0102030405060708ull;
	p.hugepages = true;
	p.cq_wait = RDC_BENCH_CQ_WAIT_EVENTS;
	len = setup_frame(buf, sizeof(buf), &p);
	assert_true(len > (long)rate_at + 12);
	/* Big-endian, where they are said to be; cq-wait after bidir and rdma-cm. */
	assert_int_equal(buf[rate_at], 0x01);
	assert_int_equal(buf[rate_at + 7], 0x08);
	assert_int_equal(buf[rate_at + 8], 1);
	assert_int_equal(buf[rate_at + 11], RDC_BENCH_CQ_WAIT_EVENTS);
	if (rdc_bench_msg_decode(buf, (size_t)len, &out, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(out.u.setup.params.rate_limit_bps, 0x0102030405060708ull);
	assert_true(out.u.setup.params.hugepages);
	assert_int_equal(out.u.setup.params.cq_wait, RDC_BENCH_CQ_WAIT_EVENTS);
	/* Unlimited and small pages: zeros. */
	p.rate_limit_bps = 0;
	p.hugepages = false;
	len = setup_frame(buf, sizeof(buf), &p);
	assert_int_equal(buf[rate_at + 8], 0);
	assert_int_equal(rdc_bench_msg_decode(buf, (size_t)len, &out, &err), 0);
	assert_int_equal(out.u.setup.params.rate_limit_bps, 0);
	assert_false(out.u.setup.params.hugepages);
	/* A peer's hugepages byte of 2: refused, naming the field. */
	buf[rate_at + 8] = 2;
	assert_int_equal(rdc_bench_msg_decode(buf, (size_t)len, &out, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "hugepages"));
}

/* ==== hugepages: the pool ==== */

static const char meminfo[] = "MemTotal:         503276 kB\n"
			      "MemFree:          400000 kB\n"
			      "HugePages_Total:       8\n"
			      "HugePages_Free:        5\n"
			      "HugePages_Rsvd:        1\n"
			      "HugePages_Surp:        0\n"
			      "Hugepagesize:       2048 kB\n"
			      "Hugetlb:          16384 kB\n";

static void test_huge_parse(void **state)
{
	struct rdc_bench_huge h;
	char bad[sizeof(meminfo) + 32];

	(void)state;
	assert_int_equal(rdc_bench_huge_parse(meminfo, &h), 0);
	assert_int_equal(h.page_bytes, 2097152);
	assert_int_equal(h.total, 8);
	assert_int_equal(h.free, 5);
	assert_int_equal(h.rsvd, 1);
	/* 1 GiB pages, the last line without its newline. */
	assert_int_equal(rdc_bench_huge_parse("HugePages_Total: 0\nHugepagesize: 1048576 kB", &h),
			 0);
	assert_int_equal(h.page_bytes, 1ull << 30);
	assert_int_equal(h.total, 0);
	/* No hugetlbfs: no Hugepagesize line. */
	assert_int_equal(rdc_bench_huge_parse("MemTotal: 1 kB\n", &h), -ENOENT);
	assert_int_equal(rdc_bench_huge_parse("", &h), -ENOENT);
	/* Malformed: a unit missing, a sign, a page size that is no power of two or too small. */
	assert_int_equal(rdc_bench_huge_parse("Hugepagesize: 2048\n", &h), -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("Hugepagesize: 2048 MB\n", &h), -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("HugePages_Free: -1\nHugepagesize: 2048 kB\n", &h),
			 -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("HugePages_Free: 3x\nHugepagesize: 2048 kB\n", &h),
			 -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("Hugepagesize: 3000 kB\n", &h), -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("Hugepagesize: 4 kB\n", &h), -EINVAL);
	assert_int_equal(rdc_bench_huge_parse("Hugepagesize: 99999999999999999999 kB\n", &h),
			 -EINVAL);
	snprintf(bad, sizeof(bad), "%sHugePages_Rsvd: 1 2\n", meminfo);
	assert_int_equal(rdc_bench_huge_parse(bad, &h), -EINVAL);
}

static void test_huge_pages(void **state)
{
	struct rdc_bench_params p;

	(void)state;
	assert_int_equal(rdc_bench_huge_round(1, 2097152), 2097152);
	assert_int_equal(rdc_bench_huge_round(2097152, 2097152), 2097152);
	assert_int_equal(rdc_bench_huge_round(2097153, 2097152), 4194304);
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	/* 64 KiB, one QP: one page per link, each link's buffer rounded on its own. */
	assert_int_equal(rdc_bench_huge_pages(&p, 1, 2097152), 1);
	assert_int_equal(rdc_bench_huge_pages(&p, 3, 2097152), 3);
	/* 1 MiB x 3 QPs = 3 MiB: two pages per link. */
	p.size = 1 << 20;
	p.qps = 3;
	assert_int_equal(rdc_bench_huge_pages(&p, 2, 2097152), 4);
	/* lat's slot is twice the size: 2 MiB messages take two pages each. */
	rdc_bench_params_default(&p, RDC_BENCH_LAT);
	p.size = 2 << 20;
	assert_int_equal(rdc_bench_huge_pages(&p, 1, 2097152), 2);
}

static void test_huge_check(void **state)
{
	struct rdc_bench_huge h = {.page_bytes = 2097152, .total = 0, .free = 0};
	struct rdc_bench_params p;
	struct rdc_err err = {0};

	(void)state;
	rdc_bench_params_default(&p, RDC_BENCH_WRITE);
	p.size = 4 << 20;
	p.hugepages = true;
	assert_int_equal(rdc_bench_huge_check(&h, &p, 1, false, &err), -ENOMEM);
	assert_string_equal(err.msg, "no free 2048 kB huge pages for 4 MiB: reserve some with "
				     "sysctl vm.nr_hugepages=2");
	assert_int_equal(rdc_bench_huge_check(&h, &p, 1, true, &err), -ENOMEM);
	assert_string_equal(err.msg, "no free 2048 kB huge pages on the server for 4 MiB: reserve "
				     "some there with sysctl vm.nr_hugepages=2");
	/* Some free, reserved ones not counted: 5 free - 1 reserved = 4, 2 links need 4. */
	h.total = 8, h.free = 5, h.rsvd = 1;
	assert_int_equal(rdc_bench_huge_check(&h, &p, 2, false, &err), 0);
	assert_int_equal(rdc_bench_huge_check(&h, &p, 3, false, &err), -ENOMEM);
	assert_string_equal(err.msg, "4 free 2048 kB huge pages, 12 MiB needs 6: reserve more "
				     "with sysctl vm.nr_hugepages=10");
	/* More reserved than free (a mapping's promise): none to take. */
	h.rsvd = 9;
	assert_int_equal(rdc_bench_huge_check(&h, &p, 1, false, &err), -ENOMEM);
	assert_non_null(strstr(err.msg, "no free 2048 kB huge pages for 4 MiB"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pace_unlimited),
		cmocka_unit_test(test_pace_exact),
		cmocka_unit_test(test_pace_fraction),
		cmocka_unit_test(test_pace_long_run),
		cmocka_unit_test(test_pace_burst),
		cmocka_unit_test(test_rate_parse),
		cmocka_unit_test(test_params_rate_huge),
		cmocka_unit_test(test_setup_rate_huge_wire),
		cmocka_unit_test(test_huge_parse),
		cmocka_unit_test(test_huge_pages),
		cmocka_unit_test(test_huge_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
