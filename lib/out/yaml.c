// SPDX-License-Identifier: GPL-2.0-or-later
/* yaml.c - YAML backend of the output layer, through libyaml's emitter */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "base/util.h"
#include "out/out_impl.h"

struct yaml_state {
	yaml_emitter_t emitter;
	FILE *fp;
	unsigned char carry[4]; /* a character libyaml's buffer cut in two */
	size_t ncarry;
	bool failed;
	unsigned int docs; /* documents begun so far */
};

static void yaml_emit(struct yaml_state *ys, yaml_event_t *ev)
{
	/* libyaml frees the event on success and failure alike. */
	if (!ys->failed && !yaml_emitter_emit(&ys->emitter, ev))
		ys->failed = true;
	else if (ys->failed)
		yaml_event_delete(ev);
}

/* Whether @s holds a bidi control or zero-width character (base/util.h). */
static bool yaml_has_invisible(const char *s)
{
	for (size_t n; *s; s += n ? n : 1) {
		n = rdc_utf8_len(s);
		if (n > 1 && rdc_esc_kind(s, n, false) == RDC_ESC_CP)
			return true;
	}
	return false;
}

/*
 * libyaml's output, on its way to the file.  libyaml (unicode on) writes
 * bidi controls and zero-width characters raw, having no notion of them; a
 * scalar holding one is double-quoted (yaml_plain()), where \uXXXX is an
 * escape every reader knows, so each is rewritten here.  libyaml's buffer
 * may end inside a character: its first bytes wait for the next call.
 */
static int yaml_write(void *data, unsigned char *buf, size_t size)
{
	struct yaml_state *ys = data;

	for (size_t i = 0; i < size;) {
		char ch[5] = {0};
		size_t have = ys->ncarry, need, run = 0;
		unsigned char lead;

		while (!have && i + run < size && buf[i + run] < 0x80)
			run++;
		if (run) {
			fwrite(buf + i, 1, run, ys->fp);
			i += run;
			continue;
		}
		memcpy(ch, ys->carry, have);
		if (!have)
			ch[have++] = (char)buf[i++];
		lead = (unsigned char)ch[0];
		need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
		while (have < need && i < size)
			ch[have++] = (char)buf[i++];
		if (have < need) {
			memcpy(ys->carry, ch, have);
			ys->ncarry = have;
			break;
		}
		ys->ncarry = 0;
		if (need > 1 && rdc_esc_kind(ch, rdc_utf8_len(ch), false) == RDC_ESC_CP)
			fprintf(ys->fp, "\\u%04x", (unsigned int)rdc_utf8_cp(ch, need));
		else
			fwrite(ch, 1, need, ys->fp);
	}
	return !ferror(ys->fp);
}

static void yaml_plain(struct yaml_state *ys, const char *text, bool is_string)
{
	char small[256], *clean = small;
	size_t size = 3 * strlen(text) + 1;
	yaml_scalar_style_t style;
	yaml_event_t ev;
	int ok;

	/*
	 * libyaml refuses a scalar that is not UTF-8 (and the whole document with
	 * it), so bytes that are not become U+FFFD, as in JSON.  Control
	 * characters are libyaml's to escape: it double-quotes such a scalar.
	 */
	if (size > sizeof(small)) {
		clean = malloc(size);
		if (!clean) {
			ys->failed = true;
			return;
		}
	}
	rdc_utf8_sanitize(clean, size, text);
	style = yaml_has_invisible(clean) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;

	/*
	 * Strings get the str tag with plain style not implicit, so the emitter
	 * quotes them: "on", "4096" or "null" stay strings for every YAML 1.1
	 * reader.  Numbers, booleans and null stay plain.
	 */
	ok = yaml_scalar_event_initialize(&ev, NULL, (yaml_char_t *)YAML_STR_TAG,
					  (yaml_char_t *)clean, (int)strlen(clean), !is_string, 1,
					  style);
	if (clean != small)
		free(clean);
	if (!ok) {
		ys->failed = true;
		return;
	}
	yaml_emit(ys, &ev);
}

/*
 * Whether @key reads back as the same string when plain: a name of letters,
 * digits, '_', '-' and '.', starting with a letter or '_', and none of YAML
 * 1.1's booleans or null.  Our keys are; a kernel counter name (a key under
 * "counters") may not be ("null", "1", "on"), and is then quoted.
 */
static bool yaml_key_plain(const char *key)
{
	static const char *const words[] = {"y",   "n",	   "yes",   "no",  "on",
					    "off", "true", "false", "null"};

	if (!((*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_'))
		return false;
	for (const char *c = key; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
			return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(key, words[i]))
			return false;
	return true;
}

static void yaml_key(struct yaml_state *ys, const char *key)
{
	if (key)
		yaml_plain(ys, key, !yaml_key_plain(key));
}

static void *yaml_open(FILE *fp, bool pretty)
{
	struct yaml_state *ys = calloc(1, sizeof(*ys));
	yaml_event_t ev;

	(void)pretty;
	if (!ys)
		return NULL;
	if (!yaml_emitter_initialize(&ys->emitter)) {
		free(ys);
		return NULL;
	}
	ys->fp = fp;
	yaml_emitter_set_output(&ys->emitter, yaml_write, ys);
	yaml_emitter_set_unicode(&ys->emitter, 1);
	yaml_emitter_set_width(&ys->emitter, -1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yaml_emit(ys, &ev);
	return ys;
}

static void yaml_doc_begin(void *state)
{
	struct yaml_state *ys = state;
	yaml_event_t ev;

	/* The first document needs no "---"; later ones must be told apart. */
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, ys->docs++ == 0);
	yaml_emit(ys, &ev);
}

static void yaml_doc_end(void *state)
{
	struct yaml_state *ys = state;
	yaml_event_t ev;

	yaml_document_end_event_initialize(&ev, 1);
	yaml_emit(ys, &ev);
	if (!ys->failed && !yaml_emitter_flush(&ys->emitter))
		ys->failed = true;
}

static void yaml_obj_open(void *state, const char *key)
{
	struct yaml_state *ys = state;
	yaml_event_t ev;

	yaml_key(ys, key);
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	yaml_emit(ys, &ev);
}

static void yaml_obj_close(void *state)
{
	yaml_event_t ev;

	yaml_mapping_end_event_initialize(&ev);
	yaml_emit(state, &ev);
}

static void yaml_arr_open(void *state, const char *key)
{
	struct yaml_state *ys = state;
	yaml_event_t ev;

	yaml_key(ys, key);
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	yaml_emit(ys, &ev);
}

static void yaml_arr_close(void *state)
{
	yaml_event_t ev;

	yaml_sequence_end_event_initialize(&ev);
	yaml_emit(state, &ev);
}

static void yaml_scalar(void *state, const char *key, enum out_scalar kind, const char *value)
{
	struct yaml_state *ys = state;

	yaml_key(ys, key);
	if (kind == OUT_NULL || !value)
		yaml_plain(ys, "null", false);
	else
		yaml_plain(ys, value, kind == OUT_STRING);
}

static int yaml_close(void *state)
{
	struct yaml_state *ys = state;
	yaml_event_t ev;
	int rc;

	yaml_stream_end_event_initialize(&ev);
	yaml_emit(ys, &ev);
	if (!ys->failed && !yaml_emitter_flush(&ys->emitter))
		ys->failed = true;
	rc = ys->failed ? -EIO : 0;
	yaml_emitter_delete(&ys->emitter);
	free(ys);
	return rc;
}

const struct out_backend rdc_out_yaml_backend = {
	.open = yaml_open,
	.doc_begin = yaml_doc_begin,
	.doc_end = yaml_doc_end,
	.obj_open = yaml_obj_open,
	.obj_close = yaml_obj_close,
	.arr_open = yaml_arr_open,
	.arr_close = yaml_arr_close,
	.scalar = yaml_scalar,
	.close = yaml_close,
};
