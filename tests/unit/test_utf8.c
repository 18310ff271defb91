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
	assert_string_equal(s, "{\"schema\":2,\"kind\":\"test\",\"na\\ufffdme\":"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_len),    cmocka_unit_test(test_utf8_sanitize),
		cmocka_unit_test(test_str_escape),  cmocka_unit_test(test_number_bases),
		cmocka_unit_test(test_out_formats),
	};

	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
