/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netplan.h - the bonds of a netplan file, as keyword devices for the bond keyword table */
#pragma once

#include "base/config.h"
#include "base/err.h"

/*
 *   network:                      (optional wrapper; version: 2 allowed)
 *     bonds:
 *       bond0:                    -> device, keys[0] = "bond": bond0
 *         interfaces: [eth0, eth1]  -> "interfaces": eth0 eth1
 *         parameters:
 *           mode: active-backup       -> "mode": active-backup
 *           mii-monitor-interval: 100 -> "mii-monitor-interval": 100
 *
 * Other top-level sections (ethernets, vlans, ...) are not rdmactl's and
 * are passed over; inside a bond only interfaces and parameters are read,
 * and anything else there is an error naming its line, as are: a key given
 * twice in any mapping of the file (passed-over sections included), a second
 * bonds section (also one beside network:), a bond named twice, a bond or
 * interface name the kernel would refuse or that reads as an option ("-x"),
 * an interface named twice or in two bonds, aliases, a second document, and
 * non-scalar values.  The file (or "-", standard input) is read whole, at
 * most 1 MiB.  Parameter names are netplan's; the caller maps them.
 */
int rdc_bond_netplan_load(const char *path, struct rdc_cfg *cfg, struct rdc_err *err);
