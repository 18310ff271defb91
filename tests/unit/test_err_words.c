// SPDX-License-Identifier: GPL-2.0-or-later
/* test_err_words.c - an error record's text: room for extack and hints, never cut mid-word */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"

/* Whether @s ends mid-word: its end is neither whole nor the " ..." mark after a word. */
static int ends_whole_or_marked(const char *s, const char *whole)
{
	size_t n = strlen(s);

	if (!strcmp(s, whole))
		return 1;
	return n >= 4 && !strcmp(s + n - 4, " ...") && s[n - 5] != ' ' &&
	       (whole[n - 4] == ' ' || whole[n - 4] == ',' || whole[n - 4] == ':');
}

static void test_prefix_and_append(void **state)
{
	static struct rdc_err err;
	static char whole[RDC_ERR_MSG_LEN + 2048];

	(void)state;
	rdc_err_set(&err, EINVAL, "cannot set 'prio-pfc' on 'ens1f0np0'");
	rdc_err_prefix(&err, "bond0");
	assert_string_equal(err.msg, "bond0: cannot set 'prio-pfc' on 'ens1f0np0'");
	/* The kernel's extack and three hints fit whole. */
	rdc_err_detail(&err, "Invalid PFC configuration: priority 3 is not mapped to a TC that "
			     "is lossless");
	rdc_err_append(&err, "see 'rdmactl pfc show ens1f0np0' for the current mapping");
	rdc_err_append(&err, "the firmware may refuse PFC on more than two priorities");
	rdc_err_append(&err, "'mlnx_qos -i ens1f0np0' shows what the firmware accepted");
	assert_non_null(strstr(err.detail, "; 'mlnx_qos -i ens1f0np0' shows what the firmware "
					   "accepted"));
	assert_null(strstr(err.detail, " ..."));

	/* Past the room (the last resort): cut at a word, marked, never mid-word. */
	for (int i = 0; strlen(whole) < RDC_ERR_MSG_LEN + 1000; i++)
		snprintf(whole + strlen(whole), sizeof(whole) - strlen(whole), "%sword%d",
			 i ? " " : "", i);
	rdc_err_set(&err, EIO, "%s", whole);
	assert_true(ends_whole_or_marked(err.msg, whole));
	assert_true(strlen(err.msg) < strlen(whole));
	rdc_err_detail(&err, "%s", whole);
	assert_true(ends_whole_or_marked(err.detail, whole));
	assert_true(strlen(err.detail) < strlen(whole));
}

/* A path of @len bytes ("/d/d/d/.../f"), as long as the kernel takes one with PATH_MAX - 1. */
static char *long_path(size_t len)
{
	char *p = malloc(len + 1);

	assert_non_null(p);
	for (size_t i = 0; i < len; i++)
		p[i] = i % 2 ? 'd' : '/';
	p[len - 1] = 'f';
	p[len] = '\0';
	return p;
}

/*
 * The design's promise (err.h): a message of ours with one PATH_MAX path,
 * said again with a prefix, with a full detail, is whole in the record and
 * in what cmd/ prints; the word cut is never reached.
 */
static void test_path_max_whole(void **state)
{
	static struct rdc_err err, copy;
	char *path = long_path(PATH_MAX - 1), *want, *detail = malloc(RDC_ERR_DETAIL_LEN);
	char *text = malloc(RDC_ERR_TEXT_LEN);

	(void)state;
	assert_non_null(detail);
	assert_non_null(text);
	/* The longest format of fs.c's with a path, and a port label and a bond's name before it. */
	rdc_err_set(&err, EACCES, "cannot write '%s': writes are refused under --root", path);
	assert_int_not_equal(
		asprintf(&want, "cannot write '%s': writes are refused under --root", path), -1);
	assert_string_equal(err.msg, want);
	free(want);
	rdc_err_prefix(&err, "mlx5_bond_0/1 bond0");
	rdc_err_prefix(&err, "bond0");
	assert_int_not_equal(asprintf(&want,
				      "bond0: mlx5_bond_0/1 bond0: cannot write '%s': writes are "
				      "refused under --root",
				      path),
			     -1);
	assert_string_equal(err.msg, want);
	assert_null(strstr(err.msg, " ..."));
	free(want);
	rdc_err_restate(&err, ENOENT, "cannot read '%s/sys/class/infiniband/mlx5_0/ports/1/state'",
			path + 200);
	assert_string_equal(err.msg + strlen(err.msg) - 21, "mlx5_0/ports/1/state'");
	assert_int_equal(strncmp(err.msg, "cannot read '/d/d", 17), 0);
	/* The detail full to its last byte, and the record copied (as into an issues list). */
	memset(detail, 'x', RDC_ERR_DETAIL_LEN - 1);
	detail[RDC_ERR_DETAIL_LEN - 1] = '\0';
	rdc_err_set(&err, EIO, "cannot read '%s'", path);
	rdc_err_detail(&err, "%s", detail);
	copy = err;
	rdc_err_describe(&copy, text, RDC_ERR_TEXT_LEN);
	assert_int_not_equal(
		asprintf(&want, "cannot read '%s': %s (%s)", path, strerror(EIO), detail), -1);
	assert_string_equal(text, want);
	free(want);
	free(text);
	free(detail);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_and_append),
		cmocka_unit_test(test_path_max_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
