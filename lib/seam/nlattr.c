// SPDX-License-Identifier: GPL-2.0-or-later
/* nlattr.c - the one netlink attribute parser: policy tables, truncation detected */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "seam/nlattr.h"

#define NLA_MAX_ADDR_LEN 32 /* MAX_ADDR_LEN of <linux/netdevice.h> */
#define NLA_ETH_ALEN 6

/* What a kind of attribute should have been, for the message about one that was not. */
static const char *const kind_want[] = {
	[RDC_NLA_SKIP] = "anything",
	[RDC_NLA_U8] = "1 byte",
	[RDC_NLA_U16] = "2 bytes",
	[RDC_NLA_U32] = "4 bytes",
	[RDC_NLA_U64] = "8 bytes",
	[RDC_NLA_U8_U16] = "1 or 2 bytes",
	[RDC_NLA_IFNAME] = "a NUL-terminated name shorter than 16 bytes",
	[RDC_NLA_STRING] = "a NUL-terminated string",
	[RDC_NLA_NEST] = "nested attributes",
	[RDC_NLA_MAC] = "6 bytes",
	[RDC_NLA_HWADDR] = "1 to 32 bytes",
	[RDC_NLA_MIN] = "more bytes",
	[RDC_NLA_EXACT] = "another length",
	[RDC_NLA_ANY] = "anything",
};

/*
 * The attribute layout of <linux/netlink.h>, read here without either
 * netlink library: both lay out the same struct nlattr, and this parser
 * serves the families of both (rtnetlink: libnl-3; dcbnl, ethtool: libmnl).
 */
static const void *payload(const struct nlattr *attr)
{
	return (const char *)attr + NLA_HDRLEN;
}

static uint16_t payload_len(const struct nlattr *attr)
{
	return (uint16_t)(attr->nla_len - NLA_HDRLEN);
}

static uint16_t attr_type(const struct nlattr *attr)
{
	return attr->nla_type & NLA_TYPE_MASK;
}

static bool nul_terminated(const struct nlattr *attr)
{
	uint16_t len = payload_len(attr);

	return len && memchr(payload(attr), '\0', len);
}

bool rdc_nla_ok(const struct nlattr *attr, const struct rdc_nla_policy *p)
{
	uint16_t len = payload_len(attr);

	switch (p->kind) {
	case RDC_NLA_U8:
		return len == 1;
	case RDC_NLA_U16:
		return len == 2;
	case RDC_NLA_U32:
		return len == 4;
	case RDC_NLA_U64:
		return len == 8;
	case RDC_NLA_U8_U16:
		return len == 1 || len == 2;
	case RDC_NLA_IFNAME:
		return nul_terminated(attr) && strlen(payload(attr)) < IF_NAMESIZE;
	case RDC_NLA_STRING:
		return nul_terminated(attr);
	case RDC_NLA_NEST:
		return len == 0 || len >= NLA_HDRLEN;
	case RDC_NLA_MAC:
		return len == NLA_ETH_ALEN;
	case RDC_NLA_HWADDR:
		return len >= 1 && len <= NLA_MAX_ADDR_LEN;
	case RDC_NLA_MIN:
		return len >= p->len;
	case RDC_NLA_EXACT:
		return len == p->len;
	case RDC_NLA_SKIP:
	case RDC_NLA_ANY:
		break;
	}
	return true;
}

/*
 * Walk [start, end): each attribute must fit in what is left (a header,
 * then nla_len bytes); the padding after the last may be short.  Anything
 * else left over is a cut reply or not attributes at all.
 */
static int walk(const char *start, const char *end, const char *what,
		int (*cb)(const struct nlattr *attr, void *data), void *data,
		struct rdc_nla_why *why)
{
	const char *p = start;

	while (end - p >= (ptrdiff_t)NLA_HDRLEN) {
		const struct nlattr *attr = (const void *)p;
		size_t step;
		int rc;

		if (attr->nla_len < NLA_HDRLEN || attr->nla_len > end - p)
			break; /* claims more than is left, or less than its own header */
		rc = cb(attr, data);
		if (rc)
			return rc;
		/* The padding after the last attribute may be missing: stop at the end. */
		step = (size_t)NLA_ALIGN(attr->nla_len);
		p = step >= (size_t)(end - p) ? end : p + step;
	}
	if (p < end) {
		snprintf(why->text, sizeof(why->text),
			 "%s holds %td bytes that are not attributes (truncated or not nested)",
			 what, end - p);
		return -EBADMSG;
	}
	return 0;
}

struct tb_walk {
	const struct rdc_nla_policy *policy;
	size_t n;
	const struct nlattr **tb;
	struct rdc_nla_why *why;
};

static int tb_cb(const struct nlattr *attr, void *data)
{
	struct tb_walk *t = data;
	uint16_t type = attr_type(attr);
	const struct rdc_nla_policy *p;

	if (type >= t->n || t->policy[type].kind == RDC_NLA_SKIP)
		return 0;
	p = &t->policy[type];
	if (!rdc_nla_ok(attr, p)) {
		if (p->kind == RDC_NLA_MIN || p->kind == RDC_NLA_EXACT)
			snprintf(t->why->text, sizeof(t->why->text),
				 "%s has %u bytes, expected %s%u bytes", p->name,
				 (unsigned int)payload_len(attr),
				 p->kind == RDC_NLA_MIN ? "at least " : "", (unsigned int)p->len);
		else
			snprintf(t->why->text, sizeof(t->why->text), "%s has %u bytes, expected %s",
				 p->name, (unsigned int)payload_len(attr), kind_want[p->kind]);
		return -EBADMSG;
	}
	t->tb[type] = attr;
	return 0;
}

static int parse(const char *start, const char *end, const char *what,
		 const struct rdc_nla_policy *policy, size_t n, const struct nlattr **tb,
		 struct rdc_nla_why *why)
{
	struct tb_walk t;

	/* @why is the caller's output, written here first. */
	why->text[0] = '\0';
	t.policy = policy;
	t.n = n;
	t.tb = tb;
	t.why = why;
	for (size_t i = 0; i < n; i++)
		tb[i] = NULL;
	return walk(start, end, what, tb_cb, &t, why);
}

/* Where a message's attributes start and end; NULL when its header does not fit. */
static const char *msg_attrs(const struct nlmsghdr *nlh, size_t hdrlen, const char **end)
{
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);

	*end = (const char *)nlh + nlh->nlmsg_len;
	if (nlh->nlmsg_len < off)
		return NULL;
	return (const char *)nlh + off;
}

int rdc_nla_parse_msg(const struct nlmsghdr *nlh, size_t hdrlen,
		      const struct rdc_nla_policy *policy, size_t n, const struct nlattr **tb,
		      struct rdc_nla_why *why)
{
	const char *end, *start = msg_attrs(nlh, hdrlen, &end);

	if (!start) {
		snprintf(why->text, sizeof(why->text), "the message is shorter than its header");
		return -EBADMSG;
	}
	return parse(start, end, "the message", policy, n, tb, why);
}

int rdc_nla_parse_nest(const struct nlattr *nest, const char *name,
		       const struct rdc_nla_policy *policy, size_t n, const struct nlattr **tb,
		       struct rdc_nla_why *why)
{
	const char *start = payload(nest);

	return parse(start, start + payload_len(nest), name, policy, n, tb, why);
}

int rdc_nla_walk_nest(const struct nlattr *nest, const char *name,
		      int (*cb)(const struct nlattr *attr, void *data), void *data,
		      struct rdc_nla_why *why)
{
	const char *start = payload(nest);

	why->text[0] = '\0';
	return walk(start, start + payload_len(nest), name, cb, data, why);
}

int rdc_nla_walk_msg(const struct nlmsghdr *nlh, size_t hdrlen,
		     int (*cb)(const struct nlattr *attr, void *data), void *data,
		     struct rdc_nla_why *why)
{
	const char *end, *start = msg_attrs(nlh, hdrlen, &end);

	why->text[0] = '\0';
	if (!start) {
		snprintf(why->text, sizeof(why->text), "the message is shorter than its header");
		return -EBADMSG;
	}
	return walk(start, end, "the message", cb, data, why);
}
