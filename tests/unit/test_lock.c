// SPDX-License-Identifier: GPL-2.0-or-later
/* test_lock.c - one writer per netdev (base/lock.h), and a rollback that undoes only its own change */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/lock.h"
#include "host/link.h"

static char dir[] = "/tmp/rdc-lock-XXXXXX";

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	setenv(RDC_LOCK_DIR_ENV, dir, 1);
	setenv(RDC_LOCK_WAIT_ENV, "0", 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* The lock file of @ifname in this network namespace. */
static void lock_path(const char *ifname, char *buf, size_t size)
{
	struct stat st;

	assert_int_equal(stat("/proc/self/ns/net", &st), 0);
	snprintf(buf, size, "%s/net%llu.%s.lock", dir, (unsigned long long)st.st_ino, ifname);
}

/* Taken, held once however often asked, refused to another process, released. */
static void test_lock_take_release(void **state)
{
	struct rdc_locks l;
	struct rdc_err err = {0};
	char path[256], pid[32] = "";
	FILE *fp;
	pid_t child;
	int status;

	(void)state;
	rdc_locks_init(&l);
	assert_int_equal(rdc_locks_take(&l, "eth0", &err), 0);
	assert_int_equal(rdc_locks_take(&l, "eth0", &err), 0);
	assert_int_equal(l.count, 1);
	lock_path("eth0", path, sizeof(path));
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(pid, sizeof(pid), fp));
	fclose(fp);
	assert_int_equal(atol(pid), (long)getpid());
	/* Another process: busy at once (wait 0), naming this one. */
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct rdc_locks other;
		struct rdc_err e = {0};
		char want[128];
		int rc;

		rdc_locks_init(&other);
		rc = rdc_locks_take(&other, "eth0", &e);
		snprintf(want, sizeof(want), "busy: pid %ld holds eth0 (", (long)getppid());
		_exit(rc == -EBUSY && !strncmp(e.msg, want, strlen(want)) &&
				      strstr(e.msg, ".eth0.lock), still after 0 s")
			      ? 0
			      : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Released: the other process takes it. */
	rdc_locks_release(&l);
	assert_int_equal(l.count, 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct rdc_locks other;
		struct rdc_err e = {0};

		rdc_locks_init(&other);
		_exit(rdc_locks_take(&other, "eth0", &e) ? 1 : 0);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A fresh /run has no /run/lock: the parent is made too (one level). */
static void test_lock_dir_made(void **state)
{
	struct rdc_locks l;
	struct rdc_err err = {0};
	char fresh[256];
	struct stat st;

	(void)state;
	snprintf(fresh, sizeof(fresh), "%s/run-lock/rdmactl", dir);
	setenv(RDC_LOCK_DIR_ENV, fresh, 1);
	rdc_locks_init(&l);
	assert_int_equal(rdc_locks_take(&l, "eth3", &err), 0);
	assert_int_equal(stat(fresh, &st), 0);
	assert_true(S_ISDIR(st.st_mode) && !(st.st_mode & 022));
	rdc_locks_release(&l);
	setenv(RDC_LOCK_DIR_ENV, dir, 1);
}

/* A holder that died holds nothing: the kernel dropped its flock. */
static void test_lock_dead_holder(void **state)
{
	struct rdc_locks l;
	struct rdc_err err = {0};
	pid_t child;
	int status;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct rdc_locks other;
		struct rdc_err e = {0};

		rdc_locks_init(&other);
		_exit(rdc_locks_take(&other, "eth1", &e) ? 1 : 0); /* exits holding it */
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	rdc_locks_init(&l);
	assert_int_equal(rdc_locks_take(&l, "eth1", &err), 0);
	rdc_locks_release(&l);
}

/* What is not a name, a planted symlink, a directory others may write: refused, said why. */
static void test_lock_refusals(void **state)
{
	struct rdc_locks l;
	struct rdc_err err = {0};
	char path[256], sub[256];

	(void)state;
	rdc_locks_init(&l);
	assert_int_equal(rdc_locks_take(&l, "a/b", &err), -EINVAL);
	assert_int_equal(rdc_locks_take(&l, "", &err), -EINVAL);
	assert_int_equal(rdc_locks_take(&l, "sixteen-bytes-xx", &err),
			 -EINVAL); /* IF_NAMESIZE with its NUL */
	lock_path("eth2", path, sizeof(path));
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(rdc_locks_take(&l, "eth2", &err), -ELOOP);
	assert_non_null(strstr(err.msg, ".eth2.lock"));
	unlink(path);
	snprintf(sub, sizeof(sub), "%s/open", dir);
	assert_int_equal(mkdir(sub, 0777), 0);
	assert_int_equal(chmod(sub, 0777), 0);
	setenv(RDC_LOCK_DIR_ENV, sub, 1);
	assert_int_equal(rdc_locks_take(&l, "eth0", &err), -EPERM);
	assert_non_null(strstr(err.msg, "is not this user's alone"));
	setenv(RDC_LOCK_DIR_ENV, dir, 1);
	setenv(RDC_LOCK_WAIT_ENV, "soon", 1);
	assert_int_equal(rdc_locks_take(&l, "eth0", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "RDMACTL_LOCK_WAIT='soon'"));
	setenv(RDC_LOCK_WAIT_ENV, "0", 1);
	assert_int_equal(l.count, 0);
}

static struct rdc_link link_of(uint32_t mtu, bool up)
{
	struct rdc_link l = {.mtu = mtu, .admin_up = up};

	return l;
}

/* The rollback puts back only what this run changed and still reads as it wrote it. */
static void test_link_undo_own(void **state)
{
	struct rdc_link before = link_of(1500, false), want = link_of(9000, true), now;
	struct rdc_link_change both = {9000, 1}, mtu_only = {9000, -1}, undo;

	(void)state;
	/* The MTU took, the state did not: the MTU goes back, nobody else's. */
	now = link_of(9000, false);
	assert_false(rdc_link_undo_own(&before, &both, &want, &now, &undo));
	assert_int_equal(undo.mtu, 1500);
	assert_int_equal(undo.admin_up, -1);
	/* The state took, the MTU reads the old value: only the state goes back. */
	now = link_of(1500, true);
	assert_false(rdc_link_undo_own(&before, &both, &want, &now, &undo));
	assert_int_equal(undo.mtu, -1);
	assert_int_equal(undo.admin_up, 0);
	/* Another writer set 4000 meanwhile: theirs, not undone; the state this run set is. */
	now = link_of(4000, true);
	assert_true(rdc_link_undo_own(&before, &both, &want, &now, &undo));
	assert_int_equal(undo.mtu, -1);
	assert_int_equal(undo.admin_up, 0);
	/* A value this run did not ask to change is never touched. */
	want = link_of(9000, false);
	now = link_of(4000, true);
	assert_true(rdc_link_undo_own(&before, &mtu_only, &want, &now, &undo));
	assert_int_equal(undo.mtu, -1);
	assert_int_equal(undo.admin_up, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_take_release), cmocka_unit_test(test_lock_dead_holder),
		cmocka_unit_test(test_lock_dir_made),	  cmocka_unit_test(test_lock_refusals),
		cmocka_unit_test(test_link_undo_own),
	};

	return cmocka_run_group_tests_name("lock", tests, setup, teardown);
}
