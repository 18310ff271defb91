// SPDX-License-Identifier: GPL-2.0-or-later
/* log.c - messages on stderr with levels */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/textfmt.h"
#include "base/util.h"

static const char *log_prog = "rdmactl";
static enum rdc_log_level log_level = RDC_LOG_WARN;

#define LOG_TEXT_MAX 1024 /* one message, before escaping */

static void log_put(const char *s, bool keep_nl);

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
	char *text;

	/* Errors are always shown; -q only silences warnings and information. */
	if (level > log_level && level != RDC_LOG_ERR)
		return;
	/* A newline in an argument (a name from a file) is escaped; the format's own stays. */
	va_start(ap, fmt);
	text = rdc_text_vasprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s", log_prog, prefix[level]);
	log_put(text ? text : "(no memory for the message)", true);
	free(text);
	fputc('\n', stderr);
}

/*
 * Messages carry what files and peers said (a sysfs string, a bench peer's
 * ERROR text): control characters and invalid UTF-8 go out as \xNN, never raw
 * to a terminal (base/util.h rdc_str_escape()).
 */
static void log_put(const char *s, bool keep_nl)
{
	char esc[4 * LOG_TEXT_MAX + 1];

	rdc_str_escape(esc, sizeof(esc), s, keep_nl); /* cut at a whole character if too long */
	fputs(esc, stderr);
}

void rdc_log_error_record(const char *verb, const struct rdc_err *err)
{
	fprintf(stderr, "%s: ", log_prog);
	if (verb)
		fprintf(stderr, "%s: ", verb);
	log_put(err->msg[0] ? err->msg : "failed", false);
	if (err->code && !err->plain)
		fprintf(stderr, ": %s", strerror(err->code));
	if (err->detail[0]) {
		fputs(" (", stderr);
		log_put(err->detail, false);
		fputc(')', stderr);
	}
	fputc('\n', stderr);
}
