// SPDX-License-Identifier: GPL-2.0-or-later
/* test_evidence.c - typed evidence (lib/base/finding): the value typed, the text made from it */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/finding.h"

static struct rdc_finding *one(struct rdc_findings *l)
{
	rdc_findings_init(l);
	return rdc_findings_add(l, "x.y", RDC_SEV_WARN, "t");
}

static void test_numbers_typed(void **state)
{
	static struct rdc_findings l;
	struct rdc_finding *f = one(&l);
	const struct rdc_evidence *e;

	(void)state;
	e = rdc_ev_int(f, "n_ms", "src", -5);
	assert_int_equal(e->type, RDC_EV_INT);
	assert_int_equal(e->num.i, -5);
	assert_string_equal(e->value, "-5");
	e = rdc_ev_real(f, "failover_s", "src", 3.0);
	assert_int_equal(e->type, RDC_EV_REAL);
	assert_string_equal(e->value, "3");
	e = rdc_ev_bool(f, "carrier", "src", false);
	assert_int_equal(e->type, RDC_EV_BOOL);
	assert_false(e->num.b);
	assert_string_equal(e->value, "false");
	assert_false(e->counter);
	assert_false(e->windowed);
}

static void test_counters(void **state)
{
	static struct rdc_findings l;
	struct rdc_finding *f = one(&l);
	const struct rdc_evidence *e;

	(void)state;
	e = rdc_ev_window(f, "link_downed", "src", 1, 5.0, 74);
	assert_int_equal(e->type, RDC_EV_UINT);
	assert_int_equal(e->num.u, 74);
	assert_true(e->windowed);
	assert_int_equal(e->delta, 1);
	assert_string_equal(e->value, "+1 in 5.0 s (now 74)");
	e = rdc_ev_counter(f, "out_of_sequence", "src", 7);
	assert_true(e->counter);
	assert_false(e->windowed);
	assert_string_equal(e->value, "7 (since the counter's reset)");
	e = rdc_ev_delta(f, "rx_prio3_pause_duration", "src", 500, 10.0);
	assert_int_equal(e->type, RDC_EV_NONE);
	assert_string_equal(e->value, "+500 in 10.0 s");
}

/* A detail is said once, the latest replacing an earlier one; text keeps its words apart. */
static void test_detail(void **state)
{
	static struct rdc_findings l;
	struct rdc_finding *f = one(&l);
	struct rdc_evidence *e;

	(void)state;
	e = rdc_ev_uint(f, "pfc_en", "src", 8);
	rdc_ev_detail(e, "priorities %d", 3);
	assert_string_equal(e->value, "8 (priorities 3)");
	rdc_ev_detail(e, "priorities %d", 4);
	assert_string_equal(e->value, "8 (priorities 4)");
	e = rdc_ev_text(f, "trust", "src", "%s", "pcp");
	rdc_ev_detail(e, "ens1f0np0");
	rdc_ev_detail(e, "ens1f1np1");
	assert_string_equal(e->value, "pcp (ens1f1np1)");
	assert_int_equal(e->words_len, strlen("pcp"));
	e = rdc_ev_unknown(f, "operstate", "src", "not read");
	assert_int_equal(e->type, RDC_EV_NONE);
	assert_string_equal(e->value, "not read");
	rdc_ev_detail(NULL, "no evidence: nothing happens");
}

/* Past RDC_FINDING_MAX_EVIDENCE, or without a finding, nothing is added and NULL said. */
static void test_full(void **state)
{
	static struct rdc_findings l;
	struct rdc_finding *f = one(&l);

	(void)state;
	for (int i = 0; i < RDC_FINDING_MAX_EVIDENCE; i++)
		assert_non_null(rdc_ev_uint(f, "n", "s", (uint64_t)i));
	assert_null(rdc_ev_uint(f, "n", "s", 99));
	assert_null(rdc_ev_text(f, "n", "s", "x"));
	assert_int_equal(f->nevidence, RDC_FINDING_MAX_EVIDENCE);
	assert_null(rdc_ev_window(NULL, "n", "s", 1, 1.0, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_typed),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_detail),
		cmocka_unit_test(test_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
