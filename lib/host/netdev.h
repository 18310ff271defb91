/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netdev.h - what sysfs says about a network interface */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/issues.h"
#include "base/names.h"

#define RDC_BOND_MAX_SLAVES 16

struct rdc_netdev {
	char name[IF_NAMESIZE];
	int64_t mtu;	    /* bytes, -1 when absent or unreadable */
	int admin_up;	    /* IFF_UP of flags: 1, 0, -1 unknown (absent or unreadable) */
	int carrier;	    /* carrier: 1, 0, -1 unknown (admin down, absent: rdc_link_carrier) */
	char operstate[24]; /* "up", "down", ... "unknown" (the kernel's word); "" unreadable */
	int64_t speed_mbps; /* -1 when unknown (link down, virtual) */
	bool is_bond;
	char bond_mode[32]; /* "802.3ad", "active-backup" */
	unsigned int nslaves;
	char slaves[RDC_BOND_MAX_SLAVES][IF_NAMESIZE];
	char master[IF_NAMESIZE]; /* the bond this interface is enslaved to, or "" */
	struct rdc_issues issues; /* files that exist but could not be read or parsed */
};

bool rdc_netdev_exists(const char *name);
/* The names of all network interfaces, sorted; free with rdc_names_free(). */
int rdc_netdev_names(struct rdc_names *names, struct rdc_err *err);
/*
 * Fill @nd from /sys/class/net/NAME; -ENODEV when there is no such interface.
 * A value that cannot be read stays unknown and is recorded in nd->issues.
 * @nd is overwritten, not freed: rdc_netdev_free() it after.
 */
int rdc_netdev_read(const char *name, struct rdc_netdev *nd, struct rdc_err *err);
/* Free what rdc_netdev_read() left in @nd (its issues), whatever it returned. */
void rdc_netdev_free(struct rdc_netdev *nd);
