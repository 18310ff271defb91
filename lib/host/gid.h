/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gid.h - GID table entries: text, type, netdev, the IP they carry */
#pragma once

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/issues.h"

enum rdc_gid_type { RDC_GID_UNKNOWN, RDC_GID_IB, RDC_GID_ROCE_V1, RDC_GID_ROCE_V2 };

struct rdc_gid {
	unsigned int index;
	uint8_t raw[16];
	char text[40]; /* as sysfs prints it: 8 groups of 4 hex digits */
	enum rdc_gid_type type;
	char netdev[IF_NAMESIZE]; /* empty when the entry has none (InfiniBand) */
	int family;		  /* AF_INET, AF_INET6, or 0 when it carries no IP */
	char ip[INET6_ADDRSTRLEN];
	bool link_local;      /* fe80::/10 */
	bool recommended;     /* the entry a RoCEv2 application should use for this IP */
	bool unreadable;      /* the slot exists but its GID could not be read or parsed */
	bool type_unreadable; /* its gid_attrs/types file could not be read */
};

/*
 * Parse a sysfs GID ("fe80:0000:0000:0000:0e42:a1ff:fe65:8a10") into 16 bytes.
 * Returns 0 or -EINVAL.
 */
int rdc_gid_parse(const char *text, uint8_t raw[16]);
/* The sysfs form of 16 bytes, lowercase: the inverse of rdc_gid_parse(). */
void rdc_gid_format(const uint8_t raw[16], char text[40]);
bool rdc_gid_is_zero(const uint8_t raw[16]);
/* The link-local prefix with a zero interface id: an unset RoCE slot (show_gids skips it). */
bool rdc_gid_is_bare_link_local(const uint8_t raw[16]);
/*
 * The IP address a RoCE GID carries: IPv4-mapped (::ffff:a.b.c.d) gives
 * AF_INET, anything else AF_INET6.  Fills gid->family, ip and link_local.
 */
void rdc_gid_derive_ip(struct rdc_gid *gid);
/* "IB/RoCE v1" / "RoCE v2" from sysfs, told apart by the port's link layer. */
enum rdc_gid_type rdc_gid_type_parse(const char *sysfs_text, bool ethernet);
const char *rdc_gid_type_name(enum rdc_gid_type type);

/*
 * Mark, for each IP of a port's table, the one entry a RoCEv2 application
 * should use: type RoCE v2, not link-local, lowest index.
 */
void rdc_gid_mark_recommended(struct rdc_gid *gids, size_t count);

/*
 * Read the used entries of one port's GID table (unused slots are skipped).
 * A slot whose GID cannot be read or parsed is an entry with gid->unreadable
 * set (and only its index known), and each such file is a record in @issues:
 * one bad slot never hides the rest of the table, and none is dropped
 * silently.  On the live system (no --root, --replay or --record) the table
 * comes from libibverbs instead, one ibv_query_gid_table() per device
 * (host/gid_verbs.h), and from sysfs when that fails: the same entries.
 */
int rdc_gid_table_read_all(const char *dev, unsigned int port, bool ethernet, struct rdc_gid **gids,
			   size_t *count, struct rdc_issues *issues, struct rdc_err *err);

/*
 * Whether a GID of DEV/PORT is @raw (when not NULL), else has @netdev as its
 * ndev; the matching entry's ndev into @found (may be NULL).  A table that
 * cannot be read matches nothing (`port gids` says why): only -ENOMEM fails.
 */
int rdc_gid_table_match(const char *dev, unsigned int port, bool ethernet, const uint8_t *raw,
			const char *netdev, char *found, size_t size, bool *match,
			struct rdc_err *err);
