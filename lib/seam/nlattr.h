/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nlattr.h - the one netlink attribute parser: policy tables, truncation detected */
#pragma once

/*
 * Every netlink attribute rdmactl reads goes through here: the replies of
 * each family (kernel/: rtnetlink, dcbnl, ethtool) and the transport's own
 * (seam/nl.c: the extended ack of an error, the generic netlink controller's
 * family id).  It lives in seam/, the lowest layer that reads kernel
 * messages, so that both can use it; kernel/nlattr.h is this header for
 * kernel/'s modules.  It needs nothing but <linux/netlink.h>.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

/*
 * What an attribute must look like before it is read.  A policy table is
 * indexed by attribute type; types not in it (RDC_NLA_SKIP, or above the
 * table) are not judged, since newer kernels add attributes every release.
 * Fixed-size integers must have exactly their size, as the kernel's strict
 * validation demands: a u32 of 2 or 8 bytes is a broken (or hostile) message.
 * A struct (RDC_NLA_MIN) may be longer than ours (a newer kernel's), never
 * shorter.
 */
enum rdc_nla_kind {
	RDC_NLA_SKIP = 0,
	RDC_NLA_U8,
	RDC_NLA_U16,
	RDC_NLA_U32,
	RDC_NLA_U64,
	RDC_NLA_U8_U16, /* 1 or 2 bytes (IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE) */
	RDC_NLA_IFNAME, /* NUL-terminated, shorter than IF_NAMESIZE */
	RDC_NLA_STRING, /* NUL-terminated */
	RDC_NLA_NEST,	/* 0 bytes or at least one attribute header; the inside is walked */
	RDC_NLA_MAC,	/* exactly 6 bytes */
	RDC_NLA_HWADDR, /* 1..32 bytes (MAX_ADDR_LEN; IPoIB's address is 20) */
	RDC_NLA_MIN,	/* at least .len bytes: a kernel struct */
	RDC_NLA_EXACT,	/* exactly .len bytes: an address */
	RDC_NLA_ANY,	/* any length: read, not judged */
};

struct rdc_nla_policy {
	enum rdc_nla_kind kind;
	uint16_t len;	  /* RDC_NLA_MIN: the fewest bytes */
	const char *name; /* for messages ("IFLA_MTU") */
};

#define RDC_NLA(type, k) [type] = {.kind = (k), .name = #type}
#define RDC_NLA_STRUCT(type, st) [type] = {.kind = RDC_NLA_MIN, .len = sizeof(st), .name = #type}
#define RDC_NLA_BYTES(type, n) [type] = {.kind = RDC_NLA_EXACT, .len = (n), .name = #type}

/* What a parse found wrong, for the caller's message. */
struct rdc_nla_why {
	char text[160];
};

/*
 * The attributes of @nlh after its @hdrlen-byte family header, checked
 * against @policy (@n entries) into @tb (@n entries, NULL where absent); a
 * repeated attribute: the last wins, as in the kernel's nla_parse.  0, or
 * -EBADMSG with @why: an attribute that breaks its policy, one that claims
 * more bytes than are left (the reply was cut), or bytes that are no
 * attribute at all (a string where a nest should be).  libmnl's own walk
 * stops quietly at those; this one never does.
 */
int rdc_nla_parse_msg(const struct nlmsghdr *nlh, size_t hdrlen,
		      const struct rdc_nla_policy *policy, size_t n, const struct nlattr **tb,
		      struct rdc_nla_why *why);
/* The same for the attributes inside @nest; @name names it in @why. */
int rdc_nla_parse_nest(const struct nlattr *nest, const char *name,
		       const struct rdc_nla_policy *policy, size_t n, const struct nlattr **tb,
		       struct rdc_nla_why *why);

/*
 * Each attribute inside @nest in order, for lists of repeated entries (an
 * APP table, a statistics group): @cb gets each (a non-zero return stops
 * the walk and is returned).  -EBADMSG with @why when the list is cut or
 * holds bytes that are no attribute.
 */
int rdc_nla_walk_nest(const struct nlattr *nest, const char *name,
		      int (*cb)(const struct nlattr *attr, void *data), void *data,
		      struct rdc_nla_why *why);
/* The same for the attributes of a message after its @hdrlen-byte header. */
int rdc_nla_walk_msg(const struct nlmsghdr *nlh, size_t hdrlen,
		     int (*cb)(const struct nlattr *attr, void *data), void *data,
		     struct rdc_nla_why *why);
/* Whether @attr fits @p (an attribute of a walk the caller judges itself). */
bool rdc_nla_ok(const struct nlattr *attr, const struct rdc_nla_policy *p);
