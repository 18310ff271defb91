// SPDX-License-Identifier: GPL-2.0-or-later
/* json.c - JSON backend of the output layer (RFC 8259; what is not UTF-8 becomes U+FFFD) */
#include <errno.h>
#include <stdlib.h>

#include "base/util.h"
#include "out/out_impl.h"

#define JSON_MAX_DEPTH 32

struct json_state {
	FILE *fp;
	bool pretty;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* nothing written yet at this level */
};

static void *json_open(FILE *fp, bool pretty)
{
	struct json_state *js = calloc(1, sizeof(*js));

	if (!js)
		return NULL;
	js->fp = fp;
	js->pretty = pretty;
	js->first[0] = true;
	return js;
}

/*
 * A JSON string.  Strings come from sysfs, driver counter names and network
 * peers, so nothing about their bytes is assumed:
 *   control characters, DEL and C1 (U+0080..U+009F)  -> \u00XX
 *   bidi controls and zero-width characters          -> \uXXXX (base/util.h rdc_cp_is_invisible())
 *   a byte that is not part of valid UTF-8            -> \ufffd (U+FFFD), one per byte
 * The document stays valid JSON and no escape sequence survives to a terminal.
 */
static void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t n = rdc_utf8_len((const char *)p);

		if (n == 0) {
			fputs("\\ufffd", fp);
			continue;
		}
		if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
			fprintf(fp, "\\u%04x", p[1]);
			p++;
			continue;
		}
		if (n > 1 && rdc_esc_kind((const char *)p, n, false) == RDC_ESC_CP) {
			fprintf(fp, "\\u%04x", (unsigned int)rdc_utf8_cp((const char *)p, n));
			p += n - 1;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, n, fp);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(fp, "\\u%04x", *p);
			else
				fputc(*p, fp);
		}
	}
	fputc('"', fp);
}

static void json_indent(struct json_state *js)
{
	if (!js->pretty)
		return;
	fputc('\n', js->fp);
	for (int i = 0; i < js->depth; i++)
		fputs("  ", js->fp);
}

/* Separator, indentation and "key": before a value at the current level. */
static void json_prefix(struct json_state *js, const char *key)
{
	if (!js->first[js->depth])
		fputc(',', js->fp);
	js->first[js->depth] = false;
	if (js->depth > 0)
		json_indent(js);
	if (key) {
		json_string(js->fp, key);
		fputs(js->pretty ? ": " : ":", js->fp);
	}
}

static void json_push(struct json_state *js, const char *key, char open)
{
	json_prefix(js, key);
	fputc(open, js->fp);
	/* Deeper nesting than any command produces is a programming error; stay valid. */
	if (js->depth < JSON_MAX_DEPTH - 1)
		js->depth++;
	js->first[js->depth] = true;
}

static void json_pop(struct json_state *js, char close)
{
	bool empty = js->first[js->depth];

	if (js->depth > 0)
		js->depth--;
	if (!empty)
		json_indent(js);
	fputc(close, js->fp);
	if (js->depth == 0)
		fputc('\n', js->fp);
}

static void json_doc_begin(void *state)
{
	struct json_state *js = state;

	js->depth = 0;
	js->first[0] = true;
}

static void json_doc_end(void *state)
{
	(void)state;
}

static void json_obj_open(void *state, const char *key)
{
	json_push(state, key, '{');
}

static void json_obj_close(void *state)
{
	json_pop(state, '}');
}

static void json_arr_open(void *state, const char *key)
{
	json_push(state, key, '[');
}

static void json_arr_close(void *state)
{
	json_pop(state, ']');
}

static void json_scalar(void *state, const char *key, enum out_scalar kind, const char *value)
{
	struct json_state *js = state;

	json_prefix(js, key);
	if (kind == OUT_NULL || !value)
		fputs("null", js->fp);
	else if (kind == OUT_STRING)
		json_string(js->fp, value);
	else
		fputs(value, js->fp);
}

static int json_close(void *state)
{
	struct json_state *js = state;
	int rc = ferror(js->fp) ? -EIO : 0;

	free(js);
	return rc;
}

const struct out_backend rdc_out_json_backend = {
	.open = json_open,
	.doc_begin = json_doc_begin,
	.doc_end = json_doc_end,
	.obj_open = json_obj_open,
	.obj_close = json_obj_close,
	.arr_open = json_arr_open,
	.arr_close = json_arr_close,
	.scalar = json_scalar,
	.close = json_close,
};
