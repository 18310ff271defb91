/* SPDX-License-Identifier: GPL-2.0-or-later */
/* links.h - the endpoints a host offers, `link` specs, and pairing them into links */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

/*
 * One end of a link: an RDMA port with one RoCE v2 IPv4 GID.  A port with
 * two addresses is two endpoints.
 */
struct rdc_bench_endpoint {
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	uint32_t gid_index;
	uint8_t gid[16];
	uint32_t ipv4;	     /* host byte order */
	uint32_t prefix_len; /* of that address on the netdev; 32 when unknown */
	uint32_t active_mtu; /* bytes */
	uint32_t rate_mbps;  /* the port's rate, 0 when unknown */
	bool active;	     /* port state ACTIVE */
	int32_t numa_node;   /* -1 when unknown */
};

/*
 * This host's endpoints: every Ethernet RDMA port's RoCE v2 GIDs that carry
 * a non-link-local IPv4 address, read through the file layer, with the
 * prefix length from rtnetlink.
 */
int rdc_bench_endpoints_read(struct rdc_bench_endpoint *eps, uint32_t max, uint32_t *count,
			     struct rdc_err *err);

/*
 * Whether this host offers at least one endpoint (what a server needs before
 * it listens): 0 with their number in *@count, or -ENODEV naming why not: no
 * RDMA device at all, or devices (named) without an Ethernet port whose
 * RoCE v2 GID carries an IPv4 address.
 */
int rdc_bench_endpoints_usable(uint32_t *count, struct rdc_err *err);

/* What the user asked for with `link LOCAL[:REMOTE]`; an empty side means "choose". */
struct rdc_bench_link_spec {
	char local[64];
	char remote[64];
};

/*
 * "rxe0"  "rxe0/1"  "198.18.1.2"  "rxe0:198.18.1.1"  "198.18.1.2:rxe1/1"
 * An empty side, a second ':' or a side longer than 63 bytes is -EINVAL.
 */
int rdc_bench_link_spec_parse(const char *text, struct rdc_bench_link_spec *spec);

/* A link: an endpoint of each side, by index into the two tables. */
struct rdc_bench_pair {
	uint32_t local;
	uint32_t remote;
};

/*
 * Pair the client's endpoints with the server's.  Without specs, every
 * active local port is paired with the server endpoint whose address shares
 * its subnet (one link per port).  A spec names the local side by device,
 * device/port or IP, and the remote side the same way or leaves it to the
 * subnet.  -ENOENT/-ENETUNREACH/-EINVAL with the reason.
 */
int rdc_bench_pair_links(const struct rdc_bench_endpoint *local, uint32_t nlocal,
			 const struct rdc_bench_endpoint *remote, uint32_t nremote,
			 const struct rdc_bench_link_spec *specs, uint32_t nspecs,
			 struct rdc_bench_pair *pairs, uint32_t *npairs, struct rdc_err *err);
