// SPDX-License-Identifier: GPL-2.0-or-later
/* links.c - parameters, the endpoints a host offers, and pairing them into links */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "base/ipv4.h"
#include "base/util.h"
#include "bench/bench.h"
#include "bench/links.h"
#include "host/gid.h"
#include "host/ibdev.h"
#include "kernel/addr.h"

/* The endpoints of one port: its RoCE v2 GIDs with a non-link-local IPv4 address. */
static int endpoints_of_port(const struct rdc_port *p, const struct rdc_addr4_list *addrs,
			     struct rdc_bench_endpoint *eps, uint32_t max, uint32_t *count,
			     struct rdc_err *err)
{
	struct rdc_gid *gids = NULL;
	size_t ngids = 0;
	int rc;

	/* Unreadable slots are no endpoints; which they are, `port gids` says. */
	rc = rdc_gid_table_read_all(p->device, p->port, true, &gids, &ngids, NULL, err);
	if (rc)
		return rc;
	for (size_t g = 0; g < ngids && *count < max; g++) {
		struct rdc_bench_endpoint *e = &eps[*count];
		const struct rdc_addr4 *a;
		struct in_addr in;

		if (gids[g].unreadable || gids[g].type != RDC_GID_ROCE_V2 ||
		    gids[g].family != AF_INET || !gids[g].recommended ||
		    inet_pton(AF_INET, gids[g].ip, &in) != 1)
			continue;
		memset(e, 0, sizeof(*e));
		rdc_strlcpy(e->device, p->device, sizeof(e->device));
		e->port = p->port;
		rdc_strlcpy(e->netdev, gids[g].netdev, sizeof(e->netdev));
		e->gid_index = gids[g].index;
		memcpy(e->gid, gids[g].raw, 16);
		e->ipv4 = ntohl(in.s_addr);
		a = rdc_addr4_find(addrs, e->ipv4);
		e->prefix_len = a ? a->prefix_len : 32;
		e->active_mtu = p->active_mtu > 0 ? (uint32_t)p->active_mtu : 1024;
		e->rate_mbps = (uint32_t)(p->rate_gbps * 1000);
		e->active = !strcmp(p->state_name, "ACTIVE");
		e->numa_node = p->has_pci ? (int32_t)p->pci.numa_node : -1;
		(*count)++;
	}
	free(gids);
	return 0;
}

int rdc_bench_endpoints_read(struct rdc_bench_endpoint *eps, uint32_t max, uint32_t *count,
			     struct rdc_err *err)
{
	struct rdc_port_list ports = {0};
	struct rdc_addr4_list addrs = {0};
	int rc;

	*count = 0;
	rc = rdc_ports_read(&ports, err);
	if (rc)
		return rc;
	/* Without addresses (no rtnetlink) the prefix stays unknown: only exact pairs match. */
	if (rdc_addr4_list(&addrs, NULL))
		memset(&addrs, 0, sizeof(addrs));
	for (size_t i = 0; i < ports.count && !rc; i++)
		if (!strcmp(ports.ports[i].link_layer, "Ethernet"))
			rc = endpoints_of_port(&ports.ports[i], &addrs, eps, max, count, err);
	rdc_addr4_list_free(&addrs);
	rdc_ports_free(&ports);
	return rc;
}

int rdc_bench_endpoints_usable(uint32_t *count, struct rdc_err *err)
{
	struct rdc_bench_endpoint eps[RDC_BENCH_MAX_ENDPOINTS];
	struct rdc_port_list ports = {0};
	char devs[160] = "";
	size_t len = 0;
	bool ethernet = false;
	int rc;

	rc = rdc_bench_endpoints_read(eps, RDC_BENCH_MAX_ENDPOINTS, count, err);
	if (rc || *count)
		return rc;
	rc = rdc_ports_read(&ports, err);
	if (rc)
		return rc;
	if (!ports.count) {
		rdc_ports_free(&ports);
		return rdc_err_set_plain(
			err, ENODEV,
			"no RDMA device on this host (/sys/class/infiniband is empty): "
			"load the NIC's RDMA driver, or add Soft-RoCE with 'rdma link "
			"add rxe0 type rxe netdev IFACE'");
	}
	/* Each device once, in the order `port` lists them; "..." when they do not fit. */
	for (size_t i = 0; i < ports.count; i++) {
		const char *d = ports.ports[i].device;

		ethernet |= !strcmp(ports.ports[i].link_layer, "Ethernet");
		if (i && !strcmp(d, ports.ports[i - 1].device))
			continue;
		if (len + strlen(d) + 6 >= sizeof(devs)) {
			snprintf(devs + len, sizeof(devs) - len, ", ...");
			break;
		}
		len += (size_t)snprintf(devs + len, sizeof(devs) - len, "%s%s", len ? ", " : "", d);
	}
	rdc_ports_free(&ports);
	if (!ethernet)
		return rdc_err_set_plain(err, ENODEV,
					 "no port of %s is Ethernet: bench runs over RoCE v2, not "
					 "InfiniBand",
					 devs);
	return rdc_err_set_plain(err, ENODEV,
				 "no port of %s has a RoCE v2 GID with an IPv4 address: give its "
				 "netdev an IPv4 address (see 'rdmactl port gids')",
				 devs);
}

int rdc_bench_link_spec_parse(const char *text, struct rdc_bench_link_spec *spec)
{
	const char *colon = strchr(text, ':');
	size_t nlocal = colon ? (size_t)(colon - text) : strlen(text);

	memset(spec, 0, sizeof(*spec));
	if (!nlocal || nlocal >= sizeof(spec->local))
		return -EINVAL;
	memcpy(spec->local, text, nlocal);
	if (!colon)
		return 0;
	if (strchr(colon + 1, ':') || !colon[1])
		return -EINVAL;
	return rdc_strlcpy(spec->remote, colon + 1, sizeof(spec->remote)) ? -EINVAL : 0;
}

/*
 * Whether endpoint @e is what @name names:
 *   "198.18.1.1"  its address      "rxe0"  any port of the device
 *   "rxe0/1"      that port        "eth0"  the port on that netdev
 */
static bool endpoint_named(const struct rdc_bench_endpoint *e, const char *name)
{
	struct in_addr in;
	char dev[64];
	unsigned int port;

	if (inet_pton(AF_INET, name, &in) == 1)
		return e->ipv4 == ntohl(in.s_addr);
	if (!strcmp(e->netdev, name))
		return true;
	if (rdc_devport_parse(name, dev, sizeof(dev), &port))
		return false;
	return !strcmp(e->device, dev) && (!port || e->port == port);
}

static bool endpoints_share_subnet(const struct rdc_bench_endpoint *a,
				   const struct rdc_bench_endpoint *b)
{
	unsigned int plen = a->prefix_len < b->prefix_len ? a->prefix_len : b->prefix_len;

	return rdc_ipv4_same_subnet(a->ipv4, b->ipv4, plen);
}

/* Whether remote endpoint @r's port carries one of the links paired so far. */
static bool remote_port_taken(const struct rdc_bench_endpoint *remote, uint32_t r,
			      const struct rdc_bench_pair *pairs, uint32_t npairs)
{
	for (uint32_t k = 0; k < npairs; k++)
		if (!strcmp(remote[pairs[k].remote].device, remote[r].device) &&
		    remote[pairs[k].remote].port == remote[r].port)
			return true;
	return false;
}

/*
 * The server endpoint for local endpoint @l, best first:
 *   0  ACTIVE, its port not used by an earlier link, same subnet
 *   1  ACTIVE, same subnet, its port already used (two rails on one subnet
 *      would otherwise both land on the server's first port)
 *   2  named by @name in another subnet: taken, routing may reach it
 *   3  named by @name and not ACTIVE: taken, the run will say why
 * Without @name only ranks 0 and 1 qualify; ties go to the lowest index.
 */
static int find_remote(const struct rdc_bench_endpoint *l, const struct rdc_bench_endpoint *remote,
		       uint32_t nremote, const char *name, const struct rdc_bench_pair *pairs,
		       uint32_t npairs)
{
	int best = -1, best_rank = 4;

	for (uint32_t r = 0; r < nremote; r++) {
		bool subnet = endpoints_share_subnet(l, &remote[r]);
		int rank;

		if (name[0] && !endpoint_named(&remote[r], name))
			continue;
		if (!remote[r].active)
			rank = 3;
		else if (!subnet)
			rank = 2;
		else
			rank = remote_port_taken(remote, r, pairs, npairs) ? 1 : 0;
		if (!name[0] && rank > 1)
			continue;
		if (rank < best_rank) {
			best = (int)r;
			best_rank = rank;
		}
	}
	return best;
}

static int pair_spec(const struct rdc_bench_endpoint *local, uint32_t nlocal,
		     const struct rdc_bench_endpoint *remote, uint32_t nremote,
		     const struct rdc_bench_link_spec *s, struct rdc_bench_pair *pairs,
		     uint32_t npairs, struct rdc_err *err)
{
	struct rdc_bench_pair *pair = &pairs[npairs]; /* the earlier ones are taken */
	bool local_found = false;

	for (uint32_t l = 0; l < nlocal; l++) {
		int r;

		if (!endpoint_named(&local[l], s->local))
			continue;
		local_found = true;
		r = find_remote(&local[l], remote, nremote, s->remote, pairs, npairs);
		if (r >= 0) {
			pair->local = l;
			pair->remote = (uint32_t)r;
			return 0;
		}
	}
	if (!local_found)
		return rdc_err_set(err, ENOENT,
				   "link '%s': no local RDMA port with a RoCE v2 IPv4 GID matches",
				   s->local);
	if (s->remote[0])
		return rdc_err_set(err, ENOENT,
				   "link '%s:%s': the server has no RoCE v2 IPv4 port named '%s'",
				   s->local, s->remote, s->remote);
	return rdc_err_set(err, ENETUNREACH,
			   "link '%s': no server port shares a subnet with it; name one as "
			   "'link %s:REMOTE'",
			   s->local, s->local);
}

int rdc_bench_pair_links(const struct rdc_bench_endpoint *local, uint32_t nlocal,
			 const struct rdc_bench_endpoint *remote, uint32_t nremote,
			 const struct rdc_bench_link_spec *specs, uint32_t nspecs,
			 struct rdc_bench_pair *pairs, uint32_t *npairs, struct rdc_err *err)
{
	*npairs = 0;
	if (!nremote)
		return rdc_err_set(err, ENOENT, "the server has no RoCE v2 port with an IPv4 GID");
	if (nspecs > RDC_BENCH_MAX_LINKS)
		return rdc_err_set(err, EINVAL, "at most %u links", RDC_BENCH_MAX_LINKS);
	for (uint32_t i = 0; i < nspecs; i++) {
		int rc = pair_spec(local, nlocal, remote, nremote, &specs[i], pairs, i, err);

		if (rc)
			return rc;
		(*npairs)++;
	}
	if (nspecs)
		return 0;
	if (!nlocal)
		return rdc_err_set(
			err, ENOENT,
			"this host has no RDMA port with a RoCE v2 IPv4 GID (see 'rdmactl "
			"port gids')");
	for (uint32_t l = 0; l < nlocal && *npairs < RDC_BENCH_MAX_LINKS; l++) {
		bool port_taken = false;
		int r;

		if (!local[l].active)
			continue;
		/* One link per port, even when the port has several addresses. */
		for (uint32_t k = 0; k < *npairs; k++)
			if (!strcmp(local[pairs[k].local].device, local[l].device) &&
			    local[pairs[k].local].port == local[l].port)
				port_taken = true;
		if (port_taken)
			continue;
		r = find_remote(&local[l], remote, nremote, "", pairs, *npairs);
		if (r < 0)
			continue;
		pairs[*npairs].local = l;
		pairs[*npairs].remote = (uint32_t)r;
		(*npairs)++;
	}
	if (!*npairs)
		return rdc_err_set(err, ENETUNREACH,
				   "none of this host's active RoCE ports shares a subnet with the "
				   "server's; name links with 'link LOCAL:REMOTE'");
	return 0;
}
