// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_bond.c - diag's bond checks on hosts built by hand, and the course's design mistakes */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "diag_fixture.h"
#include "kernel/bondnl.h"

static struct rdc_diag_host host;
static struct rdc_diag_result res; /* 330 KB: kept off the stack */

static int teardown(void **state)
{
	(void)state;
	rdc_diag_host_free(&host);
	return 0;
}

/* The course's host: two 25G RoCE ports of one NIC, both up, an address each, no bond. */
static void two_ports(struct rdc_diag_host *h)
{
	fx_host(h, 2);
	fx_addr_gids(fx_port(h, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0"), "10.10.1.5", 24);
	fx_addr_gids(fx_port(h, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1"), "10.10.2.5", 24);
}

static void member(struct rdc_bond *b, const char *name)
{
	struct rdc_bond_member *m = &b->members[b->nmembers++];

	rdc_bondnl_member_init(m);
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->ifindex = (int)b->nmembers + 10;
	m->state = b->nmembers == 1 ? 0 : 1;
	m->mii_status = 0;
	m->link_failure_count = 0;
	m->speed_mbps = 25000;
	snprintf(m->duplex, sizeof(m->duplex), "full");
	m->mtu = 9000;
	m->aggregator_id = 1;
	m->actor_port_state = m->partner_port_state = 63;
	m->carrier = true;
}

/* A bond on @h: healthy 802.3ad options (miimon 100, fast LACP, layer3+4) over @a and @b. */
static struct rdc_bond *add_bond(struct rdc_diag_host *h, const char *name, const char *a,
				 const char *b)
{
	struct rdc_bond *bd = &h->bonds.bonds[h->bonds.count++];

	rdc_bondnl_init(bd);
	snprintf(bd->name, sizeof(bd->name), "%s", name);
	bd->ifindex = 9 + (int)h->bonds.count;
	bd->admin_up = bd->carrier = true;
	bd->mtu = 9000;
	bd->mode = RDC_BOND_8023AD;
	bd->xmit_hash_policy = RDC_BOND_HASH_L34;
	bd->miimon_ms = 100;
	bd->updelay_ms = bd->downdelay_ms = bd->arp_interval_ms = 0;
	bd->lacp_rate = 1;
	bd->ad_select = 0;
	member(bd, a);
	member(bd, b);
	return bd;
}

/* Facts for every bond: members on @pci[i], PFC on priority 3, DSCP trust. */
static void add_facts(struct rdc_diag_host *h, const char *const *pci)
{
	h->bond_facts = calloc(h->bonds.count, sizeof(*h->bond_facts));
	assert_non_null(h->bond_facts);
	for (size_t i = 0; i < h->bonds.count; i++) {
		struct rdc_bond_facts *f = &h->bond_facts[i];

		rdc_bond_facts_init(&h->bonds.bonds[i], f);
		for (size_t k = 0; k < f->nmembers; k++) {
			struct rdc_bond_member_facts *m = &f->members[k];

			snprintf(m->pci, sizeof(m->pci), "%s", pci[k]);
			snprintf(m->pci_source, sizeof(m->pci_source), "/sys/class/net/%s/device",
				 m->name);
			m->pci_reason[0] = '\0';
			m->have_dcb = true;
			m->pfc_en = 0x08;
			snprintf(m->dcb_source, sizeof(m->dcb_source), "dcbnl DCB_CMD_IEEE_GET");
			m->dcb_reason[0] = '\0';
			snprintf(m->trust, sizeof(m->trust), "dscp");
			snprintf(m->trust_source, sizeof(m->trust_source),
				 "/sys/class/net/%s/qos/trust", m->name);
			m->trust_reason[0] = '\0';
		}
	}
}

static const char *const one_nic[] = {"0000:3b:00.0", "0000:3b:00.1"};

/*
 * RoCE LAG done right: bond0 (802.3ad, miimon 100) over both ports of one
 * NIC, served by mlx5_bond_0 whose port's netdev is the bond.
 */
static void good_lag(struct rdc_diag_host *h)
{
	struct rdc_diag_port *p;
	struct rdc_bond *b;

	fx_host(h, 1);
	p = fx_port(h, 0, "mlx5_bond_0", "bond0", "0000:3b:00.0");
	p->port.netdev.is_bond = true;
	snprintf(p->port.netdev.bond_mode, sizeof(p->port.netdev.bond_mode), "802.3ad");
	p->port.netdev.nslaves = 2;
	snprintf(p->port.netdev.slaves[0], IF_NAMESIZE, "ens1f0np0");
	snprintf(p->port.netdev.slaves[1], IF_NAMESIZE, "ens1f1np1");
	p->port.netdev.speed_mbps = 50000;
	fx_addr_gids(p, "10.10.1.5", 24);
	b = add_bond(h, "bond0", "ens1f0np0", "ens1f1np1");
	snprintf(b->rdma_device, sizeof(b->rdma_device), "mlx5_bond_0");
	b->rdma_port = 1;
	add_facts(h, one_nic);
}

/* ---- bond.none ---- */

static void test_story_no_bond(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	two_ports(&host);
	fx_run(&host, "bond", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_WARN);
	assert_int_equal(res.findings.count, 1);
	fx_no_skips(&res);
	assert_string_equal(
		f->title,
		"2 RoCE links up and no bond over them (ens1f0np0, ens1f1np1): no failover");
	/* Each link's master: none, null; whose and its RDMA port in the detail. */
	assert_int_equal(f->nevidence, 3);
	e = fx_evidence(f, "master");
	assert_string_equal(e->source, "/sys/class/net/ens1f0np0/master");
	fx_ev_null(e, "none");
	assert_string_equal(e->detail, "ens1f0np0: mlx5_0/1 ACTIVE");
	e = &f->evidence[1];
	assert_string_equal(e->name, "master");
	assert_string_equal(e->source, "/sys/class/net/ens1f1np1/master");
	fx_ev_null(e, "none");
	assert_string_equal(e->detail, "ens1f1np1: mlx5_1/1 ACTIVE");
	/* How many bonds the host has: a number, what it means in words. */
	e = fx_evidence(f, "bonds_count");
	assert_string_equal(e->source, "rtnetlink RTM_GETLINK (bond masters)");
	fx_ev_uint(e, 0);
	assert_string_equal(e->detail, "none over these links");
	assert_string_equal(e->value, "0 (none over these links)");
	fx_contains(f->fix, "'rdmactl bond create bond0 mode 802.3ad members ens1f0np0,ens1f1np1 "
			    "xmit-hash layer3+4 miimon 100 lacp-rate fast'");
	fx_contains(f->why, "no failover");
}

static void test_none_names_and_nics(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	two_ports(&host);
	/* A management bond over plain NICs takes the name bond0, and is no RDMA bond. */
	add_bond(&host, "bond0", "eno1", "eno2");
	fx_run(&host, "bond", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_WARN);
	fx_contains(f->fix, "'rdmactl bond create bond1 mode 802.3ad members ens1f0np0,ens1f1np1");
	fx_ev_uint(fx_evidence(f, "bonds_count"), 1);
	assert_string_equal(fx_evidence(f, "bonds_count")->detail, "none over these links");
	/* skipped[] names the bond it passed over (bond, not a port-shaped null object). */
	fx_skipped(&res, "bond.check", "bond0", "no RDMA port on it or its members");
	for (size_t i = 0; i < res.nskipped; i++)
		if (!strcmp(res.skipped[i].id, "bond.check")) {
			assert_string_equal(res.skipped[i].bond, "bond0");
			assert_string_equal(res.skipped[i].device, "");
			assert_string_equal(res.skipped[i].netdev, "");
		}
	rdc_diag_host_free(&host);

	/* Ports of two NICs cannot form RoCE LAG: the fix says so. */
	fx_host(&host, 2);
	fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_port(&host, 1, "mlx5_2", "ens2f0np0", "0000:af:00.0");
	fx_run(&host, "bond.none", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_WARN);
	fx_contains(f->fix, "no two of these ports are known ports of one NIC");
	fx_contains(f->fix, "NCCL_IB_HCA=mlx5_0,mlx5_2");
}

static void test_none_one_or_down(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* One RoCE port: nothing to bond, said as information. */
	fx_host(&host, 1);
	fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_run(&host, "bond.none", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_INFO);
	assert_string_equal(f->title, "one RoCE link (ens1f0np0): no failover path");
	assert_string_equal(f->device, "mlx5_0");
	/* The finding is about the port: the master alone, null. */
	assert_int_equal(f->nevidence, 1);
	fx_ev_null(fx_evidence(f, "master"), "none");
	assert_string_equal(fx_evidence(f, "master")->detail, "");
	rdc_diag_host_free(&host);

	/* Two ports, one down (a spare): not "all up", no finding. */
	two_ports(&host);
	host.ports[1].port.state = 1;
	fx_run(&host, "bond.none", &res);
	fx_none(&res);
	/* InfiniBand ports are no RoCE links: one RoCE link is left. */
	host.ports[1].port.state = 4;
	snprintf(host.ports[1].port.link_layer, sizeof(host.ports[1].port.link_layer),
		 "InfiniBand");
	fx_run(&host, "bond.none", &res);
	f = fx_expect(&res, "bond.none", RDC_SEV_INFO);
	assert_string_equal(f->title, "one RoCE link (ens1f0np0): no failover path");
}

static void test_none_skip(void **state)
{
	(void)state;
	two_ports(&host);
	host.bonds_rc = -EPERM;
	snprintf(host.bonds_reason, sizeof(host.bonds_reason),
		 "RTM_GETLINK: Operation not permitted");
	fx_run(&host, "bond", &res);
	fx_none(&res);
	fx_skipped(&res, "bond.none", "", "bonds not read: RTM_GETLINK: Operation not permitted");
	fx_skipped(&res, "bond.check", "", "bonds not read: RTM_GETLINK: Operation not permitted");
}

/* ---- bond.check ---- */

static void test_good_lag(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	good_lag(&host);
	fx_run(&host, "bond", &res);
	/* Only what informs: the QPs outlive a failover, and the LAG device. */
	assert_int_equal(rdc_findings_worst(&res.findings), RDC_SEV_INFO);
	assert_int_equal(res.findings.count, 2);
	fx_no_skips(&res);
	f = fx_expect(&res, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_string_equal(f->bond, "bond0");
	assert_string_equal(f->device, "mlx5_bond_0");
	assert_int_equal(f->port, 1);
	assert_string_equal(f->netdev, "bond0");
	fx_contains(f->title, "537 ms");
	f = fx_expect(&res, "bond.roce-lag", RDC_SEV_INFO);
	assert_string_equal(f->bond, "bond0");
}

static void test_check_no_facts(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	good_lag(&host);
	free(host.bond_facts);
	host.bond_facts = NULL;
	fx_run(&host, "bond.check", &res);
	/* Without the members' facts the comparisons say what they could not compare. */
	f = fx_expect(&res, "bond.nic-skipped", RDC_SEV_INFO);
	assert_string_equal(f->bond, "bond0");
	fx_contains(f->evidence[0].value, "no facts read");
	/* Each member's PCI function, null: the member and why in the detail. */
	fx_ev_null(fx_evidence(f, "pci"), "unknown");
	assert_string_equal(f->evidence[0].detail, "ens1f0np0: no facts read");
	assert_string_equal(f->evidence[1].name, "pci");
	assert_string_equal(f->evidence[1].detail, "ens1f1np1: no facts read");
	fx_expect(&res, "bond.pfc-skipped", RDC_SEV_INFO);
	assert_int_equal(rdc_findings_worst(&res.findings), RDC_SEV_INFO);
}

static void test_check_policy_params(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	good_lag(&host);
	host.policy.qp_timeout = 20;
	host.policy.qp_retry_cnt = 3;
	fx_run(&host, "bond.check", &res);
	f = fx_expect(&res, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_string_equal(fx_evidence(f, "qp_timeout")->value, "20 (ACK timeout 4.3 s)");
	assert_string_equal(fx_evidence(f, "retry_cnt")->value, "3");
	/* The policy's QP as numbers, the window as the document names it. */
	fx_ev_uint(fx_evidence(f, "qp_timeout"), 20);
	assert_string_equal(fx_evidence(f, "qp_timeout")->detail, "ACK timeout 4.3 s");
	fx_ev_uint(fx_evidence(f, "retry_cnt"), 3);
	fx_ev_real(fx_evidence(f, "qp_survival_s"), 4.096e-6 * 1048576 * 4);
	fx_ev_real(fx_evidence(f, "failover_s"), 0.1);
}

/* ---- the course's design mistakes ---- */

/* 1. An RDMA NIC bonded like a plain NIC: a bond mode the NIC cannot offload as RoCE LAG. */
static void test_mistake_bonded_like_plain_nic(void **state)
{
	const struct rdc_finding *f;
	struct rdc_bond *b;

	(void)state;
	two_ports(&host);
	/* balance-alb, as for any server NIC: the ports stay two RDMA devices on the members. */
	b = add_bond(&host, "bond0", "ens1f0np0", "ens1f1np1");
	b->mode = RDC_BOND_BALANCE_ALB;
	snprintf(b->rdma_reason, sizeof(b->rdma_reason), "no RDMA port's netdev is bond0");
	snprintf(host.ports[0].port.netdev.master, IF_NAMESIZE, "bond0");
	snprintf(host.ports[1].port.netdev.master, IF_NAMESIZE, "bond0");
	add_facts(&host, one_nic);
	fx_run(&host, "bond", &res);
	f = fx_expect(&res, "bond.mode-no-roce-lag", RDC_SEV_FAIL);
	assert_string_equal(f->bond, "bond0");
	fx_contains(f->title, "balance-alb");
	assert_string_equal(f->evidence[0].source, "rtnetlink IFLA_BOND_MODE");
	fx_ev_text(fx_evidence(f, "mode"), "balance-alb");
	assert_string_equal(fx_evidence(f, "mode")->detail, "mode 6");
	fx_contains(f->fix, "rdmactl bond set bond0 mode 802.3ad");
	/* The ports are bonded: bond.none has nothing to say. */
	assert_null(rdc_findings_find(&res.findings, "bond.none"));
	assert_int_equal(rdc_findings_worst(&res.findings), RDC_SEV_FAIL);
}

/* 3a. Failover left to hardware: no MII monitoring. */
static void test_mistake_no_miimon(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	good_lag(&host);
	host.bonds.bonds[0].mode = RDC_BOND_ACTIVE_BACKUP;
	host.bonds.bonds[0].miimon_ms = 0;
	fx_run(&host, "bond.check", &res);
	f = fx_expect(&res, "bond.miimon-off", RDC_SEV_FAIL);
	assert_string_equal(f->bond, "bond0");
	fx_contains(f->title, "nothing detects a failed member");
	assert_string_equal(fx_evidence(f, "miimon_ms")->source, "rtnetlink IFLA_BOND_MIIMON");
	fx_ev_int(fx_evidence(f, "miimon_ms"), 0);
	fx_ev_int(fx_evidence(f, "arp_interval_ms"), 0);
	fx_ev_text(fx_evidence(f, "mode"), "active-backup");
	fx_contains(f->fix, "'rdmactl bond set bond0 miimon 100'");

	/* 802.3ad with slow LACP and no miimon: only LACP notices, after 90 s. */
	host.bonds.bonds[0].mode = RDC_BOND_8023AD;
	host.bonds.bonds[0].lacp_rate = 0;
	fx_run(&host, "bond.check", &res);
	fx_expect(&res, "bond.miimon-off", RDC_SEV_WARN);
	fx_expect(&res, "bond.lacp-slow", RDC_SEV_WARN);
	f = fx_expect(&res, "bond.failover-outlasts-qp", RDC_SEV_FAIL);
	fx_contains(f->title, "use timeout 22 or more");
	fx_ev_text(fx_evidence(f, "lacp_rate"), "slow");
	fx_ev_real(fx_evidence(f, "failover_s"), 90.0);
}

/* 3b. The QP's retry window is shorter than the bond's reaction. */
static void test_mistake_qp_shorter_than_failover(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	good_lag(&host);
	/* miimon 100 + downdelay 400: half a second before the bond moves off a dead member. */
	host.bonds.bonds[0].downdelay_ms = 400;
	host.policy.qp_timeout = 12; /* 134 ms */
	fx_run(&host, "bond.check", &res);
	f = fx_expect(&res, "bond.failover-outlasts-qp", RDC_SEV_FAIL);
	assert_string_equal(f->bond, "bond0");
	fx_contains(f->title, "use timeout 14 or more");
	assert_string_equal(fx_evidence(f, "qp_timeout")->source, "check parameter");
	fx_ev_int(fx_evidence(f, "downdelay_ms"), 400);
	fx_ev_real(fx_evidence(f, "failover_s"), 0.5);
	fx_ev_uint(fx_evidence(f, "qp_timeout"), 12);
	fx_ev_real(fx_evidence(f, "qp_survival_s"), 4.096e-6 * 4096 * 8);
	fx_contains(f->fix, "NCCL_IB_TIMEOUT=14");
	/* The default timeout 14 (537 ms) outlives it. */
	host.policy.qp_timeout = 14;
	fx_run(&host, "bond.check", &res);
	assert_null(rdc_findings_find(&res.findings, "bond.failover-outlasts-qp"));
	fx_expect(&res, "bond.qp-outlives-failover", RDC_SEV_INFO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_story_no_bond, teardown),
		cmocka_unit_test_teardown(test_none_names_and_nics, teardown),
		cmocka_unit_test_teardown(test_none_one_or_down, teardown),
		cmocka_unit_test_teardown(test_none_skip, teardown),
		cmocka_unit_test_teardown(test_good_lag, teardown),
		cmocka_unit_test_teardown(test_check_no_facts, teardown),
		cmocka_unit_test_teardown(test_check_policy_params, teardown),
		cmocka_unit_test_teardown(test_mistake_bonded_like_plain_nic, teardown),
		cmocka_unit_test_teardown(test_mistake_no_miimon, teardown),
		cmocka_unit_test_teardown(test_mistake_qp_shorter_than_failover, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
