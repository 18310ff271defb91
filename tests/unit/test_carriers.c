// SPDX-License-Identifier: GPL-2.0-or-later
/* test_carriers.c - the ports behind a netdev (host/carriers.h), DCB targets, members compared */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dcb/members.h"
#include "dcb/target.h"
#include "host/carriers.h"
#include "seam/fs.h"
#include "seam/nl.h"

static void root(const char *host)
{
	char dir[128];
	struct rdc_err err = {0};

	snprintf(dir, sizeof(dir), "testdata/hosts/%s", host);
	assert_int_equal(rdc_fs_set_root(dir, &err), 0);
}

/* "ens1f0np0 roce_lag mlx5_bond_0/1, ..." for @name on @host. */
static int carriers(const char *host, const char *name, char *out, size_t size,
		    struct rdc_carriers *c)
{
	struct rdc_port_list list;
	struct rdc_err err = {0};
	size_t len = 0;
	int rc;

	root(host);
	assert_int_equal(rdc_ports_read(&list, &err), 0);
	rc = rdc_carriers_of(&list, name, c, &err);
	out[0] = '\0';
	for (size_t i = 0; !rc && i < c->count; i++) {
		const struct rdc_port *p = &list.ports[c->items[i].port];

		len += (size_t)snprintf(
			out + len, size - len, "%s%s %s %s/%u", i ? ", " : "", c->items[i].netdev,
			rdc_port_relation_name(c->items[i].relation), p->device, p->port);
	}
	rdc_ports_free(&list);
	return rc;
}

static void test_carriers_of(void **state)
{
	static const struct {
		const char *host, *name, *want, *bond;
		bool lag;
	} cases[] = {
		/* RoCE LAG: the bond, its RDMA device, a member */
		{"cx6dx-lag", "bond0",
		 "ens1f0np0 roce_lag mlx5_bond_0/1, ens1f1np1 roce_lag mlx5_bond_0/1", "bond0",
		 true},
		{"cx6dx-lag", "mlx5_bond_0/1",
		 "ens1f0np0 roce_lag mlx5_bond_0/1, ens1f1np1 roce_lag mlx5_bond_0/1", "bond0",
		 true},
		{"cx6dx-lag", "ens1f1np1", "ens1f1np1 same mlx5_bond_0/1", "", false},
		/* a bond whose members keep their ports, and a member named: exactly its port */
		{"lag-mistakes", "bond1", "ens2f0np0 member mlx5_2/1, ens2f1np1 member mlx5_3/1",
		 "bond1", false},
		{"lag-mistakes", "ens2f1np1", "ens2f1np1 same mlx5_3/1", "", false},
		{"ab-2nic", "bond0", "ens1f0np0 member mlx5_0/1, ens2f0np0 member mlx5_2/1",
		 "bond0", false},
		/* a VLAN on a port */
		{"cx6dx", "ens1f0np0.100", "ens1f0np0 vlan_of mlx5_0/1", "", false},
		{"cx6dx", "mlx5_1", "ens1f1np1 same mlx5_1/1", "", false},
	};
	struct rdc_carriers c;
	char got[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(carriers(cases[i].host, cases[i].name, got, sizeof(got), &c), 0);
		assert_string_equal(got, cases[i].want);
		assert_string_equal(c.bond, cases[i].bond);
		assert_int_equal(c.roce_lag, cases[i].lag);
	}
	/* Not there, and there without an RDMA port. */
	assert_int_equal(carriers("cx6dx", "nosuch0", got, sizeof(got), &c), -ENODEV);
	assert_int_equal(carriers("cx6dx", "lo", got, sizeof(got), &c), -ENXIO);
}

static void test_dcb_targets(void **state)
{
	struct rdc_port_list list;
	struct rdc_dcb_targets ts;
	struct rdc_err err = {0};

	(void)state;
	root("cx6dx-lag");
	assert_int_equal(rdc_ports_read(&list, &err), 0);
	assert_int_equal(rdc_dcb_targets_of(&list, "bond0", &ts, &err), 0);
	assert_int_equal(ts.count, 2);
	assert_string_equal(ts.items[0].netdev, "ens1f0np0");
	assert_string_equal(ts.items[0].upper, "bond0");
	assert_string_equal(ts.items[0].bond_mode, "802.3ad");
	/* The LAG port's RDMA-CM settings go with the first member only. */
	assert_int_equal(ts.items[0].nports, 1);
	assert_string_equal(ts.items[0].ports[0].device, "mlx5_bond_0");
	assert_int_equal(ts.items[1].nports, 0);
	rdc_dcb_targets_free(&ts);
	/* Every physical netdev, never the bond. */
	assert_int_equal(rdc_dcb_targets_all(&list, &ts, &err), 0);
	assert_int_equal(ts.count, 2);
	assert_string_equal(ts.items[1].netdev, "ens1f1np1");
	rdc_dcb_targets_free(&ts);
	/* A netdev without RDMA is itself (dcbnl answers for it); a two-port device wants DEV/PORT. */
	assert_int_equal(rdc_dcb_targets_of(&list, "lo", &ts, &err), 0);
	assert_int_equal(ts.count, 1);
	assert_string_equal(ts.items[0].upper, "");
	rdc_dcb_targets_free(&ts);
	rdc_ports_free(&list);
}

/* A port as roce-lossless leaves it: PFC on 3, DSCP 26 -> 3. */
static void lossless(struct rdc_dcb *d)
{
	memset(d, 0, sizeof(*d));
	d->supported = d->have_pfc = d->have_ets = true;
	d->pfc.pfc_en = 1 << 3;
	d->pfc.delay = 7;
	d->apps[d->napps++] = (struct dcb_app){
		.selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26};
}

static void test_members_compare(void **state)
{
	struct rdc_dcb_target t[2] = {{.netdev = "ens1f0np0"}, {.netdev = "ens1f1np1"}};
	struct rdc_dcb a, b;
	const struct rdc_dcb *dcbs[2] = {&a, &b};
	struct rdc_members_agreement *ag = test_malloc(sizeof(*ag));

	(void)state;
	/* Files of the LAG host: same MTU and speed on both members. */
	root("cx6dx-lag");
	lossless(&a);
	lossless(&b);
	rdc_members_compare(t, dcbs, 2, ag);
	assert_int_equal(ag->result, RDC_MEMBERS_AGREE);
	assert_int_equal(ag->ndiffs, 0);
	/* PFC on 4 too, and DSCP 26 to priority 4 on the second member. */
	b.pfc.pfc_en |= 1 << 4;
	b.apps[0].priority = 4;
	rdc_members_compare(t, dcbs, 2, ag);
	assert_int_equal(ag->result, RDC_MEMBERS_DIFFER);
	assert_int_equal(ag->ndiffs, 2);
	assert_string_equal(ag->diffs[0].what, "pfc.enabled_prios");
	assert_string_equal(ag->diffs[0].values[0].value, "3");
	assert_string_equal(ag->diffs[0].values[1].value, "3,4");
	assert_string_equal(ag->diffs[1].what, "dscp_prio");
	assert_string_equal(ag->diffs[1].values[1].value, "26:4");
	/* A member without dcbnl: DCB not compared, and the reason names it. */
	dcbs[1] = NULL;
	rdc_members_compare(t, dcbs, 2, ag);
	assert_int_equal(ag->result, RDC_MEMBERS_UNKNOWN);
	assert_non_null(strstr(ag->reason, "ens1f1np1"));
	test_free(ag);
}

static int setup(void **state)
{
	struct rdc_err err = {0};

	(void)state;
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
		cmocka_unit_test(test_carriers_of),
		cmocka_unit_test(test_dcb_targets),
		cmocka_unit_test(test_members_compare),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
