/* SPDX-License-Identifier: GPL-2.0-or-later */
/* members.h - whether the members of a bond agree: PFC, trust, DSCP map, ETS, MTU, speed */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "dcb/target.h"
#include "host/dcb.h"

/*
 * A bond's members must carry one QoS: traffic hashed (or failed over) to a
 * member without PFC on the RoCE priority is dropped under congestion, one
 * with another DSCP map queues RoCE in another class, one with a smaller MTU
 * or a slower link caps the whole bond.  The finding id of a mismatch:
 */
#define RDC_MEMBERS_DIFFER_ID "pfc.members-differ"

#define RDC_MEMBERS_MAX 16
/* pfc, delay, trust, dscp_prio, ets prio_tc/tc_tsa/tc_bw, mtu, speed. */
#define RDC_MEMBERS_MAX_DIFFS 9

/* One setting the members do not share, and what each member has ("3,4", "dscp", "9000"). */
struct rdc_members_diff {
	char what
		[24]; /* "pfc.enabled_prios", "trust", "dscp_prio", "ets.prio_tc", "mtu_bytes", ... */
	char label[16]; /* the same in pfc set's words: "prio-pfc", "trust", "dscp-prio", "mtu" */
	size_t count;
	struct {
		char netdev[IF_NAMESIZE];
		char value[200]; /* "" when not read */
	} values[RDC_MEMBERS_MAX];
};

enum rdc_members_result {
	RDC_MEMBERS_AGREE,
	RDC_MEMBERS_DIFFER,
	RDC_MEMBERS_UNKNOWN, /* nothing differs among what could be read, but DCB was not read */
};

struct rdc_members_agreement {
	enum rdc_members_result result;
	char reason[96]; /* UNKNOWN: which member's DCB could not be read, and why */
	size_t ndiffs;
	struct rdc_members_diff diffs[RDC_MEMBERS_MAX_DIFFS];
};

/*
 * Compare the @n members @t (their DCB as read into @dcbs; a NULL or
 * unsupported one is unknown) with each other: DCB where every member's
 * was read, MTU and link speed (sysfs) where known.  Reads the netdevs'
 * sysfs and MLNX_OFED trust files itself.
 */
void rdc_members_compare(const struct rdc_dcb_target *t, const struct rdc_dcb *const *dcbs,
			 size_t n, struct rdc_members_agreement *a);
