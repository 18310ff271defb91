// SPDX-License-Identifier: GPL-2.0-or-later
/* test_config.c - YAML device files: shapes accepted, errors with their line */
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

#include "base/config.h"

static int load(const char *text, struct rdc_cfg *cfg, struct rdc_err *err)
{
	char path[] = "/tmp/rdmactl-test-cfg-XXXXXX";
	int rc;

	temp_file_with(path, text);
	rc = rdc_cfg_load(path, cfg, err);
	unlink(path);
	return rc;
}

static void test_devices(void **state)
{
	static struct rdc_cfg cfg;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(load("devices:\n"
			      "  - dev: ens1f0np0\n"
			      "    profile: roce-lossless\n"
			      "    prio: 3\n"
			      "  - dev: eth9\n"
			      "    prio-pfc: all:off 3:on\n"
			      "    dscp-prio: [26:3, '48:6']\n",
			      &cfg, &err),
			 0);
	assert_int_equal(cfg.ndevices, 2);
	assert_int_equal(cfg.devices[0].line, 2);
	assert_string_equal(cfg.devices[0].keys[1].key, "profile");
	assert_string_equal(cfg.devices[0].keys[2].words[0], "3");
	assert_int_equal(cfg.devices[1].keys[1].nwords, 2);
	assert_string_equal(cfg.devices[1].keys[1].words[1], "3:on");
	assert_int_equal(cfg.devices[1].keys[2].line, 7);
	assert_string_equal(cfg.devices[1].keys[2].words[1], "48:6");
	rdc_cfg_free(&cfg);
}

static void test_errors_name_the_line(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{"devices:\n  - dev: a\n    prio: {x: 1}\n", "line 3: a value must be a scalar"},
		{"devices:\n  - dev: a\n    prio: [[1]]\n", "line 3: list items must be scalars"},
		{"hosts:\n  - dev: a\n", "line 1: unknown top-level key"},
		{"devices: eth0\n", "line 1: 'devices' must be a list"},
		{"devices:\n  - eth0\n", "line 2: each device must be a mapping"},
		{"- dev: a\n", "line 1: expected a mapping"},
		{"devices:\n  - &d {dev: a}\n  - *d\n", "line 3: aliases are not allowed"},
		{"devices: [\n", "line 2"},
		{"devices: []\n", "no devices"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct rdc_cfg cfg;
		struct rdc_err err = {0};

		assert_int_equal(load(cases[i].text, &cfg, &err), -EINVAL);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
		rdc_cfg_free(&cfg);
	}
}

/* A key that is no setting is quoted whole, however long (the message was cut at 200 bytes). */
static void test_error_quotes_whole(void **state)
{
	static struct rdc_cfg cfg;
	struct rdc_err err = {0};
	char key[301], text[1024], want[512];

	(void)state;
	memset(key, 'K', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(text, sizeof(text), "devices:\n  - dev: a\n    %s: 1\n", key);
	assert_int_equal(load(text, &cfg, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "line 3: '%s' is not a setting (keys are keywords such as 'prio-pfc'; options "
		 "such as --dry-run go on the command line)",
		 key);
	if (!strstr(err.msg, want))
		fail_msg("'%s' lacks '%s'", err.msg, want);
	rdc_cfg_free(&cfg);
}

static void test_missing_file(void **state)
{
	static struct rdc_cfg cfg;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_cfg_load("/nonexistent.yaml", &cfg, &err), -ENOENT);
	rdc_cfg_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_errors_name_the_line),
		cmocka_unit_test(test_error_quotes_whole),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
