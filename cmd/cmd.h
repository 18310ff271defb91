/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd.h - verb descriptors, the context every action gets, argument helpers */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "out/out.h"

enum rdc_exit { RDC_EXIT_OK = 0, RDC_EXIT_FAIL = 1, RDC_EXIT_USAGE = 2 };

struct rdc_ctx {
	const char *prog; /* "rdmactl" */
	const char *verb; /* "port" */
	enum rdc_out_format format;
	bool pretty;
	bool color;
	bool dry_run;
	bool quiet; /* -q: results only, no progress */
	struct rdc_out *out;
};

/* What a positional argument or a keyword's value names, for completion. */
enum rdc_complete {
	RDC_COMPLETE_NONE,
	RDC_COMPLETE_PORT, /* DEV, DEV/PORT or NETDEV */
	RDC_COMPLETE_HOST, /* a host name or address: nothing to offer */
};

/* A keyword of an action: "mtu N", "up", "interval SEC". */
struct rdc_param {
	const char *name;
	const char *metavar; /* NULL: a word on its own */
	const char *help;
	const char *const *suggest; /* completion candidates for the value, NULL-terminated */
	const char *excludes;	    /* a keyword that may not be given with this one */
	bool multi;		    /* takes one or more KEY:VALUE words (dcb's grammar) */
	bool alone;		    /* excludes every other keyword of the action */
	bool repeat;		    /* may be given up to RDC_MAX_REPEAT times ("link A link B") */
	enum rdc_complete value_kind; /* what the value names, for completion */
};

#define RDC_ACT_MUTATES 0x1 /* changes the system: refused under --root */

struct rdc_action {
	const char *name;
	const char *synopsis; /* arguments, for help: "[DEV[/PORT] | NETDEV]" */
	const char *help;
	int (*run)(struct rdc_ctx *ctx, int argc, char **argv);
	const struct rdc_param *params; /* terminated by { NULL } */
	enum rdc_complete object;	/* the positional argument, if any */
	bool object_required;
	unsigned int flags;
};

/* A verb: its first action runs when no action word is given. */
struct rdc_cmd {
	const char *name;
	const char *summary;
	const struct rdc_action *actions; /* terminated by { NULL } */
};

extern const struct rdc_cmd rdc_cmd_port;
extern const struct rdc_cmd rdc_cmd_pfc;
extern const struct rdc_cmd rdc_cmd_bench;
/* All verbs, NULL-terminated (main.c). */
extern const struct rdc_cmd *const rdc_cmds[];

/* ---- args.c ---- */

#define RDC_MAX_PARAMS 24
#define RDC_MAX_REPEAT 16

/* An action's arguments after the keyword walk. */
struct rdc_args {
	const char *object;		   /* the positional argument or NULL */
	const char *value[RDC_MAX_PARAMS]; /* by index into the action's params */
	bool given[RDC_MAX_PARAMS];
	char **values[RDC_MAX_PARAMS]; /* multi keywords: their KEY:VALUE words */
	int nvalues[RDC_MAX_PARAMS];
	const char *repeated[RDC_MAX_REPEAT]; /* the values of the action's repeat keyword */
	int nrepeated;
};

/*
 * Walk @argv against @act's keyword table: each keyword at most once, values
 * where the table says, one positional object if the action takes one, and
 * --dry-run anywhere.  Prints a usage error and returns RDC_EXIT_USAGE on
 * anything else.
 */
int rdc_args_parse(struct rdc_ctx *ctx, const struct rdc_action *act, int argc, char **argv,
		   struct rdc_args *args);
/* The index of @name in @act's table (a programming error if absent: returns 0). */
int rdc_param_index(const struct rdc_action *act, const char *name);

/*
 * Whether this invocation may change the system: not under --root or
 * --replay.  Actions call it after their arguments are validated, so usage
 * errors still exit 2.  Prints the refusal and returns RDC_EXIT_FAIL.
 */
int rdc_writes_allowed(struct rdc_ctx *ctx);
/* Neither --root nor --replay: the running kernel answers. */
bool rdc_live_system(void);

/* Typed conversions of keyword values; print a usage error on failure. */
int rdc_arg_u32(struct rdc_ctx *ctx, const char *keyword, const char *value, uint32_t min,
		uint32_t max, uint32_t *out);
int rdc_arg_seconds(struct rdc_ctx *ctx, const char *keyword, const char *value, double *out);

/* "rdmactl: port: MSG" and "see 'rdmactl help port'"; returns RDC_EXIT_USAGE. */
int rdc_usage_error(struct rdc_ctx *ctx, const char *fmt, ...) RDC_PRINTF(2, 3);
/* Print an error record as one line; returns RDC_EXIT_FAIL. */
int rdc_fail(struct rdc_ctx *ctx, const struct rdc_err *err);
/* The closest of @candidates to @word within edit distance 2, or NULL (for "did you mean"). */
const char *rdc_closest(const char *word, const char *const *candidates, size_t n);

/* ---- help.c ---- */
void rdc_help_main(struct rdc_ctx *ctx);
void rdc_help_cmd(struct rdc_ctx *ctx, const struct rdc_cmd *cmd);
const struct rdc_cmd *rdc_cmd_find(const char *name);

/* ---- complete.c ---- */
int rdc_complete(int argc, char **argv);
