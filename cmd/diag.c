// SPDX-License-Identifier: GPL-2.0-or-later
/* diag.c - `rdmactl diag`: every check over ports, PFC, bonds and links; `diag list` */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "term.h"
#include "diag/diag.h"
#include "diag_metrics.h"
#include "findings.h"
#include "host/system.h"
#include "port.h"
#include "signals.h"

static const struct rdc_val_seconds interval_range = {.min_s = 0.1, .zero_ok = true};
static const char *const profile_names[] = {"roce-lossless", NULL};
static const int profile_values[] = {1};
static const struct rdc_val_enum profile_enum = {.names = profile_names, .values = profile_values};
static const struct rdc_val_uint prio_range = {
	.min = 0, .max = 7, .size = sizeof(unsigned int), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint dscp_range = {
	.min = 0, .max = 63, .size = sizeof(unsigned int), .given = RDC_VAL_NO_FLAG};

void diag_defaults(void *opts)
{
	struct diag_opts *d = opts;

	d->interval_ns = 5000000000ULL; /* 5 s: long enough for a flap or a pause storm to move */
	d->prio = 3;
	d->dscp = 26;
}

const struct rdc_param diag_run_params[] = {
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "seconds between the two counter samples (0.1-86400, default 5; 0: one sample, "
		 "configuration and cumulative counters only)",
	 .parse = rdc_val_seconds_ns,
	 .dest = offsetof(struct diag_opts, interval_ns),
	 .spec = &interval_range},
	{.name = "check",
	 .metavar = "ID...",
	 .help = "run only these checks (ids or families, see 'diag list')",
	 .words = true,
	 .value_kind = RDC_COMPLETE_CHECK},
	{.name = "skip",
	 .metavar = "ID...",
	 .help = "do not run these checks (ids or families)",
	 .words = true,
	 .value_kind = RDC_COMPLETE_CHECK},
	{.name = "profile",
	 .metavar = "NAME",
	 .help = "judge DCB against this profile: roce-lossless (with prio and dscp)",
	 .suggest = profile_names,
	 .parse = rdc_val_enum,
	 .dest = offsetof(struct diag_opts, profile),
	 .spec = &profile_enum},
	{.name = "prio",
	 .metavar = "P",
	 .help = "the profile's RoCE priority (0-7, default 3)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct diag_opts, prio),
	 .spec = &prio_range},
	{.name = "dscp",
	 .metavar = "D",
	 .help = "the profile's RoCE DSCP (0-63, default 26)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct diag_opts, dscp),
	 .spec = &dscp_range},
	{.name = "-f",
	 .metavar = "POLICY.yaml",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "thresholds (`key: number` lines, keys in 'diag list'); - reads stdin",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct diag_opts, policy_file)},
	{.name = NULL},
};

/* The policy: defaults, then the file, then the profile's words (the command line wins). */
static int policy_make(struct rdc_ctx *ctx, const struct rdc_action *act,
		       const struct rdc_args *args, const struct diag_opts *d,
		       struct rdc_diag_policy *policy)
{
	struct rdc_err err = {0};

	rdc_diag_policy_init(policy);
	if (d->policy_file && rdc_diag_policy_load(d->policy_file, policy, &err))
		return rdc_fail(ctx, &err);
	if ((rdc_arg_given(act, args, "prio") || rdc_arg_given(act, args, "dscp")) && !d->profile)
		return rdc_usage_error(ctx,
				       "run: 'prio' and 'dscp' belong to 'profile roce-lossless'");
	if (rdc_arg_given(act, args, "prio"))
		policy->roce_prio = d->prio;
	if (rdc_arg_given(act, args, "dscp"))
		policy->roce_dscp = d->dscp;
	return 0;
}

static void emit_skipped(struct rdc_out *o, const struct rdc_diag_result *r)
{
	rdc_out_arr_open(o, "skipped");
	for (size_t i = 0; i < r->nskipped; i++) {
		const struct rdc_diag_skip *s = &r->skipped[i];

		struct rdc_tline l;

		rdc_out_obj_open(o, NULL);
		rdc_tline_begin(&l, o, 2, 8);
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "skip");
		rdc_tline_str(&l, RDC_TL_SPACE, "id", "%s", s->id, RDC_COLOR_NONE);
		/* Text names it by its label; JSON by the four keys a finding has. */
		if (s->object[0])
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "%s", s->object);
		findings_emit_object(o, s->device, s->port, s->netdev, s->bond);
		rdc_tline_text(&l, RDC_TL_JOIN, RDC_COLOR_NONE, ":");
		rdc_tline_wrap_str(&l, RDC_TL_SPACE, "reason", s->reason);
		rdc_tline_end(&l);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

/*
 * Does finding @f belong to the group of port @p (NULL: bonds and the host)?
 * A RoCE LAG port is one group per member: a finding naming a member's
 * netdev goes to that member, one about the RDMA port (or the bond) to the first.
 */
static bool finding_in_group(const struct rdc_diag_host *h, const struct rdc_finding *f,
			     const struct rdc_diag_port *p)
{
	if (!p)
		return !f->device[0];
	if (strcmp(f->device, p->port.device) || f->port != p->port.port)
		return false;
	if (p->port.has_netdev && !strcmp(f->netdev, p->port.netdev.name))
		return true;
	if (p->lag_secondary)
		return false;
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *o = &h->ports[i];

		if (o != p && !strcmp(o->port.device, p->port.device) &&
		    o->port.port == p->port.port && o->port.has_netdev &&
		    !strcmp(f->netdev, o->port.netdev.name))
			return false;
	}
	return true;
}

/*
 * Text without -v: the skipped checks in one line (a healthy host skips a
 * dozen that do not apply); -v lists each with its reason, as JSON always does.
 */
static void emit_skipped_count(struct rdc_out *o, const struct rdc_diag_result *r)
{
	size_t n = r->nskipped + r->skips_dropped;

	if (n)
		rdc_out_text(o, "%zu check%s skipped: -v lists %s with why\n", n, n == 1 ? "" : "s",
			     n == 1 ? "it" : "them");
}

/* Findings grouped by port, then bonds and the host; one flat array in JSON. */
static void emit_findings(struct rdc_out *o, const struct rdc_diag_host *h,
			  const struct rdc_diag_result *r, bool brief)
{
	rdc_out_arr_open(o, "findings");
	for (size_t g = 0; g <= h->nports; g++) {
		const struct rdc_diag_port *p = g < h->nports ? &h->ports[g] : NULL;
		bool header = false;

		for (size_t i = 0; i < r->findings.count; i++) {
			const struct rdc_finding *f = &r->findings.items[i];

			if (!finding_in_group(h, f, p))
				continue;
			/* -b: one line each, the object in the line rather than a header. */
			if (brief) {
				findings_emit_brief(o, f);
				continue;
			}
			if (!header) {
				rdc_out_str_color(o, RDC_OUT_TEXT, NULL, "%s\n",
						  p ? p->label : "host and bonds", RDC_COLOR_BOLD);
				header = true;
			}
			findings_emit_one(o, f);
		}
	}
	rdc_out_arr_close(o);
}

static void emit_ports(struct rdc_out *o, const struct rdc_diag_host *h)
{
	rdc_out_arr_open(o, "ports");
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_port *p = &h->ports[i].port;

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, p->device);
		rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, p->port);
		rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL,
			    p->has_netdev ? p->netdev.name : NULL);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

static void emit_summary(struct rdc_out *o, const struct rdc_diag_host *h,
			 const struct rdc_diag_result *r)
{
	const struct rdc_findings *l = &r->findings;

	rdc_out_obj_open(o, "summary");
	/* Counts end in _count where the document has an array of the same name. */
	rdc_out_u64(o, RDC_OUT_ANY, "ports_count", "%" PRIu64 " ports, ", h->nports);
	rdc_out_u64(o, RDC_OUT_ANY, "checks_run", "%" PRIu64 " checks: ", r->nran);
	rdc_out_u64(o, RDC_OUT_ANY, "fail", "%" PRIu64 " failed, ",
		    rdc_findings_count(l, RDC_SEV_FAIL));
	rdc_out_u64(o, RDC_OUT_ANY, "warn", "%" PRIu64 " warnings, ",
		    rdc_findings_count(l, RDC_SEV_WARN));
	rdc_out_u64(o, RDC_OUT_ANY, "info", "%" PRIu64 " notes, ",
		    rdc_findings_count(l, RDC_SEV_INFO));
	rdc_out_u64(o, RDC_OUT_ANY, "skipped_count", "%" PRIu64 " skipped\n",
		    r->nskipped + r->skips_dropped);
	rdc_out_u64(o, RDC_OUT_MACHINE, "dropped", NULL, l->dropped);
	rdc_out_obj_close(o);
}

int diag_report(struct rdc_ctx *ctx, const struct rdc_diag_host *h, const char *const *only,
		size_t nonly, const char *const *skip, size_t nskip)
{
	struct rdc_diag_result *r = malloc(sizeof(*r));
	struct rdc_out *o = ctx->out;
	struct rdc_err err = {0};
	int rc;

	if (!r)
		return rdc_oom(ctx);
	if (rdc_diag_run(h, only, nonly, skip, nskip, r, &err)) {
		rdc_findings_clear(&r->findings);
		free(r);
		return rdc_usage_error(ctx, "%s", err.msg);
	}
	rdc_out_begin(o, "diag-run");
	rdc_out_f64(o, RDC_OUT_MACHINE, "interval_s", NULL, h->interval_s);
	emit_ports(o, h);
	/* -b shapes text only: JSON and YAML are the same with and without it. */
	emit_findings(o, h, r, ctx->brief && rdc_out_is_text(o));
	if (!rdc_out_is_text(o) || ctx->verbose)
		emit_skipped(o, r);
	else if (!ctx->quiet)
		emit_skipped_count(o, r);
	emit_summary(o, h, r);
	rdc_out_end(o);
	rc = findings_exit(&r->findings);
	/*
	 * A file that exists but could not be read was judged as unknown (the
	 * checks that needed it skipped, saying so): one line each on stderr,
	 * and at least exit 1, as port does.
	 */
	for (size_t i = 0; i < h->nports; i++)
		if (port_report_port_issues(ctx, &h->ports[i].port) +
			    port_report_issues(ctx, &h->ports[i].issues) &&
		    rc != RDC_EXIT_FAIL)
			rc = RDC_EXIT_FAIL;
	rdc_findings_clear(&r->findings);
	free(r);
	return rc;
}

/*
 * The counter window in seconds: the one asked for.  Unasked, 5 s on this
 * host, and under --root the bundle's own (0 for a bundle of one sample):
 * a bundle cannot wait, it has what it recorded.
 */
static double diag_interval(const struct rdc_action *act, const struct rdc_args *args,
			    const struct diag_opts *d)
{
	double window;

	if (rdc_arg_given(act, args, "interval") || !rdc_system_rooted())
		return (double)d->interval_ns / 1e9;
	return rdc_system_window(&window) ? 0 : window;
}

static int diag_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		    void *opts)
{
	const struct diag_opts *d = opts;
	struct rdc_diag_select sel = {.count = (size_t)args->nobjects, .names = args->objects};
	int ic = rdc_param_find(act, "check"), is = rdc_param_find(act, "skip");
	struct rdc_diag_host *h = calloc(1, sizeof(*h));
	struct rdc_err err = {0};
	int rc;

	if (!h)
		return rdc_oom(ctx);
	rc = policy_make(ctx, act, args, d, &h->policy);
	/* Names are checked before anything is read: a typo costs no interval. */
	if (!rc) {
		struct rdc_diag_result *probe = malloc(sizeof(*probe));
		struct rdc_diag_host empty = {0};

		if (!probe) {
			rc = rdc_oom(ctx);
		} else if (rdc_diag_run(&empty, args->values[ic], (size_t)args->nvalues[ic],
					args->values[is], (size_t)args->nvalues[is], probe, &err)) {
			rc = rdc_usage_error(ctx, "%s", err.msg);
		}
		if (probe)
			rdc_findings_clear(&probe->findings);
		free(probe);
	}
	if (!rc) {
		volatile sig_atomic_t *stop = rdc_sig_stop_begin(RDC_SIG_STOP_RESTART);

		/* Offline the second sample is the bundle's: nothing to wait for. */
		if (!ctx->quiet && d->interval_ns && rdc_out_is_text(ctx->out) && rdc_system_live())
			fprintf(stderr, "%s: diag: sampling counters for %.1f s\n", ctx->prog,
				(double)d->interval_ns / 1e9);
		if (rdc_diag_host_read(h, &sel, diag_interval(act, args, d), stop, &err))
			rc = rdc_fail(ctx, &err);
		rdc_sig_stop_end();
	}
	if (!rc && !h->nports && !sel.count) {
		/* In a container the usual reason is the RDMA netns mode: say which is in force. */
		const char *hint = rdc_rdma_netns_mode_hint(port_netns_mode());

		fprintf(stderr,
			"%s: diag: this host has no RDMA ports; only host-wide checks ran%s%s%s\n",
			ctx->prog, hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	}
	if (!rc)
		rc = diag_report(ctx, h, args->values[ic], (size_t)args->nvalues[ic],
				 args->values[is], (size_t)args->nvalues[is]);
	rdc_diag_host_free(h);
	free(h);
	return rc;
}

/* ---- diag list ---- */

static int diag_list(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts)
{
	struct rdc_out *o = ctx->out;
	struct rdc_diag_policy policy;

	(void)act;
	(void)args;
	(void)opts;
	rdc_diag_policy_init(&policy);
	rdc_out_begin(o, "diag-list");
	rdc_out_arr_open(o, "checks");
	for (size_t i = 0; i < rdc_diag_nfamilies; i++) {
		const struct rdc_diag_family *fam = rdc_diag_families[i];

		for (size_t k = 0; k < fam->count; k++) {
			const struct rdc_diag_check *c = &fam->checks[k];

			struct rdc_tline l;

			rdc_out_obj_open(o, NULL);
			/* "ID  SEVERITY TITLE", the title wrapped under itself. */
			rdc_tline_begin(&l, o, 0, 36);
			rdc_tline_str(&l, RDC_TL_SPACE, "id", "%-30s", c->id, RDC_COLOR_NONE);
			rdc_out_str(o, RDC_OUT_MACHINE, "family", NULL, fam->name);
			rdc_tline_str(&l, RDC_TL_SPACE, "severity", "%-4s",
				      rdc_severity_name(c->sev), RDC_COLOR_NONE);
			rdc_tline_wrap_str(&l, RDC_TL_SPACE, "title", c->title);
			rdc_tline_end(&l);
			rdc_tline_begin(&l, o, 6, 17);
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "threshold:");
			rdc_tline_wrap_str(&l, RDC_TL_SPACE, "threshold", c->threshold);
			rdc_tline_end(&l);
			rdc_tline_begin(&l, o, 6, 13);
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "reads:");
			rdc_tline_wrap_str(&l, RDC_TL_SPACE, "reads", c->reads);
			rdc_tline_end(&l);
			rdc_out_obj_close(o);
		}
	}
	rdc_out_arr_close(o);
	rdc_out_str(o, RDC_OUT_TEXT, NULL, "%s\n", "\npolicy keys (-f POLICY.yaml), defaults:");
	rdc_out_arr_open(o, "policy");
	for (size_t i = 0; i < rdc_diag_npolicy_keys; i++) {
		const struct rdc_diag_policy_key *k = &rdc_diag_policy_keys[i];
		char value[32];

		rdc_diag_policy_format(&policy, k, value, sizeof(value));
		struct rdc_tline l;

		rdc_out_obj_open(o, NULL);
		rdc_tline_begin(&l, o, 2, 34);
		rdc_tline_str(&l, RDC_TL_SPACE, "key", "%-22s", k->name, RDC_COLOR_NONE);
		/* Text as the policy file would spell it; JSON a number, like min and max. */
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "%-8s", value);
		rdc_out_f64(o, RDC_OUT_MACHINE, "default", NULL, rdc_diag_policy_value(&policy, k));
		rdc_out_f64(o, RDC_OUT_MACHINE, "min", NULL, k->min);
		rdc_out_f64(o, RDC_OUT_MACHINE, "max", NULL, k->max);
		rdc_tline_wrap_str(&l, RDC_TL_SPACE, "help", k->help);
		rdc_tline_end(&l);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_end(o);
	return 0;
}

static const struct rdc_action diag_actions[] = {
	{.name = "run",
	 .synopsis = "[DEV|NETDEV ...] [interval SEC] [check ID...] [skip ID...] "
		     "[profile roce-lossless [prio P] [dscp D]] [-f POLICY.yaml]",
	 .help = "every check on two counter samples; findings with evidence and fix; exit 0/1/3",
	 .run = diag_run,
	 .params = diag_run_params,
	 .object = RDC_COMPLETE_PORT,
	 .objects = true,
	 .opts_size = sizeof(struct diag_opts),
	 .opts_init = diag_defaults},
	{.name = "list",
	 .synopsis = "",
	 .help = "every check: id, severity, threshold, what it reads; the policy keys",
	 .run = diag_list},
	{.name = "collect",
	 .synopsis = "[out FILE.tar.gz] [interval SEC]",
	 .help = "a support bundle: the files and kernel answers diag reads, for --root",
	 .run = diag_collect_run,
	 .params = diag_collect_params,
	 .opts_size = sizeof(struct diag_opts),
	 .opts_init = diag_defaults},
	{.name = "metrics",
	 .synopsis = "[DEV|NETDEV ...] [out FILE] [interval SEC] [-f POLICY.yaml]",
	 .help = "Prometheus metrics node_exporter lacks (hw_counters, pause, PFC, ETS, bonds, "
		 "findings) for its textfile collector",
	 .run = diag_metrics_run,
	 .params = diag_metrics_params,
	 .object = RDC_COMPLETE_PORT,
	 .objects = true,
	 .opts_size = sizeof(struct diag_metrics_opts),
	 .opts_init = diag_metrics_defaults},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_diag = {
	.name = "diag",
	.summary = "find what is wrong across ports, PFC, bonds and links; say why; print the fix",
	.actions = diag_actions,
};
