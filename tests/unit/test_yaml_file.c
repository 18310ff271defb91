// SPDX-License-Identifier: GPL-2.0-or-later
/* test_yaml_file.c - a user's YAML file: regular files only, bounded, no alias, one document */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/config.h"
#include "base/yaml_file.h"
#include "bond/netplan.h"
#include "diag/diag.h"

static char dir[] = "/tmp/rdmactl-test-yamlfile-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *file_with(const char *name, const char *text)
{
	static char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

/* A FIFO with no writer would block open() and read() forever: refused at once. */
static void test_fifo_refused(void **state)
{
	char path[256];
	struct rdc_err err = {0};
	unsigned char *buf = NULL;
	size_t len = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rdc_yaml_file_read(path, 1024, &buf, &len, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is not a regular file"));
	assert_null(buf);
}

static void test_directory_refused(void **state)
{
	struct rdc_err err = {0};
	unsigned char *buf = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(rdc_yaml_file_read(dir, 1024, &buf, &len, &err), -EISDIR);
	assert_null(buf);
}

/* At the limit loads; one byte over is EFBIG, so a huge file costs no memory. */
static void test_size_limit(void **state)
{
	char text[65];
	struct rdc_err err = {0};
	unsigned char *buf = NULL;
	const char *path;
	size_t len = 0;

	(void)state;
	memset(text, '#', 64);
	text[64] = '\0';
	path = file_with("big", text);
	assert_int_equal(rdc_yaml_file_read(path, 64, &buf, &len, &err), 0);
	assert_int_equal(len, 64);
	free(buf);
	buf = NULL;
	assert_int_equal(rdc_yaml_file_read(path, 63, &buf, &len, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "is over 63 bytes"));
	assert_null(buf);
}

static int count_event(void *ctx, const yaml_event_t *ev)
{
	(void)ev;
	(*(int *)ctx)++;
	return 0;
}

static void test_events(void **state)
{
	static const struct {
		const char *text, *msg; /* NULL: fine */
	} cases[] = {
		{"a: 1\nb: [2, 3]\n", NULL},
		{"a: &x 1\nb: *x\n", "line 2: aliases are not allowed"},
		{"a: 1\n---\nb: 2\n", "line 2: only one document is allowed"},
		{"a: [1, 2\n", "line 2: "},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rdc_err err = {0};
		int n = 0, rc;

		rc = rdc_yaml_events("f", (const unsigned char *)cases[i].text,
				     strlen(cases[i].text), count_event, &n, &err);
		if (!cases[i].msg) {
			assert_int_equal(rc, 0);
			assert_true(n > 6);
		} else {
			assert_int_equal(rc, -EINVAL);
			if (!strstr(err.msg, cases[i].msg))
				fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
		}
	}
}

/* All three loaders go through the reader: a FIFO never blocks any of them. */
static void test_loaders_refuse_fifo(void **state)
{
	char path[256];
	struct rdc_diag_policy policy;
	struct rdc_cfg cfg;
	struct rdc_err err = {0};

	(void)state;
	snprintf(path, sizeof(path), "%s/fifo2", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rdc_cfg_load(path, &cfg, &err), -EINVAL);
	assert_int_equal(rdc_bond_netplan_load(path, &cfg, &err), -EINVAL);
	rdc_diag_policy_init(&policy);
	assert_int_equal(rdc_diag_policy_load(path, &policy, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is not a regular file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_directory_refused),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_loaders_refuse_fifo),
	};

	return cmocka_run_group_tests_name("yaml_file", tests, setup, teardown);
}
