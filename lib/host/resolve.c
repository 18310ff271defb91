// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve.c - which RDMA port a name means: device, port, netdev, upper netdev or IP address */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "host/carriers.h"
#include "host/gid.h"
#include "host/netdev.h"
#include "host/resolve.h"
#include "kernel/addr.h"
#include "seam/fs.h"

#define IB_CLASS "/sys/class/infiniband"

bool rdc_addr_to_gid(const char *text, int *family, uint8_t gid[16])
{
	struct in_addr a4;
	struct in6_addr a6;

	/* glibc's inet_pton takes only the dotted quad: "10.1" and "mlx5_0" are no address. */
	if (inet_pton(AF_INET, text, &a4) == 1) {
		memset(gid, 0, 16);
		gid[10] = gid[11] = 0xff;
		memcpy(gid + 12, &a4, 4);
		*family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, text, &a6) == 1) {
		memcpy(gid, &a6, 16);
		/* "::ffff:192.168.10.11" is the IPv4 address, written the way a GID holds it. */
		*family = IN6_IS_ADDR_V4MAPPED(&a6) ? AF_INET : AF_INET6;
		return true;
	}
	return false;
}

/*
 * Keep the list's issues about device @dev only, when a device was named (a
 * netdev or an address could be served by any device, so then all stay).
 */
static void filter_issues(struct rdc_issues *is, const char *dev)
{
	char needle[RDC_IBDEV_NAME + 32];

	snprintf(needle, sizeof(needle), IB_CLASS "/%s/", dev);
	rdc_issues_keep_matching(is, needle);
}

/* Drop every port; the list's own issues stay (what could not be read is still said). */
static void drop_ports(struct rdc_port_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		rdc_port_free(&list->ports[i]);
	list->count = 0;
}

/* Drop the ports not marked in @keep; returns how many are left. */
static size_t keep_marked(struct rdc_port_list *list, const bool *keep)
{
	size_t kept = 0;

	for (size_t i = 0; i < list->count; i++) {
		if (keep[i])
			list->ports[kept++] = list->ports[i]; /* moved: the issues go with it */
		else
			rdc_port_free(&list->ports[i]);
	}
	list->count = kept;
	return kept;
}

/*
 * Mark the ports @name (an existing netdev) runs on, as host/carriers.h
 * finds them: 1 when any, 0 when none.  Sets q->kind: NETDEV for a port's
 * own netdev (a RoCE LAG bond included) or a member of a LAG, UPPER for a
 * bond whose members keep their ports, a VLAN or another upper.
 */
static int mark_netdev(const struct rdc_port_list *list, const char *name, bool *keep,
		       struct rdc_port_query *q, struct rdc_err *err)
{
	struct rdc_carriers c;
	struct rdc_err none = {0};
	int rc = rdc_carriers_of(list, name, &c, &none);

	if (rc == -ENOMEM)
		return rdc_err_set(err, ENOMEM, "cannot look up '%s'", name);
	if (rc)
		return 0;
	q->kind = RDC_NAMED_NETDEV;
	for (size_t i = 0; i < c.count; i++) {
		keep[c.items[i].port] = true;
		if (c.items[i].relation == RDC_REL_MEMBER || c.items[i].relation == RDC_REL_VLAN_OF)
			q->kind = RDC_NAMED_UPPER;
	}
	return 1;
}

/* The name of the netdev whose ifindex is @ifindex, or "". */
static void netdev_by_ifindex(int ifindex, char *name, size_t size)
{
	struct rdc_names all;
	int64_t v;

	name[0] = '\0';
	if (rdc_netdev_names(&all, NULL))
		return;
	for (size_t i = 0; i < all.count && !name[0]; i++)
		if (!rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/ifindex", all.names[i]) &&
		    v == ifindex)
			rdc_strlcpy(name, all.names[i], size);
	rdc_names_free(&all);
}

/* The netdev that holds the address, from the RTM_GETADDR dumps; "" when none says. */
static void addr_owner(const struct rdc_port_query *q, char *name, size_t size)
{
	name[0] = '\0';
	if (q->family == AF_INET) {
		struct rdc_addr4_list v4;
		const struct rdc_addr4 *a;
		uint32_t be;

		if (rdc_addr4_list(&v4, NULL))
			return;
		memcpy(&be, q->gid + 12, 4);
		a = rdc_addr4_find(&v4, ntohl(be));
		if (a) {
			/* The label of an alias is "eth0:1": the interface is eth0. */
			rdc_strlcpy(name, a->ifname, size);
			name[strcspn(name, ":")] = '\0';
		}
		rdc_addr4_list_free(&v4);
		return;
	}
	struct rdc_addr6_list v6;
	int ifindex = 0;

	if (rdc_addr6_list(&v6, NULL))
		return;
	for (size_t i = 0; i < v6.count && !ifindex; i++)
		if (!memcmp(v6.items[i].addr, q->gid, 16))
			ifindex = v6.items[i].ifindex;
	rdc_addr6_list_free(&v6);
	if (ifindex > 0)
		netdev_by_ifindex(ifindex, name, size);
}

static int resolve_address(struct rdc_port_list *list, const char *name, bool *keep,
			   struct rdc_port_query *q, struct rdc_err *err)
{
	char owner[IF_NAMESIZE];
	bool any = false;
	int rc;

	q->kind = RDC_NAMED_ADDRESS;
	rdc_strlcpy(q->addr, name, sizeof(q->addr));
	/* The GID table first: it is what ib_write_bw -x and rdma_cm look the address up in. */
	for (size_t i = 0; i < list->count; i++) {
		const struct rdc_port *p = &list->ports[i];
		bool match;

		rc = rdc_gid_table_match(p->device, p->port, strcmp(p->link_layer, "InfiniBand"),
					 q->gid, NULL, q->netdev[0] ? NULL : q->netdev,
					 sizeof(q->netdev), &match, err);
		if (rc)
			return rc;
		if (match)
			any = keep[i] = true;
	}
	if (any)
		return 0;
	/* No GID for it (a port down, a bundle without GIDs): the netdev that holds it. */
	addr_owner(q, owner, sizeof(owner));
	if (!owner[0] || !rdc_netdev_exists(owner))
		return rdc_err_set_plain(err, ENXIO, "no RDMA port has address %s", name);
	rc = mark_netdev(list, owner, keep, q, err);
	q->kind = RDC_NAMED_ADDRESS;
	rdc_strlcpy(q->netdev, owner, sizeof(q->netdev));
	if (rc < 0)
		return rc;
	if (!rc)
		return rdc_err_set_plain(
			err, ENXIO, "address %s is on '%s', which has no RDMA port", name, owner);
	return 0;
}

/* The kernel refuses interface names with blanks (dev_valid_name()); device names have none. */
static bool name_has_blank(const char *name)
{
	for (; *name; name++)
		if (isspace((unsigned char)*name))
			return true;
	return false;
}

/*
 * "no RDMA device or network interface 'mlx5_9'", with the closest known
 * device, DEV/PORT or netdev name when one is a typo away.
 */
static int unknown_name(const struct rdc_port_list *list, const char *name, struct rdc_err *err)
{
	struct rdc_names netdevs = {0};
	struct rdc_err ignored = {0};
	const char **cands;
	char(*devport)[RDC_IBDEV_NAME + 8] = calloc(list->count + 1, sizeof(*devport));
	const char *hint = NULL;
	size_t n = 0;
	int rc;

	/* Every interface is a candidate (set and pfc take any); unreadable: none of them. */
	if (rdc_netdev_names(&netdevs, &ignored))
		netdevs.count = 0;
	cands = calloc(3 * list->count + netdevs.count + 1, sizeof(*cands));
	if (cands && devport) {
		for (size_t i = 0; i < netdevs.count; i++)
			cands[n++] = netdevs.names[i];
		for (size_t i = 0; i < list->count; i++) {
			const struct rdc_port *p = &list->ports[i];

			snprintf(devport[i], sizeof(devport[i]), "%s/%u", p->device, p->port);
			cands[n++] = p->device;
			cands[n++] = devport[i];
		}
		hint = rdc_closest(name, cands, n);
	}
	if (hint)
		rc = rdc_err_set_plain(
			err, ENODEV,
			"no RDMA device or network interface '%s' (did you mean '%s'?)", name,
			hint);
	else
		rc = rdc_err_set_plain(err, ENODEV, "no RDMA device or network interface '%s'",
				       name);
	rdc_err_mark(err, RDC_ERRK_NOT_FOUND, name);
	free(cands);
	free(devport);
	rdc_names_free(&netdevs);
	return rc;
}

int rdc_ports_resolve(struct rdc_port_list *list, const char *name, struct rdc_port_query *q,
		      struct rdc_err *err)
{
	struct rdc_port_query local;
	char dev[RDC_IBDEV_NAME];
	unsigned int port;
	bool is_dev = false, *keep;
	int rc;

	if (!q)
		q = &local;
	memset(q, 0, sizeof(*q));
	keep = calloc(list->count + 1, sizeof(*keep));
	if (!keep)
		return rdc_err_set(err, ENOMEM, "cannot look up '%s'", name);
	/* An interface called like an address is still that interface. */
	if (!rdc_netdev_exists(name) && rdc_addr_to_gid(name, &q->family, q->gid)) {
		/* Every device could hold the address: what could not be read stays said. */
		rc = resolve_address(list, name, keep, q, err);
		if (rc)
			drop_ports(list);
		else
			keep_marked(list, keep);
		free(keep);
		return rc;
	}
	/* Neither a device (up to 63 characters), DEV/PORT, nor a netdev (no blanks). */
	if (rdc_devport_parse(name, dev, sizeof(dev), &port) || name_has_blank(name)) {
		free(keep);
		return rdc_err_set_usage(
			err, "'%s' is not DEV, DEV/PORT or a netdev name (nor an IP address)",
			name);
	}
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->ports[i].device, dev))
			is_dev = true;
	if (is_dev) {
		filter_issues(&list->issues, dev);
		q->kind = port ? RDC_NAMED_PORT : RDC_NAMED_DEVICE;
		for (size_t i = 0; i < list->count; i++)
			keep[i] = !strcmp(list->ports[i].device, dev) &&
				  (!port || list->ports[i].port == port);
		rc = keep_marked(list, keep)
			     ? 0
			     : rdc_err_set_plain(err, ENOENT, "RDMA device '%s' has no port %u",
						 dev, port);
		free(keep);
		return rc;
	}
	if (strchr(name, '/') || !rdc_netdev_exists(name)) {
		free(keep);
		rc = unknown_name(list, name, err);
		drop_ports(list);
		return rc;
	}
	rdc_strlcpy(q->netdev, name, sizeof(q->netdev));
	rc = mark_netdev(list, name, keep, q, err);
	if (rc > 0) {
		keep_marked(list, keep);
		rc = 0;
	} else if (rc == 0) {
		drop_ports(list);
		/* A device that could not be read may serve it: the claim is only about the rest. */
		rc = rdc_issues_any(&list->issues)
			     ? rdc_err_set_plain(
				       err, ENXIO,
				       "network interface '%s' has no RDMA port among the "
				       "devices that could be read",
				       name)
			     : rdc_err_set_plain(err, ENXIO,
						 "network interface '%s' has no RDMA port", name);
	}
	free(keep);
	return rc;
}
