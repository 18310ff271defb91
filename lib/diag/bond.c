// SPDX-License-Identifier: GPL-2.0-or-later
/* bond.c - diag checks of link aggregation: RoCE links without a bond, and each RDMA bond judged */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "diag/diag.h"

#define IB_STATE_ACTIVE 4 /* ports/N/state "4: ACTIVE" */
#define BD_MAX 64	  /* RoCE netdevs looked at */
#define SRC_BONDS "rtnetlink RTM_GETLINK (bond masters)"

/* The bond @netdev is a member of in h->bonds, or NULL. */
static const struct rdc_bond *bd_bond_of_member(const struct rdc_diag_host *h, const char *netdev)
{
	for (size_t i = 0; i < h->bonds.count && i < RDC_BOND_MAX; i++) {
		const struct rdc_bond *b = &h->bonds.bonds[i];

		for (size_t m = 0; m < b->nmembers && m < RDC_BOND_MAX_MEMBERS; m++)
			if (!strcmp(b->members[m].name, netdev))
				return b;
	}
	return NULL;
}

/* The port's netdev is a bond (RoCE LAG) or a bond's member: sysfs and rtnetlink both say. */
static bool bd_bonded(const struct rdc_diag_host *h, const struct rdc_diag_port *p)
{
	const struct rdc_netdev *nd = &p->port.netdev;

	return nd->is_bond || nd->master[0] || bd_bond_of_member(h, nd->name);
}

/* The port's link is up: the RDMA port is ACTIVE, or, where its state is unknown, the carrier is. */
static bool bd_up(const struct rdc_diag_port *p)
{
	if (p->port.state >= 0)
		return p->port.state == IB_STATE_ACTIVE;
	return p->netif.carrier == 1;
}

/* The NIC part of a PCI address: "0000:3b:00.0" -> "0000:3b:00" (domain:bus:device). */
static size_t bd_nic_len(const char *pci)
{
	const char *dot = strrchr(pci, '.');

	return dot ? (size_t)(dot - pci) : strlen(pci);
}

/* Both ports are functions of one PCI device: ports of one NIC, which RoCE LAG needs. */
static bool bd_same_nic(const struct rdc_diag_port *a, const struct rdc_diag_port *b)
{
	const char *x = a->port.pci.address, *y = b->port.pci.address;
	size_t n = bd_nic_len(x);

	if (!a->port.has_pci || !b->port.has_pci || !x[0] || !y[0])
		return false;
	return n == bd_nic_len(y) && !strncmp(x, y, n);
}

/* "bond0", or the first bondN the host does not have yet. */
static void bd_free_name(const struct rdc_diag_host *h, char *buf, size_t size)
{
	for (unsigned int n = 0;; n++) {
		bool taken = false;

		snprintf(buf, size, "bond%u", n);
		for (size_t i = 0; i < h->bonds.count && i < RDC_BOND_MAX && !taken; i++)
			taken = !strcmp(h->bonds.bonds[i].name, buf);
		if (!taken)
			return;
	}
}

/* ---- bond.none ----------------------------------------------------------- */

static void bd_none_fix(const struct rdc_diag_host *h, struct rdc_finding *f,
			const struct rdc_diag_port *const *up, size_t n)
{
	char bond[IF_NAMESIZE], members[2 * IF_NAMESIZE] = "", *hca = NULL;

	/* The first two ports of one NIC: the pair a NIC can offload. */
	for (size_t i = 0; i < n; i++) {
		for (size_t k = i + 1; k < n; k++) {
			if (!bd_same_nic(up[i], up[k]))
				continue;
			bd_free_name(h, bond, sizeof(bond));
			snprintf(members, sizeof(members), "%s,%s", up[i]->port.netdev.name,
				 up[k]->port.netdev.name);
			rdc_finding_fix(
				f,
				"bond the ports of one NIC as RoCE LAG: 'rdmactl bond create "
				"%s mode 802.3ad members %s xmit-hash layer3+4 miimon 100 "
				"lacp-rate fast' (active-backup without LACP on the switch), "
				"then move the addresses to %s; the RDMA devices are replaced "
				"by one, so running jobs stop",
				bond, members, bond);
			rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "bond", "create", bond, "mode",
							 "802.3ad", "members", members, "xmit-hash",
							 "layer3+4", "miimon", "100", "lacp-rate",
							 "fast"));
			return;
		}
	}
	for (size_t i = 0; i < n; i++)
		rdc_diag_cat(&hca, "%s%s", i ? "," : "", up[i]->port.device);
	rdc_finding_fix(f,
			"no two of these ports are known ports of one NIC, which RoCE LAG needs: "
			"keep one subnet per link, spread QPs over the devices (NCCL_IB_HCA=%s) "
			"and let the application reconnect on failure, or bond the two ports of "
			"each NIC as RoCE LAG (rdmactl-bond(8): bond create)",
			rdc_diag_str(hca));
	free(hca);
}

/* Bytes a link moved, both ways: in the window, or since boot with one sample; -1 unknown. */
static int64_t bd_link_bytes(const struct rdc_diag_port *p)
{
	static const struct {
		enum rdc_diag_set set;
		const char *tx, *rx;
	} srcs[] = {
		{RDC_DIAG_IB, "port_xmit_bytes", "port_rcv_bytes"},
		{RDC_DIAG_NETDEV, "tx_bytes", "rx_bytes"},
	};

	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		uint64_t tx, rx;
		int a, b;

		if (p->nsamples >= 2) {
			a = rdc_diag_delta(p, srcs[i].set, srcs[i].tx, &tx);
			b = rdc_diag_delta(p, srcs[i].set, srcs[i].rx, &rx);
		} else {
			a = rdc_diag_counter(p, srcs[i].set, srcs[i].tx, &tx);
			b = rdc_diag_counter(p, srcs[i].set, srcs[i].rx, &rx);
		}
		if (!a && !b && tx + rx < INT64_MAX)
			return (int64_t)(tx + rx);
	}
	return -1;
}

/*
 * Multi-rail at work: the application spreads its traffic over the links
 * (each link's share below link-share-pct-warn of enough bytes).  Then the
 * missing bond is a design (NCCL, ib_write_bw per link), not a mistake.
 */
static bool bd_multirail(const struct rdc_diag_host *h, const struct rdc_diag_port *const *up,
			 size_t nup)
{
	uint64_t total = 0, most = 0;

	for (size_t i = 0; i < nup; i++) {
		int64_t b = bd_link_bytes(up[i]);

		if (b < 0)
			return false;
		total += (uint64_t)b;
		if ((uint64_t)b > most)
			most = (uint64_t)b;
	}
	return total >= h->policy.link_share_min_bytes &&
	       100.0 * (double)most / (double)total <= h->policy.link_share_pct_warn;
}

static void check_none(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       struct rdc_diag_result *r)
{
	const struct rdc_diag_port *up[BD_MAX];
	char *names = NULL, src[RDC_DIAG_SOURCE_LEN];
	size_t nroce = 0, nup = 0;
	struct rdc_finding *f;

	if (h->bonds_rc) {
		rdc_diag_skip(r, c, NULL, "bonds not read: %s", h->bonds_reason);
		return;
	}
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		bool seen = false;

		if (!rdc_diag_port_roce(p))
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = rdc_diag_port_roce(&h->ports[k]) &&
			       !strcmp(h->ports[k].port.netdev.name, p->port.netdev.name);
		if (seen)
			continue;
		nroce++;
		if (bd_bonded(h, p))
			continue;
		if (!bd_up(p) || nup == BD_MAX)
			continue;
		up[nup++] = p;
	}
	if (nup >= 2 && bd_multirail(h, up, nup))
		return;
	if (nup >= 2) {
		for (size_t i = 0; i < nup; i++)
			rdc_diag_cat(&names, "%s%s", i ? ", " : "", up[i]->port.netdev.name);
		f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN,
				 "%zu RoCE links up and no bond over them (%s): no failover", nup,
				 rdc_diag_str(names));
		free(names);
		/* Each link's master: none (null), the link and its RDMA port in the detail. */
		for (size_t i = 0; i < nup; i++) {
			snprintf(src, sizeof(src), "/sys/class/net/%s/master",
				 up[i]->port.netdev.name);
			rdc_ev_detail(rdc_ev_unknown(f, "master", src, "none"), "%s: %s/%u %s",
				      up[i]->port.netdev.name, up[i]->port.device, up[i]->port.port,
				      up[i]->port.state_name);
		}
		rdc_ev_detail(rdc_ev_uint(f, "bonds_count", SRC_BONDS, h->bonds.count),
			      "none over these links");
		rdc_finding_why(f, "each link is its own RDMA device: a QP lives on one port and "
				   "dies with its link (no failover), and a connection gets one "
				   "link's bandwidth (no aggregation); unless the application "
				   "spreads QPs over the devices and reconnects on failure, losing "
				   "a link fails the job");
		bd_none_fix(h, f, up, nup);
		return;
	}
	if (nroce == 1 && nup == 1) {
		f = rdc_diag_add(r, c, up[0], RDC_SEV_INFO, "one RoCE link (%s): no failover path",
				 up[0]->port.netdev.name);
		snprintf(src, sizeof(src), "/sys/class/net/%s/master", up[0]->port.netdev.name);
		rdc_ev_unknown(f, "master", src, "none");
		rdc_finding_why(f, "when this link fails RDMA on the host stops until it is back");
		rdc_finding_fix(f,
				"nothing to change while one link is enough; for a failover path "
				"add a second port of the NIC and bond the two as RoCE LAG "
				"(rdmactl-bond(8))");
	}
}

/* ---- bond.check ---------------------------------------------------------- */

/* A bond RDMA uses: it is a RoCE LAG device's netdev, or an RDMA port's netdev is a member. */
static bool bd_rdma_bond(const struct rdc_diag_host *h, const struct rdc_bond *b)
{
	if (b->rdma_device[0] || rdc_diag_port_of_netdev(h, b->name))
		return true;
	for (size_t m = 0; m < b->nmembers && m < RDC_BOND_MAX_MEMBERS; m++)
		if (rdc_diag_port_of_netdev(h, b->members[m].name))
			return true;
	return false;
}

static void check_bond(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       struct rdc_diag_result *r)
{
	const struct rdc_bond_check_params params = {
		.qp_timeout = h->policy.qp_timeout,
		.retry_cnt = h->policy.qp_retry_cnt,
	};

	if (h->bonds_rc) {
		rdc_diag_skip(r, c, NULL, "bonds not read: %s", h->bonds_reason);
		return;
	}
	for (size_t i = 0; i < h->bonds.count && i < RDC_BOND_MAX; i++) {
		const struct rdc_bond *b = &h->bonds.bonds[i];
		size_t first = r->findings.count;

		/* A plain NIC's bond (management, storage) is no RDMA bond: mode rules do not apply. */
		if (!bd_rdma_bond(h, b)) {
			rdc_diag_skip_bond(r, c, b->name, "no RDMA port on it or its members");
			continue;
		}
		/* The check appends its own bond.* findings, each whole. */
		rdc_bond_check_eval(b, h->bond_facts ? &h->bond_facts[i] : NULL, &params,
				    &r->findings);
		for (size_t k = first; k < r->findings.count; k++) {
			struct rdc_finding *f = &r->findings.items[k];

			rdc_strlcpy(f->bond, b->name, sizeof(f->bond));
			if (b->rdma_device[0]) {
				rdc_strlcpy(f->device, b->rdma_device, sizeof(f->device));
				f->port = b->rdma_port;
				rdc_strlcpy(f->netdev, b->name, sizeof(f->netdev));
			}
		}
	}
}

static const struct rdc_diag_check checks[] = {
	{"bond.none", RDC_SEV_WARN, "RoCE links that are up have a bond for failover",
	 "RoCE ports' state and netdev master, bonds (RTM_GETLINK)",
	 "two or more RoCE links up and none in a bond W (unless traffic is spread over them: "
	 "multi-rail); a single RoCE link I",
	 check_none},
	{"bond.check", RDC_SEV_FAIL,
	 "each RDMA bond: RoCE LAG mode, one NIC, alike members, failover within the QP "
	 "retry window",
	 "bonds (RTM_GETLINK, /proc/net/bonding), members' PCI, PFC and trust",
	 "the bond.* rules of 'rdmactl bond check', QP timeout and retry count "
	 "(qp-timeout, qp-retry-cnt)",
	 check_bond},
};

const struct rdc_diag_family rdc_diag_family_bond = {"bond", checks, RDC_ARRAY_SIZE(checks)};
