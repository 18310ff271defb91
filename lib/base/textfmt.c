// SPDX-License-Identifier: GPL-2.0-or-later
/* textfmt.c - printf for a terminal: the arguments escaped, the format trusted */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/textfmt.h"
#include "base/util.h"

/* One conversion: "%-*.*lu" cut out of the format, and what it takes. */
struct conv {
	char spec[32];	 /* the conversion, NUL-terminated, '*' kept */
	int stars;	 /* '*' for width and precision: int arguments before the value */
	char len[3];	 /* length modifier: "", "hh", "h", "l", "ll", "j", "z", "t", "L" */
	char type;	 /* the conversion character */
	bool has_prec;	 /* a precision was given (digits or '*') */
	int prec_digits; /* the precision when given as digits */
	bool prec_star;
};

/* Parse the conversion at @f (just after '%'); returns the characters used, 0 if unsupported. */
static size_t conv_parse(const char *f, struct conv *c)
{
	size_t i = 0, k;

	memset(c, 0, sizeof(*c));
	while (f[i] && strchr("-+ #0", f[i]))
		i++;
	if (f[i] == '*') {
		c->stars++;
		i++;
	}
	while (f[i] >= '0' && f[i] <= '9')
		i++;
	if (f[i] == '.') {
		c->has_prec = true;
		i++;
		if (f[i] == '*') {
			c->stars++;
			c->prec_star = true;
			i++;
		}
		while (f[i] >= '0' && f[i] <= '9')
			c->prec_digits = c->prec_digits * 10 + (f[i++] - '0');
	}
	for (k = 0; k < 2 && f[i] && strchr("hljztL", f[i]); k++)
		c->len[k] = f[i++];
	c->len[k] = '\0';
	c->type = f[i];
	if (!c->type || !strchr("diouxXcsfFeEgGaAp%", c->type))
		return 0;
	if (c->type == 's' && c->len[0])
		return 0; /* %ls: wide strings are never formatted here */
	i++;
	if (i + 2 > sizeof(c->spec))
		return 0;
	c->spec[0] = '%';
	memcpy(c->spec + 1, f, i);
	c->spec[i + 1] = '\0';
	return i;
}

/* The escaped form of @s, cut to @max bytes first (at a whole character). */
static char *arg_escaped(const char *s, bool cut, size_t max)
{
	size_t n = strlen(s), size;
	char *raw, *esc;

	if (cut && max < n) {
		n = 0;
		while (s[n]) {
			size_t l = rdc_utf8_len(s + n);

			l = l ? l : 1;
			if (n + l > max)
				break;
			n += l;
		}
	}
	raw = strndup(s, n);
	if (!raw)
		return NULL;
	size = 4 * n + 1;
	esc = malloc(size);
	if (esc)
		rdc_str_escape(esc, size, raw, false);
	free(raw);
	return esc;
}

/*
 * The text being built: a plain growable string, not open_memstream(), which costs a
 * FILE and an 8 KiB calloc() for every string formatted (each field of a text listing
 * is one; under ASan, whose quarantine keeps freed memory from being reused, each
 * of those is two fresh pages).
 */
struct text_buf {
	char *s;
	size_t len; /* bytes in @s, the NUL not counted */
	size_t cap; /* bytes allocated */
	bool oom;   /* a failure was for memory (ENOMEM), not the format (EINVAL) */
};

/* Room for @more bytes and the NUL; -1 when out of memory. */
static int text_reserve(struct text_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 64;
	char *s;

	if (more > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return -1;
	}
	if (b->len + more < b->cap)
		return 0;
	while (cap <= b->len + more)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

/* @n bytes of @s onto the end of @b: 0, or -1 when out of memory. */
static int text_put(struct text_buf *b, const char *s, size_t n)
{
	if (text_reserve(b, n))
		return -1;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* vsnprintf() onto the end of @b: the bytes added, or -1. */
static int text_vprintf(struct text_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	if (text_reserve(b, 0))
		return -1;
	va_copy(again, ap);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	if (n >= 0 && (size_t)n >= b->cap - b->len) {
		/* It did not fit: room for all of it, then again from the copy. */
		if (text_reserve(b, (size_t)n))
			n = -1;
		else
			n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, again);
	}
	va_end(again);
	if (n < 0)
		return -1;
	b->len += (size_t)n;
	return n;
}

static int text_printf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = text_vprintf(b, fmt, ap);
	va_end(ap);
	return n;
}

/* printf one conversion of a value of @type, with its star arguments @w, @p (as many as it has). */
#define CONV_PRINTER(name, type)                                                                   \
	static int name(struct text_buf *b, const struct conv *c, int w, int p, type v)            \
	{                                                                                          \
		if (c->stars == 2)                                                                 \
			return text_printf(b, c->spec, w, p, v);                                   \
		if (c->stars == 1)                                                                 \
			return text_printf(b, c->spec, w, v);                                      \
		return text_printf(b, c->spec, v);                                                 \
	}

CONV_PRINTER(put_int, int)
CONV_PRINTER(put_uint, unsigned int)
CONV_PRINTER(put_long, long)
CONV_PRINTER(put_ulong, unsigned long)
CONV_PRINTER(put_llong, long long)
CONV_PRINTER(put_ullong, unsigned long long)
CONV_PRINTER(put_intmax, intmax_t)
CONV_PRINTER(put_uintmax, uintmax_t)
CONV_PRINTER(put_ssize, ssize_t)
CONV_PRINTER(put_size, size_t)
CONV_PRINTER(put_ptrdiff, ptrdiff_t)
CONV_PRINTER(put_double, double)
CONV_PRINTER(put_ldouble, long double)
CONV_PRINTER(put_ptr, void *)
CONV_PRINTER(put_str, const char *)

static int conv_int(struct text_buf *b, const struct conv *c, int w, int p, va_list *ap)
{
	const char *l = c->len;

	if (c->type == 'd' || c->type == 'i') {
		if (!strcmp(l, "ll"))
			return put_llong(b, c, w, p, va_arg(*ap, long long));
		if (!strcmp(l, "l"))
			return put_long(b, c, w, p, va_arg(*ap, long));
		if (!strcmp(l, "j"))
			return put_intmax(b, c, w, p, va_arg(*ap, intmax_t));
		if (!strcmp(l, "z"))
			return put_ssize(b, c, w, p, va_arg(*ap, ssize_t));
		if (!strcmp(l, "t"))
			return put_ptrdiff(b, c, w, p, va_arg(*ap, ptrdiff_t));
		/* hh, h and none: promoted to int; printf narrows again per the modifier. */
		return put_int(b, c, w, p, va_arg(*ap, int));
	}
	if (!strcmp(l, "ll"))
		return put_ullong(b, c, w, p, va_arg(*ap, unsigned long long));
	if (!strcmp(l, "l"))
		return put_ulong(b, c, w, p, va_arg(*ap, unsigned long));
	if (!strcmp(l, "j"))
		return put_uintmax(b, c, w, p, va_arg(*ap, uintmax_t));
	if (!strcmp(l, "z"))
		return put_size(b, c, w, p, va_arg(*ap, size_t));
	if (!strcmp(l, "t"))
		return put_ptrdiff(b, c, w, p, va_arg(*ap, ptrdiff_t));
	return put_uint(b, c, w, p, va_arg(*ap, unsigned int));
}

static int conv_one(struct text_buf *b, const struct conv *c, va_list *ap)
{
	int w = 0, p = 0, rc;
	char *esc;

	if (c->stars == 2) {
		w = va_arg(*ap, int);
		p = va_arg(*ap, int);
	} else if (c->stars == 1) {
		w = va_arg(*ap, int); /* the width's, or the precision's */
		p = w;
	}
	switch (c->type) {
	case '%':
		return text_put(b, "%", 1);
	case 's': {
		const char *s = va_arg(*ap, const char *);
		int prec = c->prec_star ? p : c->prec_digits;
		struct conv plain = *c;
		char *dot;

		esc = arg_escaped(s ? s : "(null)", c->has_prec && prec >= 0, (size_t)prec);
		if (!esc) {
			b->oom = true;
			return -1;
		}
		/* The precision was spent on the raw argument: print the escaped one whole. */
		dot = strchr(plain.spec, '.');
		if (dot) {
			dot[0] = 's';
			dot[1] = '\0';
			if (c->prec_star)
				plain.stars--;
		}
		rc = put_str(b, &plain, w, w, esc);
		free(esc);
		return rc;
	}
	case 'c':
		return put_int(b, c, w, p, va_arg(*ap, int));
	case 'p':
		return put_ptr(b, c, w, p, va_arg(*ap, void *));
	case 'd':
	case 'i':
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		return conv_int(b, c, w, p, ap);
	default: /* floating point */
		if (c->len[0] == 'L')
			return put_ldouble(b, c, w, p, va_arg(*ap, long double));
		return put_double(b, c, w, p, va_arg(*ap, double));
	}
}

#pragma GCC diagnostic pop

char *rdc_text_vasprintf(const char *fmt, va_list ap)
{
	struct text_buf b = {0};
	int err = text_reserve(&b, 0) ? ENOMEM : 0;
	va_list args;

	if (!err)
		b.s[0] = '\0';
	va_copy(args, ap);
	while (*fmt && !err) {
		const char *pct = strchr(fmt, '%');
		struct conv c;
		size_t used;

		if (!pct) {
			err = text_put(&b, fmt, strlen(fmt)) < 0 ? ENOMEM : 0;
			break;
		}
		if (text_put(&b, fmt, (size_t)(pct - fmt)) < 0) {
			err = ENOMEM;
			break;
		}
		used = conv_parse(pct + 1, &c);
		/* A conversion it does not support, or one that failed, is refused whole. */
		if (!used || conv_one(&b, &c, &args) < 0) {
			err = b.oom ? ENOMEM : EINVAL;
			break;
		}
		fmt = pct + 1 + used;
	}
	va_end(args);
	if (err) {
		free(b.s);
		errno = err;
		return NULL;
	}
	return b.s;
}

char *rdc_text_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = rdc_text_vasprintf(fmt, ap);
	va_end(ap);
	return s;
}
