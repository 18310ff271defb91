/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h - strict number parsing and small string helpers */
#pragma once

#include <stdarg.h>
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
/* The code point of the valid UTF-8 sequence of @n bytes at @s (U+FFFD when @n is 0). */
uint32_t rdc_utf8_cp(const char *s, size_t n);
/*
 * Code points that show nothing yet change how the text around them reads:
 * bidi controls (U+202A..U+202E, U+2066..U+2069, LRM, RLM, ALM), zero-width
 * characters (U+200B..U+200D, U+2060..U+2064, U+180E, U+FEFF) and the line
 * and paragraph separators (U+2028, U+2029).  A name holding U+202E can make
 * "evil" read "live"; every output format escapes them.
 */
bool rdc_cp_is_invisible(uint32_t cp);

/* How an escaping writer treats one character. */
enum rdc_esc {
	RDC_ESC_NONE, /* printable: as is */
	RDC_ESC_BYTE, /* control (C0, DEL, C1) or not UTF-8: each byte as \xNN */
	RDC_ESC_CP,   /* invisible (rdc_cp_is_invisible()): \uXXXX */
};
/* The kind for the character at @s, @n = rdc_utf8_len(@s); @keep_nl as below. */
enum rdc_esc rdc_esc_kind(const char *s, size_t n, bool keep_nl);
/*
 * Copy @src into @dst for a terminal: printable UTF-8 as is; control
 * characters (C0, DEL, C1) and bytes that are not valid UTF-8 as \xNN, so no
 * escape sequence from a file reaches the terminal; bidi controls and
 * zero-width characters as \uXXXX.  @keep_nl leaves newline and tab alone
 * (text output lays itself out with them).  Output is at most 4 bytes per
 * input byte.  Always NUL-terminated; -ENAMETOOLONG when cut (at a whole
 * character).
 *   "a\033[2Jb" -> "a\\x1b[2Jb"    "\xff" -> "\\xff"    "\xc2\x9b" (CSI) -> "\\xc2\\x9b"
 *   "a\xe2\x80\xaeb" (RLO) -> "a\\u202eb"
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
/*
 * Append printf text to the string *@s owns (NULL is the empty string),
 * whole: lists of names whose length the host decides.  The caller frees *@s.
 * Without memory *@s keeps what it held.
 */
void rdc_str_catf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rdc_str_vcatf(char **s, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/*
 * Prose into @buf that never ends mid-word: text longer than @size is cut at
 * the last space that leaves room for " ..." and ends with it.  For titles
 * and reasons in fixed fields, whose authors size them to fit; this is the
 * net under that, never a silent "...SymbolErrorDu".
 */
void rdc_words_vformat(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void rdc_words_copy(char *buf, size_t size, const char *text);
/* Whether @name can be a network interface's: 1 to 15 bytes, no '/' (IF_NAMESIZE with its NUL). */
bool rdc_ifname_valid(const char *name);
/*
 * Whether the byte a bool is stored in holds 0 or 1, read as a byte: a bool
 * loaded from a file (an undo journal) holding any other byte is undefined
 * when read as a bool.
 */
bool rdc_bool_stored_ok(const void *field);
