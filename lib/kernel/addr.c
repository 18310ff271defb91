// SPDX-License-Identifier: GPL-2.0-or-later
/* addr.c - IPv4 addresses from one RTM_GETADDR dump, carried by the transport */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "kernel/addr.h"
#include "seam/nl.h"

static int addr_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, IFA_MAX) < 0)
		return MNL_CB_OK;
	switch (type) {
	case IFA_LOCAL:
	case IFA_ADDRESS:
		if (mnl_attr_validate2(attr, MNL_TYPE_BINARY, 4) < 0)
			return MNL_CB_ERROR;
		break;
	case IFA_LABEL:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_ERROR;
		break;
	default:
		break;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

static int addr_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct rdc_addr4_list *list = arg;
	const struct nlattr *tb[IFA_MAX + 1] = {0};
	const struct ifaddrmsg *ifa;
	const struct nlattr *a;
	struct rdc_addr4 *items, *it;
	uint32_t be;

	if (nlh->nlmsg_type != RTM_NEWADDR || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return 0;
	ifa = mnl_nlmsg_get_payload(nlh);
	if (ifa->ifa_family != AF_INET || ifa->ifa_prefixlen > 32)
		return 0;
	if (mnl_attr_parse(nlh, sizeof(*ifa), addr_attr_cb, tb) < 0)
		return -EPROTO;
	/* IFA_LOCAL is the interface's own address; IFA_ADDRESS is the peer on point-to-point links. */
	a = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	if (!a || !tb[IFA_LABEL])
		return 0;
	items = realloc(list->items, (list->count + 1) * sizeof(*items));
	if (!items)
		return -ENOMEM;
	list->items = items;
	it = &items[list->count++];
	memset(it, 0, sizeof(*it));
	memcpy(&be, mnl_attr_get_payload(a), 4);
	it->addr = ntohl(be);
	it->prefix_len = ifa->ifa_prefixlen;
	rdc_strlcpy(it->ifname, mnl_attr_get_str(tb[IFA_LABEL]), sizeof(it->ifname));
	return 0;
}

int rdc_addr4_list(struct rdc_addr4_list *list, struct rdc_err *err)
{
	char buf[256]; /* one ifaddrmsg request */
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	int rc;

	memset(list, 0, sizeof(*list));
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	rc = rdc_nl_talk(NETLINK_ROUTE, nlh, 0, addr_msg_cb, list, err);
	if (rc) {
		rdc_addr4_list_free(list);
		if (err && !err->msg[0])
			rdc_err_set(err, -rc, "cannot list the IPv4 addresses");
		return rc;
	}
	return 0;
}

void rdc_addr4_list_free(struct rdc_addr4_list *list)
{
	free(list->items);
	list->items = NULL;
	list->count = 0;
}

const struct rdc_addr4 *rdc_addr4_find(const struct rdc_addr4_list *list, uint32_t addr)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].addr == addr)
			return &list->items[i];
	return NULL;
}
