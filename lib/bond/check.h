/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check.h - `bond check`: RoCE LAG rules, alike members, failover against the QP retry window */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/finding.h"
#include "kernel/bondnl.h"

/*
 * The RC QP survival window (IBTA; research/bond.md §4.2).  A QP waits
 * T_ack = 4.096 us * 2^timeout for an ACK (ibv_qp_attr.timeout, 5 bits, 0 =
 * wait forever) and retransmits retry_cnt times (3 bits) before it fails
 * with IBV_WC_RETRY_EXC_ERR, so an outage shorter than
 * W = T_ack * (retry_cnt + 1) is survived.
 *
 *   timeout  T_ack     W (retry 7)
 *   12       16.8 ms   134 ms   covers miimon 100
 *   14       67.1 ms   537 ms   perftest's default (DEF_QP_TIME)
 *   17       537 ms    4.3 s    covers the LACP fast timeout (3 s)
 *   20       4.29 s    34.4 s   NCCL_IB_TIMEOUT's default
 *
 * This is the nominal window: the IBTA lets an HCA run its timer up to
 * about 4x longer, never shorter.
 */
#define RDC_QP_ACK_UNIT_S 4.096e-6 /* seconds per 2^timeout */
#define RDC_QP_TIMEOUT_MAX 31
#define RDC_QP_RETRY_MAX 7

/* T_ack in seconds; INFINITY for timeout 0, NAN above RDC_QP_TIMEOUT_MAX. */
double rdc_qp_ack_timeout_s(unsigned int timeout);
/* W in seconds; INFINITY for timeout 0, NAN for a timeout or retry_cnt out of range. */
double rdc_qp_survival_s(unsigned int timeout, unsigned int retry_cnt);
/*
 * The smallest timeout 1..31 whose window is longer than @outage_s at
 * @retry_cnt (ceil(log2(outage / (4.096 us * (retry_cnt + 1))))); -1 when
 * none is (an infinite or NAN outage, a retry_cnt above 7).
 */
int rdc_qp_min_timeout(double outage_s, unsigned int retry_cnt);

/*
 * How long, in seconds, the bond takes to notice a dead member and move off
 * it (detection plus the bond's reaction; NIC remap and switch convergence
 * come on top and must be measured):
 *
 *   miimon > 0                     miimon + downdelay
 *   miimon 0, 802.3ad              LACP timeout: 3 s (lacp_rate fast), 90 s (slow)
 *   miimon 0, arp_interval > 0     arp_interval * 2 (arp_missed_max's default)
 *   none of these                  INFINITY: nothing detects a failure
 *
 * NAN when an option it needs is unknown (-1).  check.c cites each step.
 */
double rdc_bond_failover_s(const struct rdc_bond *b);

/* The QP whose survival the check judges; the caller fills both. */
#define RDC_BOND_CHECK_QP_TIMEOUT 14 /* perftest's DEF_QP_TIME, rdma-core's usual value */
#define RDC_BOND_CHECK_RETRY_CNT 7   /* the most the 3-bit field holds, what everyone sets */

struct rdc_bond_check_params {
	unsigned int qp_timeout; /* 0..31, ibv_qp_attr.timeout */
	unsigned int retry_cnt;	 /* 0..7, ibv_qp_attr.retry_cnt */
};

/*
 * What the check needs of each member besides struct rdc_bond: which PCI
 * function it is, its PFC and its trust.  Each value is "unknown" ("" or
 * have_dcb false) with a reason when it could not be read, and names its
 * source when it could.
 */
struct rdc_bond_member_facts {
	char name[IF_NAMESIZE];
	char pci[32];	      /* "0000:3b:00.0"; "" unknown */
	char pci_source[160]; /* "/sys/class/net/ens1f0np0/device" */
	char pci_reason[128]; /* why pci is unknown */
	bool have_dcb;	      /* dcbnl answered with IEEE PFC: pfc_en is known */
	uint8_t pfc_en;	      /* bit per priority with PFC on */
	char dcb_source[160];
	/* An error record's message, whole (it may name a path under --root). */
	char dcb_reason[RDC_ERR_MSG_LEN];
	char trust[8]; /* "dscp", "pcp"; "" unknown */
	int dscp_apps; /* DSCP APP entries when trust came from dcbnl, else -1 */
	char trust_source[160];
	char trust_reason[RDC_ERR_MSG_LEN + 64]; /* our words around dcb_reason */
};

/* members[i] describes b->members[i] of the bond it was read for. */
struct rdc_bond_facts {
	size_t nmembers;
	struct rdc_bond_member_facts members[RDC_BOND_MAX_MEMBERS];
};

/* Facts for @b's members, all unknown (the reasons say "not read"). */
void rdc_bond_facts_init(const struct rdc_bond *b, struct rdc_bond_facts *f);

/*
 * Read each member's facts through the host models: the PCI function from
 * the /sys/class/net/IF/device link, PFC from dcbnl, trust from MLNX_OFED's
 * qos/trust or else the dcbnl APP table.  What a member lacks (no dcbnl, a
 * virtual netdev, no recording under --root) is unknown with its reason,
 * not an error, so the check runs on every host.  Returns 0, or -EINVAL for
 * a bond with more members than the facts hold.
 */
int rdc_bond_facts_read(const struct rdc_bond *b, struct rdc_bond_facts *f, struct rdc_err *err);

/*
 * Judge @b for RDMA: append to @out (not cleared) one finding per problem,
 * each with its evidence and source, why it matters and the fix.  Pure: it
 * reads only its arguments.  Ids (severity):
 *
 *   bond.no-members (fail)             bond.one-member (warn)
 *   bond.mode-no-roce-lag (fail)       bond.members-not-one-nic (fail)
 *   bond.member-down (warn)            bond.speed-mismatch (warn)
 *   bond.mtu-mismatch (fail)           bond.pfc-mismatch (fail)
 *   bond.trust-mismatch (fail)         bond.hash-not-l34 (warn)
 *   bond.miimon-off (fail: nothing detects a failure; warn: only LACP does)
 *   bond.lacp-slow (warn)              bond.failover-outlasts-qp (fail)
 *   bond.qp-outlives-failover (info)   bond.roce-lag (info)
 *   bond.no-rdma-device (info)
 *
 * and, where a value was unknown and a comparison could not be made,
 * bond.{mode,nic,member-state,speed,mtu,pfc,trust,hash,lacp,failover}-skipped
 * (info), saying what was not compared and why.
 */
void rdc_bond_check_eval(const struct rdc_bond *b, const struct rdc_bond_facts *f,
			 const struct rdc_bond_check_params *p, struct rdc_findings *out);
