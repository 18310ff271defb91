/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gid_verbs.h - the live GID table in one ibv_query_gid_table() per device */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <infiniband/verbs.h>

#include "host/gid.h"
#include "kernel/addr.h"

/*
 * What the running kernel is asked, and the one place that asks it: a unit
 * test replaces the whole table with rdc_gid_verbs_set_ops().  Each returns
 * 0 (or a count) or -errno.
 *
 *   query   every valid entry of @dev's table, all its ports, in one
 *           ibv_query_gid_table(); *entries is the caller's to free
 *   ifname  the name of netdev @ifindex in this network namespace (the one
 *           -n entered); -ENXIO when none here has it
 *   addrs   this namespace's IPv4 and IPv6 addresses (two RTM_GETADDR dumps)
 */
struct rdc_gid_verbs_ops {
	ssize_t (*query)(const char *dev, struct ibv_gid_entry **entries);
	int (*ifname)(unsigned int ifindex, char name[IF_NAMESIZE]);
	int (*addrs)(struct rdc_addr4_list *v4, struct rdc_addr6_list *v6);
};

/* Use @ops (a test's fakes); NULL puts back libibverbs.  Either way the snapshot is dropped. */
void rdc_gid_verbs_set_ops(const struct rdc_gid_verbs_ops *ops);

/*
 * The used entries of DEV/PORT's table as rdc_gid_table_read_all() gives them
 * from sysfs, field for field and in index order, from the device's table as
 * one ibv_query_gid_table() snapshot: the ports of a device read in rising
 * order share one snapshot, and a port read again (or a lower one) takes a
 * new one.  Any failure (no such device for libibverbs, a kernel before 5.10
 * without the call, a netdev name that cannot be had) is -errno with nothing
 * in @gids: the caller reads sysfs instead.
 *
 * The kernel gives each entry's netdev as an ifindex of the netdev's own
 * namespace, which may not be this one (shared mode: a pod's macvlan on the
 * port), and ifindexes repeat across namespaces.  So the name this namespace
 * has for the ifindex is taken only where that netdev holds the IP address
 * the GID carries; any other entry (a default GID, a netdev elsewhere) has
 * its name read from its gid_attrs/ndevs file, as the sysfs path does.
 */
int rdc_gid_verbs_read(const char *dev, unsigned int port, bool ethernet, struct rdc_gid **gids,
		       size_t *count);
