// SPDX-License-Identifier: GPL-2.0-or-later
/* args.c - keyword-table argument walk, from argv or a YAML device (no prefix matching) */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/log.h"
#include "base/textfmt.h"
#include "base/util.h"
#include "host/ibdev.h"
#include "host/netdev.h"
#include "host/system.h"
#include "cmd.h"
#include "write.h"

const struct option rdc_global_options[16] = {
	{"json", no_argument, NULL, 'j'},
	{"yaml", no_argument, NULL, RDC_OPT_YAML},
	{"pretty", no_argument, NULL, 'p'},
	{"root", required_argument, NULL, RDC_OPT_ROOT},
	{"verbose", no_argument, NULL, 'v'},
	{"quiet", no_argument, NULL, 'q'},
	{"brief", no_argument, NULL, 'b'},
	{"color", optional_argument, NULL, RDC_OPT_COLOR},
	{"dry-run", no_argument, NULL, RDC_OPT_DRY_RUN},
	{"confirm", required_argument, NULL, RDC_OPT_CONFIRM},
	{"record", required_argument, NULL, RDC_OPT_RECORD},
	{"replay", required_argument, NULL, RDC_OPT_REPLAY},
	{"netns", required_argument, NULL, 'n'},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* The short ones, for getopt; 'n' is the one that takes a value. */
const char rdc_global_short[] = "jpvqbVhn:";

/* The long option @word ("--ro", "--root=x") names: exact, else a unique prefix, as getopt_long. */
static const struct option *global_long(const char *word)
{
	const struct option *found = NULL;
	size_t len = strcspn(word + 2, "=");

	for (const struct option *o = rdc_global_options; o->name; o++) {
		if (strncmp(o->name, word + 2, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		if (found)
			return NULL; /* ambiguous: getopt says so */
		found = o;
	}
	return found;
}

int rdc_global_arity(const char *word)
{
	if (word[0] != '-' || !word[1] || !strcmp(word, "--"))
		return -1;
	if (word[1] == '-') {
		const struct option *o = global_long(word);

		return o && o->has_arg == required_argument && !strchr(word, '=') ? 1 : 0;
	}
	/* A bundle ("-jn NS", "-nNS"): 'n' takes the rest of the word, or the next one. */
	for (const char *c = word + 1; *c; c++)
		if (*c == 'n')
			return c[1] ? 0 : 1;
	return 0;
}

const char *rdc_global_closest(const char *word)
{
	const char *names[RDC_ARRAY_SIZE(rdc_global_options)];
	char name[64];
	size_t n = 0, len;

	if (strncmp(word, "--", 2))
		return NULL;
	len = strcspn(word + 2, "=");
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, word + 2, len);
	name[len] = '\0';
	for (const struct option *o = rdc_global_options; o->name; o++)
		names[n++] = o->name;
	return rdc_closest(name, names, n);
}

int rdc_args_take_globals(const struct rdc_action *act, int argc, char **argv, char **globals,
			  int *nglobals)
{
	int out = 0;

	for (int i = 0; i < argc; i++) {
		const char *word = argv[i];
		int p = rdc_param_find(act, word), arity;

		if (p >= 0) {
			const struct rdc_param *param = &act->params[p];

			argv[out++] = argv[i];
			if (param->multi) {
				while (i + 1 < argc && strchr(argv[i + 1], ':'))
					argv[out++] = argv[++i];
			} else if (param->words) {
				while (i + 1 < argc && rdc_param_find(act, argv[i + 1]) < 0 &&
				       rdc_global_arity(argv[i + 1]) < 0)
					argv[out++] = argv[++i];
			} else if (param->metavar && i + 1 < argc) {
				/* The value, whatever it looks like: "-f -", "interval -1". */
				argv[out++] = argv[++i];
			}
			continue;
		}
		if (!strcmp(word, "--")) {
			/* Operands only from here: names that begin with '-'. */
			while (++i < argc)
				argv[out++] = argv[i];
			break;
		}
		arity = rdc_global_arity(word);
		if (arity < 0) {
			argv[out++] = argv[i];
			continue;
		}
		globals[(*nglobals)++] = argv[i];
		if (arity == 1 && i + 1 < argc)
			globals[(*nglobals)++] = argv[++i];
	}
	return out;
}

/*
 * With -j or --yaml, a failure is a document on stdout too, so that a script
 * acts on its id and never on the English (rdmactl(8) ERRORS).  Only when the
 * run printed no document: one run, one answer (a bench report whose link
 * failed is one already, its error inside).
 */
static void error_document(struct rdc_ctx *ctx, enum rdc_err_kind kind, int code,
			   const char *message, const char *object)
{
	struct rdc_out *o = ctx->out;

	if (ctx->format == RDC_FMT_TEXT || ctx->error_documented)
		return;
	if (o && rdc_out_documents(o))
		return;
	/* Before the dispatcher made the run's output (a bad verb, a --root that is none). */
	if (!o)
		o = rdc_out_new(stdout, ctx->format, ctx->pretty, false);
	if (!o)
		return;
	ctx->error_documented = true;
	rdc_out_begin(o, "error");
	rdc_out_obj_open(o, "error");
	rdc_out_str(o, RDC_OUT_MACHINE, "id", NULL, rdc_err_kind_id(kind));
	if (code > 0)
		rdc_out_i64(o, RDC_OUT_MACHINE, "errno", NULL, code);
	else
		rdc_out_null(o, "errno", NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "message", NULL, message);
	if (object && *object)
		rdc_out_str(o, RDC_OUT_MACHINE, "object", NULL, object);
	else
		rdc_out_null(o, "object", NULL);
	rdc_out_obj_close(o);
	rdc_out_end(o);
	if (o != ctx->out)
		rdc_out_free(o); /* a write error of its own has nowhere left to go */
}

/*
 * A failure said on stderr: its document now when the run ends here (no
 * output made yet), else kept, the first only, for rdc_error_document_end()
 * (a verb may go on and print its document after a failure of one part).
 */
static void error_noted(struct rdc_ctx *ctx, enum rdc_err_kind kind, int code, const char *message,
			const char *object)
{
	if (ctx->format == RDC_FMT_TEXT)
		return;
	if (!ctx->out) {
		error_document(ctx, kind, code, message, object);
		return;
	}
	if (ctx->first_error.set)
		return;
	ctx->first_error.set = true;
	ctx->first_error.kind = kind;
	ctx->first_error.code = code;
	snprintf(ctx->first_error.message, sizeof(ctx->first_error.message), "%s", message);
	snprintf(ctx->first_error.object, sizeof(ctx->first_error.object), "%s",
		 object ? object : "");
}

void rdc_error_document_end(struct rdc_ctx *ctx, int rc)
{
	if ((rc == RDC_EXIT_FAIL || rc == RDC_EXIT_USAGE) && ctx->first_error.set)
		error_document(ctx, ctx->first_error.kind, ctx->first_error.code,
			       ctx->first_error.message, ctx->first_error.object);
}

static void usage_vprint(struct rdc_ctx *ctx, const char *where, const char *fmt, va_list ap)
{
	char *text, where_text[1024];

	fprintf(stderr, "%s: ", ctx->prog);
	if (ctx->verb)
		fprintf(stderr, "%s: ", ctx->verb);
	if (where)
		fprintf(stderr, "%s: ", where);
	text = rdc_text_vasprintf(fmt, ap); /* the user's words may hold ESC or a newline */
	fputs(text ? text : "(no memory for the message)", stderr);
	fputc('\n', stderr);
	if (ctx->verb)
		fprintf(stderr, "see '%s help %s'\n", ctx->prog, ctx->verb);
	else
		fprintf(stderr, "see '%s --help'\n", ctx->prog);
	if (!text)
		error_noted(ctx, RDC_ERRK_USAGE, 0, "(no memory for the message)", NULL);
	else if (where) {
		snprintf(where_text, sizeof(where_text), "%s: %s", where, text);
		error_noted(ctx, RDC_ERRK_USAGE, 0, where_text, NULL);
	} else
		error_noted(ctx, RDC_ERRK_USAGE, 0, text, NULL);
	free(text);
}

int rdc_usage_error(struct rdc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_vprint(ctx, NULL, fmt, ap);
	va_end(ap);
	return RDC_EXIT_USAGE;
}

int rdc_arg_error(struct rdc_ctx *ctx, const struct rdc_args *args, int param, const char *fmt, ...)
{
	char where[300];
	va_list ap;

	if (args && args->file)
		snprintf(where, sizeof(where), "%s line %u", args->file,
			 param >= 0 && param < RDC_MAX_PARAMS ? args->line[param]
							      : args->file_line);
	va_start(ap, fmt);
	usage_vprint(ctx, args && args->file ? where : NULL, fmt, ap);
	va_end(ap);
	return RDC_EXIT_USAGE;
}

int rdc_fail(struct rdc_ctx *ctx, const struct rdc_err *err)
{
	char message[sizeof(err->msg) + sizeof(err->detail) + 128];

	/* A name that cannot be one is the caller's mistake, as a bad keyword is. */
	if (err->usage)
		return rdc_usage_error(ctx, "%s", err->msg);
	rdc_log_error_record(ctx->verb, err);
	rdc_err_describe(err, message, sizeof(message));
	error_noted(ctx, rdc_err_kind_of(err), err->code, message, err->object);
	return RDC_EXIT_FAIL;
}

int rdc_fail_as(struct rdc_ctx *ctx, enum rdc_err_kind kind, const char *object, const char *fmt,
		...)
{
	char *text;
	va_list ap;

	va_start(ap, fmt);
	text = rdc_text_vasprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", ctx->prog);
	if (ctx->verb)
		fprintf(stderr, "%s: ", ctx->verb);
	fprintf(stderr, "%s\n", text ? text : "(no memory for the message)");
	error_noted(ctx, kind, 0, text ? text : "(no memory for the message)", object);
	free(text);
	return RDC_EXIT_FAIL;
}

int rdc_oom(struct rdc_ctx *ctx)
{
	struct rdc_err err = {0};

	rdc_err_set(&err, ENOMEM, "out of memory");
	return rdc_fail(ctx, &err);
}

int rdc_param_find(const struct rdc_action *act, const char *name)
{
	for (int i = 0; act->params && act->params[i].name; i++)
		if (!strcmp(act->params[i].name, name))
			return i;
	return -1;
}

/* A keyword the code names must be in the table: a typo there is a programming error. */
static int param_index(const struct rdc_action *act, const char *name)
{
	int i = rdc_param_find(act, name);

	assert(i >= 0 && "keyword not in the action's table");
	return i;
}

bool rdc_arg_given(const struct rdc_action *act, const struct rdc_args *args, const char *name)
{
	return args->given[param_index(act, name)];
}

const char *rdc_arg_value(const struct rdc_action *act, const struct rdc_args *args,
			  const char *name)
{
	int i = param_index(act, name);

	return args->given[i] ? args->value[i] : NULL;
}

static int unknown_keyword(struct rdc_ctx *ctx, const struct rdc_action *act, const char *word)
{
	const char *names[RDC_MAX_PARAMS];
	size_t n = 0;
	const char *hint;

	for (int i = 0; act->params && act->params[i].name && n < RDC_MAX_PARAMS; i++)
		names[n++] = act->params[i].name;
	hint = rdc_closest(word, names, n);
	if (hint)
		return rdc_usage_error(ctx, "%s: unknown keyword '%s'; did you mean '%s'?",
				       act->name, word, hint);
	/* A device named without its keyword: "pfc set ens1f0np0 ..." for "dev ens1f0np0". */
	for (int i = 0; act->params && act->params[i].name; i++) {
		const struct rdc_param *p = &act->params[i];

		if (p->metavar && !p->repeat &&
		    (p->value_kind == RDC_COMPLETE_PORT || p->value_kind == RDC_COMPLETE_NETDEV ||
		     p->value_kind == RDC_COMPLETE_BOND) &&
		    (rdc_netdev_exists(word) || rdc_ibdev_exists(word) ||
		     (strchr(word, '/') && word[0] != '/')))
			return rdc_usage_error(
				ctx, "%s: unexpected argument '%s'; did you mean '%s %s'?",
				act->name, word, p->name, word);
	}
	return rdc_usage_error(ctx, "%s: unexpected argument '%s'", act->name, word);
}

/* Keywords that exclude others, and a required object: the same for argv and files. */
static int args_check(struct rdc_ctx *ctx, const struct rdc_action *act,
		      const struct rdc_args *args)
{
	for (int k = 0; act->params && act->params[k].name; k++) {
		const char *other = act->params[k].excludes;

		if (args->given[k] && act->params[k].alone)
			for (int j = 0; act->params[j].name; j++)
				if (j != k && args->given[j] &&
				    !(act->params[k].alone_but &&
				      !strcmp(act->params[j].name, act->params[k].alone_but)))
					return rdc_arg_error(
						ctx, args, j,
						"%s: '%s' takes no other keywords%s%s%s", act->name,
						act->params[k].name,
						act->params[k].alone_but ? " but '" : "",
						act->params[k].alone_but ? act->params[k].alone_but
									 : "",
						act->params[k].alone_but ? "'" : "");

		if (args->given[k] && other && args->given[param_index(act, other)])
			return rdc_arg_error(ctx, args, k, "%s: '%s' and '%s' exclude each other",
					     act->name, act->params[k].name, other);
	}
	if ((act->object_required && !args->object) ||
	    (act->object2 != RDC_COMPLETE_NONE && !args->object2))
		return rdc_usage_error(ctx, "%s: missing argument %s", act->name, act->synopsis);
	return 0;
}

int rdc_args_parse(struct rdc_ctx *ctx, const struct rdc_action *act, int argc, char **argv,
		   struct rdc_args *args)
{
	memset(args, 0, sizeof(*args));
	for (int i = 0; i < argc; i++) {
		const char *word = argv[i];
		int p;

		if (!strcmp(word, "--dry-run")) {
			ctx->dry_run = true;
			continue;
		}
		p = rdc_param_find(act, word);
		if (p >= 0) {
			const struct rdc_param *param = &act->params[p];

			if (args->given[p] && !param->repeat)
				return rdc_usage_error(ctx, "%s: '%s' given twice", act->name,
						       word);
			args->given[p] = true;
			if (param->repeat) {
				if (i + 1 >= argc)
					return rdc_usage_error(ctx, "%s: '%s' needs a value %s",
							       act->name, word, param->metavar);
				if (args->nrepeated == RDC_MAX_REPEAT)
					return rdc_usage_error(ctx, "%s: '%s' at most %d times",
							       act->name, word, RDC_MAX_REPEAT);
				args->repeated[args->nrepeated++] = argv[++i];
				args->value[p] = argv[i];
				continue;
			}
			if (param->words) {
				/* Plain words up to the next keyword: "check link qos.pfc-off". */
				args->values[p] = (const char *const *)&argv[i + 1];
				while (i + 1 < argc && rdc_param_find(act, argv[i + 1]) < 0 &&
				       strcmp(argv[i + 1], "--dry-run")) {
					args->nvalues[p]++;
					i++;
				}
				if (!args->nvalues[p])
					return rdc_usage_error(ctx, "%s: '%s' needs %s", act->name,
							       word, param->metavar);
				continue;
			}
			if (param->multi) {
				/* KEY:VALUE words up to the next keyword: "prio-pfc all:off 3:on". */
				args->values[p] = (const char *const *)&argv[i + 1];
				while (i + 1 < argc && strchr(argv[i + 1], ':')) {
					args->nvalues[p]++;
					i++;
				}
				if (!args->nvalues[p])
					return rdc_usage_error(ctx, "%s: '%s' needs %s", act->name,
							       word, param->metavar);
				continue;
			}
			if (!param->metavar)
				continue;
			if (i + 1 >= argc)
				return rdc_usage_error(ctx, "%s: '%s' needs a value %s", act->name,
						       word, param->metavar);
			args->value[p] = argv[++i];
			continue;
		}
		if (act->object != RDC_COMPLETE_NONE && act->objects && word[0] != '-') {
			if (args->nobjects == RDC_MAX_OBJECTS)
				return rdc_usage_error(ctx, "%s: at most %d %s", act->name,
						       RDC_MAX_OBJECTS, "names");
			if (!args->object)
				args->object = word;
			args->objects[args->nobjects++] = word;
			continue;
		}
		if (act->object != RDC_COMPLETE_NONE && !args->object && word[0] != '-') {
			args->object = word;
			args->objects[args->nobjects++] = word;
			continue;
		}
		if (act->object2 != RDC_COMPLETE_NONE && args->object && !args->object2 &&
		    word[0] != '-') {
			args->object2 = word;
			continue;
		}
		return unknown_keyword(ctx, act, word);
	}
	return args_check(ctx, act, args);
}

static bool name_in(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

int rdc_args_from_cfg(struct rdc_ctx *ctx, const struct rdc_action *act, const char *path,
		      const struct rdc_cfg_device *dev, const char *const *allowed,
		      const char *object, struct rdc_args *args)
{
	memset(args, 0, sizeof(*args));
	args->object = object;
	args->file = path;
	args->file_line = dev->line;
	for (size_t k = 0; k < dev->nkeys; k++) {
		const char *key = dev->keys[k].key;
		int p = rdc_param_find(act, key);
		const struct rdc_param *param;

		if (p < 0 || (allowed && !name_in(key, allowed))) {
			const char *names[RDC_MAX_PARAMS], *hint;
			size_t n = 0;

			for (int i = 0; act->params[i].name && n < RDC_MAX_PARAMS; i++)
				if (!allowed || name_in(act->params[i].name, allowed))
					names[n++] = act->params[i].name;
			hint = p < 0 ? rdc_closest(key, names, n) : NULL;
			args->file_line = dev->keys[k].line;
			if (hint)
				return rdc_arg_error(ctx, args, -1,
						     "%s: unknown keyword '%s'; did you mean '%s'?",
						     act->name, key, hint);
			return rdc_arg_error(ctx, args, -1, "%s: '%s' is not a setting here",
					     act->name, key);
		}
		param = &act->params[p];
		args->line[p] = dev->keys[k].line;
		if (args->given[p])
			return rdc_arg_error(ctx, args, p, "'%s' given twice", key);
		args->given[p] = true;
		/* A list in YAML is the words after the keyword: "dscp-prio-del: [26, EF]". */
		if (param->multi || param->words) {
			args->values[p] = (const char *const *)dev->keys[k].words;
			args->nvalues[p] = (int)dev->keys[k].nwords;
			if (!args->nvalues[p])
				return rdc_arg_error(ctx, args, p, "'%s' needs %s", key,
						     param->metavar);
			continue;
		}
		if (!param->metavar) {
			if (dev->keys[k].nwords)
				return rdc_arg_error(ctx, args, p, "'%s' takes no value", key);
			continue;
		}
		if (dev->keys[k].nwords != 1)
			return rdc_arg_error(ctx, args, p, "'%s' needs one value %s", key,
					     param->metavar);
		args->value[p] = dev->keys[k].words[0];
		if (param->repeat)
			args->repeated[args->nrepeated++] = args->value[p];
	}
	return args_check(ctx, act, args);
}

int rdc_args_convert(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts)
{
	for (int k = 0; act->params && act->params[k].name; k++) {
		const struct rdc_param *p = &act->params[k];
		int rc = 0;

		if (!args->given[k] || !p->parse)
			continue;
		if (p->repeat) {
			for (int r = 0; r < args->nrepeated && !rc; r++)
				rc = p->parse(ctx, p, &args->repeated[r], 1, opts);
		} else if (p->multi || p->words) {
			rc = p->parse(ctx, p, args->values[k], args->nvalues[k], opts);
		} else {
			rc = p->parse(ctx, p, &args->value[k], p->metavar ? 1 : 0, opts);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int rdc_writes_allowed(struct rdc_ctx *ctx)
{
	ctx->gate_asked = true;
	if (ctx->gate == RDC_GATE_NONE) {
		fprintf(stderr,
			"%s: %s: internal error: a write from an action not marked as one\n",
			ctx->prog, ctx->verb);
		return RDC_EXIT_FAIL;
	}
	if (ctx->gate != RDC_GATE_REFUSED)
		return 0;
	return rdc_fail_as(ctx, RDC_ERRK_OFFLINE, NULL,
			   "writes are refused under --root and --replay");
}

int rdc_lock_netdev(struct rdc_ctx *ctx, const char *ifname)
{
	struct rdc_err err = {0};

	if (ctx->gate != RDC_GATE_OPEN)
		return 0;
	/*
	 * Only root changes links, DCB and bonds.  A user's run (the kernel will
	 * say EPERM) must not make /run/lock/rdmactl its own: the directory has to
	 * be root's alone, and one made by a user would refuse every root run.
	 */
	if (geteuid() != 0)
		return 0;
	/* A name that cannot be one is the planner's to refuse (a usage error, exit 2). */
	if (!rdc_ifname_valid(ifname))
		return 0;
	if (rdc_locks_take(&ctx->locks, ifname, &err))
		return rdc_fail(ctx, &err);
	/* Under its lock: a change of it that did not finish, or awaits confirmation, comes first. */
	if (!ctx->journal_exempt && rdc_journal_guard(ifname, &err))
		return rdc_fail(ctx, &err);
	return 0;
}
