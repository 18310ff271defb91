// SPDX-License-Identifier: GPL-2.0-or-later
/* finding.c - what a check found: fixed-size lists of findings that own their strings, whole */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/finding.h"
#include "base/util.h"

static const char *const sev_names[] = {
	[RDC_SEV_INFO] = "info",
	[RDC_SEV_WARN] = "warn",
	[RDC_SEV_FAIL] = "fail",
};

const char *rdc_severity_name(enum rdc_severity sev)
{
	if ((unsigned int)sev >= RDC_ARRAY_SIZE(sev_names))
		return "unknown";
	return sev_names[sev];
}

int rdc_severity_parse(const char *name, enum rdc_severity *sev)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(sev_names); i++) {
		if (!strcmp(name, sev_names[i])) {
			*sev = (enum rdc_severity)i;
			return 0;
		}
	}
	return -EINVAL;
}

void rdc_findings_init(struct rdc_findings *list)
{
	list->count = 0;
	list->dropped = 0;
	list->dropped_worst = RDC_SEV_INFO;
}

/*
 * The "" every string that is not set points to, so that readers never
 * meet NULL: never written to, never freed.
 */
static char fin_empty[1];

static void fin_str_free(char **s)
{
	if (*s && *s != fin_empty)
		free(*s);
	*s = fin_empty;
}

/* Replace *@s with @owned (a string of ours); a NULL @owned (no memory) keeps what was there. */
static void fin_str_set(char **s, char *owned)
{
	if (!owned)
		return;
	fin_str_free(s);
	*s = owned;
}

/* The whole formatted text in new memory, or NULL without memory. */
static char *fin_vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static char *fin_vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

static char *fin_format(const char *fmt, ...) RDC_PRINTF(1, 2);
static char *fin_format(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = fin_vformat(fmt, ap);
	va_end(ap);
	return s;
}

static void ev_clear(struct rdc_evidence *e)
{
	fin_str_free(&e->name);
	fin_str_free(&e->value);
	fin_str_free(&e->detail);
	fin_str_free(&e->source);
}

/* An empty finding: nothing to free, every string "". */
static void finding_blank(struct rdc_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->title = fin_empty;
	f->why = fin_empty;
	f->fix = fin_empty;
}

/* Free what @f owns and leave it blank. */
static void finding_clear(struct rdc_finding *f)
{
	fin_str_free(&f->title);
	fin_str_free(&f->why);
	fin_str_free(&f->fix);
	for (size_t k = 0; k < f->nevidence && k < RDC_ARRAY_SIZE(f->evidence); k++)
		ev_clear(&f->evidence[k]);
	finding_blank(f);
}

void rdc_findings_clear(struct rdc_findings *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->count && i < RDC_ARRAY_SIZE(list->items); i++)
		finding_clear(&list->items[i]);
	rdc_findings_init(list);
}

struct rdc_findings *rdc_findings_new(void)
{
	struct rdc_findings *list = malloc(sizeof(*list));

	if (list)
		rdc_findings_init(list);
	return list;
}

void rdc_findings_free(struct rdc_findings *list)
{
	rdc_findings_clear(list);
	free(list);
}

/* One more finding of @sev that has no place in @list. */
static void findings_drop(struct rdc_findings *list, enum rdc_severity sev)
{
	if (!list->dropped || sev > list->dropped_worst)
		list->dropped_worst = sev;
	list->dropped++;
}

struct rdc_finding *rdc_findings_vadd(struct rdc_findings *list, const char *id,
				      enum rdc_severity sev, const char *title_fmt, va_list ap)
{
	struct rdc_finding *f;
	char *title;

	if (list->count >= RDC_ARRAY_SIZE(list->items)) {
		findings_drop(list, sev);
		return NULL;
	}
	title = fin_vformat(title_fmt, ap);
	if (!title) {
		findings_drop(list, sev);
		return NULL;
	}
	f = &list->items[list->count++];
	/* A list may be reused or live on the stack: nothing of an earlier finding shows. */
	finding_blank(f);
	rdc_strlcpy(f->id, id, sizeof(f->id));
	f->severity = sev;
	f->title = title;
	return f;
}

struct rdc_finding *rdc_findings_add(struct rdc_findings *list, const char *id,
				     enum rdc_severity sev, const char *title_fmt, ...)
{
	struct rdc_finding *f;
	va_list ap;

	va_start(ap, title_fmt);
	f = rdc_findings_vadd(list, id, sev, title_fmt, ap);
	va_end(ap);
	return f;
}

struct rdc_finding *rdc_findings_take(struct rdc_findings *list, struct rdc_finding *f)
{
	struct rdc_finding *to;

	if (list->count >= RDC_ARRAY_SIZE(list->items)) {
		findings_drop(list, f->severity);
		finding_clear(f);
		return NULL;
	}
	to = &list->items[list->count++];
	*to = *f;
	/* One owner: @f no longer points at the strings. */
	finding_blank(f);
	return to;
}

/* The next evidence slot of @f, named, sourced and typed; NULL when none is left. */
static struct rdc_evidence *ev_new(struct rdc_finding *f, const char *name, const char *source,
				   enum rdc_evidence_type type)
{
	struct rdc_evidence *e;
	char *n, *src;

	if (!f || f->nevidence >= RDC_ARRAY_SIZE(f->evidence))
		return NULL;
	n = strdup(name ? name : "");
	src = strdup(source ? source : "");
	if (!n || !src) {
		free(n);
		free(src);
		return NULL;
	}
	e = &f->evidence[f->nevidence++];
	memset(e, 0, sizeof(*e));
	e->name = n;
	e->source = src;
	e->value = fin_empty;
	e->detail = fin_empty;
	e->type = type;
	return e;
}

/* Take back the evidence ev_new() just made (no memory to say it): the finding has one less. */
static struct rdc_evidence *ev_drop(struct rdc_finding *f)
{
	ev_clear(&f->evidence[--f->nevidence]);
	return NULL;
}

/*
 * Say @e in words into its value: "9000", "+1 in 5.0 s (now 74)", "74 (since
 * the counter's reset)", then " (detail)".  Text reads this; JSON the fields.
 * TEXT and NONE keep the words they were given.  -ENOMEM leaves the value
 * as it was.
 */
static int ev_render(struct rdc_evidence *e, const char *words)
{
	const char *said;
	char num[64] = "";
	char *value, *full;
	size_t words_len;

	switch (e->type) {
	case RDC_EV_INT:
		snprintf(num, sizeof(num), "%" PRId64, e->num.i);
		break;
	case RDC_EV_UINT:
		snprintf(num, sizeof(num), "%" PRIu64, e->num.u);
		break;
	case RDC_EV_REAL:
		snprintf(num, sizeof(num), "%g", e->num.d);
		break;
	case RDC_EV_BOOL:
		snprintf(num, sizeof(num), "%s", e->num.b ? "true" : "false");
		break;
	case RDC_EV_TEXT:
	case RDC_EV_NONE:
		break;
	}
	said = e->type == RDC_EV_TEXT || e->type == RDC_EV_NONE ? (words ? words : "") : num;
	if (e->windowed && e->type == RDC_EV_NONE)
		value = fin_format("+%" PRIu64 " in %.1f s", e->delta, e->window_s);
	else if (e->windowed)
		value = fin_format("+%" PRIu64 " in %.1f s (now %s)", e->delta, e->window_s, said);
	else if (e->counter)
		value = fin_format("%s (since the counter's reset)", said);
	else
		value = strdup(said);
	if (!value)
		return -ENOMEM;
	words_len = strlen(value);
	if (e->detail[0]) {
		full = fin_format("%s (%s)", value, e->detail);
		free(value);
		if (!full)
			return -ENOMEM;
		value = full;
	}
	fin_str_set(&e->value, value);
	e->words_len = words_len;
	return 0;
}

/* A TEXT or NONE evidence: its words are the value text says. */
static struct rdc_evidence *ev_vwords(struct rdc_finding *f, const char *name, const char *source,
				      enum rdc_evidence_type type, const char *fmt, va_list ap)
{
	struct rdc_evidence *e;
	char *words;
	int rc;

	if (!f || f->nevidence >= RDC_ARRAY_SIZE(f->evidence))
		return NULL;
	words = fin_vformat(fmt, ap);
	if (!words)
		return NULL;
	e = ev_new(f, name, source, type);
	rc = e ? ev_render(e, words) : -ENOMEM;
	free(words);
	if (rc)
		return e ? ev_drop(f) : NULL;
	return e;
}

struct rdc_evidence *rdc_ev_text(struct rdc_finding *f, const char *name, const char *source,
				 const char *fmt, ...)
{
	struct rdc_evidence *e;
	va_list ap;

	va_start(ap, fmt);
	e = ev_vwords(f, name, source, RDC_EV_TEXT, fmt, ap);
	va_end(ap);
	return e;
}

struct rdc_evidence *rdc_ev_unknown(struct rdc_finding *f, const char *name, const char *source,
				    const char *fmt, ...)
{
	struct rdc_evidence *e;
	va_list ap;

	va_start(ap, fmt);
	e = ev_vwords(f, name, source, RDC_EV_NONE, fmt, ap);
	va_end(ap);
	return e;
}

/* A number or boolean: @num already holds it; said in words by ev_render(). */
static struct rdc_evidence *ev_number(struct rdc_finding *f, const char *name, const char *source,
				      enum rdc_evidence_type type, const struct rdc_evidence *num)
{
	struct rdc_evidence *e = ev_new(f, name, source, type);

	if (!e)
		return NULL;
	e->num = num->num;
	e->counter = num->counter;
	e->windowed = num->windowed;
	e->delta = num->delta;
	e->window_s = num->window_s;
	if (ev_render(e, NULL))
		return ev_drop(f);
	return e;
}

struct rdc_evidence *rdc_ev_int(struct rdc_finding *f, const char *name, const char *source,
				int64_t v)
{
	return ev_number(f, name, source, RDC_EV_INT, &(struct rdc_evidence){.num.i = v});
}

struct rdc_evidence *rdc_ev_uint(struct rdc_finding *f, const char *name, const char *source,
				 uint64_t v)
{
	return ev_number(f, name, source, RDC_EV_UINT, &(struct rdc_evidence){.num.u = v});
}

struct rdc_evidence *rdc_ev_real(struct rdc_finding *f, const char *name, const char *source,
				 double v)
{
	return ev_number(f, name, source, RDC_EV_REAL, &(struct rdc_evidence){.num.d = v});
}

struct rdc_evidence *rdc_ev_bool(struct rdc_finding *f, const char *name, const char *source,
				 bool v)
{
	return ev_number(f, name, source, RDC_EV_BOOL, &(struct rdc_evidence){.num.b = v});
}

struct rdc_evidence *rdc_ev_counter(struct rdc_finding *f, const char *name, const char *source,
				    uint64_t total)
{
	return ev_number(f, name, source, RDC_EV_UINT,
			 &(struct rdc_evidence){.num.u = total, .counter = true});
}

struct rdc_evidence *rdc_ev_window(struct rdc_finding *f, const char *name, const char *source,
				   uint64_t delta, double window_s, uint64_t total)
{
	return ev_number(f, name, source, RDC_EV_UINT,
			 &(struct rdc_evidence){.num.u = total,
						.counter = true,
						.windowed = true,
						.delta = delta,
						.window_s = window_s});
}

/* The total is null: NONE, said as "+D in W s" alone. */
struct rdc_evidence *rdc_ev_delta(struct rdc_finding *f, const char *name, const char *source,
				  uint64_t delta, double window_s)
{
	return ev_number(
		f, name, source, RDC_EV_NONE,
		&(struct rdc_evidence){
			.counter = true, .windowed = true, .delta = delta, .window_s = window_s});
}

void rdc_ev_detail(struct rdc_evidence *e, const char *fmt, ...)
{
	char *detail, *words;
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	detail = fin_vformat(fmt, ap);
	va_end(ap);
	/* TEXT and NONE values are their words, without an earlier detail. */
	words = strndup(e->value, e->words_len);
	if (!detail || !words) {
		free(detail);
		free(words);
		return;
	}
	fin_str_set(&e->detail, detail);
	ev_render(e, words);
	free(words);
}

void rdc_finding_since_reset(struct rdc_finding *f)
{
	if (f)
		f->since_reset = true;
}

void rdc_finding_title_append(struct rdc_finding *f, const char *fmt, ...)
{
	char *more;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	more = fin_vformat(fmt, ap);
	va_end(ap);
	if (!more)
		return;
	fin_str_set(&f->title, fin_format("%s%s", f->title, more));
	free(more);
}

void rdc_finding_why(struct rdc_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	fin_str_set(&f->why, fin_vformat(fmt, ap));
	va_end(ap);
}

void rdc_finding_fix(struct rdc_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	fin_str_set(&f->fix, fin_vformat(fmt, ap));
	va_end(ap);
}

void rdc_finding_fix_cmd(struct rdc_finding *f, const char *const *words)
{
	struct rdc_argv a = {0};

	for (; *words; words++)
		rdc_argv_add(&a, *words);
	rdc_finding_fix_argv(f, &a);
}

void rdc_finding_fix_argv(struct rdc_finding *f, const struct rdc_argv *a)
{
	if (!f)
		return;
	f->fix_argv = *a;
	if (!f->fix[0])
		fin_str_set(&f->fix, rdc_finding_fix_command_dup(f));
}

void rdc_finding_fix_command(const struct rdc_finding *f, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (rdc_argv_ok(&f->fix_argv))
		rdc_argv_join(&f->fix_argv, buf, size);
}

char *rdc_finding_fix_command_dup(const struct rdc_finding *f)
{
	size_t size;
	char *line;

	if (!f || !rdc_argv_ok(&f->fix_argv))
		return NULL;
	size = rdc_argv_join(&f->fix_argv, NULL, 0) + 1;
	line = malloc(size);
	if (line)
		rdc_argv_join(&f->fix_argv, line, size);
	return line;
}

enum rdc_severity rdc_findings_worst(const struct rdc_findings *list)
{
	enum rdc_severity worst = list->dropped ? list->dropped_worst : RDC_SEV_INFO;

	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].severity > worst)
			worst = list->items[i].severity;
	return worst;
}

size_t rdc_findings_count(const struct rdc_findings *list, enum rdc_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < list->count; i++)
		n += list->items[i].severity == sev;
	return n;
}

const struct rdc_finding *rdc_findings_find(const struct rdc_findings *list, const char *id)
{
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->items[i].id, id))
			return &list->items[i];
	return NULL;
}
