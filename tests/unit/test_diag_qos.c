// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_qos.c - diag's qos checks on hosts built by hand: a lossless port, bad ones, skips */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/counters.h"
#include "base/finding.h"
#include "base/util.h"
#include "diag/diag.h"

#define NETDEV "ens1f0np0"
#define NETDEV2 "ens1f1np1"
#define PROFILE_FIX "rdmactl pfc apply dev " NETDEV " profile roce-lossless"

/* ---- building hosts ---------------------------------------------------- */

/* One driver counter in both samples (before, after). */
static void ctr(struct rdc_diag_port *p, enum rdc_diag_set set, const char *name, uint64_t a,
		uint64_t b)
{
	const uint64_t v[2] = {a, b};

	for (size_t i = 0; i < p->nsamples; i++) {
		struct rdc_counter_set *s = set == RDC_DIAG_HW ? &p->s[i].hw : &p->s[i].netdev;

		/* one sample: the port's only sample holds the later value */
		assert_int_equal(rdc_counters_add(s, set == RDC_DIAG_HW ? "hw" : "driver", name,
						  p->nsamples == 1 ? b : v[i]),
				 0);
	}
}

static void app(struct rdc_dcb *d, unsigned int dscp, unsigned int prio)
{
	d->apps[d->napps++] = (struct dcb_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
					       .priority = (uint8_t)prio,
					       .protocol = (uint16_t)dscp};
}

/*
 * A well-configured lossless port, as `pfc apply ... profile roce-lossless`
 * leaves it on MLNX_OFED mlx5: PFC on 3 only, DSCP 26 -> 3 and 48 -> 6,
 * trust dscp, TC 0 and TC 3 ETS 50/50, TC 6 strict, global pause off, ECN
 * on, CNPs 48/6, DCBX in host mode; counters of a busy but healthy 10 s.
 */
static void port_good(struct rdc_diag_port *p, const char *dev, const char *netdev, size_t nsamples)
{
	struct rdc_dcb *d = &p->dcb;

	memset(p, 0, sizeof(*p));
	snprintf(p->port.device, sizeof(p->port.device), "%s", dev);
	p->port.port = 1;
	snprintf(p->port.link_layer, sizeof(p->port.link_layer), "Ethernet");
	p->port.has_netdev = true;
	snprintf(p->port.netdev.name, sizeof(p->port.netdev.name), "%s", netdev);
	snprintf(p->label, sizeof(p->label), "%s/1 %s", dev, netdev);
	p->nsamples = nsamples;
	p->s[0].t_s = 100.0;
	p->s[1].t_s = 110.0;

	snprintf(p->netif.name, sizeof(p->netif.name), "%s", netdev);
	p->netif.have_pause = true;

	d->supported = true;
	d->have_pfc = d->have_ets = d->have_dcbx = d->have_buffer = true;
	d->pfc.pfc_cap = 8;
	d->pfc.pfc_en = 0x08;
	d->pfc.delay = 7;
	d->ets.ets_cap = 8;
	for (int i = 0; i < 8; i++) {
		d->ets.prio_tc[i] = 0;
		d->ets.tc_tsa[i] = IEEE_8021QAZ_TSA_STRICT;
		d->ets.tc_tx_bw[i] = 100; /* mlx5 reports 100 for strict TCs */
	}
	d->ets.prio_tc[3] = 3;
	d->ets.prio_tc[6] = 6;
	d->ets.tc_tsa[0] = d->ets.tc_tsa[3] = IEEE_8021QAZ_TSA_ETS;
	d->ets.tc_tx_bw[0] = d->ets.tc_tx_bw[3] = 50;
	d->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE;
	d->buffer.prio2buffer[3] = 1;
	d->buffer.buffer_size[0] = 130000;
	d->buffer.buffer_size[1] = 132016;
	d->buffer.total_size = 262016;
	app(d, 48, 6);
	app(d, 26, 3);

	snprintf(p->ofed.trust, sizeof(p->ofed.trust), "dscp");
	p->ofed.have_ecn = true;
	for (int i = 0; i < RDC_OFED_PRIOS; i++)
		p->ofed.ecn_np[i] = p->ofed.ecn_rp[i] = 1;
	p->ofed.cnp_dscp = 48;
	p->ofed.cnp_prio = 6;

	/* 2% paused each way, ECN working: congestion handled as it should be. */
	ctr(p, RDC_DIAG_NETDEV, "tx_prio3_pause_duration", 1000, 201000);
	ctr(p, RDC_DIAG_NETDEV, "rx_prio3_pause_duration", 5000, 205000);
	ctr(p, RDC_DIAG_NETDEV, "rx_prio3_pause", 10, 300);
	ctr(p, RDC_DIAG_NETDEV, "tx_pause_storm_warning_events", 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "tx_pause_storm_error_events", 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "rx_prio3_discards", 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "rx_prio3_buf_discard", 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "rx_discards_phy", 7, 9); /* lossy priorities: not judged */
	ctr(p, RDC_DIAG_NETDEV, "rx_pause_ctrl_phy", 0, 0);
	ctr(p, RDC_DIAG_NETDEV, "tx_pause_ctrl_phy", 0, 0);
	ctr(p, RDC_DIAG_HW, "np_ecn_marked_roce_packets", 100, 5100);
	ctr(p, RDC_DIAG_HW, "np_cnp_sent", 90, 4090);
	ctr(p, RDC_DIAG_HW, "rp_cnp_handled", 50, 3050);
	ctr(p, RDC_DIAG_HW, "rp_cnp_ignored", 0, 0);
}

/* Replace a counter's values (it must exist). */
static void ctr_set(struct rdc_diag_port *p, enum rdc_diag_set set, const char *name, uint64_t a,
		    uint64_t b)
{
	const uint64_t v[2] = {a, b};

	for (size_t i = 0; i < p->nsamples; i++) {
		struct rdc_counter_set *s = set == RDC_DIAG_HW ? &p->s[i].hw : &p->s[i].netdev;
		struct rdc_counter *c = NULL;

		for (size_t k = 0; k < s->count; k++)
			if (!strcmp(s->items[k].name, name))
				c = &s->items[k];
		assert_non_null(c);
		c->value = p->nsamples == 1 ? b : v[i];
	}
}

struct fixture {
	struct rdc_diag_host h;
	struct rdc_diag_port ports[4];
	struct rdc_diag_result r;
};

static struct fixture *host_new(size_t nports, size_t nsamples)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	static const char *const devs[] = {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"};
	static const char *const netdevs[] = {NETDEV, NETDEV2, "ens2f0np0", "ens2f1np1"};

	assert_non_null(fx);
	rdc_diag_policy_init(&fx->h.policy);
	fx->h.interval_s = nsamples > 1 ? 10.0 : 0.0;
	fx->h.nports = nports;
	fx->h.ports = fx->ports;
	for (size_t i = 0; i < nports; i++)
		port_good(&fx->ports[i], devs[i], netdevs[i], nsamples);
	return fx;
}

static void host_free(struct fixture *fx)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(fx->ports); i++)
		for (size_t k = 0; k < 2; k++) {
			rdc_counters_free(&fx->ports[i].s[k].ib);
			rdc_counters_free(&fx->ports[i].s[k].hw);
			rdc_counters_free(&fx->ports[i].s[k].netdev);
		}
	rdc_findings_clear(&fx->r.findings);
	free(fx);
}

/* Text a check wrote was cut: it ends " ..." (strings are whole since issue 23). */
static bool fx_cut(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && !strcmp(s + n - 4, " ...");
}

/* Run the qos family (only) on the host. */
static void run(struct fixture *fx)
{
	const char *const only[] = {"qos"};
	struct rdc_err err = {0};

	rdc_findings_clear(&fx->r.findings);
	assert_int_equal(rdc_diag_run(&fx->h, only, 1, NULL, 0, &fx->r, &err), 0);
	assert_int_equal(fx->r.nran, rdc_diag_family_find("qos")->count);
	/* Nothing the checks write is cut: a full buffer would mean a cut sentence. */
	for (size_t i = 0; i < fx->r.findings.count; i++) {
		const struct rdc_finding *f = &fx->r.findings.items[i];

		assert_false(fx_cut(f->title));
		assert_false(fx_cut(f->why));
		assert_false(fx_cut(f->fix));
		assert_true(f->why[0] && f->fix[0]);
		for (size_t k = 0; k < f->nevidence; k++) {
			/* One value per piece, named in one word: "pfc_en", "roce-prio". */
			if (!f->evidence[k].name[0] || strpbrk(f->evidence[k].name, " ,/()"))
				fail_msg("%s: evidence name '%s' is not one word", f->id,
					 f->evidence[k].name);
			assert_false(fx_cut(f->evidence[k].value));
			assert_false(fx_cut(f->evidence[k].source));
		}
	}
	for (size_t i = 0; i < fx->r.nskipped; i++)
		assert_true(strlen(fx->r.skipped[i].reason) < sizeof(fx->r.skipped[i].reason) - 1);
}

/* Run and print what was found: the tests below then read the list. */
static void run_dump(struct fixture *fx)
{
	run(fx);
	for (size_t i = 0; i < fx->r.findings.count; i++)
		print_message("  %s %s: %s\n", fx->r.findings.items[i].id,
			      rdc_severity_name(fx->r.findings.items[i].severity),
			      fx->r.findings.items[i].title);
	for (size_t i = 0; i < fx->r.nskipped; i++)
		print_message("  skip %s [%s]: %s\n", fx->r.skipped[i].id, fx->r.skipped[i].object,
			      fx->r.skipped[i].reason);
}

/* The one finding with @id (fails when there is none or several). */
static const struct rdc_finding *finding(const struct fixture *fx, const char *id)
{
	const struct rdc_finding *f = NULL;

	for (size_t i = 0; i < fx->r.findings.count; i++)
		if (!strcmp(fx->r.findings.items[i].id, id)) {
			if (f)
				fail_msg("two findings '%s'", id);
			f = &fx->r.findings.items[i];
		}
	if (!f)
		fail_msg("no finding '%s'", id);
	return f;
}

/* The one finding with @id about @netdev. */
static const struct rdc_finding *finding_on(const struct fixture *fx, const char *id,
					    const char *netdev)
{
	const struct rdc_finding *f = NULL;

	for (size_t i = 0; i < fx->r.findings.count; i++)
		if (!strcmp(fx->r.findings.items[i].id, id) &&
		    !strcmp(fx->r.findings.items[i].netdev, netdev)) {
			if (f)
				fail_msg("two findings '%s' on %s", id, netdev);
			f = &fx->r.findings.items[i];
		}
	if (!f)
		fail_msg("no finding '%s' on %s", id, netdev);
	return f;
}

static size_t count_id(const struct fixture *fx, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fx->r.findings.count; i++)
		n += !strcmp(fx->r.findings.items[i].id, id);
	return n;
}

/* The evidence named @name of @f. */
static const struct rdc_evidence *evidence(const struct rdc_finding *f, const char *name)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (!strcmp(f->evidence[i].name, name))
			return &f->evidence[i];
	static const struct rdc_evidence none;

	fail_msg("finding '%s' has no evidence '%s'", f->id, name);
	return &none; /* (fail_msg does not return) */
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

/*
 * Typed evidence (schema 3): each piece is one value, a number a number.
 * These fail on schema 2's evidence, which was all text ("0x08 (priorities
 * 3)", "+500 in 10.0 s", "26:4").
 */

/* A plain unsigned number (no counter). */
static void assert_ev_uint(const struct rdc_finding *f, const char *name, uint64_t v)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_UINT || e->counter)
		fail_msg("%s: evidence '%s' is not a plain number: '%s'", f->id, name, e->value);
	assert_int_equal(e->num.u, v);
}

static void assert_ev_real(const struct rdc_finding *f, const char *name, double v)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_REAL)
		fail_msg("%s: evidence '%s' is not a real number: '%s'", f->id, name, e->value);
	if (!(e->num.d > v - 1e-6 && e->num.d < v + 1e-6))
		fail_msg("%s: evidence '%s' is %g, not %g", f->id, name, e->num.d, v);
}

static void assert_ev_bool(const struct rdc_finding *f, const char *name, bool v)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_BOOL)
		fail_msg("%s: evidence '%s' is not a boolean: '%s'", f->id, name, e->value);
	assert_int_equal(e->num.b, v);
}

/* Words, exactly @words (without the detail). */
static void assert_ev_text(const struct rdc_finding *f, const char *name, const char *words)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_TEXT)
		fail_msg("%s: evidence '%s' is not words: '%s'", f->id, name, e->value);
	assert_int_equal(e->words_len, strlen(words));
	assert_memory_equal(e->value, words, strlen(words));
}

/* Null in JSON (not read, or no such entry), with the words text says. */
static void assert_ev_unknown(const struct rdc_finding *f, const char *name, const char *words)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_NONE || e->counter)
		fail_msg("%s: evidence '%s' is not unknown: '%s'", f->id, name, e->value);
	assert_int_equal(e->words_len, strlen(words));
	assert_memory_equal(e->value, words, strlen(words));
}

/* A counter over the window: moved by @delta in @window_s, @total now. */
static void assert_ev_window(const struct rdc_finding *f, const char *name, uint64_t delta,
			     double window_s, uint64_t total)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_UINT || !e->counter || !e->windowed)
		fail_msg("%s: evidence '%s' is not a counter over a window: '%s'", f->id, name,
			 e->value);
	assert_int_equal(e->delta, delta);
	assert_true(e->window_s > window_s - 1e-9 && e->window_s < window_s + 1e-9);
	assert_int_equal(e->num.u, total);
}

/* A counter read once: its total since boot or reset. */
static void assert_ev_counter(const struct rdc_finding *f, const char *name, uint64_t total)
{
	const struct rdc_evidence *e = evidence(f, name);

	if (e->type != RDC_EV_UINT || !e->counter || e->windowed)
		fail_msg("%s: evidence '%s' is not a counter since reset: '%s'", f->id, name,
			 e->value);
	assert_int_equal(e->num.u, total);
}

/* The skip of @id about @object, or NULL. */
static const struct rdc_diag_skip *skip_of(const struct fixture *fx, const char *id,
					   const char *object)
{
	for (size_t i = 0; i < fx->r.nskipped; i++)
		if (!strcmp(fx->r.skipped[i].id, id) && !strcmp(fx->r.skipped[i].object, object))
			return &fx->r.skipped[i];
	return NULL;
}

/* The reason of the skip of @id about @object (fails when there is none). */
static const char *skip_reason(const struct fixture *fx, const char *id, const char *object)
{
	const struct rdc_diag_skip *s = skip_of(fx, id, object);

	if (!s)
		fail_msg("no skip of '%s' about '%s'", id, object);
	return s ? s->reason : "";
}

static void assert_only(const struct fixture *fx, const char *id)
{
	for (size_t i = 0; i < fx->r.findings.count; i++)
		if (strcmp(fx->r.findings.items[i].id, id))
			fail_msg("unexpected finding %s: %s", fx->r.findings.items[i].id,
				 fx->r.findings.items[i].title);
}

/* ---- the lossless port ------------------------------------------------- */

static void test_good_port(void **state)
{
	struct fixture *fx = host_new(2, 2);

	(void)state;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_int_equal(fx->r.nskipped, 0);
	host_free(fx);
}

static void test_good_port_one_sample(void **state)
{
	struct fixture *fx = host_new(1, 1);

	(void)state;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	/* Only the pause share needs a window. */
	assert_non_null(skip_of(fx, "qos.rx-pause", "mlx5_0/1 " NETDEV));
	assert_contains(skip_reason(fx, "qos.rx-pause", "mlx5_0/1 " NETDEV), "one sample");
	assert_int_equal(fx->r.nskipped, 1);
	host_free(fx);
}

/* Upstream mlx5: no MLNX_OFED files, trust from the APP table; ECN and CNPs unknown. */
static void test_good_port_upstream(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	memset(&fx->ports[0].ofed, 0, sizeof(fx->ports[0].ofed));
	fx->ports[0].ofed.cnp_dscp = fx->ports[0].ofed.cnp_prio = -1;
	for (int i = 0; i < RDC_OFED_PRIOS; i++)
		fx->ports[0].ofed.ecn_np[i] = fx->ports[0].ofed.ecn_rp[i] = -1;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_contains(skip_reason(fx, "qos.ecn-off", "mlx5_0/1 " NETDEV),
			"no MLNX_OFED ecn sysfs");
	assert_contains(skip_reason(fx, "qos.cnp-inconsistent", "mlx5_0/1 " NETDEV), "CNP_DSCP_P1");
	assert_int_equal(fx->r.nskipped, 2);
	host_free(fx);
}

/* ---- skips ------------------------------------------------------------- */

static void test_skip_no_dcb(void **state)
{
	struct fixture *fx = host_new(4, 2);
	const size_t n = rdc_diag_family_find("qos")->count;

	(void)state;
	/* a VF: its driver has no dcbnl */
	fx->ports[0].dcb_rc = -EOPNOTSUPP;
	fx->ports[0].dcb.supported = false;
	snprintf(fx->ports[0].dcb_reason, sizeof(fx->ports[0].dcb_reason),
		 "cannot read DCB of '" NETDEV "'");
	/* an InfiniBand port */
	snprintf(fx->ports[1].port.link_layer, sizeof(fx->ports[1].port.link_layer), "InfiniBand");
	/* read, but not answered */
	fx->ports[2].dcb.supported = false;
	/* a reason that already names the errno keeps its words */
	fx->ports[3].dcb_rc = -EOPNOTSUPP;
	snprintf(fx->ports[3].dcb_reason, sizeof(fx->ports[3].dcb_reason),
		 "cannot read DCB of 'ens2f1np1': Operation not supported (no dcbnl operations)");
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	/* Every check per port, but qos.members-differ, which is per bond: none here. */
	assert_int_equal(fx->r.nskipped, 4 * (n - 1));
	for (size_t i = 0; i < fx->r.nskipped; i++) {
		const struct rdc_diag_skip *s = &fx->r.skipped[i];

		assert_true(!strncmp(s->id, "qos.", 4));
		if (!strcmp(s->object, "mlx5_0/1 " NETDEV))
			assert_string_equal(s->reason, "DCB not read: cannot read DCB of '" NETDEV
						       "': Operation not supported");
		else if (!strcmp(s->object, "mlx5_3/1 ens2f1np1"))
			assert_string_equal(s->reason, "DCB not read: cannot read DCB of "
						       "'ens2f1np1': Operation not supported (no "
						       "dcbnl operations)");
		else if (!strcmp(s->object, "mlx5_1/1 " NETDEV2))
			assert_contains(s->reason, "link layer InfiniBand");
		else
			assert_contains(s->reason, "DCB not read: ens2f0np0 does not answer dcbnl");
	}
	host_free(fx);
}

static void test_skip_missing_attrs(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	fx->ports[0].dcb.have_pfc = false;
	fx->ports[0].dcb.have_ets = false;
	fx->ports[0].dcb.have_dcbx = false;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_contains(skip_reason(fx, "qos.pfc-off", "mlx5_0/1 " NETDEV), "no IEEE PFC");
	assert_contains(skip_reason(fx, "qos.pfc-too-many", "mlx5_0/1 " NETDEV), "no IEEE PFC");
	assert_contains(skip_reason(fx, "qos.global-pause", "mlx5_0/1 " NETDEV), "no IEEE PFC");
	assert_contains(skip_reason(fx, "qos.lossless-drops", "mlx5_0/1 " NETDEV), "no IEEE PFC");
	assert_contains(skip_reason(fx, "qos.ets", "mlx5_0/1 " NETDEV), "no IEEE ETS");
	assert_contains(skip_reason(fx, "qos.dcbx-fight", "mlx5_0/1 " NETDEV), "no DCBX");
	assert_int_equal(fx->r.nskipped, 6);
	host_free(fx);
}

/* No congestion or pause counters at all (a driver other than mlx5). */
static void test_skip_no_counters(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		rdc_counters_free(&fx->ports[0].s[k].hw);
		rdc_counters_free(&fx->ports[0].s[k].netdev);
	}
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_contains(skip_reason(fx, "qos.pause-storm", "mlx5_0/1 " NETDEV),
			"no tx_prio3_pause_duration");
	assert_contains(skip_reason(fx, "qos.rx-pause", "mlx5_0/1 " NETDEV),
			"no rx_prio3_pause_duration");
	assert_contains(skip_reason(fx, "qos.lossless-drops", "mlx5_0/1 " NETDEV),
			"no rx_prio3_discards");
	assert_contains(skip_reason(fx, "qos.cnp-loop", "mlx5_0/1 " NETDEV),
			"no congestion counters");
	assert_int_equal(fx->r.nskipped, 4);
	host_free(fx);
}

/* ---- configuration ----------------------------------------------------- */

static void test_pfc_off(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].dcb.pfc.pfc_en = 0;
	run_dump(fx);
	f = finding(fx, "qos.pfc-off");
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "PFC is off on the RoCE priority 3 (PFC on: none)");
	assert_string_equal(f->device, "mlx5_0");
	assert_int_equal(f->port, 1);
	assert_string_equal(f->netdev, NETDEV);
	assert_ev_uint(f, "pfc_en", 0);
	assert_string_equal(evidence(f, "pfc_en")->detail, "no priority");
	assert_string_equal(evidence(f, "pfc_en")->value, "0 (no priority)");
	assert_string_equal(evidence(f, "pfc_en")->source,
			    "dcbnl DCB_CMD_IEEE_GET " NETDEV " (DCB_ATTR_IEEE_PFC)");
	assert_ev_uint(f, "roce-prio", 3);
	assert_contains(f->why, "dropped instead of paused");
	assert_string_equal(f->fix, PROFILE_FIX);
	/* Without PFC, drops on the priority are pfc-off's business. */
	assert_contains(skip_reason(fx, "qos.lossless-drops", "mlx5_0/1 " NETDEV),
			"PFC is off on priority 3");
	assert_only(fx, "qos.pfc-off");
	host_free(fx);
}

/* PFC on the wrong single priority: pfc-off alone. */
static void test_pfc_wrong_prio(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	fx->ports[0].dcb.pfc.pfc_en = 0x10;
	run_dump(fx);
	assert_string_equal(finding(fx, "qos.pfc-off")->title,
			    "PFC is off on the RoCE priority 3 (PFC on: 4)");
	assert_int_equal(count_id(fx, "qos.pfc-too-many"), 0);
	host_free(fx);
}

static void test_pfc_too_many(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].dcb.pfc.pfc_en = 0x48; /* 3 and the CNP priority 6 */
	fx->ports[1].dcb.pfc.pfc_en = 0x38; /* 3, 4, 5 */
	fx->ports[1].dcb.pfc.pfc_cap = 2;
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.pfc-too-many"), 2);
	f = finding_on(fx, "qos.pfc-too-many", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "PFC is on the CNP priority 6 (PFC on: 3,6)");
	assert_ev_uint(f, "cnp-prio", 6);
	assert_ev_uint(f, "pfc_en", 0x48);
	assert_string_equal(evidence(f, "pfc_en")->detail, "priorities 3,6");
	assert_contains(f->why, "CNPs must never wait");
	assert_string_equal(f->fix, PROFILE_FIX);
	f = finding_on(fx, "qos.pfc-too-many", NETDEV2);
	assert_string_equal(f->netdev, NETDEV2);
	assert_string_equal(f->title,
			    "PFC is on more priorities than RoCE's 3 (PFC on: 3,4,5), more than "
			    "pfc_cap");
	assert_ev_uint(f, "pfc_cap", 2);
	assert_ev_uint(f, "roce-prio", 3);
	assert_string_equal(f->fix, "rdmactl pfc apply dev " NETDEV2 " profile roce-lossless");
	assert_only(fx, "qos.pfc-too-many");
	host_free(fx);
}

static void test_trust_pcp_upstream(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].ofed.trust[0] = '\0';
	fx->ports[0].dcb.napps = 0;
	run_dump(fx);
	f = finding(fx, "qos.trust");
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title,
			    "the port trusts pcp, not DSCP: RoCE v2 is classified by VLAN PCP");
	assert_ev_text(f, "trust", "pcp");
	assert_contains(evidence(f, "trust")->source, "dcbnl DCB_CMD_IEEE_GET " NETDEV);
	assert_ev_uint(f, "dscp_app_entries", 0);
	assert_contains(f->why, "DSCP 26");
	assert_string_equal(f->fix, PROFILE_FIX);
	/* the map is not used then: no second finding for the same cause */
	assert_contains(skip_reason(fx, "qos.dscp-map", "mlx5_0/1 " NETDEV),
			"trusts pcp (qos.trust)");
	assert_only(fx, "qos.trust");
	host_free(fx);
}

static void test_trust_pcp_ofed(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	snprintf(fx->ports[0].ofed.trust, sizeof(fx->ports[0].ofed.trust), "pcp");
	run_dump(fx);
	f = finding(fx, "qos.trust");
	assert_ev_text(f, "trust", "pcp");
	assert_string_equal(evidence(f, "trust")->source, "/sys/class/net/" NETDEV "/qos/trust");
	assert_ev_uint(f, "dscp_app_entries", 2);
	assert_only(fx, "qos.trust");
	host_free(fx);
}

/* MLNX_OFED keeps its own DSCP map when the APP table is empty: trust holds, the map is unknown. */
static void test_trust_dscp_ofed_no_apps(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	fx->ports[0].dcb.napps = 0;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_contains(skip_reason(fx, "qos.dscp-map", "mlx5_0/1 " NETDEV), "qos/dscp2prio");
	assert_int_equal(fx->r.nskipped, 1);
	host_free(fx);
}

static void test_dscp_map(void **state)
{
	struct fixture *fx = host_new(3, 2);
	const struct rdc_finding *f;

	(void)state;
	/* 26 -> 4: RoCE off the lossless priority */
	fx->ports[0].dcb.apps[1].priority = 4;
	/* 48 -> 0: CNPs in the bulk class */
	fx->ports[1].dcb.apps[0].priority = 0;
	/* only 48:6 (trust dscp), 26 left to the driver */
	fx->ports[2].dcb.apps[1].protocol = 10;
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.dscp-map"), 3);
	assert_only(fx, "qos.dscp-map");

	f = finding_on(fx, "qos.dscp-map", NETDEV);
	assert_string_equal(f->netdev, NETDEV);
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "RoCE DSCP 26 -> priority 4, not 3");
	/* "26:4" was two values: the priority the map gives, and (detail) the DSCP */
	assert_ev_uint(f, "roce_dscp_prio", 4);
	assert_string_equal(evidence(f, "roce_dscp_prio")->detail, "DSCP 26");
	assert_string_equal(evidence(f, "roce_dscp_prio")->value, "4 (DSCP 26)");
	assert_string_equal(evidence(f, "roce_dscp_prio")->source,
			    "dcbnl DCB_CMD_IEEE_GET " NETDEV " (DCB_ATTR_IEEE_APP_TABLE)");
	assert_ev_uint(f, "cnp_dscp_prio", 6);
	assert_string_equal(evidence(f, "cnp_dscp_prio")->detail, "DSCP 48");
	assert_ev_text(f, "trust", "dscp");
	/* the policy's "roce-dscp, roce-prio" "26:3": a piece each */
	assert_ev_uint(f, "roce-dscp", 26);
	assert_ev_uint(f, "roce-prio", 3);
	assert_ev_uint(f, "cnp-dscp", 48);
	assert_ev_uint(f, "cnp-prio", 6);
	assert_contains(f->why, "lossless priority 3");
	assert_string_equal(f->fix, PROFILE_FIX);

	f = finding_on(fx, "qos.dscp-map", NETDEV2);
	assert_string_equal(f->netdev, NETDEV2);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "CNP DSCP 48 -> priority 0, not 6");
	assert_ev_uint(f, "cnp_dscp_prio", 0);
	assert_contains(f->why, "CNPs (DSCP 48) belong on priority 6");

	f = finding_on(fx, "qos.dscp-map", "ens2f0np0");
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "RoCE DSCP 26 not in the APP table (want priority 3)");
	/* no entry: null, not a priority */
	assert_ev_unknown(f, "roce_dscp_prio", "no entry");
	assert_string_equal(evidence(f, "roce_dscp_prio")->value, "no entry (DSCP 26)");
	assert_contains(f->why, "driver's default priority");
	host_free(fx);
}

static void test_ets(void **state)
{
	struct fixture *fx = host_new(3, 2);
	const struct rdc_finding *f;

	(void)state;
	/* RoCE TC with 10% */
	fx->ports[0].dcb.ets.tc_tx_bw[0] = 90;
	fx->ports[0].dcb.ets.tc_tx_bw[3] = 10;
	/* mlx5's default before anything is configured: vendor TSA, prio 0 in TC 1 */
	for (int i = 0; i < 8; i++) {
		fx->ports[1].dcb.ets.prio_tc[i] = (uint8_t)i;
		fx->ports[1].dcb.ets.tc_tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
	}
	fx->ports[1].dcb.ets.prio_tc[0] = 1;
	fx->ports[1].dcb.ets.prio_tc[1] = 0;
	/* bulk in the RoCE TC, CNPs with the data */
	fx->ports[2].dcb.ets.prio_tc[0] = 3;
	fx->ports[2].dcb.ets.prio_tc[6] = 3;
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.ets"), 3);
	assert_only(fx, "qos.ets");

	f = finding_on(fx, "qos.ets", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "RoCE TC 3 has 10% by ETS, below 50%");
	/* the eight-entry maps ("0:0 1:0 ...") became the RoCE and CNP TCs' values */
	assert_ev_uint(f, "roce_tc", 3);
	assert_string_equal(evidence(f, "roce_tc")->detail, "prio_tc of priority 3");
	assert_ev_text(f, "roce_tc_tsa", "ets");
	assert_ev_uint(f, "roce_tc_bw_pct", 10);
	assert_string_equal(evidence(f, "roce_tc_bw_pct")->source,
			    "dcbnl DCB_CMD_IEEE_GET " NETDEV " (DCB_ATTR_IEEE_ETS)");
	assert_ev_uint(f, "roce_tc_prios_count", 1);
	assert_string_equal(evidence(f, "roce_tc_prios_count")->detail, "priorities 3");
	assert_ev_uint(f, "cnp_tc", 6);
	assert_ev_text(f, "cnp_tc_tsa", "strict");
	assert_ev_real(f, "ets-min-bw-pct", 50);
	assert_ev_uint(f, "roce-prio", 3);
	assert_ev_uint(f, "cnp-prio", 6);
	assert_string_equal(f->fix, PROFILE_FIX);

	f = finding_on(fx, "qos.ets", NETDEV2);
	assert_string_equal(
		f->title, "RoCE TC 3 is vendor, not ETS or strict; CNP TC 6 is vendor, not strict");
	assert_ev_text(f, "roce_tc_tsa", "vendor");
	assert_ev_text(f, "cnp_tc_tsa", "vendor");

	f = finding_on(fx, "qos.ets", "ens2f0np0");
	assert_string_equal(f->title,
			    "RoCE TC 3 also carries priorities 0,6; CNPs share the RoCE TC 3");
	assert_ev_uint(f, "roce_tc_prios_count", 3);
	assert_string_equal(evidence(f, "roce_tc_prios_count")->detail, "priorities 0,3,6");
	assert_ev_uint(f, "cnp_tc", 3);
	host_free(fx);
}

static void test_global_pause(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].netif.pause_rx = fx->ports[0].netif.pause_tx = true;
	/* pause off here, but the switch sends 802.3x frames */
	ctr_set(&fx->ports[1], RDC_DIAG_NETDEV, "rx_pause_ctrl_phy", 10, 510);
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.global-pause"), 2);
	assert_only(fx, "qos.global-pause");

	f = finding_on(fx, "qos.global-pause", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "link-level pause (802.3x) is on (rx on, tx on) while PFC is "
				      "on priorities 3");
	/* "autoneg off rx on tx on": three booleans */
	assert_ev_bool(f, "pause_autoneg", false);
	assert_ev_bool(f, "rx_pause", true);
	assert_ev_bool(f, "tx_pause", true);
	assert_string_equal(evidence(f, "rx_pause")->source, "ETHTOOL_GPAUSEPARAM " NETDEV);
	assert_ev_uint(f, "pfc_en", 0x08);
	assert_string_equal(evidence(f, "pfc_en")->value, "8 (priorities 3)");
	assert_string_equal(f->fix, "ethtool -A " NETDEV " autoneg off rx off tx off");

	f = finding_on(fx, "qos.global-pause", NETDEV2);
	assert_string_equal(f->title, "link-level pause frames in the window (rx 500, tx 0) while "
				      "PFC is on priorities 3");
	assert_ev_window(f, "rx_pause_ctrl_phy", 500, 10.0, 510);
	assert_string_equal(evidence(f, "rx_pause_ctrl_phy")->value, "+500 in 10.0 s (now 510)");
	assert_ev_window(f, "tx_pause_ctrl_phy", 0, 10.0, 0);
	assert_ev_bool(f, "rx_pause", false);
	assert_string_equal(evidence(f, "rx_pause_ctrl_phy")->source,
			    "ethtool -S " NETDEV2 " (ETHTOOL_GSTATS)");
	assert_contains(f->fix, "switch port");
	host_free(fx);
}

/* Global pause without PFC is the only flow control: not this check's business. */
static void test_global_pause_without_pfc(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	fx->ports[0].netif.pause_rx = fx->ports[0].netif.pause_tx = true;
	fx->ports[0].dcb.pfc.pfc_en = 0;
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.global-pause"), 0);
	host_free(fx);
}

/* ---- counters ---------------------------------------------------------- */

static void test_pause_storm(void **state)
{
	struct fixture *fx = host_new(3, 2);
	const struct rdc_finding *f;

	(void)state;
	/* 6 s of 10 paused: > 50% */
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "tx_prio3_pause_duration", 0, 6000000);
	/* 2 s of 10: > 10% */
	ctr_set(&fx->ports[1], RDC_DIAG_NETDEV, "tx_prio3_pause_duration", 0, 2000000);
	/* a storm error in the window */
	ctr_set(&fx->ports[2], RDC_DIAG_NETDEV, "tx_pause_storm_error_events", 3, 4);
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.pause-storm"), 3);

	f = finding_on(fx, "qos.pause-storm", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "paused the peer 60.0% of the 10.0 s window on priority 3");
	/* "+6000000 us in 10.0 s (60.0%)": the counter, and its share of the window */
	assert_ev_window(f, "tx_prio3_pause_duration", 6000000, 10.0, 6000000);
	assert_string_equal(evidence(f, "tx_prio3_pause_duration")->detail, "microseconds");
	assert_string_equal(evidence(f, "tx_prio3_pause_duration")->source,
			    "ethtool -S " NETDEV " (ETHTOOL_GSTATS)");
	assert_ev_real(f, "tx_pause_pct", 60.0);
	assert_string_equal(evidence(f, "tx_pause_pct")->value,
			    "60 (of the 10.0 s window, priority 3)");
	assert_ev_window(f, "tx_pause_storm_error_events", 0, 10.0, 0);
	assert_ev_real(f, "tx-pause-pct-warn", 10);
	assert_ev_real(f, "tx-pause-pct-fail", 50);
	assert_contains(f->fix, "rdmactl port stats " NETDEV " interval 1");

	f = finding_on(fx, "qos.pause-storm", NETDEV2);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "paused the peer 20.0% of the 10.0 s window on priority 3");

	f = finding_on(fx, "qos.pause-storm", "ens2f0np0");
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "1 pause storm error events in the window");
	assert_ev_window(f, "tx_pause_storm_error_events", 1, 10.0, 4);
	host_free(fx);
}

static void test_pause_storm_one_sample(void **state)
{
	struct fixture *fx = host_new(1, 1);
	const struct rdc_finding *f;

	(void)state;
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "tx_pause_storm_error_events", 0, 2);
	run_dump(fx);
	f = finding(fx, "qos.pause-storm");
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "2 pause storm error events since boot/counter reset");
	assert_ev_counter(f, "tx_pause_storm_error_events", 2);
	assert_string_equal(evidence(f, "tx_pause_storm_error_events")->value,
			    "2 (since the counter's reset)");
	assert_true(f->since_reset);
	assert_only(fx, "qos.pause-storm");
	host_free(fx);
}

static void test_rx_pause(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "rx_prio3_pause_duration", 0, 3500000);
	/* and the peer's CNPs keep coming: the loop works */
	run_dump(fx);
	f = finding(fx, "qos.rx-pause");
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title,
			    "paused by the peer 35.0% of the 10.0 s window on priority 3");
	assert_ev_window(f, "rx_prio3_pause_duration", 3500000, 10.0, 3500000);
	assert_ev_real(f, "rx_pause_pct", 35.0);
	assert_ev_real(f, "rx-pause-pct-warn", 10);
	assert_contains(f->fix, "ECN marking");
	assert_only(fx, "qos.rx-pause");
	host_free(fx);
}

static void test_lossless_drops(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "rx_prio3_discards", 10, 15);
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "rx_prio3_buf_discard", 0, 2);
	/* port 2: no per-priority counters, the port-wide one moved */
	for (size_t k = 0; k < 2; k++) {
		struct rdc_counter_set *s = &fx->ports[1].s[k].netdev;

		for (size_t i = 0; i < s->count; i++)
			if (!strncmp(s->items[i].name, "rx_prio3_", 9) &&
			    strstr(s->items[i].name, "discard"))
				snprintf(s->items[i].name, sizeof(s->items[i].name), "renamed%zu",
					 i);
	}
	ctr_set(&fx->ports[1], RDC_DIAG_NETDEV, "rx_discards_phy", 7, 107);
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.lossless-drops"), 2);
	assert_only(fx, "qos.lossless-drops");

	f = finding_on(fx, "qos.lossless-drops", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "7 packets dropped on the lossless priority 3 in the window");
	assert_ev_window(f, "rx_prio3_discards", 5, 10.0, 15);
	assert_ev_window(f, "rx_prio3_buf_discard", 2, 10.0, 2);
	assert_ev_uint(f, "pfc_delay_bits", 7);
	/* "priority 3 in buffer 1: 132016 of 262016 bytes": three numbers */
	assert_ev_uint(f, "prio_buffer", 1);
	assert_ev_uint(f, "buffer_size_bytes", 132016);
	assert_string_equal(evidence(f, "buffer_size_bytes")->detail, "buffer 1");
	assert_ev_uint(f, "total_size_bytes", 262016);
	assert_string_equal(evidence(f, "total_size_bytes")->source,
			    "dcbnl DCB_CMD_IEEE_GET " NETDEV " (DCB_ATTR_DCB_BUFFER)");
	assert_contains(f->why, "headroom");
	/* The cable's length is not known here: the command that can run is the check. */
	assert_string_equal(f->fix,
			    "set the PFC delay to the cable's length (mlx5 takes metres, now "
			    "7: 'rdmactl pfc set dev " NETDEV " delay' and the length), then "
			    "check the buffers: 'rdmactl pfc show dev " NETDEV "'");
	assert_string_equal(f->fix_argv.argv[2], "show");

	f = finding_on(fx, "qos.lossless-drops", NETDEV2);
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(
		f->title, "100 packets dropped for lack of receive buffer in the window while PFC "
			  "is on");
	assert_ev_window(f, "rx_discards_phy", 100, 10.0, 107);
	host_free(fx);
}

static void test_lossless_drops_one_sample(void **state)
{
	struct fixture *fx = host_new(1, 1);
	const struct rdc_finding *f;

	(void)state;
	ctr_set(&fx->ports[0], RDC_DIAG_NETDEV, "rx_prio3_discards", 0, 42);
	run_dump(fx);
	f = finding(fx, "qos.lossless-drops");
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(
		f->title, "42 packets dropped on the lossless priority 3 since boot/counter reset");
	assert_true(f->since_reset);
	assert_ev_counter(f, "rx_prio3_discards", 42);
	assert_ev_counter(f, "rx_prio3_buf_discard", 0);
	host_free(fx);
}

static void test_ecn_off(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].ofed.ecn_np[3] = 0;
	fx->ports[0].ofed.ecn_rp[3] = 0;
	fx->ports[1].ofed.ecn_rp[3] = 0;
	/* ECN off on priority 5 only does not matter */
	fx->ports[1].ofed.ecn_np[5] = 0;
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.ecn-off"), 2);
	assert_only(fx, "qos.ecn-off");

	f = finding_on(fx, "qos.ecn-off", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_FAIL);
	assert_string_equal(f->title, "ECN is off on the RoCE priority 3: notification point off, "
				      "reaction point off");
	assert_ev_bool(f, "roce_np_enable", false);
	assert_ev_bool(f, "roce_rp_enable", false);
	assert_string_equal(evidence(f, "roce_np_enable")->source,
			    "/sys/class/net/" NETDEV "/ecn/roce_np/enable/3");
	assert_string_equal(evidence(f, "roce_rp_enable")->source,
			    "/sys/class/net/" NETDEV "/ecn/roce_rp/enable/3");
	assert_string_equal(f->fix, PROFILE_FIX);

	f = finding_on(fx, "qos.ecn-off", NETDEV2);
	assert_string_equal(f->title, "ECN is off on the RoCE priority 3: reaction point off");
	assert_ev_bool(f, "roce_np_enable", true);
	assert_ev_bool(f, "roce_rp_enable", false);
	host_free(fx);
}

static void test_ecn_unreadable(void **state)
{
	struct fixture *fx = host_new(1, 2);

	(void)state;
	fx->ports[0].ofed.ecn_rp[3] = -1;
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_string_equal(skip_reason(fx, "qos.ecn-off", "mlx5_0/1 " NETDEV),
			    "ecn/roce_rp/enable/3 unreadable");
	host_free(fx);
}

/* What could not be read is null (unknown), never "0" or "?": ECN's and the CNP's files. */
static void test_unreadable_evidence(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].ofed.ecn_np[3] = 0;
	fx->ports[0].ofed.ecn_rp[3] = -1;
	fx->ports[1].ofed.cnp_dscp = 46;
	fx->ports[1].ofed.cnp_prio = -1;
	run_dump(fx);
	f = finding_on(fx, "qos.ecn-off", NETDEV);
	assert_ev_bool(f, "roce_np_enable", false);
	assert_ev_unknown(f, "roce_rp_enable", "unreadable");
	f = finding_on(fx, "qos.cnp-inconsistent", NETDEV2);
	assert_string_equal(f->title,
			    "CNPs go out with DSCP 46 and priority ?, not 48 and 6; other "
			    "ports differ");
	assert_ev_uint(f, "cnp_dscp", 46);
	assert_ev_unknown(f, "cnp_802p_prio", "unreadable");
	assert_ev_text(f, "cnp_other_ports", "mlx5_0/1 " NETDEV " DSCP 48 priority 6");
	host_free(fx);
}

static void test_cnp_loop(void **state)
{
	struct fixture *fx = host_new(3, 2);
	const struct rdc_finding *f;

	(void)state;
	/* marked packets in, no CNP out */
	ctr_set(&fx->ports[0], RDC_DIAG_HW, "np_cnp_sent", 90, 90);
	/* CNPs ignored */
	ctr_set(&fx->ports[1], RDC_DIAG_HW, "rp_cnp_ignored", 0, 12);
	/* paused 20% by the peer, no CNP handled */
	ctr_set(&fx->ports[2], RDC_DIAG_HW, "rp_cnp_handled", 50, 50);
	ctr_set(&fx->ports[2], RDC_DIAG_NETDEV, "rx_prio3_pause_duration", 0, 2000000);
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.cnp-loop"), 3);

	f = finding_on(fx, "qos.cnp-loop", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->title, "5000 ECN-marked RoCE packets received, no CNP sent");
	assert_ev_window(f, "np_cnp_sent", 0, 10.0, 90);
	assert_ev_window(f, "np_ecn_marked_roce_packets", 5000, 10.0, 5100);
	assert_string_equal(evidence(f, "np_cnp_sent")->source,
			    "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent");
	assert_string_equal(f->fix, PROFILE_FIX);

	f = finding_on(fx, "qos.cnp-loop", NETDEV2);
	assert_string_equal(f->title, "12 CNPs ignored in the window");
	assert_ev_window(f, "rp_cnp_ignored", 12, 10.0, 12);

	/* (the peer's pauses are qos.rx-pause's finding too) */
	assert_non_null(finding_on(fx, "qos.rx-pause", "ens2f0np0"));
	f = finding_on(fx, "qos.cnp-loop", "ens2f0np0");
	assert_string_equal(f->title, "paused 20.0% of the window by the peer, but no CNP arrived");
	assert_ev_window(f, "rx_prio3_pause_duration", 2000000, 10.0, 2000000);
	assert_ev_real(f, "rx_pause_pct", 20.0);
	assert_contains(f->fix, "on the switches");
	host_free(fx);
}

/*
 * CNPs that arrive and are ignored did arrive: the finding says the reaction
 * point is off, never also that no CNP arrived; each why names what was seen.
 */
static void test_cnp_loop_one_story(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	ctr_set(&fx->ports[0], RDC_DIAG_HW, "np_cnp_sent", 90, 90);
	ctr_set(&fx->ports[1], RDC_DIAG_HW, "rp_cnp_ignored", 0, 12);
	ctr_set(&fx->ports[1], RDC_DIAG_HW, "rp_cnp_handled", 50, 50);
	ctr_set(&fx->ports[1], RDC_DIAG_NETDEV, "rx_prio3_pause_duration", 0, 2000000);
	run_dump(fx);

	f = finding_on(fx, "qos.cnp-loop", NETDEV);
	assert_contains(f->why, "notification point is off");
	assert_null(strstr(f->why, "reaction point is off"));
	assert_null(strstr(f->why, "pauses come with no CNP"));

	f = finding_on(fx, "qos.cnp-loop", NETDEV2);
	assert_string_equal(f->title, "12 CNPs ignored in the window");
	assert_contains(f->why, "reaction point is off");
	assert_null(strstr(f->why, "no CNP"));
	assert_null(strstr(f->why, "notification point is off"));
	host_free(fx);
}

/* The upstream driver: ECN not settable through sysfs, the fix points to the firmware. */
static void test_cnp_loop_upstream_fix(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].ofed.have_ecn = false;
	ctr_set(&fx->ports[0], RDC_DIAG_HW, "rp_cnp_ignored", 0, 12);
	run(fx);
	f = finding(fx, "qos.cnp-loop");
	assert_contains(f->fix, "ROCE_CC_PRIO_MASK");
	host_free(fx);
}

static void test_cnp_inconsistent(void **state)
{
	struct fixture *fx = host_new(3, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[1].ofed.cnp_dscp = 46;
	fx->ports[1].ofed.cnp_prio = 5;
	fx->ports[2].ofed.cnp_prio = -1; /* 48/?: unreadable priority, DSCP fine */
	run_dump(fx);
	f = finding(fx, "qos.cnp-inconsistent");
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_string_equal(f->netdev, NETDEV2);
	assert_string_equal(f->title,
			    "CNPs go out with DSCP 46 and priority 5, not 48 and 6; other ports "
			    "differ");
	assert_ev_uint(f, "cnp_dscp", 46);
	assert_ev_uint(f, "cnp_802p_prio", 5);
	assert_ev_uint(f, "cnp-dscp", 48);
	assert_ev_uint(f, "cnp-prio", 6);
	assert_string_equal(evidence(f, "cnp_dscp")->source,
			    "/sys/class/net/" NETDEV2 "/ecn/roce_np/cnp_dscp");
	assert_string_equal(evidence(f, "cnp_802p_prio")->source,
			    "/sys/class/net/" NETDEV2 "/ecn/roce_np/cnp_802p_prio");
	/* a list in words: each other port, its CNP DSCP and priority */
	assert_ev_text(f, "cnp_other_ports",
		       "mlx5_0/1 " NETDEV " DSCP 48 priority 6, mlx5_2/1 ens2f0np0 DSCP 48 "
		       "priority ?");
	assert_string_equal(f->fix, "rdmactl pfc apply dev " NETDEV2 " profile roce-lossless");
	assert_only(fx, "qos.cnp-inconsistent");
	host_free(fx);
}

static void test_dcbx(void **state)
{
	struct fixture *fx = host_new(2, 2);
	const struct rdc_finding *f;

	(void)state;
	fx->ports[0].dcb.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	fx->ports[0].dcb.ets.willing = 1;
	fx->ports[1].dcb.dcbx = DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE; /* mlx5 firmware */
	run_dump(fx);
	assert_int_equal(count_id(fx, "qos.dcbx-fight"), 2);
	assert_only(fx, "qos.dcbx-fight");

	f = finding_on(fx, "qos.dcbx-fight", NETDEV);
	assert_int_equal(f->severity, RDC_SEV_WARN);
	assert_contains(f->title, "LLDP agent manages DCB");
	assert_ev_uint(f, "dcbx", 0x0a);
	assert_string_equal(evidence(f, "dcbx")->detail, "lld-managed ieee");
	assert_string_equal(evidence(f, "dcbx")->source,
			    "dcbnl DCB_CMD_IEEE_GET " NETDEV " (DCB_ATTR_DCBX)");
	assert_ev_bool(f, "willing", true);
	assert_contains(f->fix, "lldptool set-lldp -i " NETDEV " adminStatus=disabled");

	f = finding_on(fx, "qos.dcbx-fight", NETDEV2);
	assert_int_equal(f->severity, RDC_SEV_INFO);
	assert_ev_uint(f, "dcbx", 0x0c);
	assert_string_equal(evidence(f, "dcbx")->value, "12 (cee ieee)");
	assert_ev_bool(f, "willing", false);
	assert_string_equal(f->fix,
			    "to own it on the host: dcb dcbx set dev " NETDEV2 " host cee ieee");
	host_free(fx);
}

/* ---- the policy -------------------------------------------------------- */

/* Another fabric: RoCE on 4 with DSCP 34, CNPs 46 -> 5; the host follows it. */
static void policy_other(struct fixture *fx)
{
	fx->h.policy.roce_prio = 4;
	fx->h.policy.roce_dscp = 34;
	fx->h.policy.cnp_prio = 5;
	fx->h.policy.cnp_dscp = 46;
}

static void test_policy_followed(void **state)
{
	struct fixture *fx = host_new(1, 2);
	struct rdc_diag_port *p = &fx->ports[0];

	(void)state;
	policy_other(fx);
	p->dcb.pfc.pfc_en = 0x10;
	p->dcb.napps = 0;
	app(&p->dcb, 34, 4);
	app(&p->dcb, 46, 5);
	memset(p->dcb.ets.prio_tc, 0, sizeof(p->dcb.ets.prio_tc));
	p->dcb.ets.prio_tc[4] = 4;
	p->dcb.ets.prio_tc[5] = 5;
	p->dcb.ets.tc_tsa[3] = IEEE_8021QAZ_TSA_STRICT;
	p->dcb.ets.tc_tsa[4] = IEEE_8021QAZ_TSA_ETS;
	p->dcb.ets.tc_tx_bw[4] = 50;
	p->ofed.cnp_dscp = 46;
	p->ofed.cnp_prio = 5;
	/* no per-priority drop counters for 4: the port-wide ones are judged */
	ctr_set(p, RDC_DIAG_NETDEV, "rx_discards_phy", 9, 9);
	/* (no prio 4 pause counters yet: the ones for 3 are ignored) */
	run_dump(fx);
	assert_int_equal(fx->r.findings.count, 0);
	assert_contains(skip_reason(fx, "qos.rx-pause", "mlx5_0/1 " NETDEV),
			"no rx_prio4_pause_duration");
	host_free(fx);
}

static void test_policy_fix(void **state)
{
	struct fixture *fx = host_new(1, 2);
	const struct rdc_finding *f;

	(void)state;
	policy_other(fx);
	fx->h.policy.ets_min_bw_pct = 60;
	run_dump(fx);
	/* the profile port (3, 26, 48/6) is wrong for this policy everywhere */
	f = finding(fx, "qos.pfc-off");
	assert_string_equal(f->title, "PFC is off on the RoCE priority 4 (PFC on: 3)");
	assert_string_equal(f->fix, PROFILE_FIX " prio 4 dscp 34 cnp-dscp 46 cnp-prio 5");
	f = finding(fx, "qos.dscp-map");
	assert_int_equal(f->severity, RDC_SEV_WARN); /* both DSCPs have no entry */
	assert_string_equal(f->title,
			    "RoCE DSCP 34 not in the APP table (want priority 4); CNP DSCP 46 not "
			    "in the APP table (want priority 5)");
	f = finding(fx, "qos.ets");
	assert_string_equal(f->title, "RoCE TC 0 has 50% by ETS, below 60%; RoCE TC 0 also carries "
				      "priorities 0,1,2,5,7; CNPs share the RoCE TC 0");
	assert_ev_real(f, "ets-min-bw-pct", 60);
	/* the RoCE TC 0 holds 4 and the five others of the title */
	assert_ev_uint(f, "roce_tc", 0);
	assert_ev_uint(f, "roce_tc_prios_count", 6);
	assert_string_equal(evidence(f, "roce_tc_prios_count")->detail, "priorities 0,1,2,4,5,7");
	f = finding(fx, "qos.cnp-inconsistent");
	assert_string_equal(f->title, "CNPs go out with DSCP 48 and priority 6, not 46 and 5");
	assert_string_equal(f->fix, PROFILE_FIX " prio 4 dscp 34 cnp-dscp 46 cnp-prio 5");
	/* ECN is on everywhere; PFC is off on 4, so drops are not judged */
	assert_int_equal(count_id(fx, "qos.ecn-off"), 0);
	assert_non_null(skip_of(fx, "qos.lossless-drops", "mlx5_0/1 " NETDEV));
	host_free(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_port),
		cmocka_unit_test(test_good_port_one_sample),
		cmocka_unit_test(test_good_port_upstream),
		cmocka_unit_test(test_skip_no_dcb),
		cmocka_unit_test(test_skip_missing_attrs),
		cmocka_unit_test(test_skip_no_counters),
		cmocka_unit_test(test_pfc_off),
		cmocka_unit_test(test_pfc_wrong_prio),
		cmocka_unit_test(test_pfc_too_many),
		cmocka_unit_test(test_trust_pcp_upstream),
		cmocka_unit_test(test_trust_pcp_ofed),
		cmocka_unit_test(test_trust_dscp_ofed_no_apps),
		cmocka_unit_test(test_dscp_map),
		cmocka_unit_test(test_ets),
		cmocka_unit_test(test_global_pause),
		cmocka_unit_test(test_global_pause_without_pfc),
		cmocka_unit_test(test_pause_storm),
		cmocka_unit_test(test_pause_storm_one_sample),
		cmocka_unit_test(test_rx_pause),
		cmocka_unit_test(test_lossless_drops),
		cmocka_unit_test(test_lossless_drops_one_sample),
		cmocka_unit_test(test_ecn_off),
		cmocka_unit_test(test_ecn_unreadable),
		cmocka_unit_test(test_unreadable_evidence),
		cmocka_unit_test(test_cnp_loop),
		cmocka_unit_test(test_cnp_loop_upstream_fix),
		cmocka_unit_test(test_cnp_loop_one_story),
		cmocka_unit_test(test_cnp_inconsistent),
		cmocka_unit_test(test_dcbx),
		cmocka_unit_test(test_policy_followed),
		cmocka_unit_test(test_policy_fix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
