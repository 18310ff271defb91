// SPDX-License-Identifier: GPL-2.0-or-later
/* dcbnl.c - IEEE DCB over dcbnl, built with libmnl and carried by the transport */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "kernel/dcbnl.h"
#include "kernel/nlattr.h"
#include "seam/nl.h"
#include "uapi/dcbnl_ext.h"

/* The request layout `dcb` (iproute2) uses, so both send the same bytes for a change. */
static struct nlmsghdr *dcb_request(char *buf, size_t size, uint16_t type, uint8_t cmd,
				    const char *ifname)
{
	struct nlmsghdr *nlh;
	struct dcbmsg *dcbm;

	memset(buf, 0, size);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	dcbm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcbm));
	dcbm->dcb_family = AF_UNSPEC;
	dcbm->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	return nlh;
}

/* The kernel's answer for a netdev without dcbnl_ops, in words an operator can act on. */
static int dcb_fail(struct rdc_err *err, int rc, const char *ifname, const char *what)
{
	rdc_err_restate(err, rc, "cannot %s DCB of '%s'", what, ifname);
	rdc_err_mark(err, rc == -EOPNOTSUPP ? RDC_ERRK_NO_DCB : RDC_ERRK_AUTO, ifname);
	if (rc == -EOPNOTSUPP)
		rdc_err_detail(err, "its driver implements no dcbnl operations; virtual devices "
				    "such as veth and virtio, and most VFs, have no DCB support");
	else if (rc == -EPERM)
		rdc_err_detail(err, "needs CAP_NET_ADMIN: run as root");
	return rc;
}

/* Copy an attribute's payload into a struct: newer kernels may send more than we know. */
static bool dcb_copy(const struct nlattr *attr, void *dst, size_t size)
{
	if (mnl_attr_get_payload_len(attr) < size)
		return false;
	memcpy(dst, mnl_attr_get_payload(attr), size);
	return true;
}

/* A reply being read: the model it fills, and what was wrong with it. */
struct dcb_reply {
	struct rdc_dcb *dcb;
	struct rdc_nla_why why;
};

static int dcb_parse_app(const struct nlattr *a, void *data)
{
	struct rdc_dcb *dcb = ((struct dcb_reply *)data)->dcb;
	uint16_t type = mnl_attr_get_type(a);

	/* DCB_ATTR_DCB_APP carries the non-IEEE PCP selector; same struct. */
	if ((type != DCB_ATTR_IEEE_APP && type != RDC_DCB_ATTR_DCB_APP) ||
	    dcb->napps >= RDC_DCB_MAX_APPS)
		return 0;
	if (!dcb_copy(a, &dcb->apps[dcb->napps], sizeof(dcb->apps[0])))
		return 0;
	/* The kernel refuses such entries on SET; a reply holding one is corrupt. */
	if (dcb->apps[dcb->napps].priority > 7 ||
	    (dcb->apps[dcb->napps].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
	     dcb->apps[dcb->napps].protocol > 63))
		dcb->napps_invalid++;
	else
		dcb->napps++;
	return 0;
}

/* Priorities map to TCs 0-7 with shares of at most 100% (dcbnl_ieee_set checks the same). */
static bool dcb_ets_valid(const struct ieee_ets *ets)
{
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (ets->prio_tc[i] >= IEEE_8021QAZ_MAX_TCS || ets->tc_tx_bw[i] > 100)
			return false;
	return true;
}

/* Priorities map to buffers 0-7. */
static bool dcb_buffer_valid(const struct dcbnl_buffer *b)
{
	for (int i = 0; i < IEEE_8021Q_MAX_PRIORITIES; i++)
		if (b->prio2buffer[i] >= DCBX_MAX_BUFFERS)
			return false;
	return true;
}

/* One section of DCB_ATTR_IEEE; a section too short for its struct stays unknown. */
static int dcb_parse_ieee(const struct nlattr *a, void *data)
{
	struct dcb_reply *r = data;
	struct rdc_dcb *dcb = r->dcb;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_PFC:
		dcb->have_pfc = dcb_copy(a, &dcb->pfc, sizeof(dcb->pfc));
		break;
	case DCB_ATTR_IEEE_ETS:
		dcb->have_ets = dcb_copy(a, &dcb->ets, sizeof(dcb->ets));
		dcb->ets_invalid = dcb->have_ets && !dcb_ets_valid(&dcb->ets);
		dcb->have_ets &= !dcb->ets_invalid;
		break;
	case DCB_ATTR_IEEE_MAXRATE:
		dcb->have_maxrate = dcb_copy(a, &dcb->maxrate, sizeof(dcb->maxrate));
		break;
	case DCB_ATTR_DCB_BUFFER:
		dcb->have_buffer = dcb_copy(a, &dcb->buffer, sizeof(dcb->buffer));
		dcb->buffer_invalid = dcb->have_buffer && !dcb_buffer_valid(&dcb->buffer);
		dcb->have_buffer &= !dcb->buffer_invalid;
		break;
	case DCB_ATTR_IEEE_APP_TABLE:
		return rdc_nla_walk_nest(a, "DCB_ATTR_IEEE_APP_TABLE", dcb_parse_app, r, &r->why);
	}
	return 0;
}

/* The attributes of an IEEE_GET answer: nests walked whole, a cut one is -EBADMSG. */
static const struct rdc_nla_policy dcb_reply_policy[] = {
	RDC_NLA(DCB_ATTR_IEEE, RDC_NLA_NEST),
	RDC_NLA(DCB_ATTR_DCBX, RDC_NLA_ANY),
};

static int dcb_get_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(dcb_reply_policy)];
	struct dcb_reply *r = arg;
	int rc = rdc_nla_parse_msg(nlh, sizeof(struct dcbmsg), dcb_reply_policy, RDC_ARRAY_SIZE(tb),
				   tb, &r->why);

	if (rc)
		return rc;
	if (tb[DCB_ATTR_DCBX] && mnl_attr_get_payload_len(tb[DCB_ATTR_DCBX]) >= 1) {
		r->dcb->dcbx = mnl_attr_get_u8(tb[DCB_ATTR_DCBX]);
		r->dcb->have_dcbx = true;
	}
	if (tb[DCB_ATTR_IEEE])
		return rdc_nla_walk_nest(tb[DCB_ATTR_IEEE], "DCB_ATTR_IEEE", dcb_parse_ieee, r,
					 &r->why);
	return 0;
}

int rdc_dcbnl_get(const char *ifname, struct rdc_dcb *dcb, struct rdc_err *err)
{
	struct dcb_reply r = {.dcb = dcb};
	char buf[256];
	struct nlmsghdr *nlh;
	int rc;

	memset(dcb, 0, sizeof(*dcb));
	if (strlen(ifname) >= 16)
		return rdc_err_set(err, EINVAL, "interface name '%s' is too long", ifname);
	nlh = dcb_request(buf, sizeof(buf), RTM_GETDCB, DCB_CMD_IEEE_GET, ifname);
	rc = rdc_nl_talk(NETLINK_ROUTE, nlh, 0, dcb_get_cb, &r, err);
	if (rc == -EBADMSG && r.why.text[0]) {
		memset(dcb, 0, sizeof(*dcb));
		return rdc_err_set(err, EBADMSG, "the DCB answer for '%s' is malformed: %s", ifname,
				   r.why.text);
	}
	if (rc)
		return dcb_fail(err, rc, ifname, "read");
	dcb->supported = true;
	return 0;
}

/*
 * The answer to a SET or DEL: the attribute named like the command's nest
 * "is formally u8, but actually an i8 containing a negative errno" (the
 * kernel fills it with the driver's return value).
 */
static int dcb_status_cb(const struct nlmsghdr *nlh, void *arg)
{
	static const struct rdc_nla_policy policy[] = {RDC_NLA(DCB_ATTR_IEEE, RDC_NLA_ANY)};
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct rdc_nla_why why;
	int *status = arg;
	int rc =
		rdc_nla_parse_msg(nlh, sizeof(struct dcbmsg), policy, RDC_ARRAY_SIZE(tb), tb, &why);

	if (rc)
		return rc;
	if (tb[DCB_ATTR_IEEE] && mnl_attr_get_payload_len(tb[DCB_ATTR_IEEE]) >= 1) {
		uint8_t raw = mnl_attr_get_u8(tb[DCB_ATTR_IEEE]);

		/* Two's complement by hand: -5 arrives as 0xfb. */
		*status = raw > INT8_MAX ? (int)raw - 256 : (int)raw;
	}
	return 0;
}

static int dcb_set(const char *ifname, uint8_t cmd, uint16_t attr, const void *data, size_t len,
		   struct rdc_err *err)
{
	char buf[1024];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int status = 0, rc;

	if (strlen(ifname) >= 16)
		return rdc_err_set(err, EINVAL, "interface name '%s' is too long", ifname);
	nlh = dcb_request(buf, sizeof(buf), RTM_SETDCB, cmd, ifname);
	nest = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, attr, len, data);
	mnl_attr_nest_end(nlh, nest);
	rc = rdc_nl_talk(NETLINK_ROUTE, nlh, RDC_NL_WRITE, dcb_status_cb, &status, err);
	if (!rc && status < 0) {
		rdc_err_clear(err);
		rc = status;
	}
	return rc ? dcb_fail(err, rc, ifname, "set") : 0;
}

int rdc_dcbnl_set_pfc(const char *ifname, const struct ieee_pfc *pfc, struct rdc_err *err)
{
	return dcb_set(ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC, pfc, sizeof(*pfc), err);
}

int rdc_dcbnl_set_ets(const char *ifname, const struct ieee_ets *ets, struct rdc_err *err)
{
	return dcb_set(ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_ETS, ets, sizeof(*ets), err);
}

int rdc_dcbnl_set_maxrate(const char *ifname, const struct ieee_maxrate *rate, struct rdc_err *err)
{
	return dcb_set(ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_MAXRATE, rate, sizeof(*rate), err);
}

int rdc_dcbnl_set_buffer(const char *ifname, const struct dcbnl_buffer *b, struct rdc_err *err)
{
	return dcb_set(ifname, DCB_CMD_IEEE_SET, DCB_ATTR_DCB_BUFFER, b, sizeof(*b), err);
}

int rdc_dcbnl_apps(const char *ifname, bool add, const struct dcb_app *apps, size_t n,
		   struct rdc_err *err)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *ieee, *table;
	int status = 0, rc;

	if (strlen(ifname) >= 16)
		return rdc_err_set(err, EINVAL, "interface name '%s' is too long", ifname);
	if (n > RDC_DCB_MAX_APPS)
		return rdc_err_set(err, E2BIG, "too many APP entries (%zu)", n);
	nlh = dcb_request(buf, sizeof(buf), RTM_SETDCB, add ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL,
			  ifname);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	table = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < n; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]);
	mnl_attr_nest_end(nlh, table);
	mnl_attr_nest_end(nlh, ieee);
	rc = rdc_nl_talk(NETLINK_ROUTE, nlh, RDC_NL_WRITE, dcb_status_cb, &status, err);
	if (!rc && status < 0) {
		rdc_err_clear(err);
		rc = status;
	}
	return rc ? dcb_fail(err, rc, ifname,
			     add ? "add APP entries to" : "delete APP entries from")
		  : 0;
}
