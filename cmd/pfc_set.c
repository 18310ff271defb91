// SPDX-License-Identifier: GPL-2.0-or-later
/* pfc_set.c - `rdmactl pfc set`: dcb's keyword grammar into a plan, diffed and applied */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "dcb/verdict.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"
#include "pfc.h"
#include "signals.h"
#include "term.h"

int pfc_set_check(struct rdc_ctx *ctx, const struct rdc_args *args, const struct pfc_set_opts *so)
{
	bool dscp = false;

	for (int d = 0; d < RDC_DSCP_COUNT; d++)
		dscp |= so->want.dscp_prio[d] >= 0;
	if (so->want.trust == 0 && dscp)
		return rdc_arg_error(ctx, args, -1,
				     "'trust pcp' removes every DSCP entry: not with dscp-prio");
	return 0;
}

/*
 * What a change report says besides dcbnl: MLNX_OFED's ECN and CNP files
 * and the RDMA-CM defaults of the netdev's ports, as one side of a plan
 * (before or after) has them.
 */
struct side_files {
	struct rdc_ofed_qos q;
	struct rdc_rdma_cm_port cm[RDC_DCB_TARGET_PORTS];
};

/* A file's content as a flag or number: -1 for no file or no number (as ofed_qos.c reads it). */
static int64_t file_number(const char *text)
{
	int64_t v;

	return text[0] && !rdc_parse_i64(text, &v) ? v : -1;
}

/* One planned file's value into @s, if it is one of those: the path names it. */
static void side_file(const struct rdc_dcb_target *t, const char *path, const char *value,
		      struct side_files *s)
{
	char p[256];
	int64_t v = file_number(value);

	for (unsigned int prio = 0; prio < RDC_OFED_PRIOS; prio++)
		for (int rp = 0; rp < 2; rp++)
			if (!rdc_ofed_ecn_path(p, sizeof(p), t->netdev, rp, prio) &&
			    !strcmp(p, path))
				(rp ? s->q.ecn_rp : s->q.ecn_np)[prio] = v < 0 ? -1 : v != 0;
	if (!rdc_ofed_cnp_path(p, sizeof(p), t->netdev, "cnp_dscp") && !strcmp(p, path))
		s->q.cnp_dscp = v;
	if (!rdc_ofed_cnp_path(p, sizeof(p), t->netdev, "cnp_802p_prio") && !strcmp(p, path))
		s->q.cnp_prio = v;
	for (size_t i = 0; i < t->nports && i < RDC_DCB_TARGET_PORTS; i++) {
		struct rdc_rdma_cm_port *cm = &s->cm[i];

		if (!rdc_rdma_cm_path(p, sizeof(p), t->ports[i].device, t->ports[i].port,
				      "default_roce_tos") &&
		    !strcmp(p, path)) {
			cm->have_tos = v >= 0;
			cm->tos = v;
		}
		if (!rdc_rdma_cm_path(p, sizeof(p), t->ports[i].device, t->ports[i].port,
				      "default_roce_mode") &&
		    !strcmp(p, path)) {
			cm->have_mode = value[0] != '\0';
			rdc_strlcpy(cm->mode, value, sizeof(cm->mode));
		}
	}
}

/*
 * The files as they are now, with every file of the plan at its value
 * before (or @after) the change: right before and after a write, and for a
 * dry run, since a file the plan does not name is not written.
 */
static void side_read(const struct rdc_dcb_target *t, const struct rdc_dcb_plan *plan, bool after,
		      struct side_files *s)
{
	memset(s, 0, sizeof(*s));
	rdc_ofed_qos_read(t->netdev, &s->q);
	for (size_t i = 0; i < t->nports && i < RDC_DCB_TARGET_PORTS; i++)
		rdc_rdma_cm_read(t->ports[i].device, t->ports[i].port, &s->cm[i]);
	for (size_t i = 0; i < plan->nfiles; i++)
		side_file(t, plan->files[i].path,
			  after ? plan->files[i].after : plan->files[i].before, s);
}

static void u8s_out(struct rdc_out *o, const char *key, const uint8_t *v, int n)
{
	rdc_out_arr_open(o, key);
	for (int i = 0; i < n; i++)
		rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, v[i]);
	rdc_out_arr_close(o);
}

static void config_pfc(struct rdc_out *o, const struct rdc_dcb *d)
{
	if (d->have_pfc) {
		pfc_section_open(o, "pfc", "dcbnl");
		rdc_out_u64(o, RDC_OUT_MACHINE, "pfc_cap", NULL, d->pfc.pfc_cap);
		rdc_out_u64(o, RDC_OUT_MACHINE, "delay_bits", NULL, d->pfc.delay);
		rdc_out_arr_open(o, "enabled_prios");
		for (int p = 0; p < RDC_DCB_PRIOS; p++)
			if (d->pfc.pfc_en & (1U << p))
				rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, (uint64_t)p);
		rdc_out_arr_close(o);
		rdc_out_obj_close(o);
	} else {
		pfc_emit_unknown(o, "pfc", NULL, pfc_dcb_why(d, false), pfc_keys_pfc_config);
	}
}

static void config_ets(struct rdc_out *o, const struct rdc_dcb *d)
{
	if (d->have_ets) {
		pfc_section_open(o, "ets", "dcbnl");
		rdc_out_u64(o, RDC_OUT_MACHINE, "ets_cap", NULL, d->ets.ets_cap);
		rdc_out_bool(o, RDC_OUT_MACHINE, "willing", NULL, d->ets.willing);
		u8s_out(o, "prio_tc", d->ets.prio_tc, RDC_DCB_PRIOS);
		rdc_out_arr_open(o, "tc_tsa");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL,
				    rdc_dcb_tsa_name(d->ets.tc_tsa[t]));
		rdc_out_arr_close(o);
		u8s_out(o, "tc_bw_pct", d->ets.tc_tx_bw, RDC_DCB_TCS);
		rdc_out_obj_close(o);
	} else {
		pfc_emit_unknown(o, "ets", NULL, pfc_dcb_why(d, d->ets_invalid), pfc_keys_ets);
	}
}

static void config_maxrate_buffer(struct rdc_out *o, const struct rdc_dcb *d)
{
	if (d->have_maxrate) {
		pfc_section_open(o, "maxrate", "dcbnl");
		rdc_out_arr_open(o, "tc_maxrate_kbps");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->maxrate.tc_maxrate[t]);
		rdc_out_arr_close(o);
		rdc_out_obj_close(o);
	} else {
		pfc_emit_unknown(o, "maxrate", NULL, pfc_dcb_why(d, false), pfc_keys_maxrate);
	}
	if (d->have_buffer) {
		pfc_section_open(o, "buffer", "dcbnl");
		u8s_out(o, "prio_buffer", d->buffer.prio2buffer, RDC_DCB_PRIOS);
		rdc_out_arr_open(o, "buffer_size_bytes");
		for (int b = 0; b < DCBX_MAX_BUFFERS; b++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->buffer.buffer_size[b]);
		rdc_out_arr_close(o);
		rdc_out_u64(o, RDC_OUT_MACHINE, "total_size_bytes", NULL, d->buffer.total_size);
		rdc_out_obj_close(o);
	} else {
		pfc_emit_unknown(o, "buffer", NULL, pfc_dcb_why(d, d->buffer_invalid),
				 pfc_keys_buffer);
	}
}

/*
 * Trust as pfc show says it (MLNX_OFED's file, else mlx5's APP rule).  The
 * plan writes no trust file: mlx5 switches trust with the first DSCP APP
 * entry and back with the last, so where the plan flips the APP rule, both
 * sides are the rule's; elsewhere the file's content, the same on both.
 */
static void config_trust_map(struct rdc_out *o, const struct rdc_dcb_plan *plan,
			     const struct rdc_dcb *d, const struct rdc_ofed_qos *q)
{
	bool flips = !rdc_dcb_dscp_count(&plan->before) != !rdc_dcb_dscp_count(&plan->after);
	const char *value = q->trust[0] && !flips   ? q->trust
			    : rdc_dcb_dscp_count(d) ? "dscp"
						    : "pcp";

	if (!q->trust[0] && !d->supported) {
		pfc_emit_unknown(o, "trust", NULL, pfc_why_no_dcb, pfc_keys_trust);
	} else {
		pfc_section_open(o, "trust", q->trust[0] ? "ofed-sysfs" : "dcbnl-app");
		rdc_out_str(o, RDC_OUT_MACHINE, "value", NULL, value);
		rdc_out_obj_close(o);
	}
	if (!d->supported) {
		pfc_emit_unknown(o, "dscp_prio", NULL, pfc_why_no_dcb, pfc_keys_dscp_prio);
		return;
	}
	pfc_section_open(o, "dscp_prio", "dcbnl-app");
	pfc_emit_dscp_map(o, "map", d);
	rdc_out_obj_close(o);
}

static void ecn_flag_out(struct rdc_out *o, const char *key, int v)
{
	if (v >= 0)
		rdc_out_bool(o, RDC_OUT_MACHINE, key, NULL, v);
	else
		rdc_out_null(o, key, NULL);
}

static void i64_out(struct rdc_out *o, const char *key, int64_t v)
{
	if (v >= 0)
		rdc_out_i64(o, RDC_OUT_MACHINE, key, NULL, v);
	else
		rdc_out_null(o, key, NULL);
}

/* ECN, CNP and the RDMA-CM defaults, typed, as pfc show's ecn, cnp and roce. */
static void config_files(struct rdc_out *o, const struct rdc_dcb_target *t,
			 const struct side_files *s)
{
	if (s->q.have_ecn) {
		pfc_section_open(o, "ecn", "ofed-sysfs");
		rdc_out_arr_open(o, "prios");
		for (int p = 0; p < RDC_OFED_PRIOS; p++) {
			rdc_out_obj_open(o, NULL);
			rdc_out_u64(o, RDC_OUT_MACHINE, "prio", NULL, (uint64_t)p);
			ecn_flag_out(o, "np", s->q.ecn_np[p]);
			ecn_flag_out(o, "rp", s->q.ecn_rp[p]);
			rdc_out_obj_close(o);
		}
		rdc_out_arr_close(o);
		rdc_out_obj_close(o);
		pfc_section_open(o, "cnp", "ofed-sysfs");
		i64_out(o, "dscp", s->q.cnp_dscp);
		i64_out(o, "prio", s->q.cnp_prio);
		rdc_out_obj_close(o);
	} else {
		pfc_emit_unknown(o, "ecn", NULL, pfc_why_no_ecn, pfc_keys_ecn);
		pfc_emit_unknown(o, "cnp", NULL, pfc_why_no_ecn, pfc_keys_cnp);
	}
	rdc_out_arr_open(o, "roce");
	for (size_t i = 0; i < t->nports && i < RDC_DCB_TARGET_PORTS; i++) {
		const struct rdc_rdma_cm_port *cm = &s->cm[i];
		bool known = cm->have_mode || cm->have_tos;

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, t->ports[i].device);
		rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, t->ports[i].port);
		rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, known ? "configfs" : "unknown");
		if (known)
			rdc_out_null(o, "reason", NULL);
		else
			rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, pfc_why_no_cm);
		if (cm->have_mode)
			rdc_out_str(o, RDC_OUT_MACHINE, "default_roce_mode", NULL, cm->mode);
		else
			rdc_out_null(o, "default_roce_mode", NULL);
		i64_out(o, "default_roce_tos", cm->have_tos ? cm->tos : -1);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

/*
 * Before or after in a change report: the setting sections of pfc show,
 * with the same names and shapes (an unknown one is {source "unknown",
 * reason, every key null}), less what is counted rather than set (pfc
 * show's pfc.prios and pfc.pause_duration_source) and dcbx, which pfc
 * set does not change.
 */
static void emit_config(struct rdc_out *o, const char *key, const struct rdc_dcb_target *t,
			const struct rdc_dcb_plan *plan, bool after)
{
	const struct rdc_dcb *d = after ? &plan->after : &plan->before;
	struct side_files s;

	side_read(t, plan, after, &s);
	rdc_out_obj_open(o, key);
	/* In pfc show's order. */
	config_pfc(o, d);
	config_trust_map(o, plan, d, &s.q);
	config_ets(o, d);
	config_maxrate_buffer(o, d);
	config_files(o, t, &s);
	rdc_out_obj_close(o);
}

/* How a value of a mapping keyword is written, as pfc set takes it. */
enum chg_fmt { CHG_NUM, CHG_ONOFF, CHG_TSA, CHG_RATE };

static void chg_value(enum chg_fmt f, uint64_t v, char *buf, size_t size)
{
	switch (f) {
	case CHG_ONOFF:
		snprintf(buf, size, "%s", v ? "on" : "off");
		return;
	case CHG_TSA:
		snprintf(buf, size, "%s", rdc_dcb_tsa_name((uint8_t)v));
		return;
	case CHG_RATE:
		/* kbit/s, in the largest unit that keeps it whole (tc-maxrate's units). */
		if (v && v % 1000000000 == 0)
			snprintf(buf, size, "%" PRIu64 "Tbit", v / 1000000000);
		else if (v && v % 1000000 == 0)
			snprintf(buf, size, "%" PRIu64 "Gbit", v / 1000000);
		else if (v && v % 1000 == 0)
			snprintf(buf, size, "%" PRIu64 "Mbit", v / 1000);
		else if (v)
			snprintf(buf, size, "%" PRIu64 "kbit", v);
		else
			snprintf(buf, size, "0");
		return;
	case CHG_NUM:
		break;
	}
	snprintf(buf, size, "%" PRIu64, v);
}

/*
 * One line for a mapping keyword in dcb's grammar, old -> new, naming only
 * the entries that differ (and that @show allows): "  ets prio-tc 0:1 2:2
 * -> 0:0 2:0".  Nothing when no entry differs.
 */
static void emit_map_change(struct rdc_out *o, const char *obj, const char *kw, const uint64_t *b,
			    const uint64_t *a, const bool *show, int n, enum chg_fmt f)
{
	char from[256] = "", to[256] = "", vb[32], va[32];
	size_t prefix = strlen(obj) + strlen(kw) + 8; /* "  OBJ KW " and " -> " */
	size_t width = (size_t)rdc_term_width();

	for (int i = 0; i < n; i++) {
		if (a[i] == b[i] || (show && !show[i]))
			continue;
		chg_value(f, b[i], vb, sizeof(vb));
		chg_value(f, a[i], va, sizeof(va));
		/* A line that would pass the terminal's width goes on in the next one. */
		if (from[0] &&
		    prefix + strlen(from) + strlen(to) + strlen(vb) + strlen(va) + 6 > width) {
			rdc_out_text(o, "  %s %s %s -> %s\n", obj, kw, from, to);
			from[0] = to[0] = '\0';
		}
		snprintf(from + strlen(from), sizeof(from) - strlen(from), "%s%d:%s",
			 from[0] ? " " : "", i, vb);
		snprintf(to + strlen(to), sizeof(to) - strlen(to), "%s%d:%s", to[0] ? " " : "", i,
			 va);
	}
	if (from[0])
		rdc_out_text(o, "  %s %s %s -> %s\n", obj, kw, from, to);
}

#define U64S(dst, src, n)                                                                          \
	do {                                                                                       \
		for (int i_ = 0; i_ < (n); i_++)                                                   \
			(dst)[i_] = (src)[i_];                                                     \
	} while (0)

static void emit_pfc_ets_changes(struct rdc_out *o, const struct rdc_dcb_plan *p)
{
	const struct rdc_dcb *b = &p->before, *a = &p->after;
	uint64_t vb[DCBX_MAX_BUFFERS], va[DCBX_MAX_BUFFERS];
	bool ets_tc[RDC_DCB_TCS];

	if (p->pfc) {
		for (int i = 0; i < RDC_DCB_PRIOS; i++) {
			vb[i] = !!(b->pfc.pfc_en & (1U << i));
			va[i] = !!(a->pfc.pfc_en & (1U << i));
		}
		emit_map_change(o, "pfc", "prio-pfc", vb, va, NULL, RDC_DCB_PRIOS, CHG_ONOFF);
		if (a->pfc.delay != b->pfc.delay)
			rdc_out_text(o, "  pfc delay %u -> %u\n", b->pfc.delay, a->pfc.delay);
	}
	if (p->ets) {
		U64S(vb, b->ets.prio_tc, RDC_DCB_PRIOS);
		U64S(va, a->ets.prio_tc, RDC_DCB_PRIOS);
		emit_map_change(o, "ets", "prio-tc", vb, va, NULL, RDC_DCB_PRIOS, CHG_NUM);
		U64S(vb, b->ets.tc_tsa, RDC_DCB_TCS);
		U64S(va, a->ets.tc_tsa, RDC_DCB_TCS);
		emit_map_change(o, "ets", "tc-tsa", vb, va, NULL, RDC_DCB_TCS, CHG_TSA);
		/* Only ETS TCs have a share; what mlx5 reports for the others is not sent back. */
		for (int t = 0; t < RDC_DCB_TCS; t++)
			ets_tc[t] = a->ets.tc_tsa[t] == IEEE_8021QAZ_TSA_ETS;
		U64S(vb, b->ets.tc_tx_bw, RDC_DCB_TCS);
		U64S(va, a->ets.tc_tx_bw, RDC_DCB_TCS);
		emit_map_change(o, "ets", "tc-bw", vb, va, ets_tc, RDC_DCB_TCS, CHG_NUM);
	}
	if (p->maxrate) {
		U64S(vb, b->maxrate.tc_maxrate, RDC_DCB_TCS);
		U64S(va, a->maxrate.tc_maxrate, RDC_DCB_TCS);
		emit_map_change(o, "maxrate", "tc-maxrate", vb, va, NULL, RDC_DCB_TCS, CHG_RATE);
	}
	if (p->buffer) {
		U64S(vb, b->buffer.prio2buffer, RDC_DCB_PRIOS);
		U64S(va, a->buffer.prio2buffer, RDC_DCB_PRIOS);
		emit_map_change(o, "buffer", "prio-buffer", vb, va, NULL, RDC_DCB_PRIOS, CHG_NUM);
		U64S(vb, b->buffer.buffer_size, DCBX_MAX_BUFFERS);
		U64S(va, a->buffer.buffer_size, DCBX_MAX_BUFFERS);
		emit_map_change(o, "buffer", "buffer-size", vb, va, NULL, DCBX_MAX_BUFFERS,
				CHG_NUM);
	}
}

/* "  app add dscp-prio 26:3 48:6", as dcb app would say it; a long map goes on under itself. */
static void emit_app_change(struct rdc_out *o, const char *verb, const struct dcb_app *apps,
			    size_t n)
{
	char ranges[3072];
	struct rdc_tline l;

	if (!n || !rdc_dcb_dscp_ranges(apps, n, ranges, sizeof(ranges)))
		return;
	rdc_tline_begin(&l, o, 2, (int)strlen("  app add dscp-prio "));
	rdc_tline_text(&l, RDC_TL_JOIN, RDC_COLOR_NONE, "app %s dscp-prio", verb);
	rdc_tline_words(&l, RDC_TL_SPACE, ranges);
	rdc_tline_end(&l);
}

/*
 * One text line per changed attribute, in dcb's grammar, old -> new for
 * what differs only; the APP entries as dcb app would add or delete them,
 * DSCP ranges collapsed; trust spelled out where the APP change flips it.
 */
static void emit_changes(struct rdc_out *o, const struct rdc_dcb_plan *p)
{
	bool trust_before = rdc_dcb_dscp_count(&p->before) > 0;
	bool trust_after = rdc_dcb_dscp_count(&p->after) > 0;

	emit_pfc_ets_changes(o, p);
	/* mlx5's rule: the first DSCP entry switches to DSCP trust, removing the last to PCP. */
	if (!trust_before && trust_after)
		rdc_out_text(
			o, "  trust pcp -> dscp (mlx5 trusts DSCP while DSCP APP entries exist)\n");
	else if (trust_before && !trust_after)
		rdc_out_text(o, "  trust dscp -> pcp (no DSCP APP entry left: mlx5 trusts PCP)\n");
	emit_app_change(o, "del", p->del, p->ndel);
	emit_app_change(o, "add", p->add, p->nadd);
	for (size_t i = 0; i < p->nfiles; i++)
		rdc_out_text(o, "  file %s %s -> %s\n", p->files[i].path,
			     p->files[i].before[0] ? p->files[i].before : "(none)",
			     p->files[i].after);
}

int pfc_prepare(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_want *want, struct rdc_dcb_plan **out)
{
	struct rdc_err err = {0};
	struct rdc_dcb_plan *plan;
	int rc;

	*out = NULL;
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return rdc_oom(ctx);
	rc = rdc_dcb_plan_target(t, want, plan, &err);
	if (rc) {
		free(plan);
		/*
		 * The values combine to something the standard or the NIC does not
		 * allow (the record's usage flag); a kernel's EINVAL is a failure.
		 */
		if (err.usage)
			return rdc_usage_error(ctx, "'%s': %s", t->netdev, err.msg);
		return rdc_fail(ctx, &err);
	}
	*out = plan;
	return 0;
}

void pfc_report(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_plan *plan)
{
	bool changed;

	if (!plan)
		return;
	changed = !rdc_dcb_plan_empty(plan);

	rdc_out_obj_open(ctx->out, NULL);
	pfc_emit_target_name(ctx->out, t);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	if (!changed)
		rdc_out_text(ctx->out, " nothing to change (nothing sent)");
	else if (ctx->dry_run)
		rdc_out_text(ctx->out, " would change (dry run: nothing sent)");
	else
		rdc_out_text(ctx->out, " changed and verified");
	rdc_out_nl(ctx->out);
	emit_changes(ctx->out, plan);
	/* Machine only: the text has said what changes. */
	if (!rdc_out_is_text(ctx->out)) {
		emit_config(ctx->out, "before", t, plan, false);
		emit_config(ctx->out, "after", t, plan, true);
	}
	rdc_out_obj_close(ctx->out);
}

int pfc_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		void *opts)
{
	const struct pfc_set_opts *so = opts;
	struct pfc_jobs jobs = {0};
	bool any = false;
	int rc;

	if (!so->dev)
		return rdc_usage_error(ctx, "set: missing 'dev NETDEV'");
	for (int i = 0; act->params[i].name; i++)
		any |= args->given[i] && strcmp(act->params[i].name, "dev");
	if (!any)
		return rdc_usage_error(ctx, "set: nothing to set");
	rc = pfc_set_check(ctx, args, so);
	if (!rc)
		rc = rdc_writes_allowed(ctx);
	/* A bond: the same change on every member, all or none. */
	if (!rc)
		rc = pfc_jobs_add(ctx, so->dev, NULL, &so->want, &jobs, 0);
	return pfc_jobs_finish(ctx, &jobs, rc);
}
