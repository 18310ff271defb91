/* SPDX-License-Identifier: GPL-2.0-or-later */
/* carriers.h - the physical ports behind a netdev: which carry its RDMA traffic, and how */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "host/ibdev.h"

/*
 * How a physical port stands to the name an operator gave.  The one model
 * every verb uses for "the ports behind bond0": DCB, ethtool counters and
 * carrier live on the physical netdev, RDMA on the port that serves it.
 *
 *   same      the name is the physical netdev itself (or its RDMA DEV[/PORT])
 *   roce_lag  the name is a bond (or its RDMA device) whose one RDMA port runs
 *             over all its members: RoCE LAG, or rxe on a bond
 *   member    the name is a bond without LAG: each member keeps its own RDMA port
 *   vlan_of   the name is a VLAN, macvlan or other upper stacked on the port
 *             (or on a bond above it)
 */
enum rdc_port_relation {
	RDC_REL_SAME,
	RDC_REL_ROCE_LAG,
	RDC_REL_MEMBER,
	RDC_REL_VLAN_OF,
};

/* More than any host has: two bonds of four members under one VLAN is eight. */
#define RDC_CARRIERS_MAX 16

struct rdc_carrier {
	char netdev[IF_NAMESIZE];	 /* the physical netdev */
	size_t port;			 /* index into the port list it was resolved in */
	enum rdc_port_relation relation; /* how it stands to the name given */
};

struct rdc_carriers {
	char bond[IF_NAMESIZE]; /* the bond on the way down, "" when none */
	bool roce_lag;		/* that bond is a RoCE LAG */
	char bond_mode[32];	/* its mode, "" when no bond */
	size_t count;		/* in the order of the bond's members, else of the ports */
	struct rdc_carrier items[RDC_CARRIERS_MAX];
};

/* "same", "roce_lag", "member", "vlan_of". */
const char *rdc_port_relation_name(enum rdc_port_relation rel);

/*
 * The physical ports behind @name, among @list (as rdc_ports_read() gives
 * it, unfiltered): an RDMA DEV or DEV/PORT, a physical netdev, a bond (with
 * or without RoCE LAG), a member of one, or a VLAN/upper on any of these
 * (through sysfs lower_* links; a bundle without them, through the GIDs the
 * kernel lists for an upper under its port).  A member without an RDMA port
 * is left out.  0 with c->count > 0; -ENXIO when @name exists but carries
 * no RDMA port; -ENODEV when it names nothing; -ENOMEM.
 */
int rdc_carriers_of(const struct rdc_port_list *list, const char *name, struct rdc_carriers *c,
		    struct rdc_err *err);
