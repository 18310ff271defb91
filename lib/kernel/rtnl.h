/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtnl.h - network interface state over rtnetlink (libnl-3 builds, nlattr.h reads, nl.c carries) */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

struct rdc_link {
	int ifindex;
	char name[IF_NAMESIZE];
	uint32_t mtu;	  /* bytes */
	uint32_t min_mtu; /* 0 when the kernel does not say */
	uint32_t max_mtu;
	bool admin_up;	    /* IFF_UP */
	char operstate[24]; /* "up", "down", ... */
};

/* What to change; fields left at their "keep" value are not sent. */
struct rdc_link_change {
	int64_t mtu;  /* -1: keep */
	int admin_up; /* -1: keep, 0: down, 1: up */
};

int rdc_link_get(const char *ifname, struct rdc_link *link, struct rdc_err *err);
/* The name of netdev @ifindex in this network namespace; -ENXIO when none here has it. */
int rdc_link_name(int ifindex, char name[IF_NAMESIZE], struct rdc_err *err);
/* One RTM_NEWLINK carrying only the changed attributes; refused under --root. */
int rdc_link_set(const struct rdc_link *current, const struct rdc_link_change *change,
		 struct rdc_err *err);
