// SPDX-License-Identifier: GPL-2.0-or-later
/* bondnl_event.c - RTM_NEWLINK announcements of bonds and members, read with our own tables */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "base/util.h"
#include "kernel/bondnl_event.h"
#include "kernel/nlattr.h"

/* <linux/if.h>'s, which cannot be included beside <net/if.h>: the carrier, as ifi_flags say it. */
#define EVENT_IFF_LOWER_UP 0x10000

/*
 * What an attribute must look like before it is read, by type
 * (kernel/nlattr.h).  Types not in a table (0, or above it) are not judged:
 * every kernel adds some.  The integer sizes are exact, as the kernel's
 * strict validation wants them.
 */
static const struct rdc_nla_policy event_link_policy[] = {
	RDC_NLA(IFLA_IFNAME, RDC_NLA_STRING), RDC_NLA(IFLA_MASTER, RDC_NLA_U32),
	RDC_NLA(IFLA_CARRIER, RDC_NLA_U8),    RDC_NLA(IFLA_LINKINFO, RDC_NLA_NEST),
	RDC_NLA(IFLA_EVENT, RDC_NLA_U32),
};

static const struct rdc_nla_policy event_info_policy[] = {
	RDC_NLA(IFLA_INFO_KIND, RDC_NLA_STRING),
	RDC_NLA(IFLA_INFO_DATA, RDC_NLA_NEST),
	RDC_NLA(IFLA_INFO_SLAVE_KIND, RDC_NLA_STRING),
	RDC_NLA(IFLA_INFO_SLAVE_DATA, RDC_NLA_NEST),
};

/* bond_fill_info(): times in ms; ACTIVE_SLAVE and PRIMARY only when there is one. */
static const struct rdc_nla_policy event_bond_policy[] = {
	RDC_NLA(IFLA_BOND_MODE, RDC_NLA_U8),	   RDC_NLA(IFLA_BOND_ACTIVE_SLAVE, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_MIIMON, RDC_NLA_U32),	   RDC_NLA(IFLA_BOND_UPDELAY, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_DOWNDELAY, RDC_NLA_U32), RDC_NLA(IFLA_BOND_ARP_INTERVAL, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_PRIMARY, RDC_NLA_U32),   RDC_NLA(IFLA_BOND_AD_INFO, RDC_NLA_NEST),
};

static const struct rdc_nla_policy event_ad_info_policy[] = {
	RDC_NLA(IFLA_BOND_AD_INFO_AGGREGATOR, RDC_NLA_U16),
};

/* bond_fill_slave_info(); the AD_* ones only in 802.3ad mode. */
static const struct rdc_nla_policy event_member_policy[] = {
	RDC_NLA(IFLA_BOND_SLAVE_STATE, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_SLAVE_MII_STATUS, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, RDC_NLA_U8),
};

/* A nest's attributes by its table: 0, or -EBADMSG (a broken attribute, a cut nest). */
#define EVENT_PARSE_NEST(nest, policy, tb)                                                         \
	rdc_nla_parse_nest((nest), #policy, (policy), RDC_ARRAY_SIZE(policy), (tb), &why)

static int event_ifindex(const struct nlattr *attr)
{
	uint32_t v = nla_get_u32(attr);

	return v > INT_MAX ? 0 : (int)v;
}

static int event_read_bond(const struct nlattr *data, struct rdc_bond_link_event *ev)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(event_bond_policy)];
	const struct nlattr *ad[RDC_ARRAY_SIZE(event_ad_info_policy)];
	struct rdc_nla_why why;

	if (EVENT_PARSE_NEST(data, event_bond_policy, tb))
		return -EBADMSG;
	if (tb[IFLA_BOND_MODE])
		ev->mode = nla_get_u8(tb[IFLA_BOND_MODE]);
	/* Absent in a bond's data means none (all members down, or a mode without one). */
	ev->active_member =
		tb[IFLA_BOND_ACTIVE_SLAVE] ? event_ifindex(tb[IFLA_BOND_ACTIVE_SLAVE]) : 0;
	ev->primary = tb[IFLA_BOND_PRIMARY] ? event_ifindex(tb[IFLA_BOND_PRIMARY]) : 0;
	if (tb[IFLA_BOND_MIIMON])
		ev->miimon_ms = nla_get_u32(tb[IFLA_BOND_MIIMON]);
	if (tb[IFLA_BOND_UPDELAY])
		ev->updelay_ms = nla_get_u32(tb[IFLA_BOND_UPDELAY]);
	if (tb[IFLA_BOND_DOWNDELAY])
		ev->downdelay_ms = nla_get_u32(tb[IFLA_BOND_DOWNDELAY]);
	if (tb[IFLA_BOND_ARP_INTERVAL])
		ev->arp_interval_ms = nla_get_u32(tb[IFLA_BOND_ARP_INTERVAL]);
	if (tb[IFLA_BOND_AD_INFO]) {
		if (EVENT_PARSE_NEST(tb[IFLA_BOND_AD_INFO], event_ad_info_policy, ad))
			return -EBADMSG;
		if (ad[IFLA_BOND_AD_INFO_AGGREGATOR])
			ev->ad_aggregator_id = nla_get_u16(ad[IFLA_BOND_AD_INFO_AGGREGATOR]);
	}
	return 0;
}

static int event_read_member(const struct nlattr *data, struct rdc_bond_link_event *ev)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(event_member_policy)];
	struct rdc_nla_why why;

	if (EVENT_PARSE_NEST(data, event_member_policy, tb))
		return -EBADMSG;
	if (tb[IFLA_BOND_SLAVE_STATE])
		ev->state = nla_get_u8(tb[IFLA_BOND_SLAVE_STATE]);
	if (tb[IFLA_BOND_SLAVE_MII_STATUS])
		ev->mii_status = nla_get_u8(tb[IFLA_BOND_SLAVE_MII_STATUS]);
	if (tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT])
		ev->link_failure_count = nla_get_u32(tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT]);
	if (tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID])
		ev->aggregator_id = nla_get_u16(tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID]);
	if (tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE])
		ev->actor_state = nla_get_u8(tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE]);
	return 0;
}

static bool event_kind_is(const struct nlattr *attr, const char *kind)
{
	return attr && !strcmp(nla_get_string(attr), kind);
}

/*
 *   IFLA_LINKINFO{KIND "bond", DATA{...}}              a bond
 *   IFLA_LINKINFO{SLAVE_KIND "bond", SLAVE_DATA{...}}  a member of bond IFLA_MASTER
 *   anything else                                      a plain link (carrier, flags)
 */
int rdc_bondnl_event_parse(const struct nlmsghdr *nlh, struct rdc_bond_link_event *ev)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(event_link_policy)];
	const struct nlattr *info[RDC_ARRAY_SIZE(event_info_policy)];
	const struct ifinfomsg *ifi;
	struct rdc_nla_why why;
	int rc;

	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return -ENOMSG;
	/* Attributes are walked to the 4-byte aligned length: past an unaligned end. */
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)) || nlh->nlmsg_len % NLMSG_ALIGNTO)
		return -EBADMSG;
	ifi = nlmsg_data(nlh);
	if (ifi->ifi_index <= 0)
		return -EBADMSG;
	memset(ev, 0, sizeof(*ev));
	ev->deleted = nlh->nlmsg_type == RTM_DELLINK;
	ev->ifindex = ifi->ifi_index;
	ev->admin_up = ifi->ifi_flags & IFF_UP;
	ev->carrier = !!(ifi->ifi_flags & EVENT_IFF_LOWER_UP);
	ev->event = ev->mode = ev->active_member = ev->primary = ev->state = ev->mii_status = -1;
	ev->miimon_ms = ev->updelay_ms = ev->downdelay_ms = ev->arp_interval_ms = -1;
	ev->ad_aggregator_id = ev->link_failure_count = ev->aggregator_id = ev->actor_state = -1;

	if (rdc_nla_parse_msg(nlh, sizeof(*ifi), event_link_policy, RDC_ARRAY_SIZE(tb), tb, &why))
		return -EBADMSG;
	if (tb[IFLA_IFNAME] &&
	    rdc_strlcpy(ev->name, nla_get_string(tb[IFLA_IFNAME]), sizeof(ev->name)))
		return -EBADMSG;
	if (tb[IFLA_MASTER])
		ev->master = event_ifindex(tb[IFLA_MASTER]);
	if (tb[IFLA_CARRIER])
		ev->carrier = nla_get_u8(tb[IFLA_CARRIER]) ? 1 : 0;
	if (tb[IFLA_EVENT])
		ev->event = (int)(nla_get_u32(tb[IFLA_EVENT]) & INT_MAX);
	if (!tb[IFLA_LINKINFO])
		return 0;
	if (EVENT_PARSE_NEST(tb[IFLA_LINKINFO], event_info_policy, info))
		return -EBADMSG;
	if (event_kind_is(info[IFLA_INFO_KIND], "bond")) {
		ev->bond = true;
		if (info[IFLA_INFO_DATA]) {
			rc = event_read_bond(info[IFLA_INFO_DATA], ev);
			if (rc)
				return rc;
		}
	}
	if (event_kind_is(info[IFLA_INFO_SLAVE_KIND], "bond")) {
		ev->member = true;
		if (info[IFLA_INFO_SLAVE_DATA])
			return event_read_member(info[IFLA_INFO_SLAVE_DATA], ev);
	}
	return 0;
}
