// SPDX-License-Identifier: GPL-2.0-or-later
/* test_rtnl_name.c - a netdev's name by its index, one RTM_GETLINK on the live transport */
#include <errno.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "kernel/rtnl.h"

/* Every network namespace has its loopback at index 1. */
static void test_loopback_by_index(void **state)
{
	struct rdc_err err = {0};
	char name[IF_NAMESIZE] = "x";

	(void)state;
	assert_int_equal(rdc_link_name(1, name, &err), 0);
	assert_string_equal(name, "lo");
}

static void test_no_such_index(void **state)
{
	struct rdc_err err = {0};
	char name[IF_NAMESIZE] = "x";

	(void)state;
	/* if_indextoname() says ENXIO for an index nobody here has; so does this. */
	assert_int_equal(rdc_link_name(0x7ffffff0, name, &err), -ENXIO);
	assert_string_equal(name, "");
	assert_non_null(strstr(err.msg, "index 2147483632"));
	assert_int_equal(rdc_link_name(0, name, &err), -EINVAL);
	assert_int_equal(rdc_link_name(-3, name, &err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loopback_by_index),
		cmocka_unit_test(test_no_such_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
