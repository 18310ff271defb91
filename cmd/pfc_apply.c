// SPDX-License-Identifier: GPL-2.0-or-later
/* pfc_apply.c - `rdmactl pfc apply`: a lossless profile or a YAML file, all or nothing */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/log.h"
#include "base/util.h"
#include "host/netdev.h"
#include "pfc.h"
#include "signals.h"
#include "write.h"

/* A profile and its parameters as given: one that contradicts itself is a usage error. */
static int profile_check(struct rdc_ctx *ctx, const struct rdc_args *args,
			 const struct rdc_dcb_profile *p)
{
	struct rdc_err err = {0};

	if (rdc_dcb_profile_check(p, &err))
		return rdc_arg_error(ctx, args, -1, "apply: %s", err.msg);
	return 0;
}

static bool targets_have(const struct rdc_dcb_targets *ts, const char *netdev)
{
	for (size_t i = 0; i < ts->count; i++)
		if (!strcmp(ts->items[i].netdev, netdev))
			return true;
	return false;
}

int pfc_jobs_add(struct rdc_ctx *ctx, const char *dev, const struct rdc_dcb_profile *prof,
		 const struct rdc_dcb_want *want, struct pfc_jobs *jobs, unsigned int line)
{
	struct rdc_dcb_targets ts;
	struct rdc_err err = {0};
	struct pfc_job *grown;
	int rc = 0;

	if (!jobs->only) {
		rc = pfc_targets(ctx, dev, &ts);
		if (rc)
			return rc;
	} else if (pfc_targets_of(dev, &ts, &err)) {
		/* Not on this host (yet): a device of the file, never the one asked for. */
		log_info("pfc: line %u: %s: passed over", line, err.msg);
		return 0;
	}
	grown = realloc(jobs->items, (jobs->count + ts.count + 1) * sizeof(*grown));
	if (!grown) {
		rdc_dcb_targets_free(&ts);
		return rdc_oom(ctx);
	}
	jobs->items = grown;
	/* One plan per netdev behind the name (a bond's members): nothing is written here. */
	for (size_t i = 0; i < ts.count && !rc; i++) {
		struct pfc_job *job = &jobs->items[jobs->count];
		struct rdc_dcb_want profile_want;
		const struct rdc_dcb_want *w = want;

		if (jobs->only && !targets_have(jobs->only, ts.items[i].netdev)) {
			log_info("pfc: line %u: %s is not %s: passed over", line,
				 ts.items[i].netdev, jobs->only_name);
			continue;
		}
		memset(job, 0, sizeof(*job));
		job->t = ts.items[i];
		job->line = line;
		if (prof) {
			rdc_dcb_profile_want(prof, &job->t, &profile_want);
			w = &profile_want;
		}
		/* Locked before its state is read: held until the run ends. */
		rc = rdc_lock_netdev(ctx, job->t.netdev);
		if (!rc)
			rc = pfc_prepare(ctx, &job->t, w, &job->plan);
		if (!rc)
			jobs->count++;
	}
	rdc_dcb_targets_free(&ts);
	return rc;
}

static void pfc_jobs_free(struct pfc_jobs *jobs)
{
	for (size_t i = 0; i < jobs->count; i++)
		free(jobs->items[i].plan);
	free(jobs->items);
	jobs->items = NULL;
	jobs->count = 0;
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
 * a profile device through apply's, a keyword device through set's.  A bond
 * adds a job per member.
 */
static int job_from_cfg(struct rdc_ctx *ctx, const struct rdc_action *apply, const char *path,
			const struct rdc_cfg_device *d, struct pfc_jobs *jobs)
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
		return rc ? rc : pfc_jobs_add(ctx, ao.dev, &ao.profile, NULL, jobs, d->line);
	}
	pfc_set_defaults(&so);
	rc = rdc_args_from_cfg(ctx, set, path, d, NULL, NULL, &args);
	if (!rc)
		rc = rdc_args_convert(ctx, set, &args, &so);
	if (!rc)
		rc = pfc_set_check(ctx, &args, &so);
	return rc ? rc : pfc_jobs_add(ctx, so.dev, NULL, &so.want, jobs, d->line);
}

/*
 * A netdev once per file: twice would write it twice, the second undoing part
 * of the first, and a rollback would restore the wrong "before".  Compared
 * after resolving, so an RDMA device and its netdev, or a bond and its
 * member, are the same device too.  @from: the first job the last device added.
 */
static int job_unique(struct rdc_ctx *ctx, const char *path, const struct pfc_jobs *jobs,
		      size_t from)
{
	for (size_t k = from; k < jobs->count; k++) {
		const struct pfc_job *job = &jobs->items[k];

		for (size_t i = 0; i < from; i++)
			if (!strcmp(jobs->items[i].t.netdev, job->t.netdev))
				return rdc_usage_error(
					ctx, "%s line %u: '%s' is also the device at line %u", path,
					job->line, job->t.netdev, jobs->items[i].line);
	}
	return 0;
}

static int jobs_from_file(struct rdc_ctx *ctx, const struct rdc_action *apply, const char *path,
			  struct pfc_jobs *jobs)
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
		size_t from = jobs->count;

		rc = job_from_cfg(ctx, apply, path, &cfg->devices[i], jobs);
		if (!rc)
			rc = job_unique(ctx, path, jobs, from);
		if (rc)
			fprintf(stderr, "%s: pfc: in '%s', the device at line %u\n", ctx->prog,
				path, cfg->devices[i].line);
	}
	rdc_cfg_free(cfg);
	free(cfg);
	return rc;
}

/*
 * Everything is read and planned; now write, and undo earlier netdevs on a
 * failure (a bond's members: all or none).  Writing and undoing are one
 * critical section (signals.h): a SIGINT or SIGTERM stops before the next
 * netdev and undoes every netdev written, the one under way included.
 */
static int pfc_jobs_write(struct rdc_ctx *ctx, const struct pfc_jobs *jobs)
{
	size_t n = jobs->count ? jobs->count : 1;
	struct rdc_dcb_change *dcs = calloc(n, sizeof(*dcs));
	struct rdc_change *changes = calloc(n, sizeof(*changes));
	struct rdc_change_result res;
	struct rdc_err err = {0};

	if (ctx->dry_run || !dcs || !changes) {
		free(dcs);
		free(changes);
		return ctx->dry_run ? 0 : rdc_oom(ctx);
	}
	for (size_t i = 0; i < jobs->count; i++) {
		dcs[i].ifname = jobs->items[i].t.netdev;
		dcs[i].plan = jobs->items[i].plan;
		changes[i].ops = &rdc_dcb_change_ops;
		changes[i].plan = &dcs[i];
	}
	rdc_sig_defer_begin();
	rdc_write_commit(ctx, changes, jobs->count, rdc_sig_flag(), &res, &err);
	free(dcs);
	free(changes);
	return rdc_sig_finish(ctx, res.rc, &err, res.undo_rc, &res.undo);
}

static void pfc_jobs_report(struct rdc_ctx *ctx, const struct pfc_jobs *jobs)
{
	bool changed = false;

	for (size_t i = 0; i < jobs->count; i++)
		changed |= !rdc_dcb_plan_empty(jobs->items[i].plan);
	rdc_out_begin(ctx->out, "pfc-change");
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	ctx->would_change = changed;
	rdc_out_arr_open(ctx->out, "netdevs");
	for (size_t i = 0; i < jobs->count; i++)
		pfc_report(ctx, &jobs->items[i].t, jobs->items[i].plan);
	rdc_out_arr_close(ctx->out);
	if (!jobs->count && jobs->only_name)
		rdc_out_text(ctx->out,
			     "%s: nothing in %s for it: nothing to change (nothing sent)\n",
			     jobs->only_name, jobs->file);
	rdc_out_end(ctx->out);
}

int pfc_jobs_finish(struct rdc_ctx *ctx, struct pfc_jobs *jobs, int rc)
{
	if (!rc)
		rc = pfc_jobs_write(ctx, jobs);
	if (!rc)
		pfc_jobs_report(ctx, jobs);
	pfc_jobs_free(jobs);
	return rc;
}

/*
 * The netdevs `-f FILE dev NETDEV` names must be there: a name that is no
 * netdev would find nothing in any file and exit 0, hiding a typo.  A netdev
 * is one sysfs lists, or one whose DCB answers (a driver's, or a double's).
 */
static int only_present(struct rdc_ctx *ctx, const struct rdc_dcb_targets *only)
{
	struct rdc_dcb *dcb = malloc(sizeof(*dcb));
	struct rdc_err err = {0};
	int rc = 0;

	if (!dcb)
		return rdc_oom(ctx);
	for (size_t i = 0; i < only->count && !rc; i++) {
		const char *nd = only->items[i].netdev;

		if (rdc_netdev_exists(nd) || !rdc_dcb_read(nd, dcb, &err) || err.code == EOPNOTSUPP)
			continue;
		rdc_err_set(&err, ENODEV, "no network interface '%s'", nd);
		rc = rdc_fail(ctx, &err);
	}
	free(dcb);
	return rc;
}

int pfc_apply_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts)
{
	const struct pfc_apply_opts *ao = opts;
	struct rdc_dcb_targets only = {0};
	struct pfc_jobs jobs = {0};
	int rc;

	if (!ao->file && (!ao->dev || !ao->profile.name))
		return rdc_usage_error(ctx, "apply: give 'dev NETDEV profile NAME' or '-f FILE'");
	if (!ao->file && (rc = profile_check(ctx, args, &ao->profile)))
		return rc;
	/* A real write is refused before reading any device or file; a dry run plans. */
	rc = rdc_writes_allowed(ctx);
	if (rc)
		return rc;
	if (!ao->file) {
		rc = pfc_jobs_add(ctx, ao->dev, &ao->profile, NULL, &jobs, 0);
		return pfc_jobs_finish(ctx, &jobs, rc);
	}
	/* -f FILE dev NETDEV (a NIC that appeared, udev's rdmactl-pfc@.service): its part only. */
	if (ao->dev) {
		rc = pfc_targets(ctx, ao->dev, &only);
		if (!rc)
			rc = only_present(ctx, &only);
		if (rc) {
			rdc_dcb_targets_free(&only);
			return rc;
		}
		jobs.only = &only;
	}
	jobs.only_name = ao->dev;
	jobs.file = ao->file;
	rc = jobs_from_file(ctx, act, ao->file, &jobs);
	rc = pfc_jobs_finish(ctx, &jobs, rc);
	rdc_dcb_targets_free(&only);
	return rc;
}
