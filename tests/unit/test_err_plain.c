// SPDX-License-Identifier: GPL-2.0-or-later
/* test_err_plain.c - a plain error record prints its message without the errno text */
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

static void print_record(const void *err)
{
	rdc_log_error_record("port", err);
}

/* The line rdc_log_error_record prints for @err, in @buf. */
static void printed(const struct rdc_err *err, char *buf, size_t size)
{
	stderr_capture(print_record, err, buf, size);
}

static void test_plain(void **state)
{
	struct rdc_err err = {0};
	char buf[512];

	(void)state;
	assert_int_equal(rdc_err_set_plain(&err, ENOENT, "RDMA device 'mlx5_0' has no port 2"),
			 -ENOENT);
	assert_int_equal(err.code, ENOENT);
	printed(&err, buf, sizeof(buf));
	assert_string_equal(buf, "rdmactl: port: RDMA device 'mlx5_0' has no port 2\n");
	/* A later rdc_err_set on the same record says its errno again. */
	rdc_err_set(&err, EACCES, "cannot open 'x'");
	printed(&err, buf, sizeof(buf));
	assert_string_equal(buf, "rdmactl: port: cannot open 'x': Permission denied\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
	};

	rdc_log_init("rdmactl", RDC_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
