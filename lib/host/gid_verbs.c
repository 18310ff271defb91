// SPDX-License-Identifier: GPL-2.0-or-later
/* gid_verbs.c - the live GID table in one ibv_query_gid_table() per device */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/gid_verbs.h"
#include "host/ibdev.h"
#include "kernel/rtnl.h"
#include "kernel/verbs_lib.h"
#include "seam/fs.h"

/*
 * libibverbs: the device by name, the size of its table (the ports'
 * gid_tbl_len, which ibv_query_gid_table() must be able to hold), then the
 * one call.  An empty table is -ENODATA: sysfs says what it is.
 */
static ssize_t verbs_query_cb(const char *dev, struct ibv_gid_entry **entries)
{
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr attr;
	struct ibv_device **list;
	struct ibv_gid_entry *e;
	size_t max = 0;
	ssize_t rc;
	int n = 0;

	*entries = NULL;
	/* Without libibverbs the caller reads sysfs, as for any other failure here. */
	if (rdc_verbs_load(NULL))
		return -ENOPKG;
	errno = 0;
	list = rdc_ibv_get_device_list(&n);
	if (!list)
		return errno ? -errno : -ENODEV;
	for (int i = 0; i < n && !ctx; i++)
		if (!strcmp(rdc_ibv_get_device_name(list[i]), dev))
			ctx = rdc_ibv_open_device(list[i]);
	rdc_ibv_free_device_list(list);
	if (!ctx)
		return -ENODEV;
	/* ibv_query_device() and ibv_query_port() return a positive errno. */
	rc = -rdc_ibv_query_device(ctx, &attr);
	for (unsigned int p = 1; !rc && p <= attr.phys_port_cnt; p++) {
		struct ibv_port_attr pa;

		rc = -rdc_ibv_query_port(ctx, (uint8_t)p, &pa);
		if (!rc && pa.gid_tbl_len > 0)
			max += (size_t)pa.gid_tbl_len;
	}
	if (!rc && !max)
		rc = -ENODATA;
	if (rc)
		goto out;
	e = calloc(max, sizeof(*e));
	if (!e) {
		rc = -ENOMEM;
		goto out;
	}
	rc = rdc_ibv_query_gid_table(ctx, e, max, 0);
	if (rc < 0)
		free(e);
	else
		*entries = e;
out:
	rdc_ibv_close_device(ctx);
	return rc;
}

/* One RTM_GETLINK through the transport (not if_indextoname(), a socket of its own). */
static int verbs_ifname_cb(unsigned int ifindex, char name[IF_NAMESIZE])
{
	struct rdc_err err = {0};

	if (ifindex > INT_MAX)
		return -ENXIO;
	return rdc_link_name((int)ifindex, name, &err);
}

static int verbs_addrs_cb(struct rdc_addr4_list *v4, struct rdc_addr6_list *v6)
{
	int rc = rdc_addr4_list(v4, NULL);

	if (!rc)
		rc = rdc_addr6_list(v6, NULL);
	if (rc)
		rdc_addr4_list_free(v4);
	return rc;
}

static const struct rdc_gid_verbs_ops verbs_ops = {
	.query = verbs_query_cb,
	.ifname = verbs_ifname_cb,
	.addrs = verbs_addrs_cb,
};

static const struct rdc_gid_verbs_ops *ops = &verbs_ops;

/* One ifindex's name here: rc 0, or -errno (none here). */
struct verbs_name {
	unsigned int ifindex;
	int rc;
	char name[IF_NAMESIZE];
};

/* One device's table as the kernel gave it, and what was looked up to name its netdevs. */
static struct {
	char dev[RDC_IBDEV_NAME];
	struct ibv_gid_entry *entries;
	size_t count;
	unsigned int served; /* the highest port handed out of it; 0: no snapshot */
	struct verbs_name *names;
	size_t nnames;
	int addrs_rc; /* 1: not read yet */
	struct rdc_addr4_list v4;
	struct rdc_addr6_list v6;
} snap;

static void verbs_snap_drop(void)
{
	free(snap.entries);
	free(snap.names);
	rdc_addr4_list_free(&snap.v4);
	rdc_addr6_list_free(&snap.v6);
	memset(&snap, 0, sizeof(snap));
}

void rdc_gid_verbs_set_ops(const struct rdc_gid_verbs_ops *o)
{
	verbs_snap_drop();
	ops = o ? o : &verbs_ops;
}

/* The device's table for @port: the snapshot while its ports are asked in rising order. */
static int verbs_snap_take(const char *dev, unsigned int port)
{
	struct ibv_gid_entry *entries;
	ssize_t n;

	if (snap.served && port > snap.served && !strcmp(snap.dev, dev)) {
		snap.served = port;
		return 0;
	}
	verbs_snap_drop();
	if (strlen(dev) >= sizeof(snap.dev))
		return -ENAMETOOLONG;
	n = ops->query(dev, &entries);
	if (n < 0)
		return (int)n;
	rdc_strlcpy(snap.dev, dev, sizeof(snap.dev));
	snap.entries = entries;
	snap.count = (size_t)n;
	snap.served = port;
	snap.addrs_rc = 1;
	return 0;
}

static const struct verbs_name *verbs_name_of(unsigned int ifindex)
{
	struct verbs_name *grown, *n;

	for (size_t i = 0; i < snap.nnames; i++)
		if (snap.names[i].ifindex == ifindex)
			return &snap.names[i];
	grown = realloc(snap.names, (snap.nnames + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	snap.names = grown;
	n = &snap.names[snap.nnames++];
	memset(n, 0, sizeof(*n));
	n->ifindex = ifindex;
	n->rc = ops->ifname(ifindex, n->name);
	if (!n->rc && !memchr(n->name, '\0', sizeof(n->name)))
		n->rc = -ENAMETOOLONG;
	return n;
}

/*
 * Whether netdev @name (@ifindex here) holds the address @gid carries.  An
 * IPv4 address is found by its label, which is the netdev's name or, for an
 * alias, "NAME:TAG"; an IPv6 one by its ifindex.
 */
static bool verbs_has_ip(unsigned int ifindex, const char *name, const struct rdc_gid *gid)
{
	size_t len = strlen(name);

	if (snap.addrs_rc == 1) {
		snap.addrs_rc = ops->addrs(&snap.v4, &snap.v6);
		if (snap.addrs_rc) {
			rdc_addr4_list_free(&snap.v4);
			rdc_addr6_list_free(&snap.v6);
		}
	}
	if (snap.addrs_rc)
		return false;
	if (gid->family == AF_INET) {
		uint32_t be;

		memcpy(&be, gid->raw + 12, 4);
		for (size_t i = 0; i < snap.v4.count; i++) {
			const struct rdc_addr4 *a = &snap.v4.items[i];

			if (a->addr == ntohl(be) && !strncmp(a->ifname, name, len) &&
			    (a->ifname[len] == '\0' || a->ifname[len] == ':'))
				return true;
		}
	} else if (gid->family == AF_INET6) {
		for (size_t i = 0; i < snap.v6.count; i++) {
			const struct rdc_addr6 *a = &snap.v6.items[i];

			if (a->ifindex >= 0 && (unsigned int)a->ifindex == ifindex &&
			    !memcmp(a->addr, gid->raw, 16))
				return true;
		}
	}
	return false;
}

/*
 * The netdev of entry @e (mapped into @gid), as its gid_attrs/ndevs file
 * names it.  The ifindex's name here is that name where the netdev holds the
 * GID's address (every IP GID of a netdev of this namespace); otherwise the
 * file is read, with the sysfs path's meaning for what it says: EINVAL (no
 * netdev) and ENOENT (a kernel without the file) are none.
 *
 *   ifindex 0, InfiniBand                     none, nothing read
 *   ifindex 0, Ethernet (rdma-core's own
 *     sysfs fallback names it by this
 *     namespace, another one's is 0)          the file
 *   ifindex here, holds the GID's address     its name here
 *   ifindex here, another netdev's address    the file (a namespace's ifindexes are its own)
 *   ifindex not here, or a default GID        the file
 */
static int verbs_netdev(const char *dev, unsigned int port, const struct ibv_gid_entry *e,
			bool ethernet, struct rdc_gid *gid)
{
	const struct verbs_name *n;
	int rc;

	gid->netdev[0] = '\0';
	if (!e->ndev_ifindex && !ethernet)
		return 0;
	if (e->ndev_ifindex) {
		n = verbs_name_of(e->ndev_ifindex);
		if (!n)
			return -ENOMEM;
		if (!n->rc && verbs_has_ip(e->ndev_ifindex, n->name, gid)) {
			rdc_strlcpy(gid->netdev, n->name, sizeof(gid->netdev));
			return 0;
		}
	}
	rc = rdc_fs_read(gid->netdev, sizeof(gid->netdev), NULL,
			 "/sys/class/infiniband/%s/ports/%u/gid_attrs/ndevs/%u", dev, port,
			 e->gid_index);
	if (rc < 0)
		gid->netdev[0] = '\0';
	return rc == -EINVAL || rc == -ENOENT ? 0 : rc < 0 ? rc : 0;
}

/*
 * The kernel's gid_type -> ours, as rdc_gid_type_parse() reads sysfs: sysfs
 * names IB and RoCE v1 alike ("IB/RoCE v1"), and the link layer tells them
 * apart; verbs does say which, but the port's link layer stays the judge so
 * that both paths agree.
 */
static enum rdc_gid_type verbs_type(uint32_t type, bool ethernet)
{
	switch (type) {
	case IBV_GID_TYPE_IB:
	case IBV_GID_TYPE_ROCE_V1:
		return ethernet ? RDC_GID_ROCE_V1 : RDC_GID_IB;
	case IBV_GID_TYPE_ROCE_V2:
		return RDC_GID_ROCE_V2;
	}
	return RDC_GID_UNKNOWN;
}

static int verbs_index_cmp(const void *a, const void *b)
{
	const struct rdc_gid *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int rdc_gid_verbs_read(const char *dev, unsigned int port, bool ethernet, struct rdc_gid **gids,
		       size_t *count)
{
	struct rdc_gid *out = NULL;
	size_t n = 0;
	int rc;

	*gids = NULL;
	*count = 0;
	rc = verbs_snap_take(dev, port);
	if (rc)
		return rc;
	for (size_t i = 0; i < snap.count; i++)
		n += snap.entries[i].port_num == port;
	if (n) {
		out = calloc(n, sizeof(*out));
		if (!out)
			return -ENOMEM;
	}
	n = 0;
	for (size_t i = 0; i < snap.count; i++) {
		const struct ibv_gid_entry *e = &snap.entries[i];
		struct rdc_gid *g = &out[n];

		if (e->port_num != port)
			continue;
		memset(g, 0, sizeof(*g));
		memcpy(g->raw, e->gid.raw, 16);
		/* What the sysfs path skips as an unused slot. */
		if (rdc_gid_is_zero(g->raw) || rdc_gid_is_bare_link_local(g->raw))
			continue;
		g->index = e->gid_index;
		rdc_gid_format(g->raw, g->text);
		g->type = verbs_type(e->gid_type, ethernet);
		if (ethernet)
			rdc_gid_derive_ip(g);
		rc = verbs_netdev(dev, port, e, ethernet, g);
		if (rc) {
			free(out);
			return rc;
		}
		n++;
	}
	if (n)
		qsort(out, n, sizeof(*out), verbs_index_cmp);
	else {
		free(out);
		out = NULL;
	}
	rdc_gid_mark_recommended(out, n);
	*gids = out;
	*count = n;
	return 0;
}
