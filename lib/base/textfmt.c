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

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* printf one conversion of a value of @type, with its star arguments @w, @p (as many as it has). */
#define CONV_PRINTER(name, type)                                                                   \
	static int name(FILE *fp, const struct conv *c, int w, int p, type v)                      \
	{                                                                                          \
		if (c->stars == 2)                                                                 \
			return fprintf(fp, c->spec, w, p, v);                                      \
		if (c->stars == 1)                                                                 \
			return fprintf(fp, c->spec, w, v);                                         \
		return fprintf(fp, c->spec, v);                                                    \
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

static int conv_int(FILE *fp, const struct conv *c, int w, int p, va_list *ap)
{
	const char *l = c->len;

	if (c->type == 'd' || c->type == 'i') {
		if (!strcmp(l, "ll"))
			return put_llong(fp, c, w, p, va_arg(*ap, long long));
		if (!strcmp(l, "l"))
			return put_long(fp, c, w, p, va_arg(*ap, long));
		if (!strcmp(l, "j"))
			return put_intmax(fp, c, w, p, va_arg(*ap, intmax_t));
		if (!strcmp(l, "z"))
			return put_ssize(fp, c, w, p, va_arg(*ap, ssize_t));
		if (!strcmp(l, "t"))
			return put_ptrdiff(fp, c, w, p, va_arg(*ap, ptrdiff_t));
		/* hh, h and none: promoted to int; printf narrows again per the modifier. */
		return put_int(fp, c, w, p, va_arg(*ap, int));
	}
	if (!strcmp(l, "ll"))
		return put_ullong(fp, c, w, p, va_arg(*ap, unsigned long long));
	if (!strcmp(l, "l"))
		return put_ulong(fp, c, w, p, va_arg(*ap, unsigned long));
	if (!strcmp(l, "j"))
		return put_uintmax(fp, c, w, p, va_arg(*ap, uintmax_t));
	if (!strcmp(l, "z"))
		return put_size(fp, c, w, p, va_arg(*ap, size_t));
	if (!strcmp(l, "t"))
		return put_ptrdiff(fp, c, w, p, va_arg(*ap, ptrdiff_t));
	return put_uint(fp, c, w, p, va_arg(*ap, unsigned int));
}

static int conv_one(FILE *fp, const struct conv *c, va_list *ap)
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
		return fputc('%', fp) == EOF ? -1 : 1;
	case 's': {
		const char *s = va_arg(*ap, const char *);
		int prec = c->prec_star ? p : c->prec_digits;
		struct conv plain = *c;
		char *dot;

		esc = arg_escaped(s ? s : "(null)", c->has_prec && prec >= 0, (size_t)prec);
		if (!esc)
			return -1;
		/* The precision was spent on the raw argument: print the escaped one whole. */
		dot = strchr(plain.spec, '.');
		if (dot) {
			dot[0] = 's';
			dot[1] = '\0';
			if (c->prec_star)
				plain.stars--;
		}
		rc = put_str(fp, &plain, w, w, esc);
		free(esc);
		return rc;
	}
	case 'c':
		return put_int(fp, c, w, p, va_arg(*ap, int));
	case 'p':
		return put_ptr(fp, c, w, p, va_arg(*ap, void *));
	case 'd':
	case 'i':
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		return conv_int(fp, c, w, p, ap);
	default: /* floating point */
		if (c->len[0] == 'L')
			return put_ldouble(fp, c, w, p, va_arg(*ap, long double));
		return put_double(fp, c, w, p, va_arg(*ap, double));
	}
}

#pragma GCC diagnostic pop

char *rdc_text_vasprintf(const char *fmt, va_list ap)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	bool bad = false;
	va_list args;

	if (!fp)
		return NULL;
	va_copy(args, ap);
	while (*fmt && !bad) {
		const char *pct = strchr(fmt, '%');
		struct conv c;
		size_t used;

		if (!pct) {
			fputs(fmt, fp);
			break;
		}
		fwrite(fmt, 1, (size_t)(pct - fmt), fp);
		used = conv_parse(pct + 1, &c);
		if (!used || conv_one(fp, &c, &args) < 0) {
			bad = true;
			break;
		}
		fmt = pct + 1 + used;
	}
	va_end(args);
	if (fclose(fp) != 0 || bad) {
		free(buf);
		errno = bad ? EINVAL : ENOMEM;
		return NULL;
	}
	return buf;
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
