// SPDX-License-Identifier: GPL-2.0-or-later
/* qos.c - diag checks of lossless RoCE: PFC, trust, DSCP map, ETS, pause, drops, ECN, CNPs, DCBX */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dcb/members.h"
#include "dcb/profile.h"
#include "diag/diag.h"

/*
 * Every check here judges a RoCE port against the policy (h->policy: the
 * RoCE priority and DSCP, the CNP's, the ETS share, the pause thresholds),
 * which describes what the switches of the fabric do.  A port is judged only
 * when it is RoCE and its DCB state was read (dcb_rc 0, dcb.supported); any
 * other port is skipped with the reason, never failed.
 *
 * Counters: with two samples a rule looks at the change in the window; with
 * one (interval 0) at the value since boot, which is a warning at most and
 * says "since boot/counter reset".  Pause durations are mlx5's per-priority
 * ethtool -S counters in microseconds, which exist only while PFC is on for
 * that priority (counters.rst), so "absent" is not "zero".
 */

#define PRIOS 8 /* IEEE_8021Q_MAX_PRIORITIES, and the TCs of IEEE_8021QAZ_MAX_TCS */
#define SRC_POLICY "diag policy"
#define DCB_READS "dcbnl DCB_CMD_IEEE_GET"
#define DCB_READS_ALL "dcbnl DCB_CMD_IEEE_GET (PFC, ETS, APP)"
#define SINCE_BOOT " since boot/counter reset"

static const char *qos_netdev(const struct rdc_diag_port *p)
{
	return p->port.netdev.name;
}

/* Where a DCB attribute came from: "dcbnl DCB_CMD_IEEE_GET ens1f0np0 (DCB_ATTR_IEEE_PFC)". */
static void qos_dcb_source(const struct rdc_diag_port *p, const char *attr, char *buf, size_t size)
{
	snprintf(buf, size, "dcbnl DCB_CMD_IEEE_GET %s (%s)", qos_netdev(p), attr);
}

/*
 * Whether check @c can judge port @p; when not, the skip says why.  Also
 * refuses a policy outside the ranges the arrays below are indexed by (the
 * policy file's reader enforces them; a hand-built policy might not).
 */
static bool qos_judged(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		       const struct rdc_diag_port *p, struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	if (!rdc_diag_port_roce(p)) {
		if (!p->port.has_netdev)
			rdc_diag_skip(r, c, p, "no netdev: not a RoCE port");
		else
			rdc_diag_skip(r, c, p, "link layer %s, not Ethernet: no RoCE QoS to judge",
				      p->port.link_layer[0] ? p->port.link_layer : "unknown");
		return false;
	}
	if (p->dcb_rc < 0 || !p->dcb.supported) {
		/* The reason may be the bare message ("cannot read DCB of 'eth0'"): add the errno. */
		if (p->dcb_reason[0] && p->dcb_rc < 0 &&
		    !strstr(p->dcb_reason, strerror(-p->dcb_rc)))
			rdc_diag_skip(r, c, p, "DCB not read: %s: %s", p->dcb_reason,
				      strerror(-p->dcb_rc));
		else if (p->dcb_reason[0])
			rdc_diag_skip(r, c, p, "DCB not read: %s", p->dcb_reason);
		else if (p->dcb_rc < 0)
			rdc_diag_skip(r, c, p, "DCB not read: %s", strerror(-p->dcb_rc));
		else
			rdc_diag_skip(r, c, p, "DCB not read: %s does not answer dcbnl",
				      qos_netdev(p));
		return false;
	}
	if (pol->roce_prio >= PRIOS || pol->cnp_prio >= PRIOS || pol->roce_dscp > 63 ||
	    pol->cnp_dscp > 63) {
		rdc_diag_skip(r, c, p,
			      "policy out of range: priorities are 0-7 and DSCPs 0-63 (roce-prio "
			      "%u, cnp-prio %u, roce-dscp %u, cnp-dscp %u)",
			      pol->roce_prio, pol->cnp_prio, pol->roce_dscp, pol->cnp_dscp);
		return false;
	}
	return true;
}

/* "3" , "3,6", "none" for a bitmap of priorities. */
static void qos_prio_list(unsigned int mask, char *buf, size_t size)
{
	buf[0] = '\0';
	for (unsigned int i = 0; i < PRIOS; i++)
		if (mask & (1u << i))
			rdc_diag_append(buf, size, "%s%u", buf[0] ? "," : "", i);
	if (!buf[0])
		rdc_strlcpy(buf, "none", size);
}

static unsigned int qos_popcount(unsigned int mask)
{
	unsigned int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* pfc_en as evidence: the bitmap, its priorities in words ("priorities 3,6", "no priority"). */
static void qos_ev_pfc_en(struct rdc_finding *f, const char *src, unsigned int en)
{
	char on[32];

	qos_prio_list(en, on, sizeof(on));
	if (en)
		rdc_ev_detail(rdc_ev_uint(f, "pfc_en", src, en), "priorities %s", on);
	else
		rdc_ev_detail(rdc_ev_uint(f, "pfc_en", src, en), "no priority");
}

/* pfc apply of roce-lossless with the policy's priorities and DSCPs, on @dev. */
static void qos_profile_cmd(const struct rdc_diag_host *h, const char *dev, struct rdc_argv *cmd)
{
	const struct rdc_diag_policy *pol = &h->policy;
	struct rdc_dcb_profile d = {
		.name = "roce-lossless", .prio = 3, .dscp = 26, .cnp_dscp = 48, .cnp_prio = 6};

	rdc_dcb_profile_init(&d, "roce-lossless");
	d.prio = pol->roce_prio;
	d.dscp = pol->roce_dscp;
	d.cnp_dscp = pol->cnp_dscp;
	d.cnp_prio = pol->cnp_prio;
	rdc_dcb_profile_argv(&d, dev, cmd);
}

/*
 * The fix of a port's QoS: the profile with the policy's values, on its
 * netdev, or through its bond for a member (so the members stay alike).
 */
static void qos_fix_profile(struct rdc_finding *f, const struct rdc_diag_host *h,
			    const struct rdc_diag_port *p)
{
	struct rdc_argv cmd;

	qos_profile_cmd(h, p->bond[0] ? p->bond : qos_netdev(p), &cmd);
	rdc_finding_fix_argv(f, &cmd);
}

/*
 * A counter for a rule: its change in the window, or with one sample its
 * value since boot (*@cumulative set).  False when the port has no such counter.
 */
static bool qos_count(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		      uint64_t *v, bool *cumulative)
{
	int rc = rdc_diag_delta(p, set, name, v);
	bool cum = rc == -ENODATA;

	if (cum)
		rc = rdc_diag_counter(p, set, name, v);
	/* Only a counter that exists says which: an absent one leaves *@cumulative alone. */
	if (rc)
		return false;
	*cumulative = cum;
	return true;
}

/*
 * A counter qos_count() read, as evidence: its total since boot or reset
 * (@cumulative), else its change @v in the window and its total now.
 */
static struct rdc_evidence *qos_count_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
					       enum rdc_diag_set set, const char *name, uint64_t v,
					       bool cumulative)
{
	char src[RDC_DIAG_SOURCE_LEN];
	uint64_t total;

	rdc_diag_counter_source(p, set, name, src, sizeof(src));
	if (cumulative)
		return rdc_ev_counter(f, name, src, v);
	if (rdc_diag_counter(p, set, name, &total))
		return rdc_ev_delta(f, name, src, v, rdc_diag_window_s(p));
	return rdc_ev_window(f, name, src, v, rdc_diag_window_s(p), total);
}

/*
 * The share of the window a pause-duration counter (microseconds) says the
 * priority was paused, in percent: 0 and the value, -ENOENT without the
 * counter, -ENODATA with one sample (no window to divide by).
 */
static int qos_pause_pct(const struct rdc_diag_port *p, const char *name, uint64_t *us, double *pct)
{
	double w = rdc_diag_window_s(p);
	int rc = rdc_diag_delta(p, RDC_DIAG_NETDEV, name, us);

	if (rc)
		return rc;
	if (w <= 0)
		return -ENODATA;
	*pct = (double)*us / (w * 1e6) * 100.0;
	return 0;
}

/*
 * A pause-duration counter over the window (@us, microseconds: the kernel's
 * name has no unit), then the share of the window it makes, @pct_name
 * ("tx_pause_pct", what tx-pause-pct-warn is compared with).
 */
static void qos_pause_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
			       const char *name, uint64_t us, const char *pct_name, double pct,
			       unsigned int prio)
{
	char src[RDC_DIAG_SOURCE_LEN];

	rdc_ev_detail(qos_count_evidence(f, p, RDC_DIAG_NETDEV, name, us, false), "microseconds");
	rdc_diag_counter_source(p, RDC_DIAG_NETDEV, name, src, sizeof(src));
	rdc_ev_detail(rdc_ev_real(f, pct_name, src, pct), "of the %.1f s window, priority %u",
		      rdc_diag_window_s(p), prio);
}

/* "dscp" or "pcp", and where that was read: MLNX_OFED's file, else the APP table. */
static const char *qos_trust(const struct rdc_diag_port *p, char *src, size_t size)
{
	if (p->ofed.trust[0]) {
		snprintf(src, size, "/sys/class/net/%s/qos/trust", qos_netdev(p));
		return p->ofed.trust;
	}
	/* Upstream mlx5 (en_dcbnl.c) trusts DSCP exactly while DSCP APP entries exist. */
	qos_dcb_source(p, "DCB_ATTR_IEEE_APP_TABLE, DSCP entries", src, size);
	return rdc_dcb_dscp_count(&p->dcb) ? "dscp" : "pcp";
}

/* ---- qos.pfc-off (#9) --------------------------------------------------- */

static void check_pfc_off(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			  struct rdc_diag_result *r)
{
	const unsigned int prio = h->policy.roce_prio;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		struct rdc_finding *f;
		char src[RDC_DIAG_SOURCE_LEN], on[32];

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_pfc) {
			rdc_diag_skip(r, c, p,
				      "the driver reports no IEEE PFC (DCB_ATTR_IEEE_PFC)");
			continue;
		}
		if (p->dcb.pfc.pfc_en & (1u << prio))
			continue;
		qos_prio_list(p->dcb.pfc.pfc_en, on, sizeof(on));
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
				 "PFC is off on the RoCE priority %u (PFC on: %s)", prio, on);
		qos_dcb_source(p, "DCB_ATTR_IEEE_PFC", src, sizeof(src));
		qos_ev_pfc_en(f, src, p->dcb.pfc.pfc_en);
		rdc_ev_uint(f, "roce-prio", SRC_POLICY, prio);
		rdc_finding_why(f,
				"RoCE data on priority %u is dropped instead of paused when a "
				"queue fills; RoCE recovers a drop only by retransmitting after a "
				"NAK or timeout, so throughput collapses and latency jumps under "
				"load",
				prio);
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.pfc-too-many (#10) --------------------------------------------- */

static void check_pfc_too_many(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			       struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		unsigned int en, n, cap;
		bool on_cnp, over_cap, extra;
		struct rdc_finding *f;
		char src[RDC_DIAG_SOURCE_LEN], on[32];

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_pfc) {
			rdc_diag_skip(r, c, p,
				      "the driver reports no IEEE PFC (DCB_ATTR_IEEE_PFC)");
			continue;
		}
		en = p->dcb.pfc.pfc_en;
		n = qos_popcount(en);
		cap = p->dcb.pfc.pfc_cap;
		on_cnp = pol->cnp_prio != pol->roce_prio && (en & (1u << pol->cnp_prio));
		over_cap = cap && n > cap;
		/* One priority that is not RoCE's alone is qos.pfc-off's finding. */
		extra = (en & ~(1u << pol->roce_prio)) && n >= 2;
		if (!on_cnp && !over_cap && !extra)
			continue;
		qos_prio_list(en, on, sizeof(on));
		if (on_cnp)
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "PFC is on the CNP priority %u (PFC on: %s)%s",
					 pol->cnp_prio, on, over_cap ? ", more than pfc_cap" : "");
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "PFC is on more priorities than RoCE's %u (PFC on: %s)%s",
					 pol->roce_prio, on, over_cap ? ", more than pfc_cap" : "");
		qos_dcb_source(p, "DCB_ATTR_IEEE_PFC", src, sizeof(src));
		qos_ev_pfc_en(f, src, en);
		rdc_ev_uint(f, "pfc_cap", src, cap);
		rdc_ev_uint(f, "roce-prio", SRC_POLICY, pol->roce_prio);
		if (on_cnp) {
			rdc_ev_uint(f, "cnp-prio", SRC_POLICY, pol->cnp_prio);
			rdc_finding_why(
				f,
				"CNPs must never wait: with PFC on their priority %u they "
				"are paused with the congestion they are meant to end, and "
				"a paused CNP class can deadlock with the data class; every "
				"lossless priority also takes receive-buffer headroom",
				pol->cnp_prio);
		} else {
			rdc_finding_why(f,
					"Each lossless priority takes receive-buffer headroom from "
					"the others and can pause the link for its traffic; "
					"priorities RoCE does not use only spread pauses (head-of-"
					"line blocking) and raise the risk of PFC storms and "
					"deadlocks");
		}
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.trust (#11) ---------------------------------------------------- */

static void check_trust(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		struct rdc_finding *f;
		char src[RDC_DIAG_SOURCE_LEN], app_src[RDC_DIAG_SOURCE_LEN];
		const char *trust;

		if (!qos_judged(h, c, p, r))
			continue;
		trust = qos_trust(p, src, sizeof(src));
		if (!strcmp(trust, "dscp"))
			continue;
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
				 "the port trusts %s, not DSCP: RoCE v2 is classified by VLAN PCP",
				 trust);
		rdc_ev_text(f, "trust", src, "%s", trust);
		qos_dcb_source(p, "DCB_ATTR_IEEE_APP_TABLE", app_src, sizeof(app_src));
		rdc_ev_uint(f, "dscp_app_entries", app_src, rdc_dcb_dscp_count(&p->dcb));
		rdc_finding_why(
			f,
			"The fabric marks RoCE with DSCP %u; a port trusting PCP "
			"classifies by the VLAN tag, so untagged RoCE v2 lands on "
			"priority 0, outside the lossless priority %u: no PFC, drops under "
			"congestion (upstream mlx5 trusts DSCP only while the APP table has "
			"DSCP entries)",
			h->policy.roce_dscp, h->policy.roce_prio);
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.dscp-map (#12) ------------------------------------------------- */

/* " DSCP 26 -> priority 4, not 3" or " DSCP 26 not mapped (wanted 3)" added to *@title. */
static void dscp_map_title(char **title, const char *what, unsigned int dscp, int got,
			   unsigned int want)
{
	if (got < 0)
		rdc_diag_cat(title, "%s%s DSCP %u not in the APP table (want priority %u)",
			     *title ? "; " : "", what, dscp, want);
	else
		rdc_diag_cat(title, "%s%s DSCP %u -> priority %d, not %u", *title ? "; " : "", what,
			     dscp, got, want);
}

/*
 * The priority the APP table gives @dscp (@prio), or null where it has no
 * entry for it (the driver's default applies); the detail names the DSCP.
 */
static void dscp_map_evidence(struct rdc_finding *f, const char *src, const char *name,
			      unsigned int dscp, int prio)
{
	if (prio < 0)
		rdc_ev_detail(rdc_ev_unknown(f, name, src, "no entry"), "DSCP %u", dscp);
	else
		rdc_ev_detail(rdc_ev_uint(f, name, src, (unsigned int)prio), "DSCP %u", dscp);
}

static void check_dscp_map(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			   struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char src[RDC_DIAG_SOURCE_LEN], tsrc[RDC_DIAG_SOURCE_LEN];
		char *title = NULL, *why = NULL;
		struct rdc_finding *f;
		const char *trust;
		int dp, cp;
		bool bad_data, bad_cnp;
		enum rdc_severity sev;

		if (!qos_judged(h, c, p, r))
			continue;
		trust = qos_trust(p, tsrc, sizeof(tsrc));
		if (strcmp(trust, "dscp")) {
			rdc_diag_skip(r, c, p,
				      "the port trusts %s (qos.trust): the DSCP map is unused",
				      trust);
			continue;
		}
		if (!rdc_dcb_dscp_count(&p->dcb)) {
			rdc_diag_skip(
				r, c, p,
				"MLNX_OFED trusts DSCP but the APP table has no DSCP entries: "
				"the driver's own map (qos/dscp2prio) is not read");
			continue;
		}
		dp = rdc_dcb_dscp_prio(&p->dcb, pol->roce_dscp);
		cp = rdc_dcb_dscp_prio(&p->dcb, pol->cnp_dscp);
		bad_data = dp != (int)pol->roce_prio;
		bad_cnp = cp != (int)pol->cnp_prio;
		if (!bad_data && !bad_cnp)
			continue;
		/*
		 * A wrong entry for the data DSCP moves RoCE off the lossless
		 * priority: fail.  A missing one leaves it to the driver's default
		 * (mlx5: DSCP >> 3), and a wrong CNP entry delays congestion control
		 * without losing data: warnings.
		 */
		sev = bad_data && dp >= 0 ? RDC_SEV_FAIL : RDC_SEV_WARN;
		if (bad_data) {
			dscp_map_title(&title, "RoCE", pol->roce_dscp, dp, pol->roce_prio);
			rdc_diag_cat(&why,
				     "RoCE data (DSCP %u) must land on the lossless priority %u, "
				     "where PFC and the RoCE TC are. ",
				     pol->roce_dscp, pol->roce_prio);
		}
		if (bad_cnp) {
			dscp_map_title(&title, "CNP", pol->cnp_dscp, cp, pol->cnp_prio);
			rdc_diag_cat(&why,
				     "CNPs (DSCP %u) belong on priority %u, a strict TC of their "
				     "own, or they wait behind the traffic they should slow down. ",
				     pol->cnp_dscp, pol->cnp_prio);
		}
		if (dp < 0 || cp < 0)
			rdc_diag_cat(&why,
				     "A DSCP without an entry gets the driver's default priority.");
		f = rdc_diag_add(r, c, p, sev, "%s", rdc_diag_str(title));
		qos_dcb_source(p, "DCB_ATTR_IEEE_APP_TABLE", src, sizeof(src));
		rdc_ev_text(f, "trust", tsrc, "%s", trust);
		dscp_map_evidence(f, src, "roce_dscp_prio", pol->roce_dscp, dp);
		dscp_map_evidence(f, src, "cnp_dscp_prio", pol->cnp_dscp, cp);
		rdc_ev_uint(f, "roce-dscp", SRC_POLICY, pol->roce_dscp);
		rdc_ev_uint(f, "roce-prio", SRC_POLICY, pol->roce_prio);
		rdc_ev_uint(f, "cnp-dscp", SRC_POLICY, pol->cnp_dscp);
		rdc_ev_uint(f, "cnp-prio", SRC_POLICY, pol->cnp_prio);
		rdc_finding_why(f, "%s", rdc_diag_str(why));
		qos_fix_profile(f, h, p);
		free(title);
		free(why);
	}
}

/* ---- qos.ets (#13) ------------------------------------------------------ */

static void check_ets(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		      struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct ieee_ets *ets = &p->dcb.ets;
		char src[RDC_DIAG_SOURCE_LEN], *title = NULL, shared[32], all[32];
		unsigned int tc, ctc, others = 0, in_tc = 0;
		struct rdc_finding *f;

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_ets) {
			rdc_diag_skip(r, c, p,
				      "the driver reports no IEEE ETS (DCB_ATTR_IEEE_ETS)");
			continue;
		}
		tc = ets->prio_tc[pol->roce_prio];
		ctc = ets->prio_tc[pol->cnp_prio];
		if (tc >= PRIOS || ctc >= PRIOS) {
			rdc_diag_skip(r, c, p, "the driver maps a priority to TC %u, beyond TC 7",
				      tc >= PRIOS ? tc : ctc);
			continue;
		}
		if (ets->tc_tsa[tc] == IEEE_8021QAZ_TSA_ETS) {
			if (ets->tc_tx_bw[tc] < pol->ets_min_bw_pct)
				rdc_diag_cat(&title, "RoCE TC %u has %u%% by ETS, below %g%%", tc,
					     ets->tc_tx_bw[tc], pol->ets_min_bw_pct);
		} else if (ets->tc_tsa[tc] != IEEE_8021QAZ_TSA_STRICT) {
			/* mlx5 reports "vendor" before anything was configured. */
			rdc_diag_cat(&title, "RoCE TC %u is %s, not ETS or strict", tc,
				     rdc_dcb_tsa_name(ets->tc_tsa[tc]));
		}
		/* With RoCE on priority 0 the profile shares TC 0 with the rest on purpose. */
		for (unsigned int prio = 0; prio < PRIOS && pol->roce_prio; prio++)
			if (prio != pol->roce_prio && ets->prio_tc[prio] == tc)
				others |= 1u << prio;
		if (others) {
			qos_prio_list(others, shared, sizeof(shared));
			rdc_diag_cat(&title, "%sRoCE TC %u also carries priorities %s",
				     title ? "; " : "", tc, shared);
		}
		if (ctc == tc && pol->cnp_prio != pol->roce_prio)
			rdc_diag_cat(&title, "%sCNPs share the RoCE TC %u", title ? "; " : "", tc);
		else if (ets->tc_tsa[ctc] != IEEE_8021QAZ_TSA_STRICT && pol->cnp_prio)
			/* (cnp-prio 0 puts CNPs into the ETS TC 0, as the profile does) */
			rdc_diag_cat(&title, "%sCNP TC %u is %s, not strict", title ? "; " : "",
				     ctc, rdc_dcb_tsa_name(ets->tc_tsa[ctc]));
		if (!title)
			continue;
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "%s", title);
		free(title);
		qos_dcb_source(p, "DCB_ATTR_IEEE_ETS", src, sizeof(src));
		/* The RoCE TC (prio_tc of roce-prio), its TSA, share and priorities; the CNP's TC. */
		rdc_ev_detail(rdc_ev_uint(f, "roce_tc", src, tc), "prio_tc of priority %u",
			      pol->roce_prio);
		rdc_ev_text(f, "roce_tc_tsa", src, "%s", rdc_dcb_tsa_name(ets->tc_tsa[tc]));
		rdc_ev_uint(f, "roce_tc_bw_pct", src, ets->tc_tx_bw[tc]);
		/* All of them, also where roce-prio 0 shares TC 0 on purpose (others is 0 then). */
		for (unsigned int prio = 0; prio < PRIOS; prio++)
			if (ets->prio_tc[prio] == tc)
				in_tc |= 1u << prio;
		qos_prio_list(in_tc, all, sizeof(all));
		rdc_ev_detail(rdc_ev_uint(f, "roce_tc_prios_count", src, qos_popcount(in_tc)),
			      "priorities %s", all);
		rdc_ev_detail(rdc_ev_uint(f, "cnp_tc", src, ctc), "prio_tc of priority %u",
			      pol->cnp_prio);
		rdc_ev_text(f, "cnp_tc_tsa", src, "%s", rdc_dcb_tsa_name(ets->tc_tsa[ctc]));
		rdc_ev_real(f, "ets-min-bw-pct", SRC_POLICY, pol->ets_min_bw_pct);
		rdc_ev_uint(f, "roce-prio", SRC_POLICY, pol->roce_prio);
		rdc_ev_uint(f, "cnp-prio", SRC_POLICY, pol->cnp_prio);
		rdc_finding_why(f,
				"The RoCE TC needs a guaranteed share of the link, alone: a small "
				"share, or bulk priorities in its TC, starve RoCE under load and "
				"turn its queue into PFC pauses; CNPs need a strict TC to go out "
				"ahead of the data they slow down");
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.global-pause (#14) --------------------------------------------- */

static void check_global_pause(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			       struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		uint64_t rxf = 0, txf = 0;
		bool have_rxf, have_txf, on, frames;
		struct rdc_finding *f;
		char src[RDC_DIAG_SOURCE_LEN], on_list[32];

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_pfc) {
			rdc_diag_skip(r, c, p,
				      "the driver reports no IEEE PFC (DCB_ATTR_IEEE_PFC)");
			continue;
		}
		/* Without PFC, link pause is the only flow control left (qos.pfc-off). */
		if (!p->dcb.pfc.pfc_en)
			continue;
		/* 802.3x frames seen in the window: only deltas say it is happening now. */
		have_rxf = !rdc_diag_delta(p, RDC_DIAG_NETDEV, "rx_pause_ctrl_phy", &rxf);
		have_txf = !rdc_diag_delta(p, RDC_DIAG_NETDEV, "tx_pause_ctrl_phy", &txf);
		if (!p->netif.have_pause && !have_rxf && !have_txf) {
			rdc_diag_skip(r, c, p, "pause settings not read: %s",
				      p->netif.pause_reason ? p->netif.pause_reason : "unknown");
			continue;
		}
		on = p->netif.have_pause && (p->netif.pause_rx || p->netif.pause_tx);
		frames = rxf || txf;
		if (!on && !frames)
			continue;
		qos_prio_list(p->dcb.pfc.pfc_en, on_list, sizeof(on_list));
		if (on)
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "link-level pause (802.3x) is on (rx %s, tx %s) while PFC "
					 "is on priorities %s",
					 p->netif.pause_rx ? "on" : "off",
					 p->netif.pause_tx ? "on" : "off", on_list);
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "link-level pause frames in the window (rx %llu, tx %llu) "
					 "while PFC is on priorities %s",
					 (unsigned long long)rxf, (unsigned long long)txf, on_list);
		if (p->netif.have_pause) {
			snprintf(src, sizeof(src), "ETHTOOL_GPAUSEPARAM %s", qos_netdev(p));
			/* struct ethtool_pauseparam's autoneg, rx_pause, tx_pause */
			rdc_ev_bool(f, "pause_autoneg", src, p->netif.pause_autoneg);
			rdc_ev_bool(f, "rx_pause", src, p->netif.pause_rx);
			rdc_ev_bool(f, "tx_pause", src, p->netif.pause_tx);
		}
		qos_dcb_source(p, "DCB_ATTR_IEEE_PFC", src, sizeof(src));
		qos_ev_pfc_en(f, src, p->dcb.pfc.pfc_en);
		if (have_rxf)
			qos_count_evidence(f, p, RDC_DIAG_NETDEV, "rx_pause_ctrl_phy", rxf, false);
		if (have_txf)
			qos_count_evidence(f, p, RDC_DIAG_NETDEV, "tx_pause_ctrl_phy", txf, false);
		rdc_finding_why(f,
				"Link-level pause stops every priority at once: one congested "
				"queue halts RoCE and all other traffic, and NICs differ in which "
				"of the two wins; with PFC, only the lossless priority should "
				"ever be paused");
		if (on)
			rdc_finding_fix_cmd(f, RDC_WORDS("ethtool", "-A", qos_netdev(p), "autoneg",
							 "off", "rx", "off", "tx", "off"));
		else
			rdc_finding_fix(f, "the peer sends 802.3x pause: turn link-level flow "
					   "control off on the switch port");
	}
}

/* ---- qos.pause-storm (#15) ---------------------------------------------- */

static void check_pause_storm(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char dur[40], *title = NULL;
		uint64_t us = 0, serr = 0, swarn = 0;
		bool have_err, have_warn, cerr = false, cwarn = false;
		enum rdc_severity sev = RDC_SEV_INFO;
		double pct = 0;
		struct rdc_finding *f;
		int drc;

		if (!qos_judged(h, c, p, r))
			continue;
		snprintf(dur, sizeof(dur), "tx_prio%u_pause_duration", pol->roce_prio);
		drc = qos_pause_pct(p, dur, &us, &pct);
		have_err =
			qos_count(p, RDC_DIAG_NETDEV, "tx_pause_storm_error_events", &serr, &cerr);
		have_warn = qos_count(p, RDC_DIAG_NETDEV, "tx_pause_storm_warning_events", &swarn,
				      &cwarn);
		if (drc && !have_err && !have_warn) {
			if (drc == -ENODATA)
				rdc_diag_skip(r, c, p,
					      "one sample: the paused share of %s needs a window "
					      "(interval > 0)",
					      dur);
			else
				rdc_diag_skip(
					r, c, p,
					"no %s or tx_pause_storm_* counters (ethtool -S; mlx5 "
					"has the duration only while PFC is on the priority)",
					dur);
			continue;
		}
		if (!drc && pct > pol->tx_pause_pct_warn) {
			sev = pct > pol->tx_pause_pct_fail ? RDC_SEV_FAIL : RDC_SEV_WARN;
			rdc_diag_cat(&title,
				     "paused the peer %.1f%% of the %.1f s window on priority %u",
				     pct, rdc_diag_window_s(p), pol->roce_prio);
		}
		if (have_err && serr) {
			/* The NIC's watchdog stopped sending pause: drops from here on. */
			if (!cerr)
				sev = RDC_SEV_FAIL;
			else if (sev < RDC_SEV_WARN)
				sev = RDC_SEV_WARN;
			rdc_diag_cat(&title, "%s%llu pause storm error events%s", title ? "; " : "",
				     (unsigned long long)serr,
				     cerr ? SINCE_BOOT : " in the window");
		}
		if (have_warn && swarn) {
			if (sev < RDC_SEV_WARN)
				sev = RDC_SEV_WARN;
			rdc_diag_cat(&title, "%s%llu pause storm warning events%s",
				     title ? "; " : "", (unsigned long long)swarn,
				     cwarn ? SINCE_BOOT : " in the window");
		}
		if (!title)
			continue;
		f = rdc_diag_add(r, c, p, sev, "%s", title);
		free(title);
		rdc_diag_counted(f, p);
		if (!drc)
			qos_pause_evidence(f, p, dur, us, "tx_pause_pct", pct, pol->roce_prio);
		if (have_err)
			qos_count_evidence(f, p, RDC_DIAG_NETDEV, "tx_pause_storm_error_events",
					   serr, cerr);
		if (have_warn)
			qos_count_evidence(f, p, RDC_DIAG_NETDEV, "tx_pause_storm_warning_events",
					   swarn, cwarn);
		rdc_ev_real(f, "tx-pause-pct-warn", SRC_POLICY, pol->tx_pause_pct_warn);
		rdc_ev_real(f, "tx-pause-pct-fail", SRC_POLICY, pol->tx_pause_pct_fail);
		rdc_finding_why(f,
				"This NIC cannot take in what arrives and pauses its peer: the "
				"back-pressure spreads through the fabric and blocks other flows. "
				"Storm events mean it paused so long that its watchdog stopped "
				"pausing; drops follow. Usual cause: a receiver slower than the "
				"link (CPU, PCIe, receive buffers)");
		rdc_finding_fix(f,
				"watch it: rdmactl port stats %s interval 1 (pause and "
				"out_of_buffer counters); then the receiving host's CPU and PCIe",
				qos_netdev(p));
	}
}

/* ---- qos.rx-pause (#16) ------------------------------------------------- */

static void check_rx_pause(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			   struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char dur[40];
		uint64_t us = 0;
		double pct = 0;
		struct rdc_finding *f;
		int rc;

		if (!qos_judged(h, c, p, r))
			continue;
		snprintf(dur, sizeof(dur), "rx_prio%u_pause_duration", pol->roce_prio);
		rc = qos_pause_pct(p, dur, &us, &pct);
		if (rc == -ENODATA) {
			rdc_diag_skip(r, c, p,
				      "one sample: the paused share of %s needs a window "
				      "(interval > 0)",
				      dur);
			continue;
		}
		if (rc) {
			rdc_diag_skip(r, c, p,
				      "no %s counter (ethtool -S; mlx5 has it only while PFC is on "
				      "the priority)",
				      dur);
			continue;
		}
		if (pct <= pol->rx_pause_pct_warn)
			continue;
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "paused by the peer %.1f%% of the %.1f s window on priority %u",
				 pct, rdc_diag_window_s(p), pol->roce_prio);
		qos_pause_evidence(f, p, dur, us, "rx_pause_pct", pct, pol->roce_prio);
		rdc_ev_real(f, "rx-pause-pct-warn", SRC_POLICY, pol->rx_pause_pct_warn);
		rdc_finding_why(f, "The switch held back this port's RoCE traffic that long: the "
				   "network in front of it is congested (incast, an oversubscribed "
				   "uplink). PFC keeps it lossless but throughput drops and pauses "
				   "spread; ECN should slow the senders before PFC has to "
				   "(qos.cnp-loop)");
		rdc_finding_fix(f,
				"check the switch: ECN marking on the RoCE queue must start below "
				"its PFC threshold; and the traffic pattern (many senders to one "
				"receiver)");
	}
}

/* ---- qos.lossless-drops (#17) ------------------------------------------- */

static void check_lossless_drops(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				 struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;
	/* mlx5's rx_prioP_*: drops for no receive buffer, no buffer, congestion (counters.rst). */
	static const char *const per_prio[] = {"discards", "buf_discard", "cong_discard"};

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char names[RDC_ARRAY_SIZE(per_prio)][40], src[RDC_DIAG_SOURCE_LEN];
		uint64_t v[RDC_ARRAY_SIZE(per_prio)], total = 0, phy = 0;
		bool have[RDC_ARRAY_SIZE(per_prio)], have_prio = false, have_phy, cum = false;
		struct rdc_finding *f;

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_pfc) {
			rdc_diag_skip(r, c, p,
				      "the driver reports no IEEE PFC (DCB_ATTR_IEEE_PFC)");
			continue;
		}
		if (!(p->dcb.pfc.pfc_en & (1u << pol->roce_prio))) {
			rdc_diag_skip(r, c, p,
				      "PFC is off on priority %u (qos.pfc-off): drops there are "
				      "not lossless drops",
				      pol->roce_prio);
			continue;
		}
		for (size_t k = 0; k < RDC_ARRAY_SIZE(per_prio); k++) {
			snprintf(names[k], sizeof(names[k]), "rx_prio%u_%s", pol->roce_prio,
				 per_prio[k]);
			have[k] = qos_count(p, RDC_DIAG_NETDEV, names[k], &v[k], &cum);
			if (have[k]) {
				have_prio = true;
				total += v[k];
			}
		}
		/*
		 * rx_discards_phy is port-wide (lossy priorities too): judged only
		 * where the driver has no per-priority counters.
		 */
		have_phy =
			!have_prio && qos_count(p, RDC_DIAG_NETDEV, "rx_discards_phy", &phy, &cum);
		if (!have_prio && !have_phy) {
			rdc_diag_skip(
				r, c, p,
				"no rx_prio%u_discards or rx_discards_phy counters (ethtool -S)",
				pol->roce_prio);
			continue;
		}
		if (have_phy)
			total = phy;
		if (!total)
			continue;
		if (have_prio)
			f = rdc_diag_add(r, c, p, cum ? RDC_SEV_WARN : RDC_SEV_FAIL,
					 "%llu packets dropped on the lossless priority %u%s",
					 (unsigned long long)total, pol->roce_prio,
					 cum ? SINCE_BOOT : " in the window");
		else
			f = rdc_diag_add(
				r, c, p, cum ? RDC_SEV_WARN : RDC_SEV_FAIL,
				"%llu packets dropped for lack of receive buffer%s while PFC "
				"is on",
				(unsigned long long)total, cum ? SINCE_BOOT : " in the window");
		rdc_diag_counted(f, p);
		for (size_t k = 0; k < RDC_ARRAY_SIZE(per_prio); k++)
			if (have[k])
				qos_count_evidence(f, p, RDC_DIAG_NETDEV, names[k], v[k], cum);
		if (have_phy)
			qos_count_evidence(f, p, RDC_DIAG_NETDEV, "rx_discards_phy", phy, cum);
		qos_dcb_source(p, "DCB_ATTR_IEEE_PFC", src, sizeof(src));
		/* pfc show's pfc.delay_bits (mlx5 takes it as the cable length in metres) */
		rdc_ev_uint(f, "pfc_delay_bits", src, p->dcb.pfc.delay);
		if (p->dcb.have_buffer) {
			const struct dcbnl_buffer *b = &p->dcb.buffer;
			unsigned int buf = b->prio2buffer[pol->roce_prio];

			/* pfc show's buffer section: prio_buffer, buffer_size_bytes, total_size_bytes */
			qos_dcb_source(p, "DCB_ATTR_DCB_BUFFER", src, sizeof(src));
			if (buf < PRIOS) {
				rdc_ev_detail(rdc_ev_uint(f, "prio_buffer", src, buf),
					      "the buffer of priority %u", pol->roce_prio);
				rdc_ev_detail(rdc_ev_uint(f, "buffer_size_bytes", src,
							  b->buffer_size[buf]),
					      "buffer %u", buf);
				rdc_ev_uint(f, "total_size_bytes", src, b->total_size);
			}
		}
		rdc_finding_why(f,
				"With PFC on, the NIC must pause its peer before its receive "
				"buffer overflows; drops mean the headroom for the frames still in "
				"flight is too small: the cable length (PFC delay) or the buffer "
				"split is wrong. Each drop costs RoCE a retransmission");
		rdc_finding_fix(f,
				"set the PFC delay to the cable's length (mlx5 takes metres, now "
				"%u: 'rdmactl pfc set dev %s delay' and the length), then check "
				"the buffers: 'rdmactl pfc show dev %s'",
				p->dcb.pfc.delay, qos_netdev(p), qos_netdev(p));
		rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "pfc", "show", "dev", qos_netdev(p)));
	}
}

/* ---- qos.ecn-off (#20) -------------------------------------------------- */

static void ecn_evidence(struct rdc_finding *f, const struct rdc_diag_port *p, bool rp,
			 unsigned int prio, int v)
{
	char path[RDC_DIAG_SOURCE_LEN];

	if (rdc_ofed_ecn_path(path, sizeof(path), qos_netdev(p), rp, prio) < 0)
		rdc_strlcpy(path, "ecn sysfs", sizeof(path));
	/* MLNX_OFED's ecn/roce_np/enable/P and ecn/roce_rp/enable/P, 0 or 1 */
	if (v < 0)
		rdc_ev_unknown(f, rp ? "roce_rp_enable" : "roce_np_enable", path, "unreadable");
	else
		rdc_ev_bool(f, rp ? "roce_rp_enable" : "roce_np_enable", path, v != 0);
}

static void check_ecn_off(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			  struct rdc_diag_result *r)
{
	const unsigned int prio = h->policy.roce_prio;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		struct rdc_finding *f;
		int np, rp;

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->ofed.have_ecn) {
			/* research §0.3: unknown, never "disabled", without a source. */
			rdc_diag_skip(r, c, p,
				      "no MLNX_OFED ecn sysfs (/sys/class/net/%s/ecn): upstream "
				      "mlx5 keeps ECN in firmware parameters (on by default), not "
				      "readable here",
				      qos_netdev(p));
			continue;
		}
		np = p->ofed.ecn_np[prio];
		rp = p->ofed.ecn_rp[prio];
		if (np && rp) {
			if (np < 0 || rp < 0)
				rdc_diag_skip(r, c, p, "ecn/roce_%s/enable/%u unreadable",
					      np < 0 ? "np" : "rp", prio);
			continue;
		}
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL, "ECN is off on the RoCE priority %u:%s%s",
				 prio, !np ? " notification point off" : "",
				 !rp ? (!np ? ", reaction point off" : " reaction point off") : "");
		ecn_evidence(f, p, false, prio, np);
		ecn_evidence(f, p, true, prio, rp);
		rdc_finding_why(f,
				"DCQCN needs both ends: without the notification point this host "
				"sends no CNPs for ECN-marked packets, so its senders never slow "
				"down; without the reaction point it ignores CNPs and keeps its "
				"rate. Congestion is then left to PFC alone: pauses and spreading");
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.cnp-loop (#21) ------------------------------------------------- */

static void check_cnp_loop(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			   struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		uint64_t marked = 0, sent = 0, handled = 0, ignored = 0, us = 0;
		bool hm, hs, hh, hi, cm = false, cs = false, ch = false, ci = false;
		bool np_off, rp_off, unmarked = false;
		char *title = NULL, dur[40];
		double pct = 0;
		struct rdc_finding *f;

		if (!qos_judged(h, c, p, r))
			continue;
		hm = qos_count(p, RDC_DIAG_HW, "np_ecn_marked_roce_packets", &marked, &cm);
		hs = qos_count(p, RDC_DIAG_HW, "np_cnp_sent", &sent, &cs);
		hh = qos_count(p, RDC_DIAG_HW, "rp_cnp_handled", &handled, &ch);
		hi = qos_count(p, RDC_DIAG_HW, "rp_cnp_ignored", &ignored, &ci);
		if (!hm && !hs && !hh && !hi) {
			rdc_diag_skip(
				r, c, p,
				"no congestion counters (np_ecn_marked_roce_packets, "
				"np_cnp_sent, rp_cnp_handled, rp_cnp_ignored) in hw_counters");
			continue;
		}
		/* Marked packets came in, no CNP went out: the notification point is off. */
		np_off = hm && hs && marked && !sent;
		/* mlx5: CNPs received and ignored, "verify that ECN was enabled". */
		rp_off = hi && ignored;
		/*
		 * The peer paused us for long, yet no CNP arrived: nothing on the
		 * path marks ECN before PFC (or the peer's notification point is off).
		 */
		snprintf(dur, sizeof(dur), "rx_prio%u_pause_duration", pol->roce_prio);
		/* CNPs that arrived and were ignored did arrive: that is rp_off, not this. */
		if (hh && !handled && !(hi && ignored) && !qos_pause_pct(p, dur, &us, &pct))
			unmarked = pct > pol->rx_pause_pct_warn;
		if (np_off)
			rdc_diag_cat(&title, "%llu ECN-marked RoCE packets received%s, no CNP sent",
				     (unsigned long long)marked, cm ? SINCE_BOOT : "");
		if (rp_off)
			rdc_diag_cat(&title, "%s%llu CNPs ignored%s", title ? "; " : "",
				     (unsigned long long)ignored,
				     ci ? SINCE_BOOT : " in the window");
		if (unmarked)
			rdc_diag_cat(
				&title,
				"%spaused %.1f%% of the window by the peer, but no CNP arrived",
				title ? "; " : "", pct);
		if (!title)
			continue;
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "%s", title);
		free(title);
		rdc_diag_counted(f, p);
		if (hm)
			qos_count_evidence(f, p, RDC_DIAG_HW, "np_ecn_marked_roce_packets", marked,
					   cm);
		if (hs)
			qos_count_evidence(f, p, RDC_DIAG_HW, "np_cnp_sent", sent, cs);
		if (hh)
			qos_count_evidence(f, p, RDC_DIAG_HW, "rp_cnp_handled", handled, ch);
		if (hi)
			qos_count_evidence(f, p, RDC_DIAG_HW, "rp_cnp_ignored", ignored, ci);
		if (unmarked)
			qos_pause_evidence(f, p, dur, us, "rx_pause_pct", pct, pol->roce_prio);
		/* One sentence per fault found, so the text never blames ECN for what it did not see. */
		rdc_finding_why(
			f,
			"DCQCN is a loop: switches mark ECN, receivers answer with CNPs, "
			"senders slow down.%s%s%s Congestion is left to PFC.",
			np_off ? " Here marked packets get no CNP back: this host's "
				 "notification point is off."
			       : "",
			rp_off ? " Here CNPs are ignored: this host's reaction point is off." : "",
			unmarked ? " Here PFC pauses come with no CNP: switches do not mark "
				   "ECN before pausing, or the peer's notification point is "
				   "off."
				 : "");
		if ((np_off || rp_off) && p->ofed.have_ecn)
			qos_fix_profile(f, h, p);
		else if (np_off || rp_off)
			rdc_finding_fix(
				f,
				"enable congestion control for priority %u in the firmware "
				"(mlxconfig ROCE_CC_PRIO_MASK_P1/_P2) and check the switch's "
				"ECN marking",
				pol->roce_prio);
		else
			rdc_finding_fix(
				f, "on the switches, enable ECN marking on the RoCE queue below "
				   "its PFC threshold; check ECN on the peers");
	}
}

/* ---- qos.cnp-inconsistent (#22) ----------------------------------------- */

/* Whether the port's CNP DSCP or priority was read from MLNX_OFED's files. */
static bool cnp_readable(const struct rdc_diag_port *p)
{
	return p->ofed.have_ecn && (p->ofed.cnp_dscp >= 0 || p->ofed.cnp_prio >= 0);
}

static void cnp_value(char *buf, size_t size, int64_t v)
{
	if (v < 0)
		rdc_strlcpy(buf, "?", size);
	else
		snprintf(buf, size, "%lld", (long long)v);
}

/* One of MLNX_OFED's CNP files (@attr "cnp_dscp", "cnp_802p_prio") as evidence: @v, or unreadable. */
static void cnp_evidence(struct rdc_finding *f, const struct rdc_diag_port *p, const char *attr,
			 int64_t v)
{
	char path[RDC_DIAG_SOURCE_LEN];

	if (rdc_ofed_cnp_path(path, sizeof(path), qos_netdev(p), attr) < 0)
		rdc_strlcpy(path, "ecn sysfs", sizeof(path));
	if (v < 0)
		rdc_ev_unknown(f, attr, path, "unreadable");
	else
		rdc_ev_uint(f, attr, path, (uint64_t)v);
}

static void check_cnp_inconsistent(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				   struct rdc_diag_result *r)
{
	const struct rdc_diag_policy *pol = &h->policy;

	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char *others = NULL, dscp[24], prio[24];
		struct rdc_finding *f;

		if (!qos_judged(h, c, p, r))
			continue;
		if (!cnp_readable(p)) {
			rdc_diag_skip(r, c, p,
				      "no MLNX_OFED ecn/roce_np/cnp_dscp or cnp_802p_prio: the "
				      "CNP's DSCP and priority are firmware parameters (mlxconfig "
				      "CNP_DSCP_P1, CNP_802P_PRIO_P1), not readable here");
			continue;
		}
		if ((p->ofed.cnp_dscp < 0 || p->ofed.cnp_dscp == pol->cnp_dscp) &&
		    (p->ofed.cnp_prio < 0 || p->ofed.cnp_prio == pol->cnp_prio))
			continue;
		/* The other ports whose CNPs differ from this one's: the fabric sees both. */
		for (size_t k = 0; k < h->nports; k++) {
			const struct rdc_diag_port *o = &h->ports[k];

			if (k == i || !rdc_diag_port_roce(o) || !cnp_readable(o) ||
			    (o->ofed.cnp_dscp == p->ofed.cnp_dscp &&
			     o->ofed.cnp_prio == p->ofed.cnp_prio))
				continue;
			cnp_value(dscp, sizeof(dscp), o->ofed.cnp_dscp);
			cnp_value(prio, sizeof(prio), o->ofed.cnp_prio);
			rdc_diag_cat(&others, "%s%s DSCP %s priority %s", others ? ", " : "",
				     o->label, dscp, prio);
		}
		cnp_value(dscp, sizeof(dscp), p->ofed.cnp_dscp);
		cnp_value(prio, sizeof(prio), p->ofed.cnp_prio);
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "CNPs go out with DSCP %s and priority %s, not %u and %u%s", dscp,
				 prio, pol->cnp_dscp, pol->cnp_prio,
				 others ? "; other ports differ" : "");
		cnp_evidence(f, p, "cnp_dscp", p->ofed.cnp_dscp);
		cnp_evidence(f, p, "cnp_802p_prio", p->ofed.cnp_prio);
		rdc_ev_uint(f, "cnp-dscp", SRC_POLICY, pol->cnp_dscp);
		rdc_ev_uint(f, "cnp-prio", SRC_POLICY, pol->cnp_prio);
		/* A list in words: each port's label, its CNP DSCP and priority ("?" unreadable). */
		if (others)
			rdc_ev_text(f, "cnp_other_ports", "/sys/class/net/*/ecn/roce_np", "%s",
				    others);
		free(others);
		rdc_finding_why(f,
				"CNPs must reach the senders fast, in the strict class the "
				"switches keep for them (DSCP %u, priority %u); elsewhere they sit "
				"in a data queue or are paused by PFC, and ports that differ make "
				"congestion control uneven across links",
				pol->cnp_dscp, pol->cnp_prio);
		qos_fix_profile(f, h, p);
	}
}

/* ---- qos.dcbx-fight (#30) ----------------------------------------------- */

/* The DCB_CAP_DCBX_* bits of @x in words: "lld-managed ieee". */
static void dcbx_names(uint8_t x, char *buf, size_t size)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} bits[] = {
		{DCB_CAP_DCBX_HOST, "host"},	 {DCB_CAP_DCBX_LLD_MANAGED, "lld-managed"},
		{DCB_CAP_DCBX_VER_CEE, "cee"},	 {DCB_CAP_DCBX_VER_IEEE, "ieee"},
		{DCB_CAP_DCBX_STATIC, "static"},
	};

	buf[0] = '\0';
	for (size_t i = 0, n = 0; i < RDC_ARRAY_SIZE(bits); i++)
		if (x & bits[i].bit)
			rdc_diag_append(buf, size, "%s%s", n++ ? " " : "", bits[i].name);
	if (!buf[0])
		rdc_strlcpy(buf, "no mode", size);
}

static void check_dcbx_fight(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			     struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const uint8_t x = p->dcb.dcbx;
		char src[RDC_DIAG_SOURCE_LEN], names[64];
		struct rdc_finding *f;
		bool lld, firmware;

		if (!qos_judged(h, c, p, r))
			continue;
		if (!p->dcb.have_dcbx) {
			rdc_diag_skip(r, c, p, "the driver reports no DCBX mode (DCB_ATTR_DCBX)");
			continue;
		}
		lld = x & DCB_CAP_DCBX_LLD_MANAGED;
		/*
		 * mlx5 without DCB_CAP_DCBX_HOST runs DCBX in firmware: what the
		 * switch advertises can replace the host's settings.  That is a
		 * valid way to deploy, so it is context (info), not a warning.
		 */
		firmware = !lld && !(x & (DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_STATIC)) &&
			   (x & (DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE));
		if (!lld && !firmware)
			continue;
		if (lld)
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "an LLDP agent manages DCB (DCBX lld-managed): it can "
					 "overwrite what the host sets");
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_INFO,
					 "DCBX runs in the NIC firmware: the switch's settings can "
					 "replace the host's");
		qos_dcb_source(p, "DCB_ATTR_DCBX", src, sizeof(src));
		dcbx_names(x, names, sizeof(names));
		rdc_ev_detail(rdc_ev_uint(f, "dcbx", src, x), "%s", names);
		if (p->dcb.have_ets) {
			/* struct ieee_ets's willing (pfc show's ets.willing) */
			qos_dcb_source(p, "DCB_ATTR_IEEE_ETS", src, sizeof(src));
			rdc_ev_bool(f, "willing", src, p->dcb.ets.willing);
		}
		if (lld) {
			rdc_finding_why(
				f, "lldpad (or another agent) re-applies its own DCB config "
				   "and what the switch advertises: changes made with rdmactl, "
				   "dcb or mlnx_qos silently revert, and the two fight over "
				   "the port");
			rdc_finding_fix(
				f,
				"stop the agent's DCB on the port (lldptool set-lldp -i %s "
				"adminStatus=disabled, or run lldpd, which has no DCBX), then "
				"set DCB on the host",
				qos_netdev(p));
		} else {
			rdc_finding_why(
				f, "In firmware mode the NIC takes what a willing exchange with "
				   "the switch gives; host changes through dcbnl switch mlx5 to "
				   "host mode. Either is fine as long as one side owns the config");
			rdc_finding_fix(f,
					"to own it on the host: dcb dcbx set dev %s host cee ieee",
					qos_netdev(p));
			rdc_finding_fix_cmd(f, RDC_WORDS("dcb", "dcbx", "set", "dev", qos_netdev(p),
							 "host", "cee", "ieee"));
		}
	}
}

/* ---- qos.members-differ ------------------------------------------------- */

/* The RoCE members of @p's bond from @p on, into @t/@dcbs; 0 when an earlier port had the bond. */
static size_t qos_members(const struct rdc_diag_host *h, size_t i, struct rdc_dcb_target *t,
			  const struct rdc_dcb **dcbs)
{
	const char *bond = h->ports[i].bond;
	size_t n = 0;

	for (size_t k = 0; k < i; k++)
		if (!strcmp(h->ports[k].bond, bond) && rdc_diag_port_roce(&h->ports[k]))
			return 0;
	for (size_t k = i; k < h->nports && n < RDC_MEMBERS_MAX; k++) {
		const struct rdc_diag_port *m = &h->ports[k];

		if (strcmp(m->bond, bond) || !rdc_diag_port_roce(m))
			continue;
		memset(&t[n], 0, sizeof(t[n]));
		rdc_strlcpy(t[n].netdev, m->port.netdev.name, sizeof(t[n].netdev));
		dcbs[n++] = m->dcb_rc == 0 && m->dcb.supported ? &m->dcb : NULL;
	}
	return n;
}

/*
 * A bond's members must carry one QoS (dcb/members.h): traffic hashed or
 * failed over to a member without PFC on the RoCE priority is dropped, one
 * with another DSCP map queues it elsewhere, a smaller MTU or slower link
 * caps the bond.  The same comparison as `pfc show`'s bonds[].
 */
static void check_members_differ(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
				 struct rdc_diag_result *r)
{
	struct rdc_members_agreement *a = calloc(1, sizeof(*a));
	struct rdc_dcb_target t[RDC_MEMBERS_MAX];
	const struct rdc_dcb *dcbs[RDC_MEMBERS_MAX];

	if (!a) {
		rdc_diag_skip(r, c, NULL, "out of memory");
		return;
	}
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		char *what = NULL, src[RDC_DIAG_SOURCE_LEN];
		struct rdc_finding *f;
		size_t n;

		if (!p->bond[0] || !rdc_diag_port_roce(p))
			continue;
		n = qos_members(h, i, t, dcbs);
		if (!n)
			continue;
		if (n < 2) {
			rdc_diag_skip(r, c, p, "%s has one RoCE member: nothing to compare",
				      p->bond);
			continue;
		}
		rdc_members_compare(t, dcbs, n, a);
		if (a->result == RDC_MEMBERS_AGREE)
			continue;
		if (a->result == RDC_MEMBERS_UNKNOWN) {
			rdc_diag_skip(r, c, p, "%s: MTU and speed agree, DCB not compared: %s",
				      p->bond, a->reason);
			continue;
		}
		for (size_t d = 0; d < a->ndiffs; d++)
			rdc_diag_cat(&what, "%s%s", d ? ", " : "", a->diffs[d].label);
		/* About the bond, not one port: listed with the bonds. */
		f = rdc_diag_add_bond(r, c, p->bond, RDC_SEV_FAIL, "members of %s differ: %s",
				      p->bond, rdc_diag_str(what));
		free(what);
		for (size_t d = 0; d < a->ndiffs; d++) {
			const struct rdc_members_diff *df = &a->diffs[d];
			char *value = NULL;

			for (size_t m = 0; m < df->count; m++)
				rdc_diag_cat(&value, "%s%s %s", m ? ", " : "", df->values[m].netdev,
					     df->values[m].value);
			if (!strcmp(df->what, "mtu_bytes") || !strcmp(df->what, "speed_mbps"))
				snprintf(src, sizeof(src), "/sys/class/net/IF/%s",
					 !strcmp(df->what, "mtu_bytes") ? "mtu" : "speed");
			else
				snprintf(src, sizeof(src), DCB_READS_ALL " of each member");
			/*
			 * Named as pfc show's bonds[].differences[].what names the same
			 * comparison ("pfc.enabled_prios", "mtu_bytes"); the value is a
			 * list in words, each member and what it has.
			 */
			rdc_ev_text(f, df->what, src, "%s", rdc_diag_str(value));
			free(value);
		}
		rdc_finding_why(f, "the bond hashes (or fails over) RoCE traffic to any member: a "
				   "member without the same PFC, trust and DSCP map drops or "
				   "misqueues it under congestion, and one with a smaller MTU or a "
				   "slower link caps the whole bond");
		{
			struct rdc_argv cmd;
			/* Any joined command fits: every word quoted, each ' as '\''. */
			char line[RDC_ARGV_MAX * (4 * RDC_ARGV_WORD + 3)];

			qos_profile_cmd(h, p->bond, &cmd);
			rdc_argv_join(&cmd, line, sizeof(line));
			rdc_finding_fix(f,
					"give every member the same settings: '%s' (and one MTU "
					"and speed for the members)",
					line);
			rdc_finding_fix_argv(f, &cmd);
		}
	}
	free(a);
}

/* ---- the table ---------------------------------------------------------- */

static const struct rdc_diag_check checks[] = {
	{"qos.pfc-off", RDC_SEV_FAIL, "PFC is on for the RoCE priority",
	 DCB_READS " (IEEE PFC pfc_en)", "PFC off on the RoCE priority (roce-prio) F",
	 check_pfc_off},
	{"qos.pfc-too-many", RDC_SEV_WARN, "PFC on the RoCE priority only, never on the CNP's",
	 DCB_READS " (IEEE PFC pfc_en, pfc_cap)",
	 "PFC on the CNP priority (cnp-prio), on more than pfc_cap, or on others besides RoCE's W",
	 check_pfc_too_many},
	{"qos.trust", RDC_SEV_FAIL, "the port classifies by DSCP (trust dscp)",
	 "/sys/class/net/IF/qos/trust (MLNX_OFED), else " DCB_READS " (APP table DSCP entries)",
	 "trust not dscp F", check_trust},
	{"qos.dscp-map", RDC_SEV_FAIL, "the DSCP map sends RoCE data and CNPs to their priorities",
	 DCB_READS " (APP table, selector 5)",
	 "RoCE DSCP (roce-dscp) to another priority than roce-prio F, without an entry W; CNP "
	 "DSCP (cnp-dscp) not to cnp-prio W",
	 check_dscp_map},
	{"qos.ets", RDC_SEV_WARN, "the RoCE TC gets its ETS share alone; the CNP TC is strict",
	 DCB_READS " (IEEE ETS prio_tc, tc_tsa, tc_bw)",
	 "RoCE TC share < 50% (ets-min-bw-pct), neither ETS nor strict, or shared with other "
	 "priorities W; CNP TC not strict W",
	 check_ets},
	{"qos.global-pause", RDC_SEV_WARN, "no link-level (802.3x) pause together with PFC",
	 "ETHTOOL_GPAUSEPARAM; " DCB_READS " (IEEE PFC); ethtool -S rx/tx_pause_ctrl_phy",
	 "pause rx or tx on, or pause frames in the window, while PFC is on W", check_global_pause},
	{"qos.pause-storm", RDC_SEV_FAIL, "this port pauses its peer too long",
	 "ethtool -S tx_prioP_pause_duration (us), tx_pause_storm_{warning,error}_events",
	 "> 10% of the window (tx-pause-pct-warn) W, > 50% (tx-pause-pct-fail) F; storm error "
	 "events > 0 in the window F, since boot W; warning events > 0 W",
	 check_pause_storm},
	{"qos.rx-pause", RDC_SEV_WARN, "the peer pauses this port too long",
	 "ethtool -S rx_prioP_pause_duration (us)", "> 10% of the window (rx-pause-pct-warn) W",
	 check_rx_pause},
	{"qos.lossless-drops", RDC_SEV_FAIL, "no drops on the lossless priority",
	 "ethtool -S rx_prioP_discards, rx_prioP_buf_discard, rx_prioP_cong_discard, else "
	 "rx_discards_phy; " DCB_READS " (PFC delay, buffers)",
	 "> 0 in the window while PFC is on the RoCE priority F; > 0 since boot (one sample) W",
	 check_lossless_drops},
	{"qos.ecn-off", RDC_SEV_FAIL, "ECN (DCQCN) is on for the RoCE priority",
	 "/sys/class/net/IF/ecn/roce_{np,rp}/enable/P (MLNX_OFED)",
	 "notification or reaction point off on the RoCE priority F; unreadable: skipped",
	 check_ecn_off},
	{"qos.cnp-loop", RDC_SEV_WARN, "congestion notifications flow: ECN marks, CNPs, slowdown",
	 "hw_counters/np_ecn_marked_roce_packets, np_cnp_sent, rp_cnp_handled, rp_cnp_ignored; "
	 "ethtool -S rx_prioP_pause_duration",
	 "marked > 0 with no CNP sent W; CNPs ignored > 0 W; paused > 10% (rx-pause-pct-warn) "
	 "with no CNP received (none handled, none ignored) W",
	 check_cnp_loop},
	{"qos.cnp-inconsistent", RDC_SEV_WARN,
	 "CNPs use the policy's DSCP and priority on every port",
	 "/sys/class/net/IF/ecn/roce_np/cnp_dscp, cnp_802p_prio (MLNX_OFED)",
	 "not DSCP 48 (cnp-dscp) and priority 6 (cnp-prio) W; the ports that differ are named",
	 check_cnp_inconsistent},
	{"qos.members-differ", RDC_SEV_FAIL, "a bond's members carry the same QoS, MTU and speed",
	 DCB_READS " (IEEE PFC, ETS, APP) and MLNX_OFED qos/trust of each member; "
		   "/sys/class/net/IF/{mtu,speed}",
	 "PFC priorities or delay, trust, DSCP map, ETS, MTU or speed differ among a bond's "
	 "members F",
	 check_members_differ},
	{"qos.dcbx-fight", RDC_SEV_WARN, "one owner of the DCB settings",
	 DCB_READS " (DCB_ATTR_DCBX)",
	 "an LLDP agent manages DCB (lld-managed) W; DCBX in firmware I", check_dcbx_fight},
};

const struct rdc_diag_family rdc_diag_family_qos = {"qos", checks, RDC_ARRAY_SIZE(checks)};
