// SPDX-License-Identifier: GPL-2.0-or-later
/* rtnl.c - network interface state over rtnetlink: one link's RTM_GETLINK and RTM_NEWLINK */
#include <errno.h>
#include <net/if.h> /* before linux/if.h, whose libc-compat then defers to it */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "base/util.h"
#include "kernel/nlattr.h"
#include "kernel/rtmsg.h"
#include "kernel/rtnl.h"
#include "seam/nl.h"

/*
 * Built with libnl-3's messages and read with kernel/nlattr.h, not with
 * libnl-route's link objects: libnl-route's constructors (a cache or link
 * type each) ran at every start of rdmactl for the four fields read here.
 */
static const struct rdc_nla_policy rtnl_link_policy[] = {
	RDC_NLA(IFLA_IFNAME, RDC_NLA_IFNAME),
	RDC_NLA(IFLA_MTU, RDC_NLA_U32),	    /* bytes */
	RDC_NLA(IFLA_MIN_MTU, RDC_NLA_U32), /* bytes; since Linux 4.19 */
	RDC_NLA(IFLA_MAX_MTU, RDC_NLA_U32),
	RDC_NLA(IFLA_OPERSTATE, RDC_NLA_U8), /* RFC 2863, IF_OPER_* */
};

/* RFC 2863's states as sysfs' operstate spells them (net/core/net-sysfs.c). */
static const char *const operstate_names[] = {
	[IF_OPER_UNKNOWN] = "unknown", [IF_OPER_NOTPRESENT] = "notpresent",
	[IF_OPER_DOWN] = "down",       [IF_OPER_LOWERLAYERDOWN] = "lowerlayerdown",
	[IF_OPER_TESTING] = "testing", [IF_OPER_DORMANT] = "dormant",
	[IF_OPER_UP] = "up",
};

/* What one RTM_GETLINK answered: the link, or why it cannot be read. */
struct rtnl_reply {
	struct rdc_link *link;
	int found;
	char why[160];
};

static int rtnl_link_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct rtnl_reply *r = arg;
	const struct nlattr *tb[RDC_ARRAY_SIZE(rtnl_link_policy)] = {0};
	const struct ifinfomsg *ifi;
	struct rdc_nla_why why = {{0}};
	struct rdc_link *link = r->link;
	uint8_t oper;

	if (nlh->nlmsg_type != RTM_NEWLINK || r->found)
		return 0;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi))) {
		snprintf(r->why, sizeof(r->why), "a link of %u bytes, shorter than its ifinfomsg",
			 nlh->nlmsg_len);
		return -EBADMSG;
	}
	if (rdc_nla_parse_msg(nlh, sizeof(*ifi), rtnl_link_policy, RDC_ARRAY_SIZE(tb), tb, &why)) {
		snprintf(r->why, sizeof(r->why), "%s", why.text);
		return -EBADMSG;
	}
	ifi = nlmsg_data(nlh);
	r->found = 1;
	link->ifindex = ifi->ifi_index;
	link->admin_up = ifi->ifi_flags & IFF_UP;
	if (tb[IFLA_IFNAME])
		rdc_strlcpy(link->name, nla_get_string(tb[IFLA_IFNAME]), sizeof(link->name));
	link->mtu = tb[IFLA_MTU] ? nla_get_u32(tb[IFLA_MTU]) : 0;
	link->min_mtu = tb[IFLA_MIN_MTU] ? nla_get_u32(tb[IFLA_MIN_MTU]) : 0;
	link->max_mtu = tb[IFLA_MAX_MTU] ? nla_get_u32(tb[IFLA_MAX_MTU]) : 0;
	oper = tb[IFLA_OPERSTATE] ? nla_get_u8(tb[IFLA_OPERSTATE]) : IF_OPER_UNKNOWN;
	if (oper < RDC_ARRAY_SIZE(operstate_names) && operstate_names[oper])
		rdc_strlcpy(link->operstate, operstate_names[oper], sizeof(link->operstate));
	else
		snprintf(link->operstate, sizeof(link->operstate), "%u", oper);
	return 0;
}

/* RTM_GETLINK for @ifindex or, with 0, for @ifname; @link filled from the answer. */
static int rtnl_get(int ifindex, const char *ifname, struct rdc_link *link, struct rdc_err *err)
{
	const struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct rtnl_reply r = {.link = link};
	struct nl_msg *msg;
	int rc;

	msg = rdc_rtmsg_new(RTM_GETLINK, 0, &ifi, sizeof(ifi), err);
	if (!msg)
		return -ENOMEM;
	if (ifname && nla_put_string(msg, IFLA_IFNAME, ifname) < 0) {
		rdc_rtmsg_free(msg);
		return rdc_err_set(err, ENOMEM, "cannot build request for '%s'", ifname);
	}
	rc = rdc_rtmsg_talk(msg, 0, rtnl_link_cb, &r, err);
	rdc_rtmsg_free(msg);
	if (rc == -EBADMSG && r.why[0])
		return rdc_err_set(err, EBADMSG, "kernel sent a bad link: %s", r.why);
	if (!rc && !r.found)
		return -ENOENT; /* the caller says which link */
	return rc;
}

int rdc_link_get(const char *ifname, struct rdc_link *link, struct rdc_err *err)
{
	int rc;

	memset(link, 0, sizeof(*link));
	if (strlen(ifname) >= IF_NAMESIZE)
		return rdc_err_set(err, EINVAL, "interface name '%s' is too long", ifname);
	rc = rtnl_get(0, ifname, link, err);
	if (rc == -ENODEV)
		return rdc_err_set(err, ENODEV, "no network interface '%s'", ifname);
	if (rc == -ENOENT)
		return rdc_err_set(err, EBADMSG, "kernel sent no link for '%s'", ifname);
	if (rc)
		return rc;
	if (!link->name[0])
		rdc_strlcpy(link->name, ifname, sizeof(link->name));
	return 0;
}

int rdc_link_name(int ifindex, char name[IF_NAMESIZE], struct rdc_err *err)
{
	struct rdc_link link;
	int rc;

	name[0] = '\0';
	if (ifindex <= 0)
		return rdc_err_set(err, EINVAL, "no interface index %d", ifindex);
	memset(&link, 0, sizeof(link));
	rc = rtnl_get(ifindex, NULL, &link, err);
	if (rc == -ENODEV)
		return rdc_err_set(err, ENXIO, "no network interface with index %d here", ifindex);
	if (rc && rc != -ENOENT)
		return rc;
	if (!link.name[0])
		return rdc_err_set(err, EBADMSG, "kernel sent no usable name for interface %d",
				   ifindex);
	rdc_strlcpy(name, link.name, IF_NAMESIZE);
	return 0;
}

/*
 * RTM_NEWLINK on the existing link's index, as `ip link set` sends it: the
 * flags to change in ifi_change (only IFF_UP here) and the new MTU, nothing
 * else.
 */
int rdc_link_set(const struct rdc_link *current, const struct rdc_link_change *change,
		 struct rdc_err *err)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = current->ifindex};
	struct nl_msg *msg;
	int rc;

	if (change->admin_up >= 0) {
		ifi.ifi_change = IFF_UP;
		ifi.ifi_flags = change->admin_up ? IFF_UP : 0;
	}
	msg = rdc_rtmsg_new(RTM_NEWLINK, 0, &ifi, sizeof(ifi), err);
	if (!msg)
		return rdc_err_set(err, ENOMEM, "cannot build request for '%s'", current->name);
	if (change->mtu >= 0 && nla_put_u32(msg, IFLA_MTU, (uint32_t)change->mtu) < 0) {
		rdc_rtmsg_free(msg);
		return rdc_err_set(err, ENOMEM, "cannot build request for '%s'", current->name);
	}
	rc = rdc_rtmsg_talk(msg, RDC_NL_WRITE, NULL, NULL, err);
	rdc_rtmsg_free(msg);
	if (rc) {
		/* Keep the kernel's extack text the transport put in detail. */
		rdc_err_restate(err, rc, "cannot change '%s'", current->name);
		if (err && !err->detail[0] && rc == -EPERM)
			rdc_err_detail(err, "needs CAP_NET_ADMIN: run as root");
	}
	return rc;
}
