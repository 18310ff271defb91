// SPDX-License-Identifier: GPL-2.0-or-later
/* bond_check.c - `rdmactl bond check`: RoCE LAG readiness, each finding with its fix */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bond/bond.h"
#include "bond/check.h"
#include "bond.h"
#include "findings.h"
#include "term.h"

static const struct rdc_val_uint timeout_range = {.min = 1,
						  .max = RDC_QP_TIMEOUT_MAX,
						  .size = sizeof(unsigned int),
						  .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint retry_range = {
	.min = 0, .max = RDC_QP_RETRY_MAX, .size = sizeof(unsigned int), .given = RDC_VAL_NO_FLAG};

const struct rdc_param bond_check_params[] = {
	{.name = "qp-timeout",
	 .metavar = "N",
	 .help = "the RC QP ACK timeout exponent to judge (1-31, default 14: 4.096 us * 2^N)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct bond_opts, qp_timeout),
	 .spec = &timeout_range},
	{.name = "retry-cnt",
	 .metavar = "N",
	 .help = "the RC QP retry count to judge (0-7, default 7)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct bond_opts, retry_cnt),
	 .spec = &retry_range},
	{.name = NULL},
};

/* One bond: its maths in the open, then what is wrong with it. */
static void check_one(struct rdc_ctx *ctx, const struct rdc_bond *b,
		      const struct rdc_bond_check_params *p, struct rdc_findings *all)
{
	struct rdc_bond_facts *facts = malloc(sizeof(*facts));
	struct rdc_findings *mine = rdc_findings_new();
	struct rdc_out *o = ctx->out;
	struct rdc_err err = {0};
	struct rdc_tline l;
	double failover = rdc_bond_failover_s(b),
	       window = rdc_qp_survival_s(p->qp_timeout, p->retry_cnt);
	int min_timeout = rdc_qp_min_timeout(failover, p->retry_cnt);

	if (!facts || !mine) {
		free(facts);
		rdc_findings_free(mine);
		return;
	}
	if (rdc_bond_facts_read(b, facts, &err))
		rdc_bond_facts_init(b, facts);
	rdc_bond_check_eval(b, facts, p, mine);
	rdc_out_obj_open(o, NULL);
	/*
	 * "bond0: 802.3ad, failover within 0.100 s, QP timeout 14 retry 7 survives
	 * 0.537 s (timeout >= 12 survives)": a line of fields that wraps at the
	 * width between its phrases, never inside one (a bond's name is 15 bytes,
	 * the rest ours).  Continuation lines hang by 4, deeper than the findings'
	 * own lines (2), so that they read as the header's.
	 */
	rdc_tline_begin(&l, o, 0, 4);
	rdc_tline_str(&l, RDC_TL_SPACE, "bond", "%s:", b->name, RDC_COLOR_NONE);
	rdc_tline_str(&l, RDC_TL_SPACE, "mode", "%s,", rdc_bond_mode_name(b->mode), RDC_COLOR_NONE);
	if (isfinite(failover))
		rdc_tline_f64(&l, RDC_TL_SPACE, "failover_s", "failover within %.3f s,", failover);
	else if (isnan(failover))
		rdc_tline_null(&l, RDC_TL_SPACE, "failover_s",
			       "failover time unknown (an option was not read),");
	else
		rdc_tline_null(&l, RDC_TL_SPACE, "failover_s", "nothing detects a failed member,");
	rdc_tline_u64(&l, RDC_TL_SPACE, "qp_timeout", "QP timeout %" PRIu64, p->qp_timeout);
	rdc_tline_u64(&l, RDC_TL_SPACE, "retry_cnt", "retry %" PRIu64, p->retry_cnt);
	rdc_tline_f64(&l, RDC_TL_SPACE, "qp_survival_s", "survives %.3f s", window);
	if (min_timeout > 0)
		rdc_tline_i64(&l, RDC_TL_SPACE, "min_qp_timeout",
			      "(timeout >= %" PRId64 " survives)", min_timeout);
	else
		rdc_tline_null(&l, RDC_TL_SPACE, "min_qp_timeout", "(no timeout survives)");
	rdc_tline_end(&l);
	findings_emit(o, mine);
	rdc_out_obj_close(o);
	/* The findings (and the strings they own) move to @all; what does not fit is counted. */
	for (size_t i = 0; i < mine->count; i++)
		rdc_findings_take(all, &mine->items[i]);
	free(facts);
	rdc_findings_free(mine);
}

int bond_check_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		   void *opts)
{
	const struct bond_opts *bo = opts;
	struct rdc_bond_check_params p = {.qp_timeout = bo->qp_timeout, .retry_cnt = bo->retry_cnt};
	struct rdc_bond_list *list = malloc(sizeof(*list));
	struct rdc_findings *all = rdc_findings_new();
	struct rdc_err err = {0};
	size_t checked = 0;
	int rc;

	if (!list || !all) {
		free(list);
		rdc_findings_free(all);
		return rdc_oom(ctx);
	}
	rc = rdc_bond_read_all(list, &err) ? rdc_fail(ctx, &err) : 0;
	for (size_t i = 0; !rc && args->object && i <= list->count; i++)
		if (i == list->count) {
			rdc_err_set(&err, ENODEV, "no bond '%s'", args->object);
			rdc_err_mark(&err, RDC_ERRK_NOT_FOUND, args->object);
			rc = rdc_fail(ctx, &err);
		} else if (!strcmp(list->bonds[i].name, args->object)) {
			break;
		}
	if (!rc) {
		rdc_out_begin(ctx->out, "bond-check");
		rdc_out_arr_open(ctx->out, "bonds");
		for (size_t i = 0; i < list->count; i++) {
			if (args->object && strcmp(list->bonds[i].name, args->object))
				continue;
			check_one(ctx, &list->bonds[i], &p, all);
			checked++;
		}
		rdc_out_arr_close(ctx->out);
		findings_summary(ctx->out, all);
		rdc_out_end(ctx->out);
		rc = findings_exit(all);
	}
	/*
	 * Nothing to check is the empty document, said on stderr, exit 1: as
	 * port and pfc show with nothing to show (rdmactl(8) EXIT STATUS).
	 */
	if (!rc && !checked) {
		rdc_err_set_plain(&err, ENODEV, "no bonds to check");
		rc = rdc_fail(ctx, &err);
	}
	free(list);
	rdc_findings_free(all);
	return rc;
}
