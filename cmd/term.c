// SPDX-License-Identifier: GPL-2.0-or-later
/* term.c - how wide text may be, lines of fields and tables that fit it */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/util.h"
#include "term.h"

/* Narrower than this, wrapping puts every field on its own line: use this much and let it wrap. */
#define TERM_WIDTH_MIN 40
#define TERM_WIDTH_MAX 1000

static int term_clamp(uint32_t cols)
{
	if (cols < TERM_WIDTH_MIN)
		return TERM_WIDTH_MIN;
	return cols > TERM_WIDTH_MAX ? TERM_WIDTH_MAX : (int)cols;
}

int rdc_term_width(void)
{
	struct winsize ws = {0};
	const char *env = getenv("COLUMNS");
	uint32_t cols;

	/*
	 * A pipe or a file: 80, whatever $COLUMNS a shell left behind, so output is
	 * reproducible.  Asked once: a listing asks per line, and stdout does not
	 * turn into a terminal halfway (a terminal's width is asked each time: it
	 * can be resized).
	 */
	static int stdout_tty = -1;

	if (stdout_tty < 0)
		stdout_tty = isatty(STDOUT_FILENO);
	if (!stdout_tty)
		return RDC_TERM_WIDTH_DEFAULT;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return term_clamp(ws.ws_col);
	/* A serial console or an emulator that does not say: the user's word for it. */
	if (env && !rdc_parse_u32_range(env, 1, UINT32_MAX, &cols))
		return term_clamp(cols);
	return RDC_TERM_WIDTH_DEFAULT;
}

int rdc_term_cols(const char *s)
{
	int n = 0;

	/* Continuation bytes (10xxxxxx) take no column of their own. */
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The columns @s would take once the output layer has escaped it. */
static int term_text_cols(const char *s)
{
	char small[256], *esc = small;
	size_t size;
	int n;

	if (!rdc_str_needs_escape(s, false))
		return rdc_term_cols(s);
	size = 4 * strlen(s) + 1;
	if (size > sizeof(small))
		esc = malloc(size);
	if (!esc)
		return (int)strlen(s);
	rdc_str_escape(esc, size, s, false);
	n = rdc_term_cols(esc);
	if (esc != small)
		free(esc);
	return n;
}

/*
 * How many bytes of @s go on a line that has @room columns left: up to the
 * last space that fits (not counting it), or the whole first word when even
 * that does not fit.  All of @s when it fits.  With @groups, a space inside
 * brackets ("[prio P]", "{ mtu N | up }") breaks only when no space outside
 * them fits.
 */
static size_t term_break(const char *s, int room, bool groups)
{
	size_t last_space = 0, last_top = 0, i = 0;
	int cols = 0, depth = 0;

	for (; s[i]; i++) {
		if (s[i] == ' ') {
			last_space = i;
			if (!depth)
				last_top = i;
		} else if (strchr("[{(", s[i])) {
			depth++;
		} else if (strchr("]})", s[i]) && depth) {
			depth--;
		}
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
		if (cols > room)
			break;
	}
	if (!s[i])
		return i;
	if (groups && last_top)
		return last_top;
	if (last_space)
		return last_space;
	/* One word wider than the line: keep it whole. */
	return strcspn(s, " ");
}

static void term_wrap(FILE *fp, const char *text, int col, int hang, int width, bool groups)
{
	const char *s = text;

	for (;;) {
		int room = width - col;
		size_t n = term_break(s, room > 0 ? room : 0, groups);

		fprintf(fp, "%.*s\n", (int)n, s);
		s += n;
		while (*s == ' ')
			s++;
		if (!*s)
			return;
		fprintf(fp, "%*s", hang, "");
		col = hang;
	}
}

void rdc_term_wrap(FILE *fp, const char *text, int col, int hang, int width)
{
	term_wrap(fp, text, col, hang, width, false);
}

void rdc_term_wrap_synopsis(FILE *fp, const char *text, int col, int hang, int width)
{
	term_wrap(fp, text, col, hang, width, true);
}

/* ---- lines of fields ---- */

void rdc_tline_begin(struct rdc_tline *l, struct rdc_out *o, int indent, int hang)
{
	l->o = o;
	l->text = rdc_out_is_text(o);
	l->width = l->text ? rdc_term_width() : RDC_TERM_WIDTH_DEFAULT;
	l->hang = hang;
	l->col = indent;
	l->start = indent;
	if (l->text && indent)
		rdc_out_text(o, "%*s", indent, "");
}

void rdc_tline_end(struct rdc_tline *l)
{
	rdc_out_nl(l->o);
	l->col = l->start = 0;
}

/* Make room for a field of @n columns: write its separator, or start a continuation line. */
static void tline_room(struct rdc_tline *l, enum rdc_tl_sep sep, int n)
{
	int gap = sep == RDC_TL_GAP ? 2 : sep == RDC_TL_SPACE ? 1 : 0;

	if (l->col == l->start) {
		l->col += n;
		return;
	}
	if (sep != RDC_TL_JOIN && l->col + gap + n > l->width) {
		rdc_out_nl(l->o);
		rdc_out_text(l->o, "%*s", l->hang, "");
		l->col = l->start = l->hang;
		l->col += n;
		return;
	}
	if (gap)
		rdc_out_text(l->o, "%*s", gap, "");
	l->col += gap + n;
}

void rdc_tline_keep(struct rdc_tline *l, enum rdc_tl_sep sep, int n)
{
	int gap = sep == RDC_TL_GAP ? 2 : sep == RDC_TL_SPACE ? 1 : 0;

	if (!l->text || l->col == l->start || l->col + gap + n <= l->width)
		return;
	rdc_out_nl(l->o);
	rdc_out_text(l->o, "%*s", l->hang, "");
	l->col = l->start = l->hang;
}

/* The formats come from our own tables with one conversion each, as lib/out's do. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void rdc_tline_str(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   const char *v, enum rdc_color color)
{
	if (l->text && fmt && v) {
		/* A value the output layer escapes is measured escaped (padding aside). */
		int n = rdc_str_needs_escape(v, false)
				? snprintf(NULL, 0, fmt, "") + term_text_cols(v)
				: snprintf(NULL, 0, fmt, v);

		tline_room(l, sep, n);
	}
	rdc_out_str_color(l->o, RDC_OUT_ANY, key, fmt, v, color);
}

void rdc_tline_u64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   uint64_t v)
{
	if (l->text && fmt)
		tline_room(l, sep, snprintf(NULL, 0, fmt, v));
	rdc_out_u64(l->o, RDC_OUT_ANY, key, fmt, v);
}

void rdc_tline_i64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   int64_t v)
{
	if (l->text && fmt)
		tline_room(l, sep, snprintf(NULL, 0, fmt, v));
	rdc_out_i64(l->o, RDC_OUT_ANY, key, fmt, v);
}

void rdc_tline_f64(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		   double v)
{
	if (l->text && fmt)
		tline_room(l, sep, snprintf(NULL, 0, fmt, v));
	rdc_out_f64(l->o, RDC_OUT_ANY, key, fmt, v);
}

#pragma GCC diagnostic pop

void rdc_tline_null(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt)
{
	if (l->text && fmt) {
		tline_room(l, sep, rdc_term_cols(fmt));
		rdc_out_text(l->o, "%s", fmt);
	} else if (!l->text && key) {
		rdc_out_null(l->o, key, NULL);
	}
}

void rdc_tline_text(struct rdc_tline *l, enum rdc_tl_sep sep, enum rdc_color color, const char *fmt,
		    ...)
{
	char small[256], *buf = small;
	va_list ap;
	int n;

	if (!l->text)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* A field longer than the small buffer (a long quoted command) is written whole. */
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf)
			return;
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	tline_room(l, sep, term_text_cols(buf));
	rdc_out_text_color(l->o, color, "%s", buf);
	if (buf != small)
		free(buf);
}

/*
 * The length of the unit of @s that starts a line or follows a space: a
 * word, or a quoted command ("'rdmactl port set X down'," up to the end of
 * the word that closes the quote), which stays whole so it can be copied.
 */
static size_t term_unit(const char *s)
{
	const char *close;

	if (*s == '\'' && (close = strchr(s + 1, '\'')))
		return (size_t)(close - s) + strcspn(close, " ");
	return strcspn(s, " ");
}

void rdc_tline_words(struct rdc_tline *l, enum rdc_tl_sep sep, const char *text)
{
	const char *s = text;

	if (!l->text)
		return;
	for (;;) {
		size_t n;

		s += strspn(s, " ");
		n = term_unit(s);
		if (!n)
			return;
		rdc_tline_text(l, sep, RDC_COLOR_NONE, "%.*s", (int)n, s);
		sep = RDC_TL_SPACE;
		s += n;
	}
}

void rdc_tline_wrap_str(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *v)
{
	if (!l->text) {
		rdc_out_str(l->o, RDC_OUT_MACHINE, key, NULL, v);
		return;
	}
	if (v)
		rdc_tline_words(l, sep, v);
}

/* ---- tables ---- */

void rdc_table_init(struct rdc_table *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < RDC_TABLE_MAX_COLS ? ncols : RDC_TABLE_MAX_COLS;
}

void rdc_table_fit(struct rdc_table *t, const char *const *cells)
{
	for (size_t i = 0; i < t->ncols; i++) {
		int n = term_text_cols(cells[i] ? cells[i] : "-");

		if (n > t->width[i])
			t->width[i] = n;
	}
}

void rdc_table_row(const struct rdc_table *t, struct rdc_out *o, const char *const *cells,
		   const enum rdc_color *colors)
{
	size_t last = t->ncols;

	/* Empty cells at the end leave no trailing blanks. */
	while (last > 1 && cells[last - 1] && !cells[last - 1][0])
		last--;
	for (size_t i = 0; i < last; i++) {
		const char *c = cells[i] ? cells[i] : "-";
		int pad = i + 1 < last ? t->width[i] - term_text_cols(c) : 0;

		rdc_out_text_color(o, colors ? colors[i] : RDC_COLOR_NONE, "%s", c);
		if (i + 1 < last)
			rdc_out_text(o, "%*s", pad + 2, "");
	}
	rdc_out_nl(o);
}
