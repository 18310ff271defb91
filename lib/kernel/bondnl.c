// SPDX-License-Identifier: GPL-2.0-or-later
/* bondnl.c - bonds over rtnetlink: one RTM_GETLINK dump read with our own tables, and changes */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "base/util.h"
#include "kernel/bondnl.h"
#include "kernel/nlattr.h"
#include "kernel/rtmsg.h"
#include "seam/nl.h"

/* ---- attribute policies (kernel/nlattr.h) ------------------------------ */

static const struct rdc_nla_policy bondnl_link_policy[] = {
	RDC_NLA(IFLA_IFNAME, RDC_NLA_IFNAME), /* a bond's or member's name */
	RDC_NLA(IFLA_MTU, RDC_NLA_U32),	      /* bytes */
	RDC_NLA(IFLA_MASTER, RDC_NLA_U32),    /* ifindex of the bond (or bridge, VRF) */
	RDC_NLA(IFLA_LINKINFO, RDC_NLA_NEST), /* kind, and the bond's or member's data */
	RDC_NLA(IFLA_CARRIER, RDC_NLA_U8),    /* 0 or 1 */
};

/* Every link kind puts its IFLA_INFO_DATA in a nest; only a bond's is read further. */
static const struct rdc_nla_policy bondnl_info_policy[] = {
	RDC_NLA(IFLA_INFO_KIND, RDC_NLA_STRING),
	RDC_NLA(IFLA_INFO_DATA, RDC_NLA_NEST),
	RDC_NLA(IFLA_INFO_SLAVE_KIND, RDC_NLA_STRING),
	RDC_NLA(IFLA_INFO_SLAVE_DATA, RDC_NLA_NEST),
};

/* drivers/net/bonding/bond_netlink.c bond_fill_info(); times are in ms. */
static const struct rdc_nla_policy bondnl_bond_policy[] = {
	RDC_NLA(IFLA_BOND_MODE, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_ACTIVE_SLAVE, RDC_NLA_U32), /* ifindex, sent only when there is one */
	RDC_NLA(IFLA_BOND_MIIMON, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_UPDELAY, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_DOWNDELAY, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_ARP_INTERVAL, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_PRIMARY, RDC_NLA_U32), /* ifindex, sent only when there is one */
	RDC_NLA(IFLA_BOND_XMIT_HASH_POLICY, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_MIN_LINKS, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_AD_LACP_RATE, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_AD_SELECT, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_AD_INFO, RDC_NLA_NEST), /* 802.3ad with an active aggregator */
};

static const struct rdc_nla_policy bondnl_ad_info_policy[] = {
	RDC_NLA(IFLA_BOND_AD_INFO_AGGREGATOR, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_AD_INFO_NUM_PORTS, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_AD_INFO_ACTOR_KEY, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_AD_INFO_PARTNER_KEY, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_AD_INFO_PARTNER_MAC, RDC_NLA_MAC),
};

/* bond_fill_slave_info(); the AD_* ones only in 802.3ad mode. */
static const struct rdc_nla_policy bondnl_slave_policy[] = {
	RDC_NLA(IFLA_BOND_SLAVE_STATE, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_SLAVE_MII_STATUS, RDC_NLA_U8),
	RDC_NLA(IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, RDC_NLA_U32),
	RDC_NLA(IFLA_BOND_SLAVE_PERM_HWADDR, RDC_NLA_HWADDR), /* dev->addr_len bytes */
	RDC_NLA(IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, RDC_NLA_U16),
	RDC_NLA(IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, RDC_NLA_U8),
	/* The kernel puts a u16 (nla_put_u16), iproute2 reads a u8: take either. */
	RDC_NLA(IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE, RDC_NLA_U8_U16),
};

/* ---- the dump ---------------------------------------------------------- */

/* A member seen in the dump, before its master (usually later in it) is known. */
struct bondnl_member {
	int master;
	struct rdc_bond_member m;
};

/* Every link's name, to turn ACTIVE_SLAVE and PRIMARY ifindexes into names at the end. */
struct bondnl_name {
	int ifindex;
	char name[IF_NAMESIZE];
};

struct bondnl_dump {
	struct rdc_bond_list *list;
	int active_ifindex[RDC_BOND_MAX]; /* per list->bonds[], 0 none */
	int primary_ifindex[RDC_BOND_MAX];
	struct bondnl_member *members;
	size_t nmembers, members_cap;
	struct bondnl_name *names;
	size_t nnames, names_cap;
	/*
	 * The first error of the callbacks and what it was: the transport goes
	 * on draining the dump and may fill the caller's record again (a
	 * recording cut short), but this is the cause.
	 */
	int rc;
	struct rdc_err why;
};

void rdc_bondnl_member_init(struct rdc_bond_member *m)
{
	memset(m, 0, sizeof(*m));
	m->ifindex = RDC_BOND_UNKNOWN;
	m->state = RDC_BOND_UNKNOWN;
	m->mii_status = RDC_BOND_UNKNOWN;
	m->link_failure_count = RDC_BOND_UNKNOWN;
	m->speed_mbps = RDC_BOND_UNKNOWN;
	m->mtu = RDC_BOND_UNKNOWN;
	m->aggregator_id = RDC_BOND_UNKNOWN;
	m->actor_port_state = RDC_BOND_UNKNOWN;
	m->partner_port_state = RDC_BOND_UNKNOWN;
}

void rdc_bondnl_init(struct rdc_bond *b)
{
	memset(b, 0, sizeof(*b));
	b->ifindex = RDC_BOND_UNKNOWN;
	b->mtu = RDC_BOND_UNKNOWN;
	b->mode = RDC_BOND_UNKNOWN;
	b->xmit_hash_policy = RDC_BOND_UNKNOWN;
	b->miimon_ms = RDC_BOND_UNKNOWN;
	b->updelay_ms = RDC_BOND_UNKNOWN;
	b->downdelay_ms = RDC_BOND_UNKNOWN;
	b->arp_interval_ms = RDC_BOND_UNKNOWN;
	b->lacp_rate = RDC_BOND_UNKNOWN;
	b->ad_select = RDC_BOND_UNKNOWN;
	b->min_links = RDC_BOND_UNKNOWN;
	b->ad_aggregator_id = RDC_BOND_UNKNOWN;
	b->ad_num_ports = RDC_BOND_UNKNOWN;
	b->ad_actor_key = RDC_BOND_UNKNOWN;
	b->ad_partner_key = RDC_BOND_UNKNOWN;
	/* Slots not yet used, so that a member added by hand starts unknown too. */
	for (size_t i = 0; i < RDC_BOND_MAX_MEMBERS; i++)
		rdc_bondnl_member_init(&b->members[i]);
	/* rdma_port 0 with rdma_device "": no RDMA port, until lib/bond says otherwise. */
}

static int bondnl_bad(struct bondnl_dump *d, int ifindex, const char *why)
{
	d->rc = rdc_err_set(&d->why, EBADMSG, "malformed RTM_NEWLINK (ifindex %d): %s", ifindex,
			    why);
	return d->rc;
}

static int bondnl_grow(void **items, size_t *cap, size_t count, size_t size)
{
	size_t n = *cap ? 2 * *cap : 16;
	void *p;

	if (count < *cap)
		return 0;
	p = realloc(*items, n * size);
	if (!p)
		return -ENOMEM;
	*items = p;
	*cap = n;
	return 0;
}

/* "aa:bb:cc:dd:ee:ff"; an address that does not fit @size (IPoIB's 20 bytes) is left "". */
static void bondnl_format_mac(const struct nlattr *attr, char *out, size_t size)
{
	const uint8_t *p = nla_data(attr);
	size_t len = (size_t)nla_len(attr);

	out[0] = '\0';
	if (!len || 3 * len > size)
		return;
	/* "xx:" per byte; the last one's ':' is cut by snprintf or by the final NUL. */
	for (size_t i = 0; i < len; i++)
		snprintf(out + 3 * i, size - 3 * i, "%02x:", p[i]);
	out[3 * len - 1] = '\0';
}

static int bondnl_read_ad_info(struct bondnl_dump *d, int ifindex, struct rdc_bond *b,
			       const struct nlattr *nest)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(bondnl_ad_info_policy)] = {NULL};
	struct rdc_nla_why why;

	if (rdc_nla_parse_nest(nest, "IFLA_BOND_AD_INFO", bondnl_ad_info_policy, RDC_ARRAY_SIZE(tb),
			       tb, &why))
		return bondnl_bad(d, ifindex, why.text);
	if (tb[IFLA_BOND_AD_INFO_AGGREGATOR])
		b->ad_aggregator_id = nla_get_u16(tb[IFLA_BOND_AD_INFO_AGGREGATOR]);
	if (tb[IFLA_BOND_AD_INFO_NUM_PORTS])
		b->ad_num_ports = nla_get_u16(tb[IFLA_BOND_AD_INFO_NUM_PORTS]);
	if (tb[IFLA_BOND_AD_INFO_ACTOR_KEY])
		b->ad_actor_key = nla_get_u16(tb[IFLA_BOND_AD_INFO_ACTOR_KEY]);
	if (tb[IFLA_BOND_AD_INFO_PARTNER_KEY])
		b->ad_partner_key = nla_get_u16(tb[IFLA_BOND_AD_INFO_PARTNER_KEY]);
	if (tb[IFLA_BOND_AD_INFO_PARTNER_MAC])
		bondnl_format_mac(tb[IFLA_BOND_AD_INFO_PARTNER_MAC], b->ad_partner_mac,
				  sizeof(b->ad_partner_mac));
	return 0;
}

/* An ifindex attribute as an int; 0 (none) for values no ifindex can have. */
static int bondnl_ifindex(const struct nlattr *attr)
{
	uint32_t v = attr ? nla_get_u32(attr) : 0;

	return v > INT_MAX ? 0 : (int)v;
}

/* The slot for bond @ifindex: its earlier one (an interrupted dump repeats links) or a new one. */
static struct rdc_bond *bondnl_bond_slot(struct bondnl_dump *d, int ifindex, const char *name)
{
	struct rdc_bond_list *list = d->list;
	size_t i;

	for (i = 0; i < list->count; i++)
		if (list->bonds[i].ifindex == ifindex)
			break;
	if (i == RDC_BOND_MAX) {
		d->rc = rdc_err_set(&d->why, E2BIG, "more than %d bonds: cannot report '%s'",
				    RDC_BOND_MAX, name);
		return NULL;
	}
	if (i == list->count)
		list->count++;
	d->active_ifindex[i] = 0;
	d->primary_ifindex[i] = 0;
	rdc_bondnl_init(&list->bonds[i]);
	return &list->bonds[i];
}

static int bondnl_read_bond(struct bondnl_dump *d, const struct ifinfomsg *ifi,
			    const struct nlattr *const *ltb, const struct nlattr *data)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(bondnl_bond_policy)] = {NULL};
	const char *name = nla_get_string(ltb[IFLA_IFNAME]);
	struct rdc_nla_why why;
	struct rdc_bond *b;
	size_t slot;

	/* A bond's IFLA_INFO_DATA is always there; without it, every option stays unknown. */
	if (data && rdc_nla_parse_nest(data, "IFLA_INFO_DATA", bondnl_bond_policy,
				       RDC_ARRAY_SIZE(tb), tb, &why))
		return bondnl_bad(d, ifi->ifi_index, why.text);
	b = bondnl_bond_slot(d, ifi->ifi_index, name);
	if (!b)
		return -E2BIG;
	slot = (size_t)(b - d->list->bonds);
	rdc_strlcpy(b->name, name, sizeof(b->name));
	b->ifindex = ifi->ifi_index;
	b->admin_up = ifi->ifi_flags & IFF_UP;
	b->carrier = ltb[IFLA_CARRIER] && nla_get_u8(ltb[IFLA_CARRIER]);
	if (ltb[IFLA_MTU])
		b->mtu = nla_get_u32(ltb[IFLA_MTU]);
	/* Values are kept as sent: lib/bond names the ones it knows, a newer kernel may send more. */
	if (tb[IFLA_BOND_MODE])
		b->mode = nla_get_u8(tb[IFLA_BOND_MODE]);
	if (tb[IFLA_BOND_XMIT_HASH_POLICY])
		b->xmit_hash_policy = nla_get_u8(tb[IFLA_BOND_XMIT_HASH_POLICY]);
	if (tb[IFLA_BOND_MIIMON])
		b->miimon_ms = nla_get_u32(tb[IFLA_BOND_MIIMON]);
	if (tb[IFLA_BOND_UPDELAY])
		b->updelay_ms = nla_get_u32(tb[IFLA_BOND_UPDELAY]);
	if (tb[IFLA_BOND_DOWNDELAY])
		b->downdelay_ms = nla_get_u32(tb[IFLA_BOND_DOWNDELAY]);
	if (tb[IFLA_BOND_ARP_INTERVAL])
		b->arp_interval_ms = nla_get_u32(tb[IFLA_BOND_ARP_INTERVAL]);
	if (tb[IFLA_BOND_AD_LACP_RATE])
		b->lacp_rate = nla_get_u8(tb[IFLA_BOND_AD_LACP_RATE]);
	if (tb[IFLA_BOND_AD_SELECT])
		b->ad_select = nla_get_u8(tb[IFLA_BOND_AD_SELECT]);
	if (tb[IFLA_BOND_MIN_LINKS])
		b->min_links = nla_get_u32(tb[IFLA_BOND_MIN_LINKS]);
	d->active_ifindex[slot] = bondnl_ifindex(tb[IFLA_BOND_ACTIVE_SLAVE]);
	d->primary_ifindex[slot] = bondnl_ifindex(tb[IFLA_BOND_PRIMARY]);
	if (tb[IFLA_BOND_AD_INFO])
		return bondnl_read_ad_info(d, ifi->ifi_index, b, tb[IFLA_BOND_AD_INFO]);
	return 0;
}

static int bondnl_read_member(struct bondnl_dump *d, const struct ifinfomsg *ifi,
			      const struct nlattr *const *ltb, const struct nlattr *data)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(bondnl_slave_policy)] = {NULL};
	int master = bondnl_ifindex(ltb[IFLA_MASTER]);
	const struct nlattr *ps;
	struct rdc_bond_member *m;
	struct rdc_nla_why why;
	size_t i;

	if (data && rdc_nla_parse_nest(data, "IFLA_INFO_SLAVE_DATA", bondnl_slave_policy,
				       RDC_ARRAY_SIZE(tb), tb, &why))
		return bondnl_bad(d, ifi->ifi_index, why.text);
	if (!master)
		return 0; /* no bond to attach it to */
	for (i = 0; i < d->nmembers; i++)
		if (d->members[i].m.ifindex == ifi->ifi_index)
			break;
	if (i == d->nmembers) {
		if (bondnl_grow((void **)&d->members, &d->members_cap, d->nmembers,
				sizeof(*d->members))) {
			d->rc = rdc_err_set(&d->why, ENOMEM, "cannot read the bond members");
			return d->rc;
		}
		d->nmembers++;
	}
	d->members[i].master = master;
	m = &d->members[i].m;
	rdc_bondnl_member_init(m);
	rdc_strlcpy(m->name, nla_get_string(ltb[IFLA_IFNAME]), sizeof(m->name));
	m->ifindex = ifi->ifi_index;
	m->carrier = ltb[IFLA_CARRIER] && nla_get_u8(ltb[IFLA_CARRIER]);
	if (ltb[IFLA_MTU])
		m->mtu = nla_get_u32(ltb[IFLA_MTU]);
	if (tb[IFLA_BOND_SLAVE_STATE])
		m->state = nla_get_u8(tb[IFLA_BOND_SLAVE_STATE]);
	if (tb[IFLA_BOND_SLAVE_MII_STATUS])
		m->mii_status = nla_get_u8(tb[IFLA_BOND_SLAVE_MII_STATUS]);
	if (tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT])
		m->link_failure_count = nla_get_u32(tb[IFLA_BOND_SLAVE_LINK_FAILURE_COUNT]);
	if (tb[IFLA_BOND_SLAVE_PERM_HWADDR])
		bondnl_format_mac(tb[IFLA_BOND_SLAVE_PERM_HWADDR], m->perm_hwaddr,
				  sizeof(m->perm_hwaddr));
	if (tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID])
		m->aggregator_id = nla_get_u16(tb[IFLA_BOND_SLAVE_AD_AGGREGATOR_ID]);
	if (tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE])
		m->actor_port_state = nla_get_u8(tb[IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE]);
	ps = tb[IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE];
	if (ps)
		m->partner_port_state = (size_t)nla_len(ps) == 2 ? nla_get_u16(ps) : nla_get_u8(ps);
	return 0;
}

static int bondnl_remember_name(struct bondnl_dump *d, int ifindex, const char *name)
{
	if (bondnl_grow((void **)&d->names, &d->names_cap, d->nnames, sizeof(*d->names))) {
		d->rc = rdc_err_set(&d->why, ENOMEM, "cannot read the link names");
		return d->rc;
	}
	d->names[d->nnames].ifindex = ifindex;
	rdc_strlcpy(d->names[d->nnames].name, name, sizeof(d->names[0].name));
	d->nnames++;
	return 0;
}

/*
 * One RTM_NEWLINK of the dump:
 *
 *   IFLA_LINKINFO{KIND "bond", DATA{...}}              a bond
 *   IFLA_LINKINFO{SLAVE_KIND "bond", SLAVE_DATA{...}}  a member of bond IFLA_MASTER
 *   anything else                                      only its name is kept
 *
 * A bond nested in a bond (allowed, if odd) is both.
 */
static int bondnl_link_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(bondnl_link_policy)] = {NULL};
	const struct nlattr *info[RDC_ARRAY_SIZE(bondnl_info_policy)] = {NULL};
	struct bondnl_dump *d = arg;
	const struct ifinfomsg *ifi;
	struct rdc_nla_why why;
	int rc;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return bondnl_bad(d, 0, "shorter than its ifinfomsg");
	/*
	 * The kernel pads every message to 4 bytes; a walk of attributes up
	 * to the padded length, which past an unpadded last message is beyond
	 * the datagram.
	 */
	if (nlh->nlmsg_len % NLMSG_ALIGNTO)
		return bondnl_bad(d, 0, "length not a multiple of 4");
	ifi = nlmsg_data(nlh);
	if (ifi->ifi_index <= 0)
		return bondnl_bad(d, ifi->ifi_index, "no ifindex");
	if (rdc_nla_parse_msg(nlh, sizeof(*ifi), bondnl_link_policy, RDC_ARRAY_SIZE(tb), tb, &why))
		return bondnl_bad(d, ifi->ifi_index, why.text);
	if (!tb[IFLA_IFNAME])
		return 0; /* the kernel always names a link; nothing to report without one */
	rc = bondnl_remember_name(d, ifi->ifi_index, nla_get_string(tb[IFLA_IFNAME]));
	if (rc || !tb[IFLA_LINKINFO])
		return rc;
	if (rdc_nla_parse_nest(tb[IFLA_LINKINFO], "IFLA_LINKINFO", bondnl_info_policy,
			       RDC_ARRAY_SIZE(info), info, &why))
		return bondnl_bad(d, ifi->ifi_index, why.text);
	if (info[IFLA_INFO_KIND] && !strcmp(nla_get_string(info[IFLA_INFO_KIND]), "bond")) {
		rc = bondnl_read_bond(d, ifi, tb, info[IFLA_INFO_DATA]);
		if (rc)
			return rc;
	}
	if (info[IFLA_INFO_SLAVE_KIND] &&
	    !strcmp(nla_get_string(info[IFLA_INFO_SLAVE_KIND]), "bond"))
		return bondnl_read_member(d, ifi, tb, info[IFLA_INFO_SLAVE_DATA]);
	return 0;
}

/* The name of @ifindex in the dump into @out, or "" (0, or a link the dump did not show). */
static void bondnl_name_of(const struct bondnl_dump *d, int ifindex, char *out, size_t size)
{
	out[0] = '\0';
	if (ifindex <= 0)
		return;
	/* From the end: after an interrupted dump, the latest name of a link is its name. */
	for (size_t i = d->nnames; i-- > 0;) {
		if (d->names[i].ifindex == ifindex) {
			rdc_strlcpy(out, d->names[i].name, size);
			return;
		}
	}
}

/* After the whole dump: ifindexes to names, members to their bonds (in dump order). */
static int bondnl_finish(struct bondnl_dump *d, struct rdc_err *err)
{
	struct rdc_bond_list *list = d->list;

	for (size_t i = 0; i < list->count; i++) {
		bondnl_name_of(d, d->active_ifindex[i], list->bonds[i].active_member,
			       sizeof(list->bonds[i].active_member));
		bondnl_name_of(d, d->primary_ifindex[i], list->bonds[i].primary,
			       sizeof(list->bonds[i].primary));
	}
	for (size_t i = 0; i < d->nmembers; i++) {
		struct rdc_bond *b = NULL;

		for (size_t j = 0; j < list->count && !b; j++)
			if (list->bonds[j].ifindex == d->members[i].master)
				b = &list->bonds[j];
		if (!b)
			continue; /* its master is no bond of this dump */
		if (b->nmembers == RDC_BOND_MAX_MEMBERS)
			return rdc_err_set(err, E2BIG, "bond '%s' has more than %d members",
					   b->name, RDC_BOND_MAX_MEMBERS);
		b->members[b->nmembers++] = d->members[i].m;
	}
	return 0;
}

int rdc_bondnl_dump_links(rdc_nl_msg_cb cb, void *arg, struct rdc_err *err)
{
	/* A zeroed ifinfomsg: every link of every family. */
	const struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};

	return rdc_rtmsg_dump(RTM_GETLINK, &ifi, sizeof(ifi), cb, arg, err);
}

int rdc_bondnl_dump(struct rdc_bond_list *list, struct rdc_err *err)
{
	struct bondnl_dump d = {.list = list};
	int rc;

	memset(list, 0, sizeof(*list));
	rc = rdc_bondnl_dump_links(bondnl_link_cb, &d, err);
	if (d.rc) {
		rc = d.rc;
		if (err)
			*err = d.why;
	} else if (rc) {
		rdc_err_prefix(err, "cannot read the bonds");
	} else {
		rc = bondnl_finish(&d, err);
	}
	free(d.members);
	free(d.names);
	if (rc)
		list->count = 0;
	return rc;
}

/* ---- changes ----------------------------------------------------------- */

/* A change to link @ifindex (0: a new one), acknowledged. */
static struct nl_msg *bondnl_request(uint16_t type, uint16_t flags, int ifindex,
				     struct rdc_err *err)
{
	const struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};

	return rdc_rtmsg_new(type, NLM_F_ACK | flags, &ifi, sizeof(ifi), err);
}

static int bondnl_check_ifindex(int ifindex, struct rdc_err *err)
{
	if (ifindex <= 0)
		return rdc_err_set(err, EINVAL, "bad ifindex %d", ifindex);
	return 0;
}

/* The u8 options: an int out of 0..255 would be cut to another value on the wire. */
static int bondnl_check_u8(bool given, int v, const char *name, struct rdc_err *err)
{
	if (given && (v < 0 || v > UINT8_MAX))
		return rdc_err_set(err, EINVAL, "bond %s %d is out of range (0-255)", name, v);
	return 0;
}

static int bondnl_check_opts(const struct rdc_bond_opts *o, struct rdc_err *err)
{
	int rc;

	if (!o)
		return 0;
	rc = bondnl_check_u8(o->mode_given, o->mode, "mode", err);
	if (!rc)
		rc = bondnl_check_u8(o->hash_given, o->hash, "xmit_hash_policy", err);
	if (!rc)
		rc = bondnl_check_u8(o->lacp_rate_given, o->lacp_rate, "lacp_rate", err);
	if (!rc)
		rc = bondnl_check_u8(o->ad_select_given, o->ad_select, "ad_select", err);
	if (!rc && o->primary_given && o->primary_ifindex < 0)
		rc = rdc_err_set(err, EINVAL, "bad primary ifindex %d", o->primary_ifindex);
	return rc;
}

static bool bondnl_opts_any(const struct rdc_bond_opts *o)
{
	return o && (o->mode_given || o->miimon_given || o->updelay_given || o->downdelay_given ||
		     o->hash_given || o->lacp_rate_given || o->ad_select_given ||
		     o->min_links_given || o->primary_given);
}

/* The given options inside IFLA_INFO_DATA, mode first; libnl's 0 or a negative NLE_ code. */
static int bondnl_put_opts(struct nl_msg *msg, const struct rdc_bond_opts *o)
{
	int rc = 0;

	if (o->mode_given)
		rc = nla_put_u8(msg, IFLA_BOND_MODE, (uint8_t)o->mode);
	if (!rc && o->miimon_given)
		rc = nla_put_u32(msg, IFLA_BOND_MIIMON, o->miimon_ms);
	if (!rc && o->updelay_given)
		rc = nla_put_u32(msg, IFLA_BOND_UPDELAY, o->updelay_ms);
	if (!rc && o->downdelay_given)
		rc = nla_put_u32(msg, IFLA_BOND_DOWNDELAY, o->downdelay_ms);
	if (!rc && o->hash_given)
		rc = nla_put_u8(msg, IFLA_BOND_XMIT_HASH_POLICY, (uint8_t)o->hash);
	if (!rc && o->lacp_rate_given)
		rc = nla_put_u8(msg, IFLA_BOND_AD_LACP_RATE, (uint8_t)o->lacp_rate);
	if (!rc && o->ad_select_given)
		rc = nla_put_u8(msg, IFLA_BOND_AD_SELECT, (uint8_t)o->ad_select);
	if (!rc && o->min_links_given)
		rc = nla_put_u32(msg, IFLA_BOND_MIN_LINKS, o->min_links);
	/* An ifindex; 0 clears the primary (the kernel looks it up and finds none). */
	if (!rc && o->primary_given)
		rc = nla_put_u32(msg, IFLA_BOND_PRIMARY, (uint32_t)o->primary_ifindex);
	return rc;
}

/*
 * IFLA_LINKINFO{IFLA_INFO_KIND "bond", IFLA_INFO_DATA{the given options}},
 * in the header's order, mode first.  The kernel applies them in its own
 * order (bond_changelink: mode before miimon before updelay, ...), so the
 * order here is for people reading a recording.  Without options there is
 * no IFLA_INFO_DATA, as with `ip link add bond0 type bond`.
 */
static int bondnl_put_linkinfo(struct nl_msg *msg, const struct rdc_bond_opts *o)
{
	struct nlattr *linkinfo, *data;
	int rc;

	linkinfo = nla_nest_start(msg, IFLA_LINKINFO);
	if (!linkinfo)
		return -1;
	rc = nla_put_string(msg, IFLA_INFO_KIND, "bond");
	if (!rc && bondnl_opts_any(o)) {
		data = nla_nest_start(msg, IFLA_INFO_DATA);
		rc = data ? bondnl_put_opts(msg, o) : -1;
		if (!rc)
			rc = nla_nest_end(msg, data);
	}
	if (!rc)
		rc = nla_nest_end(msg, linkinfo);
	return rc;
}

/*
 * The request for each of the four changes into *@out: 0, or -errno with
 * @err set (bad input, no memory).  Free it with rdc_rtmsg_free().
 */
static int bondnl_msg_create(const char *name, const struct rdc_bond_opts *o, struct nl_msg **out,
			     struct rdc_err *err)
{
	int rc;

	if (!name || !name[0])
		return rdc_err_set(err, EINVAL, "no bond name");
	if (strlen(name) >= IF_NAMESIZE)
		return rdc_err_set(err, EINVAL,
				   "bond name '%s' is too long (at most %d characters)", name,
				   IF_NAMESIZE - 1);
	rc = bondnl_check_opts(o, err);
	if (rc)
		return rc;
	*out = bondnl_request(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0, err);
	if (!*out)
		return -ENOMEM;
	if (nla_put_string(*out, IFLA_IFNAME, name) < 0 || bondnl_put_linkinfo(*out, o) < 0) {
		rdc_rtmsg_free(*out);
		*out = NULL;
		return rdc_err_set(err, ENOMEM, "cannot build the request to create bond '%s'",
				   name);
	}
	return 0;
}

static int bondnl_msg_set(int ifindex, const struct rdc_bond_opts *o, struct nl_msg **out,
			  struct rdc_err *err)
{
	int rc = bondnl_check_ifindex(ifindex, err);

	if (!rc)
		rc = bondnl_check_opts(o, err);
	if (rc)
		return rc;
	*out = bondnl_request(RTM_NEWLINK, 0, ifindex, err);
	if (!*out)
		return -ENOMEM;
	if (bondnl_put_linkinfo(*out, o) < 0) {
		rdc_rtmsg_free(*out);
		*out = NULL;
		return rdc_err_set(err, ENOMEM, "cannot build the request to change ifindex %d",
				   ifindex);
	}
	return 0;
}

static int bondnl_msg_enslave(int member_ifindex, int master_ifindex, struct nl_msg **out,
			      struct rdc_err *err)
{
	int rc = bondnl_check_ifindex(member_ifindex, err);

	if (rc)
		return rc;
	if (master_ifindex < 0)
		return rdc_err_set(err, EINVAL, "bad master ifindex %d", master_ifindex);
	*out = bondnl_request(RTM_NEWLINK, 0, member_ifindex, err);
	if (!*out)
		return -ENOMEM;
	if (nla_put_u32(*out, IFLA_MASTER, (uint32_t)master_ifindex) < 0) {
		rdc_rtmsg_free(*out);
		*out = NULL;
		return rdc_err_set(err, ENOMEM, "cannot build the request to enslave ifindex %d",
				   member_ifindex);
	}
	return 0;
}

static int bondnl_msg_delete(int ifindex, struct nl_msg **out, struct rdc_err *err)
{
	int rc = bondnl_check_ifindex(ifindex, err);

	if (rc)
		return rc;
	*out = bondnl_request(RTM_DELLINK, 0, ifindex, err);
	return *out ? 0 : -ENOMEM;
}

/* A request built (@rc 0) into the caller's buffer: its length, or -errno. */
static int bondnl_copy(int rc, struct nl_msg *msg, char *buf, size_t size, struct rdc_err *err)
{
	if (rc)
		return rc;
	rc = rdc_rtmsg_copy(msg, buf, size, "bond request", err);
	rdc_rtmsg_free(msg);
	return rc;
}

int rdc_bondnl_build_create(char *buf, size_t size, const char *name, const struct rdc_bond_opts *o,
			    struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_create(name, o, &msg, err);

	return bondnl_copy(rc, msg, buf, size, err);
}

int rdc_bondnl_build_set(char *buf, size_t size, int ifindex, const struct rdc_bond_opts *o,
			 struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_set(ifindex, o, &msg, err);

	return bondnl_copy(rc, msg, buf, size, err);
}

int rdc_bondnl_build_enslave(char *buf, size_t size, int member_ifindex, int master_ifindex,
			     struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_enslave(member_ifindex, master_ifindex, &msg, err);

	return bondnl_copy(rc, msg, buf, size, err);
}

int rdc_bondnl_build_delete(char *buf, size_t size, int ifindex, struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_delete(ifindex, &msg, err);

	return bondnl_copy(rc, msg, buf, size, err);
}

static int bondnl_fail(struct rdc_err *err, int rc, bool creating, const char *fmt, ...)
	RDC_PRINTF(4, 5);

/*
 * Say what failed in the caller's words and keep the kernel's extack (the
 * transport put it in err->detail): EBUSY "unable to set option because the
 * bond is up", EACCES "... mode dependency failed", ENOTEMPTY "... has
 * slaves" say more than we could.  Where the kernel says nothing, a hint:
 *
 *   EOPNOTSUPP on create   no bonding driver ("Unknown device type")
 *   EPERM, no extack       rtnetlink's CAP_NET_ADMIN check (with an extack,
 *                          EPERM is the bond's "can not be enslaved while up")
 *   EROFS                  the transport refused a write (--root, --replay)
 */
static int bondnl_fail(struct rdc_err *err, int rc, bool creating, const char *fmt, ...)
{
	char why[sizeof(err->msg)];
	char msg[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return rc;
	rdc_strlcpy(why, err->msg, sizeof(why));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rdc_err_restate(err, rc, "%s", msg);
	if (rc == -EOPNOTSUPP && creating)
		rdc_err_detail(err, "the kernel has no bonding driver (modprobe bonding)");
	else if (rc == -EPERM && !err->detail[0])
		rdc_err_detail(err, "needs CAP_NET_ADMIN: run as root");
	else if (rc == -EROFS && !err->detail[0])
		rdc_err_detail(err, "%s", why);
	return rc;
}

/* Send a change and free it: 0 or -errno. */
static int bondnl_send(struct nl_msg *msg, struct rdc_err *err)
{
	int rc = rdc_rtmsg_talk(msg, RDC_NL_WRITE, NULL, NULL, err);

	rdc_rtmsg_free(msg);
	return rc;
}

int rdc_bondnl_create(const char *name, const struct rdc_bond_opts *o, struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_create(name, o, &msg, err);

	if (rc)
		return rc;
	rc = bondnl_send(msg, err);
	return rc ? bondnl_fail(err, rc, true, "cannot create bond '%s'", name) : 0;
}

int rdc_bondnl_set(int ifindex, const char *name, const struct rdc_bond_opts *o,
		   struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_set(ifindex, o, &msg, err);

	if (rc)
		return rc;
	rc = bondnl_send(msg, err);
	return rc ? bondnl_fail(err, rc, false, "cannot change bond '%s'", name) : 0;
}

int rdc_bondnl_enslave(int member_ifindex, const char *member, int master_ifindex,
		       struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_enslave(member_ifindex, master_ifindex, &msg, err);

	if (rc)
		return rc;
	rc = bondnl_send(msg, err);
	if (!rc)
		return 0;
	if (master_ifindex)
		return bondnl_fail(err, rc, false, "cannot enslave '%s' to ifindex %d", member,
				   master_ifindex);
	return bondnl_fail(err, rc, false, "cannot release '%s'", member);
}

int rdc_bondnl_delete(int ifindex, const char *name, struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = bondnl_msg_delete(ifindex, &msg, err);

	if (rc)
		return rc;
	rc = bondnl_send(msg, err);
	return rc ? bondnl_fail(err, rc, false, "cannot delete '%s'", name) : 0;
}
