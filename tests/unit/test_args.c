// SPDX-License-Identifier: GPL-2.0-or-later
/* test_args.c - the keyword walk: a table of argument lists and the exit code each gets */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "cmd.h"
#include "port.h"

static const struct rdc_action *action(const char *name)
{
	for (const struct rdc_action *a = port_actions; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	fail_msg("no action %s", name);
	return NULL;
}

static void test_keyword_table(void **state)
{
	static const struct {
		int rc;
		const char *action;
		const char *args;
	} cases[] = {
		{0, "show", ""},
		{0, "show", "mlx5_0"},
		{2, "show", "mlx5_0 mlx5_1"},
		{2, "show", "--bogus"},
		{0, "stats", "mlx5_0/1 interval 1 count 3"},
		{0, "stats", "interval 1 mlx5_0"},
		{2, "stats", "interval"},
		{2, "stats", "interval 1 interval 2"},
		{2, "stats", "intervall 1"},
		{0, "set", "eth0 mtu 9000 up"},
		{0, "set", "mtu 9000 eth0 --dry-run"},
		{2, "set", "mtu 9000"},
		{2, "set", "eth0 mtu"},
		{2, "set", "eth0 up up"},
		{2, "set", "eth0 up down"},
		{2, "set", "eth0 down mtu 1500 up"},
		{2, "set", "eth0 eth1 up"},
		{2, "set", "eth0 Up"},
		{0, "gids", "ens1f0np0"},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "port"};
		char copy[128], *argv[16], *tok, *save = NULL;
		struct rdc_args args;
		int argc = 0;

		snprintf(copy, sizeof(copy), "%s", cases[i].args);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			argv[argc++] = tok;
		if (rdc_args_parse(&ctx, action(cases[i].action), argc, argv, &args) != cases[i].rc)
			fail_msg("'%s %s' did not give %d", cases[i].action, cases[i].args,
				 cases[i].rc);
	}
}

static void test_values_land_by_index(void **state)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "port"};
	const struct rdc_action *set = action("set");
	char w0[] = "up", w1[] = "eth0", w2[] = "mtu", w3[] = "4200", w4[] = "--dry-run";
	char *argv[] = {w0, w1, w2, w3, w4};
	struct rdc_args args;

	(void)state;
	assert_int_equal(rdc_args_parse(&ctx, set, 5, argv, &args), 0);
	assert_string_equal(args.object, "eth0");
	assert_true(args.given[rdc_param_index(set, "up")]);
	assert_false(args.given[rdc_param_index(set, "down")]);
	assert_string_equal(args.value[rdc_param_index(set, "mtu")], "4200");
	assert_true(ctx.dry_run);
}

static void test_typed_values(void **state)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "port"};
	uint32_t u;
	double d;

	(void)state;
	assert_int_equal(rdc_arg_u32(&ctx, "mtu", "9000", 68, 65535, &u), 0);
	assert_int_equal(u, 9000);
	assert_int_equal(rdc_arg_u32(&ctx, "mtu", "65536", 68, 65535, &u), RDC_EXIT_USAGE);
	assert_int_equal(rdc_arg_u32(&ctx, "mtu", "nine", 68, 65535, &u), RDC_EXIT_USAGE);
	assert_int_equal(rdc_arg_seconds(&ctx, "interval", "0.25", &d), 0);
	assert_int_equal(rdc_arg_seconds(&ctx, "interval", "0", &d), RDC_EXIT_USAGE);
	assert_int_equal(rdc_arg_seconds(&ctx, "interval", "86401", &d), RDC_EXIT_USAGE);
}

static void test_closest(void **state)
{
	const char *names[] = {"show", "gids", "stats", "set"};

	(void)state;
	assert_string_equal(rdc_closest("shwo", names, 4), "show");
	assert_string_equal(rdc_closest("stat", names, 4), "stats");
	assert_string_equal(rdc_closest("gid", names, 4), "gids");
	assert_null(rdc_closest("frobnicate", names, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyword_table),
		cmocka_unit_test(test_values_land_by_index),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_closest),
	};

	return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
