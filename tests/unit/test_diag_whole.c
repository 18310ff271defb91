// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_whole.c - diag's titles, lists, sources and skip reasons whole, however long the names */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "diag_fixture.h"

/*
 * Issue 23 item 1: no string is ever cut.  Titles, lists of names and skip
 * reasons used to be built in fixed buffers (160, 128, 96 bytes) and ended
 * wherever the buffer did ("... ens9f5np5, ens9f6np" or "mlx5_bond_a"); here
 * every name is as long as the kernel allows (an RDMA device 63 bytes, a
 * netdev 15) and there are many of them, and every one must be there whole.
 */

static struct rdc_diag_host host;
static struct rdc_diag_result res; /* large: kept off the stack */

#define NPORTS 8

/* "mlx5_aaaa...0" of 63 bytes (the longest RDMA device name, IB_DEVICE_NAME_MAX 64). */
static void long_device(char *buf, size_t size, size_t i)
{
	snprintf(buf, size, "mlx5_%s%zu",
		 "device_with_a_very_long_name_made_for_this_test_abcdefghi", i);
	assert_int_equal(strlen(buf), 63);
}

/* "ens9f0np0long0" of 15 bytes (IFNAMSIZ 16). */
static void long_netdev(char *buf, size_t size, size_t i)
{
	snprintf(buf, size, "ens1f%zunp0abxyz%zu", i, i);
	assert_int_equal(strlen(buf), 15);
}

static void host_of_long_names(size_t n)
{
	fx_host(&host, n);
	for (size_t i = 0; i < n; i++) {
		char dev[64], nd[16], pci[16];

		long_device(dev, sizeof(dev), i);
		long_netdev(nd, sizeof(nd), i);
		snprintf(pci, sizeof(pci), "0000:%02zx:00.0", i + 0x10);
		fx_port(&host, i, dev, nd, pci);
	}
}

static int teardown(void **state)
{
	(void)state;
	rdc_findings_clear(&res.findings);
	rdc_diag_host_free(&host);
	return 0;
}

static void test_cat(void **state)
{
	char *s = NULL;

	(void)state;
	assert_string_equal(rdc_diag_str(s), "");
	for (int i = 0; i < 500; i++)
		rdc_diag_cat(&s, "%sword%d", s ? " " : "", i);
	assert_non_null(s);
	assert_int_equal(strncmp(s, "word0 word1 ", 12), 0);
	assert_non_null(strstr(s, " word499"));
	assert_string_equal(s + strlen(s) - 8, " word499");
	free(s);
}

/* host.fw-mismatch: every device and its firmware in the title (was 160 bytes). */
static void test_fw_versions_whole(void **state)
{
	const struct rdc_finding *f;
	char dev[64], want[128];

	(void)state;
	host_of_long_names(NPORTS);
	for (size_t i = 0; i < NPORTS; i++) {
		snprintf(host.ports[i].port.fw_ver, sizeof(host.ports[i].port.fw_ver),
			 "22.3%zu.1010", i % 2);
		snprintf(host.ports[i].port.hca_type, sizeof(host.ports[i].port.hca_type),
			 "MT4125");
	}
	fx_run(&host, "host.fw-mismatch", &res);
	f = fx_expect(&res, "host.fw-mismatch", RDC_SEV_WARN);
	for (size_t i = 0; i < NPORTS; i++) {
		long_device(dev, sizeof(dev), i);
		snprintf(want, sizeof(want), "%s 22.3%zu.1010", dev, i % 2);
		fx_contains(f->title, want);
	}
	long_device(dev, sizeof(dev), NPORTS - 1);
	snprintf(want, sizeof(want), "%s 22.31.1010", dev);
	assert_string_equal(f->title + strlen(f->title) - strlen(want), want);
}

/* host.driver-mismatch: every version in the title (was 160 bytes). */
static void test_driver_versions_whole(void **state)
{
	const struct rdc_finding *f;
	char want[40];

	(void)state;
	host_of_long_names(NPORTS);
	for (size_t i = 0; i < NPORTS; i++) {
		struct rdc_netif *n = &host.ports[i].netif;

		n->have_drvinfo = true;
		snprintf(n->driver, sizeof(n->driver), "mlx5_core");
		snprintf(n->driver_version, sizeof(n->driver_version),
			 "24.10-1.1.4-out-of-tree-%zu", i);
	}
	fx_run(&host, "host.driver-mismatch", &res);
	f = fx_expect(&res, "host.driver-mismatch", RDC_SEV_WARN);
	for (size_t i = 0; i < NPORTS; i++) {
		snprintf(want, sizeof(want), "24.10-1.1.4-out-of-tree-%zu", i);
		fx_contains(f->title, want);
	}
	assert_string_equal(f->title + strlen(f->title) - 3, "e-7");
}

/* bond.none: every link in the title (was 128 bytes) and every device in the fix (was 96). */
static void test_bond_none_whole(void **state)
{
	const struct rdc_finding *f;
	char nd[16], dev[64];

	(void)state;
	host_of_long_names(NPORTS);
	fx_run(&host, "bond.none", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_WARN);
	for (size_t i = 0; i < NPORTS; i++) {
		long_netdev(nd, sizeof(nd), i);
		long_device(dev, sizeof(dev), i);
		fx_contains(f->title, nd);
		fx_contains(f->fix, dev);
	}
	long_netdev(nd, sizeof(nd), NPORTS - 1);
	fx_contains(f->title, nd);
	fx_contains(f->title, "): no failover");
}

/* transport.gid-missing: every address without a RoCE v2 GID in the title (was 96 bytes). */
static void test_gid_missing_whole(void **state)
{
	static const char *const ips[] = {
		"fd00:1111:2222:3333:4444:5555:6666:7771",
		"fd00:1111:2222:3333:4444:5555:6666:7772",
		"fd00:1111:2222:3333:4444:5555:6666:7773",
		"fd00:1111:2222:3333:4444:5555:6666:7774",
	};
	const struct rdc_finding *f;
	struct rdc_diag_port *p;

	(void)state;
	host_of_long_names(1);
	p = &host.ports[0];
	fx_gid(p, "fe80::1", RDC_GID_ROCE_V2);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(ips); i++)
		fx_addr(p, ips[i], 64);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_FAIL);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(ips); i++)
		fx_contains(f->title, ips[i]);
	fx_contains(f->title, "7774 on ens1f0np0abxyz0");
}

/*
 * A DCB reason made of an error record whose message names a PATH_MAX path
 * (under a long --root) and whose detail is full: whole in the port's
 * reason and in the skip (a reason was 640 bytes, a message 256).
 */
static void test_skip_reason_whole(void **state)
{
	struct rdc_err *e = calloc(1, sizeof(*e));
	char *path = malloc(PATH_MAX), *detail = malloc(RDC_ERR_DETAIL_LEN);
	char *want = malloc(RDC_DIAG_REASON_LEN);
	const char *s = NULL;

	(void)state;
	assert_non_null(e);
	assert_non_null(path);
	assert_non_null(detail);
	assert_non_null(want);
	host_of_long_names(1);
	memset(path, 'p', PATH_MAX - 1);
	path[0] = '/';
	path[PATH_MAX - 1] = '\0';
	memset(detail, 'd', RDC_ERR_DETAIL_LEN - 1);
	detail[RDC_ERR_DETAIL_LEN - 1] = '\0';
	rdc_err_set(e, EIO, "cannot read the DCB of '%s' from the recording '%s'",
		    host.ports[0].port.netdev.name, path);
	rdc_err_detail(e, "%s", detail);
	rdc_err_describe(e, host.ports[0].dcb_reason, sizeof(host.ports[0].dcb_reason));
	snprintf(want, RDC_DIAG_REASON_LEN,
		 "cannot read the DCB of '%s' from the recording '%s': %s (%s)",
		 host.ports[0].port.netdev.name, path, strerror(EIO), detail);
	assert_string_equal(host.ports[0].dcb_reason, want);
	host.ports[0].dcb_rc = -EIO;
	fx_run(&host, "qos.pfc-off", &res);
	fx_none(&res);
	for (size_t i = 0; i < res.nskipped; i++)
		if (!strcmp(res.skipped[i].id, "qos.pfc-off"))
			s = res.skipped[i].reason;
	assert_non_null(s);
	assert_int_equal(strncmp(s, "DCB not read: ", 14), 0);
	assert_string_equal(s + 14, want);
	free(want);
	free(detail);
	free(path);
	free(e);
}

/* qos.cnp-inconsistent: every other port in the list (was 160 bytes). */
static void test_cnp_others_whole(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	host_of_long_names(NPORTS);
	for (size_t i = 0; i < NPORTS; i++) {
		struct rdc_diag_port *p = &host.ports[i];

		p->dcb.supported = true;
		p->ofed.have_ecn = true;
		p->ofed.cnp_dscp = i ? 48 : 46;
		p->ofed.cnp_prio = 6;
	}
	fx_run(&host, "qos.cnp-inconsistent", &res);
	f = fx_expect(&res, "qos.cnp-inconsistent", RDC_SEV_WARN);
	e = fx_evidence(f, "cnp_other_ports");
	for (size_t i = 1; i < NPORTS; i++)
		fx_contains(e->value, host.ports[i].label);
	fx_contains(e->value, "DSCP 48 priority 6");
	assert_string_equal(e->value + strlen(e->value) - strlen("DSCP 48 priority 6"),
			    "DSCP 48 priority 6");
}

/* A counter's source with the longest device and counter names (was 160 bytes). */
static void test_counter_source_whole(void **state)
{
	char name[64], src[RDC_DIAG_SOURCE_LEN], want[RDC_DIAG_SOURCE_LEN];

	(void)state;
	host_of_long_names(1);
	memset(name, 'c', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	fx_counter(&host.ports[0], RDC_DIAG_HW, "hw", name, 0, 1);
	rdc_diag_counter_source(&host.ports[0], RDC_DIAG_HW, name, src, sizeof(src));
	snprintf(want, sizeof(want), "/sys/class/infiniband/%s/ports/1/hw_counters/%s",
		 host.ports[0].port.device, name);
	assert_string_equal(src, want);
}

/*
 * links.same-subnet and links.arp-flux list the links of one subnet: eight
 * 15-byte netdevs were cut at 128 bytes ("... ens1f6np0abxyz6, ens1f7np").
 */
static void test_subnet_names_whole(void **state)
{
	static const char *const ids[] = {"links.same-subnet", "links.arp-flux"};

	(void)state;
	for (size_t k = 0; k < RDC_ARRAY_SIZE(ids); k++) {
		const struct rdc_finding *f;
		char ip[32];

		host_of_long_names(NPORTS);
		for (size_t i = 0; i < NPORTS; i++) {
			snprintf(ip, sizeof(ip), "192.168.7.%zu", i + 1);
			fx_addr_gids(&host.ports[i], ip, 24);
		}
		host.facts.arp_ignore_all = host.facts.arp_announce_all = 0;
		fx_run(&host, ids[k], &res);
		f = fx_expect(&res, ids[k], RDC_SEV_WARN);
		for (size_t i = 0; i < NPORTS; i++)
			fx_contains(f->title, host.ports[i].port.netdev.name);
		teardown(NULL);
	}
}

/*
 * links.mtu-differs names every link with its MTU in the title and a command
 * for each smaller one in the fix (cut at 128 and 256 bytes), and
 * links.traffic-imbalance every device and member in its fix (96 bytes).
 */
static void test_links_lists_whole(void **state)
{
	const struct rdc_finding *f;
	char part[128];

	(void)state;
	host_of_long_names(NPORTS);
	for (size_t i = 1; i < NPORTS; i++)
		host.ports[i].port.netdev.mtu = 1500;
	fx_run(&host, "links.mtu-differs", &res);
	f = fx_expect(&res, "links.mtu-differs", RDC_SEV_WARN);
	for (size_t i = 0; i < NPORTS; i++) {
		snprintf(part, sizeof(part), "%s %lld", host.ports[i].port.netdev.name,
			 (long long)host.ports[i].port.netdev.mtu);
		fx_contains(f->title, part);
		if (!i)
			continue;
		snprintf(part, sizeof(part), "'rdmactl port set %s mtu 9000'",
			 host.ports[i].port.netdev.name);
		fx_contains(f->fix, part);
	}
	teardown(NULL);

	host_of_long_names(NPORTS);
	for (size_t i = 0; i < NPORTS; i++) {
		fx_counter(&host.ports[i], RDC_DIAG_IB, "ib", "port_xmit_bytes", 0,
			   i ? 1000 : 1000000000000ULL);
		fx_counter(&host.ports[i], RDC_DIAG_IB, "ib", "port_rcv_bytes", 0, 1000);
	}
	fx_run(&host, "links.traffic-imbalance", &res);
	f = fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
	for (size_t i = 0; i < NPORTS; i++) {
		fx_contains(f->fix, host.ports[i].port.device);
		fx_contains(f->fix, host.ports[i].port.netdev.name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cat),
		cmocka_unit_test_teardown(test_fw_versions_whole, teardown),
		cmocka_unit_test_teardown(test_driver_versions_whole, teardown),
		cmocka_unit_test_teardown(test_bond_none_whole, teardown),
		cmocka_unit_test_teardown(test_gid_missing_whole, teardown),
		cmocka_unit_test_teardown(test_skip_reason_whole, teardown),
		cmocka_unit_test_teardown(test_cnp_others_whole, teardown),
		cmocka_unit_test_teardown(test_counter_source_whole, teardown),
		cmocka_unit_test_teardown(test_subnet_names_whole, teardown),
		cmocka_unit_test_teardown(test_links_lists_whole, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
