// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bundle.c - a bundle's tar listing against the caps (host/bundle.h), and safe files */
#define _GNU_SOURCE /* fmemopen */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/safefile.h"
#include "host/bundle.h"

/*
 * A removal that fails, injected: this rmdir() takes the place of libc's for
 * every caller linked into this test (rdc_bundle_remove() among them), and
 * refuses a directory named "stuck" while stuck_busy is set, as the kernel
 * does for a mount point.  Otherwise it is the system call.
 */
static int stuck_busy;

int rmdir(const char *path)
{
	const char *base = strrchr(path, '/');

	if (stuck_busy && base && !strcmp(base, "/stuck")) {
		errno = EBUSY;
		return -1;
	}
	return unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
}

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
	/* A device node: --root would open it to see what it is; never unpacked. */
	assert_int_equal(check_text("-rw-r--r-- 0/0 5 2026-12-02 23:15 ./a\n"
				    "crw-rw-rw- 0/0 10,130 2026-12-02 23:15 ./sys/x/fw_ver\n",
				    &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "a device node: not a bundle rdmactl made"));
	assert_int_equal(check_text("brw-rw---- 0/6 8,0 2026-12-02 23:15 ./sda\n", &err), -EINVAL);
	/* A FIFO unpacks: opened non-blocking and refused by type, never read. */
	assert_int_equal(check_text("prw-r--r-- 0/0 0 2026-12-02 23:15 ./fifo\n", &err), 0);
	assert_int_equal(check_text("tar: this does not look like a tar archive\n", &err),
			 -EPROTO);
	assert_non_null(strstr(err.msg, "cannot read tar's listing"));
}

/* The line is quoted whole, without its newline (it was cut at 80 bytes). */
static void test_listing_line_whole(void **state)
{
	static const char node[] = "crw-rw-rw- 0/0 10,130 2026-12-02 23:15 ./sys/devices/pci0000:00/"
				   "0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0/fw_ver";
	static const char junk[] = "tar: ./sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0: "
				   "Cannot open: Permission denied, and more words after it";
	struct rdc_err err = {0};
	char text[512], want[512];

	(void)state;
	snprintf(text, sizeof(text), "%s\n", node);
	assert_int_equal(check_text(text, &err), -EINVAL);
	snprintf(want, sizeof(want), "a device node: not a bundle rdmactl made: '%s'", node);
	assert_string_equal(err.msg, want);
	snprintf(text, sizeof(text), "%s\n", junk);
	assert_int_equal(check_text(text, &err), -EPROTO);
	snprintf(want, sizeof(want), "cannot read tar's listing: '%s'", junk);
	assert_string_equal(err.msg, want);
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
	/* "-" is standard output only where a writer takes it so: never a file of that name. */
	assert_true(rdc_file_is_stdout("-"));
	assert_false(rdc_file_is_stdout("./-"));
	assert_false(rdc_file_is_stdout(NULL));
	assert_int_equal(rdc_file_target_ok("-", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cannot write '-': standard output does not apply here"));
	assert_int_equal(rdc_file_replace("-", "x", 1, 0600, &err), -EINVAL);
	assert_int_equal(access("-", F_OK), -1);
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

/* A private $TMPDIR for the scratch directories of one test, in @buf. */
static void scratch_parent(char *buf)
{
	strcpy(buf, "/tmp/rdmactl-test-bundle.XXXXXX");
	assert_non_null(mkdtemp(buf));
	assert_int_equal(setenv("TMPDIR", buf, 1), 0);
}

static void touch(const char *dir, const char *name)
{
	char path[4200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("x\n", fp);
	assert_int_equal(fclose(fp), 0);
}

/* rdc_fd_write_all: everything, or what got through before a failure, errno kept. */
static void test_fd_write_all(void **state)
{
	static char big[256 * 1024];
	char got[8] = {0};
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(rdc_fd_write_all(fds[1], "abc", 3), 3);
	assert_int_equal(read(fds[0], got, sizeof(got)), 3);
	assert_string_equal(got, "abc");
	/* A non-blocking pipe of one page fills: the bytes written so far, then EAGAIN. */
	assert_true(fcntl(fds[1], F_SETPIPE_SZ, 4096) >= 4096);
	assert_int_equal(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
	{
		ssize_t n = rdc_fd_write_all(fds[1], big, sizeof(big));

		assert_true(n > 0 && (size_t)n < sizeof(big));
		assert_int_equal(errno, EAGAIN);
	}
	/* Nothing written at all: -1 and the reason. */
	errno = 0;
	assert_int_equal(rdc_fd_write_all(fds[1], "x", 1), -1);
	assert_int_equal(errno, EAGAIN);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(rdc_fd_write_all(fds[1], "x", 1), -1);
	assert_int_equal(errno, EBADF);
}

/* Removal errors are reported (path and errno), the rest still goes, and nothing hangs. */
static void test_remove_error(void **state)
{
	char parent[64], dir[4096], path[4200];
	struct rdc_err err = {0};
	struct timespec t0, t1;

	(void)state;
	scratch_parent(parent);
	assert_int_equal(rdc_bundle_tmpdir(dir, sizeof(dir), &err), 0);
	snprintf(path, sizeof(path), "%s/stuck", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	touch(path, "in-stuck");
	touch(dir, "beside");
	assert_int_equal(rdc_bundle_remove_result(&err), 0);
	stuck_busy = 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rdc_bundle_remove(dir);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Its guard is ended at once, not left retrying for 5 s while rdmactl waits for it. */
	assert_true(t1.tv_sec - t0.tv_sec < 2);
	assert_int_equal(rdc_bundle_remove_result(&err), -EBUSY);
	assert_int_equal(err.code, EBUSY);
	assert_non_null(strstr(err.msg, "cannot remove scratch '"));
	assert_non_null(strstr(err.msg, "/stuck'"));
	/* Said once: read, it is forgotten. */
	assert_int_equal(rdc_bundle_remove_result(NULL), 0);
	/* The walk went on: all but the stuck directory (and so its parent) is gone. */
	snprintf(path, sizeof(path), "%s/stuck/in-stuck", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/beside", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/stuck", dir);
	assert_int_equal(access(path, F_OK), 0);
	stuck_busy = 0;
	rdc_bundle_remove(dir);
	assert_int_equal(rdc_bundle_remove_result(&err), 0);
	assert_int_equal(access(dir, F_OK), -1);
	/* A directory already gone is removed: no error. */
	rdc_bundle_remove(dir);
	assert_int_equal(rdc_bundle_remove_result(&err), 0);
	assert_int_equal(rmdir(parent), 0);
}

struct sink {
	char buf[1 << 16];
	size_t len;
	int fail; /* -errno to answer */
};

static int sink_cb(void *data, const void *buf, size_t len)
{
	struct sink *s = data;

	if (s->fail)
		return s->fail;
	assert_true(s->len + len <= sizeof(s->buf));
	memcpy(s->buf + s->len, buf, len);
	s->len += len;
	return 0;
}

/* Packed to a sink (standard output for `out -`) whole, or the sink's error; no debris. */
static void test_pack_stream(void **state)
{
	char parent[64], dir[4096], tree[4200], path[4300];
	struct rdc_err err = {0};
	static struct sink s;

	(void)state;
	scratch_parent(parent);
	assert_int_equal(rdc_bundle_tmpdir(dir, sizeof(dir), &err), 0);
	snprintf(tree, sizeof(tree), "%s/b", dir);
	assert_int_equal(mkdir(tree, 0700), 0);
	touch(tree, "VERSIONS");
	assert_int_equal(rdc_bundle_pack_stream(tree, sink_cb, &s, &err), 0);
	assert_true(s.len > 2);
	assert_int_equal((unsigned char)s.buf[0], 0x1f);
	assert_int_equal((unsigned char)s.buf[1], 0x8b);
	/* A sink that fails: its errno, said as the bundle's write. */
	s.len = 0;
	s.fail = -ENOSPC;
	assert_int_equal(rdc_bundle_pack_stream(tree, sink_cb, &s, &err), -ENOSPC);
	assert_int_equal(err.code, ENOSPC);
	assert_non_null(strstr(err.msg, "cannot write the bundle"));
	/* The scratch archive beside the tree is gone either way. */
	snprintf(path, sizeof(path), "%s.tar.gz", tree);
	assert_int_equal(access(path, F_OK), -1);
	/* To a file: "-" is not one. */
	assert_int_equal(rdc_bundle_pack(tree, "-", &err), -EINVAL);
	rdc_bundle_remove(dir);
	assert_int_equal(rdc_bundle_remove_result(&err), 0);
	assert_int_equal(rmdir(parent), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listing_ok),
		cmocka_unit_test(test_listing_caps),
		cmocka_unit_test(test_listing_garbage),
		cmocka_unit_test(test_listing_line_whole),
		cmocka_unit_test(test_safefile),
		cmocka_unit_test(test_fd_write_all),
		cmocka_unit_test(test_remove_error),
		cmocka_unit_test(test_pack_stream),
	};

	return cmocka_run_group_tests_name("bundle", tests, NULL, NULL);
}
