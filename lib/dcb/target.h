/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.h - the netdevs whose DCB a name means: a bond's members, a VLAN's port, the port itself */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "host/carriers.h"
#include "host/ibdev.h"

#define RDC_DCB_PRIOS 8
#define RDC_DCB_TARGET_PORTS 8

/*
 * A netdev whose QoS is read or planned, and the RDMA ports on it (RDMA-CM
 * settings live per port).  DCB lives on the physical function: a bond or
 * VLAN has none, so a name above one becomes a target per port below it.
 */
struct rdc_dcb_target {
	char netdev[IF_NAMESIZE];
	/* The bond (or VLAN) it was reached through, "" when named itself or alone. */
	char upper[IF_NAMESIZE];
	enum rdc_port_relation relation;
	char bond_mode[32]; /* the bond's mode when upper is a bond, else "" */
	size_t nports;
	struct {
		char device[64];
		unsigned int port;
	} ports[RDC_DCB_TARGET_PORTS];
};

struct rdc_dcb_targets {
	size_t count;
	struct rdc_dcb_target *items; /* malloc'd; rdc_dcb_targets_free() */
};

/*
 * The targets @name means, among @list (rdc_ports_read(), unfiltered):
 *   "ens1f0np0", "mlx5_0/1"     one: the port's own netdev
 *   "bond0", "mlx5_bond_0"      one per member (RoCE LAG, or members with ports)
 *   "ens1f0np0.100", "bond0.5"  the ports below the VLAN
 *   "veth0"                     itself, without RDMA ports (dcbnl answers for it)
 * A RoCE LAG port's RDMA-CM settings go with its first member only, so that
 * nothing is planned twice.  -EINVAL for a device of several ports (name one),
 * -ENODEV for an RDMA port without netdev; an unknown name is returned as
 * itself, for dcbnl's own answer.
 */
int rdc_dcb_targets_of(const struct rdc_port_list *list, const char *name,
		       struct rdc_dcb_targets *ts, struct rdc_err *err);

/*
 * Every physical netdev that carries an RDMA port, once, in port order; a
 * bond's members (RoCE LAG or not) with the bond as their upper.
 */
int rdc_dcb_targets_all(const struct rdc_port_list *list, struct rdc_dcb_targets *ts,
			struct rdc_err *err);

void rdc_dcb_targets_free(struct rdc_dcb_targets *ts);
