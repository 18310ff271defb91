/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netdev_stats.h - a network interface's statistics: sysfs, and ethtool's where it has them */
#pragma once

#include "base/counters.h"
#include "base/err.h"

/*
 * The generic counters of /sys/class/net/IF/statistics (group "netdev"),
 * then ethtool's driver strings and standard groups.  ethtool is optional (a
 * bundle without a recording, a driver without statistics): why it gave
 * nothing goes to @ethtool_err, and the call still succeeds.  -ENOMEM only.
 */
int rdc_netdev_stats_read(const char *ifname, struct rdc_counter_set *set,
			  struct rdc_err *ethtool_err, struct rdc_err *err);
/*
 * Only the driver's own statistics, what `ethtool -S` prints (group
 * "driver"): per-priority pause counters and durations live there.
 */
int rdc_netdev_driver_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err);
