// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_links.c - diag's multi-link checks on hosts built by hand */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "diag_fixture.h"

#define GIB (1024ULL * 1024 * 1024)

static struct rdc_diag_host host;
static struct rdc_diag_result res; /* 330 KB: kept off the stack */

/* Bytes a link moved in the window: half sent, half received (ports/1/counters, x 4 done). */
static void traffic(struct rdc_diag_port *p, uint64_t bytes)
{
	fx_counter(p, RDC_DIAG_IB, "ib", "port_xmit_bytes", 1000, 1000 + bytes / 2);
	fx_counter(p, RDC_DIAG_IB, "ib", "port_rcv_bytes", 2000, 2000 + bytes - bytes / 2);
}

/*
 * The course's host: two 25G RoCE ports of one NIC, no bond, each with an
 * address of its own subnet and its GIDs, MTU 9000, 10 GiB each way.
 */
static void two_links(struct rdc_diag_host *h, uint64_t bytes0, uint64_t bytes1)
{
	struct rdc_diag_port *p;

	fx_host(h, 2);
	p = fx_port(h, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_addr_gids(p, "10.10.1.5", 24);
	traffic(p, bytes0);
	p = fx_port(h, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_addr_gids(p, "10.10.2.5", 24);
	traffic(p, bytes1);
}

/* The same with one sample (interval 0): each link's counters since boot. */
static void two_links_since_boot(struct rdc_diag_host *h, uint64_t bytes0, uint64_t bytes1)
{
	struct rdc_diag_port *p;

	fx_host(h, 2);
	fx_one_sample(h);
	p = fx_port(h, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	p->nsamples = 1;
	fx_addr_gids(p, "10.10.1.5", 24);
	traffic(p, bytes0);
	p = fx_port(h, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	p->nsamples = 1;
	fx_addr_gids(p, "10.10.2.5", 24);
	traffic(p, bytes1);
}

static int teardown(void **state)
{
	(void)state;
	rdc_diag_host_free(&host);
	return 0;
}

static void test_healthy(void **state)
{
	(void)state;
	two_links(&host, 10 * GIB, 9 * GIB);
	fx_run(&host, "links", &res);
	fx_none(&res);
	fx_no_skips(&res);
	assert_int_equal(res.nran, 4);
}

/* ---- the course's story ---- */

static void test_story_imbalance(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	/* 98% of 10 GiB on the first link. */
	two_links(&host, 9800 * GIB / 1000, 200 * GIB / 1000);
	fx_run(&host, "links.traffic-imbalance", &res);
	f = fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
	assert_string_equal(f->device, "mlx5_0");
	assert_string_equal(f->netdev, "ens1f0np0");
	assert_string_equal(f->title, "ens1f0np0 carried 98% of 10.0 GiB over 2 links in 10 s");
	/* Each link's bytes over the window (the netdev, size and share in words). */
	e = fx_evidence_of(f, "bytes", "ens1f0np0, 9.8 GiB, 98.0%");
	assert_string_equal(e->source,
			    "/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data"
			    " x 4 + port_rcv_data x 4");
	fx_ev_window(e, 9800 * GIB / 1000, FX_WINDOW_S, 3000 + 9800 * GIB / 1000);
	fx_ev_window(fx_evidence_of(f, "bytes", "ens1f1np1, 204.8 MiB, 2.0%"), 200 * GIB / 1000,
		     FX_WINDOW_S, 3000 + 200 * GIB / 1000);
	/* The share judged, and the policy it is judged by: numbers. */
	fx_ev_real(fx_evidence_of(f, "share_pct", "ens1f0np0"), 98.0);
	fx_ev_real(fx_evidence(f, "link-share-pct-warn"), 90);
	assert_string_equal(fx_evidence(f, "link-share-pct-warn")->source, "policy");
	fx_contains(f->fix, "NCCL_IB_HCA=mlx5_0,mlx5_1");
	fx_contains(f->fix, "'rdmactl bond create bond0 mode 802.3ad members ens1f0np0,ens1f1np1 "
			    "xmit-hash layer3+4 miimon 100'");
	/* At the threshold it is not yet imbalance; the policy moves it. */
	rdc_diag_host_free(&host);
	two_links(&host, 9 * GIB, 1 * GIB);
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_none(&res);
	host.policy.link_share_pct_warn = 85;
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
}

static void test_story_mtu(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	two_links(&host, GIB, GIB);
	host.ports[1].port.netdev.mtu = 1500;
	host.ports[1].port.active_mtu = 1024;
	fx_run(&host, "links.mtu-differs", &res);
	f = fx_expect(&res, "links.mtu-differs", RDC_SEV_WARN);
	assert_string_equal(f->title, "RoCE links' MTUs differ: ens1f0np0 9000, ens1f1np1 1500");
	/* Each link's MTU, then each RDMA port's active MTU: numbers, the netdev in the detail. */
	assert_int_equal(f->nevidence, 4);
	e = fx_evidence_of(f, "mtu_bytes", "ens1f1np1");
	assert_string_equal(e->source, "/sys/class/net/ens1f1np1/mtu");
	fx_ev_int(e, 1500);
	fx_ev_int(fx_evidence_of(f, "mtu_bytes", "ens1f0np0"), 9000);
	fx_ev_int(fx_evidence_of(f, "active_mtu_bytes", "mlx5_1/1 on ens1f1np1"), 1024);
	fx_ev_int(fx_evidence_of(f, "active_mtu_bytes", "mlx5_0/1 on ens1f0np0"), 4096);
	assert_string_equal(f->evidence[0].name, "mtu_bytes");
	assert_string_equal(f->evidence[1].name, "mtu_bytes");
	fx_contains(f->fix, "'rdmactl port set ens1f1np1 mtu 9000'");
	assert_null(strstr(f->fix, "ens1f0np0"));
}

/* The whole story on one host: what links and bond say together. */
static void test_story_host(void **state)
{
	const char *const only[] = {"links", "bond"};
	struct rdc_err err = {0};

	(void)state;
	two_links(&host, 9800 * GIB / 1000, 200 * GIB / 1000);
	host.ports[1].port.netdev.mtu = 1500;
	host.ports[1].port.active_mtu = 1024;
	rdc_findings_clear(&res.findings);
	assert_int_equal(rdc_diag_run(&host, only, 2, NULL, 0, &res, &err), 0);
	assert_int_equal(res.nran, 6);
	fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
	fx_expect(&res, "links.mtu-differs", RDC_SEV_WARN);
	fx_expect(&res, "bond.none", RDC_SEV_WARN);
	assert_int_equal(res.findings.count, 3);
	fx_no_skips(&res);
}

/* ---- links.traffic-imbalance ---- */

static void test_imbalance_since_boot(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	/* The counters since boot: 1000 + 2000 bytes each. */
	two_links_since_boot(&host, 0, 0);
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_none(&res);
	fx_skipped(&res, "links.traffic-imbalance", "",
		   "5.9 KiB moved over 2 RoCE links since boot/counter reset: below 1.0 MiB "
		   "(link-share-min-bytes)");
	rdc_diag_host_free(&host);
	two_links_since_boot(&host, 50 * GIB, 0);
	fx_run(&host, "links.traffic-imbalance", &res);
	f = fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
	fx_contains(f->title, "ens1f0np0 carried 100% of 50.0 GiB over 2 links since boot");
	/* One sample: each link's total since boot. */
	fx_ev_counter(fx_evidence_of(f, "bytes", "ens1f0np0, 50.0 GiB, 100.0%"), 3000 + 50 * GIB);
}

static void test_imbalance_skips(void **state)
{
	struct rdc_diag_port *p;

	(void)state;
	/* Below link-share-min-bytes nothing is judged. */
	two_links(&host, 1000, 0);
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_none(&res);
	fx_skipped(&res, "links.traffic-imbalance", "", "1000 B moved over 2 RoCE links in 10 s");
	/* One link up: nothing to balance (the other is link.*'s business). */
	host.ports[1].port.state = 1;
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_skipped(&res, "links.traffic-imbalance", "", "1 RoCE link up outside a bond");
	rdc_diag_host_free(&host);

	/* No counter both links have. */
	fx_host(&host, 2);
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	traffic(p, GIB);
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "tx_bytes_phy", 0, GIB);
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "rx_bytes_phy", 0, GIB);
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_none(&res);
	fx_skipped(&res, "links.traffic-imbalance", "",
		   "no byte counter common to the 2 RoCE links");
}

static void test_imbalance_fallback_phy(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	/* No ports/N/counters (a VF): the physical port's ethtool counters stand in. */
	fx_host(&host, 2);
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "tx_bytes_phy", 0, 5 * GIB);
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "rx_bytes_phy", 0, 5 * GIB);
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "tx_bytes_phy", 0, 1);
	fx_counter(p, RDC_DIAG_NETDEV, "driver", "rx_bytes_phy", 0, 1);
	fx_run(&host, "links.traffic-imbalance", &res);
	f = fx_expect(&res, "links.traffic-imbalance", RDC_SEV_WARN);
	e = fx_evidence_of(f, "bytes", "ens1f1np1, 2 B, 0.0%");
	assert_string_equal(e->source, "ethtool -S ens1f1np1 (ETHTOOL_GSTATS)");
	fx_ev_window(e, 2, FX_WINDOW_S, 2);
}

static void test_imbalance_bond_member(void **state)
{
	(void)state;
	/* Members of a bond (no LAG) are bond.check's: active-backup idles one by design. */
	two_links(&host, 10 * GIB, 0);
	snprintf(host.ports[0].port.netdev.master, IF_NAMESIZE, "bond0");
	snprintf(host.ports[1].port.netdev.master, IF_NAMESIZE, "bond0");
	fx_run(&host, "links.traffic-imbalance", &res);
	fx_none(&res);
	fx_skipped(&res, "links.traffic-imbalance", "mlx5_0/1 ens1f0np0",
		   "ens1f0np0 is a member of bond0: bond.check judges it");
	fx_skipped(&res, "links.traffic-imbalance", "", "0 RoCE links up outside a bond");
}

/* ---- links.mtu-differs ---- */

static void test_mtu_skips(void **state)
{
	(void)state;
	two_links(&host, GIB, GIB);
	/* A port that failed still counts: it has its address and comes back. */
	host.ports[1].port.netdev.mtu = 1500;
	host.ports[1].port.state = 1;
	snprintf(host.ports[1].port.state_name, sizeof(host.ports[1].port.state_name), "DOWN");
	fx_run(&host, "links.mtu-differs", &res);
	fx_expect(&res, "links.mtu-differs", RDC_SEV_WARN);
	/* A spare (down, link-local only) is no second path: nothing left to compare. */
	host.ports[1].netif.naddrs = 0;
	fx_addr(&host.ports[1], "fe80::1", 64);
	fx_run(&host, "links.mtu-differs", &res);
	fx_none(&res);
	fx_skipped(&res, "links.mtu-differs", "mlx5_1/1 ens1f1np1",
		   "ens1f1np1 is not ACTIVE (DOWN) and has no address: a spare");
	fx_skipped(&res, "links.mtu-differs", "", "1 RoCE link with a known MTU");
	host.ports[1].port.state = 4;
	host.ports[1].port.netdev.mtu = -1;
	fx_run(&host, "links.mtu-differs", &res);
	fx_none(&res);
	fx_skipped(&res, "links.mtu-differs", "mlx5_1/1 ens1f1np1", "MTU of ens1f1np1 unknown");
}

static void test_mtu_shared_netdev(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	/*
	 * A bond without RoCE LAG over port 0 of two NICs: both ports show the
	 * bond as their netdev; the first lost its carrier, the second is up.
	 */
	fx_host(&host, 3);
	p = fx_port(&host, 0, "mlx5_0", "bond0", "0000:3b:00.0");
	p->port.state = 1;
	snprintf(p->port.state_name, sizeof(p->port.state_name), "DOWN");
	p->port.netdev.is_bond = true;
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	p->port.netdev.mtu = 1500;
	p = fx_port(&host, 2, "mlx5_2", "bond0", "0000:86:00.0");
	p->port.netdev.is_bond = true;
	fx_run(&host, "links.mtu-differs", &res);
	f = fx_expect(&res, "links.mtu-differs", RDC_SEV_WARN);
	assert_string_equal(f->title, "RoCE links' MTUs differ: bond0 9000, ens1f1np1 1500");
	fx_no_skips(&res);
}

/* ---- links.same-subnet ---- */

static void test_same_subnet(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	fx_host(&host, 2);
	fx_addr_gids(fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0"), "10.10.1.5", 24);
	fx_addr_gids(fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1"), "10.10.1.6", 24);
	fx_run(&host, "links.same-subnet", &res);
	f = fx_expect(&res, "links.same-subnet", RDC_SEV_WARN);
	assert_string_equal(f->title, "2 RoCE links share subnet 10.10.1.0/24 (ens1f0np0, "
				      "ens1f1np1): traffic leaves by one");
	assert_int_equal(f->nevidence, 2);
	e = fx_evidence_of(f, "address", "ens1f1np1");
	fx_ev_text(e, "10.10.1.6/24");
	assert_string_equal(e->source, "rtnetlink RTM_GETADDR");
	fx_contains(f->fix, "its own subnet");
	fx_contains(f->fix, "an 'ip rule' from that address to the table");
	assert_int_equal(f->fix_argv.argc, 0);
	fx_contains(f->why, "policy routing");
}

static void test_same_subnet_shapes(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	/* Link-local addresses are per link: every link has fe80::/64. */
	fx_host(&host, 3);
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_addr(p, "fe80::1", 64);
	fx_addr(p, "10.0.0.1", 16);
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_addr(p, "fe80::2", 64);
	fx_addr(p, "fd00:1::2", 64);
	fx_addr(p, "10.1.5.2", 24);
	p = fx_port(&host, 2, "mlx5_2", "ens2f0np0", "0000:af:00.0");
	fx_addr(p, "fe80::3", 64);
	fx_addr(p, "fd00:2::3", 64);
	fx_run(&host, "links.same-subnet", &res);
	fx_none(&res);

	/* A /16 on one link covers the /24 of another: the shorter prefix is the subnet. */
	p->netif.naddrs = 1; /* drop fd00:2::3 */
	fx_addr(p, "10.0.200.3", 24);
	fx_run(&host, "links.same-subnet", &res);
	f = fx_expect(&res, "links.same-subnet", RDC_SEV_WARN);
	fx_contains(f->title, "share subnet 10.0.0.0/16 (ens1f0np0, ens2f0np0)");

	/* IPv6 too, and one group across a chain: 0~2 by IPv4, 1~2 by IPv6. */
	fx_addr(p, "fd00:1::3", 64);
	fx_run(&host, "links.same-subnet", &res);
	f = fx_expect(&res, "links.same-subnet", RDC_SEV_WARN);
	fx_contains(f->title, "3 RoCE links share subnet");
	fx_contains(f->title, "(ens1f0np0, ens1f1np1, ens2f0np0)");
	assert_int_equal(f->nevidence, 4);
}

static void test_same_subnet_skips(void **state)
{
	(void)state;
	two_links(&host, GIB, GIB);
	host.ports[0].netif.have_addrs = false;
	host.ports[0].netif.addrs_reason = strdup("RTM_GETADDR: Operation not permitted");
	fx_run(&host, "links.same-subnet", &res);
	fx_none(&res);
	fx_skipped(&res, "links.same-subnet", "mlx5_0/1 ens1f0np0",
		   "addresses of ens1f0np0 not read: RTM_GETADDR: Operation not permitted");
}

/* ---- links.arp-flux ---- */

static void test_arp_flux(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	fx_host(&host, 2);
	fx_addr_gids(fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0"), "10.10.1.5", 24);
	fx_addr_gids(fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1"), "10.10.1.6", 24);
	/* The fixture's host-wide values (1, 2, 2) prevent it. */
	fx_run(&host, "links.arp-flux", &res);
	fx_none(&res);
	/* Debian's defaults: all 0, and strict reverse path filtering on one link. */
	host.facts.arp_ignore_all = host.facts.arp_announce_all = host.facts.rp_filter_all = 0;
	host.ports[1].netif.rp_filter = 1;
	fx_run(&host, "links.arp-flux", &res);
	f = fx_expect(&res, "links.arp-flux", RDC_SEV_WARN);
	assert_string_equal(f->title, "ARP flux on 10.10.1.0/24 (ens1f0np0, ens1f1np1): arp_ignore "
				      "0, arp_announce 0, rp_filter 1");
	assert_string_equal(f->evidence[0].name, "address");
	fx_ev_text(&f->evidence[0], "10.10.1.5/24");
	assert_string_equal(f->evidence[0].detail, "ens1f0np0");
	/* The value the kernel applies, typed; both files and the goal in the detail. */
	e = fx_evidence_of(f, "arp_ignore",
			   "ens1f0np0: the larger of all 0 and ens1f0np0 0; want 1");
	assert_string_equal(e->source, "/proc/sys/net/ipv4/conf/{all,ens1f0np0}/arp_ignore");
	fx_ev_int(e, 0);
	e = fx_evidence_of(f, "rp_filter",
			   "ens1f1np1: the larger of all 0 and ens1f1np1 1; want 0 or 2");
	fx_ev_int(e, 1);
	fx_contains(f->fix, "'sysctl -w net.ipv4.conf.all.arp_ignore=1 "
			    "net.ipv4.conf.all.arp_announce=2 net.ipv4.conf.all.rp_filter=2'");
	/* The larger of all and the interface applies: per-interface values fix it too. */
	for (size_t i = 0; i < 2; i++) {
		host.ports[i].netif.arp_ignore = 1;
		host.ports[i].netif.arp_announce = 2;
		host.ports[i].netif.rp_filter = 2;
	}
	fx_run(&host, "links.arp-flux", &res);
	fx_none(&res);
}

static void test_arp_flux_shapes(void **state)
{
	struct rdc_diag_port *p;

	(void)state;
	/* IPv6 has no ARP: one IPv6 subnet on two links is same-subnet's, not ARP flux. */
	fx_host(&host, 2);
	host.facts.arp_ignore_all = host.facts.arp_announce_all = 0;
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_addr(p, "fd00::5", 64);
	fx_addr(p, "10.1.0.5", 24);
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_addr(p, "fd00::6", 64);
	fx_addr(p, "10.2.0.6", 24);
	fx_run(&host, "links.arp-flux", &res);
	fx_none(&res);
	fx_no_skips(&res);
	/* Sysctls not read: nothing judged, said so. */
	fx_addr(p, "10.1.0.6", 24);
	host.facts.arp_ignore_all = host.facts.arp_announce_all = host.facts.rp_filter_all = -1;
	fx_run(&host, "links.arp-flux", &res);
	fx_none(&res);
	fx_skipped(&res, "links.arp-flux", "",
		   "ens1f0np0, ens1f1np1 share 10.1.0.0/24, but their ARP sysctls were not read");
}

/* ---- the design mistake: more links = more IPs, without per-link GIDs and routing ---- */

static void test_mistake_more_links_more_ips(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	/*
	 * A second link "for bandwidth": another address in the same subnet,
	 * no routing per link, and its GIDs never appeared on its port (the
	 * address went onto the first netdev's VLAN and only then moved).
	 */
	fx_host(&host, 2);
	host.facts.arp_ignore_all = host.facts.arp_announce_all = host.facts.rp_filter_all = 0;
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_addr_gids(p, "192.168.50.11", 24);
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	fx_addr(p, "192.168.50.12", 24);
	fx_gid(p, "fe80::e42:a1ff:fe65:8a11", RDC_GID_ROCE_V2);

	fx_run(&host, "links.same-subnet", &res);
	f = fx_expect(&res, "links.same-subnet", RDC_SEV_WARN);
	fx_contains(f->title, "share subnet 192.168.50.0/24 (ens1f0np0, ens1f1np1)");
	fx_run(&host, "links.arp-flux", &res);
	fx_expect(&res, "links.arp-flux", RDC_SEV_WARN);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_1");
	assert_string_equal(f->title, "no RoCE v2 GID for 192.168.50.12 on ens1f1np1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_healthy, teardown),
		cmocka_unit_test_teardown(test_story_imbalance, teardown),
		cmocka_unit_test_teardown(test_story_mtu, teardown),
		cmocka_unit_test_teardown(test_story_host, teardown),
		cmocka_unit_test_teardown(test_imbalance_since_boot, teardown),
		cmocka_unit_test_teardown(test_imbalance_skips, teardown),
		cmocka_unit_test_teardown(test_imbalance_fallback_phy, teardown),
		cmocka_unit_test_teardown(test_imbalance_bond_member, teardown),
		cmocka_unit_test_teardown(test_mtu_skips, teardown),
		cmocka_unit_test_teardown(test_mtu_shared_netdev, teardown),
		cmocka_unit_test_teardown(test_same_subnet, teardown),
		cmocka_unit_test_teardown(test_same_subnet_shapes, teardown),
		cmocka_unit_test_teardown(test_same_subnet_skips, teardown),
		cmocka_unit_test_teardown(test_arp_flux, teardown),
		cmocka_unit_test_teardown(test_arp_flux_shapes, teardown),
		cmocka_unit_test_teardown(test_mistake_more_links_more_ips, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
