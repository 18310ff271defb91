/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag_fixture.h - hosts built by hand for the diag check tests, and assertions on their results */
#pragma once

/*
 * Include after <cmocka.h>.  A host is built port by port: fx_host() gives
 * it healthy defaults (two samples 10 s apart, policy defaults, host
 * sysctls that prevent ARP flux), fx_port() a healthy 25G RoCE port with
 * MTU 9000, and the tests break what they judge.  rdc_diag_host_free()
 * frees it all.
 */

#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/counters.h"
#include "base/finding.h"
#include "diag/diag.h"
#include "host/gid.h"

#define FX_WINDOW_S 10.0

static inline void fx_host(struct rdc_diag_host *h, size_t nports)
{
	memset(h, 0, sizeof(*h));
	rdc_diag_policy_init(&h->policy);
	h->interval_s = FX_WINDOW_S;
	h->nports = nports;
	h->ports = calloc(nports ? nports : 1, sizeof(*h->ports));
	assert_non_null(h->ports);
	h->facts.arp_ignore_all = 1;
	h->facts.arp_announce_all = 2;
	h->facts.rp_filter_all = 2;
	h->facts.modules_present = 1;
	snprintf(h->facts.kernel_release, sizeof(h->facts.kernel_release), "6.1.0-18-amd64");
}

/* Port @i: @dev port 1 on netdev @nd, PCI function @pci, ACTIVE, 25G, MTU 9000, no addresses. */
static inline struct rdc_diag_port *fx_port(struct rdc_diag_host *h, size_t i, const char *dev,
					    const char *nd, const char *pci)
{
	struct rdc_diag_port *p = &h->ports[i];

	snprintf(p->port.device, sizeof(p->port.device), "%s", dev);
	snprintf(p->port.driver, sizeof(p->port.driver), "mlx5_core");
	p->port.has_pci = true;
	snprintf(p->port.pci.address, sizeof(p->port.pci.address), "%s", pci);
	p->port.port = 1;
	snprintf(p->port.link_layer, sizeof(p->port.link_layer), "Ethernet");
	p->port.state = 4;
	snprintf(p->port.state_name, sizeof(p->port.state_name), "ACTIVE");
	p->port.phys_state = 5;
	snprintf(p->port.phys_state_name, sizeof(p->port.phys_state_name), "LINK_UP");
	p->port.rate_gbps = 25;
	p->port.lid = p->port.sm_lid = -1;
	p->port.has_netdev = true;
	snprintf(p->port.netdev.name, sizeof(p->port.netdev.name), "%s", nd);
	p->port.netdev.mtu = 9000;
	snprintf(p->port.netdev.operstate, sizeof(p->port.netdev.operstate), "up");
	p->port.netdev.speed_mbps = 25000;
	p->port.active_mtu = 4096;
	snprintf(p->label, sizeof(p->label), "%s/1 %s", dev, nd);
	p->nsamples = 2;
	p->s[0].t_s = 100.0;
	p->s[1].t_s = 100.0 + FX_WINDOW_S;
	p->s[0].carrier_changes = p->s[1].carrier_changes = 1;

	snprintf(p->netif.name, sizeof(p->netif.name), "%s", nd);
	p->netif.ifindex = (int)i + 2;
	p->netif.admin_up = 1;
	p->netif.carrier = 1;
	p->netif.carrier_changes = 1;
	p->netif.have_addrs = true;
	p->netif.arp_ignore = 0;
	p->netif.arp_announce = 0;
	p->netif.rp_filter = 0;
	p->netif.speed_mbps = p->netif.max_speed_mbps = p->netif.common_speed_mbps = 25000;
	p->netif.irqs_total = -1;
	return p;
}

/* One sample only (interval 0): cumulative counters. */
static inline void fx_one_sample(struct rdc_diag_host *h)
{
	h->interval_s = 0;
	for (size_t i = 0; i < h->nports; i++)
		h->ports[i].nsamples = 1;
}

/* An address "10.0.0.1"/24 or "fd00::1"/64 on the port's netdev. */
static inline void fx_addr(struct rdc_diag_port *p, const char *ip, unsigned int len)
{
	struct rdc_netif_addr *a = &p->netif.addrs[p->netif.naddrs++];

	memset(a, 0, sizeof(*a));
	a->family = strchr(ip, ':') ? AF_INET6 : AF_INET;
	assert_int_equal(inet_pton(a->family, ip, a->raw), 1);
	a->prefix_len = len;
	snprintf(a->ip, sizeof(a->ip), "%s", ip);
	a->link_local = a->family == AF_INET6 ? a->raw[0] == 0xfe && (a->raw[1] & 0xc0) == 0x80
					      : a->raw[0] == 169 && a->raw[1] == 254;
}

/* A GID table entry for @ip ("fe80::..." or "10.0.0.1") of @type on @netdev. */
static inline void fx_gid_on(struct rdc_diag_port *p, const char *ip, enum rdc_gid_type type,
			     const char *netdev)
{
	struct rdc_gid *g;

	p->gids = realloc(p->gids, (p->ngids + 1) * sizeof(*p->gids));
	assert_non_null(p->gids);
	g = &p->gids[p->ngids];
	memset(g, 0, sizeof(*g));
	g->index = (unsigned int)p->ngids++;
	if (strchr(ip, ':')) {
		assert_int_equal(inet_pton(AF_INET6, ip, g->raw), 1);
	} else {
		g->raw[10] = g->raw[11] = 0xff;
		assert_int_equal(inet_pton(AF_INET, ip, g->raw + 12), 1);
	}
	rdc_gid_format(g->raw, g->text);
	rdc_gid_derive_ip(g);
	g->type = type;
	snprintf(g->netdev, sizeof(g->netdev), "%s", netdev);
}

static inline void fx_gid(struct rdc_diag_port *p, const char *ip, enum rdc_gid_type type)
{
	fx_gid_on(p, ip, type, p->port.netdev.name);
}

/* What the kernel keeps for an address: a RoCE v1 and a RoCE v2 entry. */
static inline void fx_addr_gids(struct rdc_diag_port *p, const char *ip, unsigned int len)
{
	fx_addr(p, ip, len);
	fx_gid(p, ip, RDC_GID_ROCE_V1);
	fx_gid(p, ip, RDC_GID_ROCE_V2);
}

static inline struct rdc_counter_set *fx_set(struct rdc_diag_sample *s, enum rdc_diag_set set)
{
	return set == RDC_DIAG_IB ? &s->ib : set == RDC_DIAG_HW ? &s->hw : &s->netdev;
}

/* A counter at @v0 in the first sample and @v1 in the second (the only one with one sample). */
static inline void fx_counter(struct rdc_diag_port *p, enum rdc_diag_set set, const char *group,
			      const char *name, uint64_t v0, uint64_t v1)
{
	if (p->nsamples > 1) {
		assert_int_equal(rdc_counters_add(fx_set(&p->s[0], set), group, name, v0), 0);
		assert_int_equal(rdc_counters_add(fx_set(&p->s[1], set), group, name, v1), 0);
	} else {
		assert_int_equal(rdc_counters_add(fx_set(&p->s[0], set), group, name, v1), 0);
	}
}

/* Text a check wrote was cut: it ends " ..." (strings are whole since issue 23). */
static inline bool fx_cut(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && !strcmp(s + n - 4, " ...");
}

/*
 * One piece of evidence is whole and typed as schema 3 says: a name without
 * spaces, a source, a value in words for text; words that are not empty for
 * TEXT (and a reason for null); a real that is a number; a counter over a
 * window is an unsigned total or null with window_s > 0 and a delta no
 * larger than the total; a counter read once is an unsigned total; nothing
 * else has a delta or a window; a detail shows in the text as " (detail)".
 * Nothing was cut (a cut shows as a full buffer).
 */
static inline void fx_evidence_ok(const struct rdc_finding *f, const struct rdc_evidence *e)
{
	const char *words_end;

	if (!e->name[0] || strchr(e->name, ' '))
		fail_msg("%s: evidence name '%s' empty or with a space", f->id, e->name);
	if (!e->source[0] || fx_cut(e->source))
		fail_msg("%s: %s: source '%s' empty or cut", f->id, e->name, e->source);
	if (!e->value[0] || fx_cut(e->value) || e->words_len > strlen(e->value) ||
	    !e->words_len)
		fail_msg("%s: %s: value '%s' empty or cut", f->id, e->name, e->value);
	if (fx_cut(e->detail))
		fail_msg("%s: %s: detail '%s' cut", f->id, e->name, e->detail);
	words_end = e->value + e->words_len;
	if (e->detail[0] &&
	    (strncmp(words_end, " (", 2) || strncmp(words_end + 2, e->detail, strlen(e->detail))))
		fail_msg("%s: %s: detail '%s' not in the text '%s'", f->id, e->name, e->detail,
			 e->value);
	if (!e->detail[0] && *words_end)
		fail_msg("%s: %s: text '%s' runs past its words", f->id, e->name, e->value);
	switch (e->type) {
	case RDC_EV_TEXT:
	case RDC_EV_BOOL:
	case RDC_EV_INT:
		if (e->counter || e->windowed)
			fail_msg("%s: %s: a counter must be an unsigned total (type %d)", f->id,
				 e->name, (int)e->type);
		break;
	case RDC_EV_REAL:
		if (e->counter || e->windowed || !isfinite(e->num.d))
			fail_msg("%s: %s: a real that is no finite number, or a counter", f->id,
				 e->name);
		break;
	case RDC_EV_UINT:
		if (e->windowed && e->delta > e->num.u)
			fail_msg("%s: %s: moved by %llu but stands at %llu", f->id, e->name,
				 (unsigned long long)e->delta, (unsigned long long)e->num.u);
		break;
	case RDC_EV_NONE:
		/* Unknown (its reason in words), or a counter that only moved. */
		if (e->counter != e->windowed)
			fail_msg("%s: %s: null yet a counter read once", f->id, e->name);
		break;
	default:
		fail_msg("%s: %s: type %d", f->id, e->name, (int)e->type);
	}
	if (e->windowed && (!e->counter || !isfinite(e->window_s) || !(e->window_s > 0)))
		fail_msg("%s: %s: window_s %g", f->id, e->name, e->window_s);
	if (!e->windowed && (e->delta || e->window_s != 0))
		fail_msg("%s: %s: a delta or a window without a window", f->id, e->name);
}

/*
 * Every finding is whole: an id of @family, a title, a why; a fail or warn
 * has a fix and evidence; every piece of evidence is whole and typed
 * (fx_evidence_ok); no text was cut (a cut shows as a full buffer).
 */
static inline void fx_well_formed(const struct rdc_diag_result *r, const char *family)
{
	assert_int_equal(r->findings.dropped, 0);
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct rdc_finding *f = &r->findings.items[i];

		if (strncmp(f->id, family, strlen(family)) || f->id[strlen(family)] != '.')
			fail_msg("%s: not of family %s", f->id, family);
		if (!f->title[0] || !f->why[0])
			fail_msg("%s: no title or no why", f->id);
		if (fx_cut(f->title) || fx_cut(f->why) || fx_cut(f->fix))
			fail_msg("%s: text cut: '%s' / '%s' / '%s'", f->id, f->title, f->why,
				 f->fix);
		if (f->severity != RDC_SEV_INFO && (!f->fix[0] || f->nevidence == 0))
			fail_msg("%s: no fix or no evidence", f->id);
		for (size_t e = 0; e < f->nevidence; e++)
			fx_evidence_ok(f, &f->evidence[e]);
	}
}

/* Run check (or family) @id alone on @h. */
static inline void fx_run(const struct rdc_diag_host *h, const char *id, struct rdc_diag_result *r)
{
	const char *only[] = {id};
	struct rdc_err err = {0};
	const char *dot = strchr(id, '.');
	char family[32];

	/* A result run before (a static one, reused) gives back what its findings own. */
	rdc_findings_clear(&r->findings);
	assert_int_equal(rdc_diag_run(h, only, 1, NULL, 0, r, &err), 0);
	snprintf(family, sizeof(family), "%.*s", dot ? (int)(dot - id) : (int)strlen(id), id);
	fx_well_formed(r, family);
}

static inline void fx_dump(const struct rdc_diag_result *r)
{
	for (size_t i = 0; i < r->findings.count; i++)
		print_message("  have %s (%s): %s\n", r->findings.items[i].id,
			      rdc_severity_name(r->findings.items[i].severity),
			      r->findings.items[i].title);
	for (size_t i = 0; i < r->nskipped; i++)
		print_message("  skipped %s [%s]: %s\n", r->skipped[i].id, r->skipped[i].object,
			      r->skipped[i].reason);
}

/* The only finding with @id, which must be there with severity @sev. */
static inline const struct rdc_finding *fx_expect(const struct rdc_diag_result *r, const char *id,
						  enum rdc_severity sev)
{
	const struct rdc_finding *f = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->findings.count; i++) {
		if (strcmp(r->findings.items[i].id, id))
			continue;
		f = f ? f : &r->findings.items[i];
		n++;
	}
	if (n != 1) {
		fx_dump(r);
		fail_msg("%zu findings '%s', want one", n, id);
	}
	assert_string_equal(rdc_severity_name(f->severity), rdc_severity_name(sev));
	return f;
}

/* No finding at all. */
static inline void fx_none(const struct rdc_diag_result *r)
{
	if (r->findings.count) {
		fx_dump(r);
		fail_msg("%zu findings, want none", r->findings.count);
	}
}

/* The skip of @id about @object ("" host) whose reason contains @part. */
static inline void fx_skipped(const struct rdc_diag_result *r, const char *id, const char *object,
			      const char *part)
{
	for (size_t i = 0; i < r->nskipped; i++)
		if (!strcmp(r->skipped[i].id, id) && !strcmp(r->skipped[i].object, object) &&
		    strstr(r->skipped[i].reason, part))
			return;
	fx_dump(r);
	fail_msg("no skip of %s on '%s' saying '%s'", id, object, part);
}

static inline void fx_no_skips(const struct rdc_diag_result *r)
{
	if (r->nskipped) {
		fx_dump(r);
		fail_msg("%zu skips, want none", r->nskipped);
	}
}

static inline void fx_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' does not contain '%s'", text, part);
}

/* The evidence named @name, which must be there. */
static inline const struct rdc_evidence *fx_evidence(const struct rdc_finding *f, const char *name)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (!strcmp(f->evidence[i].name, name))
			return &f->evidence[i];
	for (size_t i = 0; i < f->nevidence; i++)
		print_message("  evidence %s = %s (%s)\n", f->evidence[i].name,
			      f->evidence[i].value, f->evidence[i].source);
	fail_msg("%s: no evidence '%s'", f->id, name);
	return &f->evidence[0]; /* not reached: fail_msg() does not return */
}

/* ---- typed evidence ------------------------------------------------------ */

/* Words @words, typed TEXT (the detail apart). */
static inline void fx_ev_text(const struct rdc_evidence *e, const char *words)
{
	if (e->type != RDC_EV_TEXT || e->words_len != strlen(words) ||
	    strncmp(e->value, words, e->words_len))
		fail_msg("%s: '%s' (type %d), want the words '%s'", e->name, e->value, (int)e->type,
			 words);
}

/* A number or boolean read once, not a counter. */
static inline void fx_ev_int(const struct rdc_evidence *e, int64_t v)
{
	if (e->type != RDC_EV_INT || e->num.i != v || e->counter)
		fail_msg("%s: '%s' (type %d), want the integer %lld", e->name, e->value,
			 (int)e->type, (long long)v);
}

static inline void fx_ev_uint(const struct rdc_evidence *e, uint64_t v)
{
	if (e->type != RDC_EV_UINT || e->num.u != v || e->counter)
		fail_msg("%s: '%s' (type %d), want the unsigned %llu", e->name, e->value,
			 (int)e->type, (unsigned long long)v);
}

/* A real within a millionth of @v (relative). */
static inline void fx_ev_real(const struct rdc_evidence *e, double v)
{
	if (e->type != RDC_EV_REAL || fabs(e->num.d - v) > fabs(v) * 1e-6)
		fail_msg("%s: '%s' (type %d), want the real %g", e->name, e->value, (int)e->type,
			 v);
}

static inline void fx_ev_bool(const struct rdc_evidence *e, bool v)
{
	if (e->type != RDC_EV_BOOL || e->num.b != v)
		fail_msg("%s: '%s' (type %d), want %s", e->name, e->value, (int)e->type,
			 v ? "true" : "false");
}

/* Could not be read: null in JSON, the reason @why in text. */
static inline void fx_ev_null(const struct rdc_evidence *e, const char *why)
{
	if (e->type != RDC_EV_NONE || e->windowed || e->words_len != strlen(why) ||
	    strncmp(e->value, why, e->words_len))
		fail_msg("%s: '%s' (type %d), want null with '%s'", e->name, e->value, (int)e->type,
			 why);
}

/* A counter's total since its reset (one sample). */
static inline void fx_ev_counter(const struct rdc_evidence *e, uint64_t total)
{
	if (e->type != RDC_EV_UINT || !e->counter || e->windowed || e->num.u != total)
		fail_msg("%s: '%s', want the counter at %llu since its reset", e->name, e->value,
			 (unsigned long long)total);
}

/* A counter over a window: +@delta in @window_s s, @total now. */
static inline void fx_ev_window(const struct rdc_evidence *e, uint64_t delta, double window_s,
				uint64_t total)
{
	if (e->type != RDC_EV_UINT || !e->counter || !e->windowed || e->delta != delta ||
	    fabs(e->window_s - window_s) > 1e-9 || e->num.u != total)
		fail_msg("%s: '%s', want +%llu in %g s (now %llu)", e->name, e->value,
			 (unsigned long long)delta, window_s, (unsigned long long)total);
}

/* A counter over a window whose total is unknown: +@delta in @window_s s, null. */
static inline void fx_ev_delta(const struct rdc_evidence *e, uint64_t delta, double window_s)
{
	if (e->type != RDC_EV_NONE || !e->counter || !e->windowed || e->delta != delta ||
	    fabs(e->window_s - window_s) > 1e-9)
		fail_msg("%s: '%s', want +%llu in %g s (total unknown)", e->name, e->value,
			 (unsigned long long)delta, window_s);
}

/* The evidence named @name whose detail is @detail (several share a name: one per netdev). */
static inline const struct rdc_evidence *fx_evidence_of(const struct rdc_finding *f,
							const char *name, const char *detail)
{
	for (size_t i = 0; i < f->nevidence; i++)
		if (!strcmp(f->evidence[i].name, name) && !strcmp(f->evidence[i].detail, detail))
			return &f->evidence[i];
	for (size_t i = 0; i < f->nevidence; i++)
		print_message("  evidence %s = %s (%s)\n", f->evidence[i].name,
			      f->evidence[i].value, f->evidence[i].source);
	fail_msg("%s: no evidence '%s' with detail '%s'", f->id, name, detail);
	return &f->evidence[0]; /* not reached: fail_msg() does not return */
}
