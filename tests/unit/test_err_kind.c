// SPDX-License-Identifier: GPL-2.0-or-later
/* test_err_kind.c - an error record's kind (the error document's id) and its whole message */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"

static const char *id_of(const struct rdc_err *err)
{
	return rdc_err_kind_id(rdc_err_kind_of(err));
}

/* Unmarked records take their errno's class. */
static void test_errno_classes(void **state)
{
	static const struct {
		int code;
		const char *id;
	} cases[] = {
		{ENODEV, "not-found"},
		{ENOENT, "not-found"},
		{ENOTDIR, "not-found"},
		{EEXIST, "exists"},
		{EOPNOTSUPP, "not-supported"},
		{EPERM, "permission-denied"},
		{EACCES, "permission-denied"},
		{EBUSY, "busy"},
		{EROFS, "io-error"},
		{EINVAL, "invalid"},
		{ERANGE, "invalid"},
		{EBADMSG, "bad-data"},
		{ENODATA, "bad-data"},
		{EIO, "io-error"},
		{ENOSPC, "io-error"},
		{ETIMEDOUT, "timeout"},
		{ECONNREFUSED, "peer"},
		{EPROTO, "peer"},
		{ENOMEM, "no-memory"},
		{EXDEV, "failed"},
		{0, "failed"},
	};
	struct rdc_err err = {0};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rdc_err_set(&err, cases[i].code, "case %zu", i);
		assert_string_equal(id_of(&err), cases[i].id);
	}
}

/* The usage flag outranks the errno (EINVAL), a mark outranks both; a new record forgets the mark. */
static void test_usage_and_marks(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	rdc_err_set_usage(&err, "'x y' is not an interface name");
	assert_int_equal(err.code, EINVAL);
	assert_string_equal(id_of(&err), "usage");
	rdc_err_set(&err, EOPNOTSUPP, "cannot read DCB of 'veth1'");
	rdc_err_mark(&err, RDC_ERRK_NO_DCB, "veth1");
	assert_string_equal(id_of(&err), "no-dcb");
	assert_string_equal(err.object, "veth1");
	/* A restated or prefixed record is the same failure: it keeps its kind. */
	rdc_err_prefix(&err, "bond0");
	assert_string_equal(id_of(&err), "no-dcb");
	rdc_err_set(&err, EINVAL, "cannot read DCB of 'eth0'");
	assert_string_equal(id_of(&err), "invalid");
	assert_string_equal(err.object, "");
	rdc_err_mark(&err, RDC_ERRK_BUSY, NULL);
	assert_string_equal(err.object, "");
	assert_string_equal(id_of(&err), "busy");
	/* NULL records are allowed everywhere lib/ passes one through. */
	rdc_err_mark(NULL, RDC_ERRK_BUSY, "x");
	assert_string_equal(rdc_err_kind_id(RDC_ERRK_COUNT), "failed");
	assert_string_equal(rdc_err_kind_id((enum rdc_err_kind) - 1), "failed");
	assert_string_equal(rdc_err_kind_id(RDC_ERRK_AUTO), "failed");
}

/* The message as stderr has it, without the program and verb; cut, never overrun. */
static void test_describe(void **state)
{
	struct rdc_err err = {0};
	char buf[256], small[12];

	(void)state;
	rdc_err_set(&err, ENODEV, "no bond 'bond9'");
	rdc_err_describe(&err, buf, sizeof(buf));
	assert_string_equal(buf, "no bond 'bond9': No such device");
	rdc_err_detail(&err, "see 'rdmactl bond show'");
	rdc_err_describe(&err, buf, sizeof(buf));
	assert_string_equal(buf, "no bond 'bond9': No such device (see 'rdmactl bond show')");
	rdc_err_set_plain(&err, ENODEV, "no RDMA device or network interface 'mlx5_9'");
	rdc_err_describe(&err, buf, sizeof(buf));
	assert_string_equal(buf, "no RDMA device or network interface 'mlx5_9'");
	rdc_err_describe(&err, small, sizeof(small));
	assert_string_equal(small, "no RDMA dev");
	rdc_err_clear(&err);
	rdc_err_describe(&err, buf, sizeof(buf));
	assert_string_equal(buf, "failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_classes),
		cmocka_unit_test(test_usage_and_marks),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
