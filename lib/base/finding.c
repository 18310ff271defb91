// SPDX-License-Identifier: GPL-2.0-or-later
/* finding.c - what a check found: fixed-size lists, truncation safe */
#include <errno.h>
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

int rdc_finding_evidence(struct rdc_finding *f, const char *name, const char *source,
			 const char *fmt, ...)
{
	struct rdc_evidence *e;
	va_list ap;

	if (!f || f->nevidence >= RDC_ARRAY_SIZE(f->evidence))
		return -ENOSPC;
	e = &f->evidence[f->nevidence++];
	rdc_strlcpy(e->name, name, sizeof(e->name));
	rdc_strlcpy(e->source, source, sizeof(e->source));
	va_start(ap, fmt);
	finding_vformat(e->value, sizeof(e->value), fmt, ap);
	va_end(ap);
	return 0;
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
