// SPDX-License-Identifier: GPL-2.0-or-later
/* addr.c - IPv4 and IPv6 addresses from one RTM_GETADDR dump, and adding IPv6 ones */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "base/util.h"
#include "kernel/addr.h"
#include "kernel/nlattr.h"
#include "kernel/rtmsg.h"
#include "seam/nl.h"

/* IPv4: IFA_LOCAL, IFA_ADDRESS and IFA_LABEL are read (kernel/nlattr.h). */
static const struct rdc_nla_policy addr4_policy[] = {
	RDC_NLA_BYTES(IFA_ADDRESS, 4),
	RDC_NLA_BYTES(IFA_LOCAL, 4),
	RDC_NLA(IFA_LABEL, RDC_NLA_STRING),
};

static int addr_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct rdc_addr4_list *list = arg;
	const struct nlattr *tb[RDC_ARRAY_SIZE(addr4_policy)];
	const struct ifaddrmsg *ifa;
	const struct nlattr *a;
	struct rdc_addr4 *items, *it;
	struct rdc_nla_why why;
	uint32_t be;

	if (nlh->nlmsg_type != RTM_NEWADDR || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return 0;
	ifa = nlmsg_data(nlh);
	if (ifa->ifa_family != AF_INET || ifa->ifa_prefixlen > 32)
		return 0;
	if (rdc_nla_parse_msg(nlh, sizeof(*ifa), addr4_policy, RDC_ARRAY_SIZE(tb), tb, &why))
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
	memcpy(&be, nla_data(a), 4);
	it->addr = ntohl(be);
	it->prefix_len = ifa->ifa_prefixlen;
	rdc_strlcpy(it->ifname, nla_get_string(tb[IFA_LABEL]), sizeof(it->ifname));
	return 0;
}

int rdc_addr4_list(struct rdc_addr4_list *list, struct rdc_err *err)
{
	const struct ifaddrmsg ifa = {.ifa_family = AF_INET};
	int rc;

	memset(list, 0, sizeof(*list));
	rc = rdc_rtmsg_dump(RTM_GETADDR, &ifa, sizeof(ifa), addr_msg_cb, list, err);
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

/* ---- IPv6 ---------------------------------------------------------------- */

/* The attributes read, with the one length each must have. */
static const struct rdc_nla_policy addr6_policy[] = {
	RDC_NLA_BYTES(IFA_ADDRESS, 16),
	RDC_NLA_BYTES(IFA_LOCAL, 16),
	RDC_NLA(IFA_FLAGS, RDC_NLA_U32),
};

struct addr6_dump {
	struct rdc_addr6_list *list;
	struct rdc_err why; /* what was malformed, when rc is set */
	int rc;
};

static int addr6_bad(struct addr6_dump *d, const struct ifaddrmsg *ifa, const char *fmt, ...)
	RDC_PRINTF(3, 4);
static int addr6_bad(struct addr6_dump *d, const struct ifaddrmsg *ifa, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (ifa)
		d->rc = rdc_err_set(&d->why, EBADMSG, "malformed RTM_NEWADDR (ifindex %u): %s",
				    ifa->ifa_index, why);
	else
		d->rc = rdc_err_set(&d->why, EBADMSG, "malformed RTM_NEWADDR: %s", why);
	return d->rc;
}

/*
 * The kernel puts IFA_ADDRESS for the address itself; IFA_LOCAL appears only
 * with a peer (point-to-point), and is then the local address.  Bytes that
 * are no attribute are an error (kernel/nlattr.h), not the end of the list.
 */
static int addr6_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct addr6_dump *d = arg;
	const struct nlattr *tb[RDC_ARRAY_SIZE(addr6_policy)];
	const struct ifaddrmsg *ifa;
	const struct nlattr *a;
	struct rdc_addr6 *items, *it;
	struct rdc_nla_why why;

	if (nlh->nlmsg_type != RTM_NEWADDR)
		return 0;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return addr6_bad(d, NULL, "%u bytes, shorter than its ifaddrmsg", nlh->nlmsg_len);
	ifa = nlmsg_data(nlh);
	/* A kernel without IPv6 answers AF_INET6 with every family's dump. */
	if (ifa->ifa_family != AF_INET6)
		return 0;
	if (ifa->ifa_prefixlen > 128)
		return addr6_bad(d, ifa, "prefix length %u", ifa->ifa_prefixlen);
	if (ifa->ifa_index == 0 || ifa->ifa_index > INT32_MAX)
		return addr6_bad(d, ifa, "no ifindex");
	if (rdc_nla_parse_msg(nlh, sizeof(*ifa), addr6_policy, RDC_ARRAY_SIZE(tb), tb, &why))
		return addr6_bad(d, ifa, "%s", why.text);
	a = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	if (!a)
		return addr6_bad(d, ifa, "no IFA_ADDRESS");
	items = realloc(d->list->items, (d->list->count + 1) * sizeof(*items));
	if (!items) {
		d->rc = rdc_err_set(&d->why, ENOMEM, "cannot list the IPv6 addresses");
		return d->rc;
	}
	d->list->items = items;
	it = &items[d->list->count++];
	memset(it, 0, sizeof(*it));
	it->ifindex = (int)ifa->ifa_index;
	memcpy(it->addr, nla_data(a), sizeof(it->addr));
	it->prefix_len = ifa->ifa_prefixlen;
	it->flags = tb[IFA_FLAGS] ? nla_get_u32(tb[IFA_FLAGS]) : ifa->ifa_flags;
	it->scope = ifa->ifa_scope;
	return 0;
}

int rdc_addr6_list(struct rdc_addr6_list *list, struct rdc_err *err)
{
	const struct ifaddrmsg ifa = {.ifa_family = AF_INET6};
	struct addr6_dump d = {.list = list};
	int rc;

	memset(list, 0, sizeof(*list));
	rc = rdc_rtmsg_dump(RTM_GETADDR, &ifa, sizeof(ifa), addr6_msg_cb, &d, err);
	if (d.rc) {
		/* The transport keeps the first callback error; its words are ours. */
		if (err)
			*err = d.why;
		rc = d.rc;
	}
	if (rc) {
		rdc_addr6_list_free(list);
		if (err && !err->msg[0])
			rdc_err_set(err, -rc, "cannot list the IPv6 addresses");
		return rc;
	}
	return 0;
}

void rdc_addr6_list_free(struct rdc_addr6_list *list)
{
	free(list->items);
	list->items = NULL;
	list->count = 0;
}

const struct rdc_addr6 *rdc_addr6_find(const struct rdc_addr6_list *list, const struct rdc_addr6 *a)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct rdc_addr6 *it = &list->items[i];

		if (it->ifindex == a->ifindex && it->prefix_len == a->prefix_len &&
		    !memcmp(it->addr, a->addr, sizeof(it->addr)))
			return it;
	}
	return NULL;
}

void rdc_addr6_format(const struct rdc_addr6 *a, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, a->addr, text, sizeof(text)))
		rdc_strlcpy(text, "?", sizeof(text));
	snprintf(buf, size, "%s/%u", text, a->prefix_len);
}

/* The RTM_NEWADDR that adds @a into *@out: 0, or -errno with @err set. */
static int addr6_msg_add(const struct rdc_addr6 *a, struct nl_msg **out, struct rdc_err *err)
{
	struct ifaddrmsg ifa = {.ifa_family = AF_INET6};
	uint32_t flags;

	if (a->ifindex <= 0)
		return rdc_err_set(err, EINVAL, "bad ifindex %d", a->ifindex);
	if (a->prefix_len > 128)
		return rdc_err_set(err, EINVAL, "bad IPv6 prefix length %u", a->prefix_len);
	flags = a->flags & RDC_ADDR6_SETTABLE;
	ifa.ifa_prefixlen = (unsigned char)a->prefix_len;
	ifa.ifa_flags = (unsigned char)(flags & 0xff); /* IFA_FLAGS below has them all */
	ifa.ifa_scope = a->scope;
	ifa.ifa_index = (unsigned int)a->ifindex;
	/* `ip address add`: create, and EEXIST (not a replace) when it is there. */
	*out = rdc_rtmsg_new(RTM_NEWADDR, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, &ifa, sizeof(ifa),
			     err);
	if (!*out)
		return -ENOMEM;
	/* No IFA_CACHEINFO: the kernel's default, infinite lifetimes. */
	if (nla_put(*out, IFA_ADDRESS, sizeof(a->addr), a->addr) < 0 ||
	    nla_put_u32(*out, IFA_FLAGS, flags) < 0) {
		rdc_rtmsg_free(*out);
		*out = NULL;
		return rdc_err_set(err, ENOMEM, "cannot build the request to add an address");
	}
	return 0;
}

int rdc_addr6_build_add(char *buf, size_t size, const struct rdc_addr6 *a, struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	int rc = addr6_msg_add(a, &msg, err);

	if (rc)
		return rc;
	rc = rdc_rtmsg_copy(msg, buf, size, "address request", err);
	rdc_rtmsg_free(msg);
	return rc;
}

int rdc_addr6_add(const struct rdc_addr6 *a, struct rdc_err *err)
{
	struct nl_msg *msg = NULL;
	char text[INET6_ADDRSTRLEN + 8];
	int rc;

	rc = addr6_msg_add(a, &msg, err);
	if (rc)
		return rc;
	rc = rdc_rtmsg_talk(msg, RDC_NL_WRITE, NULL, NULL, err);
	rdc_rtmsg_free(msg);
	if (rc == -EEXIST) {
		rdc_err_clear(err);
		return 0;
	}
	if (rc) {
		char why[sizeof(err->msg)] = "";

		if (err)
			rdc_strlcpy(why, err->msg, sizeof(why));
		rdc_addr6_format(a, text, sizeof(text));
		/* The kernel's extack ("IPv6 is disabled on this device") stays in detail. */
		rdc_err_restate(err, -rc, "cannot add %s to ifindex %d", text, a->ifindex);
		if (err && !err->detail[0] && why[0])
			rdc_err_detail(err, "%s", why);
		return rc;
	}
	return 0;
}
