/* SPDX-License-Identifier: GPL-2.0-or-later */
/* addr.h - the IPv4 addresses of the interfaces, with their prefix lengths (rtnetlink) */
#pragma once

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

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
