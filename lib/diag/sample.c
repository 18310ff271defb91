// SPDX-License-Identifier: GPL-2.0-or-later
/* sample.c - read the host for diag: the facts once, the counters twice, all through the models */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "diag/diag.h"
#include "host/system.h"
#include "host/netdev_stats.h"
#include "host/port_counters.h"

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether @p as @netdev is among the first @n ports: those of the lists of
 * earlier selections (one list holds each port once, each LAG member once).
 */
static bool port_listed(const struct rdc_diag_host *h, size_t n, const struct rdc_port *p,
			const char *netdev)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(h->ports[i].port.device, p->device) &&
		    h->ports[i].port.port == p->port &&
		    !strcmp(h->ports[i].port.has_netdev ? h->ports[i].port.netdev.name : "",
			    netdev))
			return true;
	return false;
}

/*
 * Add port @p as physical netdev @netdev (its own, or a RoCE LAG member):
 * @member is the member's index, 0 for the first or without LAG.
 */
static int port_add(struct rdc_diag_host *h, size_t earlier, const struct rdc_port *p,
		    const char *netdev, unsigned int member)
{
	struct rdc_diag_port *ports, *dp;

	if (port_listed(h, earlier, p, netdev))
		return 0;
	/* Room doubles at 8, 16, 32...: one realloc per port made 800 ports quadratic. */
	if (!h->nports || (h->nports >= 8 && !(h->nports & (h->nports - 1)))) {
		ports = realloc(h->ports, (h->nports ? 2 * h->nports : 8) * sizeof(*ports));
		if (!ports)
			return -ENOMEM;
		h->ports = ports;
	}
	dp = &h->ports[h->nports++];
	memset(dp, 0, sizeof(*dp));
	rdc_port_copy(&dp->port, p);
	if (!p->has_netdev) {
		snprintf(dp->label, sizeof(dp->label), "%s/%u", p->device, p->port);
		return 0;
	}
	if (p->roce_lag) {
		/* The bond's addresses, a member's DCB and counters. */
		rdc_strlcpy(dp->bond, p->netdev.name, sizeof(dp->bond));
		rdc_strlcpy(dp->ip_netdev, p->netdev.name, sizeof(dp->ip_netdev));
		dp->lag_secondary = member > 0;
		rdc_netdev_free(&dp->port.netdev);
		if (rdc_netdev_read(netdev, &dp->port.netdev, NULL))
			rdc_strlcpy(dp->port.netdev.name, netdev, sizeof(dp->port.netdev.name));
	} else {
		rdc_strlcpy(dp->bond, p->upper, sizeof(dp->bond));
		rdc_strlcpy(dp->ip_netdev, p->upper[0] ? p->upper : netdev, sizeof(dp->ip_netdev));
	}
	snprintf(dp->label, sizeof(dp->label), "%s/%u %s", p->device, p->port, netdev);
	return 0;
}

/* Every port of @list, a RoCE LAG port once per member (host/carriers.h). */
static int ports_add(struct rdc_diag_host *h, const struct rdc_port_list *list)
{
	size_t earlier = h->nports;
	int rc = 0;

	for (size_t i = 0; i < list->count && !rc; i++) {
		const struct rdc_port *p = &list->ports[i];

		if (!p->has_netdev || !p->roce_lag || !p->netdev.nslaves) {
			rc = port_add(h, earlier, p, p->has_netdev ? p->netdev.name : "", 0);
			continue;
		}
		for (unsigned int k = 0; k < p->netdev.nslaves && !rc; k++)
			rc = port_add(h, earlier, p, p->netdev.slaves[k], k);
	}
	return rc;
}

/* The ports the user named (devices, device/port, netdevs), or all of them. */
static int ports_select(struct rdc_diag_host *h, const struct rdc_diag_select *sel,
			struct rdc_err *err)
{
	size_t n = sel ? sel->count : 0;
	int rc = 0;

	for (size_t i = 0; !rc && i < (n ? n : 1); i++) {
		struct rdc_port_list list = {0};

		rc = rdc_ports_read(&list, err);
		if (!rc && n)
			rc = rdc_ports_filter(&list, sel->names[i], err);
		if (!rc)
			rc = ports_add(h, &list);
		rdc_ports_free(&list);
	}
	if (rc == -ENOMEM)
		rdc_err_set(err, ENOMEM, "cannot hold the ports");
	return rc;
}

/* An error record as one reason: "MSG: strerror (detail)". */
static void err_reason(const struct rdc_err *e, char *buf, size_t size)
{
	char all[sizeof(e->msg) + sizeof(e->detail) + 96];

	snprintf(all, sizeof(all), "%s%s%s%s%s%s", e->msg[0] ? e->msg : "cannot read",
		 e->code ? ": " : "", e->code ? strerror(e->code) : "", e->detail[0] ? " (" : "",
		 e->detail, e->detail[0] ? ")" : "");
	rdc_words_copy(buf, size, all); /* one line, and never cut mid-word */
}

/*
 * A member's addresses and ARP settings are its bond's: what RoCE to this
 * port is addressed by (the GIDs'), and the interface ARP answers for.
 */
static void netif_addresses_read(struct rdc_diag_port *p)
{
	struct rdc_netif *ip = calloc(1, sizeof(*ip));
	struct rdc_netif *nif = &p->netif;

	if (!ip)
		return;
	rdc_netif_read(p->ip_netdev, ip, NULL);
	nif->have_addrs = ip->have_addrs;
	free(nif->addrs_reason);
	nif->addrs_reason = ip->addrs_reason; /* moved */
	ip->addrs_reason = NULL;
	nif->naddrs = ip->naddrs;
	memcpy(nif->addrs, ip->addrs, sizeof(nif->addrs));
	nif->arp_ignore = ip->arp_ignore;
	nif->arp_announce = ip->arp_announce;
	nif->rp_filter = ip->rp_filter;
	rdc_netif_free(ip);
	free(ip);
}

/* What is configured: read once.  Each part that cannot be read keeps its reason. */
static void port_facts_read(struct rdc_diag_port *p)
{
	struct rdc_err e = {0};
	const char *netdev = p->port.has_netdev ? p->port.netdev.name : NULL;
	bool ethernet = !strcmp(p->port.link_layer, "Ethernet");

	if (netdev && rdc_netif_read(netdev, &p->netif, &e))
		rdc_strlcpy(p->netif.name, netdev, sizeof(p->netif.name));
	if (netdev && p->ip_netdev[0] && strcmp(p->ip_netdev, netdev))
		netif_addresses_read(p);
	if (!netdev) {
		p->dcb_rc = -ENODEV;
		snprintf(p->dcb_reason, sizeof(p->dcb_reason), "the port has no netdev");
	} else {
		memset(&e, 0, sizeof(e));
		p->dcb_rc = rdc_dcb_read(netdev, &p->dcb, &e);
		if (p->dcb_rc)
			err_reason(&e, p->dcb_reason, sizeof(p->dcb_reason));
		rdc_ofed_qos_read(netdev, &p->ofed);
	}
	rdc_rdma_cm_read(p->port.device, p->port.port, &p->cm);
	memset(&e, 0, sizeof(e));
	p->gid_rc = rdc_gid_table_read_all(p->port.device, p->port.port, ethernet, &p->gids,
					   &p->ngids, &p->issues, &e);
	if (p->gid_rc)
		err_reason(&e, p->gid_reason, sizeof(p->gid_reason));
}

/* The counters of one port now.  Missing sets keep their -errno; only -ENOMEM fails. */
static int sample_read(struct rdc_diag_port *p, struct rdc_diag_sample *s, bool first)
{
	struct rdc_err e = {0}, ethtool_err = {0};
	struct rdc_counter_set both = {0};
	struct rdc_counter_unread unread = {0};
	struct rdc_netif nif;

	s->t_s = monotonic_s();
	s->ib_rc = rdc_port_counters_read(p->port.device, p->port.port, &both, &unread, &e);
	/* One read of both directories; the checks look in one set per directory. */
	for (size_t i = 0; i < both.count && !s->ib_rc; i++) {
		const struct rdc_counter *c = &both.items[i];

		s->ib_rc = rdc_counters_add(!strcmp(c->group, "hw") ? &s->hw : &s->ib, c->group,
					    c->name, c->value);
	}
	rdc_counters_free(&both);
	s->hw_rc = s->ib_rc;
	/* The second sample reads the same files: what failed twice is said once. */
	rdc_issues_merge(&p->issues, &unread.issues);
	rdc_counter_unread_free(&unread);
	s->carrier_changes = -1;
	if (!p->port.has_netdev) {
		s->netdev_rc = -ENODEV;
	} else {
		s->netdev_rc =
			rdc_netdev_stats_read(p->port.netdev.name, &s->netdev, &ethtool_err, &e);
		/* The first sample follows the facts, which read the carrier just now. */
		if (first)
			s->carrier_changes = p->netif.carrier_changes;
		else if (!rdc_netif_read(p->port.netdev.name, &nif, NULL))
			s->carrier_changes = nif.carrier_changes;
		if (!first)
			rdc_netif_free(&nif);
	}
	if (s->ib_rc == -ENOMEM || s->hw_rc == -ENOMEM || s->netdev_rc == -ENOMEM)
		return -ENOMEM;
	return 0;
}

/* Sleep @seconds, waking early when *stop is set. */
static int wait_interval(double seconds, volatile sig_atomic_t *stop)
{
	double end = monotonic_s() + seconds;

	for (;;) {
		double left = end - monotonic_s();
		struct timespec ts;

		if (stop && *stop)
			return -EINTR;
		if (left <= 0)
			return 0;
		if (left > 0.1)
			left = 0.1; /* look at *stop ten times a second */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

static int samples_read(struct rdc_diag_host *h, size_t k)
{
	for (size_t i = 0; i < h->nports; i++) {
		if (sample_read(&h->ports[i], &h->ports[i].s[k], k == 0))
			return -ENOMEM;
		h->ports[i].nsamples = k + 1;
	}
	return 0;
}

/*
 * Live: wait, then read again.  A bundle holds both samples already: no
 * wait, the second from its samples/2 files and the recording's second
 * answers, the window it recorded.
 */
static int second_sample(struct rdc_diag_host *h, double interval_s, volatile sig_atomic_t *stop,
			 struct rdc_err *err)
{
	bool live = rdc_system_live();
	double window = interval_s;
	int rc = 0;

	if (live)
		rc = wait_interval(interval_s, stop);
	if (rc == -EINTR)
		return rdc_err_set(err, EINTR, "interrupted before the second sample");
	if (!live)
		rdc_system_window(&window); /* keeps interval_s without one */
	rc = rdc_system_sample(1, err);
	if (!rc) {
		rc = samples_read(h, 1);
		if (rc)
			rc = rdc_err_set(err, -rc, "cannot hold the counters");
	}
	rdc_system_sample(0, NULL);
	if (rc || live)
		return rc;
	for (size_t i = 0; i < h->nports; i++)
		h->ports[i].s[1].t_s = h->ports[i].s[0].t_s + window;
	h->interval_s = window;
	return 0;
}

static int bonds_read(struct rdc_diag_host *h)
{
	struct rdc_err e = {0};

	h->bonds_rc = rdc_bond_read_all(&h->bonds, &e);
	if (h->bonds_rc) {
		err_reason(&e, h->bonds_reason, sizeof(h->bonds_reason));
		h->bonds.count = 0;
		return 0;
	}
	if (!h->bonds.count)
		return 0;
	h->bond_facts = calloc(h->bonds.count, sizeof(*h->bond_facts));
	if (!h->bond_facts)
		return -ENOMEM;
	for (size_t i = 0; i < h->bonds.count; i++) {
		rdc_bond_facts_init(&h->bonds.bonds[i], &h->bond_facts[i]);
		rdc_bond_facts_read(&h->bonds.bonds[i], &h->bond_facts[i], NULL);
	}
	return 0;
}

int rdc_diag_host_read(struct rdc_diag_host *h, const struct rdc_diag_select *sel,
		       double interval_s, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	struct rdc_diag_policy policy = h->policy;
	int rc;

	if (interval_s > 0 && rdc_system_rooted()) {
		double window;

		rc = rdc_system_window_for(interval_s, &window, err);
		if (rc)
			return rc;
	}
	memset(h, 0, sizeof(*h));
	h->policy = policy;
	h->interval_s = interval_s;
	rc = ports_select(h, sel, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < h->nports; i++)
		port_facts_read(&h->ports[i]);
	rdc_host_facts_read(&h->facts, NULL);
	rc = bonds_read(h);
	if (!rc)
		rc = samples_read(h, 0);
	if (!rc && interval_s > 0)
		rc = second_sample(h, interval_s, stop, err);
	else if (rc)
		rc = rdc_err_set(err, -rc, "cannot hold the counters");
	return rc;
}

void rdc_diag_host_free(struct rdc_diag_host *h)
{
	for (size_t i = 0; i < h->nports; i++) {
		struct rdc_diag_port *p = &h->ports[i];

		for (size_t k = 0; k < 2; k++) {
			rdc_counters_free(&p->s[k].ib);
			rdc_counters_free(&p->s[k].hw);
			rdc_counters_free(&p->s[k].netdev);
		}
		free(p->gids);
		rdc_netif_free(&p->netif);
		rdc_issues_free(&p->issues);
		rdc_port_free(&p->port);
	}
	free(h->ports);
	free(h->bond_facts);
	h->ports = NULL;
	h->bond_facts = NULL;
	h->nports = 0;
}
