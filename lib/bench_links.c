// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_links.c - parameters, the endpoints a host offers, and pairing them into links */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "addr.h"
#include "bench.h"
#include "gid.h"
#include "ibdev.h"
#include "util.h"

static const char *const test_names[] = {
	[RDC_BENCH_WRITE] = "write",
	[RDC_BENCH_READ] = "read",
	[RDC_BENCH_SEND] = "send",
	[RDC_BENCH_LAT] = "lat",
};

const char *rdc_bench_test_name(enum rdc_bench_test test)
{
	return (unsigned int)test < RDC_ARRAY_SIZE(test_names) ? test_names[test] : NULL;
}

int rdc_bench_test_parse(const char *name, enum rdc_bench_test *test)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(test_names); i++)
		if (!strcmp(name, test_names[i])) {
			*test = (enum rdc_bench_test)i;
			return 0;
		}
	return -EINVAL;
}

void rdc_bench_params_default(struct rdc_bench_params *p, enum rdc_bench_test test)
{
	memset(p, 0, sizeof(*p));
	p->test = test;
	p->size = test == RDC_BENCH_LAT ? 2 : 65536;
	p->qps = 1;
	p->tx_depth = test == RDC_BENCH_LAT ? 1 : 128;
	p->duration_ns = 5000000000ull;
	p->warmup_ns = 1000000000ull;
	p->interval_ns = 1000000000ull;
}

static uint64_t page_round(uint64_t n)
{
	return (n + 4095) & ~4095ull;
}

uint64_t rdc_bench_slot_bytes(const struct rdc_bench_params *p)
{
	/* lat: an area to send from and one the peer writes into */
	return page_round(p->test == RDC_BENCH_LAT ? 2ull * p->size : p->size);
}

uint64_t rdc_bench_params_memory(const struct rdc_bench_params *p, uint32_t nlinks)
{
	return rdc_bench_slot_bytes(p) * p->qps * nlinks;
}

int rdc_bench_params_check(const struct rdc_bench_params *p, struct rdc_err *err)
{
	const uint64_t max_ns = (uint64_t)RDC_BENCH_MAX_SECONDS * 1000000000ull;

	if (!rdc_bench_test_name(p->test))
		return rdc_err_set(err, EINVAL, "unknown test %d", (int)p->test);
	if (p->size < 1 || p->size > RDC_BENCH_MAX_SIZE)
		return rdc_err_set(err, EINVAL, "message size %u is outside 1-%u bytes", p->size,
				   RDC_BENCH_MAX_SIZE);
	if (p->qps < 1 || p->qps > RDC_BENCH_MAX_QPS)
		return rdc_err_set(err, EINVAL, "%u QPs per link is outside 1-%u", p->qps,
				   RDC_BENCH_MAX_QPS);
	if (p->test == RDC_BENCH_LAT &&
	    (p->iters > RDC_BENCH_MAX_LAT_ITERS ||
	     p->duration_ns > (uint64_t)RDC_BENCH_MAX_LAT_SECONDS * 1000000000ull))
		return rdc_err_set(err, EINVAL,
				   "lat keeps every sample: at most %u iterations or %u s per run",
				   RDC_BENCH_MAX_LAT_ITERS, RDC_BENCH_MAX_LAT_SECONDS);
	if (p->test == RDC_BENCH_LAT && p->qps != 1)
		return rdc_err_set(err, EINVAL, "the latency test runs one QP per link");
	if (p->tx_depth < 1 || p->tx_depth > RDC_BENCH_MAX_DEPTH)
		return rdc_err_set(err, EINVAL, "send queue depth %u is outside 1-%u", p->tx_depth,
				   RDC_BENCH_MAX_DEPTH);
	if (!p->duration_ns == !p->iters)
		return rdc_err_set(err, EINVAL,
				   "a run has either a duration or a count of iterations");
	if (p->duration_ns > max_ns || p->warmup_ns > max_ns)
		return rdc_err_set(err, EINVAL, "duration and warm-up are at most %u s",
				   RDC_BENCH_MAX_SECONDS);
	if (p->iters > RDC_BENCH_MAX_ITERS)
		return rdc_err_set(err, EINVAL, "at most %llu iterations",
				   (unsigned long long)RDC_BENCH_MAX_ITERS);
	if (p->interval_ns < 100000000ull || p->interval_ns > max_ns)
		return rdc_err_set(err, EINVAL, "the interval is 0.1 s to %u s",
				   RDC_BENCH_MAX_SECONDS);
	if (p->duration_ns && p->duration_ns / p->interval_ns > RDC_BENCH_MAX_INTERVALS)
		return rdc_err_set(err, EINVAL, "more than %u intervals in one run",
				   RDC_BENCH_MAX_INTERVALS);
	if (p->mtu && (p->mtu < 256 || p->mtu > 4096 || (p->mtu & (p->mtu - 1))))
		return rdc_err_set(err, EINVAL, "MTU %u is not one of 256, 512, 1024, 2048, 4096",
				   p->mtu);
	return 0;
}

void rdc_bench_ip_format(uint32_t ipv4, char buf[INET_ADDRSTRLEN])
{
	struct in_addr a = {.s_addr = htonl(ipv4)};

	if (!inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN))
		snprintf(buf, INET_ADDRSTRLEN, "?");
}

/* The endpoints of one port: its RoCE v2 GIDs with a non-link-local IPv4 address. */
static int endpoints_of_port(const struct rdc_port *p, const struct rdc_addr4_list *addrs,
			     struct rdc_bench_endpoint *eps, uint32_t max, uint32_t *count,
			     struct rdc_err *err)
{
	struct rdc_gid *gids = NULL;
	size_t ngids = 0;
	int rc;

	rc = rdc_gid_table_read(p->device, p->port, true, &gids, &ngids, err);
	if (rc)
		return rc;
	for (size_t g = 0; g < ngids && *count < max; g++) {
		struct rdc_bench_endpoint *e = &eps[*count];
		const struct rdc_addr4 *a;
		struct in_addr in;

		if (gids[g].type != RDC_GID_ROCE_V2 || gids[g].family != AF_INET ||
		    !gids[g].recommended || inet_pton(AF_INET, gids[g].ip, &in) != 1)
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

	return rdc_addr4_same_subnet(a->ipv4, b->ipv4, plen);
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
