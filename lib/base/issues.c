// SPDX-License-Identifier: GPL-2.0-or-later
/* issues.c - values that exist but could not be read or parsed, one record each */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/issues.h"

void rdc_issues_add(struct rdc_issues *is, const struct rdc_err *err)
{
	if (!is)
		return;
	if (is->count >= RDC_ISSUES_MAX) {
		is->lost++;
		return;
	}
	is->items[is->count++] = *err;
}

void rdc_issues_addf(struct rdc_issues *is, int code, const char *fmt, ...)
{
	struct rdc_err e = {.code = code};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	rdc_issues_add(is, &e);
}

bool rdc_issues_any(const struct rdc_issues *is)
{
	return is->count || is->lost;
}
