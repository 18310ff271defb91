// SPDX-License-Identifier: GPL-2.0-or-later
/* lock.c - one writer per netdev: flock(2) files under /run/lock/rdmactl */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/lock.h"
#include "base/util.h"

#define LOCK_POLL_MS 50 /* how often a waiter tries again */

void rdc_locks_init(struct rdc_locks *l)
{
	memset(l, 0, sizeof(*l));
}

static const char *lock_dir(void)
{
	const char *env = getenv(RDC_LOCK_DIR_ENV);

	return env && *env ? env : RDC_LOCK_DIR;
}

/* Seconds to wait for a held lock: $RDMACTL_LOCK_WAIT, else the default. */
static int lock_wait_s(struct rdc_err *err)
{
	const char *env = getenv(RDC_LOCK_WAIT_ENV);
	uint32_t s;

	if (!env || !*env)
		return RDC_LOCK_WAIT_S;
	if (rdc_parse_u32_range(env, 0, 3600, &s))
		return rdc_err_set(err, EINVAL, "%s='%s': not a number of seconds (0 to 3600)",
				   RDC_LOCK_WAIT_ENV, env);
	return (int)s;
}

/* 0, or why @dir could not be made (one that exists is fine: it is checked after). */
static int owned_mkdir(const char *dir, mode_t mode)
{
	return !mkdir(dir, mode) || errno == EEXIST ? 0 : errno;
}

int rdc_owned_dir_open(const char *dir, mode_t mode, const char *what, struct rdc_err *err)
{
	struct stat st;
	int fd, code;

	code = owned_mkdir(dir, mode);
	if (code == ENOENT) {
		/* A fresh /run (a container, an initramfs) may have no /run/lock yet. */
		char parent[4096];
		char *slash;

		rdc_strlcpy(parent, dir, sizeof(parent));
		slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = '\0';
			code = owned_mkdir(parent, 0755);
			if (code)
				return rdc_err_set(err, code, "cannot make '%s' for the %s", parent,
						   what);
		}
		code = owned_mkdir(dir, mode);
	}
	if (code)
		return rdc_err_set(err, code, "cannot make the %s '%s'", what, dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		code = errno;
		/* O_NOFOLLOW|O_DIRECTORY on a symlink: ELOOP, or ENOTDIR on some kernels. */
		bool link = code == ELOOP ||
			    (code == ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode));

		return rdc_err_set(err, link ? ENOTDIR : code, "cannot open the %s '%s'%s", what,
				   dir, link ? " (a symlink)" : "");
	}
	/* Nobody else may write it; a private one (0700) nobody else may read either. */
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022) ||
	    (!(mode & 044) && (st.st_mode & 077))) {
		close(fd);
		return rdc_err_set(err, EPERM,
				   "the %s '%s' is not this user's alone (owner %u, "
				   "mode %04o): remove it",
				   what, dir, (unsigned int)st.st_uid,
				   (unsigned int)(st.st_mode & 07777));
	}
	return fd;
}

unsigned long long rdc_netns_inode(void)
{
	struct stat st;

	return stat("/proc/self/ns/net", &st) ? 0 : (unsigned long long)st.st_ino;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The pid the holder wrote, for the message; "?" when it has not yet. */
static void lock_holder(int fd, char *pid, size_t size)
{
	ssize_t n = pread(fd, pid, size - 1, 0);

	pid[n > 0 ? n : 0] = '\0';
	pid[strcspn(pid, "\n")] = '\0';
	for (const char *c = pid; *c; c++)
		if (*c < '0' || *c > '9')
			pid[0] = '\0';
	if (!pid[0])
		rdc_strlcpy(pid, "?", size);
}

static int lock_file_open(int dirfd, const char *path, const char *file, struct rdc_err *err)
{
	struct stat st;
	int fd = openat(dirfd, file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open the lock file '%s'", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return rdc_err_set(err, EPERM, "the lock file '%s' is not a file of this user's",
				   path);
	}
	return fd;
}

int rdc_locks_take(struct rdc_locks *l, const char *ifname, struct rdc_err *err)
{
	const char *dir = lock_dir();
	char file[IF_NAMESIZE + 40], path[4096], pid[24];
	int wait_s, dirfd, fd;
	uint64_t deadline;

	for (size_t i = 0; i < l->count; i++)
		if (!strcmp(l->name[i], ifname))
			return 0;
	if (l->count >= RDC_LOCK_MAX)
		return rdc_err_set(err, E2BIG, "more than %d netdevs to lock", RDC_LOCK_MAX);
	if (!rdc_ifname_valid(ifname))
		return rdc_err_set(err, EINVAL, "'%s' is not an interface name", ifname);
	wait_s = lock_wait_s(err);
	if (wait_s < 0)
		return wait_s;
	snprintf(file, sizeof(file), "net%llu.%s.lock", rdc_netns_inode(), ifname);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	dirfd = rdc_owned_dir_open(dir, 0755, "lock directory", err);
	if (dirfd < 0)
		return dirfd;
	fd = lock_file_open(dirfd, path, file, err);
	close(dirfd);
	if (fd < 0)
		return fd;
	deadline = mono_ms() + (uint64_t)wait_s * 1000;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		int code = errno;

		if (code == EINTR)
			continue;
		if (code != EWOULDBLOCK) {
			close(fd);
			return rdc_err_set(err, code, "cannot lock '%s'", path);
		}
		if (mono_ms() >= deadline) {
			lock_holder(fd, pid, sizeof(pid));
			close(fd);
			rdc_err_set(err, EBUSY,
				    "busy: pid %s holds %s (%s), still after %d s; try again "
				    "when it is done",
				    pid, ifname, path, wait_s);
			rdc_err_mark(err, RDC_ERRK_BUSY, ifname);
			return -EBUSY;
		}
		usleep(LOCK_POLL_MS * 1000);
	}
	/* Ours now: who holds it, for whoever waits next. */
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, strlen(pid), 0) < 0) {
		/* Only the message of a waiter needs it: the lock holds regardless. */
	}
	l->fd[l->count] = fd;
	rdc_strlcpy(l->name[l->count], ifname, sizeof(l->name[0]));
	l->count++;
	return 0;
}

void rdc_locks_release(struct rdc_locks *l)
{
	for (size_t i = 0; i < l->count; i++) {
		/* The pid goes first: a waiter must not name a run that is gone. */
		if (ftruncate(l->fd[i], 0)) {
			/* the lock is dropped with the close all the same */
		}
		close(l->fd[i]);
	}
	l->count = 0;
}
