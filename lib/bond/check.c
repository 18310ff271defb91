// SPDX-License-Identifier: GPL-2.0-or-later
/* check.c - `bond check`: RoCE LAG rules, alike members, failover against the QP retry window */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bond/bond.h"
#include "bond/check.h"
#include "host/dcb.h"
#include "host/ofed_qos.h"
#include "host/pci.h"
#include "seam/fs.h"

#define NET_CLASS "/sys/class/net"

/*
 * Where struct rdc_bond's values come from: the bond model reads them from
 * one RTM_GETLINK dump (lib/kernel/bondnl.h); speed is not a netlink
 * attribute of a member and comes from /proc/net/bonding/BOND.
 */
#define SRC_MODE "rtnetlink IFLA_BOND_MODE"
#define SRC_HASH "rtnetlink IFLA_BOND_XMIT_HASH_POLICY"
#define SRC_MIIMON "rtnetlink IFLA_BOND_MIIMON"
#define SRC_DOWNDELAY "rtnetlink IFLA_BOND_DOWNDELAY"
#define SRC_ARP "rtnetlink IFLA_BOND_ARP_INTERVAL"
#define SRC_LACP "rtnetlink IFLA_BOND_AD_LACP_RATE"
#define SRC_MTU "rtnetlink IFLA_MTU"
#define SRC_MII "rtnetlink IFLA_BOND_SLAVE_MII_STATUS"
#define SRC_CARRIER "rtnetlink IFLA_CARRIER"
#define SRC_MASTER "rtnetlink IFLA_MASTER"
#define SRC_RDMA "/sys/class/infiniband/*/ports/*/gid_attrs/ndevs/0"
#define SRC_QP "check parameter"
#define SRC_WINDOW "4.096 us * 2^timeout * (retry_cnt + 1) (IBTA)"

/*
 * Append printf text to @buf, cutting what does not fit: only for text whose
 * bound is known (the 8 priorities, our words around one reason); lists of
 * members are built on the heap (rdc_str_catf).
 */
static void RDC_PRINTF(3, 4) check_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* ---- the survival maths ---- */

double rdc_qp_ack_timeout_s(unsigned int timeout)
{
	/* IBTA: timeout 0 disables the local ACK timer, the QP waits forever. */
	if (timeout == 0)
		return INFINITY;
	if (timeout > RDC_QP_TIMEOUT_MAX)
		return NAN;
	return RDC_QP_ACK_UNIT_S * ldexp(1.0, (int)timeout);
}

double rdc_qp_survival_s(unsigned int timeout, unsigned int retry_cnt)
{
	/* The first send and retry_cnt retransmissions each wait T_ack. */
	if (retry_cnt > RDC_QP_RETRY_MAX)
		return NAN;
	return rdc_qp_ack_timeout_s(timeout) * (retry_cnt + 1);
}

int rdc_qp_min_timeout(double outage_s, unsigned int retry_cnt)
{
	/*
	 * Walk up instead of ceil(log2()): at an outage that is exactly a
	 * window the window must be longer, not equal, and rounding in log2
	 * must not pick a timeout one too small.
	 */
	if (isnan(outage_s) || retry_cnt > RDC_QP_RETRY_MAX)
		return -1;
	for (unsigned int t = 1; t <= RDC_QP_TIMEOUT_MAX; t++)
		if (rdc_qp_survival_s(t, retry_cnt) > outage_s)
			return (int)t;
	return -1;
}

double rdc_bond_failover_s(const struct rdc_bond *b)
{
	/*
	 * MII monitoring (bond_main.c, bond_mii_monitor): every miimon ms the
	 * bond looks at each member's carrier.  A member found down is failed
	 * at once or, with downdelay, after that many more ms (the kernel keeps
	 * downdelay as whole miimon ticks).  A link lost just after a poll is
	 * seen one period later, so miimon + downdelay is the worst case.  The
	 * reaction (new active member, aggregator reselection, the NIC driver's
	 * LAG remap, which mlx5 starts from the same netdev event) happens in
	 * the same work item: counted as immediate.
	 */
	if (b->miimon_ms > 0) {
		if (b->downdelay_ms < 0)
			return NAN;
		return (double)(b->miimon_ms + b->downdelay_ms) / 1000.0;
	}
	if (b->miimon_ms < 0)
		return NAN;
	/*
	 * 802.3ad without miimon: only LACP notices a dead member, when the
	 * partner's information expires after three missed LACPDUs
	 * (bond_3ad.c: AD_SHORT_TIMEOUT_TIME = 3 * AD_FAST_PERIODIC_TIME = 3 s,
	 * AD_LONG_TIMEOUT_TIME = 3 * AD_SLOW_PERIODIC_TIME = 90 s).  Our
	 * lacp_rate sets our actor's timeout bit, which picks the timer.  The
	 * kernel itself warns that 802.3ad needs miimon ("otherwise bonding
	 * will not detect link failure", bond_check_params).
	 */
	if (b->mode == RDC_BOND_8023AD) {
		if (b->lacp_rate == 1)
			return 3.0;
		if (b->lacp_rate == 0)
			return 90.0;
		return NAN;
	}
	/*
	 * ARP monitoring: a member is failed when nothing arrived on it for
	 * arp_missed_max intervals.  struct rdc_bond does not carry
	 * arp_missed_max; its default is 2 (bond_options.c, "ARP Missed Max: 2"
	 * in /proc/net/bonding).  ARP monitoring is refused in 802.3ad.
	 */
	if (b->arp_interval_ms > 0)
		return (double)b->arp_interval_ms * 2 / 1000.0;
	if (b->mode < 0 || b->arp_interval_ms < 0)
		return NAN;
	/* miimon 0, no ARP, not 802.3ad: a dead member stays in use. */
	return INFINITY;
}

/* ---- facts ---- */

static void facts_member_init(struct rdc_bond_member_facts *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	rdc_strlcpy(m->name, name, sizeof(m->name));
	m->dscp_apps = -1;
	rdc_strlcpy(m->pci_reason, "not read", sizeof(m->pci_reason));
	rdc_strlcpy(m->dcb_reason, "not read", sizeof(m->dcb_reason));
	rdc_strlcpy(m->trust_reason, "not read", sizeof(m->trust_reason));
}

void rdc_bond_facts_init(const struct rdc_bond *b, struct rdc_bond_facts *f)
{
	f->nmembers = b->nmembers < RDC_BOND_MAX_MEMBERS ? b->nmembers : RDC_BOND_MAX_MEMBERS;
	for (size_t i = 0; i < f->nmembers; i++)
		facts_member_init(&f->members[i], b->members[i].name);
}

/* "0000:3b:00.0": domain:bus:device.function, hex, nothing after. */
static bool facts_is_pci(const char *s)
{
	return rdc_pci_address_valid(s);
}

/* The member's PCI function: the last component of its device link. */
static void facts_read_pci(struct rdc_bond_member_facts *m)
{
	char link[64];
	int rc;

	snprintf(m->pci_source, sizeof(m->pci_source), NET_CLASS "/%s/device", m->name);
	rc = rdc_fs_link_name(link, sizeof(link), NET_CLASS "/%s/device", m->name);
	if (rc == -ENOENT) {
		snprintf(m->pci_reason, sizeof(m->pci_reason), "no device link: a virtual netdev");
	} else if (rc < 0) {
		snprintf(m->pci_reason, sizeof(m->pci_reason), "cannot read the device link: %s",
			 strerror(-rc));
	} else if (!facts_is_pci(link)) {
		/* virtio-net in the lab: "virtio0", whose parent is the PCI function. */
		snprintf(m->pci_reason, sizeof(m->pci_reason), "device '%s' is not a PCI function",
			 link);
	} else {
		rdc_strlcpy(m->pci, link, sizeof(m->pci));
		m->pci_reason[0] = '\0';
	}
}

/*
 * PFC from dcbnl, and trust: MLNX_OFED's qos/trust file when there is one
 * (the driver's own state), else the dcbnl APP table, since upstream mlx5
 * (en_dcbnl.c) trusts DSCP exactly while DSCP APP entries exist and PCP
 * otherwise.
 */
static void facts_read_qos(struct rdc_bond_member_facts *m)
{
	struct rdc_ofed_qos q;
	struct rdc_err e = {0};
	struct rdc_dcb dcb;
	int rc;

	rdc_strlcpy(m->dcb_source, "dcbnl DCB_CMD_IEEE_GET", sizeof(m->dcb_source));
	rc = rdc_dcb_read(m->name, &dcb, &e);
	if (rc < 0) {
		rdc_strlcpy(m->dcb_reason, e.msg[0] ? e.msg : strerror(-rc), sizeof(m->dcb_reason));
	} else if (!dcb.have_pfc) {
		snprintf(m->dcb_reason, sizeof(m->dcb_reason), "dcbnl answered without IEEE PFC");
	} else {
		m->have_dcb = true;
		m->pfc_en = dcb.pfc.pfc_en;
		m->dcb_reason[0] = '\0';
	}

	rdc_ofed_qos_read(m->name, &q);
	if (q.trust[0]) {
		rdc_strlcpy(m->trust, q.trust, sizeof(m->trust));
		snprintf(m->trust_source, sizeof(m->trust_source), NET_CLASS "/%s/qos/trust",
			 m->name);
		m->trust_reason[0] = '\0';
	} else if (rc == 0) {
		m->dscp_apps = (int)rdc_dcb_dscp_count(&dcb);
		rdc_strlcpy(m->trust, m->dscp_apps ? "dscp" : "pcp", sizeof(m->trust));
		rdc_strlcpy(m->trust_source, "dcbnl DCB_CMD_IEEE_GET (APP table, DSCP entries)",
			    sizeof(m->trust_source));
		m->trust_reason[0] = '\0';
	} else {
		m->trust_reason[0] = '\0';
		check_append(m->trust_reason, sizeof(m->trust_reason),
			     "no qos/trust file (not MLNX_OFED) and no dcbnl: %s", m->dcb_reason);
	}
}

int rdc_bond_facts_read(const struct rdc_bond *b, struct rdc_bond_facts *f, struct rdc_err *err)
{
	if (b->nmembers > RDC_BOND_MAX_MEMBERS)
		return rdc_err_set(err, EINVAL, "bond '%s' has %zu members, at most %d are checked",
				   b->name, b->nmembers, RDC_BOND_MAX_MEMBERS);
	rdc_bond_facts_init(b, f);
	for (size_t i = 0; i < f->nmembers; i++) {
		facts_read_pci(&f->members[i]);
		facts_read_qos(&f->members[i]);
	}
	return 0;
}

/* ---- the check ---- */

/* The enums as iproute2 spells them (bond/names.c), "unknown" for what it does not know. */
static const char *check_str(const char *name)
{
	return name ? name : "unknown";
}

#define MODE_NAME(v) check_str(rdc_bond_mode_name(v))
#define HASH_NAME(v) check_str(rdc_bond_hash_name(v))
#define MII_NAME(v) check_str(rdc_bond_mii_status_name(v))

struct check {
	const struct rdc_bond *b;
	const struct rdc_bond_facts *f;
	const struct rdc_bond_check_params *p;
	struct rdc_findings *out;
	size_t n;    /* members looked at: b->nmembers within the array */
	bool no_lag; /* RoCE LAG is impossible (mode, members): QPs cannot move */
	char *nics;  /* the members' NICs, when they are more than one; NULL else */
	struct rdc_bond_member_facts none; /* stands in for facts not read */
};

/* A duration for people: "33.6 ms", "537 ms", "4.3 s", "90 s", "infinite". */
static const char *check_secs(char *buf, size_t size, double s)
{
	if (isnan(s))
		snprintf(buf, size, "unknown");
	else if (isinf(s))
		snprintf(buf, size, "infinite");
	else if (s < 0.1)
		snprintf(buf, size, "%.1f ms", s * 1e3);
	else if (s < 1)
		snprintf(buf, size, "%.0f ms", s * 1e3);
	else if (s < 100)
		snprintf(buf, size, "%.1f s", s);
	else
		snprintf(buf, size, "%.0f s", s);
	return buf;
}

/* The facts of member @i, or an all-unknown record when none were read for it. */
static const struct rdc_bond_member_facts *check_facts(struct check *c, size_t i)
{
	if (c->f && i < c->f->nmembers)
		return &c->f->members[i];
	facts_member_init(&c->none, c->b->members[i].name);
	rdc_strlcpy(c->none.pci_reason, "no facts read", sizeof(c->none.pci_reason));
	rdc_strlcpy(c->none.dcb_reason, "no facts read", sizeof(c->none.dcb_reason));
	rdc_strlcpy(c->none.trust_reason, "no facts read", sizeof(c->none.trust_reason));
	return &c->none;
}

/*
 * The info finding that says a comparison was skipped: started at the first
 * member whose value is unknown, then one title entry and one piece of
 * evidence per such member: @name (the value's evidence name, as where it
 * is known) null, the member and why in its detail.
 */
static struct rdc_finding *check_skip(struct check *c, struct rdc_finding *f, const char *id,
				      const char *what, const char *name, const char *member,
				      const char *source, const char *reason)
{
	if (!f) {
		f = rdc_findings_add(c->out, id, RDC_SEV_INFO, "%s not compared on %s", what,
				     member);
		rdc_finding_why(f,
				"%s is unknown on these members (the evidence says why), so they "
				"were left out of this comparison: a problem there cannot be "
				"ruled out",
				what);
		rdc_finding_fix(
			f,
			"read it where it is known: on the host, as root ('rdmactl bond show "
			"%s' shows each member's values)",
			c->b->name);
	} else {
		rdc_finding_title_append(f, ", %s", member);
	}
	rdc_ev_detail(rdc_ev_unknown(f, name, source, "unknown"), "%s: %s", member, reason);
	return f;
}

static void check_members_present(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	if (b->nmembers == 0) {
		f = rdc_findings_add(c->out, "bond.no-members", RDC_SEV_FAIL, "%s has no members",
				     b->name);
		rdc_ev_detail(rdc_ev_uint(f, "members_count", SRC_MASTER, 0),
			      "no link names %s its master", b->name);
		rdc_finding_why(f, "a bond without members carries nothing, and no RDMA device "
				   "can serve it: RoCE LAG needs the NIC's ports enslaved");
		rdc_finding_fix(f,
				"enslave the ports of one NIC: 'rdmactl bond add %s IF' for each "
				"(rdmactl-bond(8)), or list them under the bond's 'interfaces:' in "
				"its netplan file and 'rdmactl bond apply -f' it",
				b->name);
	} else if (b->nmembers == 1) {
		f = rdc_findings_add(c->out, "bond.one-member", RDC_SEV_WARN,
				     "%s has one member (%s): no redundancy", b->name,
				     b->members[0].name);
		rdc_ev_detail(rdc_ev_uint(f, "members_count", SRC_MASTER, 1), "%s",
			      b->members[0].name);
		rdc_finding_why(f, "when that link fails the bond fails with it, and the NIC "
				   "offloads RoCE LAG only with all of its ports enslaved (mlx5: "
				   "as many members as the device has ports)");
		rdc_finding_fix(
			f,
			"add the NIC's other port: 'rdmactl bond add %s IF' (rdmactl-bond(8); "
			"'rdmactl port show %s' names its PCI function), or list both under "
			"the bond's 'interfaces:' in its netplan file and 'rdmactl bond "
			"apply -f' it",
			b->name, b->members[0].name);
	}
}

static void check_mode(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	if (b->mode < 0) {
		f = rdc_findings_add(c->out, "bond.mode-skipped", RDC_SEV_INFO,
				     "mode of %s unknown: RoCE LAG eligibility not checked",
				     b->name);
		rdc_ev_unknown(f, "mode", SRC_MODE, "not read");
		rdc_finding_why(f, "only active-backup, balance-xor and 802.3ad can be offloaded "
				   "as RoCE LAG; without the mode that cannot be judged");
		rdc_finding_fix(f, "run the check where the bond's options can be read (as root "
				   "on the host, or on a bundle of it: 'rdmactl diag collect')");
		return;
	}
	if (rdc_bond_mode_roce_lag(b->mode))
		return;
	c->no_lag = true;
	f = rdc_findings_add(c->out, "bond.mode-no-roce-lag", RDC_SEV_FAIL,
			     "mode %s cannot be offloaded as RoCE LAG", MODE_NAME(b->mode));
	rdc_ev_detail(rdc_ev_text(f, "mode", SRC_MODE, "%s", MODE_NAME(b->mode)), "mode %d",
		      b->mode);
	rdc_finding_why(f, "NICs offload only active-backup, balance-xor and 802.3ad (mlx5: "
			   "\"TX type isn't supported\"); otherwise each port keeps its own RDMA "
			   "device, a QP is bound to one port and dies with it, and the bond's "
			   "address has GIDs on two devices");
	rdc_finding_fix(f,
			"'rdmactl bond set %s mode 802.3ad' (or active-backup): the kernel takes "
			"a new mode only on a down, empty bond, so rdmactl releases the members "
			"and enslaves them again; RDMA jobs on them stop",
			b->name);
	rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "bond", "set", b->name, "mode", "802.3ad"));
}

/* The NIC part of a PCI address: "0000:3b:00.0" -> "0000:3b:00" (domain:bus:device). */
static size_t check_nic_len(const char *pci)
{
	const char *dot = strrchr(pci, '.');

	return dot ? (size_t)(dot - pci) : strlen(pci);
}

/*
 * The functions of one PCI device are the ports of one NIC (ConnectX, E810:
 * ".0" and ".1"); a second NIC is another device, usually another bus.
 */
static bool check_same_nic(const char *a, const char *b)
{
	size_t la = check_nic_len(a);

	return la == check_nic_len(b) && !strncmp(a, b, la);
}

static void check_nic(struct check *c)
{
	const struct rdc_bond *b = c->b;
	const char *pci[RDC_BOND_MAX_MEMBERS] = {NULL};
	struct rdc_finding *skip = NULL, *f;
	char *nics = NULL, src[64];
	size_t nnics = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member_facts *m = check_facts(c, i);
		bool seen = false;

		if (!m->pci[0]) {
			snprintf(src, sizeof(src), NET_CLASS "/%s/device", b->members[i].name);
			skip = check_skip(c, skip, "bond.nic-skipped", "PCI function", "pci",
					  b->members[i].name, src, m->pci_reason);
			continue;
		}
		pci[i] = m->pci; /* stays valid: only unknown members use c->none */
		for (size_t j = 0; j < i && !seen; j++)
			seen = pci[j] && check_same_nic(pci[j], pci[i]);
		if (!seen) {
			/* The address up to the function: "0000:3b:00" of "0000:3b:00.1". */
			rdc_str_catf(&nics, "%s%.*s", nnics ? ", " : "", (int)check_nic_len(pci[i]),
				     pci[i]);
			nnics++;
		}
	}
	if (nnics < 2) {
		free(nics);
		return;
	}
	c->no_lag = true;
	c->nics = nics; /* freed by rdc_bond_check_eval() */
	f = rdc_findings_add(c->out, "bond.members-not-one-nic", RDC_SEV_FAIL,
			     "members are ports of %zu NICs (%s): no RoCE LAG possible", nnics,
			     nics ? nics : "");
	for (size_t i = 0; i < c->n; i++) {
		if (!pci[i])
			continue;
		snprintf(src, sizeof(src), NET_CLASS "/%s/device", b->members[i].name);
		rdc_ev_detail(rdc_ev_text(f, "pci", src, "%s", pci[i]), "%s", b->members[i].name);
	}
	rdc_finding_why(f,
			"a NIC offloads a bond only when all of its ports and nothing else "
			"are members (mlx5 lag.c): with ports of two NICs each keeps its own "
			"RDMA device, a QP stays on its port and dies with it, whatever the bond "
			"does");
	rdc_finding_fix(f, "bond the ports of one NIC instead, or drop the bond for RDMA and "
			   "give each port its own address (multi-rail: one device per port, e.g. "
			   "NCCL_IB_HCA lists both)");
}

static void check_member_state(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f = NULL, *skip = NULL;
	const char *down = NULL;
	char *fix = NULL, *ups = NULL;
	size_t ndown = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member *m = &b->members[i];

		if (m->mii_status < 0) {
			skip = check_skip(c, skip, "bond.member-state-skipped", "MII status",
					  "mii_status", m->name, SRC_MII,
					  "the kernel did not report it");
			continue;
		}
		if (m->mii_status == 0)
			continue;
		down = m->name;
		ndown++;
		if (!f) {
			f = rdc_findings_add(c->out, "bond.member-down", RDC_SEV_WARN,
					     "member %s is not up (MII %s)", m->name,
					     MII_NAME(m->mii_status));
			rdc_finding_why(f, "the bond runs on fewer links: less bandwidth and no "
					   "redundancy left; under RoCE LAG the NIC has moved that "
					   "port's QPs to the others");
		} else {
			rdc_finding_title_append(f, ", %s (MII %s)", m->name,
						 MII_NAME(m->mii_status));
		}
		rdc_ev_detail(rdc_ev_text(f, "mii_status", SRC_MII, "%s", MII_NAME(m->mii_status)),
			      "%s", m->name);
		/* IFLA_CARRIER comes with a member's netlink record (an ifindex), not with procfs. */
		if (m->ifindex > 0)
			rdc_ev_detail(rdc_ev_bool(f, "carrier", SRC_CARRIER, m->carrier), "%s",
				      m->name);
		else
			rdc_ev_detail(rdc_ev_unknown(f, "carrier", SRC_CARRIER, "not read"), "%s",
				      m->name);
		rdc_str_catf(&fix, "%s'rdmactl port show %s'", fix ? ", " : "", m->name);
		rdc_str_catf(&ups, "%s'rdmactl port set %s up'", ups ? ", " : "", m->name);
	}
	rdc_finding_fix(f,
			"if it was set down, %s; else check the cable, the optics and the switch "
			"port: %s",
			ups ? ups : "", fix ? fix : "");
	free(fix);
	free(ups);
	/* One member down: one command.  Several: each is named in the text. */
	if (ndown == 1)
		rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "port", "set", down, "up"));
}

static void check_speed(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f, *skip = NULL;
	char src[64], *title = NULL, *fix = NULL;
	int64_t first = -1, top = -1;
	bool differ = false;

	snprintf(src, sizeof(src), "/proc/net/bonding/%s (Speed)", b->name);
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member *m = &b->members[i];

		if (m->speed_mbps <= 0) {
			skip = check_skip(c, skip, "bond.speed-skipped", "speed", "speed_mbps",
					  m->name, src,
					  m->mii_status > 0 ? "the link is down"
							    : "the driver did not report it");
			continue;
		}
		if (first < 0)
			first = m->speed_mbps;
		else if (m->speed_mbps != first)
			differ = true;
		rdc_str_catf(&title, "%s%s %lld Mb/s", title ? ", " : "", m->name,
			     (long long)m->speed_mbps);
	}
	if (!differ) {
		free(title);
		return;
	}
	f = rdc_findings_add(c->out, "bond.speed-mismatch", RDC_SEV_WARN,
			     "members' speeds differ: %s", title ? title : "");
	free(title);
	for (size_t i = 0; i < c->n; i++)
		if (b->members[i].speed_mbps > top)
			top = b->members[i].speed_mbps;
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member *m = &b->members[i];

		if (m->speed_mbps <= 0)
			continue;
		rdc_ev_detail(rdc_ev_int(f, "speed_mbps", src, m->speed_mbps), "%s", m->name);
		if (m->speed_mbps < top)
			rdc_str_catf(&fix, "%s'rdmactl port show %s'", fix ? ", " : "", m->name);
	}
	rdc_finding_why(f,
			"hashing spreads flows evenly whatever the speed, so the slower member "
			"congests first (pauses, CNPs, longer tails); in active-backup a failover "
			"to it loses capacity");
	rdc_finding_fix(f,
			"give every member the same speed: check the slower one's optics, cable, "
			"autonegotiation and switch port (%s)",
			fix ? fix : "");
	free(fix);
}

static void check_mtu(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f, *skip = NULL;
	char *fix = NULL, *title = NULL;
	int64_t want = b->mtu;

	/* The members should carry the bond's MTU; without it, the largest member's. */
	for (size_t i = 0; i < c->n && b->mtu <= 0; i++)
		if (b->members[i].mtu > want)
			want = b->members[i].mtu;
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member *m = &b->members[i];

		if (m->mtu <= 0) {
			skip = check_skip(c, skip, "bond.mtu-skipped", "MTU", "mtu_bytes", m->name,
					  SRC_MTU, "the kernel did not report it");
			continue;
		}
		if (m->mtu == want)
			continue;
		rdc_str_catf(&title, "%s%s %lld", title ? ", " : "", m->name, (long long)m->mtu);
		rdc_str_catf(&fix, "%s'rdmactl port set %s mtu %lld'", fix ? "; " : "", m->name,
			     (long long)want);
	}
	if (!fix) {
		free(title);
		return;
	}
	if (b->mtu > 0)
		f = rdc_findings_add(c->out, "bond.mtu-mismatch", RDC_SEV_FAIL,
				     "members' MTU differ from %s's %lld: %s", b->name,
				     (long long)want, title ? title : "");
	else
		f = rdc_findings_add(c->out, "bond.mtu-mismatch", RDC_SEV_FAIL,
				     "members' MTU differ: %s, largest %lld", title ? title : "",
				     (long long)want);
	free(title);
	/* The bond's MTU, then each member's: whose it is in the detail. */
	if (b->mtu > 0)
		rdc_ev_detail(rdc_ev_int(f, "mtu_bytes", SRC_MTU, b->mtu), "%s", b->name);
	for (size_t i = 0; i < c->n; i++) {
		if (b->members[i].mtu <= 0)
			continue;
		rdc_ev_detail(rdc_ev_int(f, "mtu_bytes", SRC_MTU, b->members[i].mtu), "%s",
			      b->members[i].name);
	}
	rdc_finding_why(f,
			"RoCE sizes its frames from the bond's MTU (the RDMA device's netdev): "
			"a member with a smaller one drops them, so QPs sent there stall and fail "
			"with retry exceeded, for the flows hashed to it or after a failover");
	if (b->mtu > 0 && b->mtu == want) {
		char mtu[24];

		/* Setting the bond's MTU again sets every member's (bond_change_mtu). */
		snprintf(mtu, sizeof(mtu), "%lld", (long long)want);
		rdc_finding_fix(f,
				"'rdmactl port set %s mtu %s' (the bond sets its members'), or "
				"each: %s",
				b->name, mtu, fix);
		rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "port", "set", b->name, "mtu", mtu));
	} else {
		rdc_finding_fix(f, "%s", fix);
	}
	free(fix);
}

/* "0x08 (prio 3)", "0x18 (prio 3,4)", "0x00 (none)". */
static void check_pfc_text(char *buf, size_t size, uint8_t en)
{
	snprintf(buf, size, "0x%02x (%s", en, en ? "prio " : "none");
	for (unsigned int p = 0, n = 0; p < 8; p++)
		if (en & (1u << p))
			check_append(buf, size, "%s%u", n++ ? "," : "", p);
	check_append(buf, size, ")");
}

/*
 * A member's pfc_en as evidence: the bitmap, the member and its priorities
 * in the detail ("ens1f0np0: priorities 3,4", "ens1f1np1: no priority").
 */
static void check_ev_pfc_en(struct rdc_finding *f, const struct rdc_bond_member_facts *m)
{
	char on[24] = "";

	for (unsigned int p = 0; p < 8; p++)
		if (m->pfc_en & (1u << p))
			check_append(on, sizeof(on), "%s%u", on[0] ? "," : "", p);
	if (on[0])
		rdc_ev_detail(rdc_ev_uint(f, "pfc_en", m->dcb_source, m->pfc_en),
			      "%s: priorities %s", m->name, on);
	else
		rdc_ev_detail(rdc_ev_uint(f, "pfc_en", m->dcb_source, m->pfc_en), "%s: no priority",
			      m->name);
}

/* The fix for PFC and trust alike: the same profile on every member, through the bond. */
static void check_qos_fix(struct check *c, struct rdc_finding *f)
{
	rdc_finding_fix(f,
			"give every member the same lossless setup: 'rdmactl pfc apply dev %s "
			"profile roce-lossless' (pfc acts on each member of a bond)",
			c->b->name);
	rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "pfc", "apply", "dev", c->b->name, "profile",
					 "roce-lossless"));
}

static void check_pfc(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f, *skip = NULL;
	char *title = NULL, text[32];
	bool differ = false;
	int first = -1;

	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member_facts *m = check_facts(c, i);

		if (!m->have_dcb) {
			skip = check_skip(
				c, skip, "bond.pfc-skipped", "PFC", "pfc_en", b->members[i].name,
				m->dcb_source[0] ? m->dcb_source : "dcbnl DCB_CMD_IEEE_GET",
				m->dcb_reason);
			continue;
		}
		if (first < 0)
			first = m->pfc_en;
		else if (m->pfc_en != first)
			differ = true;
		check_pfc_text(text, sizeof(text), m->pfc_en);
		rdc_str_catf(&title, "%s%s %s", title ? ", " : "", b->members[i].name, text);
	}
	if (!differ) {
		free(title);
		return;
	}
	f = rdc_findings_add(c->out, "bond.pfc-mismatch", RDC_SEV_FAIL, "members' PFC differ: %s",
			     title ? title : "");
	free(title);
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member_facts *m = check_facts(c, i);

		if (m->have_dcb)
			check_ev_pfc_en(f, m);
	}
	rdc_finding_why(f, "RoCE moves between members (hashing, failover): on a member without "
			   "PFC on the RoCE priority congestion drops packets instead of pausing, "
			   "so the same traffic is lossless on one port and lossy on the other");
	check_qos_fix(c, f);
}

static void check_trust(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f, *skip = NULL;
	char *title = NULL;
	const char *first = NULL;
	bool differ = false;

	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member_facts *m = check_facts(c, i);

		if (!m->trust[0]) {
			char src[96];

			snprintf(src, sizeof(src),
				 NET_CLASS "/%s/qos/trust, dcbnl DCB_CMD_IEEE_GET (APP table)",
				 b->members[i].name);
			skip = check_skip(c, skip, "bond.trust-skipped", "trust", "trust",
					  b->members[i].name, src, m->trust_reason);
			continue;
		}
		if (!first)
			first = m->trust;
		else if (strcmp(m->trust, first))
			differ = true;
		rdc_str_catf(&title, "%s%s %s", title ? ", " : "", b->members[i].name, m->trust);
	}
	if (!differ) {
		free(title);
		return;
	}
	f = rdc_findings_add(c->out, "bond.trust-mismatch", RDC_SEV_FAIL,
			     "members trust different fields: %s", title ? title : "");
	free(title);
	for (size_t i = 0; i < c->n; i++) {
		const struct rdc_bond_member_facts *m = check_facts(c, i);

		if (!m->trust[0])
			continue;
		rdc_ev_detail(rdc_ev_text(f, "trust", m->trust_source, "%s", m->trust), "%s",
			      m->name);
		/* Trust derived from the APP table: how many DSCP entries it holds. */
		if (m->dscp_apps >= 0)
			rdc_ev_detail(rdc_ev_uint(f, "dscp_app_entries", m->trust_source,
						  (uint64_t)m->dscp_apps),
				      "%s", m->name);
	}
	rdc_finding_why(f,
			"the same RoCE packet gets a different priority on each member (by its "
			"DSCP on one, by its VLAN PCP, or 0 untagged, on the other), so it lands "
			"in a lossless queue on one port and a lossy one on the other");
	check_qos_fix(c, f);
}

static void check_hash(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	/* Only the hashing modes use xmit_hash_policy (active-backup sends on one member). */
	if (b->mode != RDC_BOND_BALANCE_XOR && b->mode != RDC_BOND_8023AD)
		return;
	if (b->xmit_hash_policy < 0) {
		f = rdc_findings_add(c->out, "bond.hash-skipped", RDC_SEV_INFO,
				     "xmit_hash_policy of %s unknown: RoCE spreading not checked",
				     b->name);
		rdc_ev_unknown(f, "xmit_hash_policy", SRC_HASH, "not read");
		rdc_finding_why(f, "in hash LAG the NIC spreads RoCE with this policy; without it "
				   "the spreading cannot be judged");
		rdc_finding_fix(f, "run the check where the bond's options can be read (as root "
				   "on the host, or on a bundle of it: 'rdmactl diag collect')");
		return;
	}
	/* encap3+4 hashes the same outer UDP ports for RoCEv2, which is not encapsulated. */
	if (b->xmit_hash_policy == RDC_BOND_HASH_L34 || b->xmit_hash_policy == RDC_BOND_HASH_E34)
		return;
	f = rdc_findings_add(c->out, "bond.hash-not-l34", RDC_SEV_WARN,
			     "xmit_hash_policy %s puts all RoCE between two hosts on one member",
			     HASH_NAME(b->xmit_hash_policy));
	rdc_ev_detail(
		rdc_ev_text(f, "xmit_hash_policy", SRC_HASH, "%s", HASH_NAME(b->xmit_hash_policy)),
		"policy %d", b->xmit_hash_policy);
	rdc_ev_text(f, "mode", SRC_MODE, "%s", MODE_NAME(b->mode));
	rdc_finding_why(f, "in hash LAG (ConnectX-6 Dx and later) the NIC hashes RoCE with the "
			   "bond's policy: layer2 and layer2+3 see one flow per host pair, while "
			   "layer3+4 hashes the RoCEv2 UDP source port, which differs per QP");
	rdc_finding_fix(f, "'rdmactl bond set %s xmit-hash layer3+4'", b->name);
	rdc_finding_fix_cmd(f,
			    RDC_WORDS("rdmactl", "bond", "set", b->name, "xmit-hash", "layer3+4"));
}

static void check_lacp(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	if (b->mode != RDC_BOND_8023AD)
		return;
	if (b->lacp_rate < 0) {
		f = rdc_findings_add(c->out, "bond.lacp-skipped", RDC_SEV_INFO,
				     "lacp_rate of %s unknown: LACP timeout not checked", b->name);
		rdc_ev_unknown(f, "lacp_rate", SRC_LACP, "not read");
		rdc_finding_why(f, "the LACP rate decides how long a silent partner goes unnoticed "
				   "(3 s fast, 90 s slow)");
		rdc_finding_fix(f, "run the check where the bond's options can be read (as root "
				   "on the host, or on a bundle of it: 'rdmactl diag collect')");
		return;
	}
	if (b->lacp_rate != 0)
		return;
	f = rdc_findings_add(c->out, "bond.lacp-slow", RDC_SEV_WARN,
			     "lacp_rate slow: a silent partner is noticed after 90 s");
	rdc_ev_detail(rdc_ev_text(f, "lacp_rate", SRC_LACP, "slow"),
		      "a LACPDU every 30 s, timed out after 90 s");
	rdc_finding_why(f, "with slow LACP the partner sends every 30 s and a member whose partner "
			   "went silent with the carrier still up (switch reboot, MLAG peer lost) "
			   "stays in use for 90 s, far past any QP retry window; fast: 3 s");
	rdc_finding_fix(f,
			"'rdmactl bond set %s lacp-rate fast' (the kernel changes it only on a "
			"down bond: traffic stops briefly)",
			b->name);
	rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "bond", "set", b->name, "lacp-rate", "fast"));
}

static void check_miimon(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	/* Unknown values are the failover check's to report; ARP monitoring is a choice. */
	if (b->miimon_ms != 0 || b->arp_interval_ms != 0 || b->mode < 0)
		return;
	if (b->mode == RDC_BOND_8023AD) {
		f = rdc_findings_add(c->out, "bond.miimon-off", RDC_SEV_WARN,
				     "miimon 0: only LACP timeouts detect a failed member");
		rdc_finding_why(f,
				"without MII monitoring the bond does not see a member's carrier "
				"go: it waits for LACP to time out (3 s fast, 90 s slow); the "
				"kernel warns that 802.3ad needs miimon");
	} else {
		f = rdc_findings_add(
			c->out, "bond.miimon-off", RDC_SEV_FAIL,
			"miimon 0 and no ARP monitoring: nothing detects a failed member");
		rdc_finding_why(f,
				"with neither MII nor ARP monitoring the bond never notices a "
				"dead member: it keeps sending on it and the QPs there fail after "
				"their retry window");
	}
	rdc_ev_int(f, "miimon_ms", SRC_MIIMON, b->miimon_ms);
	rdc_ev_int(f, "arp_interval_ms", SRC_ARP, b->arp_interval_ms);
	rdc_ev_text(f, "mode", SRC_MODE, "%s", MODE_NAME(b->mode));
	rdc_finding_fix(f, "'rdmactl bond set %s miimon 100'", b->name);
	rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "bond", "set", b->name, "miimon", "100"));
}

/* A bond option in ms as evidence: a number, null when it was not read (-1). */
static void check_ev_ms(struct rdc_finding *f, const char *name, const char *source, int64_t v)
{
	if (v < 0)
		rdc_ev_unknown(f, name, source, "not read");
	else
		rdc_ev_int(f, name, source, v);
}

/* The options the failover estimate rests on, as evidence. */
static void check_failover_evidence(const struct rdc_bond *b, struct rdc_finding *f)
{
	const char *rate = rdc_bond_lacp_rate_name(b->lacp_rate);

	check_ev_ms(f, "miimon_ms", SRC_MIIMON, b->miimon_ms);
	if (b->miimon_ms > 0)
		check_ev_ms(f, "downdelay_ms", SRC_DOWNDELAY, b->downdelay_ms);
	else if (b->mode == RDC_BOND_8023AD && rate)
		rdc_ev_text(f, "lacp_rate", SRC_LACP, "%s", rate);
	else if (b->mode == RDC_BOND_8023AD)
		rdc_ev_unknown(f, "lacp_rate", SRC_LACP, "not read");
	else
		check_ev_ms(f, "arp_interval_ms", SRC_ARP, b->arp_interval_ms);
}

/* The bond's mode as evidence: its name, null when it was not read. */
static void check_ev_mode(const struct rdc_bond *b, struct rdc_finding *f)
{
	if (b->mode < 0)
		rdc_ev_unknown(f, "mode", SRC_MODE, "not read");
	else
		rdc_ev_text(f, "mode", SRC_MODE, "%s", MODE_NAME(b->mode));
}

/* What the failover estimate counts, for the why. */
static const char *check_detector(const struct rdc_bond *b)
{
	if (b->miimon_ms > 0)
		return "miimon + downdelay";
	if (b->mode == RDC_BOND_8023AD)
		return "the LACP timeout";
	return "2 ARP intervals";
}

/* ... and as the source of the estimate's evidence. */
static const char *check_estimate(const struct rdc_bond *b)
{
	if (b->miimon_ms > 0)
		return "estimate: miimon + downdelay";
	if (b->mode == RDC_BOND_8023AD)
		return "estimate: LACP timeout (3 s fast, 90 s slow)";
	return "estimate: arp_interval * arp_missed_max (2)";
}

static void check_failover(struct check *c)
{
	const struct rdc_bond *b = c->b;
	const struct rdc_bond_check_params *p = c->p;
	double fo = rdc_bond_failover_s(b), w = rdc_qp_survival_s(p->qp_timeout, p->retry_cnt);
	/* fix: our words with three numbers and a bond name (15 bytes), under 300 bytes. */
	char fos[32], ws[32], ack[32], fix[320];
	struct rdc_finding *f;
	int t;

	if (b->nmembers == 0)
		return;
	if (c->no_lag) {
		f = rdc_findings_add(c->out, "bond.failover-skipped", RDC_SEV_INFO,
				     "QP survival not judged: without RoCE LAG a QP cannot move");
		if (b->mode >= 0 && !rdc_bond_mode_roce_lag(b->mode))
			rdc_ev_text(f, "mode", SRC_MODE, "%s", MODE_NAME(b->mode));
		/* The NICs as one list of words: how many is in the title. */
		if (c->nics)
			rdc_ev_text(f, "nics", NET_CLASS "/MEMBER/device", "%s", c->nics);
		rdc_finding_why(f,
				"a QP stays on its port's RDMA device and dies with the port "
				"whatever its timeout; the bond's address moves, and rdma_cm "
				"reports RDMA_CM_EVENT_ADDR_CHANGE so applications can reconnect");
		rdc_finding_fix(f, "nothing to tune here: make the bond a RoCE LAG (the bond.* "
				   "failures above say how), or let applications reconnect");
		return;
	}
	if (isnan(w)) {
		f = rdc_findings_add(
			c->out, "bond.failover-skipped", RDC_SEV_INFO,
			"QP survival not judged: timeout %u / retry_cnt %u out of range",
			p->qp_timeout, p->retry_cnt);
		rdc_ev_detail(rdc_ev_uint(f, "qp_timeout", SRC_QP, p->qp_timeout), "valid: 0..%d",
			      RDC_QP_TIMEOUT_MAX);
		rdc_ev_detail(rdc_ev_uint(f, "retry_cnt", SRC_QP, p->retry_cnt), "valid: 0..%d",
			      RDC_QP_RETRY_MAX);
		rdc_finding_why(f, "the IBTA fields hold a 5-bit timeout and a 3-bit retry count");
		rdc_finding_fix(f, "give qp-timeout 0-31 and retry-cnt 0-7");
		return;
	}
	if (isinf(fo))
		return; /* bond.miimon-off: nothing detects a failure at all */
	if (isnan(fo)) {
		f = rdc_findings_add(c->out, "bond.failover-skipped", RDC_SEV_INFO,
				     "QP survival not judged: failover time of %s unknown",
				     b->name);
		check_failover_evidence(b, f);
		check_ev_mode(b, f);
		rdc_finding_why(f,
				"the options that set how fast the bond notices a dead member "
				"(miimon, downdelay, lacp_rate, arp_interval) were not all read");
		rdc_finding_fix(f, "run the check where the bond's options can be read (as root "
				   "on the host, or on a bundle of it: 'rdmactl diag collect')");
		return;
	}
	check_secs(fos, sizeof(fos), fo);
	check_secs(ws, sizeof(ws), w);
	check_secs(ack, sizeof(ack), rdc_qp_ack_timeout_s(p->qp_timeout));
	t = rdc_qp_min_timeout(fo, p->retry_cnt);
	if (fo >= w && t > 0)
		f = rdc_findings_add(c->out, "bond.failover-outlasts-qp", RDC_SEV_FAIL,
				     "failover (about %s) outlasts the QP retry window (%s): use "
				     "timeout %d or more",
				     fos, ws, t);
	else if (fo >= w)
		f = rdc_findings_add(c->out, "bond.failover-outlasts-qp", RDC_SEV_FAIL,
				     "failover (about %s) outlasts every QP retry window", fos);
	else if (isinf(w))
		f = rdc_findings_add(
			c->out, "bond.qp-outlives-failover", RDC_SEV_INFO,
			"QPs with timeout 0 never time out: they outlive any failover");
	else
		f = rdc_findings_add(c->out, "bond.qp-outlives-failover", RDC_SEV_INFO,
				     "QPs outlive a failover: retry window %s vs failover about %s "
				     "(%.1fx)",
				     ws, fos, w / fo);
	check_failover_evidence(b, f);
	/* Named as bond check's document names the same values. */
	rdc_ev_real(f, "failover_s", check_estimate(b), fo);
	rdc_ev_detail(rdc_ev_uint(f, "qp_timeout", SRC_QP, p->qp_timeout), "ACK timeout %s", ack);
	rdc_ev_uint(f, "retry_cnt", SRC_QP, p->retry_cnt);
	if (isinf(w))
		rdc_ev_detail(rdc_ev_unknown(f, "qp_survival_s", SRC_WINDOW, "infinite"),
			      "timeout 0 turns the ACK timer off: the QP waits forever");
	else
		rdc_ev_real(f, "qp_survival_s", SRC_WINDOW, w);
	if (isinf(w)) {
		rdc_finding_why(f, "a QP without an ACK timeout waits forever: it survives any "
				   "failover, but a really dead peer is never noticed and the "
				   "application hangs instead of failing");
		rdc_finding_fix(f, "give the QPs a finite timeout that still outlasts the failover "
				   "('rdmactl bond check qp-timeout N' shows the window of N)");
		return;
	}
	if (fo < w) {
		rdc_finding_why(f,
				"the estimate counts detection (%s) only: the NIC's remap and "
				"the switch add to it, so keep a margin; a longer window also "
				"delays noticing a really dead peer",
				check_detector(b));
		rdc_finding_fix(f,
				"nothing to change: measure the real outage with 'rdmactl bond "
				"failover %s' before relying on the margin",
				b->name);
		return;
	}
	rdc_finding_why(f,
			"a failed member stalls its QPs for about %s (%s) but they give up "
			"after %s (timeout %u, retry_cnt %u): they fail with "
			"IBV_WC_RETRY_EXC_ERR although another member is up",
			fos, check_detector(b), ws, p->qp_timeout, p->retry_cnt);
	fix[0] = '\0';
	if (t > 0)
		check_append(fix, sizeof(fix),
			     "give the QPs timeout %d or more (ibv_qp_attr.timeout, "
			     "rdma_set_option RDMA_OPTION_ID_ACK_TIMEOUT, NCCL_IB_TIMEOUT=%d, "
			     "ib_write_bw -u %d)",
			     t, t, t);
	/* LACP and ARP detection take seconds: MII monitoring is the faster cure. */
	if (b->miimon_ms == 0)
		check_append(fix, sizeof(fix), "%sdetect faster: 'rdmactl bond set %s miimon 100'",
			     fix[0] ? ", or " : "", b->name);
	else if (b->downdelay_ms > 0)
		check_append(fix, sizeof(fix),
			     "%sshorten downdelay (%lld ms): 'rdmactl bond set %s "
			     "downdelay 0'",
			     fix[0] ? ", or " : "", (long long)b->downdelay_ms, b->name);
	rdc_finding_fix(f, "%s", fix);
	/* On the host, the bond is what a command can change; the QPs are the application's. */
	if (b->miimon_ms == 0)
		rdc_finding_fix_cmd(f,
				    RDC_WORDS("rdmactl", "bond", "set", b->name, "miimon", "100"));
	else if (b->downdelay_ms > 0)
		rdc_finding_fix_cmd(f,
				    RDC_WORDS("rdmactl", "bond", "set", b->name, "downdelay", "0"));
}

static void check_rdma(struct check *c)
{
	const struct rdc_bond *b = c->b;
	struct rdc_finding *f;

	if (b->rdma_device[0] && b->rdma_soft) {
		f = rdc_findings_add(c->out, "bond.soft-roce", RDC_SEV_INFO,
				     "Soft-RoCE: %s port %u runs on %s itself", b->rdma_device,
				     b->rdma_port, b->name);
		rdc_ev_detail(rdc_ev_text(f, "rdma_device", SRC_RDMA, "%s", b->rdma_device),
			      "software, on %s", b->name);
		rdc_ev_uint(f, "rdma_port", SRC_RDMA, b->rdma_port);
		rdc_finding_why(f,
				"its packets leave through whichever member the bond uses: no NIC "
				"offload, and an open QP lives through a failover only if its "
				"retransmissions outlast the outage");
		rdc_finding_fix(f,
				"nothing to change: for hardware offload use a NIC's RoCE LAG, "
				"and measure the outage with 'rdmactl bond failover %s'",
				b->name);
		return;
	}
	if (b->rdma_device[0]) {
		f = rdc_findings_add(c->out, "bond.roce-lag", RDC_SEV_INFO,
				     "RoCE LAG: %s port %u serves %s", b->rdma_device, b->rdma_port,
				     b->name);
		rdc_ev_text(f, "rdma_device", SRC_RDMA, "%s", b->rdma_device);
		rdc_ev_uint(f, "rdma_port", SRC_RDMA, b->rdma_port);
		rdc_finding_why(f,
				"RDMA on this bond's address runs over %s, and the NIC moves its "
				"QPs between the members",
				b->rdma_device);
		rdc_finding_fix(f, "nothing to change: this is the setup RoCE LAG wants");
		return;
	}
	f = rdc_findings_add(c->out, "bond.no-rdma-device", RDC_SEV_INFO,
			     "no RDMA device serves %s: %s", b->name,
			     b->rdma_reason[0] ? b->rdma_reason : "no reason recorded");
	rdc_ev_unknown(f, "rdma_device", SRC_RDMA, "none");
	rdc_finding_why(f, "RoCE LAG shows as one RDMA device whose port's netdev is the bond; "
			   "without it RDMA on the bond's address is not offloaded across the "
			   "members");
	if (!c->no_lag && b->nmembers > 1)
		rdc_finding_fix(f, "the driver says why in the kernel log ('dmesg | grep -i lag'; "
				   "mlx5: SR-IOV VFs, eswitch mode, not every port enslaved)");
	else
		rdc_finding_fix(f, "the failures above say what keeps the bond from RoCE LAG; "
				   "until then RDMA runs on each member's own device");
}

void rdc_bond_check_eval(const struct rdc_bond *b, const struct rdc_bond_facts *f,
			 const struct rdc_bond_check_params *p, struct rdc_findings *out)
{
	struct check c = {.b = b, .f = f, .p = p, .out = out};
	size_t first = out->count;

	c.n = b->nmembers < RDC_BOND_MAX_MEMBERS ? b->nmembers : RDC_BOND_MAX_MEMBERS;

	check_members_present(&c);
	check_mode(&c);
	check_nic(&c);
	check_member_state(&c);
	check_speed(&c);
	check_mtu(&c);
	check_pfc(&c);
	check_trust(&c);
	check_hash(&c);
	check_lacp(&c);
	check_miimon(&c);
	check_failover(&c);
	check_rdma(&c);
	/* Every finding is about the bond: the same shape as diag's (its "bond" key). */
	for (size_t i = first; i < out->count; i++)
		if (!out->items[i].bond[0])
			rdc_strlcpy(out->items[i].bond, b->name, sizeof(out->items[i].bond));
	free(c.nics);
}
