// SPDX-License-Identifier: GPL-2.0-or-later
/* links.c - diag checks across the RoCE links of a host: subnets, ARP, balance, MTU */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "diag/diag.h"

#define SRC_ADDRS "rtnetlink RTM_GETADDR"
#define IB_STATE_ACTIVE 4 /* ports/N/state "4: ACTIVE" */
#define LK_MAX 64	  /* RoCE netdevs judged together; more are left out, with a skip */

/* ---- the links: one per RoCE netdev ------------------------------------- */

/*
 * Several RDMA ports can sit on one netdev (rxe next to the NIC's own
 * device, a bond's members without RoCE LAG): a link is a netdev, judged
 * through its first port that is up, else its first port.
 */
struct lk_links {
	size_t n;
	const struct rdc_diag_port *p[LK_MAX];
};

/* The port's link is up: the RDMA port is ACTIVE, or, where its state is unknown, the carrier is. */
static bool lk_up(const struct rdc_diag_port *p)
{
	if (p->port.state >= 0)
		return p->port.state == IB_STATE_ACTIVE;
	return p->netif.carrier == 1;
}

/*
 * The link serves traffic, or is meant to: it is up, or it has an address
 * other than link-local (a link that failed), or its addresses are unknown.
 */
static bool lk_in_use(const struct rdc_diag_port *p)
{
	if (lk_up(p) || !p->netif.have_addrs)
		return true;
	for (size_t i = 0; i < p->netif.naddrs && i < RDC_NETIF_ADDRS_MAX; i++)
		if (!p->netif.addrs[i].link_local)
			return true;
	return false;
}

/*
 * The RoCE netdevs of @h; with @up only those whose link is up, with
 * @unbonded none that is a bond member (a bond's members are judged by
 * bond.check: active-backup leaves one idle by design).
 */
static void lk_collect(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       struct rdc_diag_result *r, bool up, bool unbonded, struct lk_links *l)
{
	l->n = 0;
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		bool seen = false;

		if (!rdc_diag_port_roce(p))
			continue;
		/*
		 * A bond's members (RoCE LAG or not) serve the bond's addresses:
		 * one link at the IP layer.  The link is up when one of them is.
		 */
		for (size_t k = 0; k < l->n && !seen; k++) {
			if (strcmp(rdc_diag_ip_netdev(l->p[k]), rdc_diag_ip_netdev(p)))
				continue;
			seen = true;
			if (!lk_up(l->p[k]) && lk_up(p))
				l->p[k] = p;
		}
		if (seen || (up && !lk_up(p)))
			continue;
		if (unbonded && p->port.netdev.master[0]) {
			rdc_diag_skip(r, c, p, "%s is a member of %s: bond.check judges it",
				      p->port.netdev.name, p->port.netdev.master);
			continue;
		}
		if (l->n == LK_MAX) {
			rdc_diag_skip(r, c, p, "more than %d RoCE netdevs: left out", LK_MAX);
			continue;
		}
		l->p[l->n++] = p;
	}
}

/* "ens1f0np0, ens1f1np1" for the links @idx (up to LK_MAX of them), whole; the caller frees it. */
static char *lk_names(const struct lk_links *l, const size_t *idx, size_t n)
{
	char *names = NULL;

	for (size_t i = 0; i < n; i++)
		rdc_diag_cat(&names, "%s%s", i ? ", " : "", rdc_diag_ip_netdev(l->p[idx[i]]));
	return names;
}

/* ---- subnets ------------------------------------------------------------ */

/* The address bits of @a's family. */
static unsigned int lk_bits(const struct rdc_netif_addr *a)
{
	return a->family == AF_INET ? 32 : 128;
}

/*
 * Whether two addresses are in one subnet: the shorter of their prefixes
 * covers both (10.0.0.1/24 and 10.0.0.2/24, or 10.0.0.1/16 and 10.0.5.1/24:
 * the /16 route reaches the other link's addresses too).  Link-local ones
 * are per link by definition and never count.  *@len gets that prefix.
 */
static bool lk_overlap(const struct rdc_netif_addr *a, const struct rdc_netif_addr *b,
		       unsigned int *len)
{
	unsigned int n, full;

	if (a->family != b->family || (a->family != AF_INET && a->family != AF_INET6) ||
	    a->link_local || b->link_local)
		return false;
	n = a->prefix_len < b->prefix_len ? a->prefix_len : b->prefix_len;
	if (n > lk_bits(a))
		n = lk_bits(a);
	full = n / 8;
	if (memcmp(a->raw, b->raw, full))
		return false;
	if (n % 8) {
		uint8_t mask = (uint8_t)(0xff << (8 - n % 8));

		if ((a->raw[full] & mask) != (b->raw[full] & mask))
			return false;
	}
	*len = n;
	return true;
}

/* "10.0.0.0/24": @a's network at @len bits. */
static void lk_network(const struct rdc_netif_addr *a, unsigned int len, char *buf, size_t size)
{
	uint8_t raw[16] = {0};
	char ip[INET6_ADDRSTRLEN];

	memcpy(raw, a->raw, (len + 7) / 8);
	if (len % 8)
		raw[len / 8] &= (uint8_t)(0xff << (8 - len % 8));
	if (!inet_ntop(a->family, raw, ip, sizeof(ip)))
		snprintf(ip, sizeof(ip), "?");
	snprintf(buf, size, "%s/%u", ip, len);
}

/* The first address of link @i in a subnet with one of link @j (@v4: IPv4 only), or -1. */
static int lk_shared(const struct lk_links *l, size_t i, size_t j, bool v4, unsigned int *len,
		     int *other)
{
	const struct rdc_netif *a = &l->p[i]->netif, *b = &l->p[j]->netif;

	for (size_t x = 0; x < a->naddrs && x < RDC_NETIF_ADDRS_MAX; x++) {
		if (v4 && a->addrs[x].family != AF_INET)
			continue;
		for (size_t y = 0; y < b->naddrs && y < RDC_NETIF_ADDRS_MAX; y++) {
			if (lk_overlap(&a->addrs[x], &b->addrs[y], len)) {
				if (other)
					*other = (int)y;
				return (int)x;
			}
		}
	}
	return -1;
}

/* Links whose addresses share subnets, as groups: each link's group is its lowest member. */
struct lk_groups {
	size_t of[LK_MAX];
};

static size_t lk_root(const struct lk_groups *g, size_t i)
{
	while (g->of[i] != i)
		i = g->of[i];
	return i;
}

/* Group the links that share a subnet (transitively: A~B and B~C is one group). */
static void lk_group(const struct lk_links *l, bool v4, struct lk_groups *g)
{
	unsigned int len;

	for (size_t i = 0; i < l->n; i++)
		g->of[i] = i;
	for (size_t i = 0; i < l->n; i++) {
		for (size_t j = i + 1; j < l->n; j++) {
			size_t a, b;

			if (lk_shared(l, i, j, v4, &len, NULL) < 0)
				continue;
			a = lk_root(g, i);
			b = lk_root(g, j);
			if (a != b)
				g->of[a > b ? a : b] = a < b ? a : b;
		}
	}
}

/*
 * The members of the group rooted at @root, in order, into @idx; and the
 * subnet the first two share (for the title).
 */
static size_t lk_members(const struct lk_links *l, const struct lk_groups *g, size_t root, bool v4,
			 size_t *idx, char *subnet, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		if (lk_root(g, i) == root)
			idx[n++] = i;
	subnet[0] = '\0';
	for (size_t k = 1; k < n && !subnet[0]; k++) {
		for (size_t m = 0; m < k && !subnet[0]; m++) {
			unsigned int len;
			int x = lk_shared(l, idx[m], idx[k], v4, &len, NULL);

			if (x >= 0)
				lk_network(&l->p[idx[m]]->netif.addrs[x], len, subnet, size);
		}
	}
	return n;
}

/*
 * Evidence: each member's addresses that share a subnet with another
 * member's, "address" (with its prefix: one value) and the netdev in the detail.
 */
static void lk_addr_evidence(struct rdc_finding *f, const struct lk_links *l, const size_t *idx,
			     size_t n, bool v4)
{
	for (size_t k = 0; k < n; k++) {
		const struct rdc_netif *a = &l->p[idx[k]]->netif;

		for (size_t x = 0; x < a->naddrs && x < RDC_NETIF_ADDRS_MAX; x++) {
			bool shared = false;

			if (v4 && a->addrs[x].family != AF_INET)
				continue;
			for (size_t m = 0; m < n && !shared; m++) {
				const struct rdc_netif *b = &l->p[idx[m]]->netif;
				unsigned int len;

				for (size_t y = 0;
				     m != k && y < b->naddrs && y < RDC_NETIF_ADDRS_MAX; y++)
					shared = shared ||
						 lk_overlap(&a->addrs[x], &b->addrs[y], &len);
			}
			if (!shared)
				continue;
			rdc_ev_detail(rdc_ev_text(f, "address", SRC_ADDRS, "%s/%u", a->addrs[x].ip,
						  a->addrs[x].prefix_len),
				      "%s", a->name[0] ? a->name : "?");
		}
	}
}

/* The links whose addresses were read; the others are skipped with the reason. */
static void lk_with_addrs(const struct rdc_diag_check *c, struct rdc_diag_result *r,
			  struct lk_links *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct rdc_diag_port *p = l->p[i];

		if (p->netif.have_addrs)
			l->p[n++] = p;
		else
			rdc_diag_skip(r, c, p, "addresses of %s not read: %s",
				      rdc_diag_ip_netdev(p), rdc_diag_str(p->netif.addrs_reason));
	}
	l->n = n;
}

/* ---- links.arp-flux ----------------------------------------------------- */

enum lk_sysctl_id { LK_ARP_IGNORE, LK_ARP_ANNOUNCE, LK_RP_FILTER };

struct lk_sysctl {
	enum lk_sysctl_id id;
	const char *name;
	const char *want;
};

static const struct lk_sysctl arp_sysctls[] = {
	{LK_ARP_IGNORE, "arp_ignore", "1"},
	{LK_ARP_ANNOUNCE, "arp_announce", "2"},
	{LK_RP_FILTER, "rp_filter", "0 or 2"},
};

/* conf/all and conf/IF of one sysctl, and the value the kernel applies (-1 unknown). */
static int lk_sysctl_value(const struct rdc_diag_host *h, const struct rdc_diag_port *p,
			   const struct lk_sysctl *s, int *all, int *dev)
{
	*all = *dev = -1;
	switch (s->id) {
	case LK_ARP_IGNORE:
		*all = h->facts.arp_ignore_all;
		*dev = p->netif.arp_ignore;
		break;
	case LK_ARP_ANNOUNCE:
		*all = h->facts.arp_announce_all;
		*dev = p->netif.arp_announce;
		break;
	case LK_RP_FILTER:
		*all = h->facts.rp_filter_all;
		*dev = p->netif.rp_filter;
		break;
	}
	/* The kernel applies the larger of conf/all and conf/IF to all three. */
	return rdc_netif_sysctl_effective(*all, *dev);
}

/*
 * The value lets ARP flux or asymmetric drops happen: arp_ignore 0 answers
 * for every local address on every link, arp_announce < 2 sends requests
 * with any local source, rp_filter 1 (strict) drops what arrives on a link
 * the reverse route does not use.
 */
static bool lk_sysctl_bad(const struct lk_sysctl *s, int v)
{
	if (v < 0)
		return false;
	switch (s->id) {
	case LK_ARP_IGNORE:
		return v < 1;
	case LK_ARP_ANNOUNCE:
		return v < 2;
	case LK_RP_FILTER:
		return v == 1;
	}
	return false;
}

static void check_arp_flux(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			   struct rdc_diag_result *r)
{
	struct lk_links l;
	struct lk_groups g;

	lk_collect(h, c, r, false, false, &l);
	lk_with_addrs(c, r, &l);
	lk_group(&l, true, &g);
	for (size_t root = 0; root < l.n; root++) {
		size_t idx[LK_MAX], n;
		/* bad: the three sysctls of ours with a number each; src: a netdev and a sysctl. */
		char subnet[64], *names, bad[96] = "", src[160];
		bool known = false, any = false;
		struct rdc_finding *f;

		if (lk_root(&g, root) != root)
			continue;
		n = lk_members(&l, &g, root, true, idx, subnet, sizeof(subnet));
		if (n < 2)
			continue;
		names = lk_names(&l, idx, n);
		for (size_t s = 0; s < RDC_ARRAY_SIZE(arp_sysctls); s++) {
			bool listed = false;

			for (size_t k = 0; k < n; k++) {
				int all, dev,
					v = lk_sysctl_value(h, l.p[idx[k]], &arp_sysctls[s], &all,
							    &dev);

				known = known || v >= 0;
				if (!lk_sysctl_bad(&arp_sysctls[s], v) || listed)
					continue;
				rdc_diag_append(bad, sizeof(bad), "%s%s %d", any ? ", " : "",
						arp_sysctls[s].name, v);
				listed = any = true;
			}
		}
		if (!known) {
			rdc_diag_skip(r, c, NULL,
				      "%s share %s, but their ARP sysctls were not read",
				      rdc_diag_str(names), subnet);
			free(names);
			continue;
		}
		if (!any) {
			free(names);
			continue;
		}
		f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN, "ARP flux on %s (%s): %s", subnet,
				 rdc_diag_str(names), bad);
		free(names);
		lk_addr_evidence(f, &l, idx, n, true);
		for (size_t k = 0; k < n; k++) {
			const struct rdc_diag_port *p = l.p[idx[k]];

			for (size_t s = 0; s < RDC_ARRAY_SIZE(arp_sysctls); s++) {
				int all, dev,
					v = lk_sysctl_value(h, p, &arp_sysctls[s], &all, &dev);

				if (!lk_sysctl_bad(&arp_sysctls[s], v))
					continue;
				const char *ipnd = rdc_diag_ip_netdev(p);

				/* What the kernel applies; both files and the goal in words. */
				snprintf(src, sizeof(src), "/proc/sys/net/ipv4/conf/{all,%s}/%s",
					 ipnd, arp_sysctls[s].name);
				rdc_ev_detail(rdc_ev_int(f, arp_sysctls[s].name, src, v),
					      "%s: the larger of all %d and %s %d; want %s", ipnd,
					      all, ipnd, dev, arp_sysctls[s].want);
			}
		}
		rdc_finding_why(f,
				"with several links in one subnet each answers ARP for the others' "
				"addresses (arp_ignore 0) and asks with any source (arp_announce "
				"< 2): peers learn one port's MAC for another's IP, and RoCE "
				"packets reach a device that does not hold their QP and are "
				"dropped; rp_filter 1 drops replies on the other link");
		rdc_finding_fix(f,
				"'sysctl -w net.ipv4.conf.all.arp_ignore=1 "
				"net.ipv4.conf.all.arp_announce=2 net.ipv4.conf.all.rp_filter=2' "
				"(and the same in /etc/sysctl.d/ to keep it), or one subnet per "
				"link");
	}
}

/* ---- links.same-subnet -------------------------------------------------- */

static void check_same_subnet(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	struct lk_links l;
	struct lk_groups g;

	lk_collect(h, c, r, false, false, &l);
	lk_with_addrs(c, r, &l);
	lk_group(&l, false, &g);
	for (size_t root = 0; root < l.n; root++) {
		size_t idx[LK_MAX], n;
		char subnet[64], *names;
		struct rdc_finding *f;

		if (lk_root(&g, root) != root)
			continue;
		n = lk_members(&l, &g, root, false, idx, subnet, sizeof(subnet));
		if (n < 2)
			continue;
		names = lk_names(&l, idx, n);
		f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN,
				 "%zu RoCE links share subnet %s (%s): traffic leaves by one", n,
				 subnet, rdc_diag_str(names));
		free(names);
		lk_addr_evidence(f, &l, idx, n, false);
		rdc_finding_why(
			f, "more addresses in one subnet are not more paths: the kernel routes "
			   "by destination, so one link's route carries what rdma_cm resolves "
			   "and the replies, whatever GID a QP uses; without policy routing per "
			   "source address (rdmactl does not read rules) the other links idle "
			   "or see asymmetric traffic");
		rdc_finding_fix(f,
				"give each link its own subnet (one per rail), or route per "
				"link: for each, a route of the subnet through the link with its "
				"address as source in a table of its own, and an 'ip rule' from "
				"that address to the table; with either, set arp_ignore=1 and "
				"arp_announce=2");
	}
}

/* ---- links.traffic-imbalance -------------------------------------------- */

/* Where a link's bytes are counted, best first: the RDMA port's own counters include RDMA. */
struct lk_bytes_src {
	enum rdc_diag_set set;
	const char *tx, *rx;
};

static const struct lk_bytes_src byte_srcs[] = {
	{RDC_DIAG_IB, "port_xmit_bytes", "port_rcv_bytes"},
	/* mlx5 ethtool -S: the physical port, RDMA included */
	{RDC_DIAG_NETDEV, "tx_bytes_phy", "rx_bytes_phy"},
	/* statistics/: the kernel's stack only (hardware RoCE bypasses it; rxe does not) */
	{RDC_DIAG_NETDEV, "tx_bytes", "rx_bytes"},
};

/* Bytes both ways: in the window with two samples, since boot with one. */
static int lk_bytes(const struct rdc_diag_port *p, const struct lk_bytes_src *s, uint64_t *v)
{
	uint64_t tx, rx;
	int rc;

	if (p->nsamples > 1) {
		rc = rdc_diag_delta(p, s->set, s->tx, &tx);
		if (!rc)
			rc = rdc_diag_delta(p, s->set, s->rx, &rx);
	} else {
		rc = rdc_diag_counter(p, s->set, s->tx, &tx);
		if (!rc)
			rc = rdc_diag_counter(p, s->set, s->rx, &rx);
	}
	if (!rc)
		*v = tx + rx;
	return rc;
}

/*
 * A link's bytes both ways (@v, from lk_bytes) as evidence "bytes": over the
 * window (the total now when both counters have one), or since boot.
 */
static struct rdc_evidence *lk_bytes_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
					      const struct lk_bytes_src *s, uint64_t v,
					      const char *src)
{
	uint64_t tx, rx;

	if (p->nsamples < 2)
		return rdc_ev_counter(f, "bytes", src, v);
	if (rdc_diag_counter(p, s->set, s->tx, &tx) || rdc_diag_counter(p, s->set, s->rx, &rx))
		return rdc_ev_delta(f, "bytes", src, v, rdc_diag_window_s(p));
	return rdc_ev_window(f, "bytes", src, v, rdc_diag_window_s(p), tx + rx);
}

/* "1.5 GiB": bytes for a title. */
static void lk_size(uint64_t v, char *buf, size_t size)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double d = (double)v;
	size_t u = 0;

	while (d >= 1024 && u + 1 < RDC_ARRAY_SIZE(unit)) {
		d /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%llu B", (unsigned long long)v);
	else
		snprintf(buf, size, "%.1f %s", d, unit[u]);
}

static void check_traffic_imbalance(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				    struct rdc_diag_result *r)
{
	const struct lk_bytes_src *s = NULL;
	uint64_t bytes[LK_MAX], total = 0;
	char when[48], tot[32], b[32], src[RDC_DIAG_SOURCE_LEN], src2[RDC_DIAG_SOURCE_LEN];
	char *both = NULL, *hca = NULL, *members = NULL;
	struct lk_links l;
	struct rdc_finding *f;
	size_t top = 0;
	double share;

	lk_collect(h, c, r, true, true, &l);
	if (l.n < 2) {
		rdc_diag_skip(r, c, NULL, "%zu RoCE link%s up outside a bond: no balance to judge",
			      l.n, l.n == 1 ? "" : "s");
		return;
	}
	/* One counter for all links, or the shares compare different things. */
	for (size_t k = 0; k < RDC_ARRAY_SIZE(byte_srcs) && !s; k++) {
		bool all = true;

		for (size_t i = 0; i < l.n && all; i++)
			all = !lk_bytes(l.p[i], &byte_srcs[k], &bytes[i]);
		if (all)
			s = &byte_srcs[k];
	}
	if (!s) {
		rdc_diag_skip(r, c, NULL,
			      "no byte counter common to the %zu RoCE links (port_xmit_data, "
			      "tx_bytes_phy, tx_bytes)",
			      l.n);
		return;
	}
	for (size_t i = 0; i < l.n; i++) {
		total += bytes[i];
		if (bytes[i] > bytes[top])
			top = i;
	}
	if (l.p[0]->nsamples > 1)
		snprintf(when, sizeof(when), "in %.0f s", rdc_diag_window_s(l.p[0]));
	else
		snprintf(when, sizeof(when), "since boot/counter reset");
	lk_size(total, tot, sizeof(tot));
	if (total == 0 || total < h->policy.link_share_min_bytes) {
		lk_size(h->policy.link_share_min_bytes, b, sizeof(b));
		rdc_diag_skip(r, c, NULL,
			      "%s moved over %zu RoCE links %s: below %s (link-share-min-bytes)",
			      tot, l.n, when, b);
		return;
	}
	share = 100.0 * (double)bytes[top] / (double)total;
	if (share <= h->policy.link_share_pct_warn)
		return;
	f = rdc_diag_add(r, c, l.p[top], RDC_SEV_WARN, "%s carried %.0f%% of %s over %zu links %s",
			 l.p[top]->port.netdev.name, share, tot, l.n, when);
	rdc_diag_counted(f, l.p[top]);
	for (size_t i = 0; i < l.n; i++) {
		const struct rdc_diag_port *p = l.p[i];

		rdc_diag_counter_source(p, s->set, s->tx, src, sizeof(src));
		rdc_diag_counter_source(p, s->set, s->rx, src2, sizeof(src2));
		rdc_diag_cat(&both, "%s", src);
		if (strcmp(src, src2))
			rdc_diag_cat(&both, " + %s",
				     strrchr(src2, '/') ? strrchr(src2, '/') + 1 : src2);
		lk_size(bytes[i], b, sizeof(b));
		rdc_ev_detail(lk_bytes_evidence(f, p, s, bytes[i], rdc_diag_str(both)),
			      "%s, %s, %.1f%%", p->port.netdev.name, b,
			      100.0 * (double)bytes[i] / (double)total);
		free(both);
		both = NULL;
		rdc_diag_cat(&hca, "%s%s", i ? "," : "", p->port.device);
		rdc_diag_cat(&members, "%s%s", i ? "," : "", p->port.netdev.name);
	}
	rdc_ev_detail(rdc_ev_real(f, "share_pct", "its bytes / all the links' bytes", share), "%s",
		      l.p[top]->port.netdev.name);
	rdc_ev_real(f, "link-share-pct-warn", "policy", h->policy.link_share_pct_warn);
	rdc_finding_why(f, "the other links idle: the host gets one link's bandwidth, and losing "
			   "this link stops nearly all traffic; without RoCE LAG a QP stays on "
			   "its device's port, so which devices and source addresses the "
			   "application uses decides the split, and one subnet on several "
			   "links pulls the rest onto one route");
	rdc_finding_fix(f,
			"spread QPs over the devices (NCCL_IB_HCA=%s, UCX_NET_DEVICES, one rdma_cm "
			"source address per link), or, for ports of one NIC, RoCE LAG: 'rdmactl "
			"bond create bond0 mode 802.3ad members %s xmit-hash layer3+4 miimon 100'",
			rdc_diag_str(hca), rdc_diag_str(members));
	free(hca);
	free(members);
}

/* ---- links.mtu-differs -------------------------------------------------- */

static void check_mtu_differs(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	struct lk_links l;
	char *title = NULL, *fix = NULL, src[64 + IF_NAMESIZE];
	int64_t max = -1;
	bool differ = false;
	size_t n = 0;
	struct rdc_finding *f;

	lk_collect(h, c, r, false, false, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct rdc_diag_port *p = l.p[i];

		/* A spare port (down, no address) is no second path; a failed one is. */
		if (!lk_in_use(p)) {
			rdc_diag_skip(r, c, p, "%s is not ACTIVE (%s) and has no address: a spare",
				      p->port.netdev.name, p->port.state_name);
			continue;
		}
		if (p->port.netdev.mtu <= 0) {
			rdc_diag_skip(r, c, p, "MTU of %s unknown", p->port.netdev.name);
			continue;
		}
		if (max >= 0 && p->port.netdev.mtu != max)
			differ = true;
		if (p->port.netdev.mtu > max)
			max = p->port.netdev.mtu;
		l.p[n++] = p;
	}
	l.n = n;
	if (l.n < 2) {
		rdc_diag_skip(r, c, NULL, "%zu RoCE link%s with a known MTU: nothing to compare",
			      l.n, l.n == 1 ? "" : "s");
		return;
	}
	if (!differ)
		return;
	for (size_t i = 0; i < l.n; i++) {
		const struct rdc_diag_port *p = l.p[i];

		rdc_diag_cat(&title, "%s%s %lld", i ? ", " : "", p->port.netdev.name,
			     (long long)p->port.netdev.mtu);
		if (p->port.netdev.mtu < max)
			rdc_diag_cat(&fix, "%s'rdmactl port set %s mtu %lld'", fix ? ", " : "",
				     p->port.netdev.name, (long long)max);
	}
	f = rdc_diag_add(r, c, NULL, RDC_SEV_WARN, "RoCE links' MTUs differ: %s",
			 rdc_diag_str(title));
	free(title);
	/*
	 * Each link's MTU, then each RDMA port's active MTU (the netdev in the
	 * detail): with many links what is left out is the least needed.
	 */
	for (size_t i = 0; i < l.n; i++) {
		const struct rdc_diag_port *p = l.p[i];

		snprintf(src, sizeof(src), "/sys/class/net/%s/mtu", p->port.netdev.name);
		rdc_ev_detail(rdc_ev_int(f, "mtu_bytes", src, p->port.netdev.mtu), "%s",
			      p->port.netdev.name);
	}
	for (size_t i = 0; i < l.n; i++) {
		const struct rdc_diag_port *p = l.p[i];

		if (p->port.active_mtu <= 0)
			continue;
		rdc_ev_detail(rdc_ev_int(f, "active_mtu_bytes",
					 "derived from the netdev MTU (iboe_get_mtu)",
					 p->port.active_mtu),
			      "%s/%u on %s", p->port.device, p->port.port, p->port.netdev.name);
	}
	rdc_finding_why(f, "links that serve the same peers should carry the same frames: on the "
			   "smaller MTU RoCE's path MTU (active_mtu) is smaller, so the same data "
			   "takes more packets, a peer's larger frames are dropped there, and a "
			   "job that moves between links behaves differently");
	rdc_finding_fix(f, "%s (the switch ports and the peers must take it too)",
			rdc_diag_str(fix));
	free(fix);
}

static const struct rdc_diag_check checks[] = {
	{"links.arp-flux", RDC_SEV_WARN, "links in one subnet answer ARP for each other",
	 "netdev addresses (RTM_GETADDR), /proc/sys/net/ipv4/conf/{all,IF}/{arp_ignore,"
	 "arp_announce,rp_filter}",
	 "several links in one IPv4 subnet with arp_ignore < 1, arp_announce < 2 or rp_filter 1",
	 check_arp_flux},
	{"links.same-subnet", RDC_SEV_WARN, "more links are more paths only with their own subnets",
	 "netdev addresses (RTM_GETADDR)", "several RoCE links with addresses in one subnet",
	 check_same_subnet},
	{"links.traffic-imbalance", RDC_SEV_WARN, "the RoCE links that are up share the traffic",
	 "counters/port_xmit_data, port_rcv_data (else ethtool -S tx/rx_bytes_phy, statistics/)",
	 "one link > link-share-pct-warn % of the bytes, with >= link-share-min-bytes in all "
	 "(link-share-pct-warn, link-share-min-bytes)",
	 check_traffic_imbalance},
	{"links.mtu-differs", RDC_SEV_WARN, "the RoCE links have one MTU",
	 "/sys/class/net/IF/mtu of the RoCE links in use (up, or with an address)",
	 "any difference", check_mtu_differs},
};

const struct rdc_diag_family rdc_diag_family_links = {"links", checks, RDC_ARRAY_SIZE(checks)};
