// SPDX-License-Identifier: GPL-2.0-or-later
/* undo.c - `rdmactl undo [NETDEV] | undo list` and `rdmactl confirm [NETDEV]` */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "write.h"

/* One journal as the documents show it; @error: why it could not be read or settled. */
static void journal_emit(struct rdc_ctx *ctx, const struct rdc_journal *j, const char *path,
			 const char *error)
{
	struct rdc_out *o = ctx->out;

	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "journal", NULL, path);
	if (!j) {
		rdc_out_str(o, RDC_OUT_TEXT, NULL, "%s", path);
		rdc_out_null(o, "command", NULL);
		rdc_out_null(o, "state", NULL);
		rdc_out_null(o, "pid", NULL);
		rdc_out_null(o, "started_unix_s", NULL);
		rdc_out_null(o, "deadline_unix_s", NULL);
		rdc_out_null(o, "netns_inode", NULL);
		rdc_out_arr_open(o, "netdevs");
		rdc_out_arr_close(o);
		rdc_out_str(o, RDC_OUT_ANY, "error", ": %s", error ? error : "unreadable");
		rdc_out_nl(o);
		rdc_out_obj_close(o);
		return;
	}
	rdc_out_str(o, RDC_OUT_ANY, "command", "%s", j->command);
	rdc_out_str(o, RDC_OUT_ANY, "state", " (%s", rdc_journal_state_name(j->state));
	rdc_out_i64(o, RDC_OUT_ANY, "pid", ", pid %" PRId64 ")", (int64_t)j->pid);
	rdc_out_i64(o, RDC_OUT_MACHINE, "started_unix_s", NULL, j->started);
	if (j->state == RDC_JOURNAL_PENDING)
		rdc_out_i64(o, RDC_OUT_MACHINE, "deadline_unix_s", NULL, j->deadline);
	else
		rdc_out_null(o, "deadline_unix_s", NULL);
	rdc_out_u64(o, RDC_OUT_MACHINE, "netns_inode", NULL, j->netns);
	rdc_out_arr_open(o, "netdevs");
	for (size_t i = 0; i < j->nnetdevs; i++)
		rdc_out_str(o, RDC_OUT_ANY, NULL, i ? ", %s" : " on %s", j->netdevs[i]);
	rdc_out_arr_close(o);
	if (error)
		rdc_out_str(o, RDC_OUT_ANY, "error", ": %s", error);
	else
		rdc_out_null(o, "error", NULL);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

/* ---- undo list ---- */

static int undo_list(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts)
{
	struct rdc_names paths;
	struct rdc_err err = {0};

	(void)act;
	(void)args;
	(void)opts;
	if (rdc_journal_list(&paths, &err))
		return rdc_fail(ctx, &err);
	rdc_out_begin(ctx->out, "undo-list");
	rdc_out_str(ctx->out, RDC_OUT_MACHINE, "directory", NULL, rdc_journal_dir());
	rdc_out_arr_open(ctx->out, "journals");
	for (size_t i = 0; i < paths.count; i++) {
		struct rdc_journal j;
		struct rdc_err why = {0};

		if (rdc_journal_read(paths.names[i], &j, &why)) {
			journal_emit(ctx, NULL, paths.names[i], why.msg);
			continue;
		}
		journal_emit(ctx, &j, paths.names[i], NULL);
		rdc_journal_free(&j);
	}
	rdc_out_arr_close(ctx->out);
	if (!paths.count)
		rdc_out_text(ctx->out, "no undo journal in %s: every write finished\n",
			     rdc_journal_dir());
	rdc_out_end(ctx->out);
	rdc_names_free(&paths);
	return RDC_EXIT_OK;
}

/* ---- undo and confirm: settle the journals of this namespace that hold NETDEV ---- */

/*
 * This namespace's journals (of @ifname when given), in reverse name order
 * (net<INODE>-<PID>-<TIME>): no two hold one netdev (a journal refuses the
 * next write on its netdevs), so the order matters only for messages.
 */
static int journals_here(const char *ifname, struct rdc_names *found, struct rdc_err *err)
{
	unsigned long long netns = rdc_netns_inode();
	struct rdc_names all;
	int rc = rdc_journal_list(&all, err);

	memset(found, 0, sizeof(*found));
	if (rc)
		return rc;
	found->names = calloc(all.count ? all.count : 1, sizeof(*found->names));
	if (!found->names) {
		rdc_names_free(&all);
		return rdc_err_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = all.count; i-- > 0;) {
		struct rdc_journal j;

		/* One that cannot be read is named by `undo list`, not settled blind. */
		if (rdc_journal_read(all.names[i], &j, NULL))
			continue;
		if (rdc_journal_covers(&j, netns, ifname)) {
			found->names[found->count++] = all.names[i];
			all.names[i] = NULL;
		}
		rdc_journal_free(&j);
	}
	rdc_names_free(&all);
	return 0;
}

static int settle_run(struct rdc_ctx *ctx, const struct rdc_args *args, bool restore)
{
	struct rdc_names found;
	struct rdc_err err = {0};
	int rc, failed = 0;
	size_t done = 0;

	if (ctx->confirm_s)
		return rdc_usage_error(ctx, "--confirm SEC is for writes, not '%s'", ctx->verb);
	if (args->object && !rdc_ifname_valid(args->object))
		return rdc_usage_error(ctx, "'%s' is not an interface name", args->object);
	rc = rdc_writes_allowed(ctx);
	if (rc)
		return rc;
	if (journals_here(args->object, &found, &err))
		return rdc_fail(ctx, &err);
	if (!found.count && !restore) {
		rdc_names_free(&found);
		rdc_err_set_plain(&err, ENOENT,
				  "no change awaits confirmation%s%s (restored already?)",
				  args->object ? " on " : "", args->object ? args->object : "");
		return rdc_fail(ctx, &err);
	}
	rdc_out_begin(ctx->out, "undo-change");
	rdc_out_str(ctx->out, RDC_OUT_MACHINE, "action", NULL, restore ? "undo" : "confirm");
	rdc_out_arr_open(ctx->out, "journals");
	for (size_t i = 0; i < found.count; i++) {
		struct rdc_journal j;
		struct rdc_err why = {0};

		if (ctx->dry_run) {
			if (!rdc_journal_read(found.names[i], &j, &why)) {
				journal_emit(ctx, &j, found.names[i], NULL);
				rdc_journal_free(&j);
				done++;
			}
			continue;
		}
		rc = rdc_journal_settle(found.names[i], restore, &j, &why);
		if (rc == -ENOENT)
			continue; /* settled by another run meanwhile */
		if (rc == -EAGAIN)
			rc = -EBUSY;
		journal_emit(ctx, j.pid ? &j : NULL, found.names[i], rc ? why.msg : NULL);
		rdc_journal_free(&j);
		if (rc) {
			if (!failed++)
				err = why;
		} else {
			done++;
		}
	}
	rdc_out_arr_close(ctx->out);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, done && !ctx->dry_run);
	rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	ctx->would_change = done > 0;
	if (!found.count)
		rdc_out_text(ctx->out, "nothing to undo%s%s: every write finished\n",
			     args->object ? " on " : "", args->object ? args->object : "");
	else if (done)
		rdc_out_text(ctx->out, "%s%zu change%s %s\n", ctx->dry_run ? "dry run: " : "", done,
			     done == 1 ? "" : "s",
			     ctx->dry_run ? (restore ? "would be undone" : "would be kept")
			     : restore	  ? "undone: the state before is back"
					  : "confirmed: kept as it is");
	rdc_out_end(ctx->out);
	rdc_names_free(&found);
	if (failed)
		return rdc_fail(ctx, &err);
	/* Every one settled meanwhile (the watcher at its deadline): nothing was kept. */
	if (!restore && !done && !ctx->dry_run) {
		rdc_err_set_plain(&err, ENOENT,
				  "nothing confirmed: the change was settled meanwhile (restored "
				  "at its deadline?)");
		return rdc_fail(ctx, &err);
	}
	return RDC_EXIT_OK;
}

static int undo_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		    void *opts)
{
	(void)act;
	(void)opts;
	ctx->journal_exempt = true;
	return settle_run(ctx, args, true);
}

static int confirm_run(struct rdc_ctx *ctx, const struct rdc_action *act,
		       const struct rdc_args *args, void *opts)
{
	(void)act;
	(void)opts;
	ctx->journal_exempt = true;
	return settle_run(ctx, args, false);
}

static const struct rdc_param no_params[] = {{.name = NULL}};

static const struct rdc_action undo_actions[] = {
	{.name = "restore",
	 .synopsis = "[NETDEV]",
	 .help = "put back the state before each write that did not finish or awaits confirmation",
	 .run = undo_run,
	 .params = no_params,
	 .object = RDC_COMPLETE_NETDEV,
	 .flags = RDC_ACT_MUTATES},
	{.name = "list",
	 .synopsis = "",
	 .help = "every undo journal: its command, state, netdevs",
	 .run = undo_list,
	 .params = no_params},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_undo = {
	.name = "undo",
	.summary = "put back the state before a write that did not finish or was not confirmed",
	.actions = undo_actions,
};

static const struct rdc_action confirm_actions[] = {
	{.name = "keep",
	 .synopsis = "[NETDEV]",
	 .help = "keep a write made with --confirm SEC (or one that did not finish) as it is",
	 .run = confirm_run,
	 .params = no_params,
	 .object = RDC_COMPLETE_NETDEV,
	 .flags = RDC_ACT_MUTATES},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_confirm = {
	.name = "confirm",
	.summary = "keep a write made with --confirm SEC before its deadline restores the state",
	.actions = confirm_actions,
};
