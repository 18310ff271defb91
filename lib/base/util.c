// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c - strict number parsing and small string helpers */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int rdc_parse_u64(const char *s, int base, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
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
