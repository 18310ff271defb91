// SPDX-License-Identifier: GPL-2.0-or-later
/* test_failover.c - the pure parts of a failover measurement: gaps, link events, the timeline */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "bond/failover.h"
#include "kernel/bondnl.h"
#include "kernel/bondnl_event.h"
#include "seam/nl.h"

#define MS 1000000ull

/* ---- gaps --------------------------------------------------------------- */

/* Probes every ms from 1000 ms; '.' answered, 'x' lost. */
static void gap_of(const char *pattern, struct rdc_failover_gap *g)
{
	rdc_failover_gap_init(g);
	for (size_t i = 0; pattern[i]; i++)
		rdc_failover_gap_add(g, (1000 + i) * MS, pattern[i] == '.');
	rdc_failover_gap_finish(g);
}

static void test_gap_no_loss(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	gap_of(".....", &g);
	assert_true(g.found);
	assert_int_equal(g.sent, 5);
	assert_int_equal(g.received, 5);
	/* The longest gap without loss is one probe interval: the first of equals. */
	assert_int_equal(g.longest.start_ns, 1000 * MS);
	assert_int_equal(g.longest.end_ns, 1001 * MS);
	assert_int_equal(g.longest.lost, 0);
	assert_false(g.longest.open_start || g.longest.open_end);
	assert_int_equal(g.max_send_pause_ns, 1 * MS);
}

static void test_gap_loss_inside(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	/* 0 1 x x x 5 x 7 8: the longest is 1 -> 5, three lost. */
	gap_of("..xxx.x..", &g);
	assert_int_equal(g.received, 5);
	assert_int_equal(g.longest.start_ns, 1001 * MS);
	assert_int_equal(g.longest.end_ns, 1005 * MS);
	assert_int_equal(g.longest.lost, 3);
	assert_false(g.longest.open_start || g.longest.open_end);
}

static void test_gap_loss_at_start(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	gap_of("xxxx..", &g);
	assert_int_equal(g.longest.start_ns, 1000 * MS);
	assert_int_equal(g.longest.end_ns, 1004 * MS);
	assert_int_equal(g.longest.lost, 4);
	assert_true(g.longest.open_start);
	assert_false(g.longest.open_end);
}

static void test_gap_loss_at_end(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	gap_of("..xxxxx", &g);
	assert_int_equal(g.longest.start_ns, 1001 * MS);
	assert_int_equal(g.longest.end_ns, 1006 * MS);
	assert_int_equal(g.longest.lost, 5);
	assert_false(g.longest.open_start);
	assert_true(g.longest.open_end);
}

static void test_gap_none_answered_and_empty(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	gap_of("xxx", &g);
	assert_true(g.found && g.longest.open_start && g.longest.open_end);
	assert_int_equal(g.longest.end_ns - g.longest.start_ns, 2 * MS);
	assert_int_equal(g.longest.lost, 3);
	gap_of("", &g);
	assert_false(g.found);
	gap_of(".", &g);
	assert_false(g.found); /* one answered probe has no gap */
}

static void test_gap_send_pause(void **state)
{
	struct rdc_failover_gap g;

	(void)state;
	/* A stalled sender: no loss, but a 40 ms hole, which is the gap and the pause. */
	rdc_failover_gap_init(&g);
	rdc_failover_gap_add(&g, 1000 * MS, true);
	rdc_failover_gap_add(&g, 1001 * MS, true);
	rdc_failover_gap_add(&g, 1041 * MS, true);
	rdc_failover_gap_finish(&g);
	assert_int_equal(g.longest.end_ns - g.longest.start_ns, 40 * MS);
	assert_int_equal(g.longest.lost, 0);
	assert_int_equal(g.max_send_pause_ns, 40 * MS);

	/* One lost probe later: that short gap is the outage, the pause is the resolution. */
	rdc_failover_gap_init(&g);
	rdc_failover_gap_add(&g, 1000 * MS, true);
	rdc_failover_gap_add(&g, 1040 * MS, true);
	rdc_failover_gap_add(&g, 1041 * MS, false);
	rdc_failover_gap_add(&g, 1042 * MS, true);
	rdc_failover_gap_add(&g, 1043 * MS, false);
	rdc_failover_gap_add(&g, 1044 * MS, false);
	rdc_failover_gap_add(&g, 1045 * MS, true);
	rdc_failover_gap_finish(&g);
	assert_int_equal(g.longest.start_ns, 1042 * MS);
	assert_int_equal(g.longest.end_ns, 1045 * MS);
	assert_int_equal(g.longest.lost, 2);
	assert_int_equal(g.max_send_pause_ns, 40 * MS);
}

static void test_gap_pick_by_fault(void **state)
{
	struct rdc_failover_gap g;
	struct rdc_failover_span sp;

	(void)state;
	/*
	 * 1000..1019: a long loss early (start-up noise), a short one at the
	 * fault (1012), one long after it.
	 */
	gap_of(".xxxxx.....xx.......x", &g);
	assert_int_equal(g.nspans, 3);
	assert_int_equal(g.longest.start_ns, 1000 * MS); /* the longest: the noise */
	assert_true(rdc_failover_gap_pick(&g, 1012 * MS, 1015 * MS, &sp));
	assert_int_equal(sp.start_ns, 1010 * MS);
	assert_int_equal(sp.end_ns, 1013 * MS);
	assert_int_equal(sp.lost, 2);
	/* A fault before the loss began (member mode: the request, then the effect). */
	assert_true(rdc_failover_gap_pick(&g, 1008 * MS, 1012 * MS, &sp));
	assert_int_equal(sp.start_ns, 1010 * MS);
	/* Loss that starts after the window is not the fault's. */
	assert_false(rdc_failover_gap_pick(&g, 1014 * MS, 1018 * MS, &sp));
	/* The open end: lost to the last probe. */
	assert_true(rdc_failover_gap_pick(&g, 1014 * MS, 1020 * MS, &sp));
	assert_int_equal(sp.start_ns, 1019 * MS);
	assert_true(sp.open_end);

	/*
	 * More lossy gaps than are kept (every other probe lost: 3 x the limit):
	 * the first and the last are found, the middle ones are gone.
	 */
	rdc_failover_gap_init(&g);
	for (uint64_t i = 0; i < 3 * RDC_FAILOVER_MAX_SPANS; i++) {
		rdc_failover_gap_add(&g, (1000 + 2 * i) * MS, true);
		rdc_failover_gap_add(&g, (1001 + 2 * i) * MS, false);
	}
	rdc_failover_gap_finish(&g);
	assert_int_equal(g.nspans, 3 * RDC_FAILOVER_MAX_SPANS);
	assert_true(rdc_failover_gap_pick(&g, 0, 1001 * MS, &sp));
	assert_int_equal(sp.start_ns, 1000 * MS);
	assert_true(rdc_failover_gap_pick(&g, 1000 * MS + 2 * (RDC_FAILOVER_MAX_SPANS - 1) * MS,
					  UINT64_MAX, &sp));
	assert_int_equal(sp.start_ns, (1000 + 2 * (RDC_FAILOVER_MAX_SPANS - 1)) * MS);
	/* A fault in the middle third: the first kept span after it is the last third's. */
	assert_true(rdc_failover_gap_pick(&g, (1000 + 2 * RDC_FAILOVER_MAX_SPANS + 1) * MS,
					  UINT64_MAX, &sp));
	assert_int_equal(sp.start_ns, (1000 + 4 * RDC_FAILOVER_MAX_SPANS) * MS);
}

/* What came after the outage: a clean switch loses nothing, balance-rr keeps losing. */
static void test_gap_after_outage(void **state)
{
	struct rdc_failover_gap g;
	struct rdc_failover_span sp;
	struct rdc_failover_probe_report pr = {.after_known = true};
	uint64_t sent, lost;

	(void)state;
	/* 0-4 answered, 5-9 lost (the outage, closed by 10), 10-19 answered. */
	gap_of(".....xxxxx..........", &g);
	assert_true(rdc_failover_gap_pick(&g, 1005 * MS, 1006 * MS, &sp));
	assert_int_equal(sp.sent_through, 11);
	assert_int_equal(sp.lost_through, 5);
	rdc_failover_after_span(&g, &sp, &sent, &lost);
	assert_int_equal(sent, 9);
	assert_int_equal(lost, 0);
	pr.after_sent = sent, pr.after_lost = lost;
	assert_false(rdc_failover_lossy_after(&pr));

	/* The same outage, then every other probe lost (a peer's balance-rr over a dead member). */
	gap_of(".....xxxxx..x.x.x.x.x.x.x.x.x.x.", &g);
	assert_true(rdc_failover_gap_pick(&g, 1005 * MS, 1006 * MS, &sp));
	assert_int_equal(sp.lost, 5);
	rdc_failover_after_span(&g, &sp, &sent, &lost);
	assert_int_equal(sent, 21);
	assert_int_equal(lost, 10);
	pr.after_sent = sent, pr.after_lost = lost;
	assert_true(rdc_failover_lossy_after(&pr));
	/* Two lost after it are a busy VM, not a failed switch. */
	pr.after_sent = 21, pr.after_lost = 2;
	assert_false(rdc_failover_lossy_after(&pr));
	pr.after_known = false, pr.after_lost = 10;
	assert_false(rdc_failover_lossy_after(&pr));

	/* An outage that never closed has nothing after it. */
	gap_of(".....xxxxx", &g);
	assert_true(rdc_failover_gap_pick(&g, 1005 * MS, 1006 * MS, &sp));
	assert_true(sp.open_end);
	rdc_failover_after_span(&g, &sp, &sent, &lost);
	assert_int_equal(sent, 0);
	assert_int_equal(lost, 0);
}

/* ---- RTM_NEWLINK parsing ----------------------------------------------------- */

static struct nlmsghdr *newlink(char *buf, uint16_t type, int ifindex, const char *name,
				unsigned int flags)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	memset(buf, 0, 1024);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = flags;
	if (name)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

/* bond0 (4), active-backup, miimon 100, eth1 (3) active, announced as a failover. */
static struct nlmsghdr *bond_msg(char *buf, int active)
{
	struct nlmsghdr *nlh = newlink(buf, RTM_NEWLINK, 4, "bond0", 0x1 | 0x10000);
	struct nlattr *li, *data;

	mnl_attr_put_u8(nlh, IFLA_CARRIER, 1);
	mnl_attr_put_u32(nlh, IFLA_EVENT, IFLA_EVENT_BONDING_FAILOVER);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_ACTIVE_BACKUP);
	if (active)
		mnl_attr_put_u32(nlh, IFLA_BOND_ACTIVE_SLAVE, (uint32_t)active);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 100);
	mnl_attr_put_u32(nlh, IFLA_BOND_UPDELAY, 0);
	mnl_attr_put_u32(nlh, IFLA_BOND_DOWNDELAY, 0);
	mnl_attr_put_u32(nlh, IFLA_BOND_PRIMARY, 2);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return nlh;
}

/* eth0 (2) in bond0, admin up, carrier lost, MII down, backup. */
static struct nlmsghdr *member_msg(char *buf)
{
	struct nlmsghdr *nlh = newlink(buf, RTM_NEWLINK, 2, "eth0", 0x1);
	struct nlattr *li, *data;

	mnl_attr_put_u32(nlh, IFLA_MASTER, 4);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, 0);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_STATE, 1);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_MII_STATUS, 2);
	mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, 3);
	mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, 7);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, 0x3d);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return nlh;
}

static void test_event_bond(void **state)
{
	char buf[1024] __attribute__((aligned(4)));
	struct rdc_bond_link_event ev;

	(void)state;
	assert_int_equal(rdc_bondnl_event_parse(bond_msg(buf, 3), &ev), 0);
	assert_true(ev.bond);
	assert_false(ev.member || ev.deleted);
	assert_int_equal(ev.ifindex, 4);
	assert_string_equal(ev.name, "bond0");
	assert_true(ev.admin_up);
	assert_int_equal(ev.carrier, 1);
	assert_int_equal(ev.event, IFLA_EVENT_BONDING_FAILOVER);
	assert_int_equal(ev.mode, RDC_BOND_ACTIVE_BACKUP);
	assert_int_equal(ev.active_member, 3);
	assert_int_equal(ev.primary, 2);
	assert_int_equal(ev.miimon_ms, 100);
	assert_int_equal(ev.downdelay_ms, 0);
	assert_int_equal(ev.arp_interval_ms, -1);
	assert_int_equal(ev.ad_aggregator_id, -1);
	assert_int_equal(ev.state, -1); /* a bond is no member */

	/* No ACTIVE_SLAVE in a bond's data: none is active (all members down). */
	assert_int_equal(rdc_bondnl_event_parse(bond_msg(buf, 0), &ev), 0);
	assert_int_equal(ev.active_member, 0);
}

static void test_event_member(void **state)
{
	char buf[1024] __attribute__((aligned(4)));
	struct rdc_bond_link_event ev;

	(void)state;
	assert_int_equal(rdc_bondnl_event_parse(member_msg(buf), &ev), 0);
	assert_true(ev.member);
	assert_false(ev.bond);
	assert_int_equal(ev.master, 4);
	assert_int_equal(ev.carrier, 0);
	assert_int_equal(ev.event, -1);
	assert_int_equal(ev.state, 1);
	assert_int_equal(ev.mii_status, 2);
	assert_int_equal(ev.link_failure_count, 3);
	assert_int_equal(ev.aggregator_id, 7);
	assert_int_equal(ev.actor_state, 0x3d);
	assert_int_equal(ev.active_member, -1); /* a member has no bond data */
}

static void test_event_plain_and_deleted(void **state)
{
	char buf[1024] __attribute__((aligned(4)));
	struct rdc_bond_link_event ev;

	(void)state;
	/* No IFLA_CARRIER: IFF_LOWER_UP says it. */
	assert_int_equal(
		rdc_bondnl_event_parse(newlink(buf, RTM_NEWLINK, 9, "veth0", 0x10001), &ev), 0);
	assert_false(ev.bond || ev.member);
	assert_int_equal(ev.carrier, 1);
	assert_int_equal(rdc_bondnl_event_parse(newlink(buf, RTM_DELLINK, 9, NULL, 0), &ev), 0);
	assert_true(ev.deleted);
	assert_string_equal(ev.name, "");
	assert_int_equal(rdc_bondnl_event_parse(newlink(buf, RTM_NEWADDR, 9, NULL, 0), &ev),
			 -ENOMSG);
}

static void test_event_malformed(void **state)
{
	char buf[1024] __attribute__((aligned(4)));
	struct rdc_bond_link_event ev;
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;

	(void)state;
	/* A u8 sent as a u32. */
	nlh = newlink(buf, RTM_NEWLINK, 2, "eth0", 0);
	mnl_attr_put_u32(nlh, IFLA_CARRIER, 1);
	assert_int_equal(rdc_bondnl_event_parse(nlh, &ev), -EBADMSG);
	/* A member's state as a u16, inside the nest. */
	nlh = newlink(buf, RTM_NEWLINK, 2, "eth0", 0);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_STATE, 1);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	assert_int_equal(rdc_bondnl_event_parse(nlh, &ev), -EBADMSG);
	/* A name of 16 bytes and more. */
	nlh = newlink(buf, RTM_NEWLINK, 2, "a-name-too-long-for-linux", 0);
	assert_int_equal(rdc_bondnl_event_parse(nlh, &ev), -EBADMSG);
	/* Truncated: the message ends inside its last attribute. */
	nlh = member_msg(buf);
	nlh->nlmsg_len -= 8;
	assert_int_equal(rdc_bondnl_event_parse(nlh, &ev), -EBADMSG);
	/* No ifindex. */
	assert_int_equal(rdc_bondnl_event_parse(newlink(buf, RTM_NEWLINK, 0, "x", 0), &ev),
			 -EBADMSG);
}

/* ---- the timeline ------------------------------------------------------------ */

static void report_init(struct rdc_failover_report *r, int mode, bool member_mode,
			const char *member, const char *active)
{
	memset(r, 0, sizeof(*r));
	rdc_strlcpy(r->bond, "bond0", sizeof(r->bond));
	r->mode = mode;
	r->member_mode = member_mode;
	rdc_strlcpy(r->member, member, sizeof(r->member));
	rdc_strlcpy(r->active_before, active, sizeof(r->active_before));
	r->fault_s = NAN;
}

static void ev(struct rdc_failover_report *r, double t, const char *netdev,
	       enum rdc_failover_what what, const char *value)
{
	struct rdc_failover_event *e = &r->events[r->nevents++];

	memset(e, 0, sizeof(*e));
	e->t_s = t;
	rdc_strlcpy(e->netdev, netdev, sizeof(e->netdev));
	e->what = what;
	rdc_strlcpy(e->value, value ? value : "", sizeof(e->value));
}

static void assert_near(double a, double b)
{
	if (fabs(a - b) > 1e-9)
		fail_msg("%.9f is not %.9f", a, b);
}

static void test_derive_member_mode_with_failback(void **state)
{
	struct rdc_failover_report r;

	(void)state;
	report_init(&r, RDC_BOND_ACTIVE_BACKUP, true, "eth0", "eth0");
	r.fault_s = 1.0;
	ev(&r, 1.0, "eth0", RDC_FO_FAULT_INJECTED, "admin down");
	ev(&r, 1.002, "eth0", RDC_FO_ADMIN_DOWN, NULL);
	ev(&r, 1.002, "eth0", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 1.060, "eth0", RDC_FO_MII_STATUS, "down");
	ev(&r, 1.060, "eth0", RDC_FO_STATE_BACKUP, NULL);
	ev(&r, 1.061, "eth1", RDC_FO_STATE_ACTIVE, NULL);
	ev(&r, 1.061, "bond0", RDC_FO_ACTIVE_MEMBER, "eth1");
	ev(&r, 1.061, "bond0", RDC_FO_FAILOVER_NOTICE, "eth1");
	ev(&r, 5.0, "eth0", RDC_FO_RESTORED, "admin up");
	ev(&r, 5.1, "eth0", RDC_FO_MII_STATUS, "up");
	ev(&r, 5.1, "bond0", RDC_FO_ACTIVE_MEMBER, "eth0");
	rdc_failover_derive(&r);
	assert_true(r.failover);
	assert_string_equal(r.member, "eth0");
	assert_near(r.fault_s, 1.0);
	assert_near(r.detected_at_s, 1.060);
	assert_near(r.detect_s, 0.060);
	assert_near(r.reacted_at_s, 1.061);
	assert_near(r.react_s, 0.001);
	assert_near(r.member_back_s, 5.1);
	assert_near(r.failback_s, 5.1);
	assert_string_equal(r.react_reason, "");
}

static void test_derive_wait_mode_cable_pull(void **state)
{
	struct rdc_failover_report r;

	(void)state;
	report_init(&r, RDC_BOND_ACTIVE_BACKUP, false, "", "eth0");
	/* Noise first: the bond itself, and an RDMA entry. */
	ev(&r, 0.5, "bond0", RDC_FO_CARRIER_BACK, NULL);
	ev(&r, 0.6, "rxeb/1", RDC_FO_RDMA_FAILED, "x");
	ev(&r, 2.0, "eth0", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 2.08, "eth0", RDC_FO_MII_STATUS, "down");
	ev(&r, 2.08, "bond0", RDC_FO_ACTIVE_MEMBER, "eth1");
	rdc_failover_derive(&r);
	assert_true(r.failover);
	assert_string_equal(r.member, "eth0");
	assert_near(r.fault_s, 2.0);
	assert_near(r.detect_s, 0.08);
	assert_near(r.react_s, 0.0);
	assert_true(isnan(r.member_back_s));
	assert_true(isnan(r.failback_s));
}

static void test_derive_wait_mode_nothing_yet(void **state)
{
	struct rdc_failover_report r;

	(void)state;
	report_init(&r, RDC_BOND_ACTIVE_BACKUP, false, "", "eth0");
	rdc_failover_derive(&r);
	assert_false(r.failover);
	assert_string_equal(r.member, "");
	assert_true(isnan(r.fault_s) && isnan(r.detect_s) && isnan(r.react_s));

	/* The carrier went, the bond has not noticed yet. */
	ev(&r, 2.0, "eth0", RDC_FO_CARRIER_LOST, NULL);
	rdc_failover_derive(&r);
	assert_false(r.failover);
	assert_near(r.fault_s, 2.0);
	assert_true(isnan(r.detect_s));
	assert_string_equal(r.react_reason, "the bond did not mark 'eth0' down");
}

static void test_derive_backup_failed(void **state)
{
	struct rdc_failover_report r;

	(void)state;
	report_init(&r, RDC_BOND_ACTIVE_BACKUP, false, "", "eth0");
	ev(&r, 1.0, "eth1", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 1.1, "eth1", RDC_FO_MII_STATUS, "down");
	rdc_failover_derive(&r);
	assert_false(r.failover);
	assert_string_equal(r.member, "eth1");
	assert_near(r.detect_s, 0.1);
	assert_true(isnan(r.react_s));
	assert_string_equal(r.react_reason,
			    "'eth1' was not the active member: nothing to fail over");
}

static void test_derive_8023ad_and_xor(void **state)
{
	struct rdc_failover_report r;

	(void)state;
	report_init(&r, RDC_BOND_8023AD, false, "", "");
	ev(&r, 1.0, "eth1", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 1.1, "eth1", RDC_FO_MII_STATUS, "down");
	ev(&r, 1.1, "eth1", RDC_FO_AGGREGATOR_LEFT, "aggregator 1");
	rdc_failover_derive(&r);
	assert_true(r.failover);
	assert_near(r.detect_s, 0.1);
	assert_near(r.react_s, 0.0);

	/* As the lab's 6.1 kernel says it: no LACP state message, the member made a backup. */
	report_init(&r, RDC_BOND_8023AD, false, "", "");
	ev(&r, 7.907, "eth0", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 7.950, "eth0", RDC_FO_MII_STATUS, "down");
	ev(&r, 7.952, "eth0", RDC_FO_STATE_BACKUP, NULL);
	rdc_failover_derive(&r);
	assert_true(r.failover);
	assert_near(r.detect_s, 0.043);
	assert_near(r.react_s, 0.002);
	assert_string_equal(r.member, "eth0");

	/* A carrier loss the bond never acts on is no failover, and says why. */
	report_init(&r, RDC_BOND_8023AD, false, "", "");
	ev(&r, 1.0, "eth1", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 1.1, "eth1", RDC_FO_MII_STATUS, "down");
	rdc_failover_derive(&r);
	assert_false(r.failover);
	assert_string_equal(r.react_reason, "'eth1' did not leave the aggregator");

	report_init(&r, RDC_BOND_BALANCE_XOR, false, "", "");
	ev(&r, 1.0, "eth1", RDC_FO_CARRIER_LOST, NULL);
	ev(&r, 1.2, "eth1", RDC_FO_MII_STATUS, "down");
	rdc_failover_derive(&r);
	assert_true(r.failover);
	assert_near(r.detect_s, 0.2);
	assert_true(isnan(r.react_s));
	assert_string_equal(r.react_reason,
			    "this mode has no active member: marked down is the reaction");
}

static void test_what_names(void **state)
{
	(void)state;
	for (int w = 0; w < RDC_FO_WHAT_COUNT; w++)
		assert_non_null(rdc_failover_what_name((enum rdc_failover_what)w));
	assert_string_equal(rdc_failover_what_name(RDC_FO_MII_STATUS), "mii_status");
	assert_null(rdc_failover_what_name(RDC_FO_WHAT_COUNT));
}

/* ---- what needs the live kernel refuses without it ------------------------------- */

static void test_refused_without_kernel(void **state)
{
	struct rdc_failover_report *r = calloc(1, sizeof(*r));
	struct rdc_failover_opts o = {.bond = "bond0", .wait_s = 1, .peer = "198.18.9.1"};
	struct rdc_nl_monitor *m = (struct rdc_nl_monitor *)1;
	struct rdc_err err = {0};

	(void)state;
	assert_non_null(r);
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);
	assert_int_equal(rdc_nl_monitor_open(&m, NETLINK_ROUTE, RTNLGRP_LINK, &err), -EOPNOTSUPP);
	assert_null(m);
	assert_string_equal(err.msg,
			    "kernel events cannot be replayed: this needs the live kernel");
	assert_int_equal(rdc_bond_failover_run(&o, r, &err), -EOPNOTSUPP);
	rdc_nl_close();

	/* Options are checked before anything is opened. */
	o.peer = "peer.example";
	assert_int_equal(rdc_bond_failover_run(&o, r, &err), -EINVAL);
	assert_string_equal(err.msg, "peer 'peer.example' is not an IPv4 address");
	o.peer = "198.18.9.1";
	o.wait_s = 0;
	assert_int_equal(rdc_bond_failover_run(&o, r, &err), -EINVAL);
	o.wait_s = 1;
	o.probe_hz = RDC_FAILOVER_MAX_HZ + 1;
	assert_int_equal(rdc_bond_failover_run(&o, r, &err), -EINVAL);
	assert_false(r->member_mode);
	assert_true(isnan(r->fault_s));
	free(r);
}

/*
 * The RDMA side's words are a bench error record's message (up to
 * RDC_ERR_MSG_LEN, a path in it), copied through the runner, the connection
 * and the report, and "no RDMA traffic: MSG" into the reason: each holds it
 * whole (they were 256 and 192 bytes, with "%.170s").  The measurement
 * itself needs a live bond (the lab tier); this checks what it copies into.
 */
static void test_rdma_words_whole(void **state)
{
	static struct rdc_failover_rdma_run run;
	static struct rdc_failover_report r;
	char msg[RDC_ERR_MSG_LEN];

	(void)state;
	memset(msg, 'w', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	assert_int_equal(rdc_strlcpy(run.error, msg, sizeof(run.error)), 0);
	assert_int_equal(rdc_strlcpy(r.rdma.error, run.error, sizeof(r.rdma.error)), 0);
	assert_true((size_t)snprintf(r.rdma.reason, sizeof(r.rdma.reason), "no RDMA traffic: %s",
				     msg) < sizeof(r.rdma.reason));
	assert_true((size_t)snprintf(r.rdma.reason, sizeof(r.rdma.reason),
				     "cannot read the RDMA ports: %s",
				     msg) < sizeof(r.rdma.reason));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gap_no_loss),
		cmocka_unit_test(test_gap_loss_inside),
		cmocka_unit_test(test_gap_loss_at_start),
		cmocka_unit_test(test_gap_loss_at_end),
		cmocka_unit_test(test_gap_none_answered_and_empty),
		cmocka_unit_test(test_gap_send_pause),
		cmocka_unit_test(test_gap_pick_by_fault),
		cmocka_unit_test(test_gap_after_outage),
		cmocka_unit_test(test_event_bond),
		cmocka_unit_test(test_event_member),
		cmocka_unit_test(test_event_plain_and_deleted),
		cmocka_unit_test(test_event_malformed),
		cmocka_unit_test(test_derive_member_mode_with_failback),
		cmocka_unit_test(test_derive_wait_mode_cable_pull),
		cmocka_unit_test(test_derive_wait_mode_nothing_yet),
		cmocka_unit_test(test_derive_backup_failed),
		cmocka_unit_test(test_derive_8023ad_and_xor),
		cmocka_unit_test(test_what_names),
		cmocka_unit_test(test_refused_without_kernel),
		cmocka_unit_test(test_rdma_words_whole),
	};

	return cmocka_run_group_tests_name("failover", tests, NULL, NULL);
}
