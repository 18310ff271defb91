// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_host.c - the `host` diag checks on hosts built by hand: bad, healthy, half-read */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "diag/diag.h"
#include "diag_fixture.h"

/* ---- a host built by hand ------------------------------------------------ */

#define ND "ens1f0np0"
#define ND1 "ens1f1np1"

static struct rdc_diag_host host;
static char local_cpus[] = "0-15"; /* the fixture's device/local_cpulist */
static struct rdc_diag_port ports[3];
static struct rdc_gid gids[1];
static struct rdc_diag_result res; /* 300 KiB: not on the stack */

/*
 * A healthy mlx5 RoCE port at 100G as sample.c would leave it: @nsamples 2
 * is a 5 s window, 1 is `interval 0`.  No counters yet (see counters_healthy).
 */
static void port_healthy(struct rdc_diag_port *p, const char *dev, const char *nd, size_t nsamples)
{
	struct rdc_netif *n = &p->netif;

	memset(p, 0, sizeof(*p));
	rdc_strlcpy(p->port.device, dev, sizeof(p->port.device));
	p->port.port = 1;
	rdc_strlcpy(p->port.fw_ver, "22.39.1002", sizeof(p->port.fw_ver));
	rdc_strlcpy(p->port.hca_type, "MT4125", sizeof(p->port.hca_type));
	rdc_strlcpy(p->port.driver, "mlx5_core", sizeof(p->port.driver));
	rdc_strlcpy(p->port.link_layer, "Ethernet", sizeof(p->port.link_layer));
	p->port.state = 4;
	rdc_strlcpy(p->port.state_name, "ACTIVE", sizeof(p->port.state_name));
	p->port.phys_state = 5;
	rdc_strlcpy(p->port.phys_state_name, "LINK_UP", sizeof(p->port.phys_state_name));
	p->port.rate_gbps = 100;
	p->port.lid = p->port.sm_lid = -1;
	p->port.has_pci = true;
	rdc_strlcpy(p->port.pci.address, "0000:3b:00.0", sizeof(p->port.pci.address));
	p->port.pci.has_link = true;
	p->port.pci.cur_speed_gts = p->port.pci.max_speed_gts = 16.0;
	p->port.pci.cur_width = p->port.pci.max_width = 16;
	p->port.has_netdev = true;
	rdc_strlcpy(p->port.netdev.name, nd, sizeof(p->port.netdev.name));
	p->port.netdev.mtu = 9000;
	rdc_strlcpy(p->port.netdev.operstate, "up", sizeof(p->port.netdev.operstate));
	p->port.netdev.speed_mbps = 100000;
	p->port.active_mtu = 4096;
	p->port.mtu_for_4096 = 4192;
	snprintf(p->label, sizeof(p->label), "%s/1 %s", dev, nd);

	p->nsamples = nsamples;
	p->s[0].t_s = 100.0;
	p->s[1].t_s = 105.0;
	p->s[0].carrier_changes = p->s[1].carrier_changes = 2;

	rdc_strlcpy(n->name, nd, sizeof(n->name));
	n->ifindex = 5;
	n->admin_up = n->carrier = 1;
	n->carrier_changes = 2;
	snprintf(n->carrier_source, sizeof(n->carrier_source), "/sys/class/net/%s/carrier", nd);
	n->have_addrs = true;
	n->arp_ignore = n->arp_announce = n->rp_filter = -1;
	n->have_pause = true;
	n->have_fec = true;
	rdc_strlcpy(n->fec_active, "rs", sizeof(n->fec_active));
	n->have_linkmodes = true;
	n->speed_mbps = n->max_speed_mbps = n->common_speed_mbps = 100000;
	n->have_drvinfo = true;
	rdc_strlcpy(n->driver, "mlx5_core", sizeof(n->driver));
	rdc_strlcpy(n->driver_version, "6.1.0", sizeof(n->driver_version));
	n->irqs_total = 8;
	n->irqs_remote = 0;
	n->local_cpulist = local_cpus;

	p->gid_rc = 0;
	p->gids = gids;
	p->ngids = 1;
}

/* Counter @name: @before in the first sample, @now in the last (the only one with interval 0). */
static void ctr(struct rdc_diag_port *p, enum rdc_diag_set set, const char *group, const char *name,
		uint64_t before, uint64_t now)
{
	for (size_t k = 0; k < p->nsamples; k++) {
		struct rdc_diag_sample *s = &p->s[k];
		struct rdc_counter_set *cs = set == RDC_DIAG_IB	  ? &s->ib
					     : set == RDC_DIAG_HW ? &s->hw
								  : &s->netdev;
		uint64_t v = k + 1 == p->nsamples ? now : before;

		assert_int_equal(rdc_counters_add(cs, group, name, v), 0);
	}
}

/* The PCIe health counters host.pcie-degraded reads, none of them moving. */
static void counters_healthy(struct rdc_diag_port *p)
{
	static const char *const zero_driver[] = {
		"rx_pci_signal_integrity",	  "tx_pci_signal_integrity",
		"outbound_pci_buffer_overflow",	  "outbound_pci_stalled_rd_events",
		"outbound_pci_stalled_wr_events",
	};

	for (size_t i = 0; i < RDC_ARRAY_SIZE(zero_driver); i++)
		ctr(p, RDC_DIAG_NETDEV, "driver", zero_driver[i], 0, 0);
}

/* Two healthy ports, one per PCI function of a dual-port adapter, on a host with its modules. */
static void host_two(size_t nsamples)
{
	memset(&host, 0, sizeof(host));
	rdc_diag_policy_init(&host.policy);
	host.interval_s = nsamples == 2 ? 5.0 : 0.0;
	rdc_strlcpy(host.facts.kernel_release, "6.1.0-18-amd64", sizeof(host.facts.kernel_release));
	host.facts.modules_present = 1;
	host.facts.arp_ignore_all = host.facts.arp_announce_all = host.facts.rp_filter_all = 0;
	port_healthy(&ports[0], "mlx5_0", ND, nsamples);
	port_healthy(&ports[1], "mlx5_1", ND1, nsamples);
	rdc_strlcpy(ports[1].port.pci.address, "0000:3b:00.1", sizeof(ports[1].port.pci.address));
	for (size_t i = 0; i < 2; i++)
		counters_healthy(&ports[i]);
	host.ports = ports;
	host.nports = 2;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(ports); i++)
		for (size_t k = 0; k < 2; k++) {
			rdc_counters_free(&ports[i].s[k].ib);
			rdc_counters_free(&ports[i].s[k].hw);
			rdc_counters_free(&ports[i].s[k].netdev);
		}
	return 0;
}

static void run(const char *only)
{
	struct rdc_err err = {0};
	const char *const names[] = {only};

	rdc_findings_clear(&res.findings);
	assert_int_equal(rdc_diag_run(&host, names, 1, NULL, 0, &res, &err), 0);
}

/* The finding of @id, checked for what every finding must carry. */
static const struct rdc_finding *expect(const char *id, enum rdc_severity sev)
{
	const struct rdc_finding *f = rdc_findings_find(&res.findings, id);

	if (!f)
		fail_msg("no finding %s (%zu findings, %zu skipped)", id, res.findings.count,
			 res.nskipped);
	assert_int_equal(f->severity, sev);
	assert_true(f->title[0]);
	assert_true(f->why[0]);
	assert_true(f->fix[0]);
	assert_true(f->nevidence > 0);
	for (size_t i = 0; i < f->nevidence; i++)
		fx_evidence_ok(f, &f->evidence[i]);
	return f;
}

static const struct rdc_evidence *evidence(const struct rdc_finding *f, const char *name)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (!strcmp(f->evidence[i].name, name))
			return &f->evidence[i];
	fail_msg("finding %s has no evidence '%s'", f->id, name);
	return &f->evidence[0]; /* not reached: fail_msg() jumps out */
}

/* The reason check @id gave for skipping the port labelled @object, or NULL. */
static const char *skipped(const char *id, const char *object)
{
	for (size_t i = 0; i < res.nskipped; i++)
		if (!strcmp(res.skipped[i].id, id) && !strcmp(res.skipped[i].object, object))
			return res.skipped[i].reason;
	return NULL;
}

#define assert_contains(hay, needle)                                                               \
	do {                                                                                       \
		if (!strstr((hay), (needle)))                                                      \
			fail_msg("'%s' does not contain '%s'", (hay), (needle));                   \
	} while (0)

/* ---- the table ------------------------------------------------------------ */

static void test_table(void **state)
{
	static const struct {
		const char *id;
		enum rdc_severity sev;
	} plan[] = {
		{"host.fw-mismatch", RDC_SEV_WARN},   {"host.driver-mismatch", RDC_SEV_WARN},
		{"host.pcie-degraded", RDC_SEV_FAIL}, {"host.numa-irqs", RDC_SEV_WARN},
		{"host.vf-limits", RDC_SEV_INFO},
	};
	const struct rdc_diag_family *fam = rdc_diag_family_find("host");

	(void)state;
	assert_non_null(fam);
	assert_int_equal(fam->count, RDC_ARRAY_SIZE(plan));
	for (size_t i = 0; i < fam->count; i++) {
		const struct rdc_diag_check *c = &fam->checks[i];

		assert_string_equal(c->id, plan[i].id);
		assert_int_equal(c->sev, plan[i].sev);
		assert_true(c->title[0] && c->reads[0] && c->threshold[0]);
		assert_non_null(c->run);
		assert_ptr_equal(rdc_diag_check_find(c->id), c);
	}
}

/* ---- a healthy host says nothing ---------------------------------------- */

static void test_healthy(void **state)
{
	(void)state;
	for (size_t nsamples = 1; nsamples <= 2; nsamples++) {
		host_two(nsamples);
		run("host");
		assert_int_equal(res.nran, 5);
		if (res.findings.count)
			fail_msg("%zu samples: unexpected %s: %s", nsamples,
				 res.findings.items[0].id, res.findings.items[0].title);
		if (res.nskipped)
			fail_msg("%zu samples: unexpected skip %s: %s", nsamples, res.skipped[0].id,
				 res.skipped[0].reason);
		teardown(NULL);
	}
}

/* ---- host.fw-mismatch ----------------------------------------------------- */

static void test_fw_mismatch(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_two(2);
	rdc_strlcpy(ports[1].port.fw_ver, "22.36.1010", sizeof(ports[1].port.fw_ver));
	/* A ConnectX-6 (another model, its own version line) is compared with no one. */
	port_healthy(&ports[2], "mlx5_2", "ens2f0np0", 2);
	rdc_strlcpy(ports[2].port.hca_type, "MT4123", sizeof(ports[2].port.hca_type));
	rdc_strlcpy(ports[2].port.fw_ver, "20.31.1014", sizeof(ports[2].port.fw_ver));
	rdc_strlcpy(ports[0].port.board_id, "MT_0000000359", sizeof(ports[0].port.board_id));
	host.nports = 3;
	run("host.fw-mismatch");
	assert_int_equal(res.findings.count, 1);
	f = expect("host.fw-mismatch", RDC_SEV_WARN);
	/* About the host, not one port. */
	assert_string_equal(f->device, "");
	assert_string_equal(f->netdev, "");
	assert_contains(f->title, "2 MT4125 adapters run 2 firmware versions");
	assert_contains(f->title, "mlx5_0 22.39.1002");
	assert_contains(f->title, "mlx5_1 22.36.1010");
	/* Each device's fw_ver and board_id (the device in the detail), the model once. */
	assert_int_equal(f->nevidence, 5);
	assert_string_equal(fx_evidence_of(f, "fw_ver", "mlx5_1")->source,
			    "/sys/class/infiniband/mlx5_1/fw_ver");
	fx_ev_text(fx_evidence_of(f, "fw_ver", "mlx5_1"), "22.36.1010");
	fx_ev_text(fx_evidence_of(f, "fw_ver", "mlx5_0"), "22.39.1002");
	fx_ev_text(evidence(f, "hca_type"), "MT4125");
	fx_ev_text(fx_evidence_of(f, "board_id", "mlx5_0"), "MT_0000000359");
	fx_ev_null(fx_evidence_of(f, "board_id", "mlx5_1"), "not read");
	assert_contains(f->fix, "mlxfwmanager");

	/* The second port of a device is the same firmware, not another adapter. */
	port_healthy(&ports[2], "mlx5_1", ND1, 2);
	ports[2].port.port = 2;
	rdc_strlcpy(ports[2].port.fw_ver, "22.36.1010", sizeof(ports[2].port.fw_ver));
	run("host.fw-mismatch");
	f = expect("host.fw-mismatch", RDC_SEV_WARN);
	assert_contains(f->title, "2 MT4125 adapters");
	assert_int_equal(f->nevidence, 5);

	/* A PCI device whose fw_ver is unreadable, and one without hca_type: skipped. */
	host.nports = 2;
	ports[1].port.fw_ver[0] = '\0';
	ports[0].port.hca_type[0] = '\0';
	run("host.fw-mismatch");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("host.fw-mismatch", "mlx5_1/1 " ND1), "fw_ver could not be read");
	assert_contains(skipped("host.fw-mismatch", "mlx5_0/1 " ND), "no hca_type");

	/* A software device has no firmware: nothing to say. */
	ports[0].port.has_pci = ports[1].port.has_pci = false;
	ports[0].port.fw_ver[0] = '\0';
	run("host.fw-mismatch");
	assert_int_equal(res.findings.count, 0);
	assert_int_equal(res.nskipped, 0);
	teardown(NULL);
}

/* ---- host.driver-mismatch ------------------------------------------------- */

static void test_driver_mismatch(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_two(2);
	host.facts.modules_present = 0;
	run("host.driver-mismatch");
	assert_int_equal(res.findings.count, 1);
	f = expect("host.driver-mismatch", RDC_SEV_WARN);
	assert_string_equal(f->device, "");
	assert_contains(f->title, "/lib/modules/6.1.0-18-amd64 is missing");
	assert_string_equal(evidence(f, "osrelease")->source, "/proc/sys/kernel/osrelease");
	fx_ev_text(evidence(f, "osrelease"), "6.1.0-18-amd64");
	assert_string_equal(evidence(f, "modules_present")->source, "/lib/modules/6.1.0-18-amd64");
	fx_ev_bool(evidence(f, "modules_present"), false);
	assert_contains(f->why, "reboot is pending");
	assert_contains(f->fix, "reboot");

	/* Unknown: skipped about the host (no object). */
	host.facts.modules_present = -1;
	host.facts.kernel_release[0] = '\0';
	run("host.driver-mismatch");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("host.driver-mismatch", ""), "osrelease");

	/* One driver, two versions. */
	host.facts.modules_present = 1;
	rdc_strlcpy(ports[1].netif.driver_version, "24.01-0.3.3",
		    sizeof(ports[1].netif.driver_version));
	run("host.driver-mismatch");
	f = expect("host.driver-mismatch", RDC_SEV_WARN);
	assert_contains(f->title, "driver mlx5_core reports 2 versions: 6.1.0, 24.01-0.3.3");
	/* The driver once, each netdev's version (the netdev in the detail). */
	fx_ev_text(evidence(f, "driver"), "mlx5_core");
	assert_string_equal(fx_evidence_of(f, "driver_version", ND1)->source,
			    "ETHTOOL_GDRVINFO " ND1);
	fx_ev_text(fx_evidence_of(f, "driver_version", ND1), "24.01-0.3.3");
	fx_ev_text(fx_evidence_of(f, "driver_version", ND), "6.1.0");
	teardown(NULL);
}

/* ---- host.pcie-degraded --------------------------------------------------- */

static void test_pcie_degraded(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* Gen4 x16 adapter trained at Gen3 x8; the second port shares the function. */
	host_two(2);
	ports[0].port.pci.cur_speed_gts = 8.0;
	ports[0].port.pci.cur_width = 8;
	ports[0].port.pci.degraded = true;
	ports[1].port.pci = ports[0].port.pci;
	run("host.pcie-degraded");
	assert_int_equal(res.findings.count, 1);
	f = expect("host.pcie-degraded", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_0");
	assert_contains(f->title, "8.0 GT/s x8, below its 16.0 GT/s x16");
	assert_string_equal(evidence(f, "current_width")->source,
			    "/sys/bus/pci/devices/0000:3b:00.0/current_link_width");
	fx_ev_int(evidence(f, "current_width"), 8);
	fx_ev_int(evidence(f, "max_width"), 16);
	assert_string_equal(evidence(f, "current_speed_gts")->source,
			    "/sys/bus/pci/devices/0000:3b:00.0/current_link_speed");
	fx_ev_real(evidence(f, "current_speed_gts"), 8.0);
	fx_ev_real(evidence(f, "max_speed_gts"), 16.0);
	fx_ev_real(evidence(f, "port_rate_gbps"), 100.0);

	/* A maximum sysfs did not give is null, never 0 GT/s. */
	ports[0].port.pci.max_speed_gts = 0;
	run("host.pcie-degraded");
	f = expect("host.pcie-degraded", RDC_SEV_FAIL);
	fx_ev_null(evidence(f, "max_speed_gts"), "not read");
	fx_ev_int(evidence(f, "max_width"), 16);
	/* 8 GT/s x8 with 128b/130b is about 63 Gb/s for a 100 Gb/s port. */
	assert_contains(f->why, "about 63 Gb/s");
	assert_contains(f->fix, "lspci -vv -s 0000:3b:00.0");
	teardown(NULL);

	/* A healthy link with signal integrity errors in the window: a warning. */
	host_two(2);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_pci_signal_integrity", 3, 10);
	run("host.pcie-degraded");
	f = expect("host.pcie-degraded", RDC_SEV_WARN);
	assert_contains(f->title, "in the last 5.0 s: rx_pci_signal_integrity +7");
	assert_string_equal(evidence(f, "rx_pci_signal_integrity")->source,
			    "ethtool -S " ND " (ETHTOOL_GSTATS)");
	fx_ev_window(evidence(f, "rx_pci_signal_integrity"), 7, 5.0, 10);
	teardown(NULL);

	/* interval 0: the count since the reset. */
	host_two(1);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "outbound_pci_stalled_rd_events", 0, 4);
	run("host.pcie-degraded");
	f = expect("host.pcie-degraded", RDC_SEV_WARN);
	assert_contains(f->title,
			"since the counters were reset: outbound_pci_stalled_rd_events 4");
	fx_ev_counter(evidence(f, "outbound_pci_stalled_rd_events"), 4);
	teardown(NULL);

	/* A software device, and a function without link files or counters: skipped. */
	ports[0].port.has_pci = false;
	ports[1].port.pci.has_link = false;
	run("host.pcie-degraded");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("host.pcie-degraded", "mlx5_0/1 " ND), "no PCI function");
	assert_contains(skipped("host.pcie-degraded", "mlx5_1/1 " ND1),
			"0000:3b:00.1 has no PCIe link");
	teardown(NULL);
}

/* ---- host.numa-irqs ------------------------------------------------------- */

static void test_numa_irqs(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_two(2);
	ports[0].netif.irqs_remote = 3;
	ports[0].port.pci.numa_node = 0;
	run("host.numa-irqs");
	assert_int_equal(res.findings.count, 1);
	f = expect("host.numa-irqs", RDC_SEV_WARN);
	assert_string_equal(f->netdev, ND);
	assert_contains(f->title, "3 of 8 IRQs of " ND);
	assert_contains(f->title, "CPUs 0-15");
	assert_string_equal(evidence(f, "local_cpulist")->source,
			    "/sys/class/net/" ND "/device/local_cpulist");
	fx_ev_text(evidence(f, "local_cpulist"), "0-15");
	fx_ev_int(evidence(f, "numa_node"), 0);
	fx_ev_int(evidence(f, "remote_irqs"), 3);
	fx_ev_int(evidence(f, "irqs"), 8);
	assert_string_equal(evidence(f, "irqs")->source, "/sys/class/net/" ND "/device/msi_irqs");
	assert_contains(f->fix, "set_irq_affinity_cpulist.sh 0-15 " ND);

	/* Unreadable IRQs, and a bond (RoCE LAG) that has none of its own: skipped. */
	ports[0].netif.irqs_total = ports[0].netif.irqs_remote = -1;
	ports[1].netif.irqs_total = ports[1].netif.irqs_remote = -1;
	ports[1].port.netdev.is_bond = true;
	run("host.numa-irqs");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("host.numa-irqs", "mlx5_0/1 " ND), "msi_irqs could not be read");
	assert_contains(skipped("host.numa-irqs", "mlx5_1/1 " ND1), "is a bond");

	/* No local_cpulist: nothing to compare with. */
	ports[0].netif.irqs_total = 8;
	run("host.numa-irqs");
	assert_contains(skipped("host.numa-irqs", "mlx5_0/1 " ND), "local_cpulist");
	teardown(NULL);
}

/* ---- host.vf-limits ------------------------------------------------------- */

static void test_vf_limits(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_two(2);
	ports[0].netif.is_vf = true;
	ports[1].ngids = 0; /* a RoCE port in a namespace that shows it no address */
	run("host.vf-limits");
	assert_int_equal(res.findings.count, 2);
	f = expect("host.vf-limits", RDC_SEV_INFO);
	assert_string_equal(f->netdev, ND);
	assert_contains(f->title, "SR-IOV virtual function");
	assert_string_equal(evidence(f, "is_vf")->source, "/sys/class/net/" ND "/device/physfn");
	fx_ev_bool(evidence(f, "is_vf"), true);
	/* The PF is on another host: words, not a command with a placeholder. */
	assert_contains(f->fix,
			"'rdmactl pfc apply' of the PF's netdev with profile roce-lossless");
	assert_int_equal(f->fix_argv.argc, 0);
	f = &res.findings.items[1];
	assert_int_equal(f->severity, RDC_SEV_INFO);
	assert_string_equal(f->device, "mlx5_1");
	assert_contains(f->title, "GID table of mlx5_1/1 is empty");
	fx_ev_uint(evidence(f, "gids_in_use"), 0);
	assert_string_equal(evidence(f, "gids_in_use")->detail, "every entry is zero");
	assert_contains(f->fix, "('rdma dev set mlx5_1 netns' and its name)");

	/* An unreadable GID table is not an empty one; a port without netdev is skipped. */
	ports[0].netif.is_vf = false;
	ports[1].gid_rc = -EACCES;
	ports[0].port.has_netdev = false;
	rdc_strlcpy(ports[0].label, "mlx5_0/1", sizeof(ports[0].label));
	run("host.vf-limits");
	assert_int_equal(res.findings.count, 0);
	assert_string_equal(skipped("host.vf-limits", "mlx5_0/1"), "the port has no netdev");
	teardown(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test_teardown(test_healthy, teardown),
		cmocka_unit_test_teardown(test_fw_mismatch, teardown),
		cmocka_unit_test_teardown(test_driver_mismatch, teardown),
		cmocka_unit_test_teardown(test_pcie_degraded, teardown),
		cmocka_unit_test_teardown(test_numa_irqs, teardown),
		cmocka_unit_test_teardown(test_vf_limits, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
