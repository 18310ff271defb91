// SPDX-License-Identifier: GPL-2.0-or-later
/* failover.c - one bond failover measured: kernel events, an ICMP probe stream, an RDMA stream */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/rtnetlink.h> /* RTNLGRP_LINK */

#include "base/util.h"
#include "bond/failover.h"
#include "host/ibdev.h"
#include "host/link.h"
#include "kernel/bondnl.h"
#include "kernel/bondnl_event.h"
#include "seam/fs.h"
#include "seam/nl.h"

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull

/*
 * Bounds of every wait, in ms.  Soft-RoCE under TCG needs seconds to set up
 * a connection, hence the generous RDMA ones.
 */
#define FO_FIRST_REPLY_MS 3000u /* the peer answers a probe before we start */
#define FO_RDMA_START_MS 30000	/* the first RDMA connection carries traffic */
#define FO_BASELINE_MS 500	/* traffic measured before the fault */
#define FO_REACT_MS 5000	/* member mode: + miimon + downdelay for the bond to react */
#define FO_SETTLE_MS 1000	/* traffic measured after it flows again */
#define FO_SETTLE_MAX_MS 10000	/* ... at most, after the reaction */
#define FO_RDMA_SURVIVE_MS 3000 /* > 4 x (4.096 us * 2^14) * 8: bench's QP gives up by then */
#define FO_RECONNECT_MS 30000	/* a new RDMA connection carries traffic */
#define FO_BACK_MS 10000	/* member mode: + updelay + miimon for the member to come back */
#define FO_LOOP_MS 10		/* the main loop's tick: the resolution of the bounds above */
#define FO_RDMA_RETRY_MS 200	/* between RDMA connection attempts */
#define FO_RDMA_RUNS 16		/* connections one measurement may use */
#define FO_RDMA_ATTEMPTS 100	/* connection attempts, failed ones included */
#define FO_RDMA_INTERVALS 8192	/* 100 ms intervals kept: 13 minutes */
#define FO_RDMA_MSG_BYTES 1024	/* one rxe packet at path MTU 1024 */
#define FO_RDMA_INTERVAL_NS (100 * NS_PER_MS)
#define FO_PROBE_RING 16384 /* probes in flight: > RDC_FAILOVER_MAX_HZ x the reply timeout */
#define FO_PROBE_COOKIE 0x72646366u /* "rdcf": our replies among other pings' */

static uint64_t fo_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static double fo_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* ---- names ---------------------------------------------------------------- */

static const char *const fo_what_names[RDC_FO_WHAT_COUNT] = {
	[RDC_FO_FAULT_INJECTED] = "fault_injected",
	[RDC_FO_RESTORED] = "restored",
	[RDC_FO_ADMIN_DOWN] = "admin_down",
	[RDC_FO_ADMIN_UP] = "admin_up",
	[RDC_FO_CARRIER_LOST] = "carrier_lost",
	[RDC_FO_CARRIER_BACK] = "carrier_back",
	[RDC_FO_MII_STATUS] = "mii_status",
	[RDC_FO_STATE_ACTIVE] = "state_active",
	[RDC_FO_STATE_BACKUP] = "state_backup",
	[RDC_FO_ACTIVE_MEMBER] = "active_member",
	[RDC_FO_FAILOVER_NOTICE] = "failover_notice",
	[RDC_FO_AGGREGATOR_LEFT] = "aggregator_left",
	[RDC_FO_AGGREGATOR_JOINED] = "aggregator_joined",
	[RDC_FO_MEMBER_ADDED] = "member_added",
	[RDC_FO_MEMBER_REMOVED] = "member_removed",
	[RDC_FO_RDMA_FAILED] = "rdma_failed",
	[RDC_FO_RDMA_CONNECTED] = "rdma_connected",
};

const char *rdc_failover_what_name(enum rdc_failover_what what)
{
	return (unsigned int)what < RDC_FO_WHAT_COUNT ? fo_what_names[what] : NULL;
}

/* IFLA_BOND_SLAVE_MII_STATUS: BOND_LINK_UP, _FAIL, _DOWN, _BACK. */
static const char *fo_mii_name(int status)
{
	static const char *const names[] = {"up", "going_down", "down", "going_back"};

	return status >= 0 && (size_t)status < RDC_ARRAY_SIZE(names) ? names[status] : "unknown";
}

/* ---- the probe gap (pure) ------------------------------------------------- */

void rdc_failover_gap_init(struct rdc_failover_gap *g)
{
	memset(g, 0, sizeof(*g));
}

/* A gap between answered probes (or the ends): kept if lossy, and if it is the longest. */
static void gap_offer(struct rdc_failover_gap *g, uint64_t start, uint64_t end, uint64_t lost,
		      bool open_start, bool open_end)
{
	struct rdc_failover_span sp = {
		start, end, lost, open_start, open_end, g->sent, g->sent - g->received};
	const struct rdc_failover_span *l = &g->longest;

	if (lost) {
		if (g->nspans < RDC_FAILOVER_MAX_SPANS)
			g->first_spans[g->nspans] = sp;
		g->spans[g->nspans++ % RDC_FAILOVER_MAX_SPANS] = sp;
	}
	/* Lossy beats lossless, then the longer wins, the first of equals. */
	if (g->found && (!lost && l->lost))
		return;
	if (g->found && (!lost == !l->lost) && end - start <= l->end_ns - l->start_ns)
		return;
	g->found = true;
	g->longest = sp;
}

/*
 *   answered after answered           gap = the two send times, lost = 0
 *   answered after k lost             gap = last answered .. this one, lost = k
 *   answered after k lost, none yet   gap = first probe .. this one, open_start
 */
void rdc_failover_gap_add(struct rdc_failover_gap *g, uint64_t sent_ns, bool answered)
{
	if (g->sent && sent_ns > g->last_ns && sent_ns - g->last_ns > g->max_send_pause_ns)
		g->max_send_pause_ns = sent_ns - g->last_ns;
	if (!g->sent)
		g->first_ns = sent_ns;
	g->sent++;
	g->last_ns = sent_ns;
	if (!answered) {
		g->run_lost++;
		return;
	}
	g->received++;
	if (g->last_ok_ns)
		gap_offer(g, g->last_ok_ns, sent_ns, g->run_lost, false, false);
	else if (g->run_lost)
		gap_offer(g, g->first_ns, sent_ns, g->run_lost, true, false);
	g->last_ok_ns = sent_ns;
	g->run_lost = 0;
}

/*
 *   lost at the end, some answered    gap = last answered .. last probe, open_end
 *   none answered at all              gap = first .. last probe, open both ways
 */
void rdc_failover_gap_finish(struct rdc_failover_gap *g)
{
	if (!g->run_lost)
		return;
	if (g->last_ok_ns)
		gap_offer(g, g->last_ok_ns, g->last_ns, g->run_lost, false, true);
	else
		gap_offer(g, g->first_ns, g->last_ns, g->run_lost, true, true);
	g->run_lost = 0;
}

bool rdc_failover_gap_pick(const struct rdc_failover_gap *g, uint64_t fault_ns, uint64_t until_ns,
			   struct rdc_failover_span *out)
{
	const uint64_t max = RDC_FAILOVER_MAX_SPANS;
	uint64_t nfirst = g->nspans < max ? g->nspans : max;
	/* The ring's spans that are not among the first ones, oldest first. */
	uint64_t from = g->nspans > 2 * max ? g->nspans - max : nfirst;

	for (uint64_t k = 0; k < nfirst + (g->nspans - from); k++) {
		const struct rdc_failover_span *sp =
			k < nfirst ? &g->first_spans[k] : &g->spans[(from + k - nfirst) % max];

		if (sp->end_ns > fault_ns && sp->start_ns < until_ns) {
			*out = *sp;
			return true;
		}
	}
	return false;
}

/* ---- the timeline and what it says (pure) --------------------------------- */

static bool fo_mode_has_active(int mode)
{
	return mode == RDC_BOND_ACTIVE_BACKUP || mode == RDC_BOND_BALANCE_TLB ||
	       mode == RDC_BOND_BALANCE_ALB;
}

static bool ev_is(const struct rdc_failover_event *e, enum rdc_failover_what what,
		  const char *netdev)
{
	return e->what == what && (!netdev || !strcmp(e->netdev, netdev));
}

/* The member has failed as the driver sees it: the cable or its admin state. */
static bool ev_is_fault(const struct rdc_failover_event *e)
{
	return e->what == RDC_FO_CARRIER_LOST || e->what == RDC_FO_ADMIN_DOWN;
}

/* The bond stopped using @m: MII down, backup, out of the aggregator, released. */
static bool ev_is_detection(const struct rdc_failover_event *e, const char *m, const char *bond,
			    bool m_was_active)
{
	if (!strcmp(e->netdev, m))
		return (e->what == RDC_FO_MII_STATUS && !strcmp(e->value, "down")) ||
		       e->what == RDC_FO_STATE_BACKUP || e->what == RDC_FO_AGGREGATOR_LEFT ||
		       e->what == RDC_FO_MEMBER_REMOVED;
	return m_was_active && !strcmp(e->netdev, bond) && e->what == RDC_FO_ACTIVE_MEMBER &&
	       strcmp(e->value, m);
}

static double fo_nan(void)
{
	return (double)NAN;
}

/*
 * The member whose failure the timeline shows (wait mode): the active one
 * when it failed (a dead backup is no failover), else the first that did.
 */
static void derive_member(struct rdc_failover_report *r)
{
	const struct rdc_failover_event *first = NULL;

	for (size_t i = 0; i < r->nevents; i++) {
		const struct rdc_failover_event *e = &r->events[i];

		if (!strcmp(e->netdev, r->bond) || e->what >= RDC_FO_RDMA_FAILED)
			continue;
		if (!ev_is_fault(e) && !ev_is_detection(e, e->netdev, r->bond, false))
			continue;
		if (fo_mode_has_active(r->mode) && r->active_before[0] &&
		    !strcmp(e->netdev, r->active_before)) {
			first = e;
			break;
		}
		if (!first)
			first = e;
	}
	if (first)
		rdc_strlcpy(r->member, first->netdev, sizeof(r->member));
}

void rdc_failover_derive(struct rdc_failover_report *r)
{
	const char *m = r->member;
	size_t fi = r->nevents, di = r->nevents, ri = r->nevents, restore_i = r->nevents;
	bool m_was_active;

	r->failover = false;
	r->detected_at_s = r->detect_s = r->reacted_at_s = r->react_s = fo_nan();
	r->member_back_s = r->failback_s = fo_nan();
	r->react_reason[0] = '\0';
	r->fault_note[0] = '\0';
	if (!r->member_mode) {
		r->member[0] = '\0';
		r->fault_s = fo_nan();
		derive_member(r);
	}
	if (!m[0])
		return;
	m_was_active = fo_mode_has_active(r->mode) && !strcmp(r->active_before, m);
	/* The fault: our injection, or the member's first carrier loss / admin down. */
	for (size_t i = 0; i < r->nevents && fi == r->nevents; i++) {
		const struct rdc_failover_event *e = &r->events[i];

		if (r->member_mode ? ev_is(e, RDC_FO_FAULT_INJECTED, m)
				   : ev_is_fault(e) && !strcmp(e->netdev, m))
			fi = i;
	}
	/* Without one (an ARP monitor, a gray failure) the detection stands for it. */
	for (size_t i = fi == r->nevents ? 0 : fi; i < r->nevents && di == r->nevents; i++)
		if (ev_is_detection(&r->events[i], m, r->bond, m_was_active))
			di = i;
	if (fi == r->nevents && !r->member_mode)
		fi = di;
	if (fi == r->nevents)
		return;
	if (!r->member_mode)
		r->fault_s = r->events[fi].t_s;
	if (di == r->nevents) {
		snprintf(r->react_reason, sizeof(r->react_reason),
			 "the bond did not mark '%s' down", m);
		return;
	}
	r->detected_at_s = r->events[di].t_s;
	r->detect_s = r->detected_at_s - r->fault_s;
	/*
	 * The bond reads the carrier itself (miimon) and may announce the member
	 * down before linkwatch announces the carrier: then one message says both,
	 * and the cable went up to one miimon interval before it.
	 */
	if (!r->member_mode && r->detect_s == 0)
		snprintf(r->fault_note, sizeof(r->fault_note),
			 "the carrier loss was first announced with the bond's detection: "
			 "the fault came up to one miimon interval earlier");

	if (fo_mode_has_active(r->mode)) {
		if (!m_was_active) {
			snprintf(r->react_reason, sizeof(r->react_reason),
				 "'%s' was not the active member: nothing to fail over", m);
		} else {
			for (size_t i = di; i < r->nevents && ri == r->nevents; i++)
				if (ev_is(&r->events[i], RDC_FO_ACTIVE_MEMBER, r->bond) &&
				    r->events[i].value[0] && strcmp(r->events[i].value, m))
					ri = i;
			if (ri == r->nevents)
				snprintf(r->react_reason, sizeof(r->react_reason),
					 "no other member became active");
		}
	} else if (r->mode == RDC_BOND_8023AD) {
		/*
		 * Out of the transmit set: the port stopped distributing, or the bond
		 * made it a backup (what the 6.1 kernel announces for a port whose link
		 * went: its LACP actor state changes without a message of its own).
		 */
		for (size_t i = fi; i < r->nevents && ri == r->nevents; i++)
			if (ev_is(&r->events[i], RDC_FO_AGGREGATOR_LEFT, m) ||
			    ev_is(&r->events[i], RDC_FO_STATE_BACKUP, m))
				ri = i;
		if (ri == r->nevents)
			snprintf(r->react_reason, sizeof(r->react_reason),
				 "'%s' did not leave the aggregator", m);
	} else {
		/* rr, xor, broadcast: marked down is out of the transmit set, at once. */
		snprintf(r->react_reason, sizeof(r->react_reason),
			 "this mode has no active member: marked down is the reaction");
		r->failover = true;
	}
	if (ri < r->nevents) {
		r->failover = true;
		r->reacted_at_s = r->events[ri].t_s;
		r->react_s = r->reacted_at_s - r->detected_at_s;
	}

	/* The way back: after our restore, or after the detection when waiting. */
	for (size_t i = 0; i < r->nevents && restore_i == r->nevents; i++)
		if (ev_is(&r->events[i], RDC_FO_RESTORED, m))
			restore_i = i;
	if (restore_i == r->nevents)
		restore_i = di;
	for (size_t i = restore_i; i < r->nevents; i++) {
		const struct rdc_failover_event *e = &r->events[i];

		if (isnan(r->member_back_s) && ev_is(e, RDC_FO_MII_STATUS, m) &&
		    !strcmp(e->value, "up"))
			r->member_back_s = e->t_s;
		if (isnan(r->failback_s) && m_was_active &&
		    ev_is(e, RDC_FO_ACTIVE_MEMBER, r->bond) && !strcmp(e->value, m))
			r->failback_s = e->t_s;
	}
}

/* ---- the engine's state ----------------------------------------------------- */

struct fo_link {
	struct rdc_bond_link_event last;
	bool used;
};

struct fo_slot {
	uint64_t idx;
	uint64_t sent_ns, recv_ns; /* recv_ns 0: no reply yet */
};

struct fo_probe {
	int fd, tfd;
	bool raw;
	uint16_t id; /* raw sockets: ours; ping sockets: the kernel's */
	unsigned int hz;
	struct sockaddr_in dst;
	pthread_t thread;
	bool started;
	int stop;	     /* atomic */
	uint64_t split_ns;   /* atomic: probes sent from then on count toward @after */
	uint64_t last_ok_ns; /* atomic: send time of the newest answered probe */
	uint64_t replies;    /* atomic */
	uint64_t next_idx, fin_idx;
	uint64_t send_errors, rtt_max_ns;
	struct rdc_failover_gap before, after;
	struct fo_slot ring[FO_PROBE_RING];
};

struct fo_interval {
	unsigned int run;
	uint64_t start_ns, bytes;
};

struct fo_rdma_conn {
	bool connected;
	int status, rc;
	uint64_t failed_ns, started_ns, ended_ns, stall_ns;
	char error[RDC_ERR_MSG_LEN]; /* run.error, or the error record's message */
};

struct fo_rdma {
	pthread_t thread;
	bool started;
	volatile sig_atomic_t stop;
	uint64_t stop_ns;
	const struct rdc_failover_opts *o;
	char device[72];
	double duration_s;
	pthread_mutex_t lock;
	/* Under the lock. */
	unsigned int nruns; /* connections that carried traffic (runs[nruns]: the attempt now) */
	unsigned int cur;   /* the connection now running, from 1 */
	struct fo_rdma_conn runs[FO_RDMA_RUNS];
	size_t niv;
	struct fo_interval iv[FO_RDMA_INTERVALS];
	bool done;
};

struct fo_state {
	const struct rdc_failover_opts *o;
	struct rdc_failover_report *r;
	struct rdc_nl_monitor *mon;
	int bond_ifindex;
	bool recording; /* events go to the timeline (not while reading the first state) */
	struct fo_link links[RDC_BOND_MAX_MEMBERS + 1];
	struct fo_probe *probe;
	struct fo_rdma *rdma;
	struct rdc_err *err;
	bool dumping;
	bool injected; /* we sent the member's admin down */
};

/* ---- kernel events into the timeline ---------------------------------------- */

static void fo_add_event(struct fo_state *s, uint64_t when_ns, const char *netdev,
			 enum rdc_failover_what what, const char *value)
{
	struct rdc_failover_report *r = s->r;
	struct rdc_failover_event *e;

	if (r->nevents == RDC_FAILOVER_MAX_EVENTS) {
		r->dropped_events++;
		return;
	}
	e = &r->events[r->nevents++];
	memset(e, 0, sizeof(*e));
	e->t_s = when_ns >= r->t0_ns ? (double)(when_ns - r->t0_ns) / 1e9
				     : -(double)(r->t0_ns - when_ns) / 1e9;
	rdc_strlcpy(e->netdev, netdev, sizeof(e->netdev));
	e->what = what;
	rdc_strlcpy(e->value, value ? value : "", sizeof(e->value));
}

static struct fo_link *fo_link_find(struct fo_state *s, int ifindex)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(s->links); i++)
		if (s->links[i].used && s->links[i].last.ifindex == ifindex)
			return &s->links[i];
	return NULL;
}

static const char *fo_name_of(struct fo_state *s, int ifindex)
{
	struct fo_link *l = ifindex > 0 ? fo_link_find(s, ifindex) : NULL;

	return l ? l->last.name : "";
}

static bool fo_distributing(const struct rdc_bond_link_event *e)
{
	return e->actor_state >= 0 && (e->actor_state & RDC_LACP_DISTRIBUTING);
}

/* What changed between two snapshots of one link, as timeline entries. */
static void fo_diff(struct fo_state *s, const struct rdc_bond_link_event *a,
		    const struct rdc_bond_link_event *b, uint64_t t)
{
	char v[64];

	if (a->admin_up != b->admin_up)
		fo_add_event(s, t, b->name, b->admin_up ? RDC_FO_ADMIN_UP : RDC_FO_ADMIN_DOWN,
			     NULL);
	if (a->carrier != b->carrier)
		fo_add_event(s, t, b->name, b->carrier ? RDC_FO_CARRIER_BACK : RDC_FO_CARRIER_LOST,
			     NULL);
	if (b->member && a->mii_status >= 0 && b->mii_status >= 0 && a->mii_status != b->mii_status)
		fo_add_event(s, t, b->name, RDC_FO_MII_STATUS, fo_mii_name(b->mii_status));
	if (b->member && a->state >= 0 && b->state >= 0 && a->state != b->state)
		fo_add_event(s, t, b->name, b->state ? RDC_FO_STATE_BACKUP : RDC_FO_STATE_ACTIVE,
			     NULL);
	if (b->member && a->actor_state >= 0 && b->actor_state >= 0 &&
	    fo_distributing(a) != fo_distributing(b)) {
		snprintf(v, sizeof(v), "aggregator %lld", (long long)b->aggregator_id);
		fo_add_event(s, t, b->name,
			     fo_distributing(b) ? RDC_FO_AGGREGATOR_JOINED : RDC_FO_AGGREGATOR_LEFT,
			     v);
	}
	if (b->bond && a->active_member >= 0 && b->active_member >= 0 &&
	    a->active_member != b->active_member)
		fo_add_event(s, t, b->name, RDC_FO_ACTIVE_MEMBER, fo_name_of(s, b->active_member));
	if (b->bond && b->event == IFLA_EVENT_BONDING_FAILOVER)
		fo_add_event(s, t, b->name, RDC_FO_FAILOVER_NOTICE,
			     fo_name_of(s, b->active_member));
}

static struct fo_link *fo_link_new(struct fo_state *s)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(s->links); i++)
		if (!s->links[i].used)
			return &s->links[i];
	return NULL;
}

/*
 * One announcement: the bond (by name until its ifindex is known), its
 * members (IFLA_MASTER), and members leaving (another master, or deleted).
 */
static void fo_apply(struct fo_state *s, const struct rdc_bond_link_event *ev, uint64_t t)
{
	struct fo_link *l = fo_link_find(s, ev->ifindex);
	bool is_bond = ev->bond && (s->bond_ifindex ? ev->ifindex == s->bond_ifindex
						    : !strcmp(ev->name, s->o->bond));
	bool is_member = s->bond_ifindex && ev->member && ev->master == s->bond_ifindex;
	struct rdc_bond_link_event merged = *ev;

	if (ev->deleted || (!is_bond && !is_member)) {
		if (l && !is_bond && s->recording)
			fo_add_event(s, t, l->last.name, RDC_FO_MEMBER_REMOVED, NULL);
		if (l)
			l->used = false;
		if (is_bond && ev->deleted)
			s->bond_ifindex = -1; /* gone: nothing matches any more */
		return;
	}
	if (is_bond)
		s->bond_ifindex = ev->ifindex;
	if (!merged.name[0] && l)
		rdc_strlcpy(merged.name, l->last.name, sizeof(merged.name));
	if (!l) {
		l = fo_link_new(s);
		if (!l)
			return; /* more members than a bond may have: not followed */
		l->used = true;
		if (is_member && s->recording)
			fo_add_event(s, t, merged.name, RDC_FO_MEMBER_ADDED, NULL);
	} else if (s->recording) {
		fo_diff(s, &l->last, &merged, t);
	}
	l->last = merged;
}

static int fo_event_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct fo_state *s = arg;
	struct rdc_bond_link_event ev;
	int rc = rdc_bondnl_event_parse(nlh, &ev);

	if (rc == -ENOMSG)
		return 0;
	if (rc) {
		s->r->event_overruns++; /* one bad message loses one snapshot, not the measurement */
		return 0;
	}
	/* A dump's answer is the state now; an event's is when it was read. */
	fo_apply(s, &ev, s->dumping || !s->mon ? fo_now_ns() : rdc_nl_monitor_stamp_ns(s->mon));
	return 0;
}

static int fo_dump(struct fo_state *s, struct rdc_err *err)
{
	int rc;

	s->dumping = true;
	rc = rdc_bondnl_dump_links(fo_event_cb, s, err);
	s->dumping = false;
	return rc;
}

/* Read what is queued (up to @timeout_ms); an overrun is counted, and the state re-read. */
static int fo_pump(struct fo_state *s, int timeout_ms)
{
	struct rdc_err err = {0};
	int rc = rdc_nl_monitor_recv(s->mon, timeout_ms, fo_event_cb, s, &err);

	if (rc == -ENOBUFS) {
		/* Events were lost: a fresh dump puts every link back in step (diffed as usual). */
		s->r->event_overruns++;
		fo_dump(s, NULL);
		return 0;
	}
	if (rc < 0)
		return rdc_err_set(s->err, -rc, "%s", err.msg);
	return 0;
}

static const struct rdc_bond_link_event *fo_bond(struct fo_state *s)
{
	struct fo_link *l = s->bond_ifindex > 0 ? fo_link_find(s, s->bond_ifindex) : NULL;

	return l ? &l->last : NULL;
}

static void fo_active_name(struct fo_state *s, char *out, size_t size)
{
	const struct rdc_bond_link_event *b = fo_bond(s);

	rdc_strlcpy(out, b ? fo_name_of(s, b->active_member) : "", size);
}

/* ---- the probe stream ------------------------------------------------------- */

struct fo_payload {
	uint32_t cookie;
	uint32_t pad;
	uint64_t idx;
};

static uint16_t fo_csum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

/*
 * A ping socket (SOCK_DGRAM, IPPROTO_ICMP) where net.ipv4.ping_group_range
 * lets us; else a raw one (CAP_NET_RAW).  Bound to the bond, so the probes
 * cross it whatever the routes say.
 */
static int probe_open(struct fo_probe *p, const char *bond, char *why, size_t whysize)
{
	int fd, rcvbuf = 1 << 20;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_ICMP);
	p->raw = fd < 0;
	if (fd < 0)
		fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, IPPROTO_ICMP);
	if (fd < 0) {
		snprintf(why, whysize,
			 "cannot open an ICMP socket (%s): needs net.ipv4.ping_group_range or root",
			 strerror(errno));
		return -errno;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bond, (socklen_t)strlen(bond) + 1)) {
		snprintf(why, whysize, "cannot bind the probe socket to '%s' (%s)", bond,
			 strerror(errno));
		close(fd);
		return -EPERM;
	}
	/* Room for a second of replies while the thread is held up (FORCE needs CAP_NET_ADMIN). */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	p->fd = fd;
	p->id = (uint16_t)(getpid() ^ (fo_now_ns() >> 10));
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (p->tfd < 0) {
		snprintf(why, whysize, "cannot create a timer (%s)", strerror(errno));
		close(fd);
		return -errno;
	}
	return 0;
}

static void probe_send(struct fo_probe *p)
{
	struct {
		struct icmphdr h;
		struct fo_payload pl;
	} pkt;
	struct fo_slot *slot = &p->ring[p->next_idx % FO_PROBE_RING];

	memset(&pkt, 0, sizeof(pkt));
	pkt.h.type = ICMP_ECHO;
	pkt.h.un.echo.id = htons(p->id);
	pkt.h.un.echo.sequence = htons((uint16_t)p->next_idx);
	pkt.pl.cookie = FO_PROBE_COOKIE;
	pkt.pl.idx = p->next_idx;
	if (p->raw)
		pkt.h.checksum = fo_csum(&pkt, sizeof(pkt)); /* ping sockets fill it in */
	slot->idx = p->next_idx;
	slot->recv_ns = 0;
	slot->sent_ns = fo_now_ns();
	if (sendto(p->fd, &pkt, sizeof(pkt), 0, (const struct sockaddr *)&p->dst, sizeof(p->dst)) <
	    0)
		p->send_errors++; /* the probe counts as sent and lost: the path was not there */
	p->next_idx++;
}

static void probe_recv(struct fo_probe *p)
{
	unsigned char buf[256];

	for (int i = 0; i < 64; i++) {
		ssize_t n = recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT);
		const struct icmphdr *h;
		struct fo_payload pl;
		struct fo_slot *slot;
		size_t off = 0;
		uint64_t now;

		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0)
			continue; /* an ICMP error queued on the socket: the probe was lost */
		now = fo_now_ns();
		if (p->raw) {
			const struct iphdr *ip = (const struct iphdr *)buf;

			if ((size_t)n < sizeof(*ip))
				continue;
			off = (size_t)ip->ihl * 4;
		}
		if ((size_t)n < off + sizeof(*h) + sizeof(pl))
			continue;
		h = (const struct icmphdr *)(buf + off);
		memcpy(&pl, buf + off + sizeof(*h), sizeof(pl));
		if (h->type != ICMP_ECHOREPLY || pl.cookie != FO_PROBE_COOKIE ||
		    (p->raw && ntohs(h->un.echo.id) != p->id))
			continue;
		slot = &p->ring[pl.idx % FO_PROBE_RING];
		if (slot->idx != pl.idx || slot->recv_ns || pl.idx < p->fin_idx ||
		    pl.idx >= p->next_idx)
			continue; /* a duplicate, or a reply to a probe already counted lost */
		slot->recv_ns = now;
		if (now - slot->sent_ns > p->rtt_max_ns)
			p->rtt_max_ns = now - slot->sent_ns;
		if (slot->sent_ns > __atomic_load_n(&p->last_ok_ns, __ATOMIC_RELAXED))
			__atomic_store_n(&p->last_ok_ns, slot->sent_ns, __ATOMIC_RELEASE);
		__atomic_add_fetch(&p->replies, 1, __ATOMIC_RELAXED);
	}
}

/* Probes in send order, once answered or timed out (all of them with @all). */
static void probe_finalize(struct fo_probe *p, uint64_t now, bool all)
{
	uint64_t split = __atomic_load_n(&p->split_ns, __ATOMIC_ACQUIRE);
	const uint64_t timeout = RDC_FAILOVER_REPLY_TIMEOUT_MS * NS_PER_MS;

	while (p->fin_idx < p->next_idx) {
		struct fo_slot *slot = &p->ring[p->fin_idx % FO_PROBE_RING];
		bool answered = slot->recv_ns && slot->recv_ns - slot->sent_ns <= timeout;
		/* The ring is full: the oldest is decided now. */
		bool full = p->next_idx - p->fin_idx >= FO_PROBE_RING;

		if (!answered && !all && !full && now - slot->sent_ns <= timeout)
			break;
		rdc_failover_gap_add(split && slot->sent_ns >= split ? &p->after : &p->before,
				     slot->sent_ns, answered);
		p->fin_idx++;
	}
}

static void *probe_thread(void *arg)
{
	struct fo_probe *p = arg;
	uint64_t period = NS_PER_S / p->hz, last_send = 0;
	struct itimerspec its = {
		.it_interval = {.tv_sec = (time_t)(period / NS_PER_S),
				.tv_nsec = (long)(period % NS_PER_S)},
		.it_value = {.tv_nsec = 1},
	};

	timerfd_settime(p->tfd, 0, &its, NULL);
	for (;;) {
		struct pollfd pfd[2] = {{.fd = p->tfd, .events = POLLIN},
					{.fd = p->fd, .events = POLLIN}};
		bool stopping = __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
		uint64_t now, ticks;

		/* Stopping: no more probes; the last ones get their reply timeout. */
		if (stopping &&
		    (p->fin_idx == p->next_idx ||
		     fo_now_ns() - last_send > RDC_FAILOVER_REPLY_TIMEOUT_MS * NS_PER_MS))
			break;
		if (poll(pfd, 2, 50) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN && read(p->tfd, &ticks, sizeof(ticks)) > 0 &&
		    !stopping) {
			/* One probe per wake: a late thread shows as a send pause, not a burst. */
			probe_send(p);
			last_send = fo_now_ns();
		}
		if (pfd[1].revents & POLLIN)
			probe_recv(p);
		now = fo_now_ns();
		probe_finalize(p, now, false);
	}
	probe_finalize(p, fo_now_ns(), true);
	rdc_failover_gap_finish(&p->before);
	rdc_failover_gap_finish(&p->after);
	return NULL;
}

static int probe_start(struct fo_probe *p, const struct rdc_failover_opts *o, char *why,
		       size_t whysize)
{
	int rc;

	p->fd = p->tfd = -1;
	p->hz = o->probe_hz ? o->probe_hz : RDC_FAILOVER_DEFAULT_HZ;
	p->dst.sin_family = AF_INET;
	if (inet_pton(AF_INET, o->peer, &p->dst.sin_addr) != 1) {
		snprintf(why, whysize, "'%s' is not an IPv4 address", o->peer);
		return -EINVAL;
	}
	rdc_failover_gap_init(&p->before);
	rdc_failover_gap_init(&p->after);
	rc = probe_open(p, o->bond, why, whysize);
	if (rc)
		return rc;
	rc = pthread_create(&p->thread, NULL, probe_thread, p);
	if (rc) {
		snprintf(why, whysize, "cannot start the probe thread (%s)", strerror(rc));
		close(p->fd);
		close(p->tfd);
		p->fd = p->tfd = -1;
		return -rc;
	}
	p->started = true;
	return 0;
}

static void probe_stop(struct fo_probe *p)
{
	if (!p->started)
		return;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	p->started = false;
	close(p->fd);
	close(p->tfd);
}

static double fo_rel_s(uint64_t t0, uint64_t ns)
{
	return ns >= t0 ? (double)(ns - t0) / 1e9 : -(double)(t0 - ns) / 1e9;
}

static void probe_span(struct rdc_failover_probe_report *pr, uint64_t t0,
		       const struct rdc_failover_span *sp)
{
	pr->gap_start_s = fo_rel_s(t0, sp->start_ns);
	pr->gap_end_s = fo_rel_s(t0, sp->end_ns);
	pr->gap_ms = fo_ms(sp->end_ns - sp->start_ns);
	pr->gap_lost = sp->lost;
	pr->gap_open_start = sp->open_start;
	pr->gap_open_end = sp->open_end;
}

bool rdc_failover_lossy_after(const struct rdc_failover_probe_report *pr)
{
	return pr->after_known && pr->after_lost > RDC_FAILOVER_LOSSY_AFTER_MIN &&
	       100.0 * (double)pr->after_lost >
		       RDC_FAILOVER_LOSSY_AFTER_PCT * (double)pr->after_sent;
}

void rdc_failover_after_span(const struct rdc_failover_gap *g, const struct rdc_failover_span *sp,
			     uint64_t *sent, uint64_t *lost)
{
	*sent = *lost = 0;
	if (sp->open_end || g->sent < sp->sent_through)
		return;
	*sent = g->sent - sp->sent_through;
	*lost = g->sent - g->received - sp->lost_through;
}

/* The reaction (or what stands for it) + this: loss starting later is not the fault's. */
#define FO_OUTAGE_WINDOW_NS (1000 * NS_PER_MS)

static void probe_report(struct fo_probe *p, struct rdc_failover_report *r)
{
	struct rdc_failover_probe_report *pr = &r->probe;
	const struct rdc_failover_gap *g = &p->before;
	struct rdc_failover_span sp;
	double last = !isnan(r->reacted_at_s)	 ? r->reacted_at_s
		      : !isnan(r->detected_at_s) ? r->detected_at_s
						 : r->fault_s;

	pr->ran = true;
	rdc_strlcpy(pr->method, p->raw ? "raw" : "dgram", sizeof(pr->method));
	pr->hz = p->hz;
	pr->sent = p->before.sent + p->after.sent;
	pr->received = p->before.received + p->after.received;
	pr->lost = pr->sent - pr->received;
	pr->send_errors = p->send_errors;
	pr->rtt_max_ms = fo_ms(p->rtt_max_ns);
	pr->max_send_pause_ms = fo_ms(p->before.max_send_pause_ns > p->after.max_send_pause_ns
					      ? p->before.max_send_pause_ns
					      : p->after.max_send_pause_ns);
	if (!isnan(r->fault_s)) {
		uint64_t fault = r->t0_ns + (uint64_t)(r->fault_s * 1e9);
		uint64_t until = r->t0_ns + (uint64_t)(last * 1e9) + FO_OUTAGE_WINDOW_NS;

		if (rdc_failover_gap_pick(g, fault, until, &sp)) {
			probe_span(pr, r->t0_ns, &sp);
			if (!sp.open_end)
				pr->recovered_s = pr->gap_end_s - r->fault_s;
			rdc_failover_after_span(g, &sp, &pr->after_sent, &pr->after_lost);
			pr->after_known = !sp.open_end;
		}
	} else if (g->found) {
		probe_span(pr, r->t0_ns, &g->longest);
	}
	if (p->after.found) {
		pr->failback_gap_ms = fo_ms(p->after.longest.end_ns - p->after.longest.start_ns);
		pr->failback_gap_lost = p->after.longest.lost;
	}
}

/* ---- the RDMA stream ----------------------------------------------------------- */

static void rdma_interval_cb(struct rdc_failover_rdma_run *run, uint64_t start_ns, uint64_t bytes)
{
	struct fo_rdma *d = run->engine;

	pthread_mutex_lock(&d->lock);
	if (d->niv < FO_RDMA_INTERVALS)
		d->iv[d->niv++] = (struct fo_interval){d->cur, start_ns, bytes};
	pthread_mutex_unlock(&d->lock);
}

/*
 * Connection after connection until stopped: a failed one is followed by a
 * new one at once.  An attempt that never carried traffic (the server not
 * there yet, the port still down) keeps its slot and is tried again a little
 * later, FO_RDMA_ATTEMPTS times at most.
 */
static void *rdma_thread(void *arg)
{
	struct fo_rdma *d = arg;
	const struct rdc_failover_opts *o = d->o;

	for (unsigned int attempt = 0; !d->stop && attempt < FO_RDMA_ATTEMPTS; attempt++) {
		struct rdc_failover_rdma_run run = {
			.host = o->peer,
			.port = o->bench_port,
			.size = FO_RDMA_MSG_BYTES,
			.duration_s = d->duration_s,
			.interval_ns = FO_RDMA_INTERVAL_NS,
			.stop = &d->stop,
			.interval = rdma_interval_cb,
			.engine = d,
		};
		struct rdc_err err = {0};
		struct fo_rdma_conn *c;
		int rc;

		rdc_strlcpy(run.device, d->device, sizeof(run.device));
		pthread_mutex_lock(&d->lock);
		if (d->nruns == FO_RDMA_RUNS) {
			pthread_mutex_unlock(&d->lock);
			break;
		}
		c = &d->runs[d->nruns];
		memset(c, 0, sizeof(*c));
		c->started_ns = fo_now_ns();
		d->cur = d->nruns + 1;
		pthread_mutex_unlock(&d->lock);

		rc = o->rdma_run(&run, &err);

		pthread_mutex_lock(&d->lock);
		c->ended_ns = fo_now_ns();
		c->rc = rc;
		c->connected = run.connected;
		c->status = run.status;
		c->failed_ns = run.failed_ns;
		c->stall_ns = run.longest_stall_ns;
		if (run.error[0])
			rdc_strlcpy(c->error, run.error, sizeof(c->error));
		else if (rc)
			rdc_strlcpy(c->error, err.msg, sizeof(c->error));
		if (run.connected)
			d->nruns++;
		pthread_mutex_unlock(&d->lock);
		/* An attempt that could not even start: do not spin on it. */
		for (int i = 0; !d->stop && !run.connected && i < FO_RDMA_RETRY_MS / FO_LOOP_MS;
		     i++)
			poll(NULL, 0, FO_LOOP_MS);
	}
	pthread_mutex_lock(&d->lock);
	d->done = true;
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

/*
 * The RDMA port whose netdev is the bond: "dev/port".  GID 0's netdev (the
 * port model's netdev) is the bond for a RoCE LAG device, and also for a
 * Soft-RoCE device on a member (its GIDs follow the member's upper device),
 * which sends through that member alone: a software device counts only when
 * its "parent" is the bond itself.
 */
static int rdma_find_device(const char *bond, char *out, size_t size, char *why, size_t whysize)
{
	struct rdc_port_list list = {0};
	struct rdc_err err = {0};
	char parent[IF_NAMESIZE];
	int rc = rdc_ports_read(&list, &err);

	if (rc) {
		snprintf(why, whysize, "cannot read the RDMA ports: %s", err.msg);
		return rc;
	}
	rc = -ENODEV;
	for (size_t i = 0; i < list.count && rc; i++) {
		const struct rdc_port *p = &list.ports[i];

		if (!p->has_netdev || strcmp(p->netdev.name, bond))
			continue;
		if (rdc_fs_read(parent, sizeof(parent), NULL, "/sys/class/infiniband/%s/parent",
				p->device) > 0 &&
		    strcmp(parent, bond))
			continue;
		snprintf(out, size, "%s/%u", p->device, p->port);
		rc = 0;
	}
	rdc_ports_free(&list);
	if (rc)
		snprintf(why, whysize,
			 "no RDMA port has '%s' as its netdev (RoCE LAG, or rxe: rdma link add "
			 "NAME type rxe netdev %s)",
			 bond, bond);
	return rc;
}

static int rdma_start(struct fo_rdma *d, const struct rdc_failover_opts *o, double duration_s,
		      char *why, size_t whysize)
{
	int rc;

	d->o = o;
	d->duration_s = duration_s;
	if (!o->rdma_run) {
		snprintf(why, whysize, "no RDMA runner was given to the engine");
		return -EINVAL;
	}
	rc = rdma_find_device(o->bond, d->device, sizeof(d->device), why, whysize);
	if (rc)
		return rc;
	pthread_mutex_init(&d->lock, NULL);
	rc = pthread_create(&d->thread, NULL, rdma_thread, d);
	if (rc) {
		pthread_mutex_destroy(&d->lock);
		snprintf(why, whysize, "cannot start the RDMA thread (%s)", strerror(rc));
		return -rc;
	}
	d->started = true;
	return 0;
}

static void rdma_stop(struct fo_rdma *d)
{
	if (!d->started)
		return;
	d->stop_ns = fo_now_ns();
	d->stop = 1;
	pthread_join(d->thread, NULL);
	d->started = false;
	pthread_mutex_destroy(&d->lock);
}

/* The first interval of connection @run (1-based) at or after @from_ns with bytes; 0 none. */
static uint64_t rdma_first_bytes(struct fo_rdma *d, unsigned int run, unsigned int run_max,
				 uint64_t from_ns)
{
	uint64_t t = 0;

	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->niv && !t; i++)
		if (d->iv[i].run >= run && d->iv[i].run <= run_max && d->iv[i].bytes &&
		    d->iv[i].start_ns >= from_ns)
			t = d->iv[i].start_ns;
	pthread_mutex_unlock(&d->lock);
	return t;
}

/* When the first connection ended by itself (failed), 0 while it runs or never carried traffic. */
static uint64_t rdma_failed_ns(struct fo_rdma *d)
{
	const struct fo_rdma_conn *c = &d->runs[0];
	uint64_t t = 0;

	pthread_mutex_lock(&d->lock);
	if (d->nruns && c->ended_ns)
		t = c->failed_ns ? c->failed_ns : c->ended_ns;
	pthread_mutex_unlock(&d->lock);
	return t;
}

static bool rdma_gave_up(struct fo_rdma *d)
{
	bool done;

	pthread_mutex_lock(&d->lock);
	done = d->done;
	pthread_mutex_unlock(&d->lock);
	return done;
}

/* "transport retry counter exceeded (status 12) at 3.1 s: ..." -> its status words. */
static void rdma_wc_status(const char *error, char *out, size_t size)
{
	const char *cut = strstr(error, " (status ");
	size_t n = cut ? (size_t)(cut - error) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(out, error, n);
	out[n] = '\0';
}

static void rdma_report(struct fo_state *s, struct fo_rdma *d, uint64_t fault_ns)
{
	struct rdc_failover_rdma_report *rr = &s->r->rdma;
	struct rdc_failover_report *r = s->r;
	const struct fo_rdma_conn *c0 = &d->runs[0];
	uint64_t zero_from = 0, resumed = 0, reconnected = 0;

	rdc_strlcpy(rr->device, d->device, sizeof(rr->device));
	rr->connections = d->nruns;
	for (size_t i = 0; i < d->niv; i++)
		rr->bytes += d->iv[i].bytes;
	if (!d->nruns || !c0->connected) {
		snprintf(rr->reason, sizeof(rr->reason), "no RDMA traffic: %s",
			 d->nruns && c0->error[0] ? c0->error : "the connection did not start");
		return;
	}
	rr->ran = true;
	rr->stall_ms = fo_ms(c0->stall_ns);
	/* Failed by itself, before we stopped it. */
	if (c0->status && c0->failed_ns && (!d->stop_ns || c0->failed_ns < d->stop_ns)) {
		rr->failed_s = fo_rel_s(r->t0_ns, c0->failed_ns);
		rdc_strlcpy(rr->error, c0->error, sizeof(rr->error));
		rdma_wc_status(c0->error, rr->wc_status, sizeof(rr->wc_status));
		fo_add_event(s, c0->failed_ns, d->device, RDC_FO_RDMA_FAILED, rr->wc_status);
		if (fault_ns && c0->failed_ns < fault_ns)
			snprintf(rr->reason, sizeof(rr->reason),
				 "the first connection failed before the fault");
	}
	if (!fault_ns)
		return;
	/* Survival: the first connection carried bytes after the outage and never failed. */
	for (size_t i = 0; i < d->niv; i++) {
		const struct fo_interval *iv = &d->iv[i];

		if (iv->run != 1 || iv->start_ns + FO_RDMA_INTERVAL_NS <= fault_ns)
			continue;
		if (!iv->bytes && !zero_from)
			zero_from = iv->start_ns;
		else if (iv->bytes && zero_from && !resumed)
			resumed = iv->start_ns;
	}
	if (isnan(rr->failed_s)) {
		rr->survived = resumed || (!zero_from && rdma_first_bytes(d, 1, 1, fault_ns));
		if (resumed)
			rr->resumed_s = fo_rel_s(r->t0_ns, resumed);
	}
	reconnected = rdma_first_bytes(d, 2, FO_RDMA_RUNS, 0);
	if (reconnected) {
		rr->reconnected_s = fo_rel_s(r->t0_ns, reconnected);
		fo_add_event(s, reconnected, d->device, RDC_FO_RDMA_CONNECTED, NULL);
	}
	if (!rr->survived && isnan(rr->failed_s))
		snprintf(rr->reason, sizeof(rr->reason),
			 "the first connection carried no traffic after the fault");
}

/* ---- the measurement ----------------------------------------------------------- */

static void fo_progress(struct fo_state *s, const char *phase)
{
	if (s->o->progress)
		s->o->progress(s->o->progress_arg, phase, fo_rel_s(s->r->t0_ns, fo_now_ns()));
}

static bool fo_interrupted(struct fo_state *s)
{
	return s->o->interrupted && *s->o->interrupted;
}

static uint64_t fo_at(struct fo_state *s, double t_s)
{
	return s->r->t0_ns + (t_s > 0 ? (uint64_t)(t_s * 1e9) : 0);
}

/* Poll events until @until_ns or @done says so; -EINTR when interrupted. */
static int fo_wait(struct fo_state *s, uint64_t until_ns, bool (*done)(struct fo_state *s))
{
	for (;;) {
		int rc;

		if (fo_interrupted(s))
			return -EINTR;
		if (done && done(s))
			return 0;
		if (fo_now_ns() >= until_ns)
			return -ETIMEDOUT;
		rc = fo_pump(s, FO_LOOP_MS);
		if (rc)
			return rc;
		rdc_failover_derive(s->r);
	}
}

static bool fo_probe_flowing(struct fo_state *s)
{
	return !s->probe || __atomic_load_n(&s->probe->replies, __ATOMIC_RELAXED) > 0;
}

static bool fo_rdma_flowing(struct fo_state *s)
{
	return !s->rdma || rdma_first_bytes(s->rdma, 1, FO_RDMA_RUNS, 0) || rdma_failed_ns(s->rdma);
}

/* Wait mode: a failover, or the bond lost its last member. */
static bool fo_failed_over(struct fo_state *s)
{
	struct rdc_failover_report *r = s->r;

	return r->failover || (!isnan(r->detected_at_s) && fo_bond(s) &&
			       !fo_bond(s)->active_member && fo_mode_has_active(r->mode));
}

static bool fo_reacted(struct fo_state *s)
{
	return s->r->failover || !isnan(s->r->reacted_at_s);
}

/*
 * Settled: the probes flow again (an answered probe sent FO_SETTLE_MS after
 * the reaction), and the RDMA stream's first connection either carried
 * traffic after its survival window or ended and a new one carries traffic.
 * A dead connection is known only when its run ends (the bench engine drains
 * a failed link for up to 3 s first): until then, no bytes means wait.
 */
static bool fo_settled(struct fo_state *s)
{
	struct rdc_failover_report *r = s->r;
	double base = !isnan(r->reacted_at_s)	 ? r->reacted_at_s
		      : !isnan(r->detected_at_s) ? r->detected_at_s
						 : r->fault_s;
	uint64_t base_ns = fo_at(s, isnan(base) ? 0 : base);
	uint64_t fault_ns = fo_at(s, isnan(r->fault_s) ? 0 : r->fault_s), now = fo_now_ns();
	uint64_t failed;

	/*
	 * A peer that never answered cannot tell us it answers again; one that
	 * stays silent FO_SETTLE_MAX_MS after the reaction is cut off (a one-sided
	 * fault back to back), and no RDMA connection will get through either.
	 */
	if (s->probe && __atomic_load_n(&s->probe->replies, __ATOMIC_RELAXED)) {
		uint64_t ok = __atomic_load_n(&s->probe->last_ok_ns, __ATOMIC_ACQUIRE);

		if (ok < base_ns && now > base_ns + FO_SETTLE_MAX_MS * NS_PER_MS)
			return true;
		if (ok < base_ns + FO_SETTLE_MS * NS_PER_MS)
			return false;
	}
	if (!s->rdma || !s->rdma->started || !rdma_first_bytes(s->rdma, 1, 1, 0))
		return true; /* no stream, or it never carried traffic: nothing to wait for */
	failed = rdma_failed_ns(s->rdma);
	if (failed)
		return rdma_first_bytes(s->rdma, 2, FO_RDMA_RUNS, 0) || rdma_gave_up(s->rdma) ||
		       now > failed + FO_RECONNECT_MS * NS_PER_MS;
	if (now <= fault_ns + FO_RDMA_SURVIVE_MS * NS_PER_MS)
		return false;
	/* Past the window with bytes: it survived.  Without: it is dying, wait for its end. */
	return rdma_first_bytes(s->rdma, 1, 1, fault_ns + FO_RDMA_INTERVAL_NS) ||
	       now > fault_ns + FO_RECONNECT_MS * NS_PER_MS;
}

/* How long settling may take: a new RDMA connection may need FO_RECONNECT_MS. */
static uint64_t fo_settle_max_ns(struct fo_state *s)
{
	return (FO_SETTLE_MAX_MS + (s->rdma ? FO_RECONNECT_MS : 0)) * NS_PER_MS;
}

static bool fo_member_back(struct fo_state *s)
{
	struct rdc_failover_report *r = s->r;
	bool wants_failback = r->primary[0] && !strcmp(r->primary, r->member) &&
			      fo_mode_has_active(r->mode) && !strcmp(r->active_before, r->member);

	return !isnan(r->member_back_s) && (!wants_failback || !isnan(r->failback_s));
}

/*
 * Take the member down (fault) or up (restore), the careful way of
 * host/link.h.  Read first, then stamp, then write: the fault's time is the
 * moment the request leaves, not the read before it.  The restore also
 * starts the probe's second window (a fail-back is an outage of its own).
 */
static int fo_admin(struct fo_state *s, bool up, struct rdc_err *err)
{
	struct rdc_failover_report *r = s->r;
	struct rdc_link_plan plan;
	uint64_t t;
	int rc = rdc_link_plan_make(r->member, -1, up, &plan, err);

	if (rc)
		return rc;
	if (!plan.changed && !up)
		return rdc_err_set(err, EALREADY, "'%s' is already down: nothing to fail over",
				   r->member);
	if (!plan.changed)
		return 0;
	t = fo_now_ns();
	if (up) {
		if (s->probe)
			__atomic_store_n(&s->probe->split_ns, t, __ATOMIC_RELEASE);
		r->restore_s = fo_rel_s(r->t0_ns, t);
	} else {
		r->fault_s = fo_rel_s(r->t0_ns, t);
	}
	fo_add_event(s, t, r->member, up ? RDC_FO_RESTORED : RDC_FO_FAULT_INJECTED,
		     up ? "admin up" : "admin down");
	/* From here the member may be down because of us: it must come back up. */
	s->injected = s->injected || !up;
	rc = rdc_link_plan_apply(&plan, err);
	fo_progress(s, up ? "restore" : "fault");
	return rc;
}

static void fo_fill_config(struct fo_state *s)
{
	const struct rdc_bond_link_event *b = fo_bond(s);
	struct rdc_failover_report *r = s->r;

	if (!b)
		return;
	r->mode = b->mode;
	r->miimon_ms = b->miimon_ms;
	r->updelay_ms = b->updelay_ms;
	r->downdelay_ms = b->downdelay_ms;
	r->arp_interval_ms = b->arp_interval_ms;
	rdc_strlcpy(r->primary, fo_name_of(s, b->primary), sizeof(r->primary));
	fo_active_name(s, r->active_before, sizeof(r->active_before));
}

static void fo_report_init(struct rdc_failover_report *r, const struct rdc_failover_opts *o)
{
	memset(r, 0, sizeof(*r));
	rdc_strlcpy(r->bond, o->bond, sizeof(r->bond));
	r->mode = -1;
	r->miimon_ms = r->updelay_ms = r->downdelay_ms = r->arp_interval_ms = -1;
	r->member_mode = o->member != NULL;
	if (o->member)
		rdc_strlcpy(r->member, o->member, sizeof(r->member));
	r->fault_s = r->detected_at_s = r->detect_s = r->reacted_at_s = r->react_s = fo_nan();
	r->restore_s = r->member_back_s = r->failback_s = fo_nan();
	r->probe.gap_start_s = r->probe.gap_end_s = r->probe.gap_ms = fo_nan();
	r->probe.recovered_s = r->probe.failback_gap_ms = fo_nan();
	r->rdma.failed_s = r->rdma.resumed_s = r->rdma.reconnected_s = r->rdma.stall_ms = fo_nan();
}

static int fo_check_opts(const struct rdc_failover_opts *o, struct rdc_err *err)
{
	struct in_addr a;

	if (!o->bond || !o->bond[0] || strlen(o->bond) >= IF_NAMESIZE)
		return rdc_err_set(err, EINVAL, "bad bond name '%s'", o->bond ? o->bond : "");
	if (o->member && (!o->member[0] || strlen(o->member) >= IF_NAMESIZE))
		return rdc_err_set(err, EINVAL, "bad member name '%s'", o->member);
	if (!o->member && !(o->wait_s > 0 && o->wait_s <= RDC_FAILOVER_MAX_WAIT_S))
		return rdc_err_set(err, EINVAL, "wait must be more than 0 and at most %.0f s",
				   RDC_FAILOVER_MAX_WAIT_S);
	if (!o->peer || inet_pton(AF_INET, o->peer, &a) != 1)
		return rdc_err_set(err, EINVAL, "peer '%s' is not an IPv4 address",
				   o->peer ? o->peer : "");
	if (o->probe_hz > RDC_FAILOVER_MAX_HZ)
		return rdc_err_set(err, EINVAL, "probe rate %u Hz is above %u Hz", o->probe_hz,
				   RDC_FAILOVER_MAX_HZ);
	return 0;
}

/* The bond and its members as they are, before t0: nothing goes to the timeline. */
static int fo_first_state(struct fo_state *s, struct rdc_err *err)
{
	const struct rdc_failover_opts *o = s->o;
	int rc;

	rc = rdc_nl_monitor_open(&s->mon, NETLINK_ROUTE, RTNLGRP_LINK, err);
	if (rc)
		return rc;
	/* The monitor first: a change between the dump and the first read is not lost. */
	rc = fo_dump(s, err);
	if (rc) {
		rdc_err_prefix(err, "%s", "cannot read the links");
		return rc;
	}
	/* Members come before their bond in a dump (lower ifindex): a second one finds them. */
	rc = fo_dump(s, err);
	if (!rc)
		rc = fo_pump(s, 0);
	if (rc)
		return rdc_err_set(err, rc, "cannot read kernel events");
	if (s->bond_ifindex <= 0) {
		rdc_err_set(err, ENODEV, "no bond '%s'", o->bond);
		rdc_err_mark(err, RDC_ERRK_NOT_FOUND, o->bond);
		return -ENODEV;
	}
	if (o->member) {
		bool found = false;

		for (size_t i = 0; i < RDC_ARRAY_SIZE(s->links); i++)
			if (s->links[i].used && s->links[i].last.member &&
			    !strcmp(s->links[i].last.name, o->member))
				found = true;
		if (!found)
			return rdc_err_set(err, EINVAL, "'%s' is not a member of '%s'", o->member,
					   o->bond);
	}
	return 0;
}

/* Traffic before the fault: the probe answered, the RDMA stream carries bytes. */
static int fo_start_traffic(struct fo_state *s, double duration_s)
{
	struct rdc_failover_report *r = s->r;
	int rc;

	s->probe = calloc(1, sizeof(*s->probe));
	if (!s->probe)
		return rdc_err_set(s->err, ENOMEM, "out of memory");
	rc = probe_start(s->probe, s->o, r->probe.reason, sizeof(r->probe.reason));
	if (rc) {
		free(s->probe);
		s->probe = NULL;
	}
	if (s->o->rdma) {
		s->rdma = calloc(1, sizeof(*s->rdma));
		if (!s->rdma)
			return rdc_err_set(s->err, ENOMEM, "out of memory");
		rc = rdma_start(s->rdma, s->o, duration_s, r->rdma.reason, sizeof(r->rdma.reason));
		if (rc) {
			free(s->rdma);
			s->rdma = NULL;
		}
	}
	rc = fo_wait(s, fo_now_ns() + FO_FIRST_REPLY_MS * NS_PER_MS, fo_probe_flowing);
	if (rc == -ETIMEDOUT)
		snprintf(r->probe.reason, sizeof(r->probe.reason),
			 "'%s' answered no probe in %u ms before the fault", s->o->peer,
			 FO_FIRST_REPLY_MS);
	else if (rc)
		return rc;
	rc = fo_wait(s, fo_now_ns() + FO_RDMA_START_MS * NS_PER_MS, fo_rdma_flowing);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	rc = fo_wait(s, fo_now_ns() + FO_BASELINE_MS * NS_PER_MS, NULL);
	return rc == -ETIMEDOUT ? 0 : rc;
}

static int fo_member_mode(struct fo_state *s, struct rdc_err *err)
{
	struct rdc_failover_report *r = s->r;
	int64_t slack = (r->miimon_ms > 0 ? r->miimon_ms : 0) +
			(r->downdelay_ms > 0 ? r->downdelay_ms : 0) +
			(r->updelay_ms > 0 ? r->updelay_ms : 0);
	uint64_t t = fo_now_ns();
	int rc;

	rc = fo_admin(s, false, err);
	if (rc && rc != -EALREADY)
		rdc_err_prefix(err, "cannot take '%s' down", r->member);
	if (rc)
		return rc;
	rc = fo_wait(s, t + (FO_REACT_MS + (uint64_t)slack) * NS_PER_MS, fo_reacted);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	fo_progress(s, "failover");
	rc = fo_wait(s, fo_now_ns() + fo_settle_max_ns(s), fo_settled);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	fo_active_name(s, r->active_after, sizeof(r->active_after));
	return 0;
}

static int fo_restore(struct fo_state *s, struct rdc_err *err)
{
	struct rdc_failover_report *r = s->r;
	int64_t slack =
		(r->miimon_ms > 0 ? r->miimon_ms : 0) + (r->updelay_ms > 0 ? r->updelay_ms : 0);
	uint64_t t = fo_now_ns();
	int rc;

	rc = fo_admin(s, true, err);
	if (rc) {
		rdc_err_prefix(err, "cannot bring '%s' back up", r->member);
		return rc;
	}
	rc = fo_wait(s, t + (FO_BACK_MS + (uint64_t)slack) * NS_PER_MS, fo_member_back);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	/* A fail-back is a second outage: measure it too. */
	rc = fo_wait(s, fo_now_ns() + FO_SETTLE_MS * NS_PER_MS, NULL);
	return rc == -ETIMEDOUT ? 0 : rc;
}

static int fo_wait_mode(struct fo_state *s, struct rdc_err *err)
{
	struct rdc_failover_report *r = s->r;
	int rc;

	rc = fo_wait(s, fo_now_ns() + (uint64_t)(s->o->wait_s * 1e9), fo_failed_over);
	if (rc == -ETIMEDOUT)
		return rdc_err_set(err, ETIMEDOUT, "no failover of '%s' within %g s", r->bond,
				   s->o->wait_s);
	if (rc)
		return rc;
	fo_progress(s, "failover");
	rc = fo_wait(s, fo_now_ns() + fo_settle_max_ns(s), fo_settled);
	if (rc && rc != -ETIMEDOUT)
		return rc;
	fo_active_name(s, r->active_after, sizeof(r->active_after));
	return 0;
}

/* Keep the timeline in time order after the RDMA entries were added at the end. */
static void fo_sort_events(struct rdc_failover_report *r)
{
	for (size_t i = 1; i < r->nevents; i++) {
		struct rdc_failover_event e = r->events[i];
		size_t j = i;

		for (; j > 0 && r->events[j - 1].t_s > e.t_s; j--)
			r->events[j] = r->events[j - 1];
		r->events[j] = e;
	}
}

int rdc_bond_failover_run(const struct rdc_failover_opts *o, struct rdc_failover_report *r,
			  struct rdc_err *err)
{
	struct fo_state *s;
	struct rdc_err restore_err = {0};
	bool restored = false;
	double planned;
	int rc;

	fo_report_init(r, o);
	rc = fo_check_opts(o, err);
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return rdc_err_set(err, ENOMEM, "out of memory");
	s->o = o;
	s->r = r;
	s->err = err;
	rc = fo_first_state(s, err);
	if (rc)
		goto out;
	fo_fill_config(s);
	s->recording = true;
	r->t0_ns = fo_now_ns();
	/* Longer than any run: the engine stops the stream, its own end never comes first. */
	planned = (o->member ? 0 : o->wait_s) + 120.0;
	rc = fo_start_traffic(s, planned);
	if (rc)
		goto stop;
	fo_progress(s, "ready");
	if (o->member) {
		rc = fo_member_mode(s, err);
		if (!rc) {
			restored = true;
			rc = fo_restore(s, err);
		}
	} else {
		rc = fo_wait_mode(s, err);
	}
stop:
	if (rc == -EINTR) {
		r->interrupted = true;
		rdc_err_set(err, EINTR, "interrupted");
	}
	/* Never leave a member down that we took down, whatever went wrong. */
	if (s->injected && !restored && fo_admin(s, true, &restore_err) && !rc)
		rc = rdc_err_set(err, restore_err.code, "cannot bring '%s' back up: %s", r->member,
				 restore_err.msg);
	fo_pump(s, 0);
	fo_active_name(s, r->active_final, sizeof(r->active_final));
	if (!r->active_after[0])
		rdc_strlcpy(r->active_after, r->active_final, sizeof(r->active_after));
	rdc_failover_derive(r);
	if (s->rdma) {
		rdma_stop(s->rdma);
		rdma_report(s, s->rdma, isnan(r->fault_s) ? 0 : fo_at(s, r->fault_s));
	}
	if (s->probe) {
		probe_stop(s->probe);
		probe_report(s->probe, r);
	}
	fo_sort_events(r);
	r->duration_s = fo_rel_s(r->t0_ns, fo_now_ns());
	fo_progress(s, "done");
out:
	rdc_nl_monitor_close(s->mon);
	free(s->probe);
	free(s->rdma);
	free(s);
	return rc;
}
