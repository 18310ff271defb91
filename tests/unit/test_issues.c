// SPDX-License-Identifier: GPL-2.0-or-later
/* test_issues.c - issues lists: on the heap only when a record is kept, every message whole */
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
#include <unistd.h>

#include <cmocka.h>

#include "base/issues.h"
#include "base/log.h"
#include "host/ibdev.h"

/* A path of @n bytes: "/sys/" and then "a/" components. */
static char *long_path(size_t n)
{
	char *p = malloc(n + 1);

	assert_non_null(p);
	memcpy(p, "/sys/", 5);
	for (size_t i = 5; i < n; i++)
		p[i] = i % 2 ? 'a' : '/';
	p[n] = '\0';
	return p;
}

/*
 * An empty list costs its counts and a pointer: the 800-device `port` went
 * from 19 to 84 MB when each list held six error records by value.
 */
static void test_empty_is_small(void **state)
{
	struct rdc_issues is = {0};

	(void)state;
	assert_true(sizeof(struct rdc_issues) <= 2 * sizeof(void *));
	/* A port holds three lists (its own, its PCI function's, its netdev's). */
	assert_true(sizeof(struct rdc_port) < 2048);
	assert_false(rdc_issues_any(&is));
	rdc_issues_free(&is);
	assert_null(is.items);
}

/* A message past the error record's room (a PATH_MAX path and more) is kept whole. */
static void test_addf_whole(void **state)
{
	size_t n = RDC_ERR_MSG_LEN + 1000;
	char *path = long_path(n), *want = NULL;
	struct rdc_issues is = {0};

	(void)state;
	rdc_issues_addf(&is, EINVAL, "'%s' holds '%s', not %s", path, "x y", "a number");
	assert_int_equal(is.count, 1);
	assert_true(asprintf(&want, "'%s' holds 'x y', not a number", path) > 0);
	assert_string_equal(is.items[0].msg, want);
	assert_string_equal(is.items[0].detail, "");
	assert_int_equal(is.items[0].code, EINVAL);
	free(want);
	free(path);
	rdc_issues_free(&is);
	assert_int_equal(is.count, 0);
}

/* Six kept, the rest counted; a copy owns its own records; merge says a message once. */
static void test_keep_copy_merge(void **state)
{
	struct rdc_issues is = {0}, copy, more = {0};
	struct rdc_err e = {.code = EIO, .plain = 1};

	(void)state;
	snprintf(e.msg, sizeof(e.msg), "cannot read 'ports/1/rate'");
	snprintf(e.detail, sizeof(e.detail), "a hint");
	rdc_issues_add(&is, &e);
	for (int i = 0; i < RDC_ISSUES_MAX + 2; i++)
		rdc_issues_addf(&is, EINVAL, "file %d", i);
	assert_int_equal(is.count, RDC_ISSUES_MAX);
	assert_int_equal(is.lost, 3);
	assert_string_equal(is.items[0].msg, "cannot read 'ports/1/rate'");
	assert_string_equal(is.items[0].detail, "a hint");
	assert_true(is.items[0].plain);

	rdc_issues_copy(&copy, &is);
	assert_int_equal(copy.count, is.count);
	assert_int_equal(copy.lost, is.lost);
	assert_ptr_not_equal(copy.items, is.items);
	assert_ptr_not_equal(copy.items[1].msg, is.items[1].msg);
	rdc_issues_free(&is);
	assert_string_equal(copy.items[1].msg, "file 0"); /* still there: its own */

	/* Merging into a full list: the known message dropped, the new one counted lost. */
	rdc_issues_addf(&more, EINVAL, "file 0");
	rdc_issues_addf(&more, EINVAL, "file 99");
	rdc_issues_merge(&copy, &more);
	assert_int_equal(more.count, 0);
	assert_null(more.items);
	assert_int_equal(copy.count, RDC_ISSUES_MAX);
	assert_int_equal(copy.lost, 4);

	rdc_issues_keep_matching(&copy, "file 1");
	assert_int_equal(copy.count, 1);
	assert_string_equal(copy.items[0].msg, "file 1");
	assert_int_equal(copy.lost, 0);
	rdc_issues_free(&copy);
}

/* What cmd/ prints of a record: the whole message, however long, escaped. */
static void test_log_whole(void **state)
{
	size_t n = RDC_ERR_MSG_LEN + 1000;
	char *path = long_path(n), *msg = NULL, line[2 * RDC_ERR_TEXT_LEN];
	char tmp[] = "/tmp/rdmactl-test-issues-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(2);
	FILE *f;

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	assert_true(asprintf(&msg, "cannot read '%s\n'", path) > 0);
	rdc_log_init("rdmactl", RDC_LOG_WARN);
	fflush(stderr);
	dup2(fd, 2);
	rdc_log_error_parts("port", msg, EIO, false, "");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fdopen(fd, "r");
	assert_non_null(f);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	unlink(tmp);
	free(msg);
	assert_true(asprintf(&msg, "rdmactl: port: cannot read '%s\\x0a': %s\n", path,
			     strerror(EIO)) > 0);
	assert_string_equal(line, msg);
	free(msg);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_small),
		cmocka_unit_test(test_addf_whole),
		cmocka_unit_test(test_keep_copy_merge),
		cmocka_unit_test(test_log_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
