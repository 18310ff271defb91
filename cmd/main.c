// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - global options, the verb table walk, the one exit point */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "host/ibdev.h"
#include "host/netdev.h"
#include "host/system.h"
#include "cmd.h"

enum {
	OPT_YAML = 0x100,
	OPT_ROOT,
	OPT_COLOR,
	OPT_DRY_RUN,
	OPT_RECORD,
	OPT_REPLAY,
};

static const struct option main_options[] = {
	{"json", no_argument, NULL, 'j'},
	{"yaml", no_argument, NULL, OPT_YAML},
	{"pretty", no_argument, NULL, 'p'},
	{"root", required_argument, NULL, OPT_ROOT},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"color", optional_argument, NULL, OPT_COLOR},
	{"dry-run", no_argument, NULL, OPT_DRY_RUN},
	{"record", required_argument, NULL, OPT_RECORD},
	{"replay", required_argument, NULL, OPT_REPLAY},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct main_opts {
	const char *root;
	const char *record;
	const char *replay;
	const char *color; /* auto, always, never */
	int verbose;
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

static int parse_global(struct rdc_ctx *ctx, struct main_opts *mo, int argc, char **argv)
{
	bool json = false, yaml = false;
	int c;

	opterr = 0;
	/* '+': stop at the verb; everything after it belongs to the verb's own grammar. */
	while ((c = getopt_long(argc, argv, "+jpvqVh", main_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case OPT_YAML:
			yaml = true;
			break;
		case 'p':
			ctx->pretty = true;
			break;
		case OPT_ROOT:
			mo->root = optarg;
			break;
		case 'v':
			mo->verbose++;
			break;
		case 'q':
			mo->quiet = true;
			break;
		case OPT_COLOR:
			mo->color = optarg ? optarg : "always";
			if (strcmp(mo->color, "auto") && strcmp(mo->color, "always") &&
			    strcmp(mo->color, "never"))
				return rdc_usage_error(ctx,
						       "--color: '%s' is not auto, always or never",
						       mo->color);
			break;
		case OPT_DRY_RUN:
			ctx->dry_run = true;
			break;
		case OPT_RECORD:
			mo->record = optarg;
			break;
		case OPT_REPLAY:
			mo->replay = optarg;
			break;
		case 'V':
			mo->version = true;
			break;
		case 'h':
			mo->help = true;
			break;
		default:
			if (optopt && optopt < 0x100 && argv[optind - 1][1] != '-')
				return rdc_usage_error(ctx, "unknown option '-%c'", optopt);
			return rdc_usage_error(ctx, "unknown or incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (json && yaml)
		return rdc_usage_error(ctx, "--json and --yaml exclude each other");
	if (mo->quiet && mo->verbose)
		return rdc_usage_error(ctx, "-q and -v exclude each other");
	if (mo->record && (mo->replay || mo->root))
		return rdc_usage_error(
			ctx, "--record records the live kernel: not with --root or --replay");
	ctx->format = json ? RDC_FMT_JSON : yaml ? RDC_FMT_YAML : RDC_FMT_TEXT;
	return 0;
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
	if (!rc)
		rc = act->run(ctx, act, &args, opts);
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
	return rc == RDC_EXIT_OK ? RDC_EXIT_FAIL : rc;
}

int main(int argc, char **argv)
{
	struct rdc_ctx ctx = {.prog = "rdmactl"};
	struct main_opts mo = {.color = "auto"};
	const struct rdc_cmd *cmd = NULL;
	const char *base = strrchr(argv[0], '/');
	int rc, out_rc;

	base = base ? base + 1 : argv[0];
	if (argc > 1 && !strcmp(argv[1], "__complete"))
		return rdc_complete(argc - 2, argv + 2);

	/* Busybox style: "rdmactl-port ..." is "rdmactl port ...". */
	if (!strncmp(base, "rdmactl-", 8)) {
		cmd = rdc_cmd_find(base + 8);
		if (!cmd)
			return unknown_verb(&ctx, base + 8);
	}
	rc = parse_global(&ctx, &mo, argc, argv);
	if (rc)
		return rc;
	if (mo.quiet)
		rdc_log_init(ctx.prog, RDC_LOG_ERR);
	else if (mo.verbose)
		rdc_log_init(ctx.prog, mo.verbose > 1 ? RDC_LOG_DEBUG : RDC_LOG_INFO);
	else
		rdc_log_init(ctx.prog, RDC_LOG_WARN);
	ctx.quiet = mo.quiet;
	ctx.color = want_color(mo.color);
	if (mo.version) {
		printf("rdmactl %s\n", RDC_VERSION);
		return RDC_EXIT_OK;
	}
	argc -= optind;
	argv += optind;
	if (mo.help) {
		if (cmd)
			rdc_help_cmd(&ctx, cmd);
		else
			rdc_help_main(&ctx);
		return RDC_EXIT_OK;
	}
	if (!cmd) {
		if (argc == 0) {
			rdc_help_main(&ctx);
			return RDC_EXIT_USAGE;
		}
		if (!strcmp(argv[0], "help")) {
			if (argc == 1) {
				rdc_help_main(&ctx);
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
	rc = setup_system(&ctx, &mo);
	if (rc)
		return rc;
	ctx.out = rdc_out_new(stdout, ctx.format, ctx.pretty, ctx.color);
	if (!ctx.out) {
		rdc_system_close();
		return rdc_oom(&ctx);
	}
	rc = run_verb(&ctx, cmd, argc, argv);
	out_rc = rdc_out_free(ctx.out);
	rdc_system_close();
	if (out_rc && rc == RDC_EXIT_OK) {
		fprintf(stderr, "%s: cannot write output: %s\n", ctx.prog, strerror(-out_rc));
		rc = RDC_EXIT_FAIL;
	}
	return strict_end(&ctx, rc);
}
