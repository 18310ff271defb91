// SPDX-License-Identifier: GPL-2.0-or-later
/* args.c - keyword-table argument walk and typed values (no prefix matching) */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "base/util.h"
#include "seam/fs.h"
#include "seam/nl.h"
#include "cmd.h"

int rdc_usage_error(struct rdc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ctx->prog);
	if (ctx->verb)
		fprintf(stderr, "%s: ", ctx->verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (ctx->verb)
		fprintf(stderr, "see '%s help %s'\n", ctx->prog, ctx->verb);
	else
		fprintf(stderr, "see '%s --help'\n", ctx->prog);
	return RDC_EXIT_USAGE;
}

int rdc_fail(struct rdc_ctx *ctx, const struct rdc_err *err)
{
	rdc_log_error_record(ctx->verb, err);
	return RDC_EXIT_FAIL;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (la >= RDC_ARRAY_SIZE(row) || lb >= RDC_ARRAY_SIZE(row))
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *rdc_closest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);

		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}

int rdc_param_index(const struct rdc_action *act, const char *name)
{
	for (int i = 0; act->params && act->params[i].name; i++)
		if (!strcmp(act->params[i].name, name))
			return i;
	return 0;
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
	return rdc_usage_error(ctx, "%s: unexpected argument '%s'", act->name, word);
}

int rdc_args_parse(struct rdc_ctx *ctx, const struct rdc_action *act, int argc, char **argv,
		   struct rdc_args *args)
{
	memset(args, 0, sizeof(*args));
	for (int i = 0; i < argc; i++) {
		const char *word = argv[i];
		int p = -1;

		if (!strcmp(word, "--dry-run")) {
			ctx->dry_run = true;
			continue;
		}
		for (int k = 0; act->params && act->params[k].name; k++)
			if (!strcmp(act->params[k].name, word))
				p = k;
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
			if (param->multi) {
				/* KEY:VALUE words up to the next keyword: "prio-pfc all:off 3:on". */
				args->values[p] = &argv[i + 1];
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
		if (act->object != RDC_COMPLETE_NONE && !args->object && word[0] != '-') {
			args->object = word;
			continue;
		}
		return unknown_keyword(ctx, act, word);
	}
	for (int k = 0; act->params && act->params[k].name; k++) {
		const char *other = act->params[k].excludes;

		if (args->given[k] && act->params[k].alone)
			for (int j = 0; act->params[j].name; j++)
				if (j != k && args->given[j])
					return rdc_usage_error(ctx,
							       "%s: '%s' takes no other keywords",
							       act->name, act->params[k].name);

		if (args->given[k] && other && args->given[rdc_param_index(act, other)])
			return rdc_usage_error(ctx, "%s: '%s' and '%s' exclude each other",
					       act->name, act->params[k].name, other);
	}
	if (act->object_required && !args->object)
		return rdc_usage_error(ctx, "%s: missing argument %s", act->name, act->synopsis);
	return 0;
}

int rdc_arg_u32(struct rdc_ctx *ctx, const char *keyword, const char *value, uint32_t min,
		uint32_t max, uint32_t *out)
{
	int rc = rdc_parse_u32_range(value, min, max, out);

	if (rc == -ERANGE)
		return rdc_usage_error(ctx, "'%s %s': out of range %u-%u", keyword, value, min,
				       max);
	if (rc)
		return rdc_usage_error(ctx, "'%s %s': not a number", keyword, value);
	return 0;
}

int rdc_arg_seconds(struct rdc_ctx *ctx, const char *keyword, const char *value, double *out)
{
	int rc = rdc_parse_seconds(value, out);

	if (rc == -ERANGE)
		return rdc_usage_error(ctx, "'%s %s': must be more than 0 seconds", keyword, value);
	if (rc)
		return rdc_usage_error(ctx, "'%s %s': not a number of seconds", keyword, value);
	if (*out > 86400)
		return rdc_usage_error(ctx, "'%s %s': at most 86400 seconds", keyword, value);
	return 0;
}

bool rdc_live_system(void)
{
	return !rdc_fs_root() && rdc_nl_mode() != RDC_NL_REPLAY;
}

int rdc_writes_allowed(struct rdc_ctx *ctx)
{
	if (rdc_live_system())
		return 0;
	fprintf(stderr, "%s: %s: writes are refused under --root and --replay\n", ctx->prog,
		ctx->verb);
	return RDC_EXIT_FAIL;
}
