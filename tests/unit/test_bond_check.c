// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bond_check.c - the QP survival maths, failover estimates and `bond check` on built bonds */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/finding.h"
#include "bond/check.h"
#include "kernel/bondnl.h"
#include "seam/fs.h"
#include "seam/nl.h"

static const struct rdc_bond_check_params defaults = {RDC_BOND_CHECK_QP_TIMEOUT,
						      RDC_BOND_CHECK_RETRY_CNT};

/* ---- maths ---- */

static void assert_within_1pct(double got, double want)
{
	if (fabs(got - want) > 0.01 * want)
		fail_msg("%g is not within 1%% of %g", got, want);
}

static void test_survival_table(void **state)
{
	/* research/bond.md §4.2: timeout -> W at retry_cnt 7. */
	static const struct {
		unsigned int timeout;
		double ack_s, window_s;
	} rows[] = {
		{12, 16.8e-3, 0.134}, {14, 67.1e-3, 0.537}, {17, 0.537, 4.3},
		{18, 1.07, 8.6},      {20, 4.29, 34.4},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_within_1pct(rdc_qp_ack_timeout_s(rows[i].timeout), rows[i].ack_s);
		assert_within_1pct(rdc_qp_survival_s(rows[i].timeout, 7), rows[i].window_s);
	}
	/* retry_cnt 0: one try, one T_ack. */
	assert_within_1pct(rdc_qp_survival_s(14, 0), 67.1e-3);
	/* 0 is "wait forever"; past the 5- and 3-bit fields is no value at all. */
	assert_true(isinf(rdc_qp_ack_timeout_s(0)));
	assert_true(isinf(rdc_qp_survival_s(0, 7)));
	assert_true(isnan(rdc_qp_ack_timeout_s(32)));
	assert_true(isnan(rdc_qp_survival_s(14, 8)));
}

static void test_min_timeout(void **state)
{
	(void)state;
	assert_int_equal(rdc_qp_min_timeout(0.1, 7), 12);  /* miimon 100 */
	assert_int_equal(rdc_qp_min_timeout(3.0, 7), 17);  /* LACP fast */
	assert_int_equal(rdc_qp_min_timeout(90.0, 7), 22); /* LACP slow: 137 s */
	assert_int_equal(rdc_qp_min_timeout(0.1, 0), 15);  /* 4.096 us * 2^15 = 134 ms */
	assert_int_equal(rdc_qp_min_timeout(0.0, 7), 1);
	/* Exactly a window is not survived: the next timeout is needed. */
	assert_int_equal(rdc_qp_min_timeout(rdc_qp_survival_s(12, 7), 7), 13);
	assert_int_equal(rdc_qp_min_timeout(INFINITY, 7), -1);
	assert_int_equal(rdc_qp_min_timeout(NAN, 7), -1);
	assert_int_equal(rdc_qp_min_timeout(0.1, 8), -1);
	assert_int_equal(rdc_qp_min_timeout(1e6, 7), -1); /* past timeout 31's 70000 s */
}

/* ---- bonds built by hand ---- */

static void member(struct rdc_bond *b, const char *name)
{
	struct rdc_bond_member *m = &b->members[b->nmembers++];

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->ifindex = (int)b->nmembers + 10;
	m->state = m->ifindex == 11 ? 0 : 1;
	m->mii_status = 0;
	m->speed_mbps = 100000;
	snprintf(m->duplex, sizeof(m->duplex), "full");
	m->mtu = 9000;
	m->aggregator_id = 1;
	m->actor_port_state = m->partner_port_state = 63;
	m->carrier = true;
}

/* The bond every scenario starts from: a healthy 802.3ad RoCE LAG over both ports of one NIC. */
static void good_lag(struct rdc_bond *b, struct rdc_bond_facts *f)
{
	rdc_bondnl_init(b);
	snprintf(b->name, sizeof(b->name), "bond0");
	b->ifindex = 10;
	b->admin_up = b->carrier = true;
	b->mtu = 9000;
	b->mode = RDC_BOND_8023AD;
	b->xmit_hash_policy = RDC_BOND_HASH_L34;
	b->miimon_ms = 100;
	b->updelay_ms = b->downdelay_ms = 0;
	b->arp_interval_ms = 0;
	b->lacp_rate = 1;
	b->ad_select = 0;
	member(b, "ens1f0np0");
	member(b, "ens1f1np1");
	snprintf(b->rdma_device, sizeof(b->rdma_device), "mlx5_bond_0");
	b->rdma_port = 1;

	rdc_bond_facts_init(b, f);
	for (size_t i = 0; i < f->nmembers; i++) {
		struct rdc_bond_member_facts *m = &f->members[i];

		snprintf(m->pci, sizeof(m->pci), "0000:3b:00.%zu", i);
		snprintf(m->pci_source, sizeof(m->pci_source), "/sys/class/net/%s/device", m->name);
		m->pci_reason[0] = '\0';
		m->have_dcb = true;
		m->pfc_en = 0x08;
		snprintf(m->dcb_source, sizeof(m->dcb_source), "dcbnl DCB_CMD_IEEE_GET");
		m->dcb_reason[0] = '\0';
		snprintf(m->trust, sizeof(m->trust), "dscp");
		snprintf(m->trust_source, sizeof(m->trust_source), "/sys/class/net/%s/qos/trust",
			 m->name);
		m->trust_reason[0] = '\0';
	}
}

/* Text a check wrote was cut: it ends " ..." (strings are whole since issue 23). */
static bool cut(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && !strcmp(s + n - 4, " ...");
}

/*
 * One piece of evidence as schema 3 has it: a name without spaces (whose
 * it is goes in the detail), a source, words for text; a real is a finite
 * number; the check reads no counters; a detail shows in the text as
 * " (detail)"; nothing was cut.
 */
static void assert_evidence_ok(const struct rdc_finding *f, const struct rdc_evidence *e)
{
	if (!e->name[0] || strchr(e->name, ' '))
		fail_msg("%s: evidence name '%s' empty or with a space", f->id, e->name);
	if (!e->source[0] || cut(e->source))
		fail_msg("%s: %s: source '%s' empty or cut", f->id, e->name, e->source);
	if (!e->words_len || cut(e->value) || cut(e->detail))
		fail_msg("%s: %s: value '%s' empty or cut", f->id, e->name, e->value);
	if (e->type == RDC_EV_REAL && !isfinite(e->num.d))
		fail_msg("%s: %s: a real that is no number", f->id, e->name);
	if (e->counter || e->windowed)
		fail_msg("%s: %s: bond check reads no counters", f->id, e->name);
	if (e->detail[0]
		    ? strncmp(e->value + e->words_len, " (", 2) ||
			      strncmp(e->value + e->words_len + 2, e->detail, strlen(e->detail))
		    : e->value[e->words_len] != '\0')
		fail_msg("%s: %s: detail '%s' not in '%s'", f->id, e->name, e->detail, e->value);
}

/*
 * Every finding is whole: an id, a title; a fail or warn has a why, a fix
 * and evidence; every piece of evidence is whole and typed; and no text of
 * ours was cut (a cut shows as a full buffer).
 */
static void assert_well_formed(const struct rdc_findings *l)
{
	assert_int_equal(l->dropped, 0);
	for (size_t i = 0; i < l->count; i++) {
		const struct rdc_finding *f = &l->items[i];

		assert_true(strncmp(f->id, "bond.", 5) == 0);
		assert_true(f->title[0]);
		assert_true(f->why[0]);
		assert_false(cut(f->title));
		assert_false(cut(f->why));
		assert_false(cut(f->fix));
		if (f->severity != RDC_SEV_INFO) {
			if (!f->fix[0] || f->nevidence == 0)
				fail_msg("%s: no fix or no evidence", f->id);
		}
		for (size_t e = 0; e < f->nevidence; e++)
			assert_evidence_ok(f, &f->evidence[e]);
	}
}

static void eval(const struct rdc_bond *b, const struct rdc_bond_facts *f,
		 const struct rdc_bond_check_params *p, struct rdc_findings *l)
{
	/* The static list of the test before gives back what its findings own. */
	rdc_findings_clear(l);
	rdc_bond_check_eval(b, f, p, l);
	assert_well_formed(l);
}

/* The finding @id, which must be there with severity @sev. */
static const struct rdc_finding *expect(const struct rdc_findings *l, const char *id,
					enum rdc_severity sev)
{
	const struct rdc_finding *f = rdc_findings_find(l, id);

	if (!f) {
		for (size_t i = 0; i < l->count; i++)
			print_message("  have %s (%s): %s\n", l->items[i].id,
				      rdc_severity_name(l->items[i].severity), l->items[i].title);
		fail_msg("no finding '%s'", id);
	}
	assert_string_equal(rdc_severity_name(f->severity), rdc_severity_name(sev));
	return f;
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' does not contain '%s'", text, part);
}

/* The @nth (0: first) piece of evidence named @name, which must be there. */
static const struct rdc_evidence *ev_nth(const struct rdc_finding *f, const char *name, int nth)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (!strcmp(f->evidence[i].name, name) && nth-- == 0)
			return &f->evidence[i];
	for (size_t i = 0; i < f->nevidence; i++)
		print_message("  have %s = %s\n", f->evidence[i].name, f->evidence[i].value);
	fail_msg("%s: no evidence '%s'", f->id, name);
	return NULL;
}

static const struct rdc_evidence *ev(const struct rdc_finding *f, const char *name)
{
	return ev_nth(f, name, 0);
}

/* @e is words (TEXT) @words, with the detail @detail ("" none). */
static void assert_ev_text(const struct rdc_evidence *e, const char *words, const char *detail)
{
	assert_int_equal(e->type, RDC_EV_TEXT);
	assert_int_equal(e->words_len, strlen(words));
	assert_memory_equal(e->value, words, e->words_len);
	assert_string_equal(e->detail, detail);
}

/* @e could not be read (null in JSON): its words "unknown" or why, @detail whose and why. */
static void assert_ev_null(const struct rdc_evidence *e, const char *detail)
{
	assert_int_equal(e->type, RDC_EV_NONE);
	assert_false(e->counter);
	assert_string_equal(e->detail, detail);
}

static void assert_ev_int(const struct rdc_evidence *e, int64_t v, const char *detail)
{
	assert_int_equal(e->type, RDC_EV_INT);
	assert_int_equal(e->num.i, v);
	assert_string_equal(e->detail, detail);
}

static void assert_ev_uint(const struct rdc_evidence *e, uint64_t v, const char *detail)
{
	assert_int_equal(e->type, RDC_EV_UINT);
	assert_int_equal(e->num.u, v);
	assert_string_equal(e->detail, detail);
}

static void assert_ev_real(const struct rdc_evidence *e, double v)
{
	assert_int_equal(e->type, RDC_EV_REAL);
	if (fabs(e->num.d - v) > 1e-9 * (fabs(v) + 1))
		fail_msg("%s: %.12g is not %.12g", e->name, e->num.d, v);
}

static struct rdc_findings list; /* 230 KB: kept off the stack */

static void test_good_lag(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *q;

	(void)state;
	good_lag(&b, &f);
	eval(&b, &f, &defaults, &list);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	assert_int_equal(rdc_findings_count(&list, RDC_SEV_FAIL), 0);
	assert_int_equal(rdc_findings_count(&list, RDC_SEV_WARN), 0);
	/* Only the informing ones: the margin and the LAG device, nothing skipped. */
	assert_int_equal(list.count, 2);
	q = expect(&list, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_contains(q->title, "537 ms");
	assert_contains(q->title, "100 ms");
	assert_contains(q->title, "5.4x");
	/* The estimate's options and the window, typed, named as the document names them. */
	assert_ev_int(ev(q, "miimon_ms"), 100, "");
	assert_ev_int(ev(q, "downdelay_ms"), 0, "");
	assert_ev_real(ev(q, "failover_s"), 0.1);
	assert_ev_uint(ev(q, "qp_timeout"), 14, "ACK timeout 67.1 ms");
	assert_string_equal(ev(q, "qp_timeout")->value, "14 (ACK timeout 67.1 ms)");
	assert_ev_uint(ev(q, "retry_cnt"), 7, "");
	assert_ev_real(ev(q, "qp_survival_s"), 4.096e-6 * 16384 * 8);
	assert_string_equal(ev(q, "qp_survival_s")->source,
			    "4.096 us * 2^timeout * (retry_cnt + 1) (IBTA)");
	/* The device and its port: two values, two pieces. */
	q = expect(&list, "bond.roce-lag", RDC_SEV_INFO);
	assert_int_equal(q->nevidence, 2);
	assert_ev_text(ev(q, "rdma_device"), "mlx5_bond_0", "");
	assert_ev_uint(ev(q, "rdma_port"), 1, "");
	/* Soft-RoCE on the bond itself: the detail says so. */
	b.rdma_soft = true;
	eval(&b, &f, &defaults, &list);
	q = expect(&list, "bond.soft-roce", RDC_SEV_INFO);
	assert_ev_text(ev(q, "rdma_device"), "mlx5_bond_0", "software, on bond0");
	assert_string_equal(ev(q, "rdma_device")->value, "mlx5_bond_0 (software, on bond0)");
	assert_ev_uint(ev(q, "rdma_port"), 1, "");
	b.rdma_soft = false;
	/* Active-backup and balance-xor are LAG modes too. */
	b.mode = RDC_BOND_ACTIVE_BACKUP;
	b.xmit_hash_policy = RDC_BOND_HASH_L2; /* not used by active-backup */
	eval(&b, &f, &defaults, &list);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	b.mode = RDC_BOND_BALANCE_XOR;
	b.xmit_hash_policy = RDC_BOND_HASH_E34;
	eval(&b, &f, &defaults, &list);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
}

static void test_balance_rr(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.mode = RDC_BOND_BALANCE_RR;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.mode-no-roce-lag", RDC_SEV_FAIL);
	assert_contains(x->title, "balance-rr");
	assert_string_equal(x->evidence[0].source, "rtnetlink IFLA_BOND_MODE");
	/* The mode's name is the value, the kernel's number only its detail. */
	assert_ev_text(ev(x, "mode"), "balance-rr", "mode 0");
	assert_contains(x->fix, "rdmactl bond set bond0 mode 802.3ad");
	/* The command as words, runnable as they are. */
	assert_int_equal(x->fix_argv.argc, 6);
	assert_string_equal(x->fix_argv.argv[5], "802.3ad");
	/* A QP cannot move without LAG: its timeout is no cure, so it is not judged. */
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_string_equal(x->evidence[0].value, "balance-rr");
	assert_ev_text(ev(x, "mode"), "balance-rr", "");
	assert_null(rdc_findings_find(&list, "bond.qp-outlives-failover"));
	assert_null(rdc_findings_find(&list, "bond.hash-not-l34"));
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_FAIL);
}

static void test_two_nics(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	snprintf(f.members[1].pci, sizeof(f.members[1].pci), "0000:af:00.0");
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.members-not-one-nic", RDC_SEV_FAIL);
	assert_contains(x->title, "2 NICs");
	assert_contains(x->title, "0000:3b:00, 0000:af:00");
	assert_contains(x->title, "no RoCE LAG possible");
	assert_int_equal(x->nevidence, 2);
	/* One name for each member's PCI function, the member in the detail. */
	assert_ev_text(ev_nth(x, "pci", 0), "0000:3b:00.0", "ens1f0np0");
	assert_ev_text(ev_nth(x, "pci", 1), "0000:af:00.0", "ens1f1np1");
	assert_string_equal(x->evidence[1].source, "/sys/class/net/ens1f1np1/device");
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_ev_text(ev(x, "nics"), "0000:3b:00, 0000:af:00", "");
	/* Functions of one device are one NIC, however many. */
	snprintf(f.members[1].pci, sizeof(f.members[1].pci), "0000:3b:00.7");
	eval(&b, &f, &defaults, &list);
	assert_null(rdc_findings_find(&list, "bond.members-not-one-nic"));
}

static void test_mismatches(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.members[1].mtu = 1500;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.mtu-mismatch", RDC_SEV_FAIL);
	assert_contains(x->title, "ens1f1np1 1500");
	/* The bond sets its members' MTU: one command, each member's named too. */
	assert_string_equal(x->fix,
			    "'rdmactl port set bond0 mtu 9000' (the bond sets its members'), "
			    "or each: 'rdmactl port set ens1f1np1 mtu 9000'");
	assert_int_equal(x->fix_argv.argc, 6);
	assert_string_equal(x->fix_argv.argv[3], "bond0");
	assert_int_equal(x->nevidence, 3); /* the bond's and both members' */
	assert_ev_int(ev_nth(x, "mtu_bytes", 0), 9000, "bond0");
	assert_ev_int(ev_nth(x, "mtu_bytes", 1), 9000, "ens1f0np0");
	assert_ev_int(ev_nth(x, "mtu_bytes", 2), 1500, "ens1f1np1");
	assert_string_equal(x->evidence[2].value, "1500 (ens1f1np1)");

	good_lag(&b, &f);
	f.members[1].pfc_en = 0;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.pfc-mismatch", RDC_SEV_FAIL);
	assert_contains(x->title, "ens1f0np0 0x08 (prio 3)");
	assert_contains(x->title, "ens1f1np1 0x00 (none)");
	/* pfc on the bond sets every member alike. */
	assert_contains(x->fix, "'rdmactl pfc apply dev bond0 profile roce-lossless'");
	assert_string_equal(x->fix_argv.argv[4], "bond0");
	assert_string_equal(x->evidence[0].source, "dcbnl DCB_CMD_IEEE_GET");
	/* pfc_en is the bitmap, a number; its priorities are words. */
	assert_ev_uint(ev_nth(x, "pfc_en", 0), 0x08, "ens1f0np0: priorities 3");
	assert_ev_uint(ev_nth(x, "pfc_en", 1), 0, "ens1f1np1: no priority");
	assert_string_equal(x->evidence[0].value, "8 (ens1f0np0: priorities 3)");
	good_lag(&b, &f);
	f.members[1].pfc_en = 0x18;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.pfc-mismatch", RDC_SEV_FAIL);
	assert_ev_uint(ev_nth(x, "pfc_en", 1), 0x18, "ens1f1np1: priorities 3,4");

	good_lag(&b, &f);
	snprintf(f.members[0].trust, sizeof(f.members[0].trust), "pcp");
	f.members[0].dscp_apps = 0;
	snprintf(f.members[0].trust_source, sizeof(f.members[0].trust_source),
		 "dcbnl DCB_CMD_IEEE_GET (APP table, DSCP entries)");
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.trust-mismatch", RDC_SEV_FAIL);
	assert_contains(x->title, "ens1f0np0 pcp, ens1f1np1 dscp");
	/* The trust and, where it was derived from the APP table, its DSCP entries. */
	assert_int_equal(x->nevidence, 3);
	assert_ev_text(ev_nth(x, "trust", 0), "pcp", "ens1f0np0");
	assert_ev_uint(ev(x, "dscp_app_entries"), 0, "ens1f0np0");
	assert_string_equal(ev(x, "dscp_app_entries")->source,
			    "dcbnl DCB_CMD_IEEE_GET (APP table, DSCP entries)");
	assert_ev_text(ev_nth(x, "trust", 1), "dscp", "ens1f1np1");
	assert_contains(x->fix, "profile roce-lossless");

	good_lag(&b, &f);
	b.members[1].speed_mbps = 25000;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.speed-mismatch", RDC_SEV_WARN);
	assert_contains(x->title, "ens1f1np1 25000 Mb/s");
	assert_string_equal(x->evidence[1].source, "/proc/net/bonding/bond0 (Speed)");
	assert_ev_int(ev_nth(x, "speed_mbps", 0), 100000, "ens1f0np0");
	assert_ev_int(ev_nth(x, "speed_mbps", 1), 25000, "ens1f1np1");
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_WARN);
}

static void test_hash(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.xmit_hash_policy = RDC_BOND_HASH_L2;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.hash-not-l34", RDC_SEV_WARN);
	assert_contains(x->title, "layer2 ");
	assert_string_equal(x->fix, "'rdmactl bond set bond0 xmit-hash layer3+4'");
	assert_ev_text(ev(x, "xmit_hash_policy"), "layer2", "policy 0");
	assert_ev_text(ev(x, "mode"), "802.3ad", "");
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_WARN);
	b.xmit_hash_policy = RDC_BOND_HASH_L23;
	eval(&b, &f, &defaults, &list);
	expect(&list, "bond.hash-not-l34", RDC_SEV_WARN);
	b.mode = RDC_BOND_BALANCE_XOR;
	eval(&b, &f, &defaults, &list);
	expect(&list, "bond.hash-not-l34", RDC_SEV_WARN);
}

static void test_miimon_off(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	/* active-backup, no MII, no ARP: nothing notices a dead member. */
	good_lag(&b, &f);
	b.mode = RDC_BOND_ACTIVE_BACKUP;
	b.miimon_ms = 0;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.miimon-off", RDC_SEV_FAIL);
	assert_string_equal(x->fix, "'rdmactl bond set bond0 miimon 100'");
	assert_ev_int(ev(x, "miimon_ms"), 0, "");
	assert_ev_int(ev(x, "arp_interval_ms"), 0, "");
	assert_ev_text(ev(x, "mode"), "active-backup", "");
	/* One problem, one finding: no QP verdict on top. */
	assert_null(rdc_findings_find(&list, "bond.failover-outlasts-qp"));
	assert_null(rdc_findings_find(&list, "bond.qp-outlives-failover"));
	/* ARP monitoring instead is a choice, and it is timed. */
	b.arp_interval_ms = 100;
	eval(&b, &f, &defaults, &list);
	assert_null(rdc_findings_find(&list, "bond.miimon-off"));
	x = expect(&list, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_ev_int(ev(x, "arp_interval_ms"), 100, "");
	assert_ev_real(ev(x, "failover_s"), 0.2);
	/* 802.3ad without MII: LACP alone, 3 s, beyond timeout 14's 537 ms. */
	good_lag(&b, &f);
	b.miimon_ms = 0;
	eval(&b, &f, &defaults, &list);
	expect(&list, "bond.miimon-off", RDC_SEV_WARN);
	x = expect(&list, "bond.failover-outlasts-qp", RDC_SEV_FAIL);
	assert_contains(x->title, "3.0 s");
	assert_contains(x->title, "timeout 17");
	assert_ev_text(ev(x, "lacp_rate"), "fast", "");
	assert_ev_real(ev(x, "failover_s"), 3.0);
	assert_contains(x->fix, "timeout 17 or more");
	assert_contains(x->fix, "'rdmactl bond set bond0 miimon 100'");
}

static void test_lacp_slow(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.lacp_rate = 0;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.lacp-slow", RDC_SEV_WARN);
	assert_contains(x->fix, "'rdmactl bond set bond0 lacp-rate fast'");
	assert_string_equal(x->evidence[0].source, "rtnetlink IFLA_BOND_AD_LACP_RATE");
	assert_ev_text(ev(x, "lacp_rate"), "slow", "a LACPDU every 30 s, timed out after 90 s");
	/* miimon still detects a lost carrier in 100 ms: the QPs survive that. */
	expect(&list, "bond.qp-outlives-failover", RDC_SEV_INFO);
	/* Not an 802.3ad bond: LACP does not apply. */
	b.mode = RDC_BOND_ACTIVE_BACKUP;
	eval(&b, &f, &defaults, &list);
	assert_null(rdc_findings_find(&list, "bond.lacp-slow"));
}

static void test_qp_timeout(void **state)
{
	const struct rdc_bond_check_params short_qp = {10, 7}, enough = {12, 7};
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	/* timeout 10: 4.19 ms * 8 = 33.6 ms, less than miimon 100's 100 ms. */
	eval(&b, &f, &short_qp, &list);
	x = expect(&list, "bond.failover-outlasts-qp", RDC_SEV_FAIL);
	assert_contains(x->title, "100 ms");
	assert_contains(x->title, "33.6 ms");
	assert_contains(x->title, "timeout 12");
	assert_contains(x->fix, "timeout 12 or more");
	assert_contains(x->fix, "NCCL_IB_TIMEOUT=12");
	assert_contains(x->why, "IBV_WC_RETRY_EXC_ERR");
	assert_ev_uint(ev(x, "qp_timeout"), 10, "ACK timeout 4.2 ms");
	assert_ev_real(ev(x, "qp_survival_s"), 4.096e-6 * 1024 * 8);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_FAIL);
	eval(&b, &f, &enough, &list);
	x = expect(&list, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_contains(x->title, "134 ms");
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	/* timeout 0 never expires: it survives, and says what that costs. */
	eval(&b, &f, &(struct rdc_bond_check_params){0, 7}, &list);
	x = expect(&list, "bond.qp-outlives-failover", RDC_SEV_INFO);
	assert_contains(x->why, "never noticed");
	/* An infinite window is no JSON number: null, and the text says why. */
	assert_ev_null(ev(x, "qp_survival_s"),
		       "timeout 0 turns the ACK timer off: the QP waits forever");
	assert_contains(ev(x, "qp_survival_s")->value, "infinite");
	assert_ev_uint(ev(x, "qp_timeout"), 0, "ACK timeout infinite");
	/* downdelay counts: 100 + 200 ms outlasts timeout 12's 134 ms. */
	b.downdelay_ms = 200;
	eval(&b, &f, &enough, &list);
	x = expect(&list, "bond.failover-outlasts-qp", RDC_SEV_FAIL);
	assert_contains(x->fix, "timeout 14 or more");
	assert_contains(x->fix, "shorten downdelay (200 ms)");
	assert_ev_int(ev(x, "downdelay_ms"), 200, "");
	assert_ev_real(ev(x, "failover_s"), 0.3);
}

static void test_unknown_dcb(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	f.members[1].have_dcb = false;
	f.members[1].pfc_en = 0; /* what it would be if read: must not count */
	snprintf(f.members[1].dcb_reason, sizeof(f.members[1].dcb_reason),
		 "'ens1f1np1' has no DCB support in its driver");
	f.members[1].trust[0] = '\0';
	snprintf(f.members[1].trust_reason, sizeof(f.members[1].trust_reason),
		 "no qos/trust file (not MLNX_OFED) and no dcbnl");
	eval(&b, &f, &defaults, &list);
	assert_null(rdc_findings_find(&list, "bond.pfc-mismatch"));
	assert_null(rdc_findings_find(&list, "bond.trust-mismatch"));
	x = expect(&list, "bond.pfc-skipped", RDC_SEV_INFO);
	assert_string_equal(x->title, "PFC not compared on ens1f1np1");
	assert_int_equal(x->nevidence, 1);
	assert_contains(x->evidence[0].value, "no DCB support");
	assert_string_equal(x->evidence[0].source, "dcbnl DCB_CMD_IEEE_GET");
	/* Unknown is null under the value's own name; the member and why in the detail. */
	assert_ev_null(ev(x, "pfc_en"), "ens1f1np1: 'ens1f1np1' has no DCB support in its driver");
	x = expect(&list, "bond.trust-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "trust"), "ens1f1np1: no qos/trust file (not MLNX_OFED) and no dcbnl");
	assert_string_equal(
		ev(x, "trust")->source,
		"/sys/class/net/ens1f1np1/qos/trust, dcbnl DCB_CMD_IEEE_GET (APP table)");
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	/* With no facts at all every member's are unknown, and nothing fails for it. */
	eval(&b, NULL, &defaults, &list);
	x = expect(&list, "bond.nic-skipped", RDC_SEV_INFO);
	assert_string_equal(x->title, "PCI function not compared on ens1f0np0, ens1f1np1");
	assert_ev_null(ev_nth(x, "pci", 0), "ens1f0np0: no facts read");
	assert_ev_null(ev_nth(x, "pci", 1), "ens1f1np1: no facts read");
	expect(&list, "bond.pfc-skipped", RDC_SEV_INFO);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
}

/*
 * Sixteen members with 15-byte names on sixteen NICs, each a speed, an MTU,
 * PFC and trust of its own: every member in every list (titles were cut at
 * 128 bytes, fixes at 256 and 320, the NICs at 96), and an unknown member's
 * DCB reason, an error message naming a path, whole in the detail (128).
 */
static void test_lists_whole(void **state)
{
	static struct rdc_bond_facts f; /* 140 KB: off the stack */
	static struct rdc_bond b;
	char name[IF_NAMESIZE], part[96], reason[600];
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.nmembers = 0;
	b.mtu = -1;
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS; i++) {
		snprintf(name, sizeof(name), "ens%02uf0np0abcde", i + 10);
		assert_int_equal(strlen(name), 15);
		member(&b, name);
		b.members[i].speed_mbps = i ? 25000 : 100000;
		b.members[i].mtu = i ? 1500 + i : 9000;
	}
	rdc_bond_facts_init(&b, &f);
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS; i++) {
		struct rdc_bond_member_facts *m = &f.members[i];

		snprintf(m->pci, sizeof(m->pci), "0000:%02x:00.0", i + 0x10);
		m->pci_reason[0] = '\0';
		m->have_dcb = i != 15;
		m->pfc_en = i ? 0x08 : 0x18;
		snprintf(m->dcb_source, sizeof(m->dcb_source), "dcbnl DCB_CMD_IEEE_GET");
		m->dcb_reason[0] = '\0';
		snprintf(m->trust, sizeof(m->trust), "%s", i ? "dscp" : "pcp");
		snprintf(m->trust_source, sizeof(m->trust_source), "/sys/class/net/%s/qos/trust",
			 m->name);
		m->trust_reason[0] = '\0';
	}
	memset(reason, 'r', sizeof(reason) - 1);
	memcpy(reason, "cannot read '/", 14);
	reason[sizeof(reason) - 2] = '\'';
	reason[sizeof(reason) - 1] = '\0';
	snprintf(f.members[15].dcb_reason, sizeof(f.members[15].dcb_reason), "%s", reason);
	eval(&b, &f, &defaults, &list);

	x = expect(&list, "bond.members-not-one-nic", RDC_SEV_FAIL);
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS; i++) {
		snprintf(part, sizeof(part), "0000:%02x:00", i + 0x10);
		assert_contains(x->title, part);
	}
	x = expect(&list, "bond.speed-mismatch", RDC_SEV_WARN);
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS; i++) {
		snprintf(part, sizeof(part), "%s %s Mb/s", b.members[i].name,
			 i ? "25000" : "100000");
		assert_contains(x->title, part);
		snprintf(part, sizeof(part), "'rdmactl port show %s'", b.members[i].name);
		if (i)
			assert_contains(x->fix, part);
	}
	x = expect(&list, "bond.mtu-mismatch", RDC_SEV_FAIL);
	for (unsigned int i = 1; i < RDC_BOND_MAX_MEMBERS; i++) {
		snprintf(part, sizeof(part), "%s %u", b.members[i].name, 1500 + i);
		assert_contains(x->title, part);
		snprintf(part, sizeof(part), "'rdmactl port set %s mtu 9000'", b.members[i].name);
		assert_contains(x->fix, part);
	}
	x = expect(&list, "bond.pfc-mismatch", RDC_SEV_FAIL);
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS - 1; i++)
		assert_contains(x->title, b.members[i].name);
	x = expect(&list, "bond.trust-mismatch", RDC_SEV_FAIL);
	for (unsigned int i = 0; i < RDC_BOND_MAX_MEMBERS; i++) {
		snprintf(part, sizeof(part), "%s %s", b.members[i].name, i ? "dscp" : "pcp");
		assert_contains(x->title, part);
	}
	x = expect(&list, "bond.pfc-skipped", RDC_SEV_INFO);
	snprintf(part, sizeof(part), "%s: ", b.members[15].name);
	assert_contains(ev(x, "pfc_en")->detail, part);
	assert_contains(ev(x, "pfc_en")->detail, reason);
	rdc_findings_clear(&list);
}

static void test_unknown_bond_values(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.mode = -1;
	b.miimon_ms = -1;
	b.members[0].mtu = -1;
	b.members[1].mii_status = -1;
	eval(&b, &f, &defaults, &list);
	/* What was not read is null ("not read" in text), never a number or "unknown" words. */
	x = expect(&list, "bond.mode-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "mode"), "");
	assert_string_equal(ev(x, "mode")->value, "not read");
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "miimon_ms"), "");
	assert_ev_null(ev(x, "mode"), "");
	x = expect(&list, "bond.mtu-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "mtu_bytes"), "ens1f0np0: the kernel did not report it");
	x = expect(&list, "bond.member-state-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "mii_status"), "ens1f1np1: the kernel did not report it");
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	/* A downdelay not read leaves the estimate open: null too. */
	good_lag(&b, &f);
	b.downdelay_ms = -1;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_ev_int(ev(x, "miimon_ms"), 100, "");
	assert_ev_null(ev(x, "downdelay_ms"), "");
	assert_ev_text(ev(x, "mode"), "802.3ad", "");
	good_lag(&b, &f);
	b.xmit_hash_policy = -1;
	b.lacp_rate = -1;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.hash-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "xmit_hash_policy"), "");
	x = expect(&list, "bond.lacp-skipped", RDC_SEV_INFO);
	assert_ev_null(ev(x, "lacp_rate"), "");
	/* Without miimon the estimate needs the LACP rate: unknown, null. */
	b.miimon_ms = 0;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_ev_int(ev(x, "miimon_ms"), 0, "");
	assert_ev_null(ev(x, "lacp_rate"), "");
	/* Out-of-range QP parameters are not judged either: each a number, the range its detail. */
	good_lag(&b, &f);
	eval(&b, &f, &(struct rdc_bond_check_params){32, 7}, &list);
	x = expect(&list, "bond.failover-skipped", RDC_SEV_INFO);
	assert_ev_uint(ev(x, "qp_timeout"), 32, "valid: 0..31");
	assert_ev_uint(ev(x, "retry_cnt"), 7, "valid: 0..7");
}

static void test_members(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;
	const struct rdc_finding *x;

	(void)state;
	good_lag(&b, &f);
	b.members[1].mii_status = 2;
	b.members[1].carrier = false;
	b.members[1].speed_mbps = -1;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.member-down", RDC_SEV_WARN);
	assert_string_equal(x->title, "member ens1f1np1 is not up (MII down)");
	/* The bond's verdict and the member's carrier: two values, a boolean for the carrier. */
	assert_int_equal(x->nevidence, 2);
	assert_ev_text(ev(x, "mii_status"), "down", "ens1f1np1");
	assert_int_equal(ev(x, "carrier")->type, RDC_EV_BOOL);
	assert_false(ev(x, "carrier")->num.b);
	assert_string_equal(ev(x, "carrier")->detail, "ens1f1np1");
	assert_string_equal(ev(x, "carrier")->source, "rtnetlink IFLA_CARRIER");
	assert_contains(x->fix, "'rdmactl port show ens1f1np1'");
	x = expect(&list, "bond.speed-skipped", RDC_SEV_INFO);
	assert_contains(x->evidence[0].value, "the link is down");
	assert_ev_null(ev(x, "speed_mbps"), "ens1f1np1: the link is down");
	/* A member read from procfs alone (no ifindex) has no IFLA_CARRIER: null. */
	b.members[1].ifindex = 0;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.member-down", RDC_SEV_WARN);
	assert_ev_null(ev(x, "carrier"), "ens1f1np1");

	good_lag(&b, &f);
	b.nmembers = 1;
	f.nmembers = 1;
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.one-member", RDC_SEV_WARN);
	assert_ev_uint(ev(x, "members_count"), 1, "ens1f0np0");

	good_lag(&b, &f);
	b.nmembers = 0;
	f.nmembers = 0;
	b.rdma_device[0] = '\0';
	snprintf(b.rdma_reason, sizeof(b.rdma_reason), "no RDMA port has bond0 as its netdev");
	eval(&b, &f, &defaults, &list);
	x = expect(&list, "bond.no-members", RDC_SEV_FAIL);
	assert_ev_uint(ev(x, "members_count"), 0, "no link names bond0 its master");
	x = expect(&list, "bond.no-rdma-device", RDC_SEV_INFO);
	assert_contains(x->title, "no RDMA port has bond0 as its netdev");
	assert_ev_null(ev(x, "rdma_device"), "");
	assert_string_equal(ev(x, "rdma_device")->value, "none");
	assert_null(rdc_findings_find(&list, "bond.failover-skipped"));
}

/* ---- the failover estimate ---- */

static void test_failover_estimate(void **state)
{
	struct rdc_bond_facts f;
	struct rdc_bond b;

	(void)state;
	good_lag(&b, &f);
	b.downdelay_ms = 200;
	assert_within_1pct(rdc_bond_failover_s(&b), 0.3);
	b.miimon_ms = 0;
	assert_within_1pct(rdc_bond_failover_s(&b), 3.0);
	b.lacp_rate = 0;
	assert_within_1pct(rdc_bond_failover_s(&b), 90.0);
	b.lacp_rate = -1;
	assert_true(isnan(rdc_bond_failover_s(&b)));
	b.mode = RDC_BOND_ACTIVE_BACKUP;
	assert_true(isinf(rdc_bond_failover_s(&b)));
	b.arp_interval_ms = 250;
	assert_within_1pct(rdc_bond_failover_s(&b), 0.5);
	b.miimon_ms = -1;
	assert_true(isnan(rdc_bond_failover_s(&b)));
	b.miimon_ms = 0;
	b.arp_interval_ms = -1;
	assert_true(isnan(rdc_bond_failover_s(&b)));
}

/* ---- the findings list itself ---- */

static void test_findings_list(void **state)
{
	struct rdc_finding *f;
	enum rdc_severity sev;
	char longer[600];

	(void)state;
	rdc_findings_clear(&list);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_INFO);
	assert_string_equal(rdc_severity_name(RDC_SEV_FAIL), "fail");
	assert_string_equal(rdc_severity_name(RDC_SEV_WARN), "warn");
	assert_string_equal(rdc_severity_name(RDC_SEV_INFO), "info");
	assert_string_equal(rdc_severity_name((enum rdc_severity)7), "unknown");
	assert_int_equal(rdc_severity_parse("warn", &sev), 0);
	assert_int_equal(sev, RDC_SEV_WARN);
	assert_int_equal(rdc_severity_parse("warning", &sev), -EINVAL);

	/* Text is whole however long (issue 23); only the id, ours, is cut, never overrun. */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	f = rdc_findings_add(&list, longer, RDC_SEV_WARN, "%s", longer);
	assert_non_null(f);
	assert_int_equal(strlen(f->id), sizeof(f->id) - 1);
	assert_string_equal(f->title, longer);
	rdc_finding_why(f, "%s", longer);
	assert_string_equal(f->why, longer);
	for (int i = 0; i < RDC_FINDING_MAX_EVIDENCE; i++)
		assert_non_null(rdc_ev_text(f, longer, longer, "%d", i));
	assert_null(rdc_ev_uint(f, "one", "too many", 9));
	/* A detail on what was dropped is no crash. */
	rdc_ev_detail(rdc_ev_text(f, "one", "too many", "9"), "dropped");
	assert_int_equal(f->nevidence, RDC_FINDING_MAX_EVIDENCE);
	assert_string_equal(f->evidence[0].name, longer);
	assert_string_equal(f->evidence[0].source, longer);

	/* Full: the next one is dropped, counted, and still decides the worst. */
	while (list.count < RDC_FINDINGS_MAX)
		assert_non_null(rdc_findings_add(&list, "x.info", RDC_SEV_INFO, "n"));
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_WARN);
	f = rdc_findings_add(&list, "x.fail", RDC_SEV_FAIL, "dropped");
	assert_null(f);
	/* The setters take the NULL and do nothing. */
	rdc_finding_why(f, "why");
	rdc_finding_fix(f, "fix");
	assert_null(rdc_ev_text(f, "n", "s", "v"));
	rdc_ev_detail(rdc_ev_real(f, "n_s", "s", 1.5), "nothing");
	assert_int_equal(list.dropped, 1);
	assert_int_equal(rdc_findings_worst(&list), RDC_SEV_FAIL);
	assert_null(rdc_findings_find(&list, "x.fail"));
	assert_int_equal(rdc_findings_count(&list, RDC_SEV_INFO), RDC_FINDINGS_MAX - 1);
}

/* ---- facts read through the file layer, no kernel ---- */

static char root[] = "/tmp/test_bond_check.XXXXXX";

static void mkpath(const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_facts_read(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond_facts f;
	struct rdc_bond b;
	char path[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(root));
	mkpath("sys/devices/pci0000:00/0000:3b:00.0");
	mkpath("sys/devices/virtual/virtio0");
	mkpath("sys/class/net/ens1f0np0/qos");
	mkpath("sys/class/net/eth1");
	snprintf(path, sizeof(path), "%s/sys/class/net/ens1f0np0/device", root);
	assert_int_equal(symlink("../../../devices/pci0000:00/0000:3b:00.0", path), 0);
	snprintf(path, sizeof(path), "%s/sys/class/net/eth1/device", root);
	assert_int_equal(symlink("../../../devices/virtual/virtio0", path), 0);
	put("sys/class/net/ens1f0np0/qos/trust", "dscp\n");

	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0); /* no dcbnl to ask */
	rdc_bondnl_init(&b);
	snprintf(b.name, sizeof(b.name), "bond0");
	b.nmembers = 3;
	snprintf(b.members[0].name, sizeof(b.members[0].name), "ens1f0np0");
	snprintf(b.members[1].name, sizeof(b.members[1].name), "eth1");
	snprintf(b.members[2].name, sizeof(b.members[2].name), "veth0");
	assert_int_equal(rdc_bond_facts_read(&b, &f, &err), 0);
	assert_int_equal(f.nmembers, 3);

	assert_string_equal(f.members[0].pci, "0000:3b:00.0");
	assert_string_equal(f.members[0].pci_source, "/sys/class/net/ens1f0np0/device");
	assert_string_equal(f.members[0].trust, "dscp");
	assert_string_equal(f.members[0].trust_source, "/sys/class/net/ens1f0np0/qos/trust");
	assert_false(f.members[0].have_dcb);
	assert_true(f.members[0].dcb_reason[0]);

	assert_string_equal(f.members[1].pci, "");
	assert_contains(f.members[1].pci_reason, "'virtio0' is not a PCI function");
	assert_string_equal(f.members[1].trust, "");
	assert_contains(f.members[1].trust_reason, "no qos/trust file");

	assert_string_equal(f.members[2].pci, "");
	assert_contains(f.members[2].pci_reason, "virtual netdev");

	b.nmembers = RDC_BOND_MAX_MEMBERS + 1;
	assert_int_equal(rdc_bond_facts_read(&b, &f, &err), -EINVAL);

	rdc_nl_close();
	rdc_fs_set_root(NULL, NULL);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_survival_table),	    cmocka_unit_test(test_min_timeout),
		cmocka_unit_test(test_failover_estimate),   cmocka_unit_test(test_good_lag),
		cmocka_unit_test(test_balance_rr),	    cmocka_unit_test(test_two_nics),
		cmocka_unit_test(test_mismatches),	    cmocka_unit_test(test_hash),
		cmocka_unit_test(test_miimon_off),	    cmocka_unit_test(test_lacp_slow),
		cmocka_unit_test(test_qp_timeout),	    cmocka_unit_test(test_unknown_dcb),
		cmocka_unit_test(test_unknown_bond_values), cmocka_unit_test(test_members),
		cmocka_unit_test(test_lists_whole),	    cmocka_unit_test(test_findings_list),
		cmocka_unit_test(test_facts_read),
	};

	return cmocka_run_group_tests_name("bond_check", tests, NULL, NULL);
}
