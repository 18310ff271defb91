// SPDX-License-Identifier: GPL-2.0-or-later
/* bond.c - Linux bonds as a model: netlink first, /proc/net/bonding and sysfs for the rest */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bond/bond.h"
#include "bond/procfs.h"
#include "host/ibdev.h"
#include "host/pci.h"
#include "seam/fs.h"

#define PROC_BONDING "/proc/net/bonding"
#define PROC_TEXT_MAX ((size_t)256 * 1024) /* one bond's /proc file: a few KiB in practice */

/* Take what @from knows and @to does not (netlink's values win where both have one). */
#define FILL_INT(to, from, f)                                                                      \
	do {                                                                                       \
		if ((to)->f < 0)                                                                   \
			(to)->f = (from)->f;                                                       \
	} while (0)
#define FILL_STR(to, from, f)                                                                      \
	do {                                                                                       \
		if (!(to)->f[0])                                                                   \
			rdc_strlcpy((to)->f, (from)->f, sizeof((to)->f));                          \
	} while (0)

static void member_fill(struct rdc_bond_member *to, const struct rdc_bond_member *from)
{
	FILL_INT(to, from, state);
	FILL_INT(to, from, mii_status);
	FILL_INT(to, from, link_failure_count);
	FILL_INT(to, from, speed_mbps);
	FILL_STR(to, from, duplex);
	FILL_INT(to, from, mtu);
	FILL_STR(to, from, perm_hwaddr);
	FILL_INT(to, from, aggregator_id);
	FILL_INT(to, from, actor_port_state);
	FILL_INT(to, from, partner_port_state);
}

static void bond_fill(struct rdc_bond *to, const struct rdc_bond *from)
{
	FILL_INT(to, from, mode);
	FILL_INT(to, from, xmit_hash_policy);
	FILL_INT(to, from, miimon_ms);
	FILL_INT(to, from, updelay_ms);
	FILL_INT(to, from, downdelay_ms);
	FILL_INT(to, from, arp_interval_ms);
	FILL_INT(to, from, lacp_rate);
	FILL_INT(to, from, ad_select);
	FILL_INT(to, from, min_links);
	FILL_STR(to, from, primary);
	FILL_STR(to, from, active_member);
	FILL_INT(to, from, ad_aggregator_id);
	FILL_INT(to, from, ad_num_ports);
	FILL_INT(to, from, ad_actor_key);
	FILL_INT(to, from, ad_partner_key);
	FILL_STR(to, from, ad_partner_mac);
	for (size_t i = 0; i < from->nmembers; i++) {
		size_t k;

		for (k = 0; k < to->nmembers; k++)
			if (!strcmp(to->members[k].name, from->members[i].name))
				break;
		if (k == to->nmembers) {
			if (to->nmembers == RDC_BOND_MAX_MEMBERS)
				continue;
			to->members[to->nmembers++] = from->members[i];
			continue;
		}
		member_fill(&to->members[k], &from->members[i]);
	}
}

/* /proc/net/bonding/NAME parsed into a fresh record; -ENOENT without the file. */
static int bond_procfs(const char *name, struct rdc_bond *b, struct rdc_err *err)
{
	char *text = malloc(PROC_TEXT_MAX);
	int n, rc;

	if (!text)
		return rdc_err_set(err, ENOMEM, "cannot read '%s/%s'", PROC_BONDING, name);
	rdc_bondnl_init(b);
	rdc_strlcpy(b->name, name, sizeof(b->name));
	n = rdc_fs_read(text, PROC_TEXT_MAX, err, PROC_BONDING "/%s", name);
	rc = n < 0 ? n : rdc_bond_procfs_parse(text, (size_t)n, b, err);
	free(text);
	if (rc && rc != -ENOENT)
		rdc_err_prefix(err, "'%s/%s'", PROC_BONDING, name);
	return rc;
}

/* Speed, duplex, MTU and bonding state of a member from sysfs where neither source said. */
static void member_sysfs(struct rdc_bond_member *m)
{
	char buf[32];
	int64_t v;

	if (m->state < 0 && rdc_fs_read(buf, sizeof(buf), NULL,
					"/sys/class/net/%s/bonding_slave/state", m->name) > 0)
		m->state = !strcmp(buf, "active") ? 0 : !strcmp(buf, "backup") ? 1 : -1;
	if (m->link_failure_count < 0 &&
	    !rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/bonding_slave/link_failure_count",
			     m->name))
		m->link_failure_count = v;

	if (m->speed_mbps < 0 && !rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/speed", m->name) &&
	    v >= 0)
		m->speed_mbps = v;
	if (!m->duplex[0] && rdc_fs_read(m->duplex, sizeof(m->duplex), NULL,
					 "/sys/class/net/%s/duplex", m->name) <= 0)
		m->duplex[0] = '\0';
	if (m->mtu < 0 && !rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/mtu", m->name))
		m->mtu = v;
}

/* The bond's own admin state, carrier and MTU from sysfs, when netlink did not say. */
static void bond_sysfs(struct rdc_bond *b)
{
	uint64_t flags;
	int64_t v;

	/* flags is hex ("0x1403"); IFF_UP is bit 0. */
	if (!rdc_fs_read_x64(&flags, NULL, "/sys/class/net/%s/flags", b->name))
		b->admin_up = flags & 0x1;
	if (!rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/carrier", b->name))
		b->carrier = v == 1;
	if (b->mtu < 0 && !rdc_fs_read_i64(&v, NULL, "/sys/class/net/%s/mtu", b->name))
		b->mtu = v;
}

/* The PCI function of a netdev ("0000:3b:00.1"), "" when it has none (virtio0, none). */
static void netdev_pci(const char *netdev, char *buf, size_t size)
{
	if (rdc_fs_link_name(buf, size, "/sys/class/net/%s/device", netdev) < 0 ||
	    !rdc_pci_address_valid(buf))
		buf[0] = '\0';
}

/* "0000:3b:00.1" and "0000:3b:00.0" are one NIC: the same domain, bus and device. */
static bool same_nic(const char *a, const char *b)
{
	const char *dot_a = strrchr(a, '.'), *dot_b = strrchr(b, '.');

	return dot_a && dot_b && dot_a - a == dot_b - b && !strncmp(a, b, (size_t)(dot_a - a));
}

/*
 * Which RDMA port serves the bond, or why none does.  Under RoCE LAG the NIC
 * registers one device whose port's netdev is the bond (host/ibdev.h:
 * roce_lag), as does rxe created on the bond.  Ports whose own netdevs are
 * members keep their devices: a hardware port is a separate device of its
 * member, no LAG; a software device (rxe) bound to a member sends on that
 * one member only, whatever GID 0 says once the member is enslaved (the
 * kernel moves the default GID to the upper device).
 */
static void bond_rdma(struct rdc_bond *b, const struct rdc_port_list *ports)
{
	char pci0[32] = "", pci[32], bound[RDC_BOND_RDMA_REASON_LEN - 128] = "";
	const struct rdc_port *serving = NULL;
	size_t nserving = 0, nmember_ports = 0, len = 0;

	for (size_t i = 0; i < ports->count; i++) {
		const struct rdc_port *port = &ports->ports[i];

		if (!port->has_netdev)
			continue;
		if (port->roce_lag && !strcmp(port->netdev.name, b->name)) {
			serving = port;
			nserving++;
		} else if (!strcmp(port->upper, b->name) &&
			   rdc_fs_exists("/sys/class/infiniband/%s/parent", port->device)) {
			len += (size_t)snprintf(
				bound + len, len < sizeof(bound) ? sizeof(bound) - len : 0,
				"%s%s on %s", len ? ", " : "", port->device, port->netdev.name);
		} else if (!strcmp(port->upper, b->name)) {
			nmember_ports++;
		}
	}
	if (nserving == 1) {
		rdc_strlcpy(b->rdma_device, serving->device, sizeof(b->rdma_device));
		b->rdma_port = serving->port;
		b->rdma_soft = rdc_fs_exists("/sys/class/infiniband/%s/parent", serving->device);
		return;
	}
	if (nserving > 1 || nmember_ports > 1) {
		snprintf(b->rdma_reason, sizeof(b->rdma_reason),
			 "%zu RDMA ports carry its addresses: separate devices of the members, no "
			 "RoCE LAG (each QP stays on one member)",
			 nserving + nmember_ports);
		return;
	}
	if (bound[0]) {
		snprintf(
			b->rdma_reason, sizeof(b->rdma_reason),
			"the RDMA devices are bound to members (%s): each sends on its member only",
			bound);
		return;
	}
	if (b->mode >= 0 && !rdc_bond_mode_roce_lag(b->mode)) {
		snprintf(b->rdma_reason, sizeof(b->rdma_reason),
			 "mode %s cannot be RoCE LAG (only active-backup, balance-xor, 802.3ad)",
			 rdc_bond_mode_name(b->mode));
		return;
	}
	if (!b->nmembers) {
		snprintf(b->rdma_reason, sizeof(b->rdma_reason), "it has no members");
		return;
	}
	for (size_t m = 0; m < b->nmembers; m++) {
		netdev_pci(b->members[m].name, pci, sizeof(pci));
		if (!pci[0]) {
			snprintf(b->rdma_reason, sizeof(b->rdma_reason),
				 "member '%s' is not a PCI NIC port", b->members[m].name);
			return;
		}
		if (!m) {
			rdc_strlcpy(pci0, pci, sizeof(pci0));
		} else if (!same_nic(pci0, pci)) {
			snprintf(b->rdma_reason, sizeof(b->rdma_reason),
				 "members are ports of different NICs (%s, %s): RoCE LAG needs the "
				 "ports of one NIC",
				 pci0, pci);
			return;
		}
	}
	snprintf(b->rdma_reason, sizeof(b->rdma_reason),
		 "no RDMA device has '%s' as its netdev: the driver formed no RoCE LAG", b->name);
}

/* The bonds procfs lists: what a bundle without a kernel recording has. */
static int bonds_from_procfs(struct rdc_bond_list *list, struct rdc_err *err)
{
	struct rdc_names names;
	int rc = rdc_fs_list(&names, err, PROC_BONDING);

	if (rc == -ENOENT) { /* no bonding driver loaded: no bonds */
		rdc_err_clear(err);
		return 0;
	}
	for (size_t i = 0; !rc && i < names.count; i++) {
		if (list->count == RDC_BOND_MAX) {
			rc = rdc_err_set(err, E2BIG, "more than %d bonds", RDC_BOND_MAX);
			break;
		}
		rc = bond_procfs(names.names[i], &list->bonds[list->count], err);
		if (!rc)
			bond_sysfs(&list->bonds[list->count++]);
	}
	rdc_names_free(&names);
	return rc;
}

int rdc_bond_read_all(struct rdc_bond_list *list, struct rdc_err *err)
{
	struct rdc_port_list ports;
	struct rdc_bond *extra;
	int rc;

	memset(list, 0, sizeof(*list));
	rc = rdc_bondnl_dump(list, err);
	/* No kernel to ask (a bundle without recording): procfs is all there is. */
	if (rc == -ENODATA) {
		rdc_err_clear(err);
		memset(list, 0, sizeof(*list));
		rc = bonds_from_procfs(list, err);
	}
	if (rc)
		return rc;
	extra = calloc(1, sizeof(*extra));
	if (!extra)
		return rdc_err_set(err, ENOMEM, "cannot read bonds");
	for (size_t i = 0; i < list->count; i++) {
		struct rdc_bond *b = &list->bonds[i];

		/* What netlink lacks (speed, duplex, partner system): procfs, where readable. */
		if (!bond_procfs(b->name, extra, NULL))
			bond_fill(b, extra);
		for (size_t m = 0; m < b->nmembers; m++)
			member_sysfs(&b->members[m]);
	}
	free(extra);
	if (rdc_ports_read(&ports, err))
		return -(err ? err->code : EIO);
	for (size_t i = 0; i < list->count; i++)
		bond_rdma(&list->bonds[i], &ports);
	rdc_ports_free(&ports);
	return 0;
}

int rdc_bond_read(const char *name, struct rdc_bond *b, struct rdc_err *err)
{
	struct rdc_bond_list *list = malloc(sizeof(*list));
	int rc;

	if (!list)
		return rdc_err_set(err, ENOMEM, "cannot read bond '%s'", name);
	rc = rdc_bond_read_all(list, err);
	if (!rc) {
		rc = rdc_err_set(err, ENODEV, "no bond '%s'", name);
		rdc_err_mark(err, RDC_ERRK_NOT_FOUND, name);
		for (size_t i = 0; i < list->count; i++)
			if (!strcmp(list->bonds[i].name, name)) {
				*b = list->bonds[i];
				rdc_err_clear(err);
				rc = 0;
				break;
			}
	}
	free(list);
	return rc;
}
