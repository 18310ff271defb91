// SPDX-License-Identifier: GPL-2.0-or-later
/* link.c - diag checks of the wire: port state, carrier, flaps, speed, errors, FEC, MTU, module */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "diag/diag.h"

#define IB_CLASS "/sys/class/infiniband"
#define NET_CLASS "/sys/class/net"

/* IB PortState and PortPhysicalState numbers (what ports/N/state and phys_state print first). */
#define PORT_STATE_INIT 2
#define PORT_STATE_ARMED 3
#define PORT_STATE_ACTIVE 4
#define PHYS_STATE_DISABLED 3
#define PHYS_STATE_LINK_UP 5

/* ---- helpers ----------------------------------------------------------- */

/*
 * The netdev's operstate for a title: "?" when the file exists but could not
 * be read (host/netdev.c recorded why in the port's netdev issues) or is
 * absent, never an empty value.
 */
static const char *link_operstate(const struct rdc_diag_port *p)
{
	return p->port.netdev.operstate[0] ? p->port.netdev.operstate : "?";
}

/* The same as evidence: the kernel's word, or null ("not read") where it is unknown. */
static void link_operstate_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
				    const char *src)
{
	if (p->port.netdev.operstate[0])
		rdc_ev_text(f, "operstate", src, "%s", p->port.netdev.operstate);
	else
		rdc_ev_unknown(f, "operstate", src, "not read");
}

/*
 * An IB port state as evidence: the name `port show` gives it ("DOWN"),
 * the number the kernel's file starts with in the detail.
 */
static void link_state_evidence(struct rdc_finding *f, const char *name, const char *src,
				const char *word, int num, const char *what)
{
	rdc_ev_detail(word[0] ? rdc_ev_text(f, name, src, "%s", word)
			      : rdc_ev_unknown(f, name, src, "unknown state"),
		      "%s %d", what, num);
}

/* "in the last 5.0 s" with two samples, "since the counters were reset" with one. */
static void link_span(const struct rdc_diag_port *p, char *buf, size_t size)
{
	if (p->nsamples >= 2)
		snprintf(buf, size, "in the last %.1f s", rdc_diag_window_s(p));
	else
		snprintf(buf, size, "since the counters were reset");
}

/*
 * A counter as a check judges it: its rise over the window with two
 * samples, its value (since boot or the driver's load) with one.
 * 0, or -ENOENT when the port has no such counter.
 */
static int link_count(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		      uint64_t *v)
{
	int rc = p->nsamples >= 2 ? rdc_diag_delta(p, set, name, v)
				  : rdc_diag_counter(p, set, name, v);

	return rc ? -ENOENT : 0;
}

/*
 * One counter as evidence: over the window (its total now, delta, window_s)
 * with two samples, its total since the counter's reset with one.
 */
static void link_counter_evidence(struct rdc_finding *f, const struct rdc_diag_port *p,
				  enum rdc_diag_set set, const char *name)
{
	char src[160];
	uint64_t now, d;

	if (rdc_diag_counter(p, set, name, &now))
		return;
	rdc_diag_counter_source(p, set, name, src, sizeof(src));
	if (!rdc_diag_delta(p, set, name, &d))
		rdc_ev_window(f, name, src, d, rdc_diag_window_s(p), now);
	else
		rdc_ev_counter(f, name, src, now);
}

struct link_counter {
	enum rdc_diag_set set;
	const char *name;
};

/*
 * Judge a list of error counters on @p: the ones that rose (two samples) or
 * are non-zero (one sample) are listed in @list ("rx_crc_errors_phy +3, ...")
 * and flagged in @hit.  Returns how many of them the port has at all.
 */
static size_t link_counters_scan(const struct rdc_diag_port *p, const struct link_counter *cs,
				 size_t n, bool *hit, char *list, size_t size)
{
	size_t have = 0, left_out = 0;

	list[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char one[96];
		uint64_t v;

		hit[i] = false;
		if (link_count(p, cs[i].set, cs[i].name, &v))
			continue;
		have++;
		if (!v)
			continue;
		hit[i] = true;
		snprintf(one, sizeof(one), "%s%s %s%" PRIu64, list[0] ? ", " : "", cs[i].name,
			 p->nsamples >= 2 ? "+" : "", v);
		/* Room for this one and ", and 9 more": the evidence has them all. */
		if (left_out || strlen(list) + strlen(one) + 16 > size)
			left_out++;
		else
			rdc_diag_append(list, size, "%s", one);
	}
	if (left_out)
		rdc_diag_append(list, size, ", and %zu more", left_out);
	return have;
}

static bool link_any(const bool *hit, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (hit[i])
			return true;
	return false;
}

/* ---- link.port-not-active (#1) ----------------------------------------- */

static void check_port_active(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		bool ib = !strcmp(p->port.link_layer, "InfiniBand");
		struct rdc_finding *f;
		char src[160];

		/* The RDMA port itself: once, not per RoCE LAG member. */
		if (!rdc_diag_port_rdma(p))
			continue;

		if (p->port.state < 0) {
			rdc_diag_skip(r, c, p, "%s/%s/ports/%u/state could not be read", IB_CLASS,
				      p->port.device, p->port.port);
			continue;
		}
		if (p->port.state == PORT_STATE_ACTIVE &&
		    (p->port.phys_state < 0 || p->port.phys_state == PHYS_STATE_LINK_UP))
			continue;

		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL, "port is %s (physical %s), not ACTIVE",
				 p->port.state_name, p->port.phys_state_name);
		snprintf(src, sizeof(src), IB_CLASS "/%s/ports/%u/state", p->port.device,
			 p->port.port);
		link_state_evidence(f, "state", src, p->port.state_name, p->port.state,
				    "PortState");
		if (p->port.phys_state >= 0) {
			snprintf(src, sizeof(src), IB_CLASS "/%s/ports/%u/phys_state",
				 p->port.device, p->port.port);
			link_state_evidence(f, "phys_state", src, p->port.phys_state_name,
					    p->port.phys_state, "PortPhysicalState");
		}
		if (nd) {
			snprintf(src, sizeof(src), NET_CLASS "/%s/operstate", nd);
			link_operstate_evidence(f, p, src);
		}

		if (ib && p->port.phys_state == PHYS_STATE_LINK_UP &&
		    (p->port.state == PORT_STATE_INIT || p->port.state == PORT_STATE_ARMED)) {
			rdc_finding_why(
				f,
				"the cable is up but no subnet manager has configured the port "
				"(%s): it has no LID, so no QP can reach it or leave through it",
				p->port.state_name);
			rdc_finding_fix(f, "run a subnet manager on the fabric: 'systemctl start "
					   "opensm' on one node, or enable the managed switch's "
					   "SM; 'sminfo' shows the master SM");
			continue;
		}
		rdc_finding_why(f, "no connection can be set up over a port that is not ACTIVE and "
				   "the QPs already on it fail (retry exceeded): RDMA traffic "
				   "stops or must use another port");
		if (nd && p->netif.admin_up == 0) {
			rdc_finding_fix(f, "bring its netdev up: 'rdmactl port set %s up'", nd);
			rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "port", "set", nd, "up"));
		} else if (nd && p->port.netdev.is_bond) {
			rdc_finding_fix(f,
					"see which members are down: 'rdmactl bond show %s'; check "
					"their cables, modules and switch ports",
					nd);
			rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "bond", "show", nd));
		} else if (nd)
			rdc_finding_fix(f,
					"check the cable, the module and the switch port: 'ethtool "
					"%s' shows the link, 'ethtool -m %s' the module",
					nd, nd);
		else
			rdc_finding_fix(f,
					"check the cable, the module and the switch port; 'ibstat "
					"%s %u' shows the port",
					p->port.device, p->port.port);
	}
}

/* ---- link.no-carrier (#2) ---------------------------------------------- */

static void check_no_carrier(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			     struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct rdc_netif *n = &p->netif;
		const char *nd = rdc_diag_netdev(p);
		char flags_src[96], oper_src[96];
		struct rdc_finding *f;

		if (!nd) {
			rdc_diag_skip(r, c, p, "the port has no netdev");
			continue;
		}
		if (n->admin_up < 0 && n->carrier < 0) {
			rdc_diag_skip(r, c, p, "%s/%s/flags and carrier could not be read",
				      NET_CLASS, nd);
			continue;
		}
		snprintf(flags_src, sizeof(flags_src), NET_CLASS "/%s/flags", nd);
		snprintf(oper_src, sizeof(oper_src), NET_CLASS "/%s/operstate", nd);
		if (n->admin_up == 0) {
			f = rdc_diag_add(r, c, p, RDC_SEV_FAIL, "%s is administratively down", nd);
			rdc_ev_detail(rdc_ev_bool(f, "admin_up", flags_src, false), "IFF_UP clear");
			link_operstate_evidence(f, p, oper_src);
			rdc_finding_why(f, "a netdev that is down carries no frames, so its RDMA "
					   "port is DOWN too: no connection, no traffic");
			rdc_finding_fix(f, "'rdmactl port set %s up'", nd);
			rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "port", "set", nd, "up"));
			continue;
		}
		if (n->carrier != 0) {
			if (n->carrier < 0)
				rdc_diag_skip(r, c, p, "%s could not be read",
					      n->carrier_source[0] ? n->carrier_source : "carrier");
			continue;
		}
		f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
				 "%s is up but has no carrier (operstate %s)", nd,
				 link_operstate(p));
		if (n->admin_up == 1)
			rdc_ev_detail(rdc_ev_bool(f, "admin_up", flags_src, true), "IFF_UP set");
		rdc_ev_bool(f, "carrier", n->carrier_source, false);
		link_operstate_evidence(f, p, oper_src);
		if (p->port.netdev.is_bond) {
			rdc_finding_why(f, "none of the bond's members has a link: the bond and "
					   "its RDMA port carry nothing");
			rdc_finding_fix(f,
					"see which members are down: 'rdmactl bond show %s'; check "
					"their cables, modules and switch ports",
					nd);
		} else {
			rdc_finding_why(
				f,
				"the link to the switch is down (cable, module, or the switch port "
				"is shut or mis-set): no frame passes and the RDMA port is DOWN");
			rdc_finding_fix(
				f,
				"check the cable, the module and the switch port: 'ethtool %s' "
				"(Link detected, speed), 'ethtool -m %s' (module, Rx power)",
				nd, nd);
		}
	}
}

/* ---- link.flapping (#3) ------------------------------------------------- */

static const struct link_counter flap_counters[] = {
	{RDC_DIAG_NETDEV, "link_down_events_phy"},
	{RDC_DIAG_IB, "link_downed"},
};

static void check_flapping(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			   struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		bool hit[RDC_ARRAY_SIZE(flap_counters)];
		int64_t cc0 = -1, cc1 = -1, cc;
		char list[128], cc_src[96] = "";
		size_t have;
		struct rdc_finding *f;

		if (nd)
			snprintf(cc_src, sizeof(cc_src), NET_CLASS "/%s/carrier_changes", nd);
		if (p->nsamples >= 2) {
			cc0 = p->s[0].carrier_changes;
			cc1 = p->s[1].carrier_changes;
		}
		have = link_counters_scan(p, flap_counters, RDC_ARRAY_SIZE(flap_counters), hit,
					  list, sizeof(list));

		/* Two samples: any link loss inside the window is a fail. */
		if (p->nsamples >= 2) {
			uint64_t dcc = 0;

			if (cc0 >= 0 && cc1 >= 0) {
				/* A netdev re-created in between counts from 0 again. */
				dcc = (uint64_t)(cc1 >= cc0 ? cc1 - cc0 : cc1);
				if (dcc)
					rdc_diag_append(list, sizeof(list),
							"%scarrier changes +%" PRIu64,
							list[0] ? ", " : "", dcc);
			}
			if (link_any(hit, RDC_ARRAY_SIZE(hit)) || dcc) {
				f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
						 "link went down in the last %.1f s: %s",
						 rdc_diag_window_s(p), list);
				for (size_t k = 0; k < RDC_ARRAY_SIZE(flap_counters); k++)
					link_counter_evidence(f, p, flap_counters[k].set,
							      flap_counters[k].name);
				if (cc0 >= 0 && cc1 >= 0)
					rdc_ev_window(f, "carrier_changes", cc_src, dcc,
						      rdc_diag_window_s(p), (uint64_t)cc1);
				rdc_finding_why(f, "every time the link drops, the frames in "
						   "flight are lost and RoCE QPs stall until their "
						   "retransmit timer fires; outages longer than "
						   "the retry window (timeout x retry_cnt) kill "
						   "them with retry exceeded: jobs fail or hang");
				rdc_finding_fix(
					f,
					"reseat, then replace the cable and the module on both "
					"ends ('ethtool -m %s' shows module temperature and Rx "
					"power), check the switch port's log; while it flaps take "
					"it out of service: 'rdmactl port set %s down'",
					nd ? nd : p->port.device, nd ? nd : p->port.device);
				continue;
			}
		}

		/* The cumulative count since boot warns past the policy's threshold. */
		cc = p->nsamples ? p->s[p->nsamples - 1].carrier_changes : -1;
		if (cc < 0)
			cc = p->netif.carrier_changes;
		if (cc < 0) {
			if (p->nsamples < 2 || !have)
				rdc_diag_skip(r, c, p, "%s",
					      p->nsamples < 2
						      ? "no carrier_changes, and one sample "
							"(interval 0) gives no window for "
							"link_down_events_phy or link_downed"
						      : "no carrier_changes, link_down_events_phy "
							"or link_downed counter");
			continue;
		}
		if ((uint64_t)cc < h->policy.carrier_changes_warn)
			continue;
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
				 "%" PRId64 " carrier changes since boot (warn at %" PRIu64 ")", cc,
				 h->policy.carrier_changes_warn);
		rdc_finding_since_reset(f);
		rdc_ev_counter(f, "carrier_changes", cc_src, (uint64_t)cc);
		rdc_ev_uint(f, "carrier-changes-warn", "policy", h->policy.carrier_changes_warn);
		for (size_t k = 0; k < RDC_ARRAY_SIZE(flap_counters); k++)
			link_counter_evidence(f, p, flap_counters[k].set, flap_counters[k].name);
		rdc_finding_why(f,
				"each loss and return of the link counts twice (setting the netdev "
				"down and up does too): about %" PRId64
				" outages since boot; each one stalls or kills the RoCE QPs on it",
				cc / 2);
		rdc_finding_fix(f,
				"find out whether it still happens: 'rdmactl diag run %s interval "
				"60 check link.flapping'; if so, replace the cable and module",
				nd ? nd : p->port.device);
	}
}

/* ---- link.speed-below-capability (#4) ----------------------------------- */

static void check_speed(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct rdc_netif *n = &p->netif;
		const char *nd = rdc_diag_netdev(p);
		bool common = n->common_speed_mbps > 0;
		int64_t cap = common ? n->common_speed_mbps : n->max_speed_mbps;
		char src[96];
		struct rdc_finding *f;

		if (!nd) {
			rdc_diag_skip(r, c, p, "the port has no netdev");
			continue;
		}
		if (!n->have_linkmodes) {
			rdc_diag_skip(r, c, p, "link settings: %s",
				      n->linkmodes_reason ? n->linkmodes_reason : "not read");
			continue;
		}
		if (n->speed_mbps <= 0) {
			rdc_diag_skip(r, c, p, "the speed is unknown (no link)");
			continue;
		}
		if (cap <= 0) {
			rdc_diag_skip(
				r, c, p, "%s",
				p->port.netdev.is_bond
					? "a bond has no link modes of its own (its members do)"
					: "the driver lists no supported link modes");
			continue;
		}
		if (n->speed_mbps >= cap)
			continue;

		snprintf(src, sizeof(src), "ETHTOOL_GLINKSETTINGS %s", nd);
		if (common)
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "%s runs at %" PRId64 " Mb/s; both ends support %" PRId64
					 " Mb/s",
					 nd, n->speed_mbps, cap);
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "%s runs at %" PRId64 " Mb/s, below its own %" PRId64
					 " Mb/s",
					 nd, n->speed_mbps, cap);
		rdc_ev_int(f, "speed_mbps", src, n->speed_mbps);
		if (n->max_speed_mbps > 0)
			rdc_ev_detail(rdc_ev_int(f, "max_speed_mbps", src, n->max_speed_mbps),
				      "the fastest mode this end supports");
		else
			rdc_ev_detail(rdc_ev_unknown(f, "max_speed_mbps", src, "not reported"),
				      "the driver lists no supported mode");
		if (common)
			rdc_ev_detail(rdc_ev_int(f, "common_speed_mbps", src, n->common_speed_mbps),
				      "the fastest mode both ends support");
		else
			rdc_ev_detail(rdc_ev_unknown(f, "common_speed_mbps", src, "not reported"),
				      "the driver does not report the link partner's modes");
		if (common)
			rdc_finding_why(f,
					"both ends could run faster: RDMA gets %.0f%% of the "
					"bandwidth it could; usually a cable or module rated "
					"lower, or a forced speed on one end",
					100.0 * (double)n->speed_mbps / (double)cap);
		else
			rdc_finding_why(f,
					"the port gives RDMA %.0f%% of what it can; the switch "
					"port, the cable or the module may be the limit (the "
					"partner's modes are unknown, so this may be intended)",
					100.0 * (double)n->speed_mbps / (double)cap);
		rdc_finding_fix(f,
				"'ethtool %s' lists what each end advertises; use a cable, module "
				"and switch port rated for %" PRId64
				" Mb/s, then 'ethtool -s %s speed %" PRId64
				" autoneg on' (or set it on the switch)",
				nd, cap, nd, cap);
	}
}

/* ---- link.pre-fec-ber (#5) --------------------------------------------- */

static void check_pre_fec_ber(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		uint64_t corr, bits;
		bool estimated = false;
		double ber, window = rdc_diag_window_s(p);
		char span[48], src[96];
		struct rdc_finding *f;

		if (link_count(p, RDC_DIAG_NETDEV, "rx_corrected_bits_phy", &corr)) {
			rdc_diag_skip(r, c, p,
				      "no rx_corrected_bits_phy counter (mlx5's PHY statistics)");
			continue;
		}
		/*
		 * rx_bits_phy counts every bit the PHY received, idle included,
		 * which is what a BER divides by.  Without it the line rate times
		 * the window gives the same number; rx_bytes_phy would not (it
		 * counts frames only, and idle links have few).
		 */
		if (link_count(p, RDC_DIAG_NETDEV, "rx_bits_phy", &bits)) {
			if (p->nsamples < 2 || window <= 0 || p->netif.speed_mbps <= 0) {
				rdc_diag_skip(r, c, p,
					      "no rx_bits_phy counter, and no window and speed to "
					      "estimate the bits from");
				continue;
			}
			bits = (uint64_t)((double)p->netif.speed_mbps * 1e6 * window);
			estimated = true;
		}
		if (!bits) {
			link_span(p, span, sizeof(span));
			rdc_diag_skip(r, c, p, "no bits received %s", span);
			continue;
		}
		ber = (double)corr / (double)bits;
		if (ber <= h->policy.pre_fec_ber_warn)
			continue;

		link_span(p, span, sizeof(span));
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "pre-FEC BER %.2g %s (warn above %.2g)",
				 ber, span, h->policy.pre_fec_ber_warn);
		rdc_diag_counted(f, p);
		rdc_ev_real(f, "pre_fec_ber", "rx_corrected_bits_phy / rx_bits_phy", ber);
		link_counter_evidence(f, p, RDC_DIAG_NETDEV, "rx_corrected_bits_phy");
		if (estimated) {
			snprintf(src, sizeof(src), "ETHTOOL_GLINKSETTINGS %s", nd ? nd : "?");
			rdc_ev_detail(rdc_ev_uint(f, "rx_bits_estimated", src, bits),
				      "no rx_bits_phy: speed_mbps x the %.1f s window", window);
			rdc_ev_int(f, "speed_mbps", src, p->netif.speed_mbps);
		} else {
			link_counter_evidence(f, p, RDC_DIAG_NETDEV, "rx_bits_phy");
		}
		rdc_ev_real(f, "pre-fec-ber-warn", "policy", h->policy.pre_fec_ber_warn);
		rdc_finding_why(
			f, "FEC still corrects these errors, so nothing is lost yet, but a link "
			   "this noisy has little margin left: a little more dirt, heat or a bend "
			   "and errors pass FEC, frames are dropped and RoCE retransmits");
		rdc_finding_fix(f,
				"clean the fibre ends or replace the cable and the module; compare "
				"Rx power with 'ethtool -m %s' and watch whether the BER grows "
				"('rdmactl diag run %s interval 60 check link.pre-fec-ber')",
				nd ? nd : p->port.device, nd ? nd : p->port.device);
	}
}

/* ---- link.crc-errors (#6) ---------------------------------------------- */

/*
 * Errors that FEC did not correct (or that happened with FEC off): each is
 * a dropped frame.  mlx5's PHY counters first, then the IEEE 802.3 names
 * (ethtool netlink standard groups), the kernel's netdev statistics, and
 * the IB PMA counter.
 */
static const struct link_counter crc_counters[] = {
	{RDC_DIAG_NETDEV, "rx_crc_errors_phy"},
	{RDC_DIAG_NETDEV, "rx_symbol_err_phy"},
	{RDC_DIAG_NETDEV, "rx_pcs_symbol_err_phy"},
	{RDC_DIAG_NETDEV, "FrameCheckSequenceErrors"},
	{RDC_DIAG_NETDEV, "SymbolErrorDuringCarrier"},
	{RDC_DIAG_NETDEV, "rx_crc_errors"},
	{RDC_DIAG_IB, "symbol_error"},
};

static void check_crc_errors(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			     struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		bool hit[RDC_ARRAY_SIZE(crc_counters)];
		bool window = p->nsamples >= 2;
		char list[128], span[48];
		struct rdc_finding *f;

		if (!link_counters_scan(p, crc_counters, RDC_ARRAY_SIZE(crc_counters), hit, list,
					sizeof(list))) {
			rdc_diag_skip(r, c, p, "no CRC or symbol error counter");
			continue;
		}
		if (!link_any(hit, RDC_ARRAY_SIZE(hit)))
			continue;
		/* New errors in the window fail; a count since boot only says it happened once. */
		link_span(p, span, sizeof(span));
		f = rdc_diag_add(r, c, p, window ? RDC_SEV_FAIL : RDC_SEV_WARN,
				 "receive errors %s: %s", span, list);
		rdc_diag_counted(f, p);
		for (size_t k = 0; k < RDC_ARRAY_SIZE(crc_counters); k++)
			if (hit[k])
				link_counter_evidence(f, p, crc_counters[k].set,
						      crc_counters[k].name);
		if (window) {
			rdc_finding_why(
				f, "these frames failed their check after FEC and were dropped; "
				   "for RoCE each is a lost packet the QP must retransmit "
				   "(go-back-N, or a timeout for a message's last packet), so "
				   "throughput falls far more than the error rate");
			rdc_finding_fix(f,
					"the cause is physical: clean or replace the fibre or "
					"cable and the module on both ends (Rx power: 'ethtool -m "
					"%s'), check the switch port; with FEC off: 'ethtool "
					"--set-fec %s encoding rs' on both ends",
					nd ? nd : p->port.device, nd ? nd : p->port.device);
		} else {
			rdc_finding_why(f,
					"the link corrupted frames at some time since the counters "
					"were reset (a few symbol errors while a link trains are "
					"normal); with one sample it is unknown whether it still "
					"happens: each errored frame costs RoCE a retransmission");
			rdc_finding_fix(f,
					"measure over a window: 'rdmactl diag run %s interval 60 "
					"check link.crc-errors'",
					nd ? nd : p->port.device);
		}
	}
}

/* ---- link.fec-off (#7) ------------------------------------------------- */

static void check_fec_off(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			  struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const struct rdc_netif *n = &p->netif;
		const char *nd = rdc_diag_netdev(p);
		char src[96];
		struct rdc_finding *f;

		if (!nd) {
			rdc_diag_skip(r, c, p, "the port has no netdev");
			continue;
		}
		if (!n->have_fec) {
			rdc_diag_skip(r, c, p, "FEC: %s",
				      n->fec_reason ? n->fec_reason : "not read");
			continue;
		}
		/* ETHTOOL_FEC_NONE: the driver cannot configure FEC at all, nothing to judge. */
		if (!strcmp(n->fec_active, "none")) {
			rdc_diag_skip(r, c, p, "the driver has no FEC settings (none)");
			continue;
		}
		if (strcmp(n->fec_active, "off"))
			continue;
		if (n->speed_mbps <= 0) {
			rdc_diag_skip(r, c, p, "FEC is off but the speed is unknown (no link)");
			continue;
		}
		if (n->speed_mbps < 25000)
			continue;

		snprintf(src, sizeof(src), "ETHTOOL_GFECPARAM %s", nd);
		f = rdc_diag_add(r, c, p, RDC_SEV_WARN, "FEC is off on %s at %" PRId64 " Mb/s", nd,
				 n->speed_mbps);
		rdc_ev_text(f, "active_fec", src, "%s", n->fec_active);
		snprintf(src, sizeof(src), "ETHTOOL_GLINKSETTINGS %s", nd);
		rdc_ev_int(f, "speed_mbps", src, n->speed_mbps);
		rdc_finding_why(f, "from 25 Gb/s per lane on, links are specified with FEC (RS for "
				   "100G NRZ and every PAM4 speed): without it every bit error is "
				   "a dropped frame, a lost RoCE packet and a retransmission");
		rdc_finding_fix(f,
				"'ethtool --set-fec %s encoding rs' (25G links may use baser to "
				"match the switch); set the same mode on the switch port",
				nd);
	}
}

/* ---- link.mtu (#8) ----------------------------------------------------- */

/* Frames longer than our MTU that arrived: the peer's MTU is larger. */
static const struct link_counter mtu_counters[] = {
	{RDC_DIAG_NETDEV, "rx_oversize_pkts_phy"},
	{RDC_DIAG_NETDEV, "rx_out_of_range_len_phy"},
	{RDC_DIAG_NETDEV, "FrameTooLongErrors"},
};

static void check_mtu(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		bool hit[RDC_ARRAY_SIZE(mtu_counters)];
		bool window = p->nsamples >= 2, judged = false;
		char list[128], span[48], src[96];
		struct rdc_finding *f;

		if (!rdc_diag_port_roce(p)) {
			rdc_diag_skip(r, c, p, "%s",
				      nd ? "not a RoCE port (the subnet manager sets an InfiniBand "
					   "port's MTU)"
					 : "the port has no netdev");
			continue;
		}
		snprintf(src, sizeof(src), NET_CLASS "/%s/mtu", nd);
		if (p->port.active_mtu > 0 && p->port.netdev.mtu > 0) {
			judged = true;
			if (p->port.active_mtu_limited) {
				f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
						 "RoCE active MTU is %d: netdev MTU %" PRId64
						 " is below the %d that gives 4096",
						 p->port.active_mtu, p->port.netdev.mtu,
						 p->port.mtu_for_4096);
				rdc_ev_int(f, "mtu_bytes", src, p->port.netdev.mtu);
				rdc_ev_int(f, "active_mtu_bytes",
					   "derived from the netdev MTU (iboe_get_mtu)",
					   p->port.active_mtu);
				rdc_ev_detail(rdc_ev_int(f, "mtu_bytes_for_4096",
							 "derived from iboe_get_mtu",
							 p->port.mtu_for_4096),
					      "the smallest netdev MTU that gives active MTU 4096");
				rdc_finding_why(f,
						"RoCE cuts messages into active-MTU packets: at %d "
						"bytes it sends %d times the packets of 4096, with "
						"their headers and per-packet work, for less "
						"throughput and a higher message rate cost",
						p->port.active_mtu, 4096 / p->port.active_mtu);
				rdc_finding_fix(
					f,
					"'rdmactl port set %s mtu 9000' (at least %d), with the "
					"same MTU on the switch ports and the peers",
					nd, p->port.mtu_for_4096);
				rdc_finding_fix_cmd(
					f, RDC_WORDS("rdmactl", "port", "set", nd, "mtu", "9000"));
			}
		}

		if (link_counters_scan(p, mtu_counters, RDC_ARRAY_SIZE(mtu_counters), hit, list,
				       sizeof(list)))
			judged = true;
		if (link_any(hit, RDC_ARRAY_SIZE(hit))) {
			link_span(p, span, sizeof(span));
			f = rdc_diag_add(r, c, p, window ? RDC_SEV_FAIL : RDC_SEV_WARN,
					 "frames longer than the MTU %" PRId64 " dropped %s: %s",
					 p->port.netdev.mtu, span, list);
			rdc_diag_counted(f, p);
			for (size_t k = 0; k < RDC_ARRAY_SIZE(mtu_counters); k++)
				if (hit[k])
					link_counter_evidence(f, p, mtu_counters[k].set,
							      mtu_counters[k].name);
			if (p->port.netdev.mtu > 0)
				rdc_ev_int(f, "mtu_bytes", src, p->port.netdev.mtu);
			rdc_finding_why(
				f,
				"a peer or the switch sends frames larger than this port accepts: "
				"they are dropped on arrival, so RoCE packets of that size never "
				"arrive and the QPs time out (or only small messages work)");
			rdc_finding_fix(
				f,
				"give both ends and the switch ports one MTU: here 'rdmactl port "
				"set %s mtu' with the peer's MTU, or lower the peer's",
				nd);
		}
		if (!judged)
			rdc_diag_skip(r, c, p,
				      "neither the active MTU nor an oversize counter is known");
	}
}

/* ---- link.transceiver (#29) -------------------------------------------- */

/* mlx5's module event counters (PDDR/PMPE events); module_unplug is a person, not a fault. */
static const struct link_counter module_counters[] = {
	{RDC_DIAG_NETDEV, "module_high_temp"},
	{RDC_DIAG_NETDEV, "module_bad_shorted"},
	{RDC_DIAG_NETDEV, "module_bus_stuck"},
};

static const char *const module_why[] = {
	"the module overheated: it may shut its laser down, dropping the link, and ages fast",
	"the module or cable reported a short: it is damaged",
	"the module's I2C bus hung: its alarms cannot be read and the driver may fail to bring the "
	"link up",
};
/* One reason per counter: a missing comma would join two and shift the rest. */
_Static_assert(RDC_ARRAY_SIZE(module_why) == RDC_ARRAY_SIZE(module_counters),
	       "module_why needs one entry per module counter");

static void check_transceiver(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
			      struct rdc_diag_result *r)
{
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];
		const char *nd = rdc_diag_netdev(p);
		bool now[RDC_ARRAY_SIZE(module_counters)] = {false};
		bool ever = false;
		char total_list[128] = "", recent_list[128] = "";
		size_t have = 0, first = 0;
		struct rdc_finding *f;

		/*
		 * These count rare events since the driver loaded: any at all is
		 * worth a warning, new ones in the window are a fault now.
		 */
		for (size_t k = 0; k < RDC_ARRAY_SIZE(module_counters); k++) {
			const char *name = module_counters[k].name;
			uint64_t total, d;

			if (rdc_diag_counter(p, module_counters[k].set, name, &total))
				continue;
			have++;
			if (!total)
				continue;
			if (!ever)
				first = k;
			ever = now[k] = true;
			rdc_diag_append(total_list, sizeof(total_list), "%s%s %" PRIu64,
					total_list[0] ? ", " : "", name, total);
			if (!rdc_diag_delta(p, module_counters[k].set, name, &d) && d)
				rdc_diag_append(recent_list, sizeof(recent_list), "%s%s +%" PRIu64,
						recent_list[0] ? ", " : "", name, d);
		}
		if (!have) {
			rdc_diag_skip(
				r, c, p,
				"no module event counters (module_high_temp, ...: mlx5 only)");
			continue;
		}
		if (!ever)
			continue;
		if (recent_list[0])
			f = rdc_diag_add(r, c, p, RDC_SEV_FAIL,
					 "transceiver events in the last %.1f s: %s",
					 rdc_diag_window_s(p), recent_list);
		else
			f = rdc_diag_add(r, c, p, RDC_SEV_WARN,
					 "transceiver events since the driver loaded: %s",
					 total_list);
		/* No new event in a window, or one sample: totals since the driver loaded. */
		if (!recent_list[0])
			rdc_finding_since_reset(f);
		for (size_t k = 0; k < RDC_ARRAY_SIZE(module_counters); k++)
			if (now[k])
				link_counter_evidence(f, p, module_counters[k].set,
						      module_counters[k].name);
		rdc_finding_why(f, "%s", module_why[first]);
		rdc_finding_fix(f,
				"'ethtool -m %s' shows the module's temperature, alarms and Rx "
				"power; improve the airflow for heat, else reseat and then replace "
				"the module or cable",
				nd ? nd : p->port.device);
	}
}

/* ---- the family --------------------------------------------------------- */

static const struct rdc_diag_check checks[] = {
	{"link.port-not-active", RDC_SEV_FAIL, "RDMA port not ACTIVE / LINK_UP",
	 "ports/N/state, ports/N/phys_state", "any state but ACTIVE", check_port_active},
	{"link.no-carrier", RDC_SEV_FAIL, "netdev administratively down or without carrier",
	 "/sys/class/net/IF/{flags,carrier,operstate}", "IFF_UP 0, or carrier 0", check_no_carrier},
	{"link.flapping", RDC_SEV_FAIL, "link went down (flaps)",
	 "link_down_events_phy, counters/link_downed, carrier_changes",
	 "any link loss in the window (fail); >= 10 carrier changes since boot "
	 "(carrier-changes-warn) (warn)",
	 check_flapping},
	{"link.speed-below-capability", RDC_SEV_WARN, "link speed below what both ends support",
	 "ETHTOOL_GLINKSETTINGS speed, supported and partner modes",
	 "speed < fastest common mode (or our fastest when the partner's are unknown)",
	 check_speed},
	{"link.pre-fec-ber", RDC_SEV_WARN, "pre-FEC bit error ratio high",
	 "rx_corrected_bits_phy / rx_bits_phy", "> 1e-08 (pre-fec-ber-warn)", check_pre_fec_ber},
	{"link.crc-errors", RDC_SEV_FAIL, "frames with CRC or symbol errors after FEC",
	 "rx_crc_errors_phy, rx_symbol_err_phy, rx_pcs_symbol_err_phy, FrameCheckSequenceErrors, "
	 "statistics/rx_crc_errors, counters/symbol_error",
	 "any in the window (fail); any since reset with interval 0 (warn)", check_crc_errors},
	{"link.fec-off", RDC_SEV_WARN, "FEC off at 25 Gb/s or faster",
	 "ETHTOOL_GFECPARAM active mode, link speed", "off at >= 25000 Mb/s", check_fec_off},
	{"link.mtu", RDC_SEV_FAIL, "RoCE active MTU below 4096, or frames over the MTU",
	 "netdev mtu, derived active_mtu, rx_oversize_pkts_phy, rx_out_of_range_len_phy",
	 "active MTU < 4096 (warn); oversize frames in the window (fail)", check_mtu},
	{"link.transceiver", RDC_SEV_FAIL, "transceiver module faults",
	 "module_high_temp, module_bad_shorted, module_bus_stuck",
	 "any in the window (fail); any since the driver loaded (warn)", check_transceiver},
};

const struct rdc_diag_family rdc_diag_family_link = {"link", checks, RDC_ARRAY_SIZE(checks)};
