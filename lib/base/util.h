/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h - strict number parsing and small string helpers */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define RDC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Strict parsers: the whole string must be the number, no sign on unsigned
 * values, no overflow.  @base 0 accepts decimal and 0x hex.  Return 0 or
 * -EINVAL/-ERANGE.
 */
int rdc_parse_u64(const char *s, int base, uint64_t *val);
int rdc_parse_i64(const char *s, int64_t *val);
int rdc_parse_u32_range(const char *s, uint32_t min, uint32_t max, uint32_t *val);
/* A decimal number of seconds, fractions allowed ("0.5"); must be > 0 and finite. */
int rdc_parse_seconds(const char *s, double *val);

/*
 * Bytes with an optional binary suffix, as `dcb buffer` and perftest read
 * them: "262144", "256K", "1M" (K = 1024).  -EINVAL when malformed, -ERANGE
 * above @max.
 */
int rdc_parse_size(const char *s, uint64_t max, uint64_t *v);

/* Lowercase hex of @len bytes into @out (2*len+1 bytes). */
void rdc_hex_encode(const void *data, size_t len, char *out);
/* Decode hex (even length, no separators); returns bytes written or -EINVAL. */
long rdc_hex_decode(const char *hex, void *out, size_t size);

/* Copy with truncation, always NUL-terminated; returns -ENAMETOOLONG if cut. */
int rdc_strlcpy(char *dst, const char *src, size_t size);
