// SPDX-License-Identifier: GPL-2.0-or-later
/* finding.c - what a check found: fixed-size lists, truncation safe */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
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

/* vsnprintf cuts what does not fit and always terminates; the cut is accepted. */
static void finding_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	rdc_words_vformat(buf, size, fmt, ap);
}

struct rdc_finding *rdc_findings_add(struct rdc_findings *list, const char *id,
				     enum rdc_severity sev, const char *title_fmt, ...)
{
	struct rdc_finding *f;
	va_list ap;

	if (list->count >= RDC_ARRAY_SIZE(list->items)) {
		if (!list->dropped || sev > list->dropped_worst)
			list->dropped_worst = sev;
		list->dropped++;
		return NULL;
	}
	f = &list->items[list->count++];
	/* A list may be reused or live on the stack: nothing of an earlier finding shows. */
	memset(f, 0, sizeof(*f));
	rdc_strlcpy(f->id, id, sizeof(f->id));
	f->severity = sev;
	va_start(ap, title_fmt);
	finding_vformat(f->title, sizeof(f->title), title_fmt, ap);
	va_end(ap);
	return f;
}

static void ev_format(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);
static void ev_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rdc_words_vformat(buf, size, fmt, ap);
	va_end(ap);
}

/* The next evidence slot of @f, named, sourced and typed; NULL when none is left. */
static struct rdc_evidence *ev_new(struct rdc_finding *f, const char *name, const char *source,
				   enum rdc_evidence_type type)
{
	struct rdc_evidence *e;

	if (!f || f->nevidence >= RDC_ARRAY_SIZE(f->evidence))
		return NULL;
	e = &f->evidence[f->nevidence++];
	memset(e, 0, sizeof(*e));
	rdc_strlcpy(e->name, name, sizeof(e->name));
	rdc_strlcpy(e->source, source, sizeof(e->source));
	e->type = type;
	return e;
}

/*
 * Say @e in words into its value: "9000", "+1 in 5.0 s (now 74)", "74 (since
 * the counter's reset)", then " (detail)".  Text reads this; JSON the fields.
 * TEXT and NONE keep the words they were given.
 */
static void ev_render(struct rdc_evidence *e, const char *words)
{
	char num[64] = "";

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
		snprintf(num, sizeof(num), "%s", words ? words : "");
		break;
	}
	if (e->windowed && e->type == RDC_EV_NONE)
		ev_format(e->value, sizeof(e->value), "+%" PRIu64 " in %.1f s", e->delta,
			  e->window_s);
	else if (e->windowed)
		ev_format(e->value, sizeof(e->value), "+%" PRIu64 " in %.1f s (now %s)", e->delta,
			  e->window_s, num);
	else if (e->counter)
		ev_format(e->value, sizeof(e->value), "%s (since the counter's reset)", num);
	else if (e->type == RDC_EV_TEXT || e->type == RDC_EV_NONE)
		ev_format(e->value, sizeof(e->value), "%s", words ? words : "");
	else
		rdc_strlcpy(e->value, num, sizeof(e->value));
	e->words_len = strlen(e->value);
	if (e->detail[0] && e->words_len + 4 < sizeof(e->value))
		ev_format(e->value + e->words_len, sizeof(e->value) - e->words_len, " (%s)",
			  e->detail);
}

/* A TEXT or NONE evidence: its words are the value text says. */
static struct rdc_evidence *ev_vwords(struct rdc_finding *f, const char *name, const char *source,
				      enum rdc_evidence_type type, const char *fmt, va_list ap)
{
	struct rdc_evidence *e = ev_new(f, name, source, type);
	char words[sizeof(e->value)];

	if (!e)
		return NULL;
	finding_vformat(words, sizeof(words), fmt, ap);
	ev_render(e, words);
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
	ev_render(e, NULL);
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
	char words[sizeof(e->value)];
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	rdc_words_vformat(e->detail, sizeof(e->detail), fmt, ap);
	va_end(ap);
	/* TEXT and NONE values are their words, without an earlier detail. */
	rdc_strlcpy(words, e->value, sizeof(words));
	if (e->words_len < sizeof(words))
		words[e->words_len] = '\0';
	ev_render(e, words);
}

void rdc_finding_since_reset(struct rdc_finding *f)
{
	if (f)
		f->since_reset = true;
}

void rdc_finding_why(struct rdc_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	finding_vformat(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
}

void rdc_finding_fix(struct rdc_finding *f, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	finding_vformat(f->fix, sizeof(f->fix), fmt, ap);
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
		rdc_argv_join(&f->fix_argv, f->fix, sizeof(f->fix));
}

void rdc_finding_fix_command(const struct rdc_finding *f, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (rdc_argv_ok(&f->fix_argv))
		rdc_argv_join(&f->fix_argv, buf, size);
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
