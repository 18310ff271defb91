// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bundle.c - a bundle's tar listing against the caps (host/bundle.h), and safe files */
#define _GNU_SOURCE /* fmemopen */
#include <errno.h>
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

#include "base/safefile.h"
#include "host/bundle.h"

static int check_text(const char *text, struct rdc_err *err)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(fp);
	rc = rdc_bundle_listing_check(fp, err);
	fclose(fp);
	return rc;
}

static void test_listing_ok(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(check_text("", &err), 0);
	assert_int_equal(check_text("drwx------ 0/0               0 2026-12-02 23:15 ./\n"
				    "-rw-r--r-- 0/0            1234 2026-12-02 23:15 ./kernel.rec\n"
				    "lrwxrwxrwx 0/0               0 2026-12-02 23:15 ./a -> b c\n"
				    "hrw-r--r-- 0/0               0 2026-12-02 23:15 ./x link to ./y\n"
				    "-rw-r--r-- 0/0               5 2026-12-02 23:15 ./name\\nwith newline\n",
				    &err),
			 0);
}

static void test_listing_caps(void **state)
{
	struct rdc_err err = {0};
	char line[128];
	size_t n = RDC_BUNDLE_MAX_ENTRIES + 1, len = 0;
	char *big;

	(void)state;
	/* Bytes: the sizes of regular files add up, one past the cap is refused. */
	snprintf(line, sizeof(line),
		 "-rw-r--r-- 0/0 %u 2026-12-02 23:15 ./a\n-rw-r--r-- 0/0 1 2026-12-02 23:15 ./b\n",
		 RDC_BUNDLE_MAX_BYTES);
	assert_int_equal(check_text(line, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "MiB unpacked: not a bundle rdmactl made"));
	/* Exactly the cap is fine; a symlink's or directory's size does not count. */
	snprintf(line, sizeof(line), "-rw-r--r-- 0/0 %u 2026-12-02 23:15 ./a\n",
		 RDC_BUNDLE_MAX_BYTES);
	assert_int_equal(check_text(line, &err), 0);
	/* Entries: one past the cap, even all empty. */
	big = malloc(n * 48 + 1);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(big + len, "-rw-r--r-- 0/0 0 2026-12-02 23:15 ./f%zu\n", i);
	memset(&err, 0, sizeof(err));
	assert_int_equal(check_text(big, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "entries"));
	free(big);
}

static void test_listing_garbage(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(check_text("tar: this does not look like a tar archive\n", &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "cannot read tar's listing"));
}

/* The file writer: what it refuses, what it writes. */
static void test_safefile(void **state)
{
	char dir[] = "/tmp/rdmactl-safefile.XXXXXX", path[256], link[256];
	struct rdc_err err = {0};
	struct stat st;
	FILE *fp;
	char buf[16] = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(rdc_file_replace(path, "one\n", 4, 0640, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(rdc_file_replace(path, "two\n", 4, 0600, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "two\n");
	/* A link: refused, its target untouched. */
	snprintf(link, sizeof(link), "%s/l", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(rdc_file_replace(link, "x", 1, 0600, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_int_equal(rdc_file_replace("/dev/null", "x", 1, 0600, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "a device"));
	assert_int_equal(rdc_file_replace(dir, "x", 1, 0600, &err), -EISDIR);
	/* A reserved name: the first free one, made empty; the next call gets -2. */
	{
		char stem[300], a[320], b[320];

		snprintf(stem, sizeof(stem), "%s/bundle", dir);
		assert_int_equal(rdc_file_reserve(a, sizeof(a), stem, ".tgz", 0600, &err), 0);
		assert_int_equal(rdc_file_reserve(b, sizeof(b), stem, ".tgz", 0600, &err), 0);
		assert_non_null(strstr(a, "/bundle.tgz"));
		assert_non_null(strstr(b, "/bundle-2.tgz"));
		assert_int_equal(rdc_file_reserve(b, 8, stem, ".tgz", 0600, &err), -ENAMETOOLONG);
		unlink(a);
		snprintf(a, sizeof(a), "%s/bundle-2.tgz", dir);
		unlink(a);
	}
	unlink(link);
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* nothing left behind: no temporary file */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing_ok),
		cmocka_unit_test(test_listing_caps),
		cmocka_unit_test(test_listing_garbage),
		cmocka_unit_test(test_safefile),
	};

	return cmocka_run_group_tests_name("bundle", tests, NULL, NULL);
}
