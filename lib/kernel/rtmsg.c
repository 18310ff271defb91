// SPDX-License-Identifier: GPL-2.0-or-later
/* rtmsg.c - rtnetlink requests built with libnl-3, carried by the one transport */
#include <errno.h>
#include <string.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "kernel/rtmsg.h"

struct nl_msg *rdc_rtmsg_new(uint16_t type, uint16_t flags, const void *hdr, size_t hdrlen,
			     struct rdc_err *err)
{
	struct nl_msg *msg = nlmsg_alloc_simple(type, NLM_F_REQUEST | flags);

	/* libnl pads the family header to NLMSG_ALIGNTO with zeros, as the kernel expects. */
	if (msg && nlmsg_append(msg, (void *)hdr, hdrlen, NLMSG_ALIGNTO) == 0)
		return msg;
	nlmsg_free(msg);
	rdc_err_set(err, ENOMEM, "cannot build an rtnetlink request");
	return NULL;
}

void rdc_rtmsg_free(struct nl_msg *msg)
{
	nlmsg_free(msg);
}

int rdc_rtmsg_copy(struct nl_msg *msg, char *buf, size_t size, const char *what,
		   struct rdc_err *err)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_len > size)
		return rdc_err_set(err, EMSGSIZE, "%s does not fit in %zu bytes", what, size);
	memcpy(buf, nlh, nlh->nlmsg_len);
	return (int)nlh->nlmsg_len;
}

int rdc_rtmsg_talk(struct nl_msg *msg, unsigned int flags, rdc_nl_msg_cb cb, void *arg,
		   struct rdc_err *err)
{
	return rdc_nl_talk(NETLINK_ROUTE, nlmsg_hdr(msg), flags, cb, arg, err);
}

int rdc_rtmsg_dump(uint16_t type, const void *hdr, size_t hdrlen, rdc_nl_msg_cb cb, void *arg,
		   struct rdc_err *err)
{
	struct nl_msg *msg = rdc_rtmsg_new(type, NLM_F_DUMP, hdr, hdrlen, err);
	int rc;

	if (!msg)
		return -ENOMEM;
	rc = rdc_rtmsg_talk(msg, 0, cb, arg, err);
	nlmsg_free(msg);
	return rc;
}
