/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bond.h - Linux bonds as a model: read (netlink, /proc/net/bonding), named, and their RoCE LAG */
#pragma once

#include <stdbool.h>

#include "base/err.h"
#include "kernel/bondnl.h"

/* Names of the enums as iproute2 and sysfs spell them; NULL for an unknown value. */
const char *rdc_bond_mode_name(int mode);
const char *rdc_bond_hash_name(int hash);
const char *rdc_bond_lacp_rate_name(int rate);
const char *rdc_bond_ad_select_name(int sel);
const char *rdc_bond_mii_status_name(int status);
/* The inverses: 0 and the value, or -EINVAL. */
int rdc_bond_mode_parse(const char *name, int *mode);
int rdc_bond_hash_parse(const char *name, int *hash);
int rdc_bond_lacp_rate_parse(const char *name, int *rate);
int rdc_bond_ad_select_parse(const char *name, int *sel);
/* Modes mlx5 (and the others that do RoCE LAG) can offload: active-backup, balance-xor, 802.3ad. */
bool rdc_bond_mode_roce_lag(int mode);

/*
 * Every bond of the host with its members (rtnetlink; /proc/net/bonding
 * fills what netlink lacks, and stands in for it in a bundle without a
 * recording), and for each the RDMA port whose netdev it is (RoCE LAG), or
 * why none is.
 */
int rdc_bond_read_all(struct rdc_bond_list *list, struct rdc_err *err);
/* One bond by name: -ENODEV when there is no bond of that name. */
int rdc_bond_read(const char *name, struct rdc_bond *b, struct rdc_err *err);
