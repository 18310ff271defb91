/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resolve.h - which RDMA port a name means: device, port, netdev, upper netdev or IP address */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "host/ibdev.h"

/* What a name given for a port turned out to be. */
enum rdc_port_named {
	RDC_NAMED_DEVICE,  /* "mlx5_0": every port of the device */
	RDC_NAMED_PORT,	   /* "mlx5_0/1" */
	RDC_NAMED_NETDEV,  /* the port's own netdev, or a slave of its bond (RoCE LAG) */
	RDC_NAMED_UPPER,   /* a VLAN, macvlan or bond stacked on the port's netdev */
	RDC_NAMED_ADDRESS, /* an IPv4 or IPv6 address of the port */
};

struct rdc_port_query {
	enum rdc_port_named kind;
	/*
	 * NETDEV, UPPER: the netdev named.  ADDRESS: the netdev that holds the
	 * address (a GID's ndev, or the interface the address dump names).
	 */
	char netdev[IF_NAMESIZE];
	int family;	 /* ADDRESS: AF_INET or AF_INET6 */
	uint8_t gid[16]; /* ADDRESS: as a GID carries it (IPv4-mapped ::ffff:a.b.c.d for IPv4) */
	char addr[48];	 /* ADDRESS: as the user wrote it */
};

/*
 * Keep only the ports @name means (in place) and say in @q (may be NULL) what
 * it was:
 *   "mlx5_0", "mlx5_0/1"       the device, the port
 *   "ens1f0np0"                the port(s) whose netdev it is or whose bond it is a slave of
 *   "ens1f0np0.100", "bond0"   an upper netdev: the ports under it, found through
 *                              sysfs lower_* links (not iflink: a veth's names its
 *                              peer), then the GIDs whose ndev it is (the kernel
 *                              lists a VLAN's GIDs under the parent's port)
 *   "192.168.10.11", "2001:db8::1"
 *                              the port whose GID table holds it, else the port of
 *                              the netdev that holds it (the RTM_GETADDR dumps)
 * Returns -ENODEV (nothing of that name), -ENOENT (no such port), -ENXIO (a
 * netdev or address without RDMA port), -EINVAL (not a name at all), each
 * with a message naming what was not found.
 */
int rdc_ports_resolve(struct rdc_port_list *list, const char *name, struct rdc_port_query *q,
		      struct rdc_err *err);

/* Parse an IPv4 or IPv6 address into the GID that carries it; false when @text is none. */
bool rdc_addr_to_gid(const char *text, int *family, uint8_t gid[16]);
