// SPDX-License-Identifier: GPL-2.0-or-later
/* issues.c - values that exist but could not be read or parsed, one record each */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/issues.h"

static void issue_free(struct rdc_issue *it)
{
	free(it->msg);
	free(it->detail);
}

/* Keep @it (its strings now the list's); without room or memory it is counted lost and freed. */
static void issues_keep(struct rdc_issues *is, struct rdc_issue *it)
{
	if (!it->msg || !it->detail || is->count >= RDC_ISSUES_MAX) {
		issue_free(it);
		is->lost++;
		return;
	}
	/* One block of RDC_ISSUES_MAX: most lists never get a record, few get more than one. */
	if (!is->items) {
		is->items = calloc(RDC_ISSUES_MAX, sizeof(*is->items));
		if (!is->items) {
			issue_free(it);
			is->lost++;
			return;
		}
	}
	is->items[is->count++] = *it;
}

void rdc_issues_add(struct rdc_issues *is, const struct rdc_err *err)
{
	struct rdc_issue it;

	if (!is)
		return;
	it.code = err->code;
	it.plain = err->plain;
	it.msg = strdup(err->msg);
	it.detail = strdup(err->detail);
	issues_keep(is, &it);
}

void rdc_issues_addf(struct rdc_issues *is, int code, const char *fmt, ...)
{
	struct rdc_issue it = {.code = code};
	va_list ap;

	if (!is)
		return;
	va_start(ap, fmt);
	if (vasprintf(&it.msg, fmt, ap) < 0)
		it.msg = NULL;
	va_end(ap);
	it.detail = strdup("");
	issues_keep(is, &it);
}

bool rdc_issues_any(const struct rdc_issues *is)
{
	return is->count || is->lost;
}

void rdc_issues_copy(struct rdc_issues *to, const struct rdc_issues *from)
{
	memset(to, 0, sizeof(*to));
	for (unsigned int i = 0; i < from->count; i++) {
		struct rdc_issue it = from->items[i];

		it.msg = strdup(it.msg);
		it.detail = strdup(it.detail);
		issues_keep(to, &it);
	}
	to->lost += from->lost;
}

static bool issues_have(const struct rdc_issues *is, const char *msg)
{
	for (unsigned int i = 0; i < is->count; i++)
		if (!strcmp(is->items[i].msg, msg))
			return true;
	return false;
}

void rdc_issues_merge(struct rdc_issues *to, struct rdc_issues *from)
{
	for (unsigned int i = 0; i < from->count; i++) {
		if (issues_have(to, from->items[i].msg))
			issue_free(&from->items[i]);
		else
			issues_keep(to, &from->items[i]);
	}
	to->lost += from->lost;
	free(from->items);
	memset(from, 0, sizeof(*from));
}

void rdc_issues_keep_matching(struct rdc_issues *is, const char *needle)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < is->count; i++) {
		if (strstr(is->items[i].msg, needle))
			is->items[kept++] = is->items[i];
		else
			issue_free(&is->items[i]);
	}
	is->count = kept;
	is->lost = 0;
}

void rdc_issues_free(struct rdc_issues *is)
{
	if (!is)
		return;
	for (unsigned int i = 0; i < is->count; i++)
		issue_free(&is->items[i]);
	free(is->items);
	memset(is, 0, sizeof(*is));
}
