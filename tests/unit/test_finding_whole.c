// SPDX-License-Identifier: GPL-2.0-or-later
/* test_finding_whole.c - a finding's strings are whole however long, owned and freed (issue 23) */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/finding.h"

/* "w000 w001 w002 ..." of @n bytes: words, so a cut at a word would show as " ...". */
static char *words_of(size_t n)
{
	char *s = malloc(n + 1);
	size_t i = 0;

	assert_non_null(s);
	for (unsigned int w = 0; i < n; w++) {
		char word[16];
		int len = snprintf(word, sizeof(word), "%sw%03u", i ? " " : "", w % 1000);

		for (int k = 0; k < len && i < n; k++)
			s[i++] = word[k];
	}
	s[n] = '\0';
	return s;
}

/* A 300-character title, and a why, fix, evidence of 1000: all whole, nothing " ...". */
static void test_long_text_whole(void **state)
{
	struct rdc_findings *l = rdc_findings_new();
	char *title = words_of(300), *long_text = words_of(1000), *want;
	struct rdc_finding *f;
	struct rdc_evidence *e;
	size_t n;

	(void)state;
	assert_non_null(l);
	f = rdc_findings_add(l, "link.crc-errors", RDC_SEV_WARN, "%s", title);
	assert_non_null(f);
	assert_string_equal(f->title, title);
	assert_int_equal(strlen(f->title), 300);
	rdc_finding_why(f, "%s", long_text);
	assert_string_equal(f->why, long_text);
	rdc_finding_fix(f, "first");
	rdc_finding_fix(f, "%s", long_text); /* replaces, and the first is freed */
	assert_string_equal(f->fix, long_text);

	e = rdc_ev_text(f, "SymbolErrorCounterWithAVeryLongNameIndeedLongerThan48Bytes", long_text,
			"%s", long_text);
	assert_non_null(e);
	assert_string_equal(e->name, "SymbolErrorCounterWithAVeryLongNameIndeedLongerThan48Bytes");
	assert_string_equal(e->source, long_text);
	assert_string_equal(e->value, long_text);
	assert_int_equal(e->words_len, 1000);
	rdc_ev_detail(e, "%s", title);
	assert_string_equal(e->detail, title);
	n = strlen(long_text) + strlen(title) + 4;
	want = malloc(n);
	assert_non_null(want);
	snprintf(want, n, "%s (%s)", long_text, title);
	assert_string_equal(e->value, want);
	assert_int_equal(e->words_len, 1000);
	/* A second detail replaces the first; the words stay. */
	rdc_ev_detail(e, "short");
	assert_int_equal(strlen(e->value), 1000 + strlen(" (short)"));

	e = rdc_ev_window(f, "symbol_error", "src", 3, 5.0, 12);
	rdc_ev_detail(e, "%s", long_text);
	assert_int_equal(e->words_len, strlen("+3 in 5.0 s (now 12)"));
	assert_int_equal(strncmp(e->value, "+3 in 5.0 s (now 12) (", 22), 0);
	assert_int_equal(strncmp(e->value + 22, long_text, 1000), 0);
	assert_string_equal(e->value + 22 + 1000, ")");
	assert_string_equal(e->detail, long_text);

	free(want);
	free(title);
	free(long_text);
	rdc_findings_free(l);
}

/* Unset strings read as "", never NULL; setters on NULL do nothing. */
static void test_never_null(void **state)
{
	struct rdc_findings *l = rdc_findings_new();
	struct rdc_finding *f;
	struct rdc_evidence *e;

	(void)state;
	f = rdc_findings_add(l, "x.y", RDC_SEV_INFO, "t");
	assert_string_equal(f->why, "");
	assert_string_equal(f->fix, "");
	e = rdc_ev_uint(f, "n", NULL, 1);
	assert_string_equal(e->source, "");
	assert_string_equal(e->detail, "");
	assert_string_equal(e->value, "1");
	rdc_finding_title_append(NULL, "x");
	rdc_finding_why(NULL, "x");
	assert_null(rdc_finding_fix_command_dup(NULL));
	assert_null(rdc_finding_fix_command_dup(f));
	rdc_findings_free(l);
	rdc_findings_free(NULL);
	rdc_findings_clear(NULL);
}

/* A title grows member by member, whole. */
static void test_title_append(void **state)
{
	struct rdc_findings *l = rdc_findings_new();
	struct rdc_finding *f;
	char *title = words_of(250);

	(void)state;
	f = rdc_findings_add(l, "bond.member-down", RDC_SEV_WARN, "%s", title);
	for (int i = 0; i < 20; i++)
		rdc_finding_title_append(f, ", ens%df0np0 (MII down)", i);
	assert_int_equal(strncmp(f->title, title, 250), 0);
	assert_non_null(strstr(f->title, ", ens19f0np0 (MII down)"));
	assert_int_equal(strlen(f->title) - 250, 10 * strlen(", ens0f0np0 (MII down)") +
							 10 * strlen(", ens10f0np0 (MII down)"));
	free(title);
	rdc_findings_free(l);
}

/* The fix command whole, in the fix text when there was none, and as a string of its own. */
static void test_fix_command(void **state)
{
	struct rdc_findings *l = rdc_findings_new();
	struct rdc_finding *f;
	char *line;

	(void)state;
	f = rdc_findings_add(l, "qos.x", RDC_SEV_FAIL, "t");
	rdc_finding_fix_cmd(f, RDC_WORDS("rdmactl", "pfc", "set", "ens1f0np0", "prio-pfc",
					 "0:off,1:off,2:off,3:on,4:off,5:off,6:off,7:off", "trust",
					 "dscp", "it's"));
	line = rdc_finding_fix_command_dup(f);
	assert_non_null(line);
	assert_string_equal(line, "rdmactl pfc set ens1f0np0 prio-pfc "
				  "0:off,1:off,2:off,3:on,4:off,5:off,6:off,7:off trust dscp "
				  "'it'\\''s'");
	assert_string_equal(f->fix, line);
	free(line);
	rdc_findings_free(l);
}

/* A finding moves between lists with one owner; a full list drops and frees it. */
static void test_take_and_clear(void **state)
{
	struct rdc_findings *a = rdc_findings_new(), *b = rdc_findings_new();
	struct rdc_finding *f, *moved;

	(void)state;
	f = rdc_findings_add(a, "x.moved", RDC_SEV_WARN, "moved %d", 1);
	rdc_ev_detail(rdc_ev_text(f, "n", "s", "v"), "d");
	rdc_finding_why(f, "why");
	moved = rdc_findings_take(b, f);
	assert_non_null(moved);
	assert_string_equal(moved->title, "moved 1");
	assert_string_equal(moved->evidence[0].value, "v (d)");
	assert_string_equal(f->title, "");
	assert_int_equal(f->nevidence, 0);
	while (b->count < RDC_FINDINGS_MAX)
		assert_non_null(rdc_findings_add(b, "x.info", RDC_SEV_INFO, "n"));
	f = rdc_findings_add(a, "x.fail", RDC_SEV_FAIL, "dropped");
	rdc_finding_fix(f, "freed with it");
	assert_null(rdc_findings_take(b, f));
	assert_int_equal(b->dropped, 1);
	assert_int_equal(b->dropped_worst, RDC_SEV_FAIL);
	/* A cleared list is empty and can be filled again. */
	rdc_findings_clear(b);
	assert_int_equal(b->count, 0);
	assert_int_equal(b->dropped, 0);
	assert_non_null(rdc_findings_add(b, "x.again", RDC_SEV_INFO, "again"));
	rdc_findings_free(a);
	rdc_findings_free(b);
}

/* The va_list form, for a check's own add helper. */
static struct rdc_finding *add_helper(struct rdc_findings *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static struct rdc_finding *add_helper(struct rdc_findings *l, const char *fmt, ...)
{
	struct rdc_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = rdc_findings_vadd(l, "x.v", RDC_SEV_WARN, fmt, ap);
	va_end(ap);
	return f;
}

static void test_vadd(void **state)
{
	struct rdc_findings *l = rdc_findings_new();
	char *title = words_of(400);
	struct rdc_finding *f;

	(void)state;
	f = add_helper(l, "%s", title);
	assert_non_null(f);
	assert_string_equal(f->title, title);
	free(title);
	rdc_findings_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_text_whole), cmocka_unit_test(test_never_null),
		cmocka_unit_test(test_title_append),	cmocka_unit_test(test_fix_command),
		cmocka_unit_test(test_take_and_clear),	cmocka_unit_test(test_vadd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
