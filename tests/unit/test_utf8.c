// SPDX-License-Identifier: GPL-2.0-or-later
/* test_utf8.c - untrusted bytes: UTF-8 checks, escapers, number bases, the output formats */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <inttypes.h>
#include <sys/types.h>
#include <yaml.h>

#include "base/textfmt.h"
#include "base/util.h"
#include "out/out.h"

static void test_utf8_len(void **state)
{
	static const struct {
		const char *in;
		size_t len;
	} cases[] = {
		{"a", 1},
		{"\x7f", 1},
		{"\xc3\xa9", 2},	 /* é */
		{"\xc2\x9b", 2},	 /* CSI, valid UTF-8 (escaped for terminals elsewhere) */
		{"\xe2\x82\xac", 3},	 /* € */
		{"\xef\xbf\xbd", 3},	 /* U+FFFD */
		{"\xf0\x9f\x98\x80", 4}, /* U+1F600 */
		{"\xf4\x8f\xbf\xbf", 4}, /* U+10FFFF */
		{"\x80", 0},		 /* stray continuation */
		{"\xff", 0},
		{"\xfe", 0},
		{"\xc0\xaf", 0},	 /* overlong '/' */
		{"\xc1\xbf", 0},	 /* overlong */
		{"\xe0\x80\xaf", 0},	 /* overlong '/' in three bytes */
		{"\xf0\x80\x80\xaf", 0}, /* overlong '/' in four bytes */
		{"\xed\xa0\x80", 0},	 /* U+D800, a surrogate */
		{"\xf4\x90\x80\x80", 0}, /* above U+10FFFF */
		{"\xc3", 0},		 /* cut short by the end */
		{"\xe2\x82", 0},
		{"\xc3(", 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (rdc_utf8_len(cases[i].in) != cases[i].len)
			fail_msg("case %zu: %zu, want %zu", i, rdc_utf8_len(cases[i].in),
				 cases[i].len);
	}
}

static void test_utf8_sanitize(void **state)
{
	char out[32];

	(void)state;
	assert_int_equal(rdc_utf8_sanitize(out, sizeof(out), "caf\xc3\xa9"), 0);
	assert_string_equal(out, "caf\xc3\xa9");
	assert_int_equal(rdc_utf8_sanitize(out, sizeof(out), "ab\xff\xfe"), 0);
	assert_string_equal(out, "ab\xef\xbf\xbd\xef\xbf\xbd");
	assert_int_equal(rdc_utf8_sanitize(out, sizeof(out), "\xc3"), 0);
	assert_string_equal(out, "\xef\xbf\xbd");
	/* Control characters are valid UTF-8: the formats escape them, not this. */
	assert_int_equal(rdc_utf8_sanitize(out, sizeof(out), "\x1b[2J"), 0);
	assert_string_equal(out, "\x1b[2J");
	/* Cut at a whole character, never in the middle of one. */
	assert_int_equal(rdc_utf8_sanitize(out, 5, "ab\xff"), -ENAMETOOLONG);
	assert_string_equal(out, "ab");
}

static void test_str_escape(void **state)
{
	static const struct {
		const char *in;
		bool keep_nl;
		const char *out;
	} cases[] = {
		{"plain", false, "plain"},
		{"caf\xc3\xa9 \xe2\x82\xac", false, "caf\xc3\xa9 \xe2\x82\xac"},
		{"a\x1b[2Jb", false, "a\\x1b[2Jb"},
		{"bell\x07", false, "bell\\x07"},
		{"del\x7f", false, "del\\x7f"},
		{"csi\xc2\x9b"
		 "31m",
		 false, "csi\\xc2\\x9b31m"},
		{"nel\xc2\x85", false, "nel\\xc2\\x85"},
		{"nbsp\xc2\xa0", false, "nbsp\xc2\xa0"},
		{"bad\xff\xfe", false, "bad\\xff\\xfe"},
		{"two\nlines\t", false, "two\\x0alines\\x09"},
		{"two\nlines\t", true, "two\nlines\t"},
		{"cr\r", true, "cr\\x0d"},
		/* Bidi and zero-width: shown as code points, newline or not. */
		{"a\xe2\x80\xae"
		 "b",
		 true, "a\\u202eb"},
		{"zw\xe2\x80\x8bj\xe2\x81\xa0", false, "zw\\u200bj\\u2060"},
		{"lri\xe2\x81\xa6pdi\xe2\x81\xa9", false, "lri\\u2066pdi\\u2069"},
		{"bom\xef\xbb\xbf alm\xd8\x9c", false, "bom\\ufeff alm\\u061c"},
		{"ls\xe2\x80\xa8", false, "ls\\u2028"},
		{"ok\xe2\x80\x90\xe2\x80\xaf", false,
		 "ok\xe2\x80\x90\xe2\x80\xaf"}, /* hyphen, NNBSP */
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rdc_str_escape(out, sizeof(out), cases[i].in, cases[i].keep_nl),
				 0);
		if (strcmp(out, cases[i].out))
			fail_msg("case %zu: '%s', want '%s'", i, out, cases[i].out);
		assert_int_equal(rdc_str_needs_escape(cases[i].in, cases[i].keep_nl),
				 strcmp(cases[i].in, cases[i].out) != 0);
	}
	/* Cut before an escape that does not fit whole. */
	assert_int_equal(rdc_str_escape(out, 6, "ab\x1b", false), -ENAMETOOLONG);
	assert_string_equal(out, "ab");
}

/* printf for a terminal: string arguments escaped (newline too), the format's own text kept. */
static void test_text_asprintf(void **state)
{
	char *s;

	(void)state;
	s = rdc_text_asprintf("%s\n", "mlx5\nFAKE ROW \xe2\x80\xae");
	assert_string_equal(s, "mlx5\\x0aFAKE ROW \\u202e\n");
	free(s);
	/* Width pads the escaped form; precision cuts the raw argument at a whole character. */
	s = rdc_text_asprintf("[%-8s][%6s][%.3s][%.*s][%-*.*s]", "a\tb", "ok", "ab\ncd", 3,
			      "caf\xc3\xa9", 5, 1, "\x1bxyz");
	assert_string_equal(s, "[a\\x09b  ][    ok][ab\\x0a][caf][\\x1b ]");
	free(s);
	s = rdc_text_asprintf(
		"%d %i %u %x %X %o %c %% %ld %lu %lld %llu %zu %zd %jd %hhu %hd %5.2f "
		"%-6.1e| %g %" PRIu64 " %p",
		-1, 2, 3u, 255u, 255u, 8u, 'z', -4L, 5UL, -6LL, 7ULL, (size_t)8, (ssize_t)-9,
		(intmax_t)10, 300, -11, 3.14159, 1e3, 0.5, (uint64_t)1 << 40, (void *)0);
	assert_string_equal(s, "-1 2 3 ff FF 10 z % -4 5 -6 7 8 -9 10 44 -11  3.14 1.0e+03| 0.5 "
			       "1099511627776 (nil)");
	free(s);
	s = rdc_text_asprintf("plain, no conversion");
	assert_string_equal(s, "plain, no conversion");
	free(s);
	s = rdc_text_asprintf("%s", "");
	assert_string_equal(s, "");
	free(s);
}

static char *text_fmt(const char *fmt, ...);

/*
 * The string grows past its first allocation (64 bytes, then doubled), in a conversion
 * and between them: every length around the first two boundaries, so that a string
 * that fills the buffer to its last byte is among them.
 */
static void test_text_asprintf_long(void **state)
{
	char arg[3001], want[6100];
	char *s;

	(void)state;
	memset(arg, 'a', sizeof(arg) - 1);
	arg[sizeof(arg) - 1] = '\0';
	s = rdc_text_asprintf("[%s|%-3005s|%5d]", arg, arg, 7);
	snprintf(want, sizeof(want), "[%s|%s     |    7]", arg, arg);
	assert_string_equal(s, want);
	free(s);
	for (size_t n = 55; n <= 140; n++) {
		char lit[160];

		memset(lit, 'b', n);
		lit[n] = '\0';
		s = rdc_text_asprintf("%s", arg + sizeof(arg) - 1 - n);
		assert_string_equal(s, arg + sizeof(arg) - 1 - n);
		free(s);
		s = rdc_text_asprintf("x%sy", arg + sizeof(arg) - 1 - n);
		snprintf(want, sizeof(want), "x%sy", arg + sizeof(arg) - 1 - n);
		assert_string_equal(s, want);
		free(s);
		/* A literal with no conversion: the format itself (trusted) is the text. */
		s = text_fmt(lit);
		assert_string_equal(s, lit);
		free(s);
		s = rdc_text_asprintf("%s%u", lit, 5u);
		snprintf(want, sizeof(want), "%s5", lit);
		assert_string_equal(s, want);
		free(s);
	}
}

/* What a format does not support is refused, never guessed at. */
static char *text_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = rdc_text_vasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void test_text_asprintf_refuses(void **state)
{
	int n = 0;
	char *s;

	(void)state;
	errno = 0;
	assert_null(text_fmt("%n", &n));
	assert_int_equal(errno, EINVAL);
	assert_null(text_fmt("%ls", L"w"));
	assert_null(text_fmt("trailing %"));
	assert_null(text_fmt("%q", 1));
	/* An empty format is an empty string (a literal "" would draw -Wformat-zero-length). */
	s = text_fmt("");
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

static void test_number_bases(void **state)
{
	static const struct {
		const char *in;
		int base, rc;
		uint64_t v;
	} cases[] = {
		{"010", 10, 0, 10},
		{"010", 0, 0, 10}, /* base 0 is decimal or 0x hex, never octal */
		{"0", 0, 0, 0},
		{"00", 0, 0, 0},
		{"08", 0, 0, 8}, /* octal would reject it */
		{"0x1003", 0, 0, 0x1003},
		{"0X1f", 0, 0, 0x1f},
		{"0x", 0, -EINVAL, 0},
		{"0x-1", 0, -EINVAL, 0},
		{"0x10", 10, -EINVAL, 0},
		{"1003", 16, 0, 0x1003},
		{"18446744073709551615", 10, 0, UINT64_MAX},
		{"18446744073709551616", 10, -ERANGE, 0},
		{"0x10000000000000000", 0, -ERANGE, 0},
		{"12abc", 10, -EINVAL, 0},
		{"-0", 10, -EINVAL, 0},
		{" 1", 0, -EINVAL, 0},
		{"", 0, -EINVAL, 0},
		{"N/A (no PMA)", 10, -EINVAL, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		int rc = rdc_parse_u64(cases[i].in, cases[i].base, &v);

		if (rc != cases[i].rc || (!rc && v != cases[i].v))
			fail_msg("case %zu '%s' base %d: rc %d v %llu", i, cases[i].in,
				 cases[i].base, rc, (unsigned long long)v);
	}
}

/* Emit one string under a key that is as untrusted as the value. */
static char *emit(enum rdc_out_format fmt, const char *key, const char *value)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rdc_out *o;

	assert_non_null(fp);
	o = rdc_out_new(fp, fmt, false, false);
	assert_non_null(o);
	rdc_out_begin(o, "test");
	rdc_out_str(o, RDC_OUT_ANY, key, "v=%s\n", value);
	rdc_out_text(o, "k=%s\n", key);
	rdc_out_end(o);
	assert_int_equal(rdc_out_free(o), 0);
	fclose(fp);
	return buf;
}

static void test_out_formats(void **state)
{
	char *s;

	(void)state;
	s = emit(RDC_FMT_JSON, "na\xffme", "x\xfe\x1b[1m\x7f\xc2\x9b\xc3\xa9");
	assert_string_equal(s, "{\"schema\":3,\"kind\":\"test\",\"na\\ufffdme\":"
			       "\"x\\ufffd\\u001b[1m\\u007f\\u009b\xc3\xa9\"}\n");
	free(s);
	s = emit(RDC_FMT_YAML, "na\xffme", "x\xfe\x1b");
	/* libyaml escapes the control character; the bad bytes arrive as U+FFFD. */
	assert_non_null(strstr(s, "na\xef\xbf\xbdme"));
	assert_non_null(strstr(s, "x\xef\xbf\xbd\\e"));
	free(s);
	s = emit(RDC_FMT_TEXT, "k\x1b]0;t\x07", "x\xfe\x1b[1m\n");
	assert_string_equal(s, "v=x\\xfe\\x1b[1m\\x0a\nk=k\\x1b]0;t\\x07\n");
	free(s);
}

/* Bidi and zero-width characters: \uXXXX in every format, and YAML reads them back. */
static void test_out_invisible(void **state)
{
	const char *v = "live\xe2\x80\xae\xe2\x80\x8bx";
	yaml_parser_t parser;
	yaml_event_t ev;
	bool found = false;
	char *s;

	(void)state;
	s = emit(RDC_FMT_JSON, "k", v);
	assert_string_equal(s, "{\"schema\":3,\"kind\":\"test\",\"k\":\"live\\u202e\\u200bx\"}\n");
	free(s);
	s = emit(RDC_FMT_TEXT, "k\xe2\x81\xa6", v);
	assert_string_equal(s, "v=live\\u202e\\u200bx\nk=k\\u2066\n");
	free(s);
	s = emit(RDC_FMT_YAML, "k", v);
	assert_non_null(strstr(s, "\"live\\u202e\\u200bx\""));
	assert_null(strstr(s, "\xe2\x80\xae"));
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)s, strlen(s));
	for (;;) {
		assert_true(yaml_parser_parse(&parser, &ev));
		if (ev.type == YAML_SCALAR_EVENT && !strcmp((char *)ev.data.scalar.value, v))
			found = true;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	assert_true(found);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_len),
		cmocka_unit_test(test_utf8_sanitize),
		cmocka_unit_test(test_str_escape),
		cmocka_unit_test(test_number_bases),
		cmocka_unit_test(test_out_formats),
		cmocka_unit_test(test_text_asprintf),
		cmocka_unit_test(test_text_asprintf_refuses),
		cmocka_unit_test(test_text_asprintf_long),
		cmocka_unit_test(test_out_invisible),
	};

	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
