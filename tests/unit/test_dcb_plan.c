// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dcb_plan.c - planning DCB changes: differences, validation, the APP table */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dcb/plan.h"

/* An mlx5-like port fresh from boot: PFC off, one ETS TC with everything, no APP entries. */
static void fresh(struct rdc_dcb *d)
{
	memset(d, 0, sizeof(*d));
	d->have_pfc = d->have_ets = d->have_maxrate = d->have_buffer = d->have_dcbx = true;
	d->pfc.pfc_cap = 8;
	d->ets.ets_cap = 8;
	for (int t = 0; t < 8; t++)
		d->ets.tc_tsa[t] = IEEE_8021QAZ_TSA_ETS;
	d->ets.tc_tx_bw[0] = 100;
	d->buffer.total_size = 1024 * 1024;
	d->buffer.buffer_size[0] = 256 * 1024;
}

static void test_nothing_asked_nothing_planned(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	rdc_dcb_want_init(&w);
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(rdc_dcb_plan_empty(&p));
	/* Asking for what is already so is no change either. */
	w.pfc_given[3] = true;
	w.pfc_on[3] = false;
	w.bw_given[0] = true;
	w.bw[0] = 100;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(rdc_dcb_plan_empty(&p));
}

static void test_pfc_bits_and_cap(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	d.pfc.pfc_en = 0x41;
	rdc_dcb_want_init(&w);
	for (int i = 0; i < 8; i++) {
		w.pfc_given[i] = true;
		w.pfc_on[i] = i == 3;
	}
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(p.pfc);
	assert_int_equal(p.after.pfc.pfc_en, 0x08);
	d.pfc.pfc_cap = 1;
	w.pfc_on[4] = true;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), -EINVAL);
}

static void test_ets_validation(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_err err = {0};
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	rdc_dcb_want_init(&w);
	/* tc-tsa all:strict 0:ets 3:ets tc-bw all:0 0:50 3:50 */
	for (int t = 0; t < 8; t++) {
		w.tsa_given[t] = w.bw_given[t] = true;
		w.tsa[t] = (t == 0 || t == 3) ? IEEE_8021QAZ_TSA_ETS : IEEE_8021QAZ_TSA_STRICT;
		w.bw[t] = (t == 0 || t == 3) ? 50 : 0;
	}
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(p.ets);
	w.bw[3] = 40;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "sum to 90%, not 100%"));
	/* No ETS TC at all: nothing may be assigned. */
	for (int t = 0; t < 8; t++)
		w.tsa[t] = IEEE_8021QAZ_TSA_STRICT;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), -EINVAL);
	for (int t = 0; t < 8; t++)
		w.bw[t] = 0;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	/* A priority mapped beyond the NIC's TCs. */
	rdc_dcb_want_init(&w);
	d.ets.ets_cap = 4;
	w.prio_tc_given[5] = true;
	w.prio_tc[5] = 4;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), -EINVAL);
}

static void test_buffer_total(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	rdc_dcb_want_init(&w);
	w.buffer_size_given[1] = true;
	w.buffer_size[1] = 512 * 1024;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(p.buffer);
	w.buffer_size[1] = 1024 * 1024;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), -EINVAL);
}

static void test_missing_attribute(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	d.have_buffer = false;
	rdc_dcb_want_init(&w);
	w.prio_buffer_given[3] = true;
	w.prio_buffer[3] = 1;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), -EOPNOTSUPP);
}

static void test_apps_replace_and_trust(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	d.apps[d.napps++] = (struct dcb_app){IEEE_8021QAZ_APP_SEL_DSCP, 0, 26};
	d.apps[d.napps++] = (struct dcb_app){IEEE_8021QAZ_APP_SEL_DSCP, 6, 48};
	rdc_dcb_want_init(&w);
	w.dscp_prio[26] = 3;
	w.dscp_prio[48] = 6;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	/* 26 moves from 0 to 3: add the new entry, delete the old; 48 is already right. */
	assert_int_equal(p.nadd, 1);
	assert_int_equal(p.add[0].protocol, 26);
	assert_int_equal(p.add[0].priority, 3);
	assert_int_equal(p.ndel, 1);
	assert_int_equal(p.del[0].priority, 0);
	assert_int_equal(rdc_dcb_dscp_prio(&p.after, 26), 3);
	assert_int_equal(rdc_dcb_dscp_prio(&p.after, 48), 6);
	/* trust pcp removes every DSCP entry. */
	rdc_dcb_want_init(&w);
	w.trust = 0;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_int_equal(p.ndel, 2);
	assert_int_equal(rdc_dcb_dscp_count(&p.after), 0);
}

static void test_trust_dscp_default_map(void **state)
{
	struct rdc_dcb_want w;
	struct rdc_dcb_plan p;
	struct rdc_dcb d;

	(void)state;
	fresh(&d);
	rdc_dcb_want_init(&w);
	w.trust = 1;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_int_equal(p.nadd, 64);
	assert_int_equal(rdc_dcb_dscp_prio(&p.after, 26), 3);
	assert_int_equal(rdc_dcb_dscp_prio(&p.after, 63), 7);
	/* With explicit entries, only those are added. */
	w.dscp_prio[26] = 3;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_int_equal(p.nadd, 1);
	/* Already trusting DSCP: nothing to add. */
	d.apps[d.napps++] = (struct dcb_app){IEEE_8021QAZ_APP_SEL_DSCP, 3, 26};
	rdc_dcb_want_init(&w);
	w.trust = 1;
	assert_int_equal(rdc_dcb_plan_make(&d, &w, &p, NULL), 0);
	assert_true(rdc_dcb_plan_empty(&p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_asked_nothing_planned),
		cmocka_unit_test(test_pfc_bits_and_cap),
		cmocka_unit_test(test_ets_validation),
		cmocka_unit_test(test_buffer_total),
		cmocka_unit_test(test_missing_attribute),
		cmocka_unit_test(test_apps_replace_and_trust),
		cmocka_unit_test(test_trust_dscp_default_map),
	};

	return cmocka_run_group_tests_name("dcb_plan", tests, NULL, NULL);
}
