/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - netdev statistics: driver strings (ioctl) and standard groups (netlink) */
#pragma once

#include "base/counters.h"
#include "base/err.h"

/*
 * The driver's own statistics, what `ethtool -S` prints (group "driver"):
 * names such as rx_prio3_pause or rx_discards_phy exist only here.
 */
int rdc_ethtool_driver_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err);

/*
 * IEEE 802.3 / RMON standard statistics over ethtool netlink (groups
 * "eth-phy", "eth-mac", "eth-ctrl", "rmon") and the pause frame counters
 * (group "pause": tx_frames, rx_frames).  Drivers that implement none give
 * an empty set.
 */
int rdc_ethtool_std_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err);
