// SPDX-License-Identifier: GPL-2.0-or-later
/* err.c - error records */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

int rdc_err_set(struct rdc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (code < 0)
		code = -code;
	if (err) {
		err->code = code;
		err->detail[0] = '\0';
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void rdc_err_detail(struct rdc_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void rdc_err_clear(struct rdc_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}
