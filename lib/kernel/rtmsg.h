/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtmsg.h - rtnetlink requests built with libnl-3, carried by the one transport (seam/nl.h) */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#include "base/err.h"
#include "seam/nl.h"

/*
 * Every rtnetlink message of ours (links, bonds, addresses) is built and read
 * with libnl-3; dcbnl and ethtool are libmnl's.  One library per family, and
 * the attributes of both read through kernel/nlattr.h.
 */
struct nl_msg;

/*
 * A request: an nlmsghdr of @type with NLM_F_REQUEST | @flags, then a copy of
 * the @hdrlen-byte family header @hdr (ifinfomsg, ifaddrmsg), padded to 4.
 * NULL with @err set when there is no memory.  Free with rdc_rtmsg_free().
 */
struct nl_msg *rdc_rtmsg_new(uint16_t type, uint16_t flags, const void *hdr, size_t hdrlen,
			     struct rdc_err *err);
void rdc_rtmsg_free(struct nl_msg *msg);

/*
 * @msg's bytes copied into @buf (@size bytes, 4-aligned): the message's
 * length, or -EMSGSIZE naming @what when it does not fit.
 */
int rdc_rtmsg_copy(struct nl_msg *msg, char *buf, size_t size, const char *what,
		   struct rdc_err *err);

/* Send @msg on NETLINK_ROUTE (rdc_nl_talk(): @flags RDC_NL_WRITE for a change). */
int rdc_rtmsg_talk(struct nl_msg *msg, unsigned int flags, rdc_nl_msg_cb cb, void *arg,
		   struct rdc_err *err);

/*
 * A dump: RTM_GET* @type with NLM_F_DUMP and the family header @hdr, every
 * reply message to @cb.  The bytes are exactly nlmsghdr + header, as
 * recordings match them.
 */
int rdc_rtmsg_dump(uint16_t type, const void *hdr, size_t hdrlen, rdc_nl_msg_cb cb, void *arg,
		   struct rdc_err *err);
