// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c - strict number parsing and small string helpers */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
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

/* A character a terminal would act on rather than show: C0, DEL and the C1 range. */
static bool escape_char(const unsigned char *p, size_t n, bool keep_nl)
{
	if (n == 0)
		return true;
	if (n == 1)
		return (p[0] < 0x20 && !(keep_nl && (p[0] == '\n' || p[0] == '\t'))) ||
		       p[0] == 0x7f;
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0; /* U+0080..U+009F */
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

		if (escape_char(p, n, keep_nl)) {
			if (out + 4 * take >= size) {
				dst[out] = '\0';
				return -ENAMETOOLONG;
			}
			for (size_t i = 0; i < take; i++) {
				snprintf(dst + out, 5, "\\x%02x", p[i]);
				out += 4;
			}
		} else {
			if (out + take >= size) {
				dst[out] = '\0';
				return -ENAMETOOLONG;
			}
			memcpy(dst + out, src, take);
			out += take;
		}
		src += take;
	}
	dst[out] = '\0';
	return 0;
}

bool rdc_str_needs_escape(const char *s, bool keep_nl)
{
	for (; *s;) {
		size_t n = rdc_utf8_len(s);

		if (escape_char((const unsigned char *)s, n, keep_nl))
			return true;
		s += n;
	}
	return false;
}
