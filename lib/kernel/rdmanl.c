// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmanl.c - RDMA netlink (nldev) requests, built with libmnl and carried by the transport */
#include <errno.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nlattr.h"
#include "kernel/rdmanl.h"
#include "seam/nl.h"

/* nldev messages carry attributes right after the netlink header: no family header. */
#define NLDEV_HDRLEN 0

static const struct rdc_nla_policy sys_policy[] = {
	RDC_NLA(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, RDC_NLA_U8),
};
#define SYS_POLICY_N (sizeof(sys_policy) / sizeof(sys_policy[0]))

struct sys_reply {
	int shared; /* -1 not said, else 0 or 1 */
	struct rdc_nla_why why;
	int bad;
};

static int sys_get_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct sys_reply *r = arg;
	const struct nlattr *tb[SYS_POLICY_N];
	int rc;

	if (nlh->nlmsg_type != RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET))
		return 0;
	rc = rdc_nla_parse_msg(nlh, NLDEV_HDRLEN, sys_policy, SYS_POLICY_N, tb, &r->why);
	if (rc) {
		r->bad = 1;
		return rc;
	}
	if (tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE])
		/* The kernel's value is a bool: 1 shared, 0 exclusive. */
		r->shared = mnl_attr_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) != 0;
	return 0;
}

int rdc_rdmanl_netns_shared(bool *shared, struct rdc_err *err)
{
	char buf[64]; /* a header: the request has no attributes */
	struct sys_reply r = {.shared = -1};
	struct nlmsghdr *nlh;
	int rc;

	*shared = false;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	rc = rdc_nl_talk(NETLINK_RDMA, nlh, 0, sys_get_cb, &r, err);
	if (r.bad)
		return rdc_err_set(err, EBADMSG, "the kernel's RDMA system reply is malformed: %s",
				   r.why.text);
	/* No ib_core loaded, or a kernel older than the request (4.x): the protocol is unknown. */
	if (rc == -EPROTONOSUPPORT || rc == -EINVAL)
		rc = -EOPNOTSUPP;
	if (rc) {
		rdc_err_restate(err, rc, "cannot read the RDMA subsystem's network namespace mode");
		return rc;
	}
	if (r.shared < 0)
		return rdc_err_set(err, EOPNOTSUPP,
				   "the kernel does not report the RDMA network namespace mode");
	*shared = r.shared;
	return 0;
}
