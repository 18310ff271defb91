// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c - strict number parsing and small string helpers */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

int rdc_parse_u64(const char *s, int base, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	/* Base 0 means decimal or 0x hex: leading zeros are decimal, not octal. */
	if (base == 0) {
		bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

		base = hex ? 16 : 10;
		if (hex && (!isxdigit((unsigned char)s[2])))
			return -EINVAL;
	}
	/* strtoull would take "0x" itself in base 16 and a leading '-' anywhere. */
	if (base == 10 && !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

int rdc_parse_i64(const char *s, int64_t *val)
{
	long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

int rdc_parse_u32_range(const char *s, uint32_t min, uint32_t max, uint32_t *val)
{
	uint64_t v;
	int rc = rdc_parse_u64(s, 10, &v);

	if (rc)
		return rc;
	if (v < min || v > max)
		return -ERANGE;
	*val = (uint32_t)v;
	return 0;
}

int rdc_parse_seconds(const char *s, double *val)
{
	char *end;
	double v;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -EINVAL;
	if (v <= 0)
		return -ERANGE;
	*val = v;
	return 0;
}

void rdc_hex_encode(const void *data, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 0xf];
	}
	out[2 * len] = '\0';
}

static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long rdc_hex_decode(const char *hex, void *out, size_t size)
{
	size_t len = strlen(hex);
	unsigned char *p = out;

	if (len % 2 || len / 2 > size)
		return -EINVAL;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hex_nibble(hex[2 * i]), lo = hex_nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		p[i] = (unsigned char)(hi << 4 | lo);
	}
	return (long)(len / 2);
}

int rdc_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size == 0)
		return -ENAMETOOLONG;
	if (len >= size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(dst, src, len + 1);
	return 0;
}

void rdc_str_vcatf(char **s, const char *fmt, va_list ap)
{
	size_t len = *s ? strlen(*s) : 0;
	char *grown;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	grown = realloc(*s, len + (size_t)n + 1);
	if (!grown)
		return;
	vsnprintf(grown + len, (size_t)n + 1, fmt, ap);
	*s = grown;
}

void rdc_str_catf(char **s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rdc_str_vcatf(s, fmt, ap);
	va_end(ap);
}

int rdc_parse_size(const char *s, uint64_t max, uint64_t *v)
{
	char num[32];
	size_t len = strlen(s);
	uint64_t mult = 1;
	int rc;

	if (len == 0 || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, len + 1);
	switch (toupper((unsigned char)num[len - 1])) {
	case 'K':
		mult = 1024;
		break;
	case 'M':
		mult = 1024ULL * 1024;
		break;
	}
	if (mult > 1)
		num[len - 1] = '\0';
	rc = rdc_parse_u64(num, 10, v);
	if (rc)
		return rc;
	if (*v > max / mult)
		return -ERANGE;
	*v *= mult;
	return 0;
}

size_t rdc_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t len;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) { /* 0xc0, 0xc1: overlong ASCII */
		len = 2;
		cp = p[0] & 0x1fu;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		cp = p[0] & 0x0fu;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		cp = p[0] & 0x07u;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

int rdc_utf8_sanitize(char *dst, size_t size, const char *src)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	size_t out = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	while (*src) {
		size_t n = rdc_utf8_len(src);
		const char *piece = n ? src : replacement;
		size_t plen = n ? n : 3;

		if (out + plen >= size) {
			dst[out] = '\0';
			return -ENAMETOOLONG;
		}
		memcpy(dst + out, piece, plen);
		out += plen;
		src += n ? n : 1;
	}
	dst[out] = '\0';
	return 0;
}

uint32_t rdc_utf8_cp(const char *s, size_t n)
{
	static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;

	if (n == 0 || n > 4)
		return 0xfffd;
	cp = p[0] & lead_mask[n];
	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3fu);
	return cp;
}

bool rdc_cp_is_invisible(uint32_t cp)
{
	return cp == 0x061c ||			 /* ARABIC LETTER MARK (bidi) */
	       cp == 0x180e ||			 /* MONGOLIAN VOWEL SEPARATOR (zero width) */
	       (cp >= 0x200b && cp <= 0x200f) || /* ZWSP, ZWNJ, ZWJ, LRM, RLM */
	       (cp >= 0x2028 && cp <= 0x202e) || /* line/paragraph separator, LRE..RLO */
	       (cp >= 0x2060 && cp <= 0x2064) || /* WORD JOINER, invisible operators */
	       (cp >= 0x2066 && cp <= 0x2069) || /* LRI, RLI, FSI, PDI */
	       cp == 0xfeff;			 /* ZERO WIDTH NO-BREAK SPACE (BOM) */
}

enum rdc_esc rdc_esc_kind(const char *s, size_t n, bool keep_nl)
{
	const unsigned char *p = (const unsigned char *)s;

	if (n == 0)
		return RDC_ESC_BYTE;
	if (n == 1)
		return (p[0] < 0x20 && !(keep_nl && (p[0] == '\n' || p[0] == '\t'))) || p[0] == 0x7f
			       ? RDC_ESC_BYTE
			       : RDC_ESC_NONE;
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) /* C1: U+0080..U+009F */
		return RDC_ESC_BYTE;
	return rdc_cp_is_invisible(rdc_utf8_cp(s, n)) ? RDC_ESC_CP : RDC_ESC_NONE;
}

int rdc_str_escape(char *dst, size_t size, const char *src, bool keep_nl)
{
	size_t out = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	while (*src) {
		const unsigned char *p = (const unsigned char *)src;
		size_t n = rdc_utf8_len(src);
		size_t take = n ? n : 1;
		enum rdc_esc kind = rdc_esc_kind(src, n, keep_nl);
		size_t need = kind == RDC_ESC_BYTE ? 4 * take : kind == RDC_ESC_CP ? 6 : take;

		if (out + need >= size) {
			dst[out] = '\0';
			return -ENAMETOOLONG;
		}
		if (kind == RDC_ESC_BYTE) {
			for (size_t i = 0; i < take; i++)
				snprintf(dst + out + 4 * i, 5, "\\x%02x", p[i]);
		} else if (kind == RDC_ESC_CP) {
			snprintf(dst + out, 7, "\\u%04x", (unsigned int)rdc_utf8_cp(src, n));
		} else {
			memcpy(dst + out, src, take);
		}
		out += need;
		src += take;
	}
	dst[out] = '\0';
	return 0;
}

bool rdc_str_needs_escape(const char *s, bool keep_nl)
{
	for (; *s;) {
		size_t n = rdc_utf8_len(s);

		if (rdc_esc_kind(s, n, keep_nl) != RDC_ESC_NONE)
			return true;
		s += n ? n : 1;
	}
	return false;
}

bool rdc_ifname_valid(const char *name)
{
	return name && *name && strlen(name) < IF_NAMESIZE && !strchr(name, '/');
}

void rdc_words_copy(char *buf, size_t size, const char *text)
{
	static const char more[] = " ...";
	size_t cut;

	if (!size)
		return;
	if (!rdc_strlcpy(buf, text, size))
		return;
	if (size <= sizeof(more))
		return; /* no room for the mark: the plain cut */
	/* The last space before where " ..." must start, else the plain cut and the mark. */
	cut = size - sizeof(more);
	while (cut > 0 && buf[cut] != ' ')
		cut--;
	if (!cut)
		cut = size - sizeof(more);
	while (cut > 0 && (buf[cut - 1] == ',' || buf[cut - 1] == ' ' || buf[cut - 1] == ':'))
		cut--;
	memcpy(buf + cut, more, sizeof(more));
}

void rdc_words_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	char *all;
	va_list measure;
	int n;

	if (!size)
		return;
	va_copy(measure, ap);
	n = vsnprintf(NULL, 0, fmt, measure);
	va_end(measure);
	all = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!all) {
		if (vsnprintf(buf, size, fmt, ap) < 0)
			buf[0] = '\0';
		return;
	}
	vsnprintf(all, (size_t)n + 1, fmt, ap);
	rdc_words_copy(buf, size, all);
	free(all);
}

bool rdc_bool_stored_ok(const void *field)
{
	unsigned char b;

	memcpy(&b, field, 1);
	return b <= 1;
}
