// SPDX-License-Identifier: GPL-2.0-or-later
/* names.c - the bonding enums as iproute2 and sysfs spell them, and back */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "base/util.h"
#include "bond/bond.h"

/*
 * Each table is indexed by the value on the wire (IFLA_BOND_MODE,
 * IFLA_BOND_XMIT_HASH_POLICY, ...), as in the kernel's bond_options.c
 * tables: the index is the value, the string is what `ip -d link` prints
 * and sysfs reads before the number ("802.3ad 4").
 */
static const char *const bond_mode_names[] = {
	[RDC_BOND_BALANCE_RR] = "balance-rr",	[RDC_BOND_ACTIVE_BACKUP] = "active-backup",
	[RDC_BOND_BALANCE_XOR] = "balance-xor", [RDC_BOND_BROADCAST] = "broadcast",
	[RDC_BOND_8023AD] = "802.3ad",		[RDC_BOND_BALANCE_TLB] = "balance-tlb",
	[RDC_BOND_BALANCE_ALB] = "balance-alb",
};

/* Note the order: 1 is layer3+4, 2 is layer2+3 (the kernel added them in that order). */
static const char *const bond_hash_names[] = {
	[RDC_BOND_HASH_L2] = "layer2",	  [RDC_BOND_HASH_L34] = "layer3+4",
	[RDC_BOND_HASH_L23] = "layer2+3", [RDC_BOND_HASH_E23] = "encap2+3",
	[RDC_BOND_HASH_E34] = "encap3+4", [RDC_BOND_HASH_VLAN_SRCMAC] = "vlan+srcmac",
};

/* IFLA_BOND_AD_LACP_RATE: fast asks the partner for an LACPDU every second, slow every 30 s. */
static const char *const bond_lacp_rate_names[] = {"slow", "fast"};

/* IFLA_BOND_AD_SELECT; actor_port_prio (6.18) is left out: the model does not know it. */
static const char *const bond_ad_select_names[] = {"stable", "bandwidth", "count"};

/* IFLA_BOND_SLAVE_MII_STATUS (BOND_LINK_UP, _FAIL, _DOWN, _BACK), as bond_slave_link_status(). */
static const char *const bond_mii_status_names[] = {"up", "going down", "down", "going back"};

/* Rejects negative values and values past the table: the kernel may know more than we do. */
static const char *bond_name(const char *const *tbl, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n)
		return NULL;
	return tbl[v];
}

/* Exact strcmp: no prefixes, no numbers, no case folding. */
static int bond_parse(const char *const *tbl, size_t n, const char *name, int *v)
{
	if (!name)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (tbl[i] && !strcmp(tbl[i], name)) {
			*v = (int)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *rdc_bond_mode_name(int mode)
{
	return bond_name(bond_mode_names, RDC_ARRAY_SIZE(bond_mode_names), mode);
}

const char *rdc_bond_hash_name(int hash)
{
	return bond_name(bond_hash_names, RDC_ARRAY_SIZE(bond_hash_names), hash);
}

const char *rdc_bond_lacp_rate_name(int rate)
{
	return bond_name(bond_lacp_rate_names, RDC_ARRAY_SIZE(bond_lacp_rate_names), rate);
}

const char *rdc_bond_ad_select_name(int sel)
{
	return bond_name(bond_ad_select_names, RDC_ARRAY_SIZE(bond_ad_select_names), sel);
}

const char *rdc_bond_mii_status_name(int status)
{
	return bond_name(bond_mii_status_names, RDC_ARRAY_SIZE(bond_mii_status_names), status);
}

int rdc_bond_mode_parse(const char *name, int *mode)
{
	return bond_parse(bond_mode_names, RDC_ARRAY_SIZE(bond_mode_names), name, mode);
}

int rdc_bond_hash_parse(const char *name, int *hash)
{
	return bond_parse(bond_hash_names, RDC_ARRAY_SIZE(bond_hash_names), name, hash);
}

int rdc_bond_lacp_rate_parse(const char *name, int *rate)
{
	return bond_parse(bond_lacp_rate_names, RDC_ARRAY_SIZE(bond_lacp_rate_names), name, rate);
}

int rdc_bond_ad_select_parse(const char *name, int *sel)
{
	return bond_parse(bond_ad_select_names, RDC_ARRAY_SIZE(bond_ad_select_names), name, sel);
}

/*
 * mlx5 activates LAG only for the TX types "active-backup" and "hash"
 * (mlx5_lag_is_supported / mlx5_lag_netdev_event): active-backup, and
 * balance-xor and 802.3ad which hash.  balance-rr, broadcast, tlb and alb
 * get "Can't activate LAG offload, TX type isn't supported".
 */
bool rdc_bond_mode_roce_lag(int mode)
{
	static const bool lag[] = {
		[RDC_BOND_ACTIVE_BACKUP] = true,
		[RDC_BOND_BALANCE_XOR] = true,
		[RDC_BOND_8023AD] = true,
		[RDC_BOND_BALANCE_ALB] = false, /* sizes the table to every mode */
	};

	return mode >= 0 && (size_t)mode < RDC_ARRAY_SIZE(lag) && lag[mode];
}
