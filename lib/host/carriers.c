// SPDX-License-Identifier: GPL-2.0-or-later
/* carriers.c - the physical ports behind a netdev: which carry its RDMA traffic, and how */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/carriers.h"
#include "host/gid.h"
#include "host/netdev.h"
#include "seam/fs.h"

/*
 * Netdevs looked at below a named one: a VLAN on a bond on two ports is
 * four; the bound keeps a bundle whose lower_* links loop finite.
 */
#define CARRIERS_MAX_LOWERS 32

const char *rdc_port_relation_name(enum rdc_port_relation rel)
{
	switch (rel) {
	case RDC_REL_SAME:
		return "same";
	case RDC_REL_ROCE_LAG:
		return "roce_lag";
	case RDC_REL_MEMBER:
		return "member";
	case RDC_REL_VLAN_OF:
		break;
	}
	return "vlan_of";
}

/* Add @netdev on port @port once (a VLAN on a bond reaches each member twice). */
static void carrier_add(struct rdc_carriers *c, const char *netdev, size_t port,
			enum rdc_port_relation rel)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->items[i].netdev, netdev))
			return;
	if (c->count == RDC_CARRIERS_MAX || strlen(netdev) >= IF_NAMESIZE)
		return;
	rdc_strlcpy(c->items[c->count].netdev, netdev, IF_NAMESIZE);
	c->items[c->count].port = port;
	c->items[c->count++].relation = rel;
}

static void carrier_bond(struct rdc_carriers *c, const struct rdc_netdev *bond, bool lag)
{
	if (c->bond[0])
		return;
	rdc_strlcpy(c->bond, bond->name, sizeof(c->bond));
	rdc_strlcpy(c->bond_mode, bond->bond_mode, sizeof(c->bond_mode));
	c->roce_lag = lag;
}

/* Port @i's physical netdevs: its own, or under RoCE LAG every member of its bond. */
static void carrier_port(struct rdc_carriers *c, const struct rdc_port_list *list, size_t i,
			 enum rdc_port_relation rel)
{
	const struct rdc_port *p = &list->ports[i];

	if (!p->has_netdev)
		return;
	if (!p->roce_lag) {
		carrier_add(c, p->netdev.name, i, rel);
		return;
	}
	carrier_bond(c, &p->netdev, true);
	for (unsigned int k = 0; k < p->netdev.nslaves; k++)
		carrier_add(c, p->netdev.slaves[k], i,
			    rel == RDC_REL_SAME ? RDC_REL_ROCE_LAG : rel);
}

/*
 * The carriers of @name looked at directly, without its lowers: a port's own
 * netdev, a RoCE LAG bond or a member of one, a bond whose members keep
 * their ports.  @rel replaces the relation when not SAME (a VLAN above).
 */
static void carriers_direct(struct rdc_carriers *c, const struct rdc_port_list *list,
			    const char *name, enum rdc_port_relation rel)
{
	size_t before = c->count;
	struct rdc_netdev bond = {0};

	for (size_t i = 0; i < list->count; i++) {
		const struct rdc_port *p = &list->ports[i];

		if (!p->has_netdev)
			continue;
		if (!strcmp(p->netdev.name, name)) {
			carrier_port(c, list, i, rel);
			continue;
		}
		for (unsigned int k = 0; p->roce_lag && k < p->netdev.nslaves; k++)
			if (!strcmp(p->netdev.slaves[k], name))
				carrier_add(c, name, i, rel);
	}
	if (c->count > before || rdc_netdev_read(name, &bond, NULL) || !bond.is_bond) {
		rdc_netdev_free(&bond);
		return;
	}
	/* A bond without LAG: each member that is a port's own netdev, in the bond's order. */
	for (unsigned int k = 0; k < bond.nslaves; k++)
		for (size_t i = 0; i < list->count; i++) {
			const struct rdc_port *p = &list->ports[i];

			if (p->has_netdev && !p->roce_lag &&
			    !strcmp(p->netdev.name, bond.slaves[k]))
				carrier_add(c, bond.slaves[k], i,
					    rel == RDC_REL_SAME ? RDC_REL_MEMBER : rel);
		}
	if (c->count > before)
		carrier_bond(c, &bond, false);
	rdc_netdev_free(&bond);
}

struct lowers {
	unsigned int n;
	char names[CARRIERS_MAX_LOWERS][IF_NAMESIZE];
};

static void lowers_add(struct lowers *l, const char *name)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return;
	if (l->n < CARRIERS_MAX_LOWERS && strlen(name) < IF_NAMESIZE)
		rdc_strlcpy(l->names[l->n++], name, IF_NAMESIZE);
}

/*
 * @top and every netdev below it, nearest first, through the lower_* links
 * the kernel makes for each upper/lower pair (VLAN, macvlan, ipvlan, bond,
 * team, bridge).  iflink (IFLA_LINK) is not followed: a veth's names its
 * peer, which is no lower device, and every stacked device it would add has
 * a lower_* link anyway.
 */
static void lowers_collect(struct lowers *l, const char *top)
{
	lowers_add(l, top);
	for (unsigned int i = 0; i < l->n; i++) {
		struct rdc_names dir;

		if (rdc_fs_list(&dir, NULL, "/sys/class/net/%s", l->names[i]))
			continue;
		for (size_t k = 0; k < dir.count; k++) {
			const char *e = dir.names[k];

			if (!strncmp(e, "lower_", 6) && rdc_netdev_exists(e + 6))
				lowers_add(l, e + 6);
		}
		rdc_names_free(&dir);
	}
}

/* A VLAN or other upper: the carriers of the netdevs below it, nearest first. */
static int carriers_below(struct rdc_carriers *c, const struct rdc_port_list *list,
			  const char *name, struct rdc_err *err)
{
	struct lowers *l = calloc(1, sizeof(*l));

	if (!l)
		return rdc_err_set(err, ENOMEM, "cannot look up '%s'", name);
	lowers_collect(l, name);
	for (unsigned int k = 1; k < l->n; k++)
		carriers_direct(c, list, l->names[k], RDC_REL_VLAN_OF);
	free(l);
	if (c->count)
		return 0;
	/* A bundle without lower_* links: the kernel still lists an upper's GIDs under its port. */
	for (size_t i = 0; i < list->count; i++) {
		const struct rdc_port *p = &list->ports[i];
		bool match;
		int rc =
			rdc_gid_table_match(p->device, p->port, strcmp(p->link_layer, "InfiniBand"),
					    NULL, name, NULL, 0, &match, err);

		if (rc)
			return rc;
		if (match)
			carrier_port(c, list, i, RDC_REL_VLAN_OF);
	}
	return 0;
}

/* "mlx5_0" or "mlx5_0/1": every port named. */
static void carriers_of_device(struct rdc_carriers *c, const struct rdc_port_list *list,
			       const char *dev, unsigned int port)
{
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->ports[i].device, dev) && (!port || list->ports[i].port == port))
			carrier_port(c, list, i, RDC_REL_SAME);
}

int rdc_carriers_of(const struct rdc_port_list *list, const char *name, struct rdc_carriers *c,
		    struct rdc_err *err)
{
	char dev[RDC_IBDEV_NAME];
	unsigned int port;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!rdc_netdev_exists(name)) {
		if (!rdc_devport_parse(name, dev, sizeof(dev), &port))
			carriers_of_device(c, list, dev, port);
		if (c->count)
			return 0;
		return rdc_err_set_plain(err, ENODEV, "no RDMA port or network interface '%s'",
					 name);
	}
	carriers_direct(c, list, name, RDC_REL_SAME);
	if (!c->count) {
		rc = carriers_below(c, list, name, err);
		if (rc)
			return rc;
	}
	if (!c->count)
		return rdc_err_set_plain(err, ENXIO, "network interface '%s' has no RDMA port",
					 name);
	return 0;
}
