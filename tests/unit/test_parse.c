// SPDX-License-Identifier: GPL-2.0-or-later
/* test_parse.c - table tests of every sysfs and argument parser */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "base/util.h"
#include "host/gid.h"
#include "host/ibdev.h"
#include "host/pci.h"

static void test_port_state(void **state)
{
	static const struct {
		const char *in;
		int rc, num;
		const char *name;
	} cases[] = {
		{"4: ACTIVE", 0, 4, "ACTIVE"},
		{"1: DOWN", 0, 1, "DOWN"},
		{"2: INIT", 0, 2, "INIT"},
		{"5: ACTIVE_DEFER", 0, 5, "ACTIVE_DEFER"},
		{"9: Future State", 0, 9, "FUTURE_STATE"},
		{"ACTIVE", -EINVAL, 0, NULL},
		{"4:ACTIVE", -EINVAL, 0, NULL},
		{"x: ACTIVE", -EINVAL, 0, NULL},
		{"4: ", -EINVAL, 0, NULL},
		{"", -EINVAL, 0, NULL},
		{"-1: DOWN", -EINVAL, 0, NULL},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		char name[32] = "";
		int num = -1;

		assert_int_equal(rdc_port_state_parse(cases[i].in, &num, name, sizeof(name)),
				 cases[i].rc);
		if (cases[i].rc == 0) {
			assert_int_equal(num, cases[i].num);
			assert_string_equal(name, cases[i].name);
		}
	}
}

static void test_phys_state(void **state)
{
	static const struct {
		const char *in;
		const char *name;
	} cases[] = {
		{"5: LinkUp", "LINK_UP"},
		{"2: Polling", "POLLING"},
		{"3: Disabled", "DISABLED"},
		{"1: Sleep", "SLEEP"},
		{"6: LinkErrorRecovery", "LINK_ERROR_RECOVERY"},
		{"7: Phy Test", "PHY_TEST"},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		char name[32];
		int num;

		assert_int_equal(rdc_port_phys_state_parse(cases[i].in, &num, name, sizeof(name)),
				 0);
		assert_string_equal(name, cases[i].name);
	}
}

static void test_rate(void **state)
{
	static const struct {
		const char *in;
		int rc;
		double gbps;
		const char *lanes;
	} cases[] = {
		{"100 Gb/sec (4X EDR)", 0, 100, "4X EDR"},
		{"200 Gb/sec (4X HDR)", 0, 200, "4X HDR"},
		{"2.5 Gb/sec (1X SDR)", 0, 2.5, "1X SDR"},
		{"25 Gb/sec (1X EDR)", 0, 25, "1X EDR"},
		{"10 Gb/sec (1X QDR)", 0, 10, "1X QDR"},
		{"40 Gb/sec", 0, 40, ""},
		{"fast", -EINVAL, 0, NULL},
		{"100 Mb/sec (1X)", -EINVAL, 0, NULL},
		{"", -EINVAL, 0, NULL},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		char lanes[24];
		double g = -1;

		assert_int_equal(rdc_port_rate_parse(cases[i].in, &g, lanes, sizeof(lanes)),
				 cases[i].rc);
		if (cases[i].rc == 0) {
			assert_true(g == cases[i].gbps);
			assert_string_equal(lanes, cases[i].lanes);
		}
	}
}

static void test_devport(void **state)
{
	static const struct {
		const char *in;
		int rc;
		const char *dev;
		unsigned int port;
	} cases[] = {
		{"mlx5_0/1", 0, "mlx5_0", 1},
		{"mlx5_0", 0, "mlx5_0", 0},
		{"mlx5_bond_0/1", 0, "mlx5_bond_0", 1},
		{"rxe0/255", 0, "rxe0", 255},
		{"mlx5_0/", -EINVAL, NULL, 0},
		{"mlx5_0/0", -EINVAL, NULL, 0},
		{"mlx5_0/256", -EINVAL, NULL, 0},
		{"mlx5_0/x", -EINVAL, NULL, 0},
		{"/1", -EINVAL, NULL, 0},
		{"a/1/2", -EINVAL, NULL, 0},
		{"", -EINVAL, NULL, 0},
		{"..", -EINVAL, NULL, 0},
		{"mlx5_0/+1", -EINVAL, NULL, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		char dev[64];
		unsigned int port = 99;

		assert_int_equal(rdc_devport_parse(cases[i].in, dev, sizeof(dev), &port),
				 cases[i].rc);
		if (cases[i].rc == 0) {
			assert_string_equal(dev, cases[i].dev);
			assert_int_equal(port, cases[i].port);
		}
	}
}

static void test_gid_parse_and_ip(void **state)
{
	static const struct {
		const char *in;
		int rc, family;
		const char *ip;
		bool link_local;
	} cases[] = {
		{"0000:0000:0000:0000:0000:ffff:c0a8:0a0b", 0, AF_INET, "192.168.10.11", false},
		{"0000:0000:0000:0000:0000:ffff:c612:0101", 0, AF_INET, "198.18.1.1", false},
		{"fe80:0000:0000:0000:0e42:a1ff:fe65:8a10", 0, AF_INET6, "fe80::e42:a1ff:fe65:8a10",
		 true},
		{"2001:0db8:0010:0000:0000:0000:0000:0011", 0, AF_INET6, "2001:db8:10::11", false},
		{"FE80:0000:0000:0000:0E42:A1FF:FE65:8A10", 0, AF_INET6, "fe80::e42:a1ff:fe65:8a10",
		 true},
		{"fe80::1", -EINVAL, 0, NULL, false},
		{"0000:0000:0000:0000:0000:ffff:c0a8:0a0", -EINVAL, 0, NULL, false},
		{"0000:0000:0000:0000:0000:ffff:c0a8:0a0b:", -EINVAL, 0, NULL, false},
		{"0000-0000:0000:0000:0000:ffff:c0a8:0a0b", -EINVAL, 0, NULL, false},
		{"zzzz:0000:0000:0000:0000:ffff:c0a8:0a0b", -EINVAL, 0, NULL, false},
		{"", -EINVAL, 0, NULL, false},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_gid g = {0};
		char back[40];

		assert_int_equal(rdc_gid_parse(cases[i].in, g.raw), cases[i].rc);
		if (cases[i].rc)
			continue;
		rdc_gid_derive_ip(&g);
		assert_int_equal(g.family, cases[i].family);
		assert_string_equal(g.ip, cases[i].ip);
		assert_int_equal(g.link_local, cases[i].link_local);
		rdc_gid_format(g.raw, back);
		assert_int_equal(strcasecmp(back, cases[i].in), 0);
	}
}

static void test_gid_zero_and_types(void **state)
{
	uint8_t raw[16];

	(void)state;
	assert_int_equal(rdc_gid_parse("0000:0000:0000:0000:0000:0000:0000:0000", raw), 0);
	assert_true(rdc_gid_is_zero(raw));
	assert_int_equal(rdc_gid_parse("fe80:0000:0000:0000:0000:0000:0000:0000", raw), 0);
	assert_false(rdc_gid_is_zero(raw));
	assert_true(rdc_gid_is_bare_link_local(raw));
	assert_int_equal(rdc_gid_type_parse("IB/RoCE v1", true), RDC_GID_ROCE_V1);
	assert_int_equal(rdc_gid_type_parse("IB/RoCE v1", false), RDC_GID_IB);
	assert_int_equal(rdc_gid_type_parse("RoCE v2", true), RDC_GID_ROCE_V2);
	assert_int_equal(rdc_gid_type_parse("RoCE v3", true), RDC_GID_UNKNOWN);
	assert_string_equal(rdc_gid_type_name(RDC_GID_ROCE_V2), "RoCE v2");
	assert_string_equal(rdc_gid_type_name(RDC_GID_ROCE_V1), "RoCE v1");
	assert_string_equal(rdc_gid_type_name(RDC_GID_IB), "IB");
}

static void test_gid_recommended(void **state)
{
	struct rdc_gid g[6] = {0};
	const char *text[] = {
		"fe80:0000:0000:0000:0e42:a1ff:fe65:8a10",
		"fe80:0000:0000:0000:0e42:a1ff:fe65:8a10",
		"0000:0000:0000:0000:0000:ffff:c0a8:0a0b",
		"0000:0000:0000:0000:0000:ffff:c0a8:0a0b",
		"0000:0000:0000:0000:0000:ffff:c0a8:0a0b",
		"2001:0db8:0010:0000:0000:0000:0000:0011",
	};
	enum rdc_gid_type type[] = {RDC_GID_ROCE_V1, RDC_GID_ROCE_V2, RDC_GID_ROCE_V1,
				    RDC_GID_ROCE_V2, RDC_GID_ROCE_V2, RDC_GID_ROCE_V1};
	(void)state;
	for (int i = 0; i < 6; i++) {
		assert_int_equal(rdc_gid_parse(text[i], g[i].raw), 0);
		g[i].type = type[i];
		rdc_gid_derive_ip(&g[i]);
	}
	rdc_gid_mark_recommended(g, 6);
	/* v2 link-local: no; first v2 of the IPv4: yes; a duplicate: no; v1 only: no. */
	assert_false(g[0].recommended);
	assert_false(g[1].recommended);
	assert_false(g[2].recommended);
	assert_true(g[3].recommended);
	assert_false(g[4].recommended);
	assert_false(g[5].recommended);
}

static void test_roce_mtu(void **state)
{
	static const struct {
		int64_t netdev;
		int overhead, active;
	} cases[] = {
		{9000, 96, 4096}, {4200, 96, 4096}, {4192, 96, 4096}, {4191, 96, 2048},
		{1500, 96, 1024}, {1500, 80, 1024}, {1120, 96, 1024}, {1119, 96, 512},
		{352, 96, 256},	  {351, 96, 0},	    {0, 96, 0},	      {-1, 96, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++)
		assert_int_equal(rdc_roce_active_mtu(cases[i].netdev, cases[i].overhead),
				 cases[i].active);
}

static void test_pci_speed(void **state)
{
	static const struct {
		const char *in;
		int rc;
		double gts;
	} cases[] = {
		{"16.0 GT/s PCIe", 0, 16.0},
		{"8 GT/s", 0, 8.0},
		{"2.5 GT/s PCIe", 0, 2.5},
		{"32.0 GT/s PCIe", 0, 32.0},
		{"Unknown", -EINVAL, 0},
		{"8 GT/s PCI", -EINVAL, 0},
		{"", -EINVAL, 0},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		double g = 0;

		assert_int_equal(rdc_pci_parse_speed(cases[i].in, &g), cases[i].rc);
		if (!cases[i].rc)
			assert_true(g == cases[i].gts);
	}
}

static void test_numbers(void **state)
{
	uint64_t u;
	int64_t s;
	uint32_t r;
	double d;

	(void)state;
	assert_int_equal(rdc_parse_u64("0x1003", 0, &u), 0);
	assert_int_equal(u, 0x1003);
	assert_int_equal(rdc_parse_u64("18446744073709551615", 10, &u), 0);
	assert_int_equal(rdc_parse_u64("18446744073709551616", 10, &u), -ERANGE);
	assert_int_equal(rdc_parse_u64("-1", 10, &u), -EINVAL);
	assert_int_equal(rdc_parse_u64(" 1", 10, &u), -EINVAL);
	assert_int_equal(rdc_parse_u64("1 ", 10, &u), -EINVAL);
	assert_int_equal(rdc_parse_u64("", 10, &u), -EINVAL);
	assert_int_equal(rdc_parse_i64("-1", &s), 0);
	assert_int_equal(s, -1);
	assert_int_equal(rdc_parse_i64("N/A (no PMA)", &s), -EINVAL);
	assert_int_equal(rdc_parse_u32_range("9000", 68, 65535, &r), 0);
	assert_int_equal(r, 9000);
	assert_int_equal(rdc_parse_u32_range("67", 68, 65535, &r), -ERANGE);
	assert_int_equal(rdc_parse_u32_range("9k", 68, 65535, &r), -EINVAL);
	assert_int_equal(rdc_parse_seconds("0.5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(rdc_parse_seconds("0", &d), -ERANGE);
	assert_int_equal(rdc_parse_seconds("-1", &d), -EINVAL);
	assert_int_equal(rdc_parse_seconds("nan", &d), -EINVAL);
	assert_int_equal(rdc_parse_seconds("1s", &d), -EINVAL);
}

static void test_hex(void **state)
{
	unsigned char in[] = {0x00, 0x7f, 0xab, 0xff}, out[4];
	char hex[9];

	(void)state;
	rdc_hex_encode(in, sizeof(in), hex);
	assert_string_equal(hex, "007fabff");
	assert_int_equal(rdc_hex_decode(hex, out, sizeof(out)), 4);
	assert_memory_equal(in, out, 4);
	assert_int_equal(rdc_hex_decode("abc", out, sizeof(out)), -EINVAL);
	assert_int_equal(rdc_hex_decode("zz", out, sizeof(out)), -EINVAL);
	assert_int_equal(rdc_hex_decode("0011223344", out, sizeof(out)), -EINVAL);
}

/* Prose cut to a field never ends mid-word: at a space, with " ..." after. */
static void test_words_copy(void **state)
{
	char buf[24];

	(void)state;
	rdc_words_copy(buf, sizeof(buf), "fits whole");
	assert_string_equal(buf, "fits whole");
	/* 23 characters fit exactly. */
	rdc_words_copy(buf, sizeof(buf), "exactly twenty-three ch");
	assert_string_equal(buf, "exactly twenty-three ch");
	rdc_words_copy(buf, sizeof(buf), "symbol_error 7, SymbolErrorDuringCarrier 3");
	assert_string_equal(buf, "symbol_error 7 ...");
	/* One word longer than the field: cut where it must be, still marked. */
	rdc_words_copy(buf, sizeof(buf), "SymbolErrorDuringCarrierAndMore");
	assert_string_equal(buf, "SymbolErrorDuringCa ...");
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_state),
		cmocka_unit_test(test_phys_state),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_devport),
		cmocka_unit_test(test_gid_parse_and_ip),
		cmocka_unit_test(test_gid_zero_and_types),
		cmocka_unit_test(test_gid_recommended),
		cmocka_unit_test(test_roce_mtu),
		cmocka_unit_test(test_pci_speed),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_words_copy),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
