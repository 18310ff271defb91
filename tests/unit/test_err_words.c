// SPDX-License-Identifier: GPL-2.0-or-later
/* test_err_words.c - an error record's text: room for extack and hints, never cut mid-word */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
	struct rdc_err err = {0};
	char whole[2048] = "";

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

	/* Past the room: cut at a word, marked, never mid-word. */
	for (int i = 0; strlen(whole) < 1500; i++)
		snprintf(whole + strlen(whole), sizeof(whole) - strlen(whole), "%sword%d",
			 i ? " " : "", i);
	rdc_err_set(&err, EIO, "%s", whole);
	assert_true(ends_whole_or_marked(err.msg, whole));
	rdc_err_detail(&err, "%s", whole);
	assert_true(ends_whole_or_marked(err.detail, whole));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_and_append),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
