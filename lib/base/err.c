// SPDX-License-Identifier: GPL-2.0-or-later
/* err.c - error records */
#define _GNU_SOURCE /* vasprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"

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
		err->kind = RDC_ERRK_AUTO;
		err->object[0] = '\0';
		/* Whole for every message of ours (err.h sizes msg); the word cut is the last resort. */
		rdc_words_vformat(err->msg, sizeof(err->msg), fmt, ap);
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
		rdc_words_vformat(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

/* "@a@sep@b" into @buf, cut at a word if it must be; false without memory. */
static bool err_join(char *buf, size_t size, const char *a, const char *sep, const char *b)
{
	char *all;

	if (asprintf(&all, "%s%s%s", a, sep, b) < 0)
		return false;
	rdc_words_copy(buf, size, all);
	free(all);
	return true;
}

void rdc_err_prefix(struct rdc_err *err, const char *fmt, ...)
{
	char *prefix;
	va_list ap;
	int n;

	if (!err)
		return;
	va_start(ap, fmt);
	n = vasprintf(&prefix, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* The message stays one line; what does not fit is cut at a word, never mid-word. */
	err_join(err->msg, sizeof(err->msg), prefix, ": ", err->msg);
	free(prefix);
}

void rdc_err_append(struct rdc_err *err, const char *fmt, ...)
{
	char *more;
	va_list ap;
	int n;

	if (!err)
		return;
	va_start(ap, fmt);
	n = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	err_join(err->detail, sizeof(err->detail), err->detail, err->detail[0] ? "; " : "", more);
	free(more);
}

void rdc_err_detail(struct rdc_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	rdc_words_vformat(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void rdc_err_clear(struct rdc_err *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

void rdc_err_mark(struct rdc_err *err, enum rdc_err_kind kind, const char *object)
{
	if (!err)
		return;
	err->kind = kind;
	snprintf(err->object, sizeof(err->object), "%s", object ? object : "");
}

static const char *const err_ids[RDC_ERRK_COUNT] = {
	[RDC_ERRK_AUTO] = "failed",
	[RDC_ERRK_USAGE] = "usage",
	[RDC_ERRK_NOT_FOUND] = "not-found",
	[RDC_ERRK_EXISTS] = "exists",
	[RDC_ERRK_NOT_SUPPORTED] = "not-supported",
	[RDC_ERRK_NO_DCB] = "no-dcb",
	[RDC_ERRK_PERMISSION] = "permission-denied",
	[RDC_ERRK_BUSY] = "busy",
	[RDC_ERRK_OFFLINE] = "live-only",
	[RDC_ERRK_INVALID] = "invalid",
	[RDC_ERRK_BAD_DATA] = "bad-data",
	[RDC_ERRK_IO] = "io-error",
	[RDC_ERRK_TIMEOUT] = "timeout",
	[RDC_ERRK_PEER] = "peer",
	[RDC_ERRK_NO_MEMORY] = "no-memory",
	[RDC_ERRK_FAILED] = "failed",
};

const char *rdc_err_kind_id(enum rdc_err_kind kind)
{
	return (unsigned int)kind < RDC_ERRK_COUNT ? err_ids[kind] : err_ids[RDC_ERRK_FAILED];
}

/* The class of an errno, for records nobody marked: what the kernel or libc said. */
static enum rdc_err_kind errno_kind(int code)
{
	switch (code) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case ESRCH:
	case ENOTDIR:
		return RDC_ERRK_NOT_FOUND;
	case EEXIST:
		return RDC_ERRK_EXISTS;
	case EOPNOTSUPP:
	case EPROTONOSUPPORT:
	case EAFNOSUPPORT:
	case ENOSYS:
		return RDC_ERRK_NOT_SUPPORTED;
	case EPERM:
	case EACCES:
		return RDC_ERRK_PERMISSION;
	case EBUSY:
	case EAGAIN:
		return RDC_ERRK_BUSY;
	case EINVAL:
	case ERANGE:
	case E2BIG:
	case ENAMETOOLONG:
		return RDC_ERRK_INVALID;
	case EBADMSG:
	case EILSEQ:
	case EOVERFLOW:
	case ENODATA:
	case EMSGSIZE:
		return RDC_ERRK_BAD_DATA;
	case EIO:
	case EROFS:
	case ENOSPC:
	case EDQUOT:
		return RDC_ERRK_IO;
	case ETIMEDOUT:
		return RDC_ERRK_TIMEOUT;
	case ECONNREFUSED:
	case ECONNRESET:
	case ECONNABORTED:
	case EPIPE:
	case EPROTO:
	case EHOSTUNREACH:
	case ENETUNREACH:
		return RDC_ERRK_PEER;
	case ENOMEM:
		return RDC_ERRK_NO_MEMORY;
	default:
		return RDC_ERRK_FAILED;
	}
}

enum rdc_err_kind rdc_err_kind_of(const struct rdc_err *err)
{
	if (err->kind > RDC_ERRK_AUTO && err->kind < RDC_ERRK_COUNT)
		return err->kind;
	if (err->usage)
		return RDC_ERRK_USAGE;
	return errno_kind(err->code);
}

void rdc_err_describe(const struct rdc_err *err, char *buf, size_t size)
{
	int n;

	n = snprintf(buf, size, "%s", err->msg[0] ? err->msg : "failed");
	if (n >= 0 && (size_t)n < size && err->code && !err->plain)
		n += snprintf(buf + n, size - (size_t)n, ": %s", strerror(err->code));
	if (n >= 0 && (size_t)n < size && err->detail[0])
		snprintf(buf + n, size - (size_t)n, " (%s)", err->detail);
}
