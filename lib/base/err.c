// SPDX-License-Identifier: GPL-2.0-or-later
/* err.c - error records */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

/* Fill @err with a fresh record (no detail); the three setters differ in the flags only. */
static int err_vset(struct rdc_err *err, int code, int plain, int usage, const char *fmt,
		    va_list ap)
{
	if (code < 0)
		code = -code;
	if (err) {
		err->code = code;
		err->plain = plain;
		err->usage = usage;
		err->detail[0] = '\0';
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -code;
}

int rdc_err_set(struct rdc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = err_vset(err, code, 0, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int rdc_err_set_plain(struct rdc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = err_vset(err, code, 1, 0, fmt, ap);
	va_end(ap);
	return rc;
}

int rdc_err_set_usage(struct rdc_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = err_vset(err, EINVAL, 1, 1, fmt, ap);
	va_end(ap);
	return rc;
}

int rdc_err_restate(struct rdc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (code < 0)
		code = -code;
	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void rdc_err_prefix(struct rdc_err *err, const char *fmt, ...)
{
	char msg[sizeof(err->msg)];
	size_t len;
	va_list ap;

	if (!err)
		return;
	memcpy(msg, err->msg, sizeof(msg));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	/* What does not fit is cut: the message stays one line. */
	if (len + 3 < sizeof(err->msg)) {
		size_t room = sizeof(err->msg) - len - 3, n = strlen(msg);

		memcpy(err->msg + len, ": ", 2);
		memcpy(err->msg + len + 2, msg, n < room ? n : room);
		err->msg[len + 2 + (n < room ? n : room)] = '\0';
	}
}

void rdc_err_append(struct rdc_err *err, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!err)
		return;
	len = strlen(err->detail);
	if (len && len + 2 < sizeof(err->detail)) {
		memcpy(err->detail + len, "; ", 3);
		len += 2;
	}
	if (len >= sizeof(err->detail) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(err->detail + len, sizeof(err->detail) - len, fmt, ap);
	va_end(ap);
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
