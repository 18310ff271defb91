// SPDX-License-Identifier: GPL-2.0-or-later
/* test_prom.c - Prometheus text exposition: names, escaping, order, HELP/TYPE once, atomic files */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "out/prom.h"

static char *render(const struct rdc_prom *p)
{
	struct rdc_err err = {0};
	char *buf;
	size_t len;

	assert_int_equal(rdc_prom_render(p, &buf, &len, &err), 0);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void test_names(void **state)
{
	static const struct {
		const char *name;
		bool metric, label;
	} rows[] = {
		{"rdmactl_up", true, true},
		{"_x", true, true},
		{"A9_b", true, true},
		{"9lives", false, false},
		{"", false, false},
		{"a:b", false, false}, /* colons: recording rules only */
		{"a-b", false, false},
		{"a b", false, false},
		{"caf\xc3\xa9", false, false},
		{"__name__", true, false}, /* reserved for labels */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(rdc_prom_name_valid(rows[i].name, false), rows[i].metric);
		assert_int_equal(rdc_prom_name_valid(rows[i].name, true), rows[i].label);
	}
	assert_false(rdc_prom_name_valid(NULL, false));
}

/* Families sorted by name, samples by labels, HELP and TYPE once each, empty ones left out. */
static void test_order_and_headers(void **state)
{
	struct rdc_prom *p = rdc_prom_new();
	struct rdc_prom_label b[] = {{"device", "mlx5_1"}, {"port", "1"}};
	struct rdc_prom_label a[] = {{"device", "mlx5_0"}, {"port", "1"}};
	char *out;

	(void)state;
	assert_non_null(p);
	assert_int_equal(rdc_prom_family(p, "z_total", RDC_PROM_COUNTER, "zed"), 0);
	assert_int_equal(rdc_prom_family(p, "a_up", RDC_PROM_GAUGE, "up"), 0);
	assert_int_equal(rdc_prom_family(p, "m_empty", RDC_PROM_GAUGE, "never written"), 0);
	/* Declaring again the same way is a no-op. */
	assert_int_equal(rdc_prom_family(p, "a_up", RDC_PROM_GAUGE, "up"), 0);
	assert_int_equal(rdc_prom_u64(p, "z_total", b, 2, 7), 0);
	assert_int_equal(rdc_prom_u64(p, "z_total", a, 2, 18446744073709551615ULL), 0);
	assert_int_equal(rdc_prom_f64(p, "a_up", NULL, 0, 1), 0);
	assert_int_equal(rdc_prom_count(p), 3);
	out = render(p);
	assert_string_equal(out, "# HELP a_up up\n"
				 "# TYPE a_up gauge\n"
				 "a_up 1\n"
				 "# HELP z_total zed\n"
				 "# TYPE z_total counter\n"
				 "z_total{device=\"mlx5_0\",port=\"1\"} 18446744073709551615\n"
				 "z_total{device=\"mlx5_1\",port=\"1\"} 7\n");
	free(out);
	rdc_prom_free(p);
	rdc_prom_free(NULL);
}

/*
 * Label values: backslash, quote, newline; HELP: backslash and newline; bad UTF-8 -> U+FFFD;
 * ESC, C1 and bidi/zero-width characters -> the text \uXXXX.
 */
static void test_escaping(void **state)
{
	struct rdc_prom *p = rdc_prom_new();
	struct rdc_prom_label l[] = {{"v", "a\"b\\c\nd\xff"
					   "caf\xc3\xa9\x1b[2J\xc2\x9b\xe2\x80\xae\xe2\x80\x8b"}};
	char *out;

	(void)state;
	assert_int_equal(rdc_prom_family(p, "e", RDC_PROM_GAUGE, "say \"x\\y\"\nnext"), 0);
	assert_int_equal(rdc_prom_u64(p, "e", l, 1, 1), 0);
	out = render(p);
	assert_string_equal(out, "# HELP e say \"x\\\\y\"\\nnext\n"
				 "# TYPE e gauge\n"
				 "e{v=\"a\\\"b\\\\c\\nd\xef\xbf\xbd"
				 "caf\xc3\xa9\\\\u001b[2J\\\\u009b\\\\u202e\\\\u200b\"} 1\n");
	free(out);
	rdc_prom_free(p);
}

/* A NULL or empty label value leaves the label out; no label at all, no braces. */
static void test_empty_labels(void **state)
{
	struct rdc_prom *p = rdc_prom_new();
	struct rdc_prom_label l[] = {{"device", "ib0"}, {"netdev", NULL}, {"x", ""}};
	struct rdc_prom_label none[] = {{"netdev", NULL}};
	char *out;

	(void)state;
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	rdc_prom_u64(p, "g", l, 3, 2);
	rdc_prom_u64(p, "g", none, 1, 3);
	out = render(p);
	assert_string_equal(out, "# HELP g g\n# TYPE g gauge\ng 3\ng{device=\"ib0\"} 2\n");
	free(out);
	rdc_prom_free(p);
}

static void test_values(void **state)
{
	static const struct {
		double v;
		const char *text;
	} rows[] = {
		{0.1, "0.1"},	       {1e-6, "9.9999999999999995e-07"},
		{2.5e9, "2500000000"}, {-3, "-3"},
		{NAN, "NaN"},	       {INFINITY, "+Inf"},
		{-INFINITY, "-Inf"},   {1796292347.847403, "1796292347.847403"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct rdc_prom *p = rdc_prom_new();
		char *out, want[128];

		rdc_prom_family(p, "v", RDC_PROM_GAUGE, "v");
		assert_int_equal(rdc_prom_f64(p, "v", NULL, 0, rows[i].v), 0);
		out = render(p);
		snprintf(want, sizeof(want), "# HELP v v\n# TYPE v gauge\nv %s\n", rows[i].text);
		if (i == 1) /* whatever %g rounds to, it must read back as 1e-6 */
			assert_true(strtod(strrchr(out, ' ') + 1, NULL) == 1e-6);
		else
			assert_string_equal(out, want);
		free(out);
		rdc_prom_free(p);
	}
}

/* Each mistake is an error; the first one sticks and the render refuses. */
static void test_errors(void **state)
{
	static const struct rdc_prom_label dup[] = {{"a", "1"}, {"a", "2"}};
	static const struct rdc_prom_label bad[] = {{"__x", "1"}};
	static const struct rdc_prom_label one[] = {{"a", "1"}};
	struct rdc_err err = {0};
	struct rdc_prom *p;
	char *buf;
	size_t len;

	(void)state;
	p = rdc_prom_new();
	assert_int_equal(rdc_prom_family(p, "x_count", RDC_PROM_COUNTER, "c"), -EINVAL);
	assert_int_equal(rdc_prom_status(p, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "_total"));
	/* Sticky: a valid call after it does nothing. */
	assert_int_equal(rdc_prom_family(p, "ok", RDC_PROM_GAUGE, "ok"), -EINVAL);
	assert_int_equal(rdc_prom_render(p, &buf, &len, NULL), -EINVAL);
	assert_null(buf);
	rdc_prom_free(p);

	p = rdc_prom_new();
	assert_int_equal(rdc_prom_u64(p, "undeclared", NULL, 0, 1), -EINVAL);
	rdc_prom_free(p);

	p = rdc_prom_new();
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	assert_int_equal(rdc_prom_family(p, "g", RDC_PROM_COUNTER, "g"), -EINVAL);
	rdc_prom_free(p);

	p = rdc_prom_new();
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	assert_int_equal(rdc_prom_family(p, "g", RDC_PROM_GAUGE, "other help"), -EINVAL);
	rdc_prom_free(p);

	p = rdc_prom_new();
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	assert_int_equal(rdc_prom_u64(p, "g", dup, 2, 1), -EINVAL);
	rdc_prom_free(p);

	p = rdc_prom_new();
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	assert_int_equal(rdc_prom_u64(p, "g", bad, 1, 1), -EINVAL);
	rdc_prom_free(p);

	p = rdc_prom_new();
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	assert_int_equal(rdc_prom_u64(p, "g", one, 1, 1), 0);
	/* The same series again (a driver naming two statistics alike): dropped, the first kept. */
	assert_int_equal(rdc_prom_u64(p, "g", one, 1, 2), -EEXIST);
	assert_int_equal(rdc_prom_status(p, &err), 0);
	assert_int_equal(rdc_prom_count(p), 1);
	assert_int_equal(rdc_prom_render(p, &buf, &len, NULL), 0);
	assert_string_equal(buf, "# HELP g g\n# TYPE g gauge\ng{a=\"1\"} 1\n");
	free(buf);
	rdc_prom_free(p);

	p = rdc_prom_new();
	assert_int_equal(rdc_prom_family(p, "a:b", RDC_PROM_GAUGE, "g"), -EINVAL);
	rdc_prom_free(p);
}

/* Files in @dir other than "." and ".."; */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_write_file(void **state)
{
	char dir[] = "/tmp/test_prom-XXXXXX", path[128], sub[128], text[256];
	struct rdc_prom *p = rdc_prom_new();
	struct rdc_err err = {0};
	struct stat st;
	FILE *fp;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	rdc_prom_family(p, "g", RDC_PROM_GAUGE, "g");
	rdc_prom_u64(p, "g", NULL, 0, 1);
	snprintf(path, sizeof(path), "%s/rdmactl.prom", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("old\n", fp);
	fclose(fp);
	/* An existing file is replaced whole, mode 0644 whatever the umask; nothing else left. */
	umask(077);
	assert_int_equal(rdc_prom_write_file(p, path, &err), 0);
	umask(022);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	assert_string_equal(text, "# HELP g g\n# TYPE g gauge\ng 1\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(dir_entries(dir), 1);

	/* The target is a directory: refused before a temporary file is made; it stays. */
	snprintf(sub, sizeof(sub), "%s/d.prom", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(text, sizeof(text), "%s/keep", sub);
	fp = fopen(text, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(rdc_prom_write_file(p, sub, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "it is a directory"));
	assert_int_equal(dir_entries(dir), 2);
	assert_int_equal(dir_entries(sub), 1);

	/* A directory that does not exist: no temporary file can be made. */
	snprintf(sub, sizeof(sub), "%s/nope/x.prom", dir);
	assert_int_equal(rdc_prom_write_file(p, sub, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "temporary file"));
	assert_int_equal(rdc_prom_write_file(p, "/tmp/", &err), -EISDIR);

	/* A set in error writes nothing, not even a temporary file. */
	rdc_prom_u64(p, "undeclared", NULL, 0, 2);
	assert_int_equal(rdc_prom_write_file(p, path, &err), -EINVAL);
	assert_int_equal(dir_entries(dir), 2);

	snprintf(text, sizeof(text), "%s/d.prom/keep", dir);
	unlink(text);
	snprintf(text, sizeof(text), "%s/d.prom", dir);
	rmdir(text);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	rdc_prom_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),	   cmocka_unit_test(test_order_and_headers),
		cmocka_unit_test(test_escaping),   cmocka_unit_test(test_empty_labels),
		cmocka_unit_test(test_values),	   cmocka_unit_test(test_errors),
		cmocka_unit_test(test_write_file),
	};

	return cmocka_run_group_tests_name("prom", tests, NULL, NULL);
}
