/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bondnl_event.h - one RTM_NEWLINK of a bond or a bond member, as the kernel announces it */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/netlink.h>

/*
 * The kernel sends a whole RTM_NEWLINK to RTNLGRP_LINK whenever a link
 * changes; for bonds that is (drivers/net/bonding, 6.1):
 *
 *   member carrier lost/back          the member's, IFLA_CARRIER 0/1 (linkwatch)
 *   member MII status changed         the member's, IFLA_BOND_SLAVE_MII_STATUS
 *   member active <-> backup          the member's, IFLA_BOND_SLAVE_STATE
 *   802.3ad port state changed        the member's, IFLA_BOND_SLAVE_AD_* (churn, sync)
 *   new active member                 the bond's, IFLA_BOND_ACTIVE_SLAVE and
 *                                     IFLA_EVENT = IFLA_EVENT_BONDING_FAILOVER
 *
 * Each message is a snapshot, not a difference: a caller keeps the last one
 * per ifindex and compares.  Values a message does not carry are -1.
 */
struct rdc_bond_link_event {
	bool deleted; /* RTM_DELLINK: the link is gone */
	int ifindex;
	char name[IF_NAMESIZE]; /* "" when not sent */
	int master;		/* IFLA_MASTER ifindex, 0 none */
	bool admin_up;		/* IFF_UP */
	int carrier;		/* IFLA_CARRIER, else IFF_LOWER_UP: 1 or 0 */
	int event;		/* IFLA_EVENT_* (why the kernel sent it), -1 not said */
	bool bond;		/* IFLA_INFO_KIND "bond" */
	bool member;		/* IFLA_INFO_SLAVE_KIND "bond" */

	/* A bond's IFLA_INFO_DATA. */
	int mode;	   /* IFLA_BOND_MODE, enum rdc_bond_mode */
	int active_member; /* ifindex; 0 none (the kernel omits the attribute); -1 no data */
	int64_t miimon_ms; /* 0: MII monitoring off */
	int64_t updelay_ms, downdelay_ms, arp_interval_ms;
	int primary;		  /* ifindex, 0 none, -1 no data */
	int64_t ad_aggregator_id; /* 802.3ad: the active aggregator (IFLA_BOND_AD_INFO) */

	/* A member's IFLA_INFO_SLAVE_DATA. */
	int state;	/* 0 active, 1 backup */
	int mii_status; /* 0 up, 1 going down, 2 down, 3 going back */
	int64_t link_failure_count;
	int64_t aggregator_id; /* 802.3ad: the aggregator this port is in */
	int64_t actor_state;   /* 802.3ad: RDC_LACP_* bits (kernel/bondnl.h) */
};

/*
 * Read one RTM_NEWLINK or RTM_DELLINK into @ev (copied: valid after the
 * callback).  -ENOMSG for any other message, -EBADMSG for a malformed one
 * (an attribute of the wrong size, a truncated nest).
 */
int rdc_bondnl_event_parse(const struct nlmsghdr *nlh, struct rdc_bond_link_event *ev);
