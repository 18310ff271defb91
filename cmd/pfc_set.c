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
#include "pfc.h"
#include "signals.h"

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

/* The configuration part of a DCB state, for before/after in change reports. */
static void emit_config(struct rdc_out *o, const char *key, const struct rdc_dcb *d,
			const struct rdc_dcb_plan *plan, bool after)
{
	rdc_out_obj_open(o, key);
	/* Keys stay the same whatever the driver reports: null for what it did not. */
	if (!d->have_pfc) {
		rdc_out_null(o, "pfc_enabled_prios", NULL);
		rdc_out_null(o, "pfc_delay", NULL);
	}
	if (!d->have_ets) {
		rdc_out_null(o, "prio_tc", NULL);
		rdc_out_null(o, "tc_tsa", NULL);
		rdc_out_null(o, "tc_bw", NULL);
	}
	if (!d->have_maxrate)
		rdc_out_null(o, "tc_maxrate_kbps", NULL);
	if (!d->have_buffer) {
		rdc_out_null(o, "prio_buffer", NULL);
		rdc_out_null(o, "buffer_size_bytes", NULL);
	}
	if (d->have_pfc) {
		rdc_out_arr_open(o, "pfc_enabled_prios");
		for (int p = 0; p < RDC_DCB_PRIOS; p++)
			if (d->pfc.pfc_en & (1U << p))
				rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, (uint64_t)p);
		rdc_out_arr_close(o);
		rdc_out_u64(o, RDC_OUT_MACHINE, "pfc_delay", NULL, d->pfc.delay);
	}
	if (d->have_ets) {
		rdc_out_arr_open(o, "prio_tc");
		for (int p = 0; p < RDC_DCB_PRIOS; p++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->ets.prio_tc[p]);
		rdc_out_arr_close(o);
		rdc_out_arr_open(o, "tc_tsa");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL,
				    rdc_dcb_tsa_name(d->ets.tc_tsa[t]));
		rdc_out_arr_close(o);
		rdc_out_arr_open(o, "tc_bw");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->ets.tc_tx_bw[t]);
		rdc_out_arr_close(o);
	}
	if (d->have_maxrate) {
		rdc_out_arr_open(o, "tc_maxrate_kbps");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->maxrate.tc_maxrate[t]);
		rdc_out_arr_close(o);
	}
	if (d->have_buffer) {
		rdc_out_arr_open(o, "prio_buffer");
		for (int p = 0; p < RDC_DCB_PRIOS; p++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->buffer.prio2buffer[p]);
		rdc_out_arr_close(o);
		rdc_out_arr_open(o, "buffer_size_bytes");
		for (int b = 0; b < DCBX_MAX_BUFFERS; b++)
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, d->buffer.buffer_size[b]);
		rdc_out_arr_close(o);
	}
	rdc_out_str(o, RDC_OUT_MACHINE, "trust", NULL, rdc_dcb_dscp_count(d) ? "dscp" : "pcp");
	rdc_out_arr_open(o, "dscp_prio");
	for (unsigned int dscp = 0; dscp < RDC_DSCP_COUNT; dscp++) {
		int prio = rdc_dcb_dscp_prio(d, dscp);

		if (prio < 0)
			continue;
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_MACHINE, "dscp", NULL, dscp);
		rdc_out_u64(o, RDC_OUT_MACHINE, "prio", NULL, (uint64_t)prio);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_arr_open(o, "files");
	for (size_t i = 0; i < plan->nfiles; i++) {
		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "path", NULL, plan->files[i].path);
		rdc_out_str(o, RDC_OUT_MACHINE, "value", NULL,
			    after		       ? plan->files[i].after
			    : plan->files[i].before[0] ? plan->files[i].before
						       : NULL);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_obj_close(o);
}

/* One text line per change, like a diff. */
static void emit_changes(struct rdc_out *o, const struct rdc_dcb_plan *p)
{
	const struct rdc_dcb *b = &p->before, *a = &p->after;

	if (p->pfc)
		rdc_out_text(o, "  pfc       enabled 0x%02x -> 0x%02x, delay %u -> %u\n",
			     b->pfc.pfc_en, a->pfc.pfc_en, b->pfc.delay, a->pfc.delay);
	if (p->ets) {
		rdc_out_text(o, "  ets      ");
		for (int i = 0; i < 8; i++)
			if (a->ets.prio_tc[i] != b->ets.prio_tc[i])
				rdc_out_text(o, " prio %d->tc %u", i, a->ets.prio_tc[i]);
		for (int t = 0; t < 8; t++)
			if (a->ets.tc_tsa[t] != b->ets.tc_tsa[t] ||
			    a->ets.tc_tx_bw[t] != b->ets.tc_tx_bw[t])
				rdc_out_text(o, " tc %d:%s/%u%%", t,
					     rdc_dcb_tsa_name(a->ets.tc_tsa[t]),
					     a->ets.tc_tx_bw[t]);
		rdc_out_nl(o);
	}
	if (p->maxrate)
		rdc_out_text(o, "  maxrate   changed\n");
	if (p->buffer)
		rdc_out_text(o, "  buffer    changed\n");
	for (size_t i = 0; i < p->nadd; i++)
		rdc_out_text(o, "  app       add dscp %u -> prio %u\n", p->add[i].protocol,
			     p->add[i].priority);
	for (size_t i = 0; i < p->ndel; i++)
		rdc_out_text(o, "  app       del dscp %u -> prio %u\n", p->del[i].protocol,
			     p->del[i].priority);
	for (size_t i = 0; i < p->nfiles; i++)
		rdc_out_text(o, "  file      %s: '%s' -> '%s'\n", p->files[i].path,
			     p->files[i].before, p->files[i].after);
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
		/* The values combine to something the standard or the NIC does not allow. */
		if (rc == -EINVAL)
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
	rdc_out_str(ctx->out, RDC_OUT_ANY, "netdev", "%s:", t->netdev);
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
	emit_config(ctx->out, "before", &plan->before, plan, false);
	emit_config(ctx->out, "after", &plan->after, plan, true);
	rdc_out_obj_close(ctx->out);
}

/*
 * Write the plan; a failed apply puts the old state back itself.  SIGINT and
 * SIGTERM wait for the write (signals.h) and then undo it.
 */
static int pfc_set_write(struct rdc_ctx *ctx, const char *netdev, const struct rdc_dcb_plan *plan)
{
	struct rdc_err err = {0}, undo = {0};
	int rc, undo_rc = 0;

	rdc_sig_defer_begin();
	rc = rdc_dcb_plan_apply(netdev, plan, &err);
	if (!rc && rdc_sig_pending())
		undo_rc = rdc_dcb_plan_revert(netdev, plan, &undo);
	return rdc_sig_finish(ctx, rc, &err, undo_rc, &undo);
}

int pfc_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		void *opts)
{
	const struct pfc_set_opts *so = opts;
	struct rdc_dcb_plan *plan;
	struct rdc_dcb_target t;
	bool changed, any = false;
	int rc;

	if (!so->dev)
		return rdc_usage_error(ctx, "set: missing 'dev NETDEV'");
	for (int i = 0; act->params[i].name; i++)
		any |= args->given[i] && strcmp(act->params[i].name, "dev");
	if (!any)
		return rdc_usage_error(ctx, "set: nothing to set");
	rc = pfc_set_check(ctx, args, so);
	if (!rc && !ctx->dry_run)
		rc = rdc_writes_allowed(ctx);
	if (!rc)
		rc = pfc_target(ctx, so->dev, &t);
	if (rc)
		return rc;
	rc = pfc_prepare(ctx, &t, &so->want, &plan);
	if (rc)
		return rc;
	changed = !rdc_dcb_plan_empty(plan);
	if (changed && !ctx->dry_run) {
		rc = pfc_set_write(ctx, t.netdev, plan);
		if (rc) {
			free(plan);
			return rc;
		}
	}
	rdc_out_begin(ctx->out);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	rdc_out_arr_open(ctx->out, "devices");
	pfc_report(ctx, &t, plan);
	rdc_out_arr_close(ctx->out);
	rdc_out_end(ctx->out);
	free(plan);
	return 0;
}
