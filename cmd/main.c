// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - global options, the verb table walk, the one exit point */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/version.h>
#include <yaml.h>

#include "base/log.h"
#include "base/netns.h"
#include "base/util.h"
#include "host/ibdev.h"
#include "host/netdev.h"
#include "host/bundle.h"
#include "host/system.h"
#include "cmd.h"
#include "signals.h"
#include "stdout_copy.h"
#include "write.h"

struct main_opts {
	const char *root;
	const char *record;
	const char *replay;
	const char *color; /* auto, always, never */
	const char *netns; /* -n NETNS */
	int verbose;
	bool json;
	bool yaml;
	bool quiet;
	bool help;
	bool version;
};

static bool want_color(const char *when)
{
	const char *no_color = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if (!strcmp(when, "always"))
		return true;
	if (!strcmp(when, "never"))
		return false;
	/* auto: a terminal, and the user has not asked for no colour (no-color.org). */
	if (no_color && *no_color)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(STDOUT_FILENO);
}

/* An option getopt refused: unknown, ambiguous or missing its value, with a hint. */
static int bad_option(struct rdc_ctx *ctx, char **argv)
{
	const char *word = argv[optind - 1];
	const char *hint;

	if (optopt && optopt < 0x100 && word[1] != '-') {
		if (optopt == 'n')
			return rdc_usage_error(ctx, "'-n' needs a value NETNS");
		return rdc_usage_error(ctx, "unknown option '-%c'", optopt);
	}
	hint = rdc_global_closest(word);
	if (hint && strncmp(word + 2, hint, strcspn(word + 2, "=")))
		return rdc_usage_error(ctx, "unknown option '%s'; did you mean '--%s'?", word,
				       hint);
	return rdc_usage_error(ctx, "unknown or incomplete option '%s'", word);
}

/*
 * The output format as far as the options go, set as soon as they are read:
 * a usage error in what follows is a document too.  Both asked: text, and
 * check_global() says why.
 */
static void choose_format(struct rdc_ctx *ctx, const struct main_opts *mo)
{
	ctx->format = mo->json == mo->yaml ? RDC_FMT_TEXT : mo->json ? RDC_FMT_JSON : RDC_FMT_YAML;
}

/*
 * The options in @argv (from 1) up to the first word that is not one; before
 * the verb, and again for those rdc_args_take_globals found after it.
 */
static int parse_global(struct rdc_ctx *ctx, struct main_opts *mo, int argc, char **argv)
{
	char shortopts[32];
	int c;

	opterr = 0;
	optind = 0; /* glibc: start afresh, the second call too */
	/* '+': stop at the verb; everything after it belongs to the verb's own grammar. */
	snprintf(shortopts, sizeof(shortopts), "+%s", rdc_global_short);
	while ((c = getopt_long(argc, argv, shortopts, rdc_global_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			mo->json = true;
			choose_format(ctx, mo); /* a bad option after it is a document */
			break;
		case RDC_OPT_YAML:
			mo->yaml = true;
			choose_format(ctx, mo);
			break;
		case 'p':
			ctx->pretty = true;
			break;
		case RDC_OPT_ROOT:
			mo->root = optarg;
			break;
		case 'v':
			mo->verbose++;
			break;
		case 'q':
			mo->quiet = true;
			break;
		case 'b':
			ctx->brief = true;
			break;
		case RDC_OPT_COLOR:
			mo->color = optarg ? optarg : "always";
			if (strcmp(mo->color, "auto") && strcmp(mo->color, "always") &&
			    strcmp(mo->color, "never"))
				return rdc_usage_error(ctx,
						       "--color: '%s' is not auto, always or never",
						       mo->color);
			break;
		case RDC_OPT_DRY_RUN:
			ctx->dry_run = true;
			break;
		case RDC_OPT_CONFIRM: {
			uint32_t s;

			if (rdc_parse_u32_range(optarg, 1, RDC_CONFIRM_MAX_S, &s))
				return rdc_usage_error(ctx,
						       "--confirm: '%s' is not a number of seconds "
						       "(1 to %d)",
						       optarg, RDC_CONFIRM_MAX_S);
			ctx->confirm_s = s;
			break;
		}
		case RDC_OPT_RECORD:
			mo->record = optarg;
			break;
		case RDC_OPT_REPLAY:
			mo->replay = optarg;
			break;
		case 'n':
			mo->netns = optarg;
			break;
		case 'V':
			mo->version = true;
			break;
		case 'h':
			mo->help = true;
			break;
		default:
			return bad_option(ctx, argv);
		}
	}
	return 0;
}

/* What no single option can say: combinations. */
static int check_global(struct rdc_ctx *ctx, const struct main_opts *mo)
{
	choose_format(ctx, mo);
	if (mo->json && mo->yaml)
		return rdc_usage_error(ctx, "--json and --yaml exclude each other");
	if (mo->quiet && mo->verbose)
		return rdc_usage_error(ctx, "-q and -v exclude each other");
	if (mo->record && (mo->replay || mo->root))
		return rdc_usage_error(
			ctx, "--record records the live kernel: not with --root or --replay");
	if (mo->netns && (mo->replay || mo->root))
		return rdc_usage_error(
			ctx, "-n enters a live network namespace: not with --root or --replay");
	return 0;
}

/*
 * The global options among the verb's words ("port show -j", "diag list
 * --json"), parsed as if they came before it; the verb keeps the rest.
 */
static int parse_after_verb(struct rdc_ctx *ctx, struct main_opts *mo, const struct rdc_cmd *cmd,
			    int *argc, char **argv)
{
	const struct rdc_action *act = &cmd->actions[0];
	char **globals;
	int skip = 0, n = 1, rc;

	if (*argc > 0 && !strcmp(argv[0], "help"))
		return 0;
	for (const struct rdc_action *a = cmd->actions; *argc > 0 && a->name; a++)
		if (!strcmp(a->name, argv[0])) {
			act = a;
			skip = 1;
		}
	globals = calloc((size_t)*argc + 2, sizeof(*globals));
	if (!globals)
		return rdc_oom(ctx);
	globals[0] = (char *)ctx->prog;
	*argc = skip + rdc_args_take_globals(act, *argc - skip, argv + skip, globals, &n);
	rc = n > 1 ? parse_global(ctx, mo, n, globals) : 0;
	if (!rc && optind < n)
		rc = rdc_usage_error(ctx, "unexpected argument '%s'", globals[optind]);
	free(globals);
	return rc;
}

/*
 * A library's version for --version: "runtime" where the library says it
 * (libnl's nl_ver_*, yaml_get_version_string), "build" where it has no
 * call for it (libibverbs, libmnl: pkg-config's answer, compiled in).
 */
struct lib_version {
	const char *name;
	char version[32];
	const char *source;
};

/*
 * libibverbs' pkg-config version is LIBIBVERBS_MAJOR.MINOR.RDMA_CORE
 * ("1.14.44.0"): rdma-core's release is what follows the second dot.
 */
static void ibverbs_versions(struct lib_version *rdma_core, struct lib_version *ibverbs)
{
	const char *v = RDC_IBVERBS_VERSION, *dot = strchr(v, '.');
	const char *second = dot ? strchr(dot + 1, '.') : NULL;

	snprintf(rdma_core->version, sizeof(rdma_core->version), "%s", second ? second + 1 : v);
	snprintf(ibverbs->version, sizeof(ibverbs->version), "%.*s",
		 second ? (int)(second - v) : (int)strlen(v), v);
}

static int print_version(struct rdc_ctx *ctx)
{
	struct lib_version libs[] = {
		{.name = "rdma-core", .source = "build"}, {.name = "libibverbs", .source = "build"},
		{.name = "libnl", .source = "runtime"},	  {.name = "libmnl", .source = "build"},
		{.name = "libyaml", .source = "runtime"},
	};
	struct rdc_out *o = rdc_out_new(stdout, ctx->format, ctx->pretty, false);

	if (!o)
		return rdc_oom(ctx);
	ibverbs_versions(&libs[0], &libs[1]);
	snprintf(libs[2].version, sizeof(libs[2].version), "%d.%d.%d", nl_ver_maj, nl_ver_min,
		 nl_ver_mic);
	snprintf(libs[3].version, sizeof(libs[3].version), "%s", RDC_MNL_VERSION);
	snprintf(libs[4].version, sizeof(libs[4].version), "%s", yaml_get_version_string());
	rdc_out_begin(o, "version");
	rdc_out_str(o, RDC_OUT_ANY, "version", "rdmactl %s\n", RDC_VERSION);
	rdc_out_arr_open(o, "libraries");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(libs); i++) {
		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_ANY, "name", "  %-10s ", libs[i].name);
		rdc_out_str(o, RDC_OUT_ANY, "version", "%-9s ", libs[i].version);
		rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, libs[i].source);
		rdc_out_text(o, "%s",
			     !strcmp(libs[i].source, "build") ? "(at build time)" : "(in use)");
		rdc_out_nl(o);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_end(o);
	if (rdc_out_free(o)) {
		fprintf(stderr, "%s: cannot write output\n", ctx->prog);
		return RDC_EXIT_FAIL;
	}
	return RDC_EXIT_OK;
}

/* Choose the file root and the kernel transport; --root replays DIR/kernel.rec if present. */
static int setup_system(struct rdc_ctx *ctx, const struct main_opts *mo)
{
	struct rdc_system_opts so = {.root = mo->root, .record = mo->record, .replay = mo->replay};
	struct rdc_err err = {0};

	return rdc_system_open(&so, &err) ? rdc_fail(ctx, &err) : 0;
}

/* The action's table parses the words and fills its options; the action gets both. */
static int run_action(struct rdc_ctx *ctx, const struct rdc_action *act, int argc, char **argv)
{
	struct rdc_args args;
	void *opts = NULL;
	int rc;

	rc = rdc_args_parse(ctx, act, argc, argv, &args);
	if (rc)
		return rc;
	if (act->opts_size) {
		opts = calloc(1, act->opts_size);
		if (!opts)
			return rdc_oom(ctx);
		if (act->opts_init)
			act->opts_init(opts);
	}
	rc = rdc_args_convert(ctx, act, &args, opts);
	ctx->gate = !(act->flags & RDC_ACT_MUTATES) ? RDC_GATE_NONE
		    : ctx->dry_run		    ? RDC_GATE_DRY
		    : rdc_system_live()		    ? RDC_GATE_OPEN
						    : RDC_GATE_REFUSED;
	ctx->gate_asked = false;
	if (!rc && ctx->confirm_s && !(act->flags & RDC_ACT_MUTATES))
		rc = rdc_usage_error(ctx,
				     "--confirm SEC is for writes (port set, pfc set|apply, "
				     "bond create|set|add|del|apply), not '%s %s'",
				     ctx->verb, act->name);
	if (!rc)
		rc = act->run(ctx, act, &args, opts);
	/* A write awaiting confirmation: after its report, say how; wait on a terminal. */
	if (ctx->journal) {
		if (!rc)
			rc = rdc_confirm_wait(ctx);
		free(ctx->journal);
		ctx->journal = NULL;
	}
	/* A write action that never asked would have written past --root: a bug, said as one. */
	if (!rc && ctx->gate != RDC_GATE_NONE && !ctx->gate_asked) {
		fprintf(stderr,
			"%s: %s: internal error: a write action that did not ask to write\n",
			ctx->prog, ctx->verb);
		rc = RDC_EXIT_FAIL;
	}
	/* A dry run that would change something says so in its status too. */
	if (!rc && ctx->dry_run && ctx->would_change)
		rc = RDC_EXIT_PENDING;
	/* A write verb's netdevs: changed and verified, or undone. */
	rdc_locks_release(&ctx->locks);
	free(opts);
	return rc;
}

static int run_verb(struct rdc_ctx *ctx, const struct rdc_cmd *cmd, int argc, char **argv)
{
	const struct rdc_action *act = &cmd->actions[0];
	const char *names[32];
	size_t n = 0;

	ctx->verb = cmd->name;
	if (argc > 0 &&
	    (!strcmp(argv[0], "help") || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		rdc_help_cmd(ctx, cmd);
		return RDC_EXIT_OK;
	}
	if (argc > 0) {
		for (const struct rdc_action *a = cmd->actions; a->name; a++) {
			if (!strcmp(a->name, argv[0]))
				return run_action(ctx, a, argc - 1, argv + 1);
			if (n < RDC_ARRAY_SIZE(names))
				names[n++] = a->name;
		}
		/*
		 * Not an action word: the default action gets it as its object.  A word
		 * that is neither an object nor close to an action is caught there.
		 */
		const char *hint = rdc_closest(argv[0], names, n);
		if (hint && !rdc_ibdev_exists(argv[0]) && !rdc_netdev_exists(argv[0]) &&
		    !strchr(argv[0], '/'))
			return rdc_usage_error(ctx, "unknown action '%s'; did you mean '%s'?",
					       argv[0], hint);
	}
	return run_action(ctx, act, argc, argv);
}

static int unknown_verb(struct rdc_ctx *ctx, const char *word)
{
	const char *names[16];
	size_t n = 0;
	const char *hint;

	for (size_t i = 0; rdc_cmds[i] && n < RDC_ARRAY_SIZE(names); i++)
		names[n++] = rdc_cmds[i]->name;
	hint = rdc_closest(word, names, n);
	if (hint)
		return rdc_usage_error(ctx, "unknown verb '%s'; did you mean '%s'?", word, hint);
	return rdc_usage_error(ctx, "unknown verb '%s'", word);
}

/*
 * A test's strict replay (RDMACTL_REPLAY_STRICT): a request the recording did
 * not expect, or an answer left unused, fails the command after its output.
 */
static int strict_end(const struct rdc_ctx *ctx, int rc)
{
	const char *line;

	if (!rdc_system_strict_end(NULL))
		return rc;
	for (size_t i = 0; (line = rdc_system_strict_line(i)); i++)
		fprintf(stderr, "%s: strict replay: %s\n", ctx->prog, line);
	return rc == RDC_EXIT_OK || rc == RDC_EXIT_PENDING ? RDC_EXIT_FAIL : rc;
}

int main(int argc, char **argv)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .argc = argc, .argv = argv};
	struct main_opts mo = {.color = "auto"};
	const struct rdc_cmd *cmd = NULL;
	const char *base = strrchr(argv[0], '/');
	int rc, out_rc;

	base = base ? base + 1 : argv[0];
	{
		const char *why = NULL;

		/* Before anything is printed: the test suite's copy starts with the first byte. */
		if (rdc_stdout_copy_init(&why)) {
			fprintf(stderr, "rdmactl: %s=%s: %s\n", RDC_STDOUT_COPY_ENV,
				getenv(RDC_STDOUT_COPY_ENV), why);
			return RDC_EXIT_USAGE;
		}
	}
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return rdc_complete(argc - 2, argv + 2);

	/* Busybox style: "rdmactl-port ..." is "rdmactl port ...". */
	if (!strncmp(base, "rdmactl-", 8)) {
		cmd = rdc_cmd_find(base + 8);
		if (!cmd)
			return unknown_verb(&ctx, base + 8);
	}
	rc = parse_global(&ctx, &mo, argc, argv);
	choose_format(&ctx, &mo);
	if (rc)
		return rc;
	argc -= optind;
	argv += optind;
	/* The verb, unless it is help or missing: its words may hold global options too. */
	if (!cmd && argc > 0 && !mo.help && !mo.version && strcmp(argv[0], "help")) {
		cmd = rdc_cmd_find(argv[0]);
		if (!cmd)
			return unknown_verb(&ctx, argv[0]);
		argc--;
		argv++;
	}
	if (cmd) {
		rc = parse_after_verb(&ctx, &mo, cmd, &argc, argv);
		choose_format(&ctx, &mo);
		if (rc)
			return rc;
	}
	rc = check_global(&ctx, &mo);
	if (rc)
		return rc;
	if (mo.quiet)
		rdc_log_init(ctx.prog, RDC_LOG_ERR);
	else if (mo.verbose)
		rdc_log_init(ctx.prog, mo.verbose > 1 ? RDC_LOG_DEBUG : RDC_LOG_INFO);
	else
		rdc_log_init(ctx.prog, RDC_LOG_WARN);
	ctx.quiet = mo.quiet;
	ctx.verbose = mo.verbose;
	ctx.color = want_color(mo.color);
	if (mo.version)
		return print_version(&ctx);
	if (mo.help) {
		if (cmd)
			rdc_help_cmd(&ctx, cmd);
		else
			rdc_help_main(&ctx, stdout);
		return RDC_EXIT_OK;
	}
	if (!cmd) {
		if (argc == 0) {
			/* No verb is a usage error: its help goes where errors go. */
			rdc_help_main(&ctx, stderr);
			return rdc_usage_error(&ctx, "no verb given");
		}
		if (!strcmp(argv[0], "help")) {
			if (argc == 1) {
				rdc_help_main(&ctx, stdout);
				return RDC_EXIT_OK;
			}
			cmd = rdc_cmd_find(argv[1]);
			if (!cmd)
				return unknown_verb(&ctx, argv[1]);
			rdc_help_cmd(&ctx, cmd);
			return RDC_EXIT_OK;
		}
		cmd = rdc_cmd_find(argv[0]);
		if (!cmd)
			return unknown_verb(&ctx, argv[0]);
		argc--;
		argv++;
	}
	ctx.verb = cmd->name;
	if (mo.netns) {
		struct rdc_err err = {0};

		if (rdc_netns_enter(mo.netns, &err))
			return rdc_fail(&ctx, &err);
	}
	rc = setup_system(&ctx, &mo);
	if (rc)
		return rc;
	ctx.out = rdc_out_new(stdout, ctx.format, ctx.pretty, ctx.color);
	if (!ctx.out) {
		rdc_system_close();
		return rdc_oom(&ctx);
	}
	rc = run_verb(&ctx, cmd, argc, argv);
	rdc_error_document_end(&ctx, rc);
	out_rc = rdc_out_free(ctx.out);
	/* Its output is closed: a failure said after this is stderr's alone. */
	ctx.out = NULL;
	ctx.error_documented = true;
	rdc_system_close();
	{
		struct rdc_err rec_err = {0};

		/* A recording asked for and lost is a failure, whatever the verb said. */
		if (rdc_system_record_result(&rec_err)) {
			rdc_fail(&ctx, &rec_err);
			rc = RDC_EXIT_FAIL;
		}
		/* So is a --root bundle's scratch folder that could not be removed. */
		rec_err = (struct rdc_err){0};
		if (rdc_bundle_remove_result(&rec_err)) {
			rdc_fail(&ctx, &rec_err);
			rc = RDC_EXIT_FAIL;
		}
	}
	/*
	 * Output that did not arrive is a failure whatever the verdict was: exit 3
	 * ("warnings") over a full disk would read as a success with warnings.  A
	 * reader that left (EPIPE, `| head -1`) wanted no more: not an error.
	 */
	if (out_rc && out_rc != -EPIPE) {
		fprintf(stderr, "%s: cannot write output: %s\n", ctx.prog, strerror(-out_rc));
		rc = RDC_EXIT_FAIL;
	}
	rc = strict_end(&ctx, rc);
	/*
	 * A message that could not be written (stderr on a full disk or a closed
	 * pipe) cannot say so, but the status can: a success or "warnings" whose
	 * explanation was lost is a failure.  A usage error stays one.
	 */
	if ((fflush(stderr) != 0 || ferror(stderr)) &&
	    (rc == RDC_EXIT_OK || rc == RDC_EXIT_WARN || rc == RDC_EXIT_PENDING))
		rc = RDC_EXIT_FAIL;
	rdc_sig_die_if_interrupted();
	return rc;
}
