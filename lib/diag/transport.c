// SPDX-License-Identifier: GPL-2.0-or-later
/* transport.c - diag checks of what rides on the link: receive buffers, RC loss, GIDs, rdma_cm */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "diag/diag.h"

#define SRC_ADDRS "rtnetlink RTM_GETADDR"
#define IB_STATE_ACTIVE 4 /* ports/N/state "4: ACTIVE" */

/* "mlx5_0/1 ens1f0np0" carries no error text; say why a counter set is empty (added to *@why). */
static void tr_set_reason(char **why, const char *what, int rc)
{
	if (rc)
		rdc_diag_cat(why, "; %s: %s", what, strerror(-rc));
}

/* ---- counters judged alike: any increase is a finding ------------------ */

struct tr_counter {
	enum rdc_diag_set set;
	const char *name;
};

struct tr_hit {
	const struct tr_counter *c;
	uint64_t v; /* the delta in the window, or the cumulative value */
};

/*
 * The counters of @table that moved: with two samples their delta in the
 * window, with one their value since boot (or the last reset).  Returns how
 * many moved; *@present says how many the port has at all.
 */
static size_t tr_moved(const struct rdc_diag_port *p, const struct tr_counter *table, size_t n,
		       struct tr_hit *hits, size_t *present)
{
	size_t nhits = 0;

	*present = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		int rc = p->nsamples > 1 ? rdc_diag_delta(p, table[i].set, table[i].name, &v)
					 : rdc_diag_counter(p, table[i].set, table[i].name, &v);

		if (rc)
			continue;
		(*present)++;
		if (v > 0)
			hits[nhits++] = (struct tr_hit){&table[i], v};
	}
	return nhits;
}

/*
 * The title's list: "out_of_sequence +12, local_ack_timeout_err +3"; what
 * does not fit in @size ends it as "and 2 more" (the evidence has them all).
 */
static void tr_hits_list(const struct rdc_diag_port *p, const struct tr_hit *hits, size_t n,
			 char *list, size_t size)
{
	char one[96];
	size_t i;

	list[0] = '\0';
	for (i = 0; i < n; i++) {
		snprintf(one, sizeof(one), "%s%s %s%llu", i ? ", " : "", hits[i].c->name,
			 p->nsamples > 1 ? "+" : "", (unsigned long long)hits[i].v);
		/* room for this one and for ", and 99 more" after it */
		if (strlen(list) + strlen(one) + 16 > size)
			break;
		rdc_diag_append(list, size, "%s", one);
	}
	if (i < n)
		rdc_diag_append(list, size, ", and %zu more", n - i);
}

/*
 * One piece of evidence per counter that moved: over the window (its total
 * now, the delta, window_s) with two samples, its total since boot or the
 * counter's reset with one.
 */
static void tr_hits_evidence(const struct rdc_diag_port *p, struct rdc_finding *f,
			     const struct tr_hit *hits, size_t n)
{
	double w = rdc_diag_window_s(p);
	char src[RDC_DIAG_SOURCE_LEN];

	for (size_t i = 0; i < n; i++) {
		const char *name = hits[i].c->name;
		uint64_t total;

		rdc_diag_counter_source(p, hits[i].c->set, name, src, sizeof(src));
		if (p->nsamples < 2)
			rdc_ev_counter(f, name, src, hits[i].v);
		else if (rdc_diag_counter(p, hits[i].c->set, name, &total))
			rdc_ev_delta(f, name, src, hits[i].v, w);
		else
			rdc_ev_window(f, name, src, hits[i].v, w, total);
	}
}

/* ---- transport.host-too-slow (#18) ------------------------------------- */

static const struct tr_counter slow_counters[] = {
	/* RDMA: a packet for a QP whose receive queue had no WQE posted (mlx5 hw_counters) */
	{RDC_DIAG_HW, "out_of_buffer"},
	/* Ethernet: the driver's receive ring was empty (mlx5 ethtool -S, vport) */
	{RDC_DIAG_NETDEV, "rx_out_of_buffer"},
};

static void check_host_too_slow(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const size_t n = RDC_ARRAY_SIZE(slow_counters);
		struct tr_hit hits[RDC_ARRAY_SIZE(slow_counters)];
		char list[96], *why = NULL;
		size_t present, nhits = tr_moved(p, slow_counters, n, hits, &present);
		bool win = p->nsamples > 1;
		struct rdc_finding *f;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (!present) {
			tr_set_reason(&why, "hw_counters", p->s[0].hw_rc);
			tr_set_reason(&why, "ethtool", p->s[0].netdev_rc);
			rdc_diag_skip(r, c, p, "no out_of_buffer or rx_out_of_buffer counter%s",
				      rdc_diag_str(why));
			free(why);
			continue;
		}
		if (!nhits)
			continue;
		tr_hits_list(p, hits, nhits, list, sizeof(list));
		if (win)
			f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
					 "receive buffers ran dry in %.0f s: %s",
					 rdc_diag_window_s(p), list);
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "receive buffers ran dry since boot/counter reset: %s",
					 list);
		rdc_diag_counted(f, p);
		tr_hits_evidence(p, f, hits, nhits);
		rdc_finding_why(f,
				"packets arrived faster than the host posted buffers for them: an "
				"RC QP without a receive WQE answers with RNR NAKs and its "
				"sender stalls for the RNR timer, UD and Ethernet packets are "
				"dropped; the network is fine, the receiver is too slow");
		rdc_finding_fix(f,
				"post receives deeper and earlier (a larger RQ or an SRQ, "
				"rnr_retry 7)%s%s%s and keep the application and IRQs on the NIC's "
				"NUMA node",
				p->port.has_netdev
					? "; for Ethernet traffic grow the ring ('ethtool -G "
					: "",
				p->port.has_netdev ? p->port.netdev.name : "",
				p->port.has_netdev ? " rx 8192')," : ",");
	}
}

/* ---- transport.loss (#19) ----------------------------------------------- */

static const struct tr_counter loss_counters[] = {
	/* mlx5 hw_counters: a responder saw a PSN gap, a requester a NAK for one */
	{RDC_DIAG_HW, "out_of_sequence"},
	{RDC_DIAG_HW, "packet_seq_err"},
	{RDC_DIAG_HW, "implied_nak_seq_err"},
	/* no ACK within the QP's timeout: the request or its ACK was lost */
	{RDC_DIAG_HW, "local_ack_timeout_err"},
	{RDC_DIAG_HW, "req_transport_retries_exceeded"},
	/* rdma_rxe's names for the same events */
	{RDC_DIAG_HW, "out_of_seq_request"},
	{RDC_DIAG_HW, "rcvd_seq_err"},
	{RDC_DIAG_HW, "completer_retry_err"},
	{RDC_DIAG_HW, "retry_exceeded_err"},
};

static void check_loss(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const size_t n = RDC_ARRAY_SIZE(loss_counters);
		struct tr_hit hits[RDC_ARRAY_SIZE(loss_counters)];
		char list[96], *why = NULL;
		size_t present, nhits = tr_moved(p, loss_counters, n, hits, &present);
		bool win = p->nsamples > 1;
		struct rdc_finding *f;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (!present) {
			tr_set_reason(&why, "hw_counters", p->s[0].hw_rc);
			rdc_diag_skip(r, c, p, "no transport error counters (hw_counters)%s",
				      rdc_diag_str(why));
			free(why);
			continue;
		}
		if (!nhits)
			continue;
		/* Old loss since boot may be a past flap: it warns; loss now fails. */
		tr_hits_list(p, hits, nhits, list, sizeof(list));
		if (win)
			f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
					 "RC transport lost packets in %.0f s: %s",
					 rdc_diag_window_s(p), list);
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "RC transport lost packets since boot/counter reset: %s",
					 list);
		rdc_diag_counted(f, p);
		tr_hits_evidence(p, f, hits, nhits);
		rdc_finding_why(f,
				"sequence errors and ACK timeouts mean packets were dropped on "
				"the way: RoCE recovers by go-back-N, resending everything after "
				"the gap, so a little loss costs a lot of bandwidth; on a "
				"lossless fabric it means PFC is not protecting this traffic");
		/* InfiniBand is lossless by credit flow control: no PFC to advise there. */
		if (!rdc_diag_port_roce(p)) {
			rdc_finding_fix(f, "find the drop: the link.* findings of this run, the "
					   "switches' port counters ('perfquery') and the subnet "
					   "manager's log");
			continue;
		}
		/*
		 * No DCB on the netdev (Soft-RoCE, a virtual NIC), or none read: no
		 * PFC command to give that could run here.
		 */
		if (p->dcb_rc < 0 || !p->dcb.supported) {
			rdc_finding_fix(f,
					"find the drop: the link.* findings of this run and the "
					"path's drop counters; %s %s, so no PFC is advised here",
					rdc_diag_ip_netdev(p),
					p->dcb_rc < 0 ? "has no DCB state that could be read"
						      : "has no DCB");
			continue;
		}
		rdc_finding_fix(f,
				"find the drop: the link.* and qos.* findings of this run, the "
				"switch's drop counters; make the RoCE priority lossless with "
				"'rdmactl pfc apply dev %s profile roce-lossless'",
				rdc_diag_ip_netdev(p));
		rdc_finding_fix_cmd(f,
				    RDC_WORDS("rdmactl", "pfc", "apply", "dev",
					      rdc_diag_ip_netdev(p), "profile", "roce-lossless"));
	}
}

/* ---- transport.gid-missing (#23) ---------------------------------------- */

/* Whether @g is the GID of address @a: IPv4 rides in ::ffff:a.b.c.d, IPv6 is the GID. */
static bool tr_gid_carries(const struct rdc_gid *g, const struct rdc_netif_addr *a)
{
	static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (a->family == AF_INET)
		return !memcmp(g->raw, v4mapped, sizeof(v4mapped)) &&
		       !memcmp(g->raw + 12, a->raw, 4);
	return a->family == AF_INET6 && !memcmp(g->raw, a->raw, 16);
}

/*
 * An active port whose netdev has no global address: RoCE v2 has only the
 * link-local GIDs, which no router forwards.
 */
static void tr_only_link_local(const struct rdc_diag_check *c, const struct rdc_diag_port *p,
			       struct rdc_diag_result *r)
{
	const char *nd = rdc_diag_ip_netdev(p);
	char src[RDC_DIAG_SOURCE_LEN];
	struct rdc_finding *f;

	/* A member's addresses are its bond's: judged only when they are what was read. */
	if (p->port.state != IB_STATE_ACTIVE ||
	    (p->port.netdev.master[0] && strcmp(nd, p->port.netdev.master)))
		return;
	f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "no IP address on %s: only link-local GIDs", nd);
	if (p->netif.naddrs)
		rdc_ev_detail(rdc_ev_uint(f, "addresses_count", SRC_ADDRS, p->netif.naddrs),
			      "all link-local, on %s", nd);
	else
		rdc_ev_detail(rdc_ev_uint(f, "addresses_count", SRC_ADDRS, 0), "on %s", nd);
	snprintf(src, sizeof(src), "/sys/class/infiniband/%s/ports/%u/state", p->port.device,
		 p->port.port);
	rdc_ev_detail(rdc_ev_text(f, "state", src, "%s", p->port.state_name), "PortState %d",
		      p->port.state);
	rdc_finding_why(f, "RoCE v2 is addressed by IP: with link-local GIDs only, rdma_cm cannot "
			   "reach this port by address and no router forwards its packets");
	rdc_finding_fix(f,
			"give %s an address of its link's own subnet ('ip address add' with "
			"the address and its prefix length, dev %s)",
			nd, nd);
}

/* What the table holds for one address: a RoCE v2 GID, or a RoCE v1 one only, or none. */
static const struct rdc_gid *tr_gid_lookup(const struct rdc_diag_port *p,
					   const struct rdc_netif_addr *a, bool *v2)
{
	const struct rdc_gid *v1 = NULL;

	*v2 = false;
	for (size_t g = 0; g < p->ngids; g++) {
		const struct rdc_gid *gid = &p->gids[g];

		/* The kernel files a VLAN's or a bond's addresses under that netdev. */
		if (strcmp(gid->netdev, rdc_diag_ip_netdev(p)) || !tr_gid_carries(gid, a))
			continue;
		if (gid->type == RDC_GID_ROCE_V2) {
			*v2 = true;
			return gid;
		}
		if (gid->type == RDC_GID_ROCE_V1 && !v1)
			v1 = gid;
	}
	return v1;
}

static void tr_gid_report(const struct rdc_diag_check *c, const struct rdc_diag_port *p,
			  const struct rdc_netif_addr *const *bad, const struct rdc_gid *const *v1,
			  size_t nbad, struct rdc_diag_result *r)
{
	const char *nd = rdc_diag_ip_netdev(p);
	char *missing = NULL, *v1only = NULL, src[RDC_DIAG_SOURCE_LEN];
	size_t nmissing = 0, nv1 = 0;
	struct rdc_finding *f;

	for (size_t i = 0; i < nbad; i++) {
		if (v1[i])
			rdc_diag_cat(&v1only, "%s%s", nv1++ ? ", " : "", bad[i]->ip);
		else
			rdc_diag_cat(&missing, "%s%s", nmissing++ ? ", " : "", bad[i]->ip);
	}
	if (nmissing && nv1)
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
				 "no RoCE v2 GID for %s on %s (RoCE v1 only: %s)",
				 rdc_diag_str(missing), nd, rdc_diag_str(v1only));
	else if (nmissing)
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL, "no RoCE v2 GID for %s on %s",
				 rdc_diag_str(missing), nd);
	else
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "only RoCE v1 GIDs for %s on %s",
				 rdc_diag_str(v1only), nd);
	free(missing);
	free(v1only);
	/* An address with its prefix is one value; the detail says what its GIDs lack. */
	for (size_t i = 0; i < nbad; i++) {
		rdc_ev_detail(rdc_ev_text(f, "address", SRC_ADDRS, "%s/%u", bad[i]->ip,
					  bad[i]->prefix_len),
			      "%s, %s", nd, v1[i] ? "RoCE v1 GID only" : "no RoCE v2 GID");
		if (!v1[i])
			continue;
		snprintf(src, sizeof(src), "/sys/class/infiniband/%s/ports/%u/gid_attrs/types/%u",
			 p->port.device, p->port.port, v1[i]->index);
		rdc_ev_detail(rdc_ev_text(f, "gid_type", src, "%s", rdc_gid_type_name(v1[i]->type)),
			      "GID %u, %s", v1[i]->index, v1[i]->ip);
	}
	snprintf(src, sizeof(src), "/sys/class/infiniband/%s/ports/%u/gids", p->port.device,
		 p->port.port);
	rdc_ev_uint(f, "gids_in_use", src, p->ngids);
	if (nmissing) {
		rdc_finding_why(
			f, "RoCE v2 is addressed by IP: rdma_cm and applications look up the "
			   "port's RoCE v2 GID of the IP and fail without one ('RoCE v2 GID not "
			   "found'); the kernel adds one per address of the port's netdev, so "
			   "the address sits elsewhere (a VLAN, a namespace the device is not "
			   "in) or the device lost it");
		rdc_finding_fix(f,
				"see what the table holds ('rdmactl port gids %s'); deleting and "
				"adding the address again on %s makes the kernel add its GIDs; in "
				"a container move %s into the namespace ('rdma dev set %s netns' "
				"and its name)",
				nd, nd, p->port.device, p->port.device);
		rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "port", "gids", nd));
	} else {
		rdc_finding_why(f,
				"RoCE v1 is plain Ethernet (ethertype 0x8915): it does not cross "
				"a router, has no UDP port for ECMP, and DSCP-based PFC and ECN "
				"do not see it");
		rdc_finding_fix(f,
				"enable RoCE v2 in the NIC's driver or firmware, then make it "
				"rdma_cm's default ('rdmactl pfc set dev %s roce-mode v2')",
				nd);
		rdc_finding_fix_cmd(
			f, RDC_WORDS("rdmactl", "pfc", "set", "dev", nd, "roce-mode", "v2"));
	}
}

/* The indexes of the slots that could not be read ("3, 7") into *@list, or false when there are none. */
static bool tr_gid_unreadable(const struct rdc_diag_port *p, char **list)
{
	size_t n = 0;

	for (size_t g = 0; g < p->ngids; g++)
		if (p->gids[g].unreadable)
			rdc_diag_cat(list, "%s%u", n++ ? ", " : "", p->gids[g].index);
	return n > 0;
}

static void check_gid_missing(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct rdc_netif_addr *bad[RDC_NETIF_ADDRS_MAX];
		const struct rdc_gid *v1[RDC_NETIF_ADDRS_MAX];
		size_t nbad = 0, nglobal = 0;
		char *unread = NULL;

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (!rdc_diag_port_roce(p)) {
			rdc_diag_skip(r, c, p, "not a RoCE port (link layer %s)",
				      p->port.link_layer[0] ? p->port.link_layer : "unknown");
			continue;
		}
		if (p->gid_rc) {
			rdc_diag_skip(r, c, p, "GID table not read: %s", p->gid_reason);
			continue;
		}
		if (!p->netif.have_addrs) {
			rdc_diag_skip(r, c, p, "addresses of %s not read: %s",
				      rdc_diag_ip_netdev(p), rdc_diag_str(p->netif.addrs_reason));
			continue;
		}
		for (size_t a = 0; a < p->netif.naddrs && a < RDC_NETIF_ADDRS_MAX; a++) {
			const struct rdc_netif_addr *ad = &p->netif.addrs[a];
			const struct rdc_gid *g;
			bool v2;

			/*
			 * The kernel adds link-local GIDs as it adds the others, but a
			 * tentative or failed IPv6 one has none: judge the routable ones.
			 */
			if (ad->link_local)
				continue;
			nglobal++;
			g = tr_gid_lookup(p, ad, &v2);
			if (v2)
				continue;
			bad[nbad] = ad;
			v1[nbad++] = g;
		}
		if (nbad && tr_gid_unreadable(p, &unread))
			/* The missing GID may sit in a slot that could not be read. */
			rdc_diag_skip(r, c, p, "GID slot(s) %s could not be read", unread);
		else if (nbad)
			tr_gid_report(c, p, bad, v1, nbad, r);
		free(unread);
		if (!nglobal)
			tr_only_link_local(c, p, r);
	}
}

/* ---- transport.rdma-cm (#24) -------------------------------------------- */

/* "rdmactl pfc set dev NETDEV roce-mode v2 roce-tos 106", what differs only. */
static void tr_rdma_cm_cmd(struct rdc_finding *f, const char *netdev, bool mode, bool tos,
			   unsigned int want_tos)
{
	struct rdc_argv cmd = {0};
	char num[16];

	rdc_argv_add(&cmd, "rdmactl");
	rdc_argv_add(&cmd, "pfc");
	rdc_argv_add(&cmd, "set");
	rdc_argv_add(&cmd, "dev");
	rdc_argv_add(&cmd, netdev);
	if (mode) {
		rdc_argv_add(&cmd, "roce-mode");
		rdc_argv_add(&cmd, "v2");
	}
	if (tos) {
		snprintf(num, sizeof(num), "%u", want_tos);
		rdc_argv_add(&cmd, "roce-tos");
		rdc_argv_add(&cmd, num);
	}
	rdc_finding_fix_argv(f, &cmd);
}

static void check_rdma_cm(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			  struct rdc_diag_result *r)
{
	const unsigned int want_tos = h->policy.cm_tos;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		bool bad_mode, bad_tos;
		char *title = NULL, *fix = NULL, src[RDC_DIAG_SOURCE_LEN];
		struct rdc_finding *f;

		if (!rdc_diag_port_roce(p)) {
			rdc_diag_skip(r, c, p, "not a RoCE port (link layer %s)",
				      p->port.link_layer[0] ? p->port.link_layer : "unknown");
			continue;
		}
		if (!p->cm.have_mode && !p->cm.have_tos) {
			rdc_diag_skip(r, c, p,
				      "rdma_cm configfs has no entry for %s (rdma_cm not loaded, "
				      "configfs not mounted, or the directory not created: then "
				      "rdma_cm uses RoCE v2 and ToS 0)",
				      p->port.device);
			continue;
		}
		bad_mode = p->cm.have_mode && strcmp(p->cm.mode, "RoCE v2");
		bad_tos = p->cm.have_tos && p->cm.tos != (int64_t)want_tos;
		if (!bad_mode && !bad_tos)
			continue;
		if (bad_mode) {
			rdc_diag_cat(&title, "default mode %s (want RoCE v2)", p->cm.mode);
			rdc_diag_cat(&fix, " roce-mode v2");
		}
		if (bad_tos) {
			rdc_diag_cat(&title, "%sdefault ToS %lld (policy %u: DSCP %u)",
				     bad_mode ? ", " : "", (long long)p->cm.tos, want_tos,
				     want_tos >> 2);
			rdc_diag_cat(&fix, " roce-tos %u", want_tos);
		}
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "rdma_cm %s", rdc_diag_str(title));
		free(title);
		if (p->cm.have_mode) {
			rdc_rdma_cm_path(src, sizeof(src), p->port.device, p->port.port,
					 "default_roce_mode");
			rdc_ev_text(f, "default_roce_mode", src, "%s", p->cm.mode);
		}
		if (p->cm.have_tos) {
			rdc_rdma_cm_path(src, sizeof(src), p->port.device, p->port.port,
					 "default_roce_tos");
			rdc_ev_detail(rdc_ev_int(f, "default_roce_tos", src, p->cm.tos),
				      "DSCP %lld, ECN %lld", (long long)(p->cm.tos >> 2),
				      (long long)(p->cm.tos & 3));
		}
		rdc_ev_detail(rdc_ev_uint(f, "cm-tos", "policy", want_tos), "DSCP %u, ECN %u",
			      want_tos >> 2, want_tos & 3);
		rdc_finding_why(
			f, "applications that do not set their own mode and ToS (most: "
			   "rdma_cm users, NCCL without NCCL_IB_TC) get these: the ToS's DSCP "
			   "picks the priority, so traffic off the policy's DSCP rides a lossy "
			   "queue without PFC and ECN, and RoCE v1 is not routable");
		rdc_finding_fix(f,
				"'rdmactl pfc set dev %s%s' (not kept across reboots: put it "
				"in /etc/rdmactl/pfc.yaml, which 'rdmactl pfc apply -f' reads)",
				p->port.netdev.name, rdc_diag_str(fix));
		free(fix);
		tr_rdma_cm_cmd(f, p->port.netdev.name, bad_mode, bad_tos, want_tos);
	}
}

static const struct rdc_diag_check checks[] = {
	{"transport.host-too-slow", RDC_SEV_FAIL,
	 "receive buffers ran dry: the host is slower than the network",
	 "hw_counters/out_of_buffer, ethtool -S rx_out_of_buffer",
	 "> 0 in the window F; > 0 since boot (one sample) W", check_host_too_slow},
	{"transport.loss", RDC_SEV_FAIL, "packet loss reached the RC transport",
	 "hw_counters/out_of_sequence, packet_seq_err, implied_nak_seq_err, "
	 "local_ack_timeout_err, req_transport_retries_exceeded (rxe: out_of_seq_request, "
	 "rcvd_seq_err, completer_retry_err, retry_exceeded_err)",
	 "> 0 in the window F; > 0 since boot (one sample) W", check_loss},
	{"transport.gid-missing", RDC_SEV_FAIL, "every IP of a RoCE netdev has a RoCE v2 GID",
	 "netdev addresses (RTM_GETADDR), ports/N/gids, gid_attrs/types, gid_attrs/ndevs",
	 "an address without a RoCE v2 GID F; with RoCE v1 only W; only link-local addresses W",
	 check_gid_missing},
	{"transport.rdma-cm", RDC_SEV_WARN, "rdma_cm defaults: RoCE v2 and the policy's ToS",
	 "configfs rdma_cm/DEV/ports/N/default_roce_mode, default_roce_tos",
	 "mode not RoCE v2, or ToS != policy (cm-tos)", check_rdma_cm},
};

const struct rdc_diag_family rdc_diag_family_transport = {"transport", checks,
							  RDC_ARRAY_SIZE(checks)};
