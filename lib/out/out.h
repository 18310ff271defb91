/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out.h - one output path for text, JSON and YAML */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

/*
 * A command emits each field once, with a machine key and a text format; the
 * active format decides what is written.  The same call sequence yields text,
 * JSON or YAML, so the three can never disagree about what a command reports.
 *
 *   rdc_out_begin(o, "port-show");          top-level object, "schema": 3,
 *                                           "kind": "port-show" (names its JSON Schema)
 *   rdc_out_arr_open(o, "ports");
 *     rdc_out_obj_open(o, NULL);
 *       rdc_out_str(o, RDC_OUT_ANY, "device", "%s", "mlx5_0");
 *       rdc_out_u64(o, RDC_OUT_ANY, "port", "/%" PRIu64 " ", 1);
 *       rdc_out_nl(o);                      text only: end of line
 *     rdc_out_obj_close(o);
 *   rdc_out_arr_close(o);
 *   rdc_out_end(o);
 */

enum rdc_out_format { RDC_FMT_TEXT, RDC_FMT_JSON, RDC_FMT_YAML };

/* Which sinks a field goes to. */
enum rdc_out_sink {
	RDC_OUT_ANY,	 /* text (with the format) and machine (with the key) */
	RDC_OUT_TEXT,	 /* text decoration only */
	RDC_OUT_MACHINE, /* JSON/YAML only */
};

enum rdc_color { RDC_COLOR_NONE, RDC_COLOR_GREEN, RDC_COLOR_YELLOW, RDC_COLOR_RED, RDC_COLOR_BOLD };

#define RDC_OUT_SCHEMA_TEXT "3" /* "schema" of every document: the vocabulary's version */

struct rdc_out;

struct rdc_out *rdc_out_new(FILE *fp, enum rdc_out_format format, bool pretty, bool color);
/* Flushes and frees; returns -EIO if anything failed to write (full disk, closed pipe). */
int rdc_out_free(struct rdc_out *o);

bool rdc_out_is_text(const struct rdc_out *o);

/*
 * @kind names the document and its JSON Schema (schemas/KIND.schema.json):
 * "port-show", "pfc-apply", ...; a reader picks the schema by it.
 */
void rdc_out_begin(struct rdc_out *o, const char *kind);
/* How many documents rdc_out_begin() began on @o in a machine format (0 in text). */
unsigned int rdc_out_documents(const struct rdc_out *o);
void rdc_out_end(struct rdc_out *o);

void rdc_out_obj_open(struct rdc_out *o, const char *key);
void rdc_out_obj_close(struct rdc_out *o);
void rdc_out_arr_open(struct rdc_out *o, const char *key);
void rdc_out_arr_close(struct rdc_out *o);

/* @v NULL is emitted as null in JSON/YAML and skipped in text. */
void rdc_out_str(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 const char *v);
void rdc_out_str_color(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		       const char *v, enum rdc_color color);
void rdc_out_u64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 uint64_t v);
void rdc_out_i64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 int64_t v);
/* Non-finite values are emitted as null. */
void rdc_out_f64(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		 double v);
void rdc_out_bool(struct rdc_out *o, enum rdc_out_sink sink, const char *key, const char *fmt,
		  bool v);
/* A null value (unknown); text prints @fmt as-is when given. */
void rdc_out_null(struct rdc_out *o, const char *key, const char *fmt);

/*
 * Bytes formatted elsewhere (the Prometheus text format) to the output as
 * they are; 0, or -errno, also kept for rdc_out_free() ("No space left on
 * device" rather than a bare EIO).
 */
int rdc_out_raw(struct rdc_out *o, const void *buf, size_t len);

/* Text-only printf and end of line; no-ops for JSON and YAML. */
void rdc_out_text(struct rdc_out *o, const char *fmt, ...) RDC_PRINTF(2, 3);
void rdc_out_text_color(struct rdc_out *o, enum rdc_color color, const char *fmt, ...)
	RDC_PRINTF(3, 4);
void rdc_out_nl(struct rdc_out *o);
