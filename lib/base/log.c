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
	/* Escaped, a byte takes at most 4 ("\xNN"; a "\uNNNN" stands for 2 bytes or more). */
	size_t size = 4 * strlen(s) + 1;
	char *esc = malloc(size);

	if (!esc) {
		fputs("(no memory for the message)", stderr);
		return;
	}
	rdc_str_escape(esc, size, s, keep_nl);
	fputs(esc, stderr);
	free(esc);
}

void rdc_log_error_parts(const char *verb, const char *msg, int code, bool plain,
			 const char *detail)
{
	fprintf(stderr, "%s: ", log_prog);
	if (verb)
		fprintf(stderr, "%s: ", verb);
	log_put(msg[0] ? msg : "failed", false);
	if (code && !plain)
		fprintf(stderr, ": %s", strerror(code));
	if (detail[0]) {
		fputs(" (", stderr);
		log_put(detail, false);
		fputc(')', stderr);
	}
	fputc('\n', stderr);
}

void rdc_log_error_record(const char *verb, const struct rdc_err *err)
{
	rdc_log_error_parts(verb, err->msg, err->code, err->plain, err->detail);
}
