// SPDX-License-Identifier: GPL-2.0-or-later
/* test_verbs_lib.c - libibverbs and librdmacm loaded on first use (kernel/verbs_lib.h) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "kernel/verbs_lib.h"

static int reset(void **state)
{
	(void)state;
	rdc_verbs_lib_use(NULL, NULL);
	return 0;
}

/* The real libraries (scripts/install-deps installs them): each call bound to its own symbol. */
static void test_loads_and_binds(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_verbs_load(&err), 0);
	assert_int_equal(rdc_rdmacm_load(&err), 0);
	assert_string_equal(rdc_ibv_wc_status_str(IBV_WC_SUCCESS), "success");
	assert_string_equal(rdc_ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR),
			    "transport retry counter exceeded");
	assert_string_equal(rdc_rdma_event_str(RDMA_CM_EVENT_ESTABLISHED),
			    "RDMA_CM_EVENT_ESTABLISHED");
	/* Loaded once: asked again, the same answer. */
	assert_int_equal(rdc_verbs_load(NULL), 0);
}

/* The file it came from, links resolved: libibverbs.so.1.MINOR.RDMA_CORE.0 (diag collect's VERSIONS). */
static void test_names_the_file(void **state)
{
	struct rdc_err err = {0};
	char file[4096] = "";

	(void)state;
	assert_int_equal(rdc_verbs_lib_file(file, sizeof(file), &err), 0);
	assert_int_equal(file[0], '/');
	assert_non_null(strstr(file, "/libibverbs.so.1."));
	rdc_verbs_lib_use("librdmactl-test-absent.so.1", NULL);
	assert_int_equal(rdc_verbs_lib_file(file, sizeof(file), &err), -ENOPKG);
	assert_string_equal(err.msg, "cannot load librdmactl-test-absent.so.1");
}

static void test_missing_library_says_which_and_the_package(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	rdc_verbs_lib_use("librdmactl-test-absent.so.1", NULL);
	assert_int_equal(rdc_verbs_load(&err), -ENOPKG);
	assert_int_equal(err.code, ENOPKG);
	assert_string_equal(err.msg, "cannot load librdmactl-test-absent.so.1");
	assert_non_null(strstr(err.detail, "librdmactl-test-absent.so.1"));
	assert_non_null(strstr(err.detail, "install Debian's libibverbs1"));
	assert_string_equal(rdc_err_kind_id(rdc_err_kind_of(&err)), "not-supported");
	/* librdmacm needs libibverbs first: the same failure, not a second library. */
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_rdmacm_load(&err), -ENOPKG);
	assert_string_equal(err.msg, "cannot load librdmactl-test-absent.so.1");
}

/* A library that loads but lacks the calls: refused whole, naming a missing symbol. */
static void test_library_without_the_calls(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	rdc_verbs_lib_use(NULL, "libm.so.6");
	assert_int_equal(rdc_verbs_load(&err), 0);
	assert_int_equal(rdc_rdmacm_load(&err), -ENOPKG);
	assert_string_equal(err.msg, "cannot load libm.so.6");
	assert_non_null(strstr(err.detail, "rdma_create_event_channel"));
	assert_non_null(strstr(err.detail, "install Debian's librdmacm1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_loads_and_binds, reset),
		cmocka_unit_test_teardown(test_names_the_file, reset),
		cmocka_unit_test_teardown(test_missing_library_says_which_and_the_package, reset),
		cmocka_unit_test_teardown(test_library_without_the_calls, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
