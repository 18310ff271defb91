// SPDX-License-Identifier: GPL-2.0-or-later
/* test_log.c - messages on stderr never carry raw control characters or invalid UTF-8 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "stderr_capture.h"

#include "base/err.h"
#include "base/log.h"

static void call(const void *fn)
{
	(*(void (*const *)(void))fn)();
}

/* Run @fn with stderr sent to a temporary file; its text in @buf. */
static void capture(void (*fn)(void), char *buf, size_t size)
{
	stderr_capture(call, &fn, buf, size);
}

/* What a bench peer could send as its ERROR text. */
static void record_hostile(void)
{
	struct rdc_err err = {0};

	rdc_err_set(&err, ECONNABORTED, "server: busy\033]0;pwned\007 \xff\xc2\x9b end");
	rdc_err_detail(&err, "with \033[2J");
	rdc_log_error_record("bench", &err);
}

static void log_hostile(void)
{
	rdc_log(RDC_LOG_WARN, "peer said '%s'", "a\033[31mb\xfe");
}

static void test_error_record_escaped(void **state)
{
	char buf[1024];

	(void)state;
	capture(record_hostile, buf, sizeof(buf));
	assert_null(strchr(buf, '\033'));
	assert_null(strchr(buf, '\007'));
	assert_null(strstr(buf, "\xff"));
	assert_null(strstr(buf, "\xc2\x9b"));
	assert_non_null(strstr(buf, "bench: server: busy\\x1b]0;pwned\\x07 \\xff\\xc2\\x9b end"));
	assert_non_null(strstr(buf, "(with \\x1b[2J)\n"));
}

static void test_log_escaped(void **state)
{
	char buf[1024];

	(void)state;
	capture(log_hostile, buf, sizeof(buf));
	assert_null(strchr(buf, '\033'));
	assert_non_null(strstr(buf, "warning: peer said 'a\\x1b[31mb\\xfe'\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_record_escaped),
		cmocka_unit_test(test_log_escaped),
	};

	rdc_log_init("rdmactl", RDC_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
