// SPDX-License-Identifier: GPL-2.0-or-later
/* target.c - the netdevs whose DCB a name means: a bond's members, a VLAN's port, the port itself */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dcb/target.h"
#include "host/netdev.h"
#include "host/resolve.h"

void rdc_dcb_targets_free(struct rdc_dcb_targets *ts)
{
	free(ts->items);
	ts->items = NULL;
	ts->count = 0;
}

static int targets_grow(struct rdc_dcb_targets *ts, size_t n, struct rdc_err *err)
{
	struct rdc_dcb_target *items = realloc(ts->items, (ts->count + n + 1) * sizeof(*items));

	if (!items)
		return rdc_err_set(err, ENOMEM, "out of memory");
	ts->items = items;
	memset(&items[ts->count], 0, (n + 1) * sizeof(*items));
	return 0;
}

static void target_port(struct rdc_dcb_target *t, const struct rdc_port *p)
{
	if (t->nports == RDC_DCB_TARGET_PORTS)
		return;
	rdc_strlcpy(t->ports[t->nports].device, p->device, sizeof(t->ports[0].device));
	t->ports[t->nports++].port = p->port;
}

/* Whether a target already holds port @p (a RoCE LAG port's second member). */
static bool ports_planned(const struct rdc_dcb_targets *ts, const struct rdc_port *p)
{
	for (size_t i = 0; i < ts->count; i++)
		for (size_t k = 0; k < ts->items[i].nports; k++)
			if (!strcmp(ts->items[i].ports[k].device, p->device) &&
			    ts->items[i].ports[k].port == p->port)
				return true;
	return false;
}

/*
 * One target per carrier, skipping netdevs already there.  @upper names what
 * the carriers were reached through ("" when the name is the netdev itself).
 */
static int targets_add(struct rdc_dcb_targets *ts, const struct rdc_port_list *list,
		       const struct rdc_carriers *c, const char *upper, struct rdc_err *err)
{
	int rc = targets_grow(ts, c->count, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < c->count; i++) {
		const struct rdc_carrier *cr = &c->items[i];
		const struct rdc_port *p = &list->ports[cr->port];
		struct rdc_dcb_target *t = &ts->items[ts->count];
		bool seen = false;

		for (size_t k = 0; k < ts->count; k++)
			seen |= !strcmp(ts->items[k].netdev, cr->netdev);
		if (seen)
			continue;
		rdc_strlcpy(t->netdev, cr->netdev, sizeof(t->netdev));
		t->relation = cr->relation;
		if (strcmp(upper, cr->netdev))
			rdc_strlcpy(t->upper, upper, sizeof(t->upper));
		if (t->upper[0] && !strcmp(t->upper, c->bond))
			rdc_strlcpy(t->bond_mode, c->bond_mode, sizeof(t->bond_mode));
		if (!ports_planned(ts, p))
			target_port(t, p);
		ts->count++;
	}
	return 0;
}

/* A name that is none of the ports' netdevs: itself, for dcbnl to answer (a veth, a typo). */
static int target_alone(struct rdc_dcb_targets *ts, const char *name, struct rdc_err *err)
{
	int rc;

	if (strlen(name) >= IF_NAMESIZE)
		return rdc_err_set_usage(err, "'%s' is not an interface name", name);
	rc = targets_grow(ts, 1, err);
	if (rc)
		return rc;
	rdc_strlcpy(ts->items[ts->count++].netdev, name, IF_NAMESIZE);
	return 0;
}

/*
 * Resolve @name as `port show` would, on a copy (resolving filters the list
 * in place): its errors are the precise ones (a malformed DEV/PORT is a usage
 * error, a typo gets "did you mean").  For an address, the netdev it is on:
 * the GID's ndev, or the one the address dumps name, into @netdev.
 */
static int resolve_copy(const struct rdc_port_list *list, const char *name, char *netdev,
			struct rdc_err *err)
{
	struct rdc_port_list copy = {0};
	struct rdc_port_query q;
	int rc;

	copy.ports = malloc((list->count + 1) * sizeof(*copy.ports));
	if (!copy.ports)
		return rdc_err_set(err, ENOMEM, "out of memory");
	if (list->count)
		memcpy(copy.ports, list->ports, list->count * sizeof(*copy.ports));
	copy.count = list->count;
	rc = rdc_ports_resolve(&copy, name, &q, err);
	if (!rc && q.kind == RDC_NAMED_ADDRESS) {
		if (q.netdev[0])
			rdc_strlcpy(netdev, q.netdev, IF_NAMESIZE);
		else if (copy.count == 1 && copy.ports[0].has_netdev)
			rdc_strlcpy(netdev, copy.ports[0].netdev.name, IF_NAMESIZE);
		else
			rc = rdc_err_set_plain(err, ENXIO,
					       "address %s is on no netdev of an RDMA port", name);
	}
	free(copy.ports);
	return rc;
}

/* DEV or DEV/PORT: one port with a netdev, or an error that says which to name. */
static int device_check(const struct rdc_port_list *list, const char *name, struct rdc_err *err)
{
	char dev[RDC_IBDEV_NAME];
	unsigned int port, n = 0, with_netdev = 0;

	if (rdc_devport_parse(name, dev, sizeof(dev), &port))
		return 0;
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->ports[i].device, dev) && (!port || list->ports[i].port == port)) {
			n++;
			with_netdev += list->ports[i].has_netdev;
		}
	if (n > 1)
		return rdc_err_set_plain(err, EINVAL, "'%s' has %u ports; name one as DEV/PORT",
					 name, n);
	if (n == 1 && !with_netdev)
		return rdc_err_set_plain(err, ENODEV, "'%s' has no network interface", name);
	return 0;
}

int rdc_dcb_targets_of(const struct rdc_port_list *list, const char *name,
		       struct rdc_dcb_targets *ts, struct rdc_err *err)
{
	char netdev[IF_NAMESIZE] = "";
	struct rdc_carriers c;
	int family, rc;
	uint8_t gid[16];

	memset(ts, 0, sizeof(*ts));
	if (!rdc_netdev_exists(name) && rdc_addr_to_gid(name, &family, gid)) {
		rc = resolve_copy(list, name, netdev, err);
		if (rc)
			return rc;
		name = netdev;
	} else if (strchr(name, '/') || rdc_ibdev_exists(name)) {
		rc = resolve_copy(list, name, netdev, err);
		if (rc)
			return rc;
	}
	rc = device_check(list, name, err);
	if (rc)
		return rc;
	rc = rdc_carriers_of(list, name, &c, err);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		/* A typo in an RDMA name stays an error; any netdev name is dcbnl's to answer. */
		if (strchr(name, '/') || rdc_ibdev_exists(name))
			return rc;
		memset(err, 0, sizeof(*err));
		return target_alone(ts, name, err);
	}
	/* An RDMA name reaches a bond only under RoCE LAG; a netdev name is the upper itself. */
	rc = targets_add(ts, list, &c, rdc_netdev_exists(name) ? name : c.bond, err);
	if (rc)
		rdc_dcb_targets_free(ts);
	return rc;
}

int rdc_dcb_targets_all(const struct rdc_port_list *list, struct rdc_dcb_targets *ts,
			struct rdc_err *err)
{
	memset(ts, 0, sizeof(*ts));
	for (size_t i = 0; i < list->count; i++) {
		const struct rdc_port *p = &list->ports[i];
		char devport[RDC_IBDEV_NAME + 8];
		struct rdc_carriers c;
		struct rdc_netdev bond = {0};
		const char *upper = "", *name = devport;
		int rc;

		if (!p->has_netdev)
			continue;
		snprintf(devport, sizeof(devport), "%s/%u", p->device, p->port);
		/* A member shows its bond: the LAG's own, or the bond it is in, members together. */
		if (p->roce_lag) {
			upper = p->netdev.name;
		} else if (p->upper[0] && !rdc_netdev_read(p->upper, &bond, NULL) && bond.is_bond) {
			upper = p->upper;
			name = p->upper;
		}
		rdc_netdev_free(&bond);
		rc = rdc_carriers_of(list, name, &c, err);
		if (rc == -ENOMEM) {
			rdc_dcb_targets_free(ts);
			return rc;
		}
		if (rc)
			continue;
		rc = targets_add(ts, list, &c, upper, err);
		if (rc) {
			rdc_dcb_targets_free(ts);
			return rc;
		}
	}
	return 0;
}
