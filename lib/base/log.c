// SPDX-License-Identifier: GPL-2.0-or-later
/* log.c - messages on stderr with levels */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"

static const char *log_prog = "rdmactl";
static enum rdc_log_level log_level = RDC_LOG_WARN;

void rdc_log_init(const char *prog, enum rdc_log_level level)
{
	log_prog = prog;
	log_level = level;
}

void rdc_log(enum rdc_log_level level, const char *fmt, ...)
{
	static const char *const prefix[] = {
		[RDC_LOG_ERR] = "",
		[RDC_LOG_WARN] = "warning: ",
		[RDC_LOG_INFO] = "",
		[RDC_LOG_DEBUG] = "debug: ",
	};
	va_list ap;

	/* Errors are always shown; -q only silences warnings and information. */
	if (level > log_level && level != RDC_LOG_ERR)
		return;
	fprintf(stderr, "%s: %s", log_prog, prefix[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void rdc_log_error_record(const char *verb, const struct rdc_err *err)
{
	fprintf(stderr, "%s: ", log_prog);
	if (verb)
		fprintf(stderr, "%s: ", verb);
	fputs(err->msg[0] ? err->msg : "failed", stderr);
	if (err->code)
		fprintf(stderr, ": %s", strerror(err->code));
	if (err->detail[0])
		fprintf(stderr, " (%s)", err->detail);
	fputc('\n', stderr);
}
