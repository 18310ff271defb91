/* SPDX-License-Identifier: GPL-2.0-or-later */
/* finding.h - what a check found: id, severity, title, evidence with its source, why, fix */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/argv.h"
#include "base/err.h"

/*
 * The vocabulary every check shares (`bond check`, `diag`).  A finding is
 * one problem (or one fact worth knowing), said once:
 *
 *   id        stable, dotted, never renamed: "bond.mtu-mismatch"
 *   severity  fail (RDMA breaks or cannot work), warn (works, but worse than
 *             it should), info (context; also every comparison that could
 *             not be made, and why)
 *   title     one line, the values in it: "members' MTU differ: 9000, 1500"
 *   evidence  each value the finding rests on, with where it was read
 *   why       what goes wrong because of it
 *   fix       what to do, never empty: the command to run (also as fix_argv, its
 *             words, runnable as they are), or words where no command does it
 *
 * Every string a check writes (title, why, fix, each evidence's name,
 * value, detail and source) is whole: it is formatted into memory the
 * finding owns, never into a fixed field, so nothing is ever cut ("...
 * SymbolErrorDu" or "have no " are not possible).  Text output wraps it at
 * the terminal's width; JSON and YAML carry it as it is.  Those strings are
 * never NULL ("" when not set).  The identifiers stay fixed-size: the id is
 * ours, device and netdev names have the kernel's bounds.  A finding past
 * RDC_FINDINGS_MAX is dropped and counted, evidence past
 * RDC_FINDING_MAX_EVIDENCE is dropped.
 *
 * Ownership: the list owns its findings' strings.  rdc_findings_clear()
 * frees them (every list that was added to is cleared, or freed with
 * rdc_findings_free() when it came from rdc_findings_new()); a finding
 * moves from one list to another with rdc_findings_take(), never by a
 * struct copy that leaves two owners.
 */
enum rdc_severity {
	RDC_SEV_INFO,
	RDC_SEV_WARN,
	RDC_SEV_FAIL,
};

#define RDC_FINDING_MAX_EVIDENCE 10
#define RDC_FINDINGS_MAX 64

/*
 * What an evidence value is, so that JSON carries it typed (a number is a
 * number) while text says it in words.  The unit is in the name, as in
 * every key: "miimon_ms", "speed_mbps"; counters keep the kernel's names.
 */
enum rdc_evidence_type {
	RDC_EV_TEXT, /* words: a name, a state, a list ("ens1f0np0 3, ens1f1np1 3,4") */
	RDC_EV_INT,
	RDC_EV_UINT,
	RDC_EV_REAL,
	RDC_EV_BOOL,
	RDC_EV_NONE, /* could not be read, or moved only (a delta without its total): null */
};

struct rdc_evidence {
	char *name; /* what the value is: "mtu_bytes", "link_down_events_phy" */
	enum rdc_evidence_type type;
	union {
		int64_t i;
		uint64_t u;
		double d;
		bool b;
	} num;
	/*
	 * A counter: with a window it moved by @delta in @window_s seconds (its
	 * total, when known, is the value); without one the value is its total
	 * since boot or its last reset.
	 */
	bool counter;
	bool windowed;
	uint64_t delta;
	double window_s;
	char *detail;	  /* what the value means, in words ("priorities 3 4"); "" none */
	char *value;	  /* the whole of it as text says it, made from the above */
	size_t words_len; /* of @value, before " (detail)" */
	char *source;	  /* "/sys/class/net/eth0/mtu", "rtnetlink IFLA_BOND_MIIMON" */
};

struct rdc_finding {
	char id[48];
	enum rdc_severity severity;
	/* What it is about, where that is one thing: all "" / 0 for the host. */
	char device[64];   /* RDMA device */
	unsigned int port; /* its port, 0 with no device */
	char netdev[16];   /* the port's netdev, or a netdev alone */
	char bond[16];	   /* a bond */
	char *title;
	size_t nevidence;
	struct rdc_evidence evidence[RDC_FINDING_MAX_EVIDENCE];
	char *why;
	char *fix;		  /* the command, or prose around it, or words alone */
	struct rdc_argv fix_argv; /* argc 0: no command (the fix is words) */
	/*
	 * It rests on counters' totals since boot or their last reset (one
	 * sample, or a count only ever read whole), not on a window: it says
	 * something happened once, and stays until the counters are reset.
	 * Metrics leave such findings out, so that alerts clear with their cause.
	 */
	bool since_reset;
};

struct rdc_findings {
	size_t count;
	struct rdc_finding items[RDC_FINDINGS_MAX];
	/* Findings that did not fit, and the worst of them (meaningful when dropped > 0). */
	size_t dropped;
	enum rdc_severity dropped_worst;
};

/* "info", "warn", "fail"; "unknown" for a value outside the enum. */
const char *rdc_severity_name(enum rdc_severity sev);
/* The inverse: 0 and the severity, or -EINVAL. */
int rdc_severity_parse(const char *name, enum rdc_severity *sev);

/* An empty list (of memory that holds none yet: clear a list that may hold findings). */
void rdc_findings_init(struct rdc_findings *list);
/* Free what the list's findings own and empty it; NULL does nothing. */
void rdc_findings_clear(struct rdc_findings *list);
/* An empty list on the heap (it is large), NULL without memory; free with rdc_findings_free(). */
struct rdc_findings *rdc_findings_new(void);
/* Clear and free a list from rdc_findings_new(); NULL does nothing. */
void rdc_findings_free(struct rdc_findings *list);
/*
 * Move @f (a finding of another list, or a copy of one) to the end of
 * @list, which then owns its strings; @f is left empty (its strings ""
 * again, nothing to free).  When @list is full the finding is dropped,
 * counted in @list->dropped, and its strings freed.  Returns the finding
 * in @list, or NULL.
 */
struct rdc_finding *rdc_findings_take(struct rdc_findings *list, struct rdc_finding *f);

/*
 * Append a finding with its id, severity and printf-formatted title (why,
 * fix and evidence empty).  Returns it, or NULL when the list is full (or
 * no memory holds its title): then the finding is counted in
 * @list->dropped, its severity in dropped_worst.
 * Every setter below accepts that NULL and does nothing, so a check can add
 * and fill a finding without testing each step.
 */
struct rdc_finding *rdc_findings_add(struct rdc_findings *list, const char *id,
				     enum rdc_severity sev, const char *title_fmt, ...)
	RDC_PRINTF(4, 5);
/* The same with the title's arguments as a va_list (a check's own add helper). */
struct rdc_finding *rdc_findings_vadd(struct rdc_findings *list, const char *id,
				      enum rdc_severity sev, const char *title_fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/*
 * Add one piece of evidence: @name (the unit in it, or the kernel's name of
 * a counter), where it was read (@source), and its value, typed.  Each
 * returns the evidence, or NULL when @f is NULL or already holds
 * RDC_FINDING_MAX_EVIDENCE, or no memory holds it (the evidence is
 * dropped); every call below
 * accepts that NULL, so that rdc_ev_detail(rdc_ev_uint(...), ...) is safe.
 * One value each: two values are two pieces of evidence.
 */
struct rdc_evidence *rdc_ev_text(struct rdc_finding *f, const char *name, const char *source,
				 const char *fmt, ...) RDC_PRINTF(4, 5);
struct rdc_evidence *rdc_ev_int(struct rdc_finding *f, const char *name, const char *source,
				int64_t v);
struct rdc_evidence *rdc_ev_uint(struct rdc_finding *f, const char *name, const char *source,
				 uint64_t v);
struct rdc_evidence *rdc_ev_real(struct rdc_finding *f, const char *name, const char *source,
				 double v);
struct rdc_evidence *rdc_ev_bool(struct rdc_finding *f, const char *name, const char *source,
				 bool v);
/* A value that could not be read (JSON null): @fmt says why ("unreadable", "not reported"). */
struct rdc_evidence *rdc_ev_unknown(struct rdc_finding *f, const char *name, const char *source,
				    const char *fmt, ...) RDC_PRINTF(4, 5);
/* A counter's total since boot or its last reset (one sample). */
struct rdc_evidence *rdc_ev_counter(struct rdc_finding *f, const char *name, const char *source,
				    uint64_t total);
/* A counter over a window: it moved by @delta in @window_s s and stands at @total now. */
struct rdc_evidence *rdc_ev_window(struct rdc_finding *f, const char *name, const char *source,
				   uint64_t delta, double window_s, uint64_t total);
/* The same where only the movement is known (the total is null). */
struct rdc_evidence *rdc_ev_delta(struct rdc_finding *f, const char *name, const char *source,
				  uint64_t delta, double window_s);
/* What the value means, in words: "priorities 3 4", "carrier up"; text shows it in brackets. */
void rdc_ev_detail(struct rdc_evidence *e, const char *fmt, ...) RDC_PRINTF(2, 3);
/* Mark @f as resting on counters' totals since boot or reset (see since_reset). */
void rdc_finding_since_reset(struct rdc_finding *f);
/* Add to the end of the title: ", ens1f1np1" after "member ens1f0np0 is not up". */
void rdc_finding_title_append(struct rdc_finding *f, const char *fmt, ...) RDC_PRINTF(2, 3);
/* Set (replace) the why and the fix text. */
void rdc_finding_why(struct rdc_finding *f, const char *fmt, ...) RDC_PRINTF(2, 3);
void rdc_finding_fix(struct rdc_finding *f, const char *fmt, ...) RDC_PRINTF(2, 3);
/*
 * The fix's command, as its words: RDC_WORDS("rdmactl", "bond", "set",
 * b->name, "miimon", "100").  The fix text keeps what rdc_finding_fix()
 * said (it names the command: tests check that it does), or becomes the
 * command when there is none yet.  Every word is a real value of the host:
 * a command that needs what the host cannot tell (a file, a cable length)
 * is no command, its fix is words.
 */
void rdc_finding_fix_cmd(struct rdc_finding *f, const char *const *words);
/* The same from words already gathered; the fix text becomes the command when empty. */
void rdc_finding_fix_argv(struct rdc_finding *f, const struct rdc_argv *a);
/* The command as one shell line into @buf, "" when the fix has none or @buf is too small. */
void rdc_finding_fix_command(const struct rdc_finding *f, char *buf, size_t size);
/* The same, whole, in a string the caller frees; NULL when the fix has none or without memory. */
char *rdc_finding_fix_command_dup(const struct rdc_finding *f);

/*
 * The worst severity in the list, dropped findings included; RDC_SEV_INFO
 * for an empty list (nothing to act on).  The caller maps it to an exit
 * status (`bond check`: 0 info only, 1 a fail, 3 warnings only).
 */
enum rdc_severity rdc_findings_worst(const struct rdc_findings *list);
/* How many findings of severity @sev the list holds (dropped ones not counted). */
size_t rdc_findings_count(const struct rdc_findings *list, enum rdc_severity sev);
/* The first finding with id @id, or NULL. */
const struct rdc_finding *rdc_findings_find(const struct rdc_findings *list, const char *id);
