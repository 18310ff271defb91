// SPDX-License-Identifier: GPL-2.0-or-later
/* pfc_apply.c - `rdmactl pfc apply`: a lossless profile or a YAML file, all or nothing */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/util.h"
#include "pfc.h"
#include "signals.h"

struct apply_job {
	struct rdc_dcb_target t;
	struct rdc_dcb_plan *plan;
	unsigned int line; /* the device's line in the file, 0 on the command line */
};

/* A profile and its parameters as given: one that contradicts itself is a usage error. */
static int profile_check(struct rdc_ctx *ctx, const struct rdc_args *args,
			 const struct rdc_dcb_profile *p)
{
	struct rdc_err err = {0};

	if (rdc_dcb_profile_check(p, &err))
		return rdc_arg_error(ctx, args, -1, "apply: %s", err.msg);
	return 0;
}

/* Read and plan one device: nothing is written here. */
static int job_prepare(struct rdc_ctx *ctx, const char *dev, const struct rdc_dcb_profile *prof,
		       const struct rdc_dcb_want *want, struct apply_job *job)
{
	struct rdc_dcb_want profile_want;
	int rc = pfc_target(ctx, dev, &job->t);

	if (rc)
		return rc;
	if (prof) {
		rdc_dcb_profile_want(prof, &job->t, &profile_want);
		want = &profile_want;
	}
	return pfc_prepare(ctx, &job->t, want, &job->plan);
}

/* The keys a profile device may have; anything else makes it a keyword device's. */
static const char *const profile_keys[] = {"dev",      "profile",  "prio", "dscp",
					   "cnp-dscp", "cnp-prio", NULL};

static bool cfg_has(const struct rdc_cfg_device *d, const char *key)
{
	for (size_t k = 0; k < d->nkeys; k++)
		if (!strcmp(d->keys[k].key, key))
			return true;
	return false;
}

/*
 * One device of a file, through the same keyword table as the command line:
 * a profile device through apply's, a keyword device through set's.
 */
static int job_from_cfg(struct rdc_ctx *ctx, const struct rdc_action *apply, const char *path,
			const struct rdc_cfg_device *d, struct apply_job *job)
{
	const struct rdc_action *set = rdc_action_find(&rdc_cmd_pfc, "set");
	bool profile = cfg_has(d, "profile"), other = false, profile_param = false;
	struct pfc_apply_opts ao = {0};
	struct pfc_set_opts so;
	struct rdc_args args;
	int rc;

	for (size_t k = 0; k < d->nkeys; k++) {
		bool is_profile_key = false;

		for (size_t i = 0; profile_keys[i]; i++)
			is_profile_key |= !strcmp(d->keys[k].key, profile_keys[i]);
		other |= !is_profile_key;
		profile_param |= is_profile_key && strcmp(d->keys[k].key, "dev") &&
				 strcmp(d->keys[k].key, "profile");
	}
	if (!cfg_has(d, "dev"))
		return rdc_usage_error(ctx, "%s line %u: device without 'dev: NETDEV'", path,
				       d->line);
	if (profile && other)
		return rdc_usage_error(ctx,
				       "%s line %u: a profile device takes only prio, dscp, "
				       "cnp-dscp and cnp-prio",
				       path, d->line);
	if (!profile && profile_param)
		return rdc_usage_error(ctx, "%s line %u: prio/dscp/cnp-* need 'profile'", path,
				       d->line);
	if (profile) {
		rc = rdc_args_from_cfg(ctx, apply, path, d, profile_keys, NULL, &args);
		if (!rc)
			rc = rdc_args_convert(ctx, apply, &args, &ao);
		if (!rc)
			rc = profile_check(ctx, &args, &ao.profile);
		return rc ? rc : job_prepare(ctx, ao.dev, &ao.profile, NULL, job);
	}
	pfc_set_defaults(&so);
	rc = rdc_args_from_cfg(ctx, set, path, d, NULL, NULL, &args);
	if (!rc)
		rc = rdc_args_convert(ctx, set, &args, &so);
	if (!rc)
		rc = pfc_set_check(ctx, &args, &so);
	return rc ? rc : job_prepare(ctx, so.dev, NULL, &so.want, job);
}

/*
 * A netdev once per file: twice would write it twice, the second undoing part
 * of the first, and a rollback would restore the wrong "before".  Compared
 * after resolving, so an RDMA device and its netdev are the same device too.
 */
static int job_unique(struct rdc_ctx *ctx, const char *path, const struct apply_job *jobs,
		      size_t njobs, const struct apply_job *job)
{
	for (size_t i = 0; i < njobs; i++)
		if (!strcmp(jobs[i].t.netdev, job->t.netdev))
			return rdc_usage_error(ctx,
					       "%s line %u: '%s' is also the device at line %u",
					       path, job->line, job->t.netdev, jobs[i].line);
	return 0;
}

static int jobs_from_file(struct rdc_ctx *ctx, const struct rdc_action *apply, const char *path,
			  struct apply_job *jobs, size_t *njobs)
{
	struct rdc_err err = {0};
	struct rdc_cfg *cfg = calloc(1, sizeof(*cfg));
	int rc = 0;

	if (!cfg)
		return rdc_oom(ctx);
	if (rdc_cfg_load(path, cfg, &err)) {
		rdc_cfg_free(cfg);
		free(cfg);
		return rdc_fail(ctx, &err);
	}
	for (size_t i = 0; i < cfg->ndevices && !rc; i++) {
		struct apply_job *job = &jobs[*njobs];

		job->line = cfg->devices[i].line;
		rc = job_from_cfg(ctx, apply, path, &cfg->devices[i], job);
		if (!rc)
			rc = job_unique(ctx, path, jobs, *njobs, job);
		if (rc) {
			free(job->plan);
			job->plan = NULL;
			fprintf(stderr, "%s: pfc: in '%s', the device at line %u\n", ctx->prog,
				path, cfg->devices[i].line);
		} else {
			(*njobs)++;
		}
	}
	rdc_cfg_free(cfg);
	free(cfg);
	return rc;
}

/*
 * Everything is read and planned; now write, and undo earlier devices on a
 * failure.  Writing and undoing are one critical section (signals.h): a
 * SIGINT or SIGTERM stops before the next device and undoes every device
 * written, the one under way included.
 */
static int jobs_apply(struct rdc_ctx *ctx, struct apply_job *jobs, size_t njobs)
{
	struct rdc_err err = {0}, undo = {0};
	size_t done;
	int rc = 0, undo_rc = 0;

	if (ctx->dry_run)
		return 0;
	rdc_sig_defer_begin();
	for (done = 0; done < njobs && !rdc_sig_pending(); done++) {
		if (rdc_dcb_plan_empty(jobs[done].plan))
			continue;
		/* A failed apply has put its own device back. */
		rc = rdc_dcb_plan_apply(jobs[done].t.netdev, jobs[done].plan, &err);
		if (rc)
			break;
	}
	for (size_t k = done; (rc || rdc_sig_pending()) && k-- > 0;) {
		struct rdc_err one = {0};

		if (rdc_dcb_plan_empty(jobs[k].plan) ||
		    !rdc_dcb_plan_revert(jobs[k].t.netdev, jobs[k].plan, &one))
			continue;
		if (!undo_rc)
			undo = one;
		undo_rc = -1;
		rdc_err_append(&err, "restoring '%s' failed too: %s: %s", jobs[k].t.netdev, one.msg,
			       strerror(one.code));
	}
	return rdc_sig_finish(ctx, rc, &err, undo_rc, &undo);
}

int pfc_apply_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts)
{
	const struct pfc_apply_opts *ao = opts;
	struct apply_job *jobs;
	size_t njobs = 0;
	bool changed = false;
	int rc;

	if (!ao->file && (!ao->dev || !ao->profile.name))
		return rdc_usage_error(ctx, "apply: give 'dev NETDEV profile NAME' or '-f FILE'");
	if (!ao->file && (rc = profile_check(ctx, args, &ao->profile)))
		return rc;
	/* A real write is refused before reading any device or file; a dry run plans. */
	rc = ctx->dry_run ? 0 : rdc_writes_allowed(ctx);
	if (rc)
		return rc;
	jobs = calloc(RDC_CFG_MAX_DEVICES, sizeof(*jobs));
	if (!jobs)
		return rdc_oom(ctx);
	if (ao->file) {
		rc = jobs_from_file(ctx, act, ao->file, jobs, &njobs);
	} else {
		rc = job_prepare(ctx, ao->dev, &ao->profile, NULL, &jobs[0]);
		njobs = rc ? 0 : 1;
	}
	if (!rc)
		rc = jobs_apply(ctx, jobs, njobs);
	if (!rc) {
		for (size_t i = 0; i < njobs; i++)
			changed |= !rdc_dcb_plan_empty(jobs[i].plan);
		rdc_out_begin(ctx->out, "pfc-change");
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
		rdc_out_arr_open(ctx->out, "netdevs");
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
