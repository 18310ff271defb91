/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h - strict number parsing and small string helpers */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Strict parsers: the whole string must be the number, no sign on unsigned
 * values, no overflow.  Return 0 or -EINVAL/-ERANGE.
 *   base 10: "010" -> 10      "0x10" -> -EINVAL    what sysfs prints as decimal
 *   base 16: "1003" -> 4099   "0x1003" -> 4099
 *   base 0:  "010" -> 10      "0x1003" -> 4099     decimal, or hex with 0x; never
 *            octal (strtoull's base 0 reads "010" as 8, which no kernel file means)
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

/*
 * The length (1-4) of the valid UTF-8 sequence at @s, or 0 when the byte at
 * @s does not start one (stray continuation, overlong form, surrogate, above
 * U+10FFFF, cut short by the end of the string).  @s must not point at NUL.
 */
size_t rdc_utf8_len(const char *s);
/*
 * Copy @src into @dst (@size bytes, always NUL-terminated; -ENAMETOOLONG when
 * cut) with every byte that is not part of valid UTF-8 replaced by U+FFFD,
 * what JSON and YAML get.
 *   "caf\xc3\xa9" -> "caf\xc3\xa9" (unchanged)    "ab\xff" -> "ab\xef\xbf\xbd"
 */
int rdc_utf8_sanitize(char *dst, size_t size, const char *src);
/*
 * Copy @src into @dst for a terminal: printable UTF-8 as is; control
 * characters (C0, DEL, C1) and bytes that are not valid UTF-8 as \xNN, so no
 * escape sequence from a file reaches the terminal.  @keep_nl leaves newline
 * and tab alone (text output lays itself out with them).  Always
 * NUL-terminated; -ENAMETOOLONG when cut (at a whole character).
 *   "a\033[2Jb" -> "a\\x1b[2Jb"    "\xff" -> "\\xff"    "\xc2\x9b" (CSI) -> "\\xc2\\x9b"
 */
int rdc_str_escape(char *dst, size_t size, const char *src, bool keep_nl);
/* Whether rdc_str_escape() would change @s. */
bool rdc_str_needs_escape(const char *s, bool keep_nl);

/* Lowercase hex of @len bytes into @out (2*len+1 bytes). */
void rdc_hex_encode(const void *data, size_t len, char *out);
/* Decode hex (even length, no separators); returns bytes written or -EINVAL. */
long rdc_hex_decode(const char *hex, void *out, size_t size);

/* Copy with truncation, always NUL-terminated; returns -ENAMETOOLONG if cut. */
int rdc_strlcpy(char *dst, const char *src, size_t size);
