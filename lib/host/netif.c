// SPDX-License-Identifier: GPL-2.0-or-later
/* netif.c - a network interface as diag reads it: sysfs, procfs, RTM_GETADDR and ethtool */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/ethtool.h>

#include "base/cpulist.h"
#include "base/names.h"
#include "base/util.h"
#include "host/link.h"
#include "host/netdev.h"
#include "host/netif.h"
#include "kernel/addr.h"
#include "kernel/ethtool.h"
#include "seam/fs.h"
#include "seam/nl.h"

#define NET_CLASS "/sys/class/net"
#define IPV4_CONF "/proc/sys/net/ipv4/conf"

/* CPUs a list may name; the kernel's NR_CPUS default tops out at 8192. */
#define NETIF_MAX_CPUS 8192

/*
 * Why a kernel message gave nothing, in words a skipped check can show:
 *
 *   -ENODATA, replay      "no answer in the recording"
 *   -ENODATA, off         "no kernel recording"
 *   -EOPNOTSUPP           "the driver does not support it (EOPNOTSUPP)"
 *   -ENODEV, -EPERM       the same, in words
 *   anything else         the transport's message and the errno text
 */
static char *netif_reason(int rc, const struct rdc_err *e)
{
	char *why;

	if (rc == -ENODATA && rdc_nl_mode() == RDC_NL_REPLAY)
		return strdup("no answer in the recording");
	if (rc == -ENODATA && rdc_nl_mode() == RDC_NL_OFF)
		return strdup("no kernel recording");
	if (rc == -EOPNOTSUPP)
		return strdup("the driver does not support it (EOPNOTSUPP)");
	if (rc == -ENODEV)
		return strdup("no such interface (ENODEV)");
	if (rc == -EPERM)
		return strdup("not permitted (EPERM)");
	/* The message names the request, whole. */
	if (asprintf(&why, "%s: %s", e->msg[0] ? e->msg : "failed", strerror(-rc)) < 0)
		return NULL;
	return why;
}

/* ---- sysfs and procfs --------------------------------------------------- */

/* /proc/sys/net/ipv4/conf/@dev/@key as a small non-negative number; -1 unknown. */
static int netif_read_conf(const char *dev, const char *key)
{
	int64_t v;

	if (rdc_fs_read_i64(&v, NULL, IPV4_CONF "/%s/%s", dev, key) || v < 0 || v > INT32_MAX)
		return -1;
	return (int)v;
}

static void netif_read_sysfs(struct rdc_netif *n)
{
	uint64_t flags;
	int64_t v;

	if (!rdc_fs_read_i64(&v, NULL, NET_CLASS "/%s/ifindex", n->name) && v > 0 && v <= INT32_MAX)
		n->ifindex = (int)v;
	/* "0x1003": the IFF_* flags of SIOCGIFFLAGS. */
	if (!rdc_fs_read_x64(&flags, NULL, NET_CLASS "/%s/flags", n->name))
		n->admin_up = (flags & IFF_UP) ? 1 : 0;
	/* carrier reads EINVAL while the interface is administratively down: unknown, not 0. */
	snprintf(n->carrier_source, sizeof(n->carrier_source), NET_CLASS "/%s/carrier", n->name);
	n->carrier = rdc_link_carrier(n->name);
	if (!rdc_fs_read_i64(&v, NULL, NET_CLASS "/%s/carrier_changes", n->name) && v >= 0)
		n->carrier_changes = v;

	n->arp_ignore = netif_read_conf(n->name, "arp_ignore");
	n->arp_announce = netif_read_conf(n->name, "arp_announce");
	n->rp_filter = netif_read_conf(n->name, "rp_filter");

	n->is_vf = rdc_fs_exists(NET_CLASS "/%s/device/physfn", n->name);
}

/* Keep a CPU list that does not fit whole as its leading ranges and ",...". */
/*
 * The PCI function's MSI(-X) vectors: device/msi_irqs/ has one entry per
 * IRQ number.  An IRQ is remote when /proc/irq/N/smp_affinity_list names
 * no CPU of device/local_cpulist: its interrupts cross the NUMA link.
 * IRQs whose affinity cannot be read are counted, but not as remote.
 */
static void netif_read_irqs(struct rdc_netif *n)
{
	unsigned char *local = NULL, *aff = NULL;
	struct rdc_names irqs;
	char *buf = NULL;
	bool have_local = false;

	n->irqs_total = n->irqs_remote = -1;
	if (rdc_fs_list(&irqs, NULL, NET_CLASS "/%s/device/msi_irqs", n->name))
		return;
	local = calloc(1, NETIF_MAX_CPUS);
	aff = calloc(1, NETIF_MAX_CPUS);
	buf = malloc(4096); /* a CPU list of 8192 CPUs, each alone, would not fit; ranges do */
	if (!local || !aff || !buf)
		goto out;
	if (rdc_fs_read(buf, 4096, NULL, NET_CLASS "/%s/device/local_cpulist", n->name) > 0 &&
	    !rdc_cpulist_parse(buf, local, NETIF_MAX_CPUS)) {
		/* Whole: it goes into diag's fix command as an argument. */
		n->local_cpulist = strdup(buf);
		have_local = n->local_cpulist && memchr(local, 1, NETIF_MAX_CPUS) != NULL;
	}
	n->irqs_total = 0;
	if (have_local)
		n->irqs_remote = 0;
	for (size_t i = 0; i < irqs.count; i++) {
		uint32_t irq;
		bool near = false;

		if (rdc_parse_u32_range(irqs.names[i], 0, UINT32_MAX, &irq))
			continue;
		n->irqs_total++;
		if (!have_local ||
		    rdc_fs_read(buf, 4096, NULL, "/proc/irq/%u/smp_affinity_list", irq) <= 0 ||
		    rdc_cpulist_parse(buf, aff, NETIF_MAX_CPUS))
			continue;
		for (size_t c = 0; c < NETIF_MAX_CPUS && !near; c++)
			near = aff[c] && local[c];
		if (!near)
			n->irqs_remote++;
	}
out:
	free(local);
	free(aff);
	free(buf);
	rdc_names_free(&irqs);
}

/* ---- addresses ---------------------------------------------------------- */

static void netif_add_addr(struct rdc_netif *n, int family, const uint8_t *raw,
			   unsigned int prefix_len)
{
	struct rdc_netif_addr *a;

	/* More than RDC_NETIF_ADDRS_MAX addresses on one RDMA port: the first ones are enough. */
	if (n->naddrs >= RDC_NETIF_ADDRS_MAX)
		return;
	a = &n->addrs[n->naddrs++];
	memset(a, 0, sizeof(*a));
	a->family = family;
	memcpy(a->raw, raw, family == AF_INET ? 4 : 16);
	a->prefix_len = prefix_len;
	if (!inet_ntop(family, raw, a->ip, sizeof(a->ip)))
		a->ip[0] = '\0';
	if (family == AF_INET)
		a->link_local = raw[0] == 169 && raw[1] == 254;
	else
		a->link_local = raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
}

/*
 * IPv4 addresses carry the interface's name as their label; an alias
 * ("eth0:1", ifconfig style) is still an address of eth0.
 */
static bool netif_label_is(const char *label, const char *ifname)
{
	size_t len = strlen(ifname);

	return !strncmp(label, ifname, len) && (label[len] == '\0' || label[len] == ':');
}

static void netif_read_addrs(struct rdc_netif *n)
{
	struct rdc_addr4_list v4;
	struct rdc_addr6_list v6;
	struct rdc_err e = {0};
	char *why4 = NULL, *why6 = NULL;
	int rc4, rc6;

	rc4 = rdc_addr4_list(&v4, &e);
	if (rc4) {
		why4 = netif_reason(rc4, &e);
	} else {
		for (size_t i = 0; i < v4.count; i++) {
			uint32_t be = htonl(v4.items[i].addr);

			if (netif_label_is(v4.items[i].ifname, n->name))
				netif_add_addr(n, AF_INET, (const uint8_t *)&be,
					       v4.items[i].prefix_len);
		}
		rdc_addr4_list_free(&v4);
	}

	rdc_err_clear(&e);
	rc6 = rdc_addr6_list(&v6, &e);
	if (rc6) {
		why6 = netif_reason(rc6, &e);
	} else {
		for (size_t i = 0; n->ifindex > 0 && i < v6.count; i++)
			if (v6.items[i].ifindex == n->ifindex)
				netif_add_addr(n, AF_INET6, v6.items[i].addr,
					       v6.items[i].prefix_len);
		rdc_addr6_list_free(&v6);
		if (n->ifindex <= 0) {
			rc6 = -ENOENT;
			why6 = strdup("no ifindex to match IPv6 addresses by");
		}
	}

	n->have_addrs = !rc4 && !rc6;
	if (rc4 && rc6)
		rdc_str_catf(&n->addrs_reason, "IPv4: %s; IPv6: %s", why4 ? why4 : "?",
			     why6 ? why6 : "?");
	else if (rc4 || rc6)
		rdc_str_catf(&n->addrs_reason, "%s: %s", rc4 ? "IPv4" : "IPv6",
			     rc4 ? (why4 ? why4 : "?") : (why6 ? why6 : "?"));
	free(why4);
	free(why6);
}

/* ---- ethtool ------------------------------------------------------------ */

static void netif_read_ethtool(struct rdc_netif *n)
{
	struct rdc_ethtool_drvinfo drv;
	struct rdc_ethtool_pause pause;
	struct rdc_ethtool_link link; /* 1.5 KiB of masks */
	struct rdc_err e = {0};
	uint32_t active, configured;
	const char *fec;
	int rc;

	rc = rdc_ethtool_pause_get(n->name, &pause, &e);
	if (rc) {
		n->pause_reason = netif_reason(rc, &e);
	} else {
		n->have_pause = true;
		n->pause_autoneg = pause.autoneg;
		n->pause_rx = pause.rx;
		n->pause_tx = pause.tx;
	}

	rdc_err_clear(&e);
	rc = rdc_ethtool_fec_get(n->name, &active, &configured, &e);
	fec = rc ? NULL : rdc_ethtool_fec_name(active);
	if (rc) {
		n->fec_reason = netif_reason(rc, &e);
	} else if (!fec) {
		/* Seen with the link down: the driver knows no mode in use. */
		rdc_str_catf(&n->fec_reason, "the driver names no active FEC mode (0x%x)", active);
	} else {
		n->have_fec = true;
		rdc_strlcpy(n->fec_active, fec, sizeof(n->fec_active));
	}

	rdc_err_clear(&e);
	rc = rdc_ethtool_link_get(n->name, &link, &e);
	if (rc) {
		n->linkmodes_reason = netif_reason(rc, &e);
	} else {
		bool lp_known = false;

		for (unsigned int w = 0; w < link.nwords; w++)
			lp_known = lp_known || link.lp_advertising[w];
		n->have_linkmodes = true;
		n->speed_mbps = link.speed_mbps;
		n->max_speed_mbps =
			rdc_ethtool_link_modes_fastest(link.supported, NULL, link.nwords);
		/* No partner modes: autoneg off, no link, or a driver that does not say. */
		n->common_speed_mbps =
			lp_known ? rdc_ethtool_link_modes_fastest(link.supported,
								  link.lp_advertising, link.nwords)
				 : -1;
	}

	rdc_err_clear(&e);
	rc = rdc_ethtool_drvinfo_get(n->name, &drv, &e);
	if (!rc) {
		n->have_drvinfo = true;
		rdc_strlcpy(n->driver, drv.driver, sizeof(n->driver));
		rdc_strlcpy(n->driver_version, drv.version, sizeof(n->driver_version));
		rdc_strlcpy(n->fw_version, drv.fw_version, sizeof(n->fw_version));
		rdc_strlcpy(n->bus_info, drv.bus_info, sizeof(n->bus_info));
	}
}

int rdc_netif_read(const char *ifname, struct rdc_netif *n, struct rdc_err *err)
{
	memset(n, 0, sizeof(*n));
	n->admin_up = n->carrier = -1;
	n->carrier_changes = -1;
	n->arp_ignore = n->arp_announce = n->rp_filter = -1;
	n->speed_mbps = n->max_speed_mbps = n->common_speed_mbps = -1;
	n->irqs_total = n->irqs_remote = -1;
	if (!rdc_netdev_exists(ifname))
		return rdc_err_set(err, ENODEV, "no network interface '%s'", ifname);
	rdc_strlcpy(n->name, ifname, sizeof(n->name));

	netif_read_sysfs(n);
	netif_read_irqs(n);
	netif_read_addrs(n);
	netif_read_ethtool(n);
	return 0;
}

void rdc_netif_free(struct rdc_netif *n)
{
	free(n->addrs_reason);
	free(n->pause_reason);
	free(n->fec_reason);
	free(n->linkmodes_reason);
	free(n->local_cpulist);
	n->local_cpulist = NULL;
	n->addrs_reason = n->pause_reason = n->fec_reason = n->linkmodes_reason = NULL;
}

int rdc_host_facts_read(struct rdc_host_facts *f, struct rdc_err *err)
{
	(void)err; /* every fact is optional: unknown ones say so */
	memset(f, 0, sizeof(*f));
	f->modules_present = -1;
	if (rdc_fs_read(f->kernel_release, sizeof(f->kernel_release), NULL,
			"/proc/sys/kernel/osrelease") <= 0 ||
	    strchr(f->kernel_release, '/'))
		f->kernel_release[0] = '\0';
	/* Without /lib/modules/RELEASE no module can load: rxe, bonding, mlx5_ib. */
	if (f->kernel_release[0])
		f->modules_present = rdc_fs_exists("/lib/modules/%s", f->kernel_release) ? 1 : 0;
	f->arp_ignore_all = netif_read_conf("all", "arp_ignore");
	f->arp_announce_all = netif_read_conf("all", "arp_announce");
	f->rp_filter_all = netif_read_conf("all", "rp_filter");
	return 0;
}
