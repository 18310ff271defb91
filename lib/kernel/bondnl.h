/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bondnl.h - bonds over rtnetlink: what RTM_NEWLINK says of a bond and its members, and changes */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "seam/nl.h"

#define RDC_BOND_MAX_MEMBERS 16
/*
 * Why a bond has no RoCE LAG, whole: the longest names every member's RDMA
 * device (64 bytes) and netdev ("DEV on NETDEV, "), in our words around them.
 */
#define RDC_BOND_RDMA_REASON_LEN (RDC_BOND_MAX_MEMBERS * (64 + IF_NAMESIZE + 6) + 160)
#define RDC_BOND_MAX 32 /* bonds one host report holds */

/* Bonding modes; the value is IFLA_BOND_MODE on the wire. */
enum rdc_bond_mode {
	RDC_BOND_BALANCE_RR = 0,
	RDC_BOND_ACTIVE_BACKUP = 1,
	RDC_BOND_BALANCE_XOR = 2,
	RDC_BOND_BROADCAST = 3,
	RDC_BOND_8023AD = 4,
	RDC_BOND_BALANCE_TLB = 5,
	RDC_BOND_BALANCE_ALB = 6,
};

/* IFLA_BOND_XMIT_HASH_POLICY values (1 is layer3+4, not layer2+3). */
enum rdc_bond_hash {
	RDC_BOND_HASH_L2 = 0,
	RDC_BOND_HASH_L34 = 1,
	RDC_BOND_HASH_L23 = 2,
	RDC_BOND_HASH_E23 = 3,
	RDC_BOND_HASH_E34 = 4,
	RDC_BOND_HASH_VLAN_SRCMAC = 5,
};

/* LACP port state bits (IEEE 802.1AX), as the kernel reports them per member. */
#define RDC_LACP_ACTIVITY 0x01
#define RDC_LACP_TIMEOUT 0x02 /* short timeout: LACPDUs every second */
#define RDC_LACP_AGGREGATION 0x04
#define RDC_LACP_SYNC 0x08
#define RDC_LACP_COLLECTING 0x10
#define RDC_LACP_DISTRIBUTING 0x20
#define RDC_LACP_DEFAULTED 0x40
#define RDC_LACP_EXPIRED 0x80

/* A value the kernel did not report: -1 in the int64_t fields below. */
#define RDC_BOND_UNKNOWN (-1)

/* One member (slave) of a bond. */
struct rdc_bond_member {
	char name[IF_NAMESIZE];
	int ifindex;
	int state;	/* 0 active, 1 backup, -1 unknown (IFLA_BOND_SLAVE_STATE) */
	int mii_status; /* 0 up, 1 going down, 2 down, 3 going back, -1 unknown */
	int64_t link_failure_count;
	int64_t speed_mbps; /* -1 unknown (link down, virtual) */
	char duplex[16];    /* "full", "half", "" unknown */
	int64_t mtu;	    /* bytes */
	char perm_hwaddr[18];
	int64_t aggregator_id;	    /* 802.3ad */
	int64_t actor_port_state;   /* RDC_LACP_* bits, 802.3ad */
	int64_t partner_port_state; /* RDC_LACP_* bits, 802.3ad */
	bool carrier;		    /* the member's own carrier */
};

/*
 * A bond as rtnetlink (and /proc/net/bonding where netlink lacks a value)
 * shows it.  The rdma_* fields are the bond model's (lib/bond): netlink
 * leaves them empty.
 */
struct rdc_bond {
	char name[IF_NAMESIZE];
	int ifindex;
	bool admin_up, carrier;
	int64_t mtu;
	int mode;	      /* enum rdc_bond_mode, -1 unknown */
	int xmit_hash_policy; /* enum rdc_bond_hash, -1 unknown */
	int64_t miimon_ms;    /* 0: MII monitoring off */
	int64_t updelay_ms, downdelay_ms;
	int64_t arp_interval_ms;
	int lacp_rate; /* 0 slow, 1 fast, -1 unknown */
	int ad_select; /* 0 stable, 1 bandwidth, 2 count, -1 unknown */
	int64_t min_links;
	char primary[IF_NAMESIZE];	 /* "" none */
	char active_member[IF_NAMESIZE]; /* "" none (or not active-backup) */
	/* 802.3ad: the active aggregator and the partner system. */
	int64_t ad_aggregator_id, ad_num_ports, ad_actor_key, ad_partner_key;
	char ad_partner_mac[18]; /* "" unknown */
	size_t nmembers;
	struct rdc_bond_member members[RDC_BOND_MAX_MEMBERS];
	/* RoCE LAG: the RDMA device whose port's netdev is this bond, or why none. */
	char rdma_device[64];
	unsigned int rdma_port;
	bool rdma_soft; /* a software device (rxe, siw) on the bond, not the NIC's LAG */
	char rdma_reason[RDC_BOND_RDMA_REASON_LEN];
};

struct rdc_bond_list {
	size_t count;
	struct rdc_bond bonds[RDC_BOND_MAX];
};

/*
 * Start a bond record: every value unknown (-1 / ""), no members, and every
 * member slot as rdc_bondnl_member_init() leaves it.
 */
void rdc_bondnl_init(struct rdc_bond *b);
/* Start a member record: every value unknown (-1 / ""), carrier false. */
void rdc_bondnl_member_init(struct rdc_bond_member *m);

/*
 * Every bond of the host and its members: one RTM_GETLINK dump, parsed with
 * our own IFLA_BOND_* and IFLA_BOND_SLAVE_* tables.  The request is exactly
 * nlmsghdr{RTM_GETLINK, NLM_F_REQUEST|NLM_F_DUMP} + struct ifinfomsg (all
 * zero) and nothing else, so a recording made once answers every reader.
 * Members attach to their bond by IFLA_MASTER; members of a master the dump
 * does not show are left out.  speed_mbps/duplex stay unknown: netlink does
 * not carry them.  More than RDC_BOND_MAX bonds or RDC_BOND_MAX_MEMBERS
 * members in one bond is -E2BIG, a malformed message -EBADMSG; on any error
 * @list holds no bond.
 */
int rdc_bondnl_dump(struct rdc_bond_list *list, struct rdc_err *err);

/*
 * The RTM_GETLINK dump under rdc_bondnl_dump(): every link's RTM_NEWLINK to
 * @cb, for readers of their own (the failover measurement reads them as
 * events, kernel/bondnl_event.h).  The request is nlmsghdr + a zeroed
 * ifinfomsg, the bytes recordings match.
 */
int rdc_bondnl_dump_links(rdc_nl_msg_cb cb, void *arg, struct rdc_err *err);

/* Options to send; only the given ones are, in this order (mode first). */
struct rdc_bond_opts {
	bool mode_given, miimon_given, updelay_given, downdelay_given, hash_given;
	bool lacp_rate_given, ad_select_given, min_links_given, primary_given;
	int mode, hash, lacp_rate, ad_select;
	uint32_t miimon_ms, updelay_ms, downdelay_ms, min_links;
	int primary_ifindex; /* 0: none */
};

/* RTM_NEWLINK NLM_F_CREATE|NLM_F_EXCL: a new (down) bond with the given options. */
int rdc_bondnl_create(const char *name, const struct rdc_bond_opts *o, struct rdc_err *err);
/* RTM_NEWLINK on an existing bond: change the given options only. */
int rdc_bondnl_set(int ifindex, const char *name, const struct rdc_bond_opts *o,
		   struct rdc_err *err);
/* IFLA_MASTER of @member: @master_ifindex enslaves, 0 releases.  The member must be down. */
int rdc_bondnl_enslave(int member_ifindex, const char *member, int master_ifindex,
		       struct rdc_err *err);
/* RTM_DELLINK. */
int rdc_bondnl_delete(int ifindex, const char *name, struct rdc_err *err);

/*
 * The requests the four calls above send, built into @buf (@size bytes,
 * 4-byte aligned), for tests and the fuzzer: replay refuses writes, so their
 * bytes are checked here.  Return the nlmsghdr length, or -EINVAL (a name,
 * ifindex or option the wire cannot carry), -EMSGSIZE (@size too small) or
 * -ENOMEM (libnl could not build it), with @err filled.
 * @o may be NULL: no options.
 */
int rdc_bondnl_build_create(char *buf, size_t size, const char *name, const struct rdc_bond_opts *o,
			    struct rdc_err *err);
int rdc_bondnl_build_set(char *buf, size_t size, int ifindex, const struct rdc_bond_opts *o,
			 struct rdc_err *err);
int rdc_bondnl_build_enslave(char *buf, size_t size, int member_ifindex, int master_ifindex,
			     struct rdc_err *err);
int rdc_bondnl_build_delete(char *buf, size_t size, int ifindex, struct rdc_err *err);
