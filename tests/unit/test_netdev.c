// SPDX-License-Identifier: GPL-2.0-or-later
/* test_netdev.c - a netdev's admin state and carrier as port show reads them (host/netdev.h) */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/util.h"
#include "host/netdev.h"
#include "seam/fs.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int setup_root(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rdmactl-test-netdev-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown_root(void **state)
{
	char cmd[PATH_MAX];

	(void)state;
	rdc_fs_set_root(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/*
 * flags, carrier (NULL: no file)  ->  admin_up, carrier, issues
 *   "0x1003", "1"     ->  1, 1, 0     up with a link
 *   "0x1003", "0"     ->  1, 0, 0     up, no carrier
 *   "0x1002", ""      ->  0, -1, 0    admin down: the kernel's EINVAL, as near as a file gets
 *   NULL, NULL        ->  -1, -1, 0   a hand-made bundle without either
 *   "garbage", "1"    ->  -1, 1, 1    flags that hold no number: reported
 *   "0x1003", "2"     ->  1, -1, 0    a carrier neither 0 nor 1: unknown (rdc_link_carrier)
 *   "1003", NULL      ->  1, -1, 0    hex without 0x is still hex
 */
static void test_admin_up_carrier(void **state)
{
	static const struct {
		const char *flags, *carrier;
		int admin_up, carrier_want;
		unsigned int issues;
	} rows[] = {
		{"0x1003\n", "1\n", 1, 1, 0},	{"0x1003\n", "0\n", 1, 0, 0},
		{"0x1002\n", "", 0, -1, 0},	{NULL, NULL, -1, -1, 0},
		{"garbage\n", "1\n", -1, 1, 1}, {"0x1003\n", "2\n", 1, -1, 0},
		{"1003\n", NULL, 1, -1, 0},
	};
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(rows); i++) {
		char dir[128], cmd[160], name[IF_NAMESIZE], rel[64];
		struct rdc_netdev nd;

		snprintf(name, sizeof(name), "eth%u", (unsigned int)i);
		snprintf(dir, sizeof(dir), "%s/sys/class/net/%s", root, name);
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
		assert_int_equal(system(cmd), 0);
		snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", name);
		put(rel, "1500\n");
		snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", name);
		put(rel, "up\n");
		if (rows[i].flags) {
			snprintf(rel, sizeof(rel), "sys/class/net/%s/flags", name);
			put(rel, rows[i].flags);
		}
		if (rows[i].carrier) {
			snprintf(rel, sizeof(rel), "sys/class/net/%s/carrier", name);
			put(rel, rows[i].carrier);
		}
		assert_int_equal(rdc_netdev_read(name, &nd, &err), 0);
		if (nd.admin_up != rows[i].admin_up || nd.carrier != rows[i].carrier_want ||
		    nd.issues.count != rows[i].issues)
			fail_msg("row %zu: admin_up %d carrier %d issues %u, want %d %d %u", i,
				 nd.admin_up, nd.carrier, nd.issues.count, rows[i].admin_up,
				 rows[i].carrier_want, rows[i].issues);
		if (rows[i].issues)
			assert_non_null(strstr(nd.issues.items[0].msg, "not hexadecimal flags"));
		rdc_netdev_free(&nd);
	}
	/*
	 * The mtu read is the existence check: a netdev without the file (a
	 * hand-made bundle) is read all the same, its mtu unknown; only a netdev
	 * whose directory is missing too is -ENODEV, nothing read.
	 */
	{
		char cmd[160];
		struct rdc_netdev nd;

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/class/net/nomtu0'", root);
		assert_int_equal(system(cmd), 0);
		put("sys/class/net/nomtu0/operstate", "down\n");
		assert_int_equal(rdc_netdev_read("nomtu0", &nd, &err), 0);
		assert_string_equal(nd.name, "nomtu0");
		assert_int_equal(nd.mtu, -1);
		assert_string_equal(nd.operstate, "down");
		assert_int_equal(nd.issues.count, 0);
		rdc_netdev_free(&nd);
	}
	assert_int_equal(rdc_netdev_read("eth99", &(struct rdc_netdev){0}, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "no network interface 'eth99'"));
	/* A name that is not one netdev's is none, whatever its mtu path would read. */
	{
		static const char *const bad[] = {"../x", "eth0/../../x", "..", ""};
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/class/x'", root);
		assert_int_equal(system(cmd), 0);
		put("sys/class/x/mtu", "1500\n");
		for (size_t i = 0; i < RDC_ARRAY_SIZE(bad); i++)
			assert_int_equal(rdc_netdev_read(bad[i], &(struct rdc_netdev){0}, &err),
					 -ENODEV);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_admin_up_carrier, setup_root, teardown_root),
	};

	return cmocka_run_group_tests_name("netdev", tests, NULL, NULL);
}
