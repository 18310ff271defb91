// SPDX-License-Identifier: GPL-2.0-or-later
/* sysval.c - one sysfs value: read, absent, or a recorded reason why not */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/sysval.h"
#include "seam/fs.h"

void rdc_sysval_bad(struct rdc_issues *is, const char *path, const char *text, const char *what)
{
	/* The text goes to a terminal in the message: no raw control characters (4 bytes a byte). */
	size_t size = 4 * strlen(text) + 1;
	char *shown = malloc(size);

	if (shown)
		rdc_str_escape(shown, size, text, false);
	rdc_issues_addf(is, EINVAL, "'%s' holds '%s', not %s", path, shown ? shown : "?", what);
	free(shown);
}

/* The path is built in @path (PATH_MAX bytes, the fs layer's limit): a message names it whole. */
static int sysval_read(struct rdc_issues *is, char *buf, size_t size, char *path, const char *fmt,
		       va_list ap)
{
	struct rdc_err err = {0};
	int rc = vsnprintf(path, PATH_MAX, fmt, ap);

	if (rc < 0 || rc >= PATH_MAX) {
		path[0] = '\0';
		rdc_issues_addf(is, ENAMETOOLONG, "path too long"); /* as the fs layer says it */
		return -ENAMETOOLONG;
	}
	rc = rdc_fs_read(buf, size, &err, "%s", path);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0) {
		rdc_issues_add(is, &err);
		return rc;
	}
	return 1;
}

int rdc_sysval_str(struct rdc_issues *is, char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sysval_read(is, buf, size, path, fmt, ap);
	va_end(ap);
	if (rc <= 0)
		buf[0] = '\0';
	return rc;
}

int rdc_sysval_u64(struct rdc_issues *is, uint64_t *v, const char *fmt, ...)
{
	char path[PATH_MAX], buf[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sysval_read(is, buf, sizeof(buf), path, fmt, ap);
	va_end(ap);
	if (rc > 0) {
		rc = rdc_parse_u64(buf, 10, v);
		if (rc)
			rdc_sysval_bad(is, path, buf,
				       rc == -ERANGE ? "a number below 2^64" : "a decimal number");
		else
			rc = 1;
	}
	return rc;
}

int rdc_sysval_i64(struct rdc_issues *is, int64_t *v, const char *fmt, ...)
{
	char path[PATH_MAX], buf[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sysval_read(is, buf, sizeof(buf), path, fmt, ap);
	va_end(ap);
	if (rc > 0) {
		rc = rdc_parse_i64(buf, v);
		if (rc)
			rdc_sysval_bad(is, path, buf, "a decimal number");
		else
			rc = 1;
	}
	return rc;
}
