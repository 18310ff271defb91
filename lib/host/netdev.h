/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netdev.h - what sysfs says about a network interface */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/names.h"

#define RDC_BOND_MAX_SLAVES 16

struct rdc_netdev {
	char name[IF_NAMESIZE];
	int64_t mtu;	    /* bytes, -1 when unreadable */
	char operstate[24]; /* "up", "down", "lowerlayerdown", ... or "unknown" */
	int64_t speed_mbps; /* -1 when unknown (link down, virtual) */
	bool is_bond;
	char bond_mode[32]; /* "802.3ad", "active-backup" */
	unsigned int nslaves;
	char slaves[RDC_BOND_MAX_SLAVES][IF_NAMESIZE];
	char master[IF_NAMESIZE]; /* the bond this interface is enslaved to, or "" */
};

bool rdc_netdev_exists(const char *name);
/* The names of all network interfaces, sorted; free with rdc_names_free(). */
int rdc_netdev_names(struct rdc_names *names, struct rdc_err *err);
/* Fill @nd from /sys/class/net/NAME; -ENODEV when there is no such interface. */
int rdc_netdev_read(const char *name, struct rdc_netdev *nd, struct rdc_err *err);
