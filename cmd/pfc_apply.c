// SPDX-License-Identifier: GPL-2.0-or-later
/* pfc_apply.c - `rdmactl pfc apply`: a lossless profile or a YAML file, all or nothing */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "seam/fs.h"
#include "pfc.h"

/* Every word a file device may hold (config.h limits), and the keywords naming them. */
#define APPLY_MAX_WORDS (RDC_CFG_MAX_KEYS * (RDC_CFG_MAX_WORDS + 1) + 2)

/* Words for the set grammar, built in owned storage. */
struct words {
	int argc;
	bool overflow; /* a word did not fit: the list is not what was asked */
	char *argv[APPLY_MAX_WORDS];
	char store[APPLY_MAX_WORDS][64];
};

static void word(struct words *w, const char *fmt, ...) RDC_PRINTF(2, 3);
static void word(struct words *w, const char *fmt, ...)
{
	va_list ap;

	int n;

	if (w->argc >= APPLY_MAX_WORDS) {
		w->overflow = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(w->store[w->argc], sizeof(w->store[0]), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(w->store[0]))
		w->overflow = true;
	w->argv[w->argc] = w->store[w->argc];
	w->argc++;
}

struct profile {
	uint32_t prio, dscp, cnp_dscp, cnp_prio;
};

/*
 * roce-lossless, the settings NVIDIA's and the switch vendors' RoCE guides
 * agree on: DSCP trust; RoCE data on DSCP 26 -> priority 3 -> TC 3, PFC on
 * that priority only, ETS 50/50 with TC 0; CNPs on DSCP 48 -> priority 6 ->
 * TC 6, strict and not PFC-enabled; RDMA-CM ToS = DSCP << 2 | ECT(0); ECN
 * and the CNP DSCP/priority where the driver exposes them.
 */
static void profile_words(const struct pfc_target *t, const struct profile *p, struct words *w)
{
	word(w, "dev");
	word(w, "%s", t->netdev);
	word(w, "trust");
	word(w, "dscp");
	word(w, "dscp-prio");
	word(w, "%u:%u", p->dscp, p->prio);
	word(w, "%u:%u", p->cnp_dscp, p->cnp_prio);
	word(w, "prio-pfc");
	word(w, "all:off");
	word(w, "%u:on", p->prio);
	word(w, "prio-tc");
	word(w, "all:0");
	word(w, "%u:%u", p->prio, p->prio);
	word(w, "%u:%u", p->cnp_prio, p->cnp_prio);
	word(w, "tc-tsa");
	word(w, "all:strict");
	word(w, "0:ets");
	word(w, "%u:ets", p->prio);
	word(w, "tc-bw");
	word(w, "all:0");
	if (p->prio == 0) {
		word(w, "0:100");
	} else {
		word(w, "0:50");
		word(w, "%u:50", p->prio);
	}
	if (rdc_fs_exists("/sys/class/net/%s/ecn", t->netdev)) {
		word(w, "ecn");
		word(w, "%u:on", p->prio);
	}
	if (t->nports && rdc_fs_exists("/sys/kernel/config/rdma_cm")) {
		word(w, "roce-tos");
		word(w, "%u", p->dscp << 2 | 2);
		word(w, "roce-mode");
		word(w, "v2");
	}
}

struct apply_job {
	struct pfc_target t;
	struct rdc_dcb_plan *plan;
};

/* The profile keys of apply, from the command line or one file entry. */
static int profile_parse(struct rdc_ctx *ctx, const char *name, const char *prio, const char *dscp,
			 const char *cnp_dscp, const char *cnp_prio, struct profile *p)
{
	int rc;

	if (strcmp(name, "roce-lossless"))
		return rdc_usage_error(ctx, "apply: unknown profile '%s' (roce-lossless)", name);
	*p = (struct profile){.prio = 3, .dscp = 26, .cnp_dscp = 48, .cnp_prio = 6};
	rc = prio ? rdc_arg_u32(ctx, "prio", prio, 0, 7, &p->prio) : 0;
	if (!rc && dscp)
		rc = rdc_arg_u32(ctx, "dscp", dscp, 0, 63, &p->dscp);
	if (!rc && cnp_dscp)
		rc = rdc_arg_u32(ctx, "cnp-dscp", cnp_dscp, 0, 63, &p->cnp_dscp);
	if (!rc && cnp_prio)
		rc = rdc_arg_u32(ctx, "cnp-prio", cnp_prio, 0, 7, &p->cnp_prio);
	if (rc)
		return rc;
	if (p->prio == p->cnp_prio)
		return rdc_usage_error(ctx, "apply: CNPs must not share the lossless priority %u",
				       p->prio);
	if (p->dscp == p->cnp_dscp)
		return rdc_usage_error(ctx, "apply: RoCE data and CNPs need different DSCPs");
	return 0;
}

/* Words -> want -> read and plan: nothing is written here. */
static int job_prepare(struct rdc_ctx *ctx, struct words *w, const struct profile *prof,
		       struct apply_job *job)
{
	const struct rdc_action *set = &pfc_actions[1];
	struct rdc_dcb_want want;
	struct pfc_extra extra;
	struct rdc_args args;
	int rc;

	if (w->overflow)
		return rdc_usage_error(ctx, "apply: a value is longer than %zu characters",
				       sizeof(w->store[0]) - 1);
	rc = rdc_args_parse(ctx, set, w->argc, w->argv, &args);
	if (!rc)
		rc = pfc_want_from_args(ctx, set, &args, &want, &extra);
	if (rc)
		return rc;
	if (prof) {
		extra.cnp_dscp = (int)prof->cnp_dscp;
		extra.cnp_prio = (int)prof->cnp_prio;
	}
	return pfc_prepare(ctx, &job->t, &want, &extra, &job->plan);
}

static int jobs_from_file(struct rdc_ctx *ctx, const char *path, struct apply_job *jobs,
			  size_t *njobs)
{
	struct rdc_err err = {0};
	struct rdc_cfg *cfg = calloc(1, sizeof(*cfg));
	int rc = 0;

	if (!cfg)
		return RDC_EXIT_FAIL;
	if (rdc_cfg_load(path, cfg, &err)) {
		rdc_cfg_free(cfg);
		free(cfg);
		return rdc_fail(ctx, &err);
	}
	for (size_t i = 0; i < cfg->ndevices && !rc; i++) {
		const struct rdc_cfg_device *d = &cfg->devices[i];
		const char *pkeys[5] = {NULL}, *dev = NULL;
		static const char *const pnames[5] = {"profile", "prio", "dscp", "cnp-dscp",
						      "cnp-prio"};
		struct words *w = calloc(1, sizeof(*w));
		struct profile prof;
		bool other = false;

		if (!w) {
			rc = RDC_EXIT_FAIL;
			break;
		}
		for (size_t k = 0; k < d->nkeys; k++) {
			bool is_profile = false;

			if (!strcmp(d->keys[k].key, "dev") && d->keys[k].nwords == 1)
				dev = d->keys[k].words[0];
			for (int p = 0; p < 5; p++)
				if (!strcmp(d->keys[k].key, pnames[p]) && d->keys[k].nwords == 1) {
					pkeys[p] = d->keys[k].words[0];
					is_profile = true;
				}
			other |= !is_profile && strcmp(d->keys[k].key, "dev");
		}
		if (!dev) {
			rc = rdc_usage_error(ctx, "%s line %u: device without 'dev: NETDEV'", path,
					     d->line);
		} else if (pkeys[0] && other) {
			rc = rdc_usage_error(ctx,
					     "%s line %u: a profile device takes only prio, "
					     "dscp, cnp-dscp and cnp-prio",
					     path, d->line);
		} else if (!pkeys[0] && (pkeys[1] || pkeys[2] || pkeys[3] || pkeys[4])) {
			rc = rdc_usage_error(ctx, "%s line %u: prio/dscp/cnp-* need 'profile'",
					     path, d->line);
		}
		if (!rc)
			rc = pfc_target(ctx, dev, &jobs[*njobs].t);
		if (!rc && pkeys[0]) {
			rc = profile_parse(ctx, pkeys[0], pkeys[1], pkeys[2], pkeys[3], pkeys[4],
					   &prof);
			if (!rc)
				profile_words(&jobs[*njobs].t, &prof, w);
		} else if (!rc) {
			for (size_t k = 0; k < d->nkeys; k++) {
				word(w, "%s", d->keys[k].key);
				for (size_t n = 0; n < d->keys[k].nwords; n++)
					word(w, "%s", d->keys[k].words[n]);
			}
		}
		if (!rc) {
			rc = job_prepare(ctx, w, pkeys[0] ? &prof : NULL, &jobs[*njobs]);
			if (rc)
				fprintf(stderr, "%s: pfc: in '%s', the device at line %u\n",
					ctx->prog, path, d->line);
		}
		if (!rc)
			(*njobs)++;
		free(w);
	}
	rdc_cfg_free(cfg);
	free(cfg);
	return rc;
}

int pfc_apply_run(struct rdc_ctx *ctx, int argc, char **argv)
{
	const struct rdc_action *act = &pfc_actions[2];
	struct apply_job *jobs;
	struct rdc_err err = {0};
	struct rdc_args args;
	size_t njobs = 0, done = 0;
	bool changed = false;
	int rc;

	rc = rdc_args_parse(ctx, act, argc, argv, &args);
	if (rc)
		return rc;
	jobs = calloc(RDC_CFG_MAX_DEVICES, sizeof(*jobs));
	if (!jobs)
		return RDC_EXIT_FAIL;
	if (args.given[rdc_param_index(act, "-f")]) {
		/* Refused before reading any device, as the profile form is. */
		rc = rdc_writes_allowed(ctx);
		if (!rc)
			rc = jobs_from_file(ctx, args.value[rdc_param_index(act, "-f")], jobs,
					    &njobs);
	} else if (!args.given[rdc_param_index(act, "dev")] ||
		   !args.given[rdc_param_index(act, "profile")]) {
		rc = rdc_usage_error(ctx, "apply: give 'dev NETDEV profile NAME' or '-f FILE'");
	} else {
		struct words *w = calloc(1, sizeof(*w));
		struct profile prof;

		rc = w ? 0 : RDC_EXIT_FAIL;
		if (!rc)
			rc = profile_parse(ctx, args.value[rdc_param_index(act, "profile")],
					   args.value[rdc_param_index(act, "prio")],
					   args.value[rdc_param_index(act, "dscp")],
					   args.value[rdc_param_index(act, "cnp-dscp")],
					   args.value[rdc_param_index(act, "cnp-prio")], &prof);
		if (!rc)
			rc = rdc_writes_allowed(ctx);
		if (!rc)
			rc = pfc_target(ctx, args.value[rdc_param_index(act, "dev")], &jobs[0].t);
		if (!rc) {
			profile_words(&jobs[0].t, &prof, w);
			rc = job_prepare(ctx, w, &prof, &jobs[0]);
		}
		njobs = rc ? 0 : 1;
		free(w);
	}
	if (!rc)
		rc = rdc_writes_allowed(ctx);
	/* Everything is read and planned; now write, and undo earlier devices on a failure. */
	for (done = 0; !rc && done < njobs; done++) {
		if (rdc_dcb_plan_empty(jobs[done].plan) || ctx->dry_run)
			continue;
		changed = true;
		if (rdc_dcb_plan_apply(jobs[done].t.netdev, jobs[done].plan, &err)) {
			for (size_t k = done; k-- > 0;) {
				struct rdc_err undo = {0};

				if (!rdc_dcb_plan_empty(jobs[k].plan) &&
				    rdc_dcb_plan_revert(jobs[k].t.netdev, jobs[k].plan, &undo))
					rdc_err_detail(&err, "restoring '%s' failed too: %s: %s",
						       jobs[k].t.netdev, undo.msg,
						       strerror(undo.code));
			}
			rc = rdc_fail(ctx, &err);
		}
	}
	if (!rc) {
		for (size_t i = 0; i < njobs; i++)
			changed |= !rdc_dcb_plan_empty(jobs[i].plan);
		rdc_out_begin(ctx->out);
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
		rdc_out_arr_open(ctx->out, "devices");
		for (size_t i = 0; i < njobs; i++)
			pfc_report(ctx, &jobs[i].t, jobs[i].plan);
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
	}
	for (size_t i = 0; i < njobs; i++)
		free(jobs[i].plan);
	free(jobs);
	return rc;
}
