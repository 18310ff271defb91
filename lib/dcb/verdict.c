// SPDX-License-Identifier: GPL-2.0-or-later
/* verdict.c - how a netdev's QoS compares with a profile: the differences, as data */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "dcb/verdict.h"

static struct rdc_vval vnull(void)
{
	return (struct rdc_vval){.type = RDC_VVAL_NULL};
}

static struct rdc_vval vbool(bool b)
{
	return (struct rdc_vval){.type = RDC_VVAL_BOOL, .b = b};
}

static struct rdc_vval vuint(uint64_t u)
{
	return (struct rdc_vval){.type = RDC_VVAL_UINT, .u = u};
}

static struct rdc_vval vstr(const char *s)
{
	struct rdc_vval v = {.type = RDC_VVAL_STR};

	rdc_strlcpy(v.s, s ? s : "", sizeof(v.s));
	return v;
}

static bool vval_equal(const struct rdc_vval *a, const struct rdc_vval *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case RDC_VVAL_NULL:
		return true;
	case RDC_VVAL_BOOL:
		return a->b == b->b;
	case RDC_VVAL_UINT:
		return a->u == b->u;
	case RDC_VVAL_STR:
		return !strcmp(a->s, b->s);
	}
	return false;
}

/*
 * Record a difference when @have is not @want (an unread value never
 * matches): @keyword and @index as pfc set names it, @path as pfc show.
 */
static struct rdc_dcb_difference *note(struct rdc_dcb_verdict *v, const char *keyword,
				       const char *path, int index, struct rdc_vval have,
				       struct rdc_vval want)
{
	struct rdc_dcb_difference *d;

	if (vval_equal(&have, &want) || v->ndiffs >= RDC_VERDICT_MAX_DIFFS)
		return NULL;
	d = &v->diffs[v->ndiffs++];
	memset(d, 0, sizeof(*d));
	rdc_strlcpy(d->keyword, keyword, sizeof(d->keyword));
	if (index >= 0)
		snprintf(d->key, sizeof(d->key), "%d", index);
	d->path = path;
	d->index = index;
	d->have = have;
	d->want = want;
	return d;
}

/* The same for a setting of one RDMA port (RDMA-CM): keyed by "DEV/PORT". */
static void note_port(struct rdc_dcb_verdict *v, const char *keyword, const char *path,
		      const char *device, unsigned int port, struct rdc_vval have,
		      struct rdc_vval want)
{
	struct rdc_dcb_difference *d = note(v, keyword, path, -1, have, want);

	if (!d)
		return;
	snprintf(d->key, sizeof(d->key), "%s/%u", device, port);
	rdc_strlcpy(d->device, device, sizeof(d->device));
	d->port = port;
}

static void compare_pfc_ets(const struct rdc_dcb_want *w, const struct rdc_dcb *d,
			    struct rdc_dcb_verdict *v)
{
	for (unsigned int p = 0; p < RDC_DCB_PRIOS; p++)
		if (w->pfc_given[p])
			note(v, "prio-pfc", "pfc.prios.enabled", (int)p,
			     d->have_pfc ? vbool(d->pfc.pfc_en & (1U << p)) : vnull(),
			     vbool(w->pfc_on[p]));
	if (w->delay_given)
		note(v, "delay", "pfc.delay_bits", -1, d->have_pfc ? vuint(d->pfc.delay) : vnull(),
		     vuint(w->delay));
	for (unsigned int p = 0; p < RDC_DCB_PRIOS; p++)
		if (w->prio_tc_given[p])
			note(v, "prio-tc", "ets.prio_tc", (int)p,
			     d->have_ets ? vuint(d->ets.prio_tc[p]) : vnull(),
			     vuint(w->prio_tc[p]));
	for (unsigned int t = 0; t < RDC_DCB_TCS; t++)
		if (w->tsa_given[t])
			note(v, "tc-tsa", "ets.tc_tsa", (int)t,
			     d->have_ets ? vstr(rdc_dcb_tsa_name(d->ets.tc_tsa[t])) : vnull(),
			     vstr(rdc_dcb_tsa_name(w->tsa[t])));
	for (unsigned int t = 0; t < RDC_DCB_TCS; t++) {
		uint8_t tsa = w->tsa_given[t] ? w->tsa[t] : d->ets.tc_tsa[t];

		/* Only ETS TCs have a share (mlx5 reports 100 for the others): as plan.c. */
		if (w->bw_given[t] && (tsa == IEEE_8021QAZ_TSA_ETS || !d->have_ets))
			note(v, "tc-bw", "ets.tc_bw_pct", (int)t,
			     d->have_ets ? vuint(d->ets.tc_tx_bw[t]) : vnull(), vuint(w->bw[t]));
	}
	for (unsigned int t = 0; t < RDC_DCB_TCS; t++)
		if (w->maxrate_given[t])
			note(v, "tc-maxrate", "maxrate.tc_maxrate_kbps", (int)t,
			     d->have_maxrate ? vuint(d->maxrate.tc_maxrate[t]) : vnull(),
			     vuint(w->maxrate_kbps[t]));
	for (unsigned int p = 0; p < RDC_DCB_PRIOS; p++)
		if (w->prio_buffer_given[p])
			note(v, "prio-buffer", "buffer.prio_buffer", (int)p,
			     d->have_buffer ? vuint(d->buffer.prio2buffer[p]) : vnull(),
			     vuint(w->prio_buffer[p]));
	for (unsigned int b = 0; b < DCBX_MAX_BUFFERS; b++)
		if (w->buffer_size_given[b])
			note(v, "buffer-size", "buffer.buffer_size_bytes", (int)b,
			     d->have_buffer ? vuint(d->buffer.buffer_size[b]) : vnull(),
			     vuint(w->buffer_size[b]));
}

/*
 * Trust: MLNX_OFED's qos/trust file where it exists, else upstream mlx5's
 * rule (DSCP while the APP table has DSCP entries), as pfc show says it.
 */
static void compare_trust_map(const struct rdc_dcb_want *w, const struct rdc_dcb_observed *o,
			      struct rdc_dcb_verdict *v)
{
	const struct rdc_dcb *d = o->dcb;

	if (w->trust >= 0) {
		const char *have = o->ofed && o->ofed->trust[0] ? o->ofed->trust
				   : rdc_dcb_dscp_count(d)	? "dscp"
								: "pcp";

		note(v, "trust", "trust.value", -1, vstr(have), vstr(w->trust ? "dscp" : "pcp"));
	}
	for (unsigned int dscp = 0; dscp < RDC_DSCP_COUNT; dscp++) {
		int prio;

		if (w->dscp_prio[dscp] < 0)
			continue;
		prio = rdc_dcb_dscp_prio(d, dscp);
		note(v, "dscp-prio", "dscp_prio.map.prio", (int)dscp,
		     prio < 0 ? vnull() : vuint((uint64_t)prio),
		     vuint((uint64_t)w->dscp_prio[dscp]));
	}
}

static struct rdc_vval ecn_val(const struct rdc_ofed_qos *q, const int *sw, unsigned int p)
{
	return q && q->have_ecn && sw[p] >= 0 ? vbool(sw[p]) : vnull();
}

static void compare_files(const struct rdc_dcb_want *w, const struct rdc_dcb_observed *o,
			  struct rdc_dcb_verdict *v)
{
	const struct rdc_ofed_qos *q = o->ofed;

	for (unsigned int p = 0; p < RDC_DCB_PRIOS; p++)
		if (w->ecn_given[p]) {
			note(v, "ecn-np", "ecn.prios.np", (int)p,
			     ecn_val(q, q ? q->ecn_np : NULL, p), vbool(w->ecn_on[p]));
			note(v, "ecn-rp", "ecn.prios.rp", (int)p,
			     ecn_val(q, q ? q->ecn_rp : NULL, p), vbool(w->ecn_on[p]));
		}
	/* The CNP files exist only with MLNX_OFED; elsewhere the firmware decides (plan.c). */
	if (q && q->have_ecn && w->cnp_dscp >= 0 && q->cnp_dscp >= 0)
		note(v, "cnp-dscp", "cnp.dscp", -1, vuint((uint64_t)q->cnp_dscp),
		     vuint((uint64_t)w->cnp_dscp));
	if (q && q->have_ecn && w->cnp_prio >= 0 && q->cnp_prio >= 0)
		note(v, "cnp-prio", "cnp.prio", -1, vuint((uint64_t)q->cnp_prio),
		     vuint((uint64_t)w->cnp_prio));
	for (size_t i = 0; i < o->nports; i++) {
		const struct rdc_rdma_cm_port *cm = &o->ports[i].cm;
		const char *dev = o->ports[i].device;
		unsigned int port = o->ports[i].port;

		if (w->roce_tos >= 0)
			note_port(v, "roce-tos", "roce.default_roce_tos", dev, port,
				  cm->have_tos ? vuint((uint64_t)cm->tos) : vnull(),
				  vuint((uint64_t)w->roce_tos));
		if (w->roce_mode >= 0)
			note_port(v, "roce-mode", "roce.default_roce_mode", dev, port,
				  cm->have_mode ? vstr(cm->mode) : vnull(),
				  vstr(rdc_rdma_cm_mode_name(w->roce_mode)));
	}
}

void rdc_dcb_verdict_compare(const struct rdc_dcb_want *w, const struct rdc_dcb_observed *o,
			     struct rdc_dcb_verdict *v)
{
	v->ndiffs = 0;
	v->reason = NULL;
	if (!o->dcb || !o->dcb->supported) {
		v->result = RDC_VERDICT_UNKNOWN;
		v->reason = "no DCB support: the driver has no dcbnl operations";
		return;
	}
	compare_pfc_ets(w, o->dcb, v);
	compare_trust_map(w, o, v);
	compare_files(w, o, v);
	v->result = v->ndiffs ? RDC_VERDICT_DIFFERS : RDC_VERDICT_MATCHES;
}

void rdc_dcb_verdict_of(const struct rdc_dcb_profile *p, const struct rdc_dcb_target *t,
			const struct rdc_dcb *dcb, struct rdc_dcb_verdict *v)
{
	struct rdc_dcb_observed o = {.dcb = dcb};
	struct rdc_ofed_qos q;
	struct rdc_dcb_want w;

	rdc_ofed_qos_read(t->netdev, &q);
	o.ofed = &q;
	for (size_t i = 0; i < t->nports && i < RDC_DCB_TARGET_PORTS; i++) {
		o.ports[i].device = t->ports[i].device;
		o.ports[i].port = t->ports[i].port;
		rdc_rdma_cm_read(t->ports[i].device, t->ports[i].port, &o.ports[i].cm);
		o.nports++;
	}
	rdc_dcb_profile_want(p, t, &w);
	v->profile = *p;
	rdc_dcb_verdict_compare(&w, &o, v);
}

void rdc_dcb_difference_what(const struct rdc_dcb_difference *d, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", d->keyword, d->key[0] ? " " : "", d->key);
}

size_t rdc_dcb_dscp_sorted(const struct dcb_app *apps, size_t n, struct dcb_app *out)
{
	size_t k = 0;

	/* Insertion sort: at most RDC_DCB_MAX_APPS entries, usually 2 or 64. */
	for (size_t i = 0; i < n && k < RDC_DCB_MAX_APPS; i++) {
		size_t j = k++;

		if (apps[i].selector != IEEE_8021QAZ_APP_SEL_DSCP) {
			k--;
			continue;
		}
		while (j > 0 && (out[j - 1].protocol > apps[i].protocol ||
				 (out[j - 1].protocol == apps[i].protocol &&
				  out[j - 1].priority > apps[i].priority))) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = apps[i];
	}
	return k;
}

size_t rdc_dcb_dscp_ranges(const struct dcb_app *apps, size_t n, char *buf, size_t size)
{
	struct dcb_app s[RDC_DCB_MAX_APPS];
	size_t len = 0, k = rdc_dcb_dscp_sorted(apps, n, s);

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < k;) {
		size_t end = i;
		int w;

		while (end + 1 < k && s[end + 1].protocol == s[end].protocol + 1 &&
		       s[end + 1].priority == s[i].priority)
			end++;
		if (end > i)
			w = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
				     "%s%u-%u:%u", len ? " " : "", (unsigned int)s[i].protocol,
				     (unsigned int)s[end].protocol, (unsigned int)s[i].priority);
		else
			w = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
				     "%s%u:%u", len ? " " : "", (unsigned int)s[i].protocol,
				     (unsigned int)s[i].priority);
		len += (size_t)w;
		i = end + 1;
	}
	return len;
}
