/* SPDX-License-Identifier: GPL-2.0-or-later */
/* addr.h - the IPv4 and IPv6 addresses of the interfaces, with their prefix lengths (rtnetlink) */
#pragma once

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/if_addr.h>

#include "base/err.h"

struct rdc_addr4 {
	char ifname[IF_NAMESIZE]; /* the label: the interface name for its primary addresses */
	uint32_t addr;		  /* host byte order */
	unsigned int prefix_len;  /* 0..32 */
};

struct rdc_addr4_list {
	struct rdc_addr4 *items;
	size_t count;
};

/* Every IPv4 address of the host (one RTM_GETADDR dump). */
int rdc_addr4_list(struct rdc_addr4_list *list, struct rdc_err *err);
void rdc_addr4_list_free(struct rdc_addr4_list *list);
/* The entry for @addr (host order), or NULL. */
const struct rdc_addr4 *rdc_addr4_find(const struct rdc_addr4_list *list, uint32_t addr);

/* One IPv6 address, as RTM_NEWADDR carries it. */
struct rdc_addr6 {
	int ifindex;
	uint8_t addr[16];	 /* network byte order */
	unsigned int prefix_len; /* 0..128 */
	uint32_t flags;		 /* IFA_F_*: the IFA_FLAGS attribute, else ifa_flags */
	unsigned char scope;	 /* RT_SCOPE_*: 253 link, 0 universe */
};

struct rdc_addr6_list {
	struct rdc_addr6 *items;
	size_t count;
};

/*
 * Every IPv6 address of the host (one RTM_GETADDR AF_INET6 dump); a kernel
 * without IPv6 gives an empty list.  -EBADMSG (with why) for a message the
 * kernel would not send: a short header, an attribute of the wrong length.
 */
int rdc_addr6_list(struct rdc_addr6_list *list, struct rdc_err *err);
void rdc_addr6_list_free(struct rdc_addr6_list *list);
/* The entry for @a's address and prefix on @a's interface, or NULL. */
const struct rdc_addr6 *rdc_addr6_find(const struct rdc_addr6_list *list,
				       const struct rdc_addr6 *a);
/*
 * Add @a to its interface (RTM_NEWADDR, `ip -6 address add`): with infinite
 * lifetimes, and of @a->flags only those a request may set
 * (RDC_ADDR6_SETTABLE); the kernel derives the rest (permanent, tentative
 * while DAD runs).  An address the interface already has is success.
 */
int rdc_addr6_add(const struct rdc_addr6 *a, struct rdc_err *err);

/* The IFA_F_* flags RTM_NEWADDR honours for IPv6 (inet6_rtm_newaddr() drops the others). */
#define RDC_ADDR6_SETTABLE                                                                         \
	(IFA_F_NODAD | IFA_F_HOMEADDRESS | IFA_F_MANAGETEMPADDR | IFA_F_NOPREFIXROUTE |            \
	 IFA_F_MCAUTOJOIN | IFA_F_OPTIMISTIC)

/*
 * The request rdc_addr6_add() sends, built into @buf (@size bytes, 4-byte
 * aligned), for tests: replay refuses writes, so its bytes are checked here.
 * Returns the nlmsghdr length, or -EINVAL (an ifindex or prefix the wire
 * cannot carry), -EMSGSIZE (@size too small) or -ENOMEM (libnl could not
 * build it), with @err filled.
 */
int rdc_addr6_build_add(char *buf, size_t size, const struct rdc_addr6 *a, struct rdc_err *err);
/* "fd00:9::1/64" into @buf (INET6_ADDRSTRLEN + 4 bytes hold any). */
void rdc_addr6_format(const struct rdc_addr6 *a, char *buf, size_t size);
