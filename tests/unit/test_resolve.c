// SPDX-License-Identifier: GPL-2.0-or-later
/* test_resolve.c - which RDMA port a name means (host/resolve.h), on the cx6dx fixture */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "host/resolve.h"
#include "seam/fs.h"
#include "seam/nl.h"

static void test_addr_to_gid(void **state)
{
	static const uint8_t v4[16] = {[10] = 0xff, [11] = 0xff, 192, 168, 10, 11};
	uint8_t gid[16];
	int family = 0;

	(void)state;
	assert_true(rdc_addr_to_gid("192.168.10.11", &family, gid));
	assert_int_equal(family, AF_INET);
	assert_memory_equal(gid, v4, 16);
	/* The IPv4-mapped form is the same address, as a GID holds it. */
	assert_true(rdc_addr_to_gid("::ffff:192.168.10.11", &family, gid));
	assert_int_equal(family, AF_INET);
	assert_memory_equal(gid, v4, 16);
	assert_true(rdc_addr_to_gid("2001:db8:10::11", &family, gid));
	assert_int_equal(family, AF_INET6);
	assert_int_equal(gid[0], 0x20);
	assert_int_equal(gid[15], 0x11);
	/* Names and shorthand are no address. */
	assert_false(rdc_addr_to_gid("10.1", &family, gid));
	assert_false(rdc_addr_to_gid("mlx5_0", &family, gid));
	assert_false(rdc_addr_to_gid("ens1f0np0.100", &family, gid));
	assert_false(rdc_addr_to_gid("", &family, gid));
	assert_false(rdc_addr_to_gid("192.168.10.11/24", &family, gid));
}

static int resolve(const char *name, struct rdc_port_query *q, struct rdc_port_list *list,
		   struct rdc_err *err)
{
	assert_int_equal(rdc_ports_read(list, err), 0);
	return rdc_ports_resolve(list, name, q, err);
}

static void test_resolve_cx6dx(void **state)
{
	struct rdc_port_list list;
	struct rdc_port_query q;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(resolve("mlx5_0", &q, &list, &err), 0);
	assert_int_equal(q.kind, RDC_NAMED_DEVICE);
	rdc_ports_free(&list);
	assert_int_equal(resolve("mlx5_1/1", &q, &list, &err), 0);
	assert_int_equal(q.kind, RDC_NAMED_PORT);
	rdc_ports_free(&list);

	assert_int_equal(resolve("ens1f0np0", &q, &list, &err), 0);
	assert_int_equal(q.kind, RDC_NAMED_NETDEV);
	assert_int_equal(list.count, 1);
	rdc_ports_free(&list);

	assert_int_equal(resolve("ens1f0np0.100", &q, &list, &err), 0);
	assert_int_equal(q.kind, RDC_NAMED_UPPER);
	assert_string_equal(q.netdev, "ens1f0np0.100");
	assert_int_equal(list.count, 1);
	assert_string_equal(list.ports[0].device, "mlx5_0");
	rdc_ports_free(&list);

	assert_int_equal(resolve("192.168.100.11", &q, &list, &err), 0);
	assert_int_equal(q.kind, RDC_NAMED_ADDRESS);
	assert_int_equal(q.family, AF_INET);
	assert_string_equal(q.netdev, "ens1f0np0.100");
	assert_int_equal(list.count, 1);
	assert_string_equal(list.ports[0].device, "mlx5_0");
	rdc_ports_free(&list);

	assert_int_equal(resolve("192.168.20.11", &q, &list, &err), 0);
	assert_string_equal(list.ports[0].device, "mlx5_1");
	rdc_ports_free(&list);

	/* No GID has it and no address dump answers (no recording): named, ENXIO. */
	assert_int_equal(resolve("10.9.9.9", &q, &list, &err), -ENXIO);
	assert_string_equal(err.msg, "no RDMA port has address 10.9.9.9");
	assert_int_equal(list.count, 0);
	rdc_ports_free(&list);

	assert_int_equal(resolve("lo", &q, &list, &err), -ENXIO);
	assert_string_equal(err.msg, "network interface 'lo' has no RDMA port");
	rdc_ports_free(&list);
	assert_int_equal(resolve("nosuch0", &q, &list, &err), -ENODEV);
	rdc_ports_free(&list);
	assert_int_equal(resolve("mlx5_0/2", &q, &list, &err), -ENOENT);
	rdc_ports_free(&list);
	assert_int_equal(resolve("mlx5_0/x", NULL, &list, &err), -EINVAL);
	rdc_ports_free(&list);
}

static int setup(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	/* Files from the fixture; no kernel: the address dumps fail, as in a bundle without a recording. */
	if (rdc_fs_set_root("testdata/hosts/cx6dx", &err))
		return -1;
	return rdc_nl_open(RDC_NL_OFF, NULL, &err) ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	rdc_nl_close();
	rdc_fs_set_root(NULL, NULL);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_to_gid),
		cmocka_unit_test(test_resolve_cx6dx),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
