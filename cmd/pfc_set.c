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
#include "kernel/dcbnl.h"
#include "seam/fs.h"
#include "pfc.h"

typedef int (*pfc_val_fn)(const char *s, uint64_t max, uint64_t *v);

static int val_number(const char *s, uint64_t max, uint64_t *v)
{
	int rc = rdc_parse_u64(s, 0, v);

	return rc ? rc : *v > max ? -ERANGE : 0;
}

static int val_onoff(const char *s, uint64_t max, uint64_t *v)
{
	(void)max;
	if (!strcmp(s, "on"))
		*v = 1;
	else if (!strcmp(s, "off"))
		*v = 0;
	else
		return -EINVAL;
	return 0;
}

static int val_tsa(const char *s, uint64_t max, uint64_t *v)
{
	uint8_t tsa;
	int rc = rdc_dcb_tsa_parse(s, &tsa);

	(void)max;
	if (!rc)
		*v = tsa;
	return rc;
}

static int val_size(const char *s, uint64_t max, uint64_t *v)
{
	return rdc_parse_size(s, max, v);
}

/* A rate in kbit/s: "0" (unlimited) or a number with kbit, mbit, gbit or tbit (SI). */
static int val_rate(const char *s, uint64_t max, uint64_t *v)
{
	static const struct {
		const char *unit;
		uint64_t kbit;
	} units[] = {{"kbit", 1}, {"mbit", 1000}, {"gbit", 1000000}, {"tbit", 1000000000}};
	char *end;
	unsigned long long n;

	(void)max;
	if (!strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].unit)) {
			if (n > UINT64_MAX / units[i].kbit)
				return -ERANGE;
			*v = n * units[i].kbit;
			return 0;
		}
	return -EINVAL;
}

/*
 * dcb's mapping words: "KEY:VALUE" where KEY is a number below @nkeys or
 * "all" (when @allow_all), later words overriding earlier ones:
 *   prio-pfc all:off 3:on   -> 3 on, the rest off
 *   dscp-prio 26:3 48:6     -> two entries
 *   prio-pfc 8:on           -> usage error (priorities are 0-7)
 */
static int pfc_map(struct rdc_ctx *ctx, const char *keyword, char **words, int n,
		   unsigned int nkeys, bool allow_all, pfc_val_fn val, uint64_t max, uint64_t *vals,
		   bool *given)
{
	for (int i = 0; i < n; i++) {
		char key[16];
		const char *colon = strchr(words[i], ':');
		size_t klen = colon ? (size_t)(colon - words[i]) : 0;
		uint64_t k, v;
		int rc;

		if (!colon || klen == 0 || klen >= sizeof(key))
			return rdc_usage_error(ctx, "'%s %s': expected KEY:VALUE", keyword,
					       words[i]);
		memcpy(key, words[i], klen);
		key[klen] = '\0';
		rc = val(colon + 1, max, &v);
		if (rc)
			return rdc_usage_error(ctx, "'%s %s': bad value '%s'", keyword, words[i],
					       colon + 1);
		if (allow_all && !strcmp(key, "all")) {
			for (unsigned int j = 0; j < nkeys; j++) {
				vals[j] = v;
				given[j] = true;
			}
			continue;
		}
		if (rdc_parse_u64(key, 10, &k) || k >= nkeys)
			return rdc_usage_error(ctx, "'%s %s': '%s' is not %s0-%u", keyword,
					       words[i], key, allow_all ? "all or " : "",
					       nkeys - 1);
		vals[k] = v;
		given[k] = true;
	}
	return 0;
}

/* Index of a keyword of @act, -1 if the action has no such keyword. */
static int kw(const struct rdc_action *act, const char *name)
{
	for (int i = 0; act->params[i].name; i++)
		if (!strcmp(act->params[i].name, name))
			return i;
	return -1;
}

#define GIVEN(name) (kw(act, name) >= 0 && args->given[kw(act, name)])

static int want_map(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		    const char *name, unsigned int nkeys, bool allow_all, pfc_val_fn val,
		    uint64_t max, uint64_t *vals, bool *given)
{
	int k = kw(act, name);

	if (k < 0 || !args->given[k])
		return 0;
	return pfc_map(ctx, name, args->values[k], args->nvalues[k], nkeys, allow_all, val, max,
		       vals, given);
}

int pfc_want_from_args(struct rdc_ctx *ctx, const struct rdc_action *act,
		       const struct rdc_args *args, struct rdc_dcb_want *want,
		       struct pfc_extra *extra)
{
	uint64_t v[RDC_DSCP_COUNT];
	bool g[RDC_DSCP_COUNT];
	int rc;

	rdc_dcb_want_init(want);
	memset(extra, 0, sizeof(*extra));
	extra->roce_tos = extra->roce_mode = extra->cnp_dscp = extra->cnp_prio = -1;

	memset(g, 0, sizeof(g));
	rc = want_map(ctx, act, args, "prio-pfc", 8, true, val_onoff, 1, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->pfc_given[i] = g[i]))
			want->pfc_on[i] = v[i];
	if (!rc && GIVEN("delay")) {
		uint32_t d;

		rc = rdc_arg_u32(ctx, "delay", args->value[kw(act, "delay")], 0, 65535, &d);
		want->delay_given = !rc;
		want->delay = (uint16_t)d;
	}
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "prio-tc", 8, true, val_number, 7, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->prio_tc_given[i] = g[i]))
			want->prio_tc[i] = (uint8_t)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "tc-tsa", 8, true, val_tsa, 255, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->tsa_given[i] = g[i]))
			want->tsa[i] = (uint8_t)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "tc-bw", 8, true, val_number, 100, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->bw_given[i] = g[i]))
			want->bw[i] = (uint8_t)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "tc-maxrate", 8, true, val_rate, UINT64_MAX, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->maxrate_given[i] = g[i]))
			want->maxrate_kbps[i] = v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "prio-buffer", 8, true, val_number,
			      DCBX_MAX_BUFFERS - 1, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((want->prio_buffer_given[i] = g[i]))
			want->prio_buffer[i] = (uint8_t)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "buffer-size", DCBX_MAX_BUFFERS, true, val_size,
			      UINT32_MAX, v, g);
	for (int i = 0; !rc && i < DCBX_MAX_BUFFERS; i++)
		if ((want->buffer_size_given[i] = g[i]))
			want->buffer_size[i] = (uint32_t)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "dscp-prio", RDC_DSCP_COUNT, false, val_number, 7, v,
			      g);
	for (int i = 0; !rc && i < RDC_DSCP_COUNT; i++)
		if (g[i])
			want->dscp_prio[i] = (int)v[i];
	memset(g, 0, sizeof(g));
	if (!rc)
		rc = want_map(ctx, act, args, "ecn", 8, true, val_onoff, 1, v, g);
	for (int i = 0; !rc && i < 8; i++)
		if ((extra->ecn_given[i] = g[i]))
			extra->ecn_on[i] = v[i];
	if (rc)
		return rc;
	if (GIVEN("trust")) {
		const char *t = args->value[kw(act, "trust")];

		if (strcmp(t, "dscp") && strcmp(t, "pcp"))
			return rdc_usage_error(ctx, "'trust %s': expected dscp or pcp", t);
		want->trust = !strcmp(t, "dscp");
		if (!want->trust && GIVEN("dscp-prio"))
			return rdc_usage_error(ctx, "'trust pcp' removes every DSCP entry: "
						    "not with dscp-prio");
	}
	if (GIVEN("roce-tos")) {
		uint32_t tos;

		rc = rdc_arg_u32(ctx, "roce-tos", args->value[kw(act, "roce-tos")], 0, 255, &tos);
		if (rc)
			return rc;
		extra->roce_tos = (int)tos;
	}
	if (GIVEN("roce-mode")) {
		const char *m = args->value[kw(act, "roce-mode")];

		if (strcmp(m, "v1") && strcmp(m, "v2"))
			return rdc_usage_error(ctx, "'roce-mode %s': expected v1 or v2", m);
		extra->roce_mode = m[1] - '0';
	}
	return 0;
}

/* The RDMA-CM and ECN attribute files a change touches, added to the plan. */
static int pfc_plan_files(struct rdc_ctx *ctx, const struct pfc_target *t,
			  const struct pfc_extra *x, struct rdc_dcb_plan *plan)
{
	struct rdc_err err = {0};
	char path[256], val[16];
	bool ecn = false;
	int rc = 0;

	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		ecn |= x->ecn_given[p];
	if (ecn && !rdc_fs_exists("/sys/class/net/%s/ecn", t->netdev)) {
		rdc_err_set(&err, EOPNOTSUPP, "cannot set ECN on '%s'", t->netdev);
		rdc_err_detail(&err,
			       "the driver exposes no ECN control (MLNX_OFED's "
			       "/sys/class/net/%s/ecn)",
			       t->netdev);
		return rdc_fail(ctx, &err);
	}
	for (int p = 0; p < RDC_DCB_PRIOS && !rc; p++) {
		if (!x->ecn_given[p])
			continue;
		for (int side = 0; side < 2 && !rc; side++) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/roce_%s/enable/%d",
				 t->netdev, side ? "rp" : "np", p);
			rc = rdc_dcb_plan_file(plan, path, x->ecn_on[p] ? "1" : "0", &err);
		}
	}
	/* CNP DSCP and priority: MLNX_OFED sysfs only; elsewhere firmware defaults apply. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/roce_np/cnp_dscp", t->netdev);
	if (!rc && x->cnp_dscp >= 0 && rdc_fs_exists("%s", path)) {
		snprintf(val, sizeof(val), "%d", x->cnp_dscp);
		rc = rdc_dcb_plan_file(plan, path, val, &err);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/roce_np/cnp_802p_prio", t->netdev);
	if (!rc && x->cnp_prio >= 0 && rdc_fs_exists("%s", path)) {
		snprintf(val, sizeof(val), "%d", x->cnp_prio);
		rc = rdc_dcb_plan_file(plan, path, val, &err);
	}
	if (!rc && (x->roce_tos >= 0 || x->roce_mode >= 0)) {
		if (!t->nports) {
			rdc_err_set(&err, ENODEV, "'%s' has no RDMA port for roce-tos/roce-mode",
				    t->netdev);
			return rdc_fail(ctx, &err);
		}
		if (!rdc_fs_exists("/sys/kernel/config/rdma_cm")) {
			rdc_err_set(&err, ENOENT, "cannot set RDMA-CM defaults");
			rdc_err_detail(&err, "no /sys/kernel/config/rdma_cm: load rdma_cm and "
					     "mount configfs");
			return rdc_fail(ctx, &err);
		}
	}
	for (size_t i = 0; i < t->nports && !rc; i++) {
		const char *dev = t->ports[i].device;
		unsigned int port = t->ports[i].port;

		/* The per-device configfs object exists once created; creating it changes nothing. */
		if ((x->roce_tos >= 0 || x->roce_mode >= 0) && !ctx->dry_run &&
		    rdc_fs_mkdir(&err, "/sys/kernel/config/rdma_cm/%s", dev))
			return rdc_fail(ctx, &err);
		if (x->roce_tos >= 0) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos", dev,
				 port);
			snprintf(val, sizeof(val), "%d", x->roce_tos);
			rc = rdc_dcb_plan_file(plan, path, val, &err);
		}
		if (!rc && x->roce_mode >= 0) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode", dev,
				 port);
			rc = rdc_dcb_plan_file(plan, path,
					       x->roce_mode == 2 ? "RoCE v2" : "IB/RoCE v1", &err);
		}
	}
	return rc ? rdc_fail(ctx, &err) : 0;
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

int pfc_prepare(struct rdc_ctx *ctx, const struct pfc_target *t, const struct rdc_dcb_want *want,
		const struct pfc_extra *extra, struct rdc_dcb_plan **out)
{
	struct rdc_err err = {0};
	struct rdc_dcb_plan *plan;
	struct rdc_dcb before;
	int rc;

	*out = NULL;
	rc = rdc_dcb_get(t->netdev, &before, &err);
	/* Without dcbnl (rxe on virtio) RDMA-CM and ECN files can still change. */
	if (rc && (rc != -EOPNOTSUPP || rdc_dcb_want_touches_dcb(want)))
		return rdc_fail(ctx, &err);
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return RDC_EXIT_FAIL;
	rc = rdc_dcb_plan_make(&before, want, plan, &err);
	if (rc) {
		free(plan);
		/* The values combine to something the standard or the NIC does not allow. */
		if (rc == -EINVAL)
			return rdc_usage_error(ctx, "'%s': %s", t->netdev, err.msg);
		char why[sizeof(err.msg)];

		memcpy(why, err.msg, sizeof(why));
		rdc_err_set(&err, -rc, "cannot change '%s': %s", t->netdev, why);
		return rdc_fail(ctx, &err);
	}
	rc = pfc_plan_files(ctx, t, extra, plan);
	if (rc) {
		free(plan);
		return rc;
	}
	*out = plan;
	return 0;
}

void pfc_report(struct rdc_ctx *ctx, const struct pfc_target *t, const struct rdc_dcb_plan *plan)
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

int pfc_set_run(struct rdc_ctx *ctx, int argc, char **argv)
{
	const struct rdc_action *act = &pfc_actions[1];
	struct rdc_dcb_plan *plan;
	struct rdc_err err = {0};
	struct rdc_dcb_want want;
	struct pfc_extra extra;
	struct pfc_target t;
	struct rdc_args args;
	bool changed, any = false;
	int rc;

	rc = rdc_args_parse(ctx, act, argc, argv, &args);
	if (rc)
		return rc;
	if (!args.given[kw(act, "dev")])
		return rdc_usage_error(ctx, "set: missing 'dev NETDEV'");
	for (int i = 0; act->params[i].name; i++)
		any |= args.given[i] && strcmp(act->params[i].name, "dev");
	if (!any)
		return rdc_usage_error(ctx, "set: nothing to set");
	rc = pfc_want_from_args(ctx, act, &args, &want, &extra);
	if (!rc)
		rc = rdc_writes_allowed(ctx);
	if (!rc)
		rc = pfc_target(ctx, args.value[kw(act, "dev")], &t);
	if (rc)
		return rc;
	rc = pfc_prepare(ctx, &t, &want, &extra, &plan);
	if (rc)
		return rc;
	changed = !rdc_dcb_plan_empty(plan);
	if (changed && !ctx->dry_run && rdc_dcb_plan_apply(t.netdev, plan, &err)) {
		free(plan);
		return rdc_fail(ctx, &err);
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
