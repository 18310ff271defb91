/* SPDX-License-Identifier: GPL-2.0-or-later */
/* term.h - how wide text may be, lines of fields and tables that fit it */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "out/out.h"

/* The width of text when stdout is not a terminal (a pipe, a file, a test). */
#define RDC_TERM_WIDTH_DEFAULT 80

/*
 * Columns text may use: the terminal's width when stdout is one (TIOCGWINSZ,
 * else $COLUMNS), else 80.  Never below 40: a layout that breaks every field
 * onto its own line helps nobody.
 */
int rdc_term_width(void);

/* Columns @s takes on a terminal: its UTF-8 code points (text is escaped before). */
int rdc_term_cols(const char *s);

/*
 * Print @text to @fp wrapped at @width: the caller has already written @col
 * columns of the first line; continuation lines start with @hang spaces.
 * Breaks at spaces; a word longer than a line stays whole.  Ends the line.
 *
 *   col 22, hang 22, width 40, "sample every SEC seconds and print rates":
 *   |<- 22 ->|sample every SEC seconds
 *   |<- 22 ->|and print rates
 */
void rdc_term_wrap(FILE *fp, const char *text, int col, int hang, int width);
/* The same for a synopsis: breaks between bracketed groups rather than inside one. */
void rdc_term_wrap_synopsis(FILE *fp, const char *text, int col, int hang, int width);

/*
 * A line of fields that wraps at the width: each field says what separates
 * it from the one before, and goes to the next line (at @hang) when it does
 * not fit.  The fields are the output layer's calls (a key for JSON and
 * YAML, a format for text), so the one call sequence stays one; in JSON and
 * YAML the line does nothing but pass them on.
 */
enum rdc_tl_sep {
	RDC_TL_GAP,   /* two spaces, or a new line */
	RDC_TL_SPACE, /* one space, or a new line */
	RDC_TL_JOIN,  /* glued to the field before ("/1" after "mlx5_0"), never broken */
};

struct rdc_tline {
	struct rdc_out *o;
	bool text;
	int width;
	int col;   /* columns written on the current line */
	int hang;  /* indent of a continuation line */
	int start; /* @col at the line's start: nothing to separate from yet */
};

/* Start a line: writes @indent spaces; continuation lines are indented by @hang. */
void rdc_tline_begin(struct rdc_tline *l, struct rdc_out *o, int indent, int hang);
/* End the line (text only). */
void rdc_tline_end(struct rdc_tline *l);

/*
 * The next fields, @n columns in all with their separators, belong
 * together ("pcie 8.0 GT/s x8 (max 16.0 GT/s x16)"): start a continuation
 * line now unless they fit on this one.  The first of them still writes
 * its own separator.
 */
void rdc_tline_keep(struct rdc_tline *l, enum rdc_tl_sep sep, int n);

/* Fields: as rdc_out_str() and friends, with @fmt not starting with a separator. */
void rdc_tline_str(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   const char *v, enum rdc_color color);
void rdc_tline_u64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   uint64_t v);
void rdc_tline_i64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   int64_t v);
void rdc_tline_f64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   double v);
/* A null: JSON/YAML null under @key (when given), text @fmt as-is (when given). */
void rdc_tline_null(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt);
/* Text only. */
void rdc_tline_text(struct rdc_tline *l, enum rdc_tl_sep sep, enum rdc_color color, const char *fmt,
		    ...) RDC_PRINTF(4, 5);

/*
 * Text only: the words of @text as fields, so a sentence wraps between them;
 * a quoted command ('rdmactl port set X down') stays whole, to be copied.
 */
void rdc_tline_words(struct rdc_tline *l, enum rdc_tl_sep sep, const char *text);
/* A string field whose text wraps between its words (a title, a "why"): @v under @key in JSON. */
void rdc_tline_wrap_str(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *v);

/*
 * A table whose columns are as wide as their widest cell (header included),
 * two spaces apart, the last one unpadded.  Text only: tables are how text
 * shows a list; the machine formats carry the same values under their keys.
 * Feed every row to rdc_table_fit() first, then print them.
 */
#define RDC_TABLE_MAX_COLS 12

struct rdc_table {
	size_t ncols;
	int width[RDC_TABLE_MAX_COLS];
};

void rdc_table_init(struct rdc_table *t, size_t ncols);
void rdc_table_fit(struct rdc_table *t, const char *const *cells);
/* @colors may be NULL; a NULL cell prints as "-". */
void rdc_table_row(const struct rdc_table *t, struct rdc_out *o, const char *const *cells,
		   const enum rdc_color *colors);
