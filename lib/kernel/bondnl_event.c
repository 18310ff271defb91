// SPDX-License-Identifier: GPL-2.0-or-later
/* bondnl_event.c - RTM_NEWLINK announcements of bonds and members, read with our own tables */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "kernel/bondnl_event.h"

/* <linux/if.h>'s, which cannot be included beside <net/if.h>: the carrier, as ifi_flags say it. */
#define EVENT_IFF_LOWER_UP 0x10000

/*
 * What an attribute must look like before it is read, by type.  Types not
 * in a table (0, or above it) are not judged: every kernel adds some.  The
 * integer sizes are exact, as the kernel's strict validation wants them.
 */
struct event_policy {
	enum mnl_attr_data_type type; /* MNL_TYPE_UNSPEC: not read */
};

static const struct event_policy event_link_policy[] = {
	[IFLA_IFNAME] = {MNL_TYPE_NUL_STRING}, [IFLA_MASTER] = {MNL_TYPE_U32},
	[IFLA_CARRIER] = {MNL_TYPE_U8},	       [IFLA_LINKINFO] = {MNL_TYPE_NESTED},
	[IFLA_EVENT] = {MNL_TYPE_U32},
};

static const struct event_policy event_info_policy[] = {
	[IFLA_INFO_KIND] = {MNL_TYPE_NUL_STRING},
	[IFLA_INFO_DATA] = {MNL_TYPE_NESTED},
	[IFLA_INFO_SLAVE_KIND] = {MNL_TYPE_NUL_STRING},
	[IFLA_INFO_SLAVE_DATA] = {MNL_TYPE_NESTED},
};

/* bond_fill_info(): times in ms; ACTIVE_SLAVE and PRIMARY only when there is one. */
static const struct event_policy event_bond_policy[] = {
	[IFLA_BOND_MODE] = {MNL_TYPE_U8},	[IFLA_BOND_ACTIVE_SLAVE] = {MNL_TYPE_U32},
	[IFLA_BOND_MIIMON] = {MNL_TYPE_U32},	[IFLA_BOND_UPDELAY] = {MNL_TYPE_U32},
	[IFLA_BOND_DOWNDELAY] = {MNL_TYPE_U32}, [IFLA_BOND_ARP_INTERVAL] = {MNL_TYPE_U32},
	[IFLA_BOND_PRIMARY] = {MNL_TYPE_U32},	[IFLA_BOND_AD_INFO] = {MNL_TYPE_NESTED},
};

static const struct event_policy event_ad_info_policy[] = {
	[IFLA_BOND_AD_INFO_AGGREGATOR] = {MNL_TYPE_U16},
};

/* bond_fill_slave_info(); the AD_* ones only in 802.3ad mode. */
static const struct event_policy event_member_policy[] = {
	[IFLA_BOND_SLAVE_STATE] = {MNL_TYPE_U8},
	[IFLA_BOND_SLAVE_MII_STATUS] = {MNL_TYPE_U8},
	[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT] = {MNL_TYPE_U32},
	[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID] = {MNL_TYPE_U16},
	[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE] = {MNL_TYPE_U8},
};

#define EVENT_MAX_TB 64 /* no table above is longer (IFLA_EVENT is 44) */
_Static_assert(RDC_ARRAY_SIZE(event_link_policy) <= EVENT_MAX_TB, "event_tb too small");

struct event_tb {
	const struct event_policy *policy;
	size_t npolicy;
	const struct nlattr *tb[EVENT_MAX_TB];
	const char *end; /* where the attributes walked so far end */
};

static int event_attr_cb(const struct nlattr *attr, void *data)
{
	struct event_tb *t = data;
	uint16_t type = mnl_attr_get_type(attr);

	t->end = (const char *)attr + MNL_ALIGN(attr->nla_len);
	if (type >= t->npolicy || t->policy[type].type == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, t->policy[type].type) < 0)
		return MNL_CB_ERROR;
	t->tb[type] = attr; /* repeated: the last wins, as in the kernel's nla_parse */
	return MNL_CB_OK;
}

static void event_tb_init(struct event_tb *t, const struct event_policy *policy, size_t n,
			  const void *start)
{
	memset(t, 0, sizeof(*t));
	t->policy = policy;
	t->npolicy = n < EVENT_MAX_TB ? n : EVENT_MAX_TB;
	t->end = start;
}

/*
 * libmnl stops quietly at an attribute longer than what is left; a walk that
 * ended short of the end saw a truncated attribute or bytes that are no
 * attributes (a string where a nest should be).
 */
static int event_walk_nest(struct event_tb *t, const struct nlattr *nest)
{
	const char *end = (const char *)mnl_attr_get_payload(nest) + mnl_attr_get_payload_len(nest);

	if (mnl_attr_parse_nested(nest, event_attr_cb, t) < MNL_CB_OK || t->end < end)
		return -EBADMSG;
	return 0;
}

static int event_ifindex(const struct nlattr *attr)
{
	uint32_t v = mnl_attr_get_u32(attr);

	return v > INT_MAX ? 0 : (int)v;
}

static int event_read_bond(const struct nlattr *data, struct rdc_bond_link_event *ev)
{
	struct event_tb t, ad;

	event_tb_init(&t, event_bond_policy, RDC_ARRAY_SIZE(event_bond_policy),
		      mnl_attr_get_payload(data));
	if (event_walk_nest(&t, data))
		return -EBADMSG;
	if (t.tb[IFLA_BOND_MODE])
		ev->mode = mnl_attr_get_u8(t.tb[IFLA_BOND_MODE]);
	/* Absent in a bond's data means none (all members down, or a mode without one). */
	ev->active_member =
		t.tb[IFLA_BOND_ACTIVE_SLAVE] ? event_ifindex(t.tb[IFLA_BOND_ACTIVE_SLAVE]) : 0;
	ev->primary = t.tb[IFLA_BOND_PRIMARY] ? event_ifindex(t.tb[IFLA_BOND_PRIMARY]) : 0;
	if (t.tb[IFLA_BOND_MIIMON])
		ev->miimon_ms = mnl_attr_get_u32(t.tb[IFLA_BOND_MIIMON]);
	if (t.tb[IFLA_BOND_UPDELAY])
		ev->updelay_ms = mnl_attr_get_u32(t.tb[IFLA_BOND_UPDELAY]);
	if (t.tb[IFLA_BOND_DOWNDELAY])
		ev->downdelay_ms = mnl_attr_get_u32(t.tb[IFLA_BOND_DOWNDELAY]);
	if (t.tb[IFLA_BOND_ARP_INTERVAL])
		ev->arp_interval_ms = mnl_attr_get_u32(t.tb[IFLA_BOND_ARP_INTERVAL]);
	if (t.tb[IFLA_BOND_AD_INFO]) {
		event_tb_init(&ad, event_ad_info_policy, RDC_ARRAY_SIZE(event_ad_info_policy),
			      mnl_attr_get_payload(t.tb[IFLA_BOND_AD_INFO]));
		if (event_walk_nest(&ad, t.tb[IFLA_BOND_AD_INFO]))
			return -EBADMSG;
		if (ad.tb[IFLA_BOND_AD_INFO_AGGREGATOR])
			ev->ad_aggregator_id =
				mnl_attr_get_u16(ad.tb[IFLA_BOND_AD_INFO_AGGREGATOR]);
	}
	return 0;
}

static int event_read_member(const struct nlattr *data, struct rdc_bond_link_event *ev)
{
	struct event_tb t;

	event_tb_init(&t, event_member_policy, RDC_ARRAY_SIZE(event_member_policy),
		      mnl_attr_get_payload(data));
	if (event_walk_nest(&t, data))
		return -EBADMSG;
	if (t.tb[IFLA_BOND_SLAVE_STATE])
		ev->state = mnl_attr_get_u8(t.tb[IFLA_BOND_SLAVE_STATE]);
	if (t.tb[IFLA_BOND_SLAVE_MII_STATUS])
		ev->mii_status = mnl_attr_get_u8(t.tb[IFLA_BOND_SLAVE_MII_STATUS]);
	if (t.tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT])
		ev->link_failure_count = mnl_attr_get_u32(t.tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT]);
	if (t.tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID])
		ev->aggregator_id = mnl_attr_get_u16(t.tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID]);
	if (t.tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE])
		ev->actor_state = mnl_attr_get_u8(t.tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE]);
	return 0;
}

static bool event_kind_is(const struct nlattr *attr, const char *kind)
{
	return attr && !strcmp(mnl_attr_get_str(attr), kind);
}

/*
 *   IFLA_LINKINFO{KIND "bond", DATA{...}}              a bond
 *   IFLA_LINKINFO{SLAVE_KIND "bond", SLAVE_DATA{...}}  a member of bond IFLA_MASTER
 *   anything else                                      a plain link (carrier, flags)
 */
int rdc_bondnl_event_parse(const struct nlmsghdr *nlh, struct rdc_bond_link_event *ev)
{
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const struct ifinfomsg *ifi;
	struct event_tb t, info;
	int rc;

	if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK)
		return -ENOMSG;
	/* libmnl walks attributes to the 4-byte aligned length: past an unaligned end. */
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifi)) || nlh->nlmsg_len % MNL_ALIGNTO)
		return -EBADMSG;
	ifi = mnl_nlmsg_get_payload(nlh);
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

	event_tb_init(&t, event_link_policy, RDC_ARRAY_SIZE(event_link_policy),
		      mnl_nlmsg_get_payload_offset(nlh, sizeof(*ifi)));
	if (mnl_attr_parse(nlh, sizeof(*ifi), event_attr_cb, &t) < MNL_CB_OK || t.end < end)
		return -EBADMSG;
	if (t.tb[IFLA_IFNAME] &&
	    rdc_strlcpy(ev->name, mnl_attr_get_str(t.tb[IFLA_IFNAME]), sizeof(ev->name)))
		return -EBADMSG;
	if (t.tb[IFLA_MASTER])
		ev->master = event_ifindex(t.tb[IFLA_MASTER]);
	if (t.tb[IFLA_CARRIER])
		ev->carrier = mnl_attr_get_u8(t.tb[IFLA_CARRIER]) ? 1 : 0;
	if (t.tb[IFLA_EVENT])
		ev->event = (int)(mnl_attr_get_u32(t.tb[IFLA_EVENT]) & INT_MAX);
	if (!t.tb[IFLA_LINKINFO])
		return 0;
	event_tb_init(&info, event_info_policy, RDC_ARRAY_SIZE(event_info_policy),
		      mnl_attr_get_payload(t.tb[IFLA_LINKINFO]));
	if (event_walk_nest(&info, t.tb[IFLA_LINKINFO]))
		return -EBADMSG;
	if (event_kind_is(info.tb[IFLA_INFO_KIND], "bond")) {
		ev->bond = true;
		if (info.tb[IFLA_INFO_DATA]) {
			rc = event_read_bond(info.tb[IFLA_INFO_DATA], ev);
			if (rc)
				return rc;
		}
	}
	if (event_kind_is(info.tb[IFLA_INFO_SLAVE_KIND], "bond")) {
		ev->member = true;
		if (info.tb[IFLA_INFO_SLAVE_DATA])
			return event_read_member(info.tb[IFLA_INFO_SLAVE_DATA], ev);
	}
	return 0;
}
