// SPDX-License-Identifier: GPL-2.0-or-later
/* test_features.c - node labels from a diag host model built by hand */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag/features.h"

static struct rdc_diag_port ports[4];
static struct rdc_gid v2 = {.type = RDC_GID_ROCE_V2};

/* An Ethernet port of @dev, ACTIVE at @gbps, with PFC mask @pfc (dcb_rc 0). */
static void eth_port(struct rdc_diag_port *p, const char *dev, double gbps, uint8_t pfc)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->port.device, sizeof(p->port.device), "%s", dev);
	snprintf(p->port.link_layer, sizeof(p->port.link_layer), "Ethernet");
	snprintf(p->port.state_name, sizeof(p->port.state_name), "ACTIVE");
	p->port.rate_gbps = gbps;
	p->dcb.have_pfc = true;
	p->dcb.pfc.pfc_en = pfc;
	p->gids = &v2;
	p->ngids = 1;
}

static size_t lines(const struct rdc_features *f, char out[8][RDC_FEATURE_LINE])
{
	size_t n = 0;

	while (n < 8 && rdc_features_line(f, n, out[n]))
		n++;
	return n;
}

static void test_two_nics_lossless_on_common_prios(void **state)
{
	struct rdc_diag_host h = {.ports = ports, .nports = 2};
	char l[8][RDC_FEATURE_LINE];
	struct rdc_features f;

	(void)state;
	eth_port(&ports[0], "mlx5_0", 100, 0x18); /* prios 3, 4 */
	eth_port(&ports[1], "mlx5_1", 25, 0x08);  /* prio 3 */
	rdc_features_compute(&h, RDC_RDMA_NETNS_EXCLUSIVE, &f);
	assert_int_equal(f.devices, 2);
	assert_true(f.lossless_known);
	assert_int_equal(f.lossless_mask, 0x08);
	assert_int_equal(lines(&f, l), 7);
	assert_string_equal(l[0], "rdma.capable=true");
	assert_string_equal(l[4], "rdma.link-speed-gbps=100");
	assert_string_equal(l[5], "rdma.lossless-prios=3");
	assert_string_equal(l[6], "rdma.netns-mode=exclusive");
}

/* A LAG's second member is one RDMA port with the first: counted once, its PFC still judged. */
static void test_lag_member_counted_once(void **state)
{
	struct rdc_diag_host h = {.ports = ports, .nports = 2};
	struct rdc_features f;

	(void)state;
	eth_port(&ports[0], "mlx5_bond_0", 100, 0x08);
	eth_port(&ports[1], "mlx5_bond_0", 100, 0x00);
	ports[0].port.roce_lag = ports[1].port.roce_lag = true;
	ports[1].lag_secondary = true;
	rdc_features_compute(&h, RDC_RDMA_NETNS_UNKNOWN, &f);
	assert_int_equal(f.ports, 1);
	assert_int_equal(f.devices, 1);
	assert_true(f.lag);
	/* PFC off on one member: not lossless anywhere. */
	assert_true(f.lossless_known);
	assert_int_equal(f.lossless_mask, 0);
}

/* No dcbnl in the driver is a known "none"; a DCB read that failed is unknown: no line. */
static void test_dcb_unsupported_versus_unreadable(void **state)
{
	struct rdc_diag_host h = {.ports = ports, .nports = 2};
	char l[8][RDC_FEATURE_LINE];
	struct rdc_features f;
	size_t n;

	(void)state;
	eth_port(&ports[0], "rxe0", 10, 0);
	eth_port(&ports[1], "rxe1", 10, 0);
	ports[0].dcb_rc = ports[1].dcb_rc = -EOPNOTSUPP;
	rdc_features_compute(&h, RDC_RDMA_NETNS_SHARED, &f);
	assert_true(f.lossless_known);
	n = lines(&f, l);
	assert_string_equal(l[5], "rdma.lossless-prios=none");
	ports[1].dcb_rc = -EIO;
	rdc_features_compute(&h, RDC_RDMA_NETNS_SHARED, &f);
	assert_false(f.lossless_known);
	assert_int_equal(lines(&f, l), n - 1);
	for (size_t i = 0; i < n - 1; i++)
		assert_null(strstr(l[i], "lossless"));
}

/* Speed is the fastest ACTIVE port's; a DOWN port's rate says nothing. */
static void test_speed_only_active(void **state)
{
	struct rdc_diag_host h = {.ports = ports, .nports = 2};
	char l[8][RDC_FEATURE_LINE];
	struct rdc_features f;

	(void)state;
	eth_port(&ports[0], "mlx5_0", 200, 0x08);
	snprintf(ports[0].port.state_name, sizeof(ports[0].port.state_name), "DOWN");
	eth_port(&ports[1], "mlx5_1", 2.5, 0x08);
	rdc_features_compute(&h, RDC_RDMA_NETNS_UNKNOWN, &f);
	lines(&f, l);
	assert_string_equal(l[4], "rdma.link-speed-gbps=2.5");
	snprintf(ports[1].port.state_name, sizeof(ports[1].port.state_name), "DOWN");
	rdc_features_compute(&h, RDC_RDMA_NETNS_UNKNOWN, &f);
	lines(&f, l);
	assert_null(strstr(l[4], "speed"));
}

static void test_no_ports(void **state)
{
	struct rdc_diag_host h = {0};
	char l[8][RDC_FEATURE_LINE];
	struct rdc_features f;

	(void)state;
	rdc_features_compute(&h, RDC_RDMA_NETNS_UNKNOWN, &f);
	assert_false(f.capable);
	assert_int_equal(lines(&f, l), 4);
	assert_string_equal(l[0], "rdma.capable=false");
	assert_string_equal(l[3], "rdma.lag=false");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_nics_lossless_on_common_prios),
		cmocka_unit_test(test_lag_member_counted_once),
		cmocka_unit_test(test_dcb_unsupported_versus_unreadable),
		cmocka_unit_test(test_speed_only_active),
		cmocka_unit_test(test_no_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
