// SPDX-License-Identifier: GPL-2.0-or-later
/* rtnl.c - network interface state over rtnetlink, with libnl-route's link objects */
#include <errno.h>
#include <string.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>

#include "base/util.h"
#include "kernel/rtmsg.h"
#include "kernel/rtnl.h"
#include "seam/nl.h"

static void rtnl_parse_obj_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_link **out = arg;

	if (*out)
		return;
	nl_object_get(obj);
	*out = (struct rtnl_link *)obj;
}

/* libnl parses the reply bytes our transport received into a link object. */
static int rtnl_link_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct nl_msg *msg;
	int rc;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	msg = nlmsg_convert((struct nlmsghdr *)nlh);
	if (!msg)
		return -ENOMEM;
	nlmsg_set_proto(msg, NETLINK_ROUTE);
	rc = nl_msg_parse(msg, rtnl_parse_obj_cb, arg);
	nlmsg_free(msg);
	return rc < 0 ? -EBADMSG : 0;
}

int rdc_link_get(const char *ifname, struct rdc_link *link, struct rdc_err *err)
{
	struct rtnl_link *obj = NULL;
	struct nl_msg *msg = NULL;
	char state[32];
	int rc;

	memset(link, 0, sizeof(*link));
	if (strlen(ifname) >= IF_NAMESIZE)
		return rdc_err_set(err, EINVAL, "interface name '%s' is too long", ifname);
	if (rtnl_link_build_get_request(0, ifname, &msg) < 0)
		return rdc_err_set(err, ENOMEM, "cannot build request for '%s'", ifname);
	rc = rdc_rtmsg_talk(msg, 0, rtnl_link_cb, &obj, err);
	nlmsg_free(msg);
	if (rc == -ENODEV)
		return rdc_err_set(err, ENODEV, "no network interface '%s'", ifname);
	if (rc)
		return rc;
	if (!obj)
		return rdc_err_set(err, EBADMSG, "kernel sent no link for '%s'", ifname);
	link->ifindex = rtnl_link_get_ifindex(obj);
	rdc_strlcpy(link->name, rtnl_link_get_name(obj) ? rtnl_link_get_name(obj) : ifname,
		    sizeof(link->name));
	link->mtu = rtnl_link_get_mtu(obj);
	link->admin_up = rtnl_link_get_flags(obj) & IFF_UP;
	rtnl_link_operstate2str(rtnl_link_get_operstate(obj), state, sizeof(state));
	rdc_strlcpy(link->operstate, state, sizeof(link->operstate));
	rtnl_link_put(obj);
	return 0;
}

int rdc_link_name(int ifindex, char name[IF_NAMESIZE], struct rdc_err *err)
{
	struct rtnl_link *obj = NULL;
	struct nl_msg *msg = NULL;
	const char *got;
	int rc;

	name[0] = '\0';
	if (ifindex <= 0)
		return rdc_err_set(err, EINVAL, "no interface index %d", ifindex);
	if (rtnl_link_build_get_request(ifindex, NULL, &msg) < 0)
		return rdc_err_set(err, ENOMEM, "cannot build request for interface %d", ifindex);
	rc = rdc_rtmsg_talk(msg, 0, rtnl_link_cb, &obj, err);
	nlmsg_free(msg);
	if (rc == -ENODEV)
		return rdc_err_set(err, ENXIO, "no network interface with index %d here", ifindex);
	if (rc)
		return rc;
	got = obj ? rtnl_link_get_name(obj) : NULL;
	if (!got || strlen(got) >= IF_NAMESIZE)
		rc = rdc_err_set(err, EBADMSG, "kernel sent no usable name for interface %d",
				 ifindex);
	else
		rdc_strlcpy(name, got, IF_NAMESIZE);
	if (obj)
		rtnl_link_put(obj);
	return rc;
}

int rdc_link_set(const struct rdc_link *current, const struct rdc_link_change *change,
		 struct rdc_err *err)
{
	struct rtnl_link *orig, *want;
	struct nl_msg *msg = NULL;
	int rc;

	orig = rtnl_link_alloc();
	want = rtnl_link_alloc();
	if (!orig || !want) {
		rc = rdc_err_set(err, ENOMEM, "cannot change '%s'", current->name);
		goto out;
	}
	rtnl_link_set_ifindex(orig, current->ifindex);
	rtnl_link_set_name(orig, current->name);
	if (change->mtu >= 0)
		rtnl_link_set_mtu(want, (unsigned int)change->mtu);
	if (change->admin_up == 1)
		rtnl_link_set_flags(want, IFF_UP);
	else if (change->admin_up == 0)
		rtnl_link_unset_flags(want, IFF_UP);
	if (rtnl_link_build_change_request(orig, want, 0, &msg) < 0) {
		rc = rdc_err_set(err, ENOMEM, "cannot build request for '%s'", current->name);
		goto out;
	}
	rc = rdc_rtmsg_talk(msg, RDC_NL_WRITE, NULL, NULL, err);
	if (rc) {
		/* Keep the kernel's extack text the transport put in detail. */
		rdc_err_restate(err, rc, "cannot change '%s'", current->name);
		if (err && !err->detail[0] && rc == -EPERM)
			rdc_err_detail(err, "needs CAP_NET_ADMIN: run as root");
	}
out:
	nlmsg_free(msg);
	if (orig)
		rtnl_link_put(orig);
	if (want)
		rtnl_link_put(want);
	return rc;
}
