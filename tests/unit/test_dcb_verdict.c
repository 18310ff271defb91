// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dcb_verdict.c - judging a netdev's QoS against a profile; DSCP maps in ranges */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dcb/verdict.h"

/* An mlx5-like port fresh from boot: PFC off, vendor TSAs, prio-tc 0:1 1:0 2:2 ..., no APP entries. */
static void fresh(struct rdc_dcb *d)
{
	memset(d, 0, sizeof(*d));
	d->supported = true;
	d->have_pfc = d->have_ets = d->have_maxrate = d->have_buffer = d->have_dcbx = true;
	d->pfc.pfc_cap = 8;
	d->pfc.delay = 7;
	d->ets.ets_cap = 8;
	for (int t = 0; t < 8; t++) {
		d->ets.prio_tc[t] = (uint8_t)t;
		d->ets.tc_tsa[t] = IEEE_8021QAZ_TSA_VENDOR;
		d->ets.tc_tx_bw[t] = 100;
	}
	d->ets.prio_tc[0] = 1;
	d->ets.prio_tc[1] = 0;
}

static void add_app(struct rdc_dcb *d, unsigned int dscp, unsigned int prio)
{
	d->apps[d->napps++] = (struct dcb_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
					       .priority = (uint8_t)prio,
					       .protocol = (uint16_t)dscp};
}

/* What roce-lossless leaves behind (cx6dx): mlx5 reports 100% for strict TCs. */
static void lossless(struct rdc_dcb *d)
{
	fresh(d);
	d->pfc.pfc_en = 1U << 3;
	for (int t = 0; t < 8; t++) {
		d->ets.prio_tc[t] = 0;
		d->ets.tc_tsa[t] = IEEE_8021QAZ_TSA_STRICT;
		d->ets.tc_tx_bw[t] = 100;
	}
	d->ets.prio_tc[3] = 3;
	d->ets.prio_tc[6] = 6;
	d->ets.tc_tsa[0] = d->ets.tc_tsa[3] = IEEE_8021QAZ_TSA_ETS;
	d->ets.tc_tx_bw[0] = d->ets.tc_tx_bw[3] = 50;
	add_app(d, 48, 6);
	add_app(d, 26, 3);
}

/* The profile's want without files (no ECN sysfs, no RDMA ports), as on the double. */
static void profile_want(const char *name, struct rdc_dcb_want *w)
{
	struct rdc_dcb_target t = {.netdev = "rdctest-none"};
	struct rdc_dcb_profile p;

	assert_int_equal(rdc_dcb_profile_init(&p, name), 0);
	rdc_dcb_profile_want(&p, &t, w);
}

static const struct rdc_dcb_difference *find(const struct rdc_dcb_verdict *v, const char *what)
{
	char buf[96];

	for (size_t i = 0; i < v->ndiffs; i++) {
		rdc_dcb_difference_what(&v->diffs[i], buf, sizeof(buf));
		if (!strcmp(buf, what))
			return &v->diffs[i];
	}
	return NULL;
}

static void test_configured_host_matches(void **state)
{
	struct rdc_dcb_observed o = {0};
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	lossless(&d);
	o.dcb = &d;
	profile_want("roce-lossless", &w);
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_MATCHES);
	assert_int_equal(v.ndiffs, 0);
	/* Other DSCP entries (the full default map of mlnx_qos --trust dscp) are left alone. */
	for (unsigned int dscp = 0; dscp < 64; dscp++)
		if (dscp != 26 && dscp != 48)
			add_app(&d, dscp, dscp >> 3);
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_MATCHES);
}

static void test_fresh_host_differs_in_each_setting(void **state)
{
	const struct rdc_dcb_difference *x;
	struct rdc_dcb_observed o = {0};
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	o.dcb = &d;
	profile_want("roce-lossless", &w);
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_DIFFERS);
	x = find(&v, "prio-pfc 3");
	assert_non_null(x);
	assert_int_equal(x->have.type, RDC_VVAL_BOOL);
	assert_false(x->have.b);
	assert_true(x->want.b);
	assert_null(find(&v, "prio-pfc 4")); /* off and wanted off */
	x = find(&v, "trust");
	assert_non_null(x);
	assert_string_equal(x->have.s, "pcp");
	assert_string_equal(x->want.s, "dscp");
	x = find(&v, "dscp-prio 26");
	assert_non_null(x);
	assert_int_equal(x->have.type, RDC_VVAL_NULL);
	assert_int_equal(x->want.u, 3);
	assert_non_null(find(&v, "dscp-prio 48"));
	x = find(&v, "tc-tsa 3");
	assert_string_equal(x->have.s, "vendor");
	assert_string_equal(x->want.s, "ets");
	assert_non_null(find(&v, "prio-tc 0"));
	assert_null(find(&v, "prio-tc 1")); /* already 0 */
	assert_non_null(find(&v, "tc-bw 0"));
	assert_non_null(find(&v, "tc-bw 3"));
	/* Strict TCs have no share to compare (mlx5 reports 100 there). */
	assert_null(find(&v, "tc-bw 1"));
	/* Keyword order: PFC before ETS before trust before the DSCP map. */
	assert_string_equal(v.diffs[0].keyword, "prio-pfc");
	assert_string_equal(v.diffs[v.ndiffs - 1].keyword, "dscp-prio");
}

static void test_misconfigured_host(void **state)
{
	struct rdc_ofed_qos q = {.have_ecn = true, .cnp_dscp = 26, .cnp_prio = 3};
	struct rdc_dcb_observed o = {0};
	const struct rdc_dcb_difference *x;
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	lossless(&d);
	d.pfc.pfc_en |= 1U << 4; /* PFC on a second priority */
	d.apps[1].protocol = 24; /* RoCE on DSCP 24, not 26 */
	for (int p = 0; p < 8; p++)
		q.ecn_np[p] = q.ecn_rp[p] = p != 3; /* ECN off on the RoCE priority */
	o.dcb = &d;
	o.ofed = &q;
	profile_want("roce-lossless", &w);
	/* As the profile wants it where MLNX_OFED's ECN files are. */
	w.ecn_given[3] = w.ecn_on[3] = true;
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_DIFFERS);
	x = find(&v, "prio-pfc 4");
	assert_true(x && x->have.b && !x->want.b);
	assert_non_null(find(&v, "dscp-prio 26"));
	assert_non_null(find(&v, "ecn-np 3"));
	assert_non_null(find(&v, "ecn-rp 3"));
	x = find(&v, "cnp-dscp");
	assert_true(x && x->have.u == 26 && x->want.u == 48);
	x = find(&v, "cnp-prio");
	assert_true(x && x->have.u == 3 && x->want.u == 6);
	assert_int_equal(v.ndiffs, 6);
	/* MLNX_OFED's trust file wins over the APP rule. */
	strcpy(q.trust, "pcp");
	rdc_dcb_verdict_compare(&w, &o, &v);
	x = find(&v, "trust");
	assert_true(x && !strcmp(x->have.s, "pcp"));
}

static void test_rdma_cm_per_port(void **state)
{
	struct rdc_dcb_observed o = {0};
	const struct rdc_dcb_difference *x;
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	lossless(&d);
	o.dcb = &d;
	o.nports = 2;
	o.ports[0].device = "mlx5_0";
	o.ports[0].port = 1;
	o.ports[0].cm = (struct rdc_rdma_cm_port){
		.have_mode = true, .have_tos = true, .mode = "RoCE v2", .tos = 106};
	o.ports[1].device = "mlx5_1";
	o.ports[1].port = 1;
	profile_want("roce-lossless", &w);
	w.roce_tos = 106;
	w.roce_mode = 2;
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.ndiffs, 2);
	x = find(&v, "roce-tos mlx5_1/1");
	assert_true(x && x->have.type == RDC_VVAL_NULL && x->want.u == 106);
	x = find(&v, "roce-mode mlx5_1/1");
	assert_true(x && !strcmp(x->want.s, "RoCE v2"));
}

static void test_no_dcb_is_unknown(void **state)
{
	struct rdc_dcb_observed o = {0};
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	profile_want("roce-lossless", &w);
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_UNKNOWN);
	assert_non_null(v.reason);
	memset(&d, 0, sizeof(d)); /* what a veth answers: nothing */
	o.dcb = &d;
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_UNKNOWN);
	assert_int_equal(v.ndiffs, 0);
	assert_non_null(strstr(v.reason, "no DCB support"));
}

static void test_other_priorities(void **state)
{
	struct rdc_dcb_profile p;
	struct rdc_dcb_observed o = {0};
	struct rdc_dcb_target t = {.netdev = "rdctest-none"};
	struct rdc_dcb_verdict v;
	struct rdc_dcb_want w;
	struct rdc_dcb d;

	(void)state;
	lossless(&d);
	o.dcb = &d;
	rdc_dcb_profile_init(&p, "roce-lossless");
	p.prio = 4;
	p.dscp = 34;
	rdc_dcb_profile_want(&p, &t, &w);
	rdc_dcb_verdict_compare(&w, &o, &v);
	assert_int_equal(v.result, RDC_VERDICT_DIFFERS);
	assert_non_null(find(&v, "prio-pfc 3"));
	assert_non_null(find(&v, "prio-pfc 4"));
	assert_non_null(find(&v, "dscp-prio 34"));
	assert_null(find(&v, "dscp-prio 26")); /* another DSCP entry is not wrong */
}

static void test_dscp_ranges(void **state)
{
	struct dcb_app apps[80];
	char buf[512];
	size_t n = 0;

	(void)state;
	memset(apps, 0, sizeof(apps));
	assert_int_equal(rdc_dcb_dscp_ranges(apps, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* Newest first, as mlx5 lists them; an ethertype entry is left out. */
	for (int d = 63; d >= 0; d--)
		apps[n++] = (struct dcb_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
					     .priority = (uint8_t)(d >> 3),
					     .protocol = (uint16_t)d};
	apps[n++] = (struct dcb_app){
		.selector = IEEE_8021QAZ_APP_SEL_ETHERTYPE, .priority = 3, .protocol = 0x8915};
	rdc_dcb_dscp_ranges(apps, n, buf, sizeof(buf));
	assert_string_equal(buf, "0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7");
	/* 26 moved to 3 alone in its range; 48 and 26 single. */
	apps[63 - 25].priority = 0;
	rdc_dcb_dscp_ranges(apps, n, buf, sizeof(buf));
	assert_string_equal(
		buf, "0-7:0 8-15:1 16-23:2 24:3 25:0 26-31:3 32-39:4 40-47:5 48-55:6 56-63:7");
	n = 0;
	apps[n++] = (struct dcb_app){
		.selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 6, .protocol = 48};
	apps[n++] = (struct dcb_app){
		.selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26};
	apps[n++] = (struct dcb_app){
		.selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 27};
	assert_int_equal(rdc_dcb_dscp_ranges(apps, n, buf, sizeof(buf)), strlen("26-27:3 48:6"));
	assert_string_equal(buf, "26-27:3 48:6");
	/* Truncated like snprintf, with the length it needed. */
	assert_int_equal(rdc_dcb_dscp_ranges(apps, n, buf, 5), strlen("26-27:3 48:6"));
	assert_string_equal(buf, "26-2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configured_host_matches),
		cmocka_unit_test(test_fresh_host_differs_in_each_setting),
		cmocka_unit_test(test_misconfigured_host),
		cmocka_unit_test(test_rdma_cm_per_port),
		cmocka_unit_test(test_no_dcb_is_unknown),
		cmocka_unit_test(test_other_priorities),
		cmocka_unit_test(test_dscp_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
