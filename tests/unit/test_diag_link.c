// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_link.c - the `link` diag checks on hosts built by hand: bad, healthy, half-read */
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

static struct rdc_diag_host host;
static struct rdc_diag_port ports[2];
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
	n->local_cpulist = strdup("0-15"); /* teardown()'s rdc_netif_free() frees it */

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

/* Every counter the link checks read, none of them moving (the PHY bits do: they count idle). */
static void counters_healthy(struct rdc_diag_port *p)
{
	static const char *const zero_driver[] = {
		"rx_crc_errors_phy",	"rx_symbol_err_phy",	   "rx_pcs_symbol_err_phy",
		"rx_oversize_pkts_phy", "rx_out_of_range_len_phy", "module_high_temp",
		"module_bad_shorted",	"module_bus_stuck",
	};

	for (size_t i = 0; i < RDC_ARRAY_SIZE(zero_driver); i++)
		ctr(p, RDC_DIAG_NETDEV, "driver", zero_driver[i], 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "driver", "link_down_events_phy", 1, 1);
	ctr(p, RDC_DIAG_NETDEV, "driver", "rx_corrected_bits_phy", 10, 12);
	ctr(p, RDC_DIAG_NETDEV, "driver", "rx_bits_phy", 1000000000000ULL, 1500000000000ULL);
	ctr(p, RDC_DIAG_NETDEV, "netdev", "rx_crc_errors", 0, 0);
	ctr(p, RDC_DIAG_IB, "ib", "symbol_error", 0, 0);
	ctr(p, RDC_DIAG_IB, "ib", "link_downed", 0, 0);
}

/* One healthy port with all its counters. */
static void host_one(size_t nsamples)
{
	memset(&host, 0, sizeof(host));
	rdc_diag_policy_init(&host.policy);
	host.interval_s = nsamples == 2 ? 5.0 : 0.0;
	port_healthy(&ports[0], "mlx5_0", ND, nsamples);
	counters_healthy(&ports[0]);
	host.ports = ports;
	host.nports = 1;
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
	for (size_t i = 0; i < RDC_ARRAY_SIZE(ports); i++)
		rdc_netif_free(&ports[i].netif);
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
		{"link.port-not-active", RDC_SEV_FAIL},
		{"link.no-carrier", RDC_SEV_FAIL},
		{"link.flapping", RDC_SEV_FAIL},
		{"link.speed-below-capability", RDC_SEV_WARN},
		{"link.pre-fec-ber", RDC_SEV_WARN},
		{"link.crc-errors", RDC_SEV_FAIL},
		{"link.fec-off", RDC_SEV_WARN},
		{"link.mtu", RDC_SEV_FAIL},
		{"link.transceiver", RDC_SEV_FAIL},
	};
	const struct rdc_diag_family *fam = rdc_diag_family_find("link");

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
	/* Thresholds from the policy name their key. */
	assert_contains(rdc_diag_check_find("link.flapping")->threshold, "(carrier-changes-warn)");
	assert_contains(rdc_diag_check_find("link.pre-fec-ber")->threshold, "(pre-fec-ber-warn)");
}

/* ---- healthy ports say nothing --------------------------------------------- */

static void test_healthy(void **state)
{
	(void)state;
	for (size_t nsamples = 1; nsamples <= 2; nsamples++) {
		host_one(nsamples);
		run("link");
		assert_int_equal(res.nran, 9);
		if (res.findings.count)
			fail_msg("%zu samples: unexpected %s: %s", nsamples,
				 res.findings.items[0].id, res.findings.items[0].title);
		if (res.nskipped)
			fail_msg("%zu samples: unexpected skip %s: %s", nsamples, res.skipped[0].id,
				 res.skipped[0].reason);
		teardown(NULL);
	}
}

/* ---- link.port-not-active ----------------------------------------------- */

static void test_port_not_active(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	/* A RoCE port whose netdev was set down, and an InfiniBand port waiting for its SM. */
	ports[0].port.state = 1;
	rdc_strlcpy(ports[0].port.state_name, "DOWN", sizeof(ports[0].port.state_name));
	ports[0].port.phys_state = 3;
	rdc_strlcpy(ports[0].port.phys_state_name, "DISABLED",
		    sizeof(ports[0].port.phys_state_name));
	ports[0].netif.admin_up = 0;
	port_healthy(&ports[1], "mlx5_2", "ib0", 2);
	rdc_strlcpy(ports[1].port.link_layer, "InfiniBand", sizeof(ports[1].port.link_layer));
	ports[1].port.state = 2;
	rdc_strlcpy(ports[1].port.state_name, "INIT", sizeof(ports[1].port.state_name));
	host.nports = 2;

	run("link.port-not-active");
	assert_int_equal(res.findings.count, 2);
	f = expect("link.port-not-active", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_0");
	assert_int_equal(f->port, 1);
	assert_string_equal(f->netdev, ND);
	assert_contains(f->title, "DOWN");
	assert_contains(f->title, "DISABLED");
	assert_string_equal(evidence(f, "state")->source,
			    "/sys/class/infiniband/mlx5_0/ports/1/state");
	/* port show's word, the kernel's number in the detail. */
	fx_ev_text(evidence(f, "state"), "DOWN");
	assert_string_equal(evidence(f, "state")->detail, "PortState 1");
	assert_string_equal(evidence(f, "state")->value, "DOWN (PortState 1)");
	fx_ev_text(evidence(f, "phys_state"), "DISABLED");
	assert_string_equal(evidence(f, "phys_state")->detail, "PortPhysicalState 3");
	fx_ev_text(evidence(f, "operstate"), "up");
	assert_string_equal(evidence(f, "operstate")->source, "/sys/class/net/" ND "/operstate");
	assert_contains(f->fix, "rdmactl port set " ND " up");

	f = &res.findings.items[1];
	assert_string_equal(f->device, "mlx5_2");
	assert_contains(f->title, "INIT");
	assert_contains(f->why, "subnet manager");
	assert_contains(f->fix, "opensm");

	/* Unknown state: skipped with the file that could not be read. */
	ports[0].port.state = -1;
	host.nports = 1;
	run("link.port-not-active");
	assert_int_equal(res.findings.count, 0);
	assert_non_null(skipped("link.port-not-active", "mlx5_0/1 " ND));
	assert_contains(skipped("link.port-not-active", "mlx5_0/1 " ND), "ports/1/state");
	teardown(NULL);
}

/* ---- link.no-carrier ------------------------------------------------------ */

static void test_no_carrier(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	ports[0].netif.carrier = 0;
	rdc_strlcpy(ports[0].port.netdev.operstate, "down", sizeof(ports[0].port.netdev.operstate));
	run("link.no-carrier");
	f = expect("link.no-carrier", RDC_SEV_FAIL);
	assert_contains(f->title, "no carrier");
	assert_string_equal(evidence(f, "carrier")->source, "/sys/class/net/" ND "/carrier");
	fx_ev_bool(evidence(f, "carrier"), false);
	fx_ev_bool(evidence(f, "admin_up"), true);
	fx_ev_text(evidence(f, "operstate"), "down");
	assert_contains(f->fix, "ethtool " ND);

	/* An operstate that could not be read: "?" in the title, null evidence. */
	ports[0].port.netdev.operstate[0] = '\0';
	run("link.no-carrier");
	f = expect("link.no-carrier", RDC_SEV_FAIL);
	assert_contains(f->title, "(operstate ?)");
	fx_ev_null(evidence(f, "operstate"), "not read");

	/* Administratively down: the carrier is unknown then, the fix is ours. */
	ports[0].netif.admin_up = 0;
	ports[0].netif.carrier = -1;
	run("link.no-carrier");
	f = expect("link.no-carrier", RDC_SEV_FAIL);
	assert_contains(f->title, "administratively down");
	assert_string_equal(evidence(f, "admin_up")->source, "/sys/class/net/" ND "/flags");
	fx_ev_bool(evidence(f, "admin_up"), false);
	assert_string_equal(evidence(f, "admin_up")->detail, "IFF_UP clear");
	assert_string_equal(f->fix, "'rdmactl port set " ND " up'");

	/* Nothing read: skipped, not failed; a port without netdev too. */
	ports[0].netif.admin_up = -1;
	run("link.no-carrier");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("link.no-carrier", "mlx5_0/1 " ND), "could not be read");
	ports[0].port.has_netdev = false;
	rdc_strlcpy(ports[0].label, "mlx5_0/1", sizeof(ports[0].label));
	run("link.no-carrier");
	assert_string_equal(skipped("link.no-carrier", "mlx5_0/1"), "the port has no netdev");
	teardown(NULL);
}

/* ---- link.flapping ---------------------------------------------------- */

static void test_flapping_window(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	teardown(NULL);
	/* Two link losses in the window: the PHY counter and the carrier both moved. */
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "link_down_events_phy", 1, 3);
	ctr(&ports[0], RDC_DIAG_IB, "ib", "link_downed", 0, 0);
	ports[0].s[0].carrier_changes = 2;
	ports[0].s[1].carrier_changes = 6;
	run("link.flapping");
	assert_int_equal(res.findings.count, 1);
	f = expect("link.flapping", RDC_SEV_FAIL);
	assert_contains(f->title, "5.0 s");
	assert_contains(f->title, "link_down_events_phy +2");
	assert_contains(f->title, "carrier changes +4");
	assert_string_equal(evidence(f, "link_down_events_phy")->source,
			    "ethtool -S " ND " (ETHTOOL_GSTATS)");
	fx_ev_window(evidence(f, "link_down_events_phy"), 2, 5.0, 3);
	assert_string_equal(evidence(f, "link_down_events_phy")->value, "+2 in 5.0 s (now 3)");
	assert_string_equal(evidence(f, "link_downed")->source,
			    "/sys/class/infiniband/mlx5_0/ports/1/counters/link_downed");
	fx_ev_window(evidence(f, "link_downed"), 0, 5.0, 0);
	assert_string_equal(evidence(f, "carrier_changes")->source,
			    "/sys/class/net/" ND "/carrier_changes");
	fx_ev_window(evidence(f, "carrier_changes"), 4, 5.0, 6);
	assert_contains(f->fix, "rdmactl port set " ND " down");

	/* Only the IB counter moved (an InfiniBand port has no PHY counter). */
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_IB, "ib", "link_downed", 4, 5);
	ports[0].s[1].carrier_changes = 2;
	run("link.flapping");
	f = expect("link.flapping", RDC_SEV_FAIL);
	assert_contains(f->title, "link_downed +1");
	teardown(NULL);
}

static void test_flapping_cumulative(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* interval 0: 40 carrier changes since boot warn (policy 10)... */
	host_one(1);
	ports[0].s[0].carrier_changes = ports[0].netif.carrier_changes = 40;
	run("link.flapping");
	f = expect("link.flapping", RDC_SEV_WARN);
	assert_contains(f->title, "40 carrier changes since boot");
	assert_true(f->since_reset);
	fx_ev_counter(evidence(f, "carrier_changes"), 40);
	assert_string_equal(evidence(f, "carrier_changes")->value,
			    "40 (since the counter's reset)");
	fx_ev_uint(evidence(f, "carrier-changes-warn"), 10);
	assert_string_equal(evidence(f, "carrier-changes-warn")->source, "policy");
	assert_contains(f->fix, "rdmactl diag run " ND " interval 60 check link.flapping");

	/* ...but not under a policy that allows 50. */
	host.policy.carrier_changes_warn = 50;
	run("link.flapping");
	assert_int_equal(res.findings.count, 0);
	assert_int_equal(res.nskipped, 0);

	/* Two quiet samples still warn about the count since boot. */
	teardown(NULL);
	host_one(2);
	ports[0].s[0].carrier_changes = ports[0].s[1].carrier_changes = 40;
	run("link.flapping");
	assert_true(expect("link.flapping", RDC_SEV_WARN)->since_reset);
	teardown(NULL);
}

static void test_flapping_skips(void **state)
{
	const char *why;

	(void)state;
	/* interval 0 without carrier_changes: the PHY counters alone give no window. */
	host_one(1);
	ports[0].s[0].carrier_changes = ports[0].netif.carrier_changes = -1;
	run("link.flapping");
	assert_int_equal(res.findings.count, 0);
	why = skipped("link.flapping", "mlx5_0/1 " ND);
	assert_non_null(why);
	assert_contains(why, "interval 0");
	teardown(NULL);

	/* Two samples: the counters were judged (quiet), nothing skipped. */
	host_one(2);
	ports[0].s[0].carrier_changes = ports[0].s[1].carrier_changes = -1;
	ports[0].netif.carrier_changes = -1;
	run("link.flapping");
	assert_int_equal(res.findings.count, 0);
	assert_int_equal(res.nskipped, 0);

	/* Two samples and no counter at all. */
	teardown(NULL);
	run("link.flapping");
	assert_contains(skipped("link.flapping", "mlx5_0/1 " ND), "no carrier_changes");
	teardown(NULL);
}

/* ---- link.speed-below-capability ------------------------------------------ */

static void test_speed(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	ports[0].netif.speed_mbps = 25000;
	run("link.speed-below-capability");
	f = expect("link.speed-below-capability", RDC_SEV_WARN);
	assert_contains(f->title, "25000 Mb/s");
	assert_contains(f->title, "both ends support 100000");
	assert_string_equal(evidence(f, "speed_mbps")->source, "ETHTOOL_GLINKSETTINGS " ND);
	fx_ev_int(evidence(f, "speed_mbps"), 25000);
	fx_ev_int(evidence(f, "max_speed_mbps"), 100000);
	fx_ev_int(evidence(f, "common_speed_mbps"), 100000);
	assert_contains(f->fix, "ethtool -s " ND " speed 100000 autoneg on");

	/* The partner's modes unknown: our own maximum, said as such; the common one null. */
	ports[0].netif.common_speed_mbps = -1;
	run("link.speed-below-capability");
	f = expect("link.speed-below-capability", RDC_SEV_WARN);
	assert_contains(f->title, "below its own 100000");
	fx_ev_null(evidence(f, "common_speed_mbps"), "not reported");
	assert_contains(evidence(f, "common_speed_mbps")->detail, "link partner's modes");

	/* No link settings: skipped with the reading's reason. */
	ports[0].netif.have_linkmodes = false;
	ports[0].netif.linkmodes_reason = strdup("no kernel recording"); /* teardown() */
	run("link.speed-below-capability");
	assert_int_equal(res.findings.count, 0);
	assert_string_equal(skipped("link.speed-below-capability", "mlx5_0/1 " ND),
			    "link settings: no kernel recording");

	/* No link: no speed to judge. */
	ports[0].netif.have_linkmodes = true;
	ports[0].netif.speed_mbps = -1;
	run("link.speed-below-capability");
	assert_contains(skipped("link.speed-below-capability", "mlx5_0/1 " ND), "no link");
	teardown(NULL);
}

/* ---- link.pre-fec-ber ---------------------------------------------------- */

static void test_pre_fec_ber(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* 100000 corrected bits of 5e11 in the window: 2e-7, above 1e-8. */
	host_one(2);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_corrected_bits_phy", 5, 100005);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_bits_phy", 0, 500000000000ULL);
	run("link.pre-fec-ber");
	f = expect("link.pre-fec-ber", RDC_SEV_WARN);
	assert_contains(f->title, "pre-FEC BER 2e-07 in the last 5.0 s");
	assert_string_equal(evidence(f, "rx_corrected_bits_phy")->value,
			    "+100000 in 5.0 s (now 100005)");
	fx_ev_window(evidence(f, "rx_corrected_bits_phy"), 100000, 5.0, 100005);
	fx_ev_window(evidence(f, "rx_bits_phy"), 500000000000ULL, 5.0, 500000000000ULL);
	fx_ev_real(evidence(f, "pre_fec_ber"), 2e-7);
	assert_string_equal(evidence(f, "pre-fec-ber-warn")->source, "policy");
	fx_ev_real(evidence(f, "pre-fec-ber-warn"), 1e-8);

	/* A looser policy: nothing. */
	host.policy.pre_fec_ber_warn = 1e-6;
	run("link.pre-fec-ber");
	assert_int_equal(res.findings.count, 0);
	teardown(NULL);

	/* No rx_bits_phy: the line rate times the window stands in (100G x 5 s = 5e11). */
	rdc_diag_policy_init(&host.policy);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_corrected_bits_phy", 0, 100000);
	run("link.pre-fec-ber");
	f = expect("link.pre-fec-ber", RDC_SEV_WARN);
	assert_contains(f->title, "2e-07");
	fx_ev_uint(evidence(f, "rx_bits_estimated"), 500000000000ULL);
	assert_contains(evidence(f, "rx_bits_estimated")->detail, "5.0 s window");
	fx_ev_int(evidence(f, "speed_mbps"), 100000);
	teardown(NULL);

	/* ...which one sample cannot do: skipped, saying why. */
	host_one(1);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_corrected_bits_phy", 0, 100000);
	run("link.pre-fec-ber");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("link.pre-fec-ber", "mlx5_0/1 " ND), "no rx_bits_phy");

	/* Not mlx5: no corrected-bits counter at all. */
	teardown(NULL);
	run("link.pre-fec-ber");
	assert_contains(skipped("link.pre-fec-ber", "mlx5_0/1 " ND), "rx_corrected_bits_phy");
	teardown(NULL);
}

/* ---- link.crc-errors ------------------------------------------------------ */

static void test_crc_errors(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* New errors in the window fail. */
	host_one(2);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_crc_errors_phy", 5, 17);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_pcs_symbol_err_phy", 0, 3);
	ctr(&ports[0], RDC_DIAG_NETDEV, "netdev", "rx_crc_errors", 5, 5);
	run("link.crc-errors");
	f = expect("link.crc-errors", RDC_SEV_FAIL);
	assert_contains(f->title, "in the last 5.0 s");
	assert_contains(f->title, "rx_crc_errors_phy +12");
	assert_contains(f->title, "rx_pcs_symbol_err_phy +3");
	/* Only the counters that moved are evidence. */
	assert_int_equal(f->nevidence, 2);
	assert_string_equal(evidence(f, "rx_crc_errors_phy")->value, "+12 in 5.0 s (now 17)");
	fx_ev_window(evidence(f, "rx_crc_errors_phy"), 12, 5.0, 17);
	fx_ev_window(evidence(f, "rx_pcs_symbol_err_phy"), 3, 5.0, 3);
	assert_contains(f->fix, "ethtool -m " ND);
	teardown(NULL);

	/* Old errors and a quiet window: nothing. */
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_crc_errors_phy", 17, 17);
	run("link.crc-errors");
	assert_int_equal(res.findings.count, 0);
	assert_int_equal(res.nskipped, 0);
	teardown(NULL);

	/* interval 0: errors since the reset only warn, and the fix measures. */
	host_one(1);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "netdev", "rx_crc_errors", 0, 17);
	run("link.crc-errors");
	f = expect("link.crc-errors", RDC_SEV_WARN);
	assert_contains(f->title, "since the counters were reset: rx_crc_errors 17");
	assert_string_equal(evidence(f, "rx_crc_errors")->source,
			    "/sys/class/net/" ND "/statistics/rx_crc_errors");
	fx_ev_counter(evidence(f, "rx_crc_errors"), 17);
	assert_contains(f->fix, "rdmactl diag run " ND " interval 60 check link.crc-errors");
	teardown(NULL);

	/* No error counter at all. */
	run("link.crc-errors");
	assert_contains(skipped("link.crc-errors", "mlx5_0/1 " ND), "no CRC");
	teardown(NULL);
}

/* ---- link.fec-off --------------------------------------------------------- */

static void test_fec_off(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	rdc_strlcpy(ports[0].netif.fec_active, "off", sizeof(ports[0].netif.fec_active));
	run("link.fec-off");
	f = expect("link.fec-off", RDC_SEV_WARN);
	assert_contains(f->title, "100000 Mb/s");
	assert_string_equal(evidence(f, "active_fec")->source, "ETHTOOL_GFECPARAM " ND);
	fx_ev_text(evidence(f, "active_fec"), "off");
	fx_ev_int(evidence(f, "speed_mbps"), 100000);
	assert_contains(f->fix, "ethtool --set-fec " ND " encoding rs");

	/* 10G needs no FEC. */
	ports[0].netif.speed_mbps = 10000;
	run("link.fec-off");
	assert_int_equal(res.findings.count, 0);

	/* "none": the driver has no FEC settings; unread: its reason. */
	rdc_strlcpy(ports[0].netif.fec_active, "none", sizeof(ports[0].netif.fec_active));
	run("link.fec-off");
	assert_contains(skipped("link.fec-off", "mlx5_0/1 " ND), "no FEC settings");
	ports[0].netif.have_fec = false;
	ports[0].netif.fec_reason = strdup("the driver does not support it (EOPNOTSUPP)");
	run("link.fec-off");
	assert_string_equal(skipped("link.fec-off", "mlx5_0/1 " ND),
			    "FEC: the driver does not support it (EOPNOTSUPP)");
	teardown(NULL);
}

/* ---- link.mtu ------------------------------------------------------------- */

static void test_mtu(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* netdev MTU 1500: RoCE runs at 1024. */
	host_one(2);
	ports[0].port.netdev.mtu = 1500;
	ports[0].port.active_mtu = 1024;
	ports[0].port.active_mtu_limited = true;
	run("link.mtu");
	f = expect("link.mtu", RDC_SEV_WARN);
	assert_contains(f->title, "active MTU is 1024");
	assert_contains(f->title, "1500");
	assert_contains(f->title, "4192");
	assert_string_equal(evidence(f, "mtu_bytes")->source, "/sys/class/net/" ND "/mtu");
	fx_ev_int(evidence(f, "mtu_bytes"), 1500);
	fx_ev_int(evidence(f, "active_mtu_bytes"), 1024);
	fx_ev_int(evidence(f, "mtu_bytes_for_4096"), 4192);
	assert_contains(f->fix, "rdmactl port set " ND " mtu 9000");
	teardown(NULL);

	/* Oversize frames in the window: the peer's MTU is bigger. */
	ports[0].port.active_mtu_limited = false;
	ports[0].port.active_mtu = 4096;
	ports[0].port.netdev.mtu = 4200;
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "rx_oversize_pkts_phy", 0, 40);
	run("link.mtu");
	f = expect("link.mtu", RDC_SEV_FAIL);
	assert_contains(f->title, "rx_oversize_pkts_phy +40");
	fx_ev_window(evidence(f, "rx_oversize_pkts_phy"), 40, 5.0, 40);
	fx_ev_int(evidence(f, "mtu_bytes"), 4200);
	/* The peer's MTU is not known here: words, no command. */
	assert_contains(f->fix, "'rdmactl port set " ND " mtu' with the peer's MTU");
	assert_int_equal(f->fix_argv.argc, 0);
	teardown(NULL);

	/* InfiniBand: the SM's business. */
	rdc_strlcpy(ports[0].port.link_layer, "InfiniBand", sizeof(ports[0].port.link_layer));
	run("link.mtu");
	assert_int_equal(res.findings.count, 0);
	assert_contains(skipped("link.mtu", "mlx5_0/1 " ND), "not a RoCE port");

	/* RoCE but nothing known (iWARP, no counters). */
	rdc_strlcpy(ports[0].port.link_layer, "Ethernet", sizeof(ports[0].port.link_layer));
	ports[0].port.active_mtu = 0;
	run("link.mtu");
	assert_non_null(skipped("link.mtu", "mlx5_0/1 " ND));
	teardown(NULL);
}

/* ---- link.transceiver ----------------------------------------------------- */

static void test_transceiver(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	host_one(2);
	teardown(NULL);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "module_high_temp", 0, 1);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "module_bad_shorted", 2, 2);
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "module_bus_stuck", 0, 0);
	run("link.transceiver");
	f = expect("link.transceiver", RDC_SEV_FAIL);
	assert_contains(f->title, "module_high_temp +1");
	assert_false(f->since_reset);
	assert_int_equal(f->nevidence, 2); /* both that ever counted */
	fx_ev_window(evidence(f, "module_high_temp"), 1, 5.0, 1);
	fx_ev_window(evidence(f, "module_bad_shorted"), 0, 5.0, 2);
	assert_contains(f->why, "overheated");
	assert_contains(f->fix, "ethtool -m " ND);
	teardown(NULL);

	/* Events in the past only: a warning, in either mode. */
	ctr(&ports[0], RDC_DIAG_NETDEV, "driver", "module_bad_shorted", 2, 2);
	run("link.transceiver");
	f = expect("link.transceiver", RDC_SEV_WARN);
	assert_contains(f->title, "since the driver loaded: module_bad_shorted 2");
	fx_ev_window(evidence(f, "module_bad_shorted"), 0, 5.0, 2);
	assert_true(f->since_reset);
	assert_contains(f->why, "short");
	teardown(NULL);

	/* Not mlx5. */
	run("link.transceiver");
	assert_contains(skipped("link.transceiver", "mlx5_0/1 " ND), "no module event counters");
	teardown(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test_teardown(test_healthy, teardown),
		cmocka_unit_test_teardown(test_port_not_active, teardown),
		cmocka_unit_test_teardown(test_no_carrier, teardown),
		cmocka_unit_test_teardown(test_flapping_window, teardown),
		cmocka_unit_test_teardown(test_flapping_cumulative, teardown),
		cmocka_unit_test_teardown(test_flapping_skips, teardown),
		cmocka_unit_test_teardown(test_speed, teardown),
		cmocka_unit_test_teardown(test_pre_fec_ber, teardown),
		cmocka_unit_test_teardown(test_crc_errors, teardown),
		cmocka_unit_test_teardown(test_fec_off, teardown),
		cmocka_unit_test_teardown(test_mtu, teardown),
		cmocka_unit_test_teardown(test_transceiver, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
