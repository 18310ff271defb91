// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev_stats.c - a network interface's statistics: sysfs, and ethtool's where it has them */
#include <errno.h>

#include "base/util.h"
#include "host/netdev_stats.h"
#include "kernel/ethtool.h"
#include "seam/fs.h"

/* The generic counters every netdev has in sysfs (the rest vary by kernel). */
static const char *const netdev_sysfs_stats[] = {
	"rx_bytes",  "tx_bytes",   "rx_packets", "tx_packets",	  "rx_errors",
	"tx_errors", "rx_dropped", "tx_dropped", "rx_crc_errors", "rx_missed_errors",
};

int rdc_netdev_stats_read(const char *ifname, struct rdc_counter_set *set,
			  struct rdc_err *ethtool_err, struct rdc_err *err)
{
	int rc;

	for (size_t i = 0; i < RDC_ARRAY_SIZE(netdev_sysfs_stats); i++) {
		uint64_t v;

		if (!rdc_fs_read_u64(&v, NULL, "/sys/class/net/%s/statistics/%s", ifname,
				     netdev_sysfs_stats[i]) &&
		    rdc_counters_add(set, "netdev", netdev_sysfs_stats[i], v))
			return rdc_err_set(err, ENOMEM, "cannot read statistics");
	}
	rdc_err_clear(ethtool_err);
	rc = rdc_ethtool_driver_stats(ifname, set, ethtool_err);
	if (!rc)
		rc = rdc_ethtool_std_stats(ifname, set, ethtool_err);
	if (rc == -ENOMEM)
		return rdc_err_set(err, ENOMEM, "cannot read statistics");
	return 0;
}

int rdc_netdev_driver_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err)
{
	return rdc_ethtool_driver_stats(ifname, set, err);
}
