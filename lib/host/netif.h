/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netif.h - a netdev beyond host/netdev: carrier, addresses, sysctls, pause, FEC, speeds, IRQs */
#pragma once

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

#define RDC_NETIF_ADDRS_MAX 16

struct rdc_netif_addr {
	int family;		   /* AF_INET or AF_INET6 */
	uint8_t raw[16];	   /* network order; IPv4 in the first 4 bytes */
	unsigned int prefix_len;   /* 0..32 or 0..128 */
	char ip[INET6_ADDRSTRLEN]; /* "10.10.1.5", "fd00::5" */
	bool link_local;	   /* fe80::/10 (or 169.254/16) */
};

/*
 * Each part has its own "have" flag and, when false, a reason ("no
 * recording", "the driver has no FEC settings").  Numbers are -1 when
 * unknown.  Every file goes through the file seam, every message through
 * the transport.
 */
struct rdc_netif {
	char name[IF_NAMESIZE];
	int ifindex;		 /* 0 unknown */
	int admin_up;		 /* flags & IFF_UP: 1, 0, -1 unknown */
	int carrier;		 /* /sys/class/net/IF/carrier: 1, 0, -1 unknown (admin down) */
	int64_t carrier_changes; /* since boot; -1 unknown */
	char carrier_source[96];

	bool have_addrs; /* the RTM_GETADDR dumps answered */
	/*
	 * Why a part was not read, whole, or NULL: a transport's message can name
	 * a path (a recording under --root), so each reason is on the heap and
	 * the record is freed with rdc_netif_free().
	 */
	char *addrs_reason; /* "IPv4: WHY; IPv6: WHY" */
	size_t naddrs;
	struct rdc_netif_addr addrs[RDC_NETIF_ADDRS_MAX];

	/* /proc/sys/net/ipv4/conf/IF/{arp_ignore,arp_announce,rp_filter}; -1 unknown */
	int arp_ignore, arp_announce, rp_filter;

	bool have_pause; /* ETHTOOL_GPAUSEPARAM */
	char *pause_reason;
	bool pause_autoneg, pause_rx, pause_tx;

	bool have_fec; /* ETHTOOL_GFECPARAM */
	char *fec_reason;
	char fec_active[32]; /* "off", "rs", "baser", "llrs", "auto", "none" */

	bool have_linkmodes; /* ETHTOOL_GLINKSETTINGS */
	char *linkmodes_reason;
	int64_t speed_mbps;	/* current; -1 unknown (no link) */
	int64_t max_speed_mbps; /* fastest supported mode; -1 unknown */
	/* Fastest mode this end supports and the partner advertises; -1 unknown (no partner info). */
	int64_t common_speed_mbps;

	bool have_drvinfo; /* ETHTOOL_GDRVINFO; no reason: drivers without it are rare */
	char driver[32], driver_version[32], fw_version[32], bus_info[32];

	bool is_vf; /* device/physfn exists: an SR-IOV virtual function */

	/* IRQs of the PCI function (device/msi_irqs) whose affinity leaves its NUMA node */
	int irqs_total;	     /* -1 unknown */
	int irqs_remote;     /* of those, affine to no CPU of device/local_cpulist; -1 unknown */
	char *local_cpulist; /* "0-15,32-47", whole (heap, rdc_netif_free()); NULL unknown */
};

/*
 * Read everything about @ifname; parts that cannot be read say why.  -ENODEV: no such netdev.
 * @n is overwritten, not freed: rdc_netif_free() it after, whatever this returned.
 */
int rdc_netif_read(const char *ifname, struct rdc_netif *n, struct rdc_err *err);
/* Free the reasons @n holds (NULL-safe); they are NULL after. */
void rdc_netif_free(struct rdc_netif *n);

/* Host-wide facts. */
struct rdc_host_facts {
	char kernel_release[64]; /* /proc/sys/kernel/osrelease; "" unknown */
	int modules_present;	 /* /lib/modules/RELEASE exists: 1, 0, -1 unknown */
	/* /proc/sys/net/ipv4/conf/all/...; -1 unknown */
	int arp_ignore_all, arp_announce_all, rp_filter_all;
};

int rdc_host_facts_read(struct rdc_host_facts *f, struct rdc_err *err);

/* What the kernel applies (arp_ignore, arp_announce, rp_filter): the larger of all and IF. */
static inline int rdc_netif_sysctl_effective(int all, int dev)
{
	if (all < 0 || dev < 0)
		return -1;
	return all > dev ? all : dev;
}
