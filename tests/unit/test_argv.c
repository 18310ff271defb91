// SPDX-License-Identifier: GPL-2.0-or-later
/* test_argv.c - commands as words and as shell lines (base/argv.h); a profile's command */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/argv.h"
#include "dcb/profile.h"

static void test_join(void **state)
{
	static const struct {
		const char *words[4];
		const char *line;
	} cases[] = {
		{{"rdmactl", "pfc", "show", NULL}, "rdmactl pfc show"},
		{{"ip", "addr", "add", "10.0.0.1/24"}, "ip addr add 10.0.0.1/24"},
		{{"echo", "a b", "", NULL}, "echo 'a b' ''"},
		{{"echo", "it's", "$HOME", NULL}, "echo 'it'\\''s' '$HOME'"},
		{{"x", "a;rm -rf /", "`id`", NULL}, "x 'a;rm -rf /' '`id`'"},
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rdc_argv a = {0};

		for (size_t w = 0; w < 4 && cases[i].words[w]; w++)
			rdc_argv_add(&a, cases[i].words[w]);
		assert_int_equal(rdc_argv_join(&a, buf, sizeof(buf)), strlen(cases[i].line));
		assert_string_equal(buf, cases[i].line);
	}
}

static void test_cut(void **state)
{
	struct rdc_argv a = {0};
	char buf[8], long_word[RDC_ARGV_WORD + 1];

	(void)state;
	rdc_argv_add(&a, "rdmactl");
	rdc_argv_add(&a, "port");
	/* A buffer too small holds nothing, and the length says what it needed. */
	assert_int_equal(rdc_argv_join(&a, buf, sizeof(buf)), 12);
	assert_string_equal(buf, "");
	/* A word too long cuts the command: printed not at all, never in part. */
	memset(long_word, 'x', RDC_ARGV_WORD);
	long_word[RDC_ARGV_WORD] = '\0';
	rdc_argv_add(&a, long_word);
	assert_false(rdc_argv_ok(&a));
	assert_int_equal(rdc_argv_join(&a, buf, sizeof(buf)), 0);
}

static void test_profile_argv(void **state)
{
	struct rdc_dcb_profile p;
	struct rdc_argv a;
	char buf[256];

	(void)state;
	assert_int_equal(rdc_dcb_profile_init(&p, "roce-lossless"), 0);
	rdc_dcb_profile_argv(&p, "bond0", &a);
	rdc_argv_join(&a, buf, sizeof(buf));
	assert_string_equal(buf, "rdmactl pfc apply dev bond0 profile roce-lossless");
	p.prio = 4;
	p.cnp_dscp = 46;
	rdc_dcb_profile_argv(&p, "ens1f0np0", &a);
	rdc_argv_join(&a, buf, sizeof(buf));
	assert_string_equal(
		buf, "rdmactl pfc apply dev ens1f0np0 profile roce-lossless prio 4 cnp-dscp 46");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_profile_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
