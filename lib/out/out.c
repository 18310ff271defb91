// SPDX-License-Identifier: GPL-2.0-or-later
/* out.c - output core: routes each field to text or to a machine backend */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/textfmt.h"
#include "base/util.h"
#include "out/out.h"
#include "out/out_impl.h"

struct rdc_out {
	FILE *fp;
	enum rdc_out_format format;
	bool color;
	const struct out_backend *backend; /* NULL for text */
	void *state;
	int write_errno;	/* why a write first failed (ENOSPC), seen at a flush */
	unsigned int documents; /* begun by rdc_out_begin() in a machine format */
};

static const char *const color_start[] = {
	[RDC_COLOR_NONE] = "",		 [RDC_COLOR_GREEN] = "\033[32m",
	[RDC_COLOR_YELLOW] = "\033[33m", [RDC_COLOR_RED] = "\033[31m",
	[RDC_COLOR_BOLD] = "\033[1m",
};
#define COLOR_RESET "\033[0m"

struct rdc_out *rdc_out_new(FILE *fp, enum rdc_out_format format, bool pretty, bool color)
{
	struct rdc_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fp = fp;
	o->format = format;
	/* Colour is for people reading text; machine formats never carry escapes. */
	o->color = color && format == RDC_FMT_TEXT;
	if (format == RDC_FMT_JSON)
		o->backend = &rdc_out_json_backend;
	else if (format == RDC_FMT_YAML)
		o->backend = &rdc_out_yaml_backend;
	if (o->backend) {
		o->state = o->backend->open(fp, pretty);
		if (!o->state) {
			free(o);
			return NULL;
		}
	}
	return o;
}

int rdc_out_free(struct rdc_out *o)
{
	int rc = 0;

	if (!o)
		return 0;
	if (o->backend)
		rc = o->backend->close(o->state);
	/* The reason, not a bare EIO: "No space left on device" is what to fix. */
	errno = 0;
	if ((fflush(o->fp) != 0 || ferror(o->fp)) && !o->write_errno && errno > 0)
		o->write_errno = errno;
	if (ferror(o->fp))
		rc = o->write_errno ? -o->write_errno : -EIO;
	free(o);
	return rc;
}

int rdc_out_raw(struct rdc_out *o, const void *buf, size_t len)
{
	errno = 0;
	if (fwrite(buf, 1, len, o->fp) == len && fflush(o->fp) == 0)
		return 0;
	if (!o->write_errno)
		o->write_errno = errno > 0 ? errno : EIO;
	return -o->write_errno;
}

bool rdc_out_is_text(const struct rdc_out *o)
{
	return !o->backend;
}

static bool out_machine(const struct rdc_out *o, enum rdc_out_sink sink)
{
	return o->backend && sink != RDC_OUT_TEXT;
}

static bool out_textual(const struct rdc_out *o, enum rdc_out_sink sink, const char *fmt)
{
	return !o->backend && sink != RDC_OUT_MACHINE && fmt;
}

/*
 * Text goes to a terminal: what comes from a file or a peer (a board_id, a
 * counter name, an error text) must not reach it raw.  Control characters
 * and bytes that are not UTF-8 are written as \xNN; newline and tab, which
 * the formats themselves use, only when they are inside a value.
 */
static void out_put_text(struct rdc_out *o, const char *s, bool keep_nl)
{
	size_t size;
	char *esc;

	if (!rdc_str_needs_escape(s, keep_nl)) {
		fputs(s, o->fp);
		return;
	}
	size = 4 * strlen(s) + 1;
	esc = malloc(size);
	if (!esc) {
		/* No memory for the escaped form: leave the value out rather than print it raw. */
		fputs("?", o->fp);
		return;
	}
	rdc_str_escape(esc, size, s, keep_nl);
	fputs(esc, o->fp);
	free(esc);
}

/* A value made safe for text: the escaped copy (free it) or @v itself. */
static char *out_text_value(const char *v, char **owned)
{
	size_t size;

	*owned = NULL;
	if (!rdc_str_needs_escape(v, false))
		return (char *)v;
	size = 4 * strlen(v) + 1;
	*owned = malloc(size);
	if (!*owned)
		return (char *)"?";
	rdc_str_escape(*owned, size, v, false);
	return *owned;
}

unsigned int rdc_out_documents(const struct rdc_out *o)
{
	return o->documents;
}

void rdc_out_begin(struct rdc_out *o, const char *kind)
{
	if (!o->backend)
		return;
	o->documents++;
	o->backend->doc_begin(o->state);
	o->backend->obj_open(o->state, NULL);
	/*
	 * The JSON stability promise: within one schema version keys are only
	 * ever added to; a rename or reshape bumps it (docs/json.md).
	 */
	o->backend->scalar(o->state, "schema", OUT_NUMBER, RDC_OUT_SCHEMA_TEXT);
	o->backend->scalar(o->state, "kind", OUT_STRING, kind);
}

void rdc_out_end(struct rdc_out *o)
{
	if (o->backend) {
		o->backend->obj_close(o->state);
		o->backend->doc_end(o->state);
	}
	/*
	 * A document is complete: let a reader of a stream see it now.  A write
	 * that failed is retried by the flush, which sets errno again: keep it.
	 */
	errno = 0;
	if ((fflush(o->fp) != 0 || ferror(o->fp)) && !o->write_errno && errno > 0)
		o->write_errno = errno;
}

void rdc_out_obj_open(struct rdc_out *o, const char *key)
{
	if (o->backend)
		o->backend->obj_open(o->state, key);
}

void rdc_out_obj_close(struct rdc_out *o)
{
	if (o->backend)
		o->backend->obj_close(o->state);
}

void rdc_out_arr_open(struct rdc_out *o, const char *key)
{
	if (o->backend)
		o->backend->arr_open(o->state, key);
}

void rdc_out_arr_close(struct rdc_out *o)
{
	if (o->backend)
		o->backend->arr_close(o->state);
}

/* The format strings come from our own tables, always with one conversion. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void rdc_out_str_color(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		       const char *v, enum rdc_color color)
{
	char *owned;

	if (out_machine(o, sink)) {
		o->backend->scalar(o->state, key, v ? OUT_STRING : OUT_NULL, v);
		return;
	}
	if (!out_textual(o, sink, fmt) || !v)
		return;
	v = out_text_value(v, &owned);
	if (o->color && color != RDC_COLOR_NONE) {
		/* Colour only the value, not the label around it: split at the %s. */
		const char *conv = fmt, *end;
		char spec[16];

		while ((conv = strchr(conv, '%')) && conv[1] == '%')
			conv += 2;
		end = conv ? strchr(conv, 's') : NULL;
		if (end && (size_t)(end - conv + 2) <= sizeof(spec)) {
			snprintf(spec, (size_t)(end - conv + 2), "%s", conv);
			fprintf(o->fp, "%.*s%s", (int)(conv - fmt), fmt, color_start[color]);
			fprintf(o->fp, spec, v);
			fprintf(o->fp, COLOR_RESET "%s", end + 1);
			free(owned);
			return;
		}
	}
	fprintf(o->fp, fmt, v);
	free(owned);
}

void rdc_out_str(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 const char *v)
{
	rdc_out_str_color(o, sink, key, fmt, v, RDC_COLOR_NONE);
}

void rdc_out_u64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 uint64_t v)
{
	char buf[32];

	if (out_machine(o, sink)) {
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		o->backend->scalar(o->state, key, OUT_NUMBER, buf);
	} else if (out_textual(o, sink, fmt)) {
		fprintf(o->fp, fmt, v);
	}
}

void rdc_out_i64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 int64_t v)
{
	char buf[32];

	if (out_machine(o, sink)) {
		snprintf(buf, sizeof(buf), "%" PRId64, v);
		o->backend->scalar(o->state, key, OUT_NUMBER, buf);
	} else if (out_textual(o, sink, fmt)) {
		fprintf(o->fp, fmt, v);
	}
}

void rdc_out_f64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 double v)
{
	char buf[40];

	if (out_machine(o, sink)) {
		if (!isfinite(v)) {
			o->backend->scalar(o->state, key, OUT_NULL, NULL);
			return;
		}
		/* 15 significant digits round-trip through any JSON parser's double. */
		snprintf(buf, sizeof(buf), "%.15g", v);
		o->backend->scalar(o->state, key, OUT_NUMBER, buf);
	} else if (out_textual(o, sink, fmt)) {
		fprintf(o->fp, fmt, v);
	}
}

void rdc_out_bool(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		  bool v)
{
	if (out_machine(o, sink))
		o->backend->scalar(o->state, key, OUT_BOOL, v ? "true" : "false");
	else if (out_textual(o, sink, fmt))
		fprintf(o->fp, fmt, v ? "yes" : "no");
}

void rdc_out_null(struct rdc_out *o, const char *key, const char *fmt)
{
	if (o->backend)
		o->backend->scalar(o->state, key, OUT_NULL, NULL);
	else if (fmt)
		fputs(fmt, o->fp);
}

static void out_vtext(struct rdc_out *o, enum rdc_color color, const char *fmt, va_list ap)
{
	bool paint = o->color && color != RDC_COLOR_NONE;
	char *text;

	if (paint)
		fputs(color_start[color], o->fp);
	/*
	 * The arguments may be anything read from the system (a device name
	 * holding a newline would forge a table row): each is escaped, the
	 * format's own newlines stay; the whole is checked again.
	 */
	text = rdc_text_vasprintf(fmt, ap);
	if (text)
		out_put_text(o, text, true);
	else
		fputs("?", o->fp); /* no memory: leave it out rather than print it raw */
	free(text);
	if (paint)
		fputs(COLOR_RESET, o->fp);
}

#pragma GCC diagnostic pop

void rdc_out_text(struct rdc_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->backend)
		return;
	va_start(ap, fmt);
	out_vtext(o, RDC_COLOR_NONE, fmt, ap);
	va_end(ap);
}

void rdc_out_text_color(struct rdc_out *o, enum rdc_color color, const char *fmt, ...)
{
	va_list ap;

	if (o->backend)
		return;
	va_start(ap, fmt);
	out_vtext(o, color, fmt, ap);
	va_end(ap);
}

void rdc_out_nl(struct rdc_out *o)
{
	if (!o->backend)
		fputc('\n', o->fp);
}
