// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_policy.c - diag's policy file, the check table and running it by name */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "temp_file.h"

#include "diag/diag.h"

static int load(const char *text, struct rdc_diag_policy *p, struct rdc_err *err)
{
	char path[] = "/tmp/rdmactl-test-policy-XXXXXX";
	int rc;

	temp_file_with(path, text);
	rc = rdc_diag_policy_load(path, p, err);
	unlink(path);
	return rc;
}

static void test_defaults_and_override(void **state)
{
	struct rdc_diag_policy p;
	struct rdc_err err = {0};

	(void)state;
	rdc_diag_policy_init(&p);
	assert_int_equal(p.roce_prio, 3);
	assert_int_equal(p.cm_tos, 106);
	assert_int_equal(load("# ours\nroce-prio: 4\ntx-pause-pct-warn: 5.5\n"
			      "link-share-min-bytes: 1000\n",
			      &p, &err),
			 0);
	assert_int_equal(p.roce_prio, 4);
	assert_true(p.tx_pause_pct_warn == 5.5);
	assert_int_equal(p.link_share_min_bytes, 1000);
	assert_int_equal(p.roce_dscp, 26);	 /* untouched */
	assert_int_equal(load("", &p, &err), 0); /* empty: every default kept */
}

static void test_errors_name_the_line(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"roce-prio: 3\nroce-prio: 4\n", "line 2: 'roce-prio' given twice"},
		{"roce-prio: 3\nroce-prioo: 4\n", "line 2: 'roce-prioo' is no policy key"},
		{"roce-prio: 8\n", "line 1: 'roce-prio: 8': want a whole number from 0 to 7"},
		{"roce-prio: 3.5\n", "whole number"},
		{"roce-prio: 0x3\n", "whole number"},
		{"tx-pause-pct-warn: nan\n", "want a number"},
		{"- roce-prio: 3\n", "line 1: a policy is one mapping"},
		{"roce-prio: [3]\n", "line 1: a policy is one mapping"},
		{"roce-prio: &x 1\nroce-dscp: *x\n", "aliases are not allowed"},
		{"tx-pause-pct-warn: 60\n",
		 "tx-pause-pct-fail (50) is below tx-pause-pct-warn (60)"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rdc_diag_policy p;
		struct rdc_err err = {0};

		rdc_diag_policy_init(&p);
		assert_int_equal(load(cases[i].text, &p, &err), -EINVAL);
		if (!strstr(err.msg, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].want);
		assert_int_equal(p.roce_prio, 3); /* all or nothing */
		assert_true(p.tx_pause_pct_warn == 10);
	}
}

static void test_table_ids_unique_and_findable(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < rdc_diag_nfamilies; i++) {
		const struct rdc_diag_family *fam = rdc_diag_families[i];

		assert_ptr_equal(rdc_diag_family_find(fam->name), fam);
		assert_true(fam->count > 0);
		for (size_t k = 0; k < fam->count; k++) {
			const struct rdc_diag_check *c = &fam->checks[k];

			assert_ptr_equal(rdc_diag_check_find(c->id), c);
			/* ids are "family.name" */
			assert_int_equal(strncmp(c->id, fam->name, strlen(fam->name)), 0);
			assert_int_equal(c->id[strlen(fam->name)], '.');
			assert_non_null(c->run);
			assert_true(c->title && c->title[0] && c->reads && c->reads[0] &&
				    c->threshold && c->threshold[0]);
			n++;
		}
	}
	assert_true(n >= 32);
}

static void test_run_selects_by_name(void **state)
{
	static struct rdc_diag_result r;
	struct rdc_diag_host h = {0};
	struct rdc_err err = {0};
	const char *only[] = {"qos"};
	const char *bad[] = {"qos.nope"};
	size_t nqos = rdc_diag_family_find("qos")->count, all = 0;

	(void)state;
	rdc_diag_policy_init(&h.policy);
	for (size_t i = 0; i < rdc_diag_nfamilies; i++)
		all += rdc_diag_families[i]->count;
	rdc_findings_clear(&r.findings);
	assert_int_equal(rdc_diag_run(&h, NULL, 0, NULL, 0, &r, &err), 0);
	assert_int_equal(r.nran, all);
	rdc_findings_clear(&r.findings);
	assert_int_equal(rdc_diag_run(&h, only, 1, NULL, 0, &r, &err), 0);
	assert_int_equal(r.nran, nqos);
	rdc_findings_clear(&r.findings);
	assert_int_equal(rdc_diag_run(&h, NULL, 0, only, 1, &r, &err), 0);
	assert_int_equal(r.nran, all - nqos);
	rdc_findings_clear(&r.findings);
	assert_int_equal(rdc_diag_run(&h, bad, 1, NULL, 0, &r, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'qos.nope' is no check id or family"));
	/* No ports and nothing known of the host: nothing to find. */
	h.facts = (struct rdc_host_facts){.modules_present = -1,
					  .arp_ignore_all = -1,
					  .arp_announce_all = -1,
					  .rp_filter_all = -1};
	rdc_findings_clear(&r.findings);
	assert_int_equal(rdc_diag_run(&h, NULL, 0, NULL, 0, &r, &err), 0);
	for (size_t i = 0; i < r.findings.count; i++)
		print_message("unexpected: %s\n", r.findings.items[i].id);
	assert_int_equal(r.findings.count, 0);
	rdc_findings_clear(&r.findings);
}

static void test_counter_delta(void **state)
{
	struct rdc_diag_port p = {0};
	uint64_t v;

	(void)state;
	p.nsamples = 1;
	assert_int_equal(rdc_counters_add(&p.s[0].netdev, "driver", "rx_crc_errors_phy", 5), 0);
	assert_int_equal(rdc_diag_counter(&p, RDC_DIAG_NETDEV, "rx_crc_errors_phy", &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(rdc_diag_delta(&p, RDC_DIAG_NETDEV, "rx_crc_errors_phy", &v), -ENODATA);
	assert_int_equal(rdc_diag_delta(&p, RDC_DIAG_NETDEV, "nope", &v), -ENOENT);
	p.nsamples = 2;
	p.s[0].t_s = 1.0;
	p.s[1].t_s = 6.0;
	assert_int_equal(rdc_counters_add(&p.s[1].netdev, "driver", "rx_crc_errors_phy", 12), 0);
	assert_int_equal(rdc_diag_delta(&p, RDC_DIAG_NETDEV, "rx_crc_errors_phy", &v), 0);
	assert_int_equal(v, 7);
	assert_true(rdc_diag_window_s(&p) == 5.0);
	/* Reset between the samples: counted from zero. */
	p.s[1].netdev.items[0].value = 3;
	assert_int_equal(rdc_diag_delta(&p, RDC_DIAG_NETDEV, "rx_crc_errors_phy", &v), 0);
	assert_int_equal(v, 3);
	rdc_counters_free(&p.s[0].netdev);
	rdc_counters_free(&p.s[1].netdev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_override),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_table_ids_unique_and_findable),
		cmocka_unit_test(test_run_selects_by_name),
		cmocka_unit_test(test_counter_delta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
