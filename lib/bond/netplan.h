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
 * and anything else there is an error naming its line, as are duplicate
 * keys, a second bonds section, a bond named twice, aliases and non-scalar
 * values.  Parameter names are netplan's; the caller maps them.
 */
int rdc_bond_netplan_load(const char *path, struct rdc_cfg *cfg, struct rdc_err *err);
