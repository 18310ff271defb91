/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd.h - verb descriptors, the context every action gets, argument helpers */
#pragma once

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/lock.h"

struct rdc_journal;
#include "out/out.h"

/* 3: a check found warnings only (bond check, diag). */
/*
 * The one exit table (rdmactl(8) EXIT STATUS).  RDC_EXIT_PENDING: a --dry-run
 * that would change something (terraform plan -detailed-exitcode's idea; 2
 * is ours for usage), so a script knows without reading the report.
 */
enum rdc_exit {
	RDC_EXIT_OK = 0,
	RDC_EXIT_FAIL = 1,
	RDC_EXIT_USAGE = 2,
	RDC_EXIT_WARN = 3,
	RDC_EXIT_PENDING = 4,
};

/*
 * Whether this run may write, decided once by the dispatcher from the
 * action's RDC_ACT_MUTATES, --dry-run, --root and --replay.  A write action
 * asks through rdc_writes_allowed() before it reads what it will change; the
 * dispatcher fails an action marked MUTATES that returns without asking, and
 * rdc_write_commit(), which every write goes through, applies nothing unless
 * the gate is open and was asked.
 */
enum rdc_write_gate {
	RDC_GATE_NONE,	  /* a read-only action: asking is an internal error */
	RDC_GATE_OPEN,	  /* live: writes go, under the netdevs' locks */
	RDC_GATE_DRY,	  /* --dry-run: plans, never writes, takes no lock */
	RDC_GATE_REFUSED, /* --root or --replay without --dry-run: refused */
};

struct rdc_ctx {
	const char *prog; /* "rdmactl" */
	const char *verb; /* "port" */
	enum rdc_out_format format;
	bool pretty;
	bool color;
	bool dry_run;
	bool quiet;  /* -q: results only, no progress */
	bool brief;  /* -b: one line per object in text (port, pfc show, bond show, diag) */
	int verbose; /* -v given this many times */
	struct rdc_out *out;
	struct rdc_locks locks;	  /* the netdevs this run writes, held till it ends */
	enum rdc_write_gate gate; /* set by the dispatcher from the action's flags */
	bool gate_asked;	  /* the action called rdc_writes_allowed() */
	int argc;		  /* the command line, for the undo journal (write.h) */
	char **argv;
	unsigned int confirm_s;	     /* --confirm SEC, 0: none */
	bool journal_exempt;	     /* undo, confirm: they settle journals, not refused by them */
	struct rdc_journal *journal; /* a write awaiting confirmation, for the dispatcher */
	bool error_documented;	     /* an error document went to stdout (args.c) */
	/* A write's report said it changes (under --dry-run: would change) something. */
	bool would_change;
	/* The run's first failure, for its error document at the end (rdc_error_document_end). */
	struct {
		bool set;
		enum rdc_err_kind kind;
		int code;
		char message[768];
		char object[128];
	} first_error;
};

/* What a positional argument or a keyword's value names, for completion. */
enum rdc_complete {
	RDC_COMPLETE_NONE,
	RDC_COMPLETE_PORT,   /* DEV, DEV/PORT or NETDEV */
	RDC_COMPLETE_HOST,   /* a host name or address: nothing to offer */
	RDC_COMPLETE_NETDEV, /* a network interface */
	RDC_COMPLETE_BOND,   /* a bond */
	RDC_COMPLETE_FILE,   /* a file: the shell completes it */
	RDC_COMPLETE_CHECK,  /* a diag check id or family */
};

struct rdc_action;
struct rdc_param;
struct rdc_args;

/*
 * A keyword's converter (ethtool's handler-and-destination idea): it reads
 * the keyword's value words and stores the result at @p->dest in the
 * action's options struct @opts.  It prints a usage error naming the keyword
 * and the valid values, and returns RDC_EXIT_USAGE, or 0.
 */
typedef int (*rdc_param_parse_fn)(struct rdc_ctx *ctx, const struct rdc_param *p,
				  const char *const *words, int nwords, void *opts);

/* A keyword of an action: "mtu N", "up", "interval SEC". */
struct rdc_param {
	const char *name;
	const char *metavar; /* NULL: a word on its own */
	const char *help;
	const char *const *suggest; /* completion candidates for the value, NULL-terminated */
	const char *excludes;	    /* a keyword that may not be given with this one */
	bool multi;		    /* takes one or more KEY:VALUE words (dcb's grammar) */
	bool alone;		    /* excludes every other keyword of the action... */
	const char *alone_but;	    /* ...but this one, when set ("-f FILE dev NETDEV") */
	bool repeat;		    /* may be given up to RDC_MAX_REPEAT times ("link A link B") */
	bool words; /* takes one or more plain words up to the next keyword ("check ID ID") */
	enum rdc_complete value_kind; /* what the value names, for completion */
	/* Conversion, in table order (so a keyword that sets defaults comes first). */
	rdc_param_parse_fn parse; /* NULL: the action reads the raw words itself */
	size_t dest;		  /* offsetof() the destination in the options struct */
	const void *spec;	  /* the converter's own description (range, names, map) */
};

#define RDC_ACT_MUTATES 0x1 /* changes the system: refused under --root */

/*
 * An action gets its keyword table's result: @args (the raw words, what was
 * given) and @opts, the options struct the table's converters filled (NULL
 * when the action has none).
 */
typedef int (*rdc_action_fn)(struct rdc_ctx *ctx, const struct rdc_action *act,
			     const struct rdc_args *args, void *opts);

struct rdc_action {
	const char *name;
	const char *synopsis; /* arguments, for help: "[DEV[/PORT] | NETDEV]" */
	const char *help;
	rdc_action_fn run;
	const struct rdc_param *params; /* terminated by { NULL } */
	enum rdc_complete object;	/* the positional argument, if any */
	bool object_required;
	enum rdc_complete object2; /* a second positional argument ("bond add BOND IF") */
	bool objects; /* the positional argument may be given up to RDC_MAX_OBJECTS times */
	unsigned int flags;
	size_t opts_size;	       /* the options struct the converters fill, 0: none */
	void (*opts_init)(void *opts); /* its defaults (zeroed first); NULL: all zero */
};

/* A verb: its first action runs when no action word is given. */
struct rdc_cmd {
	const char *name;
	const char *summary;
	const struct rdc_action *actions; /* terminated by { NULL } */
};

extern const struct rdc_cmd rdc_cmd_port;
extern const struct rdc_cmd rdc_cmd_pfc;
extern const struct rdc_cmd rdc_cmd_undo;
extern const struct rdc_cmd rdc_cmd_confirm;
extern const struct rdc_cmd rdc_cmd_bench;
extern const struct rdc_cmd rdc_cmd_bond;
extern const struct rdc_cmd rdc_cmd_diag;
/* All verbs, NULL-terminated (verbs.c: the one list). */
extern const struct rdc_cmd *const rdc_cmds[];

/* ---- args.c ---- */

#define RDC_MAX_PARAMS 40 /* keywords of one action (bench client has 26) */
#define RDC_MAX_REPEAT 16
#define RDC_MAX_OBJECTS 64

/* An action's arguments after the keyword walk. */
struct rdc_args {
	const char *object;  /* the positional argument or NULL */
	const char *object2; /* the second positional argument or NULL */
	const char
		*objects[RDC_MAX_OBJECTS]; /* with rdc_action.objects: every positional argument */
	int nobjects;
	const char *value[RDC_MAX_PARAMS]; /* by index into the action's params */
	bool given[RDC_MAX_PARAMS];
	const char *const *values[RDC_MAX_PARAMS]; /* multi keywords: their KEY:VALUE words */
	int nvalues[RDC_MAX_PARAMS];
	const char *repeated[RDC_MAX_REPEAT]; /* the values of the action's repeat keyword */
	int nrepeated;
	/* Where the arguments came from, for messages: NULL for the command line. */
	const char *file;
	unsigned int file_line;		   /* with @file: where the device starts */
	unsigned int line[RDC_MAX_PARAMS]; /* with @file: the line of each keyword */
};

/*
 * Walk @argv against @act's keyword table: each keyword at most once, values
 * where the table says, one positional object if the action takes one, and
 * --dry-run anywhere.  Prints a usage error and returns RDC_EXIT_USAGE on
 * anything else.
 */
/*
 * The global options (rdmactl(8)), for getopt_long before the verb and for
 * the words after it.  rdc_global_short is their short form ("jpvqVhn:").
 */
enum {
	RDC_OPT_YAML = 0x100,
	RDC_OPT_ROOT,
	RDC_OPT_COLOR,
	RDC_OPT_DRY_RUN,
	RDC_OPT_RECORD,
	RDC_OPT_REPLAY,
	RDC_OPT_CONFIRM,
};
extern const struct option rdc_global_options[16];
extern const char rdc_global_short[];

/*
 * Whether @word is a global option: -1 not one (no leading '-', "-", "--"),
 * 1 one that takes the next word as its value ("--root", "-n", "-jn"), 0 any
 * other word beginning with '-' (unknown ones too: getopt reports them).
 */
int rdc_global_arity(const char *word);
/* For "--jsn": the closest long option name ("json"), or NULL. */
const char *rdc_global_closest(const char *word);

/*
 * Take the global options (and their values) out of an action's words into
 * @globals (@nglobals counts them, room for @argc), skipping keyword values
 * ("-f FILE", "dev NAME") and everything after "--", which is dropped.
 * Returns how many words are left at the front of @argv.
 */
int rdc_args_take_globals(const struct rdc_action *act, int argc, char **argv, char **globals,
			  int *nglobals);

int rdc_args_parse(struct rdc_ctx *ctx, const struct rdc_action *act, int argc, char **argv,
		   struct rdc_args *args);

/*
 * The same for one device of a YAML file: each key is a keyword of @act's
 * table, its words the values.  Keys outside the table, and keys not in
 * @allowed when it is given (NULL-terminated names), are usage errors naming
 * the file and line.  @object is the action's positional argument, which a
 * file names its own way (a netplan bond's mapping key), or NULL.
 */
struct rdc_cfg_device;
int rdc_args_from_cfg(struct rdc_ctx *ctx, const struct rdc_action *act, const char *path,
		      const struct rdc_cfg_device *dev, const char *const *allowed,
		      const char *object, struct rdc_args *args);

/*
 * Run the converters of every given keyword of @act, in table order, into
 * @opts (which the caller zeroed and gave its defaults).
 */
int rdc_args_convert(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts);

/* Whether keyword @name was given; @name must be in @act's table (asserted). */
bool rdc_arg_given(const struct rdc_action *act, const struct rdc_args *args, const char *name);
/* The value of keyword @name, or NULL when not given; @name must be in the table (asserted). */
const char *rdc_arg_value(const struct rdc_action *act, const struct rdc_args *args,
			  const char *name);
/* The index of @name in @act's table, or -1 when the table has no such keyword. */
int rdc_param_find(const struct rdc_action *act, const char *name);

/*
 * The write gate (enum rdc_write_gate): 0 when this run may go on (a dry run
 * too: it plans), else prints the refusal ("writes are refused under --root
 * and --replay") and returns RDC_EXIT_FAIL.  Every write action calls it
 * once its words are checked (usage errors still exit 2) and before it reads
 * anything it will change, whether or not anything will differ.
 */
int rdc_writes_allowed(struct rdc_ctx *ctx);

/*
 * Hold @ifname's write lock (base/lock.h) until the verb returns: a write
 * verb takes it for every netdev it will change before it reads the state
 * it plans against.  Nothing under --dry-run, --root or --replay (nothing
 * is written).  Prints "busy: pid N holds ..." and returns RDC_EXIT_FAIL
 * when another run holds it past the wait.
 */
int rdc_lock_netdev(struct rdc_ctx *ctx, const char *ifname);

/* "rdmactl: port: MSG" and "see 'rdmactl help port'"; returns RDC_EXIT_USAGE. */
int rdc_usage_error(struct rdc_ctx *ctx, const char *fmt, ...) RDC_PRINTF(2, 3);
/* The same, naming the file and line of keyword @param (-1: of the device) when @args came from a file. */
int rdc_arg_error(struct rdc_ctx *ctx, const struct rdc_args *args, int param, const char *fmt, ...)
	RDC_PRINTF(4, 5);
/*
 * Print an error record as one line; returns RDC_EXIT_FAIL, or RDC_EXIT_USAGE
 * when the record says the caller's words were wrong (its usage flag: never
 * guessed from the errno).  With -j or --yaml, this and the usage errors also
 * print an error document on stdout (kind "error": its stable id, errno,
 * message and object) unless the run already printed a document.
 */
int rdc_fail(struct rdc_ctx *ctx, const struct rdc_err *err);
/*
 * At the end of a verb's run that failed (@rc 1 or 2) and printed no
 * document: the error document of its first failure, if -j or --yaml.
 */
void rdc_error_document_end(struct rdc_ctx *ctx, int rc);
/* "rdmactl: VERB: MSG" and an error document of @kind about @object (may be NULL); RDC_EXIT_FAIL. */
int rdc_fail_as(struct rdc_ctx *ctx, enum rdc_err_kind kind, const char *object, const char *fmt,
		...) RDC_PRINTF(4, 5);
/* "rdmactl: pfc: out of memory"; returns RDC_EXIT_FAIL (the one exit path maps it). */
int rdc_oom(struct rdc_ctx *ctx);
/* The closest of @candidates to @word within edit distance 2, or NULL (for "did you mean"). */

/* ---- values.c: converters for rdc_param.parse ---- */

/* A TCP port 1-65535 into a uint16_t, no given flag (bench's and bond failover's). */
extern const struct rdc_val_uint rdc_val_tcp_port;

/* An unsigned number in [min, max], stored in @size bytes (1, 2, 4 or 8). */
struct rdc_val_uint {
	uint64_t min, max;
	size_t size;
	size_t given; /* offsetof() a bool set when given, or RDC_VAL_NO_FLAG */
};
#define RDC_VAL_NO_FLAG ((size_t)-1)
int rdc_val_uint(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts);

/* One of @names, storing the matching @values[i] as an int. */
struct rdc_val_enum {
	const char *const *names; /* NULL-terminated */
	const int *values;
};
int rdc_val_enum(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts);

/* The value word itself (a const char *), checked by nothing but the walk. */
int rdc_val_string(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		   void *opts);
/* A word on its own: stores the int in spec (a const int *), or true into a bool when NULL. */
int rdc_val_flag(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts);

/* Seconds, stored as nanoseconds (uint64_t); @min_s and at most 86400 s. */
struct rdc_val_seconds {
	double min_s;
	bool zero_ok; /* "0" is allowed (means none) */
};
int rdc_val_seconds_ns(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts);
/* Seconds as a double (0 < s <= 86400). */
int rdc_val_seconds(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		    void *opts);
/* A positive finite number (a double); spec: its unit for messages (a const char *) or NULL. */
int rdc_val_positive(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		     void *opts);

/* The value of one KEY:VALUE word of a map. */
enum rdc_map_val {
	RDC_MAP_NUMBER, /* 0..max */
	RDC_MAP_ONOFF,	/* on | off -> 1 | 0 */
	RDC_MAP_TSA,	/* strict | cbs | ets | vendor */
	RDC_MAP_SIZE,	/* bytes with an optional K/M suffix, up to max */
	RDC_MAP_RATE,	/* 0 or N{kbit,mbit,gbit,tbit} -> kbit/s */
};

/*
 * dcb's mapping words, "KEY:VALUE" where KEY is 0..nkeys-1 or "all" (when
 * @allow_all) or, with @dscp_keys, a DSCP name ("AF31", dcb/dscp.h), later
 * words overriding earlier ones.  Values land in an array
 * at rdc_param.dest of @elem bytes per entry (1 for bool), flags in a bool
 * array at @given (or none: RDC_VAL_NO_FLAG).
 *   prio-pfc all:off 3:on   -> 3 on, the rest off
 *   dscp-prio 26:3 48:6     -> two entries
 *   prio-pfc 8:on           -> usage error (priorities are 0-7)
 */
struct rdc_val_map {
	unsigned int nkeys;
	bool allow_all;
	bool dscp_keys;
	enum rdc_map_val kind;
	uint64_t max;
	size_t elem; /* bytes per stored value: 1, 2, 4 or 8; 0 for int (signed) */
	size_t given;
};
int rdc_val_map(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		void *opts);

/* ---- help.c ---- */
/* The verbs and global options on @fp: stdout when asked for, stderr after a bare "rdmactl". */
void rdc_help_main(struct rdc_ctx *ctx, FILE *fp);
void rdc_help_cmd(struct rdc_ctx *ctx, const struct rdc_cmd *cmd);
const struct rdc_cmd *rdc_cmd_find(const char *name);
/* The action @name of @cmd; @name must be one of its actions (asserted). */
const struct rdc_action *rdc_action_find(const struct rdc_cmd *cmd, const char *name);

/* ---- complete.c ---- */
int rdc_complete(int argc, char **argv);
