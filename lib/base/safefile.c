// SPDX-License-Identifier: GPL-2.0-or-later
/* safefile.c - temporary file beside the target, synced, renamed over a target we may replace */
#define _GNU_SOURCE /* asprintf, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safefile.h"

static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

bool rdc_file_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

int rdc_file_target_ok(const char *path, struct rdc_err *err)
{
	struct stat st;

	if (!path)
		return rdc_err_set(err, EINVAL, "no file named");
	if (rdc_file_is_stdout(path))
		return rdc_err_set_plain(err, EINVAL,
					 "cannot write '-': standard output does not apply here; "
					 "name a file (./- for one called '-')");
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return rdc_err_set(err, errno, "cannot write '%s'", path);
	}
	if (!S_ISREG(st.st_mode))
		return rdc_err_set_plain(
			err, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
			"cannot write '%s': it is %s, which rdmactl does not replace "
			"(name a regular file)",
			path, kind_of(st.st_mode));
	if (st.st_uid != geteuid())
		return rdc_err_set_plain(
			err, EPERM,
			"cannot write '%s': it belongs to user %u, not to us: remove "
			"it or name another file",
			path, (unsigned int)st.st_uid);
	return 0;
}

static int split_dir(struct rdc_file *f, const char *path, struct rdc_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir, *copy, *tmp = NULL;

	if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
		return rdc_err_set_plain(
			err, EISDIR, "cannot write '%s': it names a directory, not a file", path);
	if (slash == path)
		dir = strdup("/");
	else if (slash)
		dir = strndup(path, (size_t)(slash - path));
	else
		dir = strdup(".");
	copy = strdup(path);
	if (!dir || !copy || asprintf(&tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		free(dir);
		free(copy);
		return rdc_err_set(err, ENOMEM, "cannot write '%s'", path);
	}
	f->dir = dir;
	f->path = copy;
	f->tmp = tmp;
	return 0;
}

static void file_free(struct rdc_file *f)
{
	free(f->tmp);
	free(f->path);
	free(f->dir);
	f->tmp = f->path = f->dir = NULL;
	f->fd = -1;
}

int rdc_file_begin(struct rdc_file *f, const char *path, mode_t mode, struct rdc_err *err)
{
	int rc;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	rc = split_dir(f, path, err);
	if (!rc)
		rc = rdc_file_target_ok(path, err);
	if (rc) {
		file_free(f);
		return rc;
	}
	/* mkostemp: O_CREAT | O_EXCL, a name nobody holds, never a link followed. */
	f->fd = f->tmp ? mkostemp(f->tmp, O_CLOEXEC) : -1;
	if (f->fd < 0) {
		rc = rdc_err_set(err, errno, "cannot create a temporary file in '%s' for '%s'",
				 f->dir, path);
		file_free(f);
		return rc;
	}
	/* The mode asked for, whatever the umask: fchmod is not filtered by it. */
	if (fchmod(f->fd, mode)) {
		rc = rdc_err_set(err, errno, "cannot set the mode of '%s'", f->tmp);
		rdc_file_abort(f);
		return rc;
	}
	return 0;
}

void rdc_file_abort(struct rdc_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp)
		unlink(f->tmp);
	file_free(f);
}

int rdc_file_commit(struct rdc_file *f, struct rdc_err *err)
{
	int rc, dfd;

	if (f->fd < 0 || !f->tmp || !f->path || !f->dir)
		return rdc_err_set(err, EBADF, "no file being written to commit");
	if (fsync(f->fd)) {
		rc = rdc_err_set(err, errno, "cannot write '%s'", f->path);
		rdc_file_abort(f);
		return rc;
	}
	rc = close(f->fd);
	f->fd = -1;
	if (rc) {
		rc = rdc_err_set(err, errno, "cannot write '%s'", f->path);
		rdc_file_abort(f);
		return rc;
	}
	/* Checked again: what is there now is what the rename replaces. */
	rc = rdc_file_target_ok(f->path, err);
	if (!rc && rename(f->tmp, f->path))
		rc = rdc_err_set(err, errno, "cannot replace '%s'", f->path);
	if (rc) {
		rdc_file_abort(f);
		return rc;
	}
	/*
	 * The rename is durable once the directory is synced.  The new file is
	 * in place either way: a directory that refuses fsync is not a failure.
	 */
	dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	file_free(f);
	return 0;
}

int rdc_file_reserve(char *buf, size_t size, const char *stem, const char *ext, mode_t mode,
		     struct rdc_err *err)
{
	for (int i = 1; i <= 100; i++) {
		int fd, n;

		if (i == 1)
			n = snprintf(buf, size, "%s%s", stem, ext);
		else
			n = snprintf(buf, size, "%s-%d%s", stem, i, ext);
		if (n < 0 || (size_t)n >= size)
			return rdc_err_set_plain(err, ENAMETOOLONG, "cannot name '%s%s': too long",
						 stem, ext);
		fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EEXIST)
			return rdc_err_set(err, errno, "cannot create '%s'", buf);
	}
	return rdc_err_set_plain(err, EEXIST, "cannot name a new file: %s%s to %s-100%s are taken",
				 stem, ext, stem, ext);
}

ssize_t rdc_fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* A write of 0 bytes is no progress: an error, never a loop. */
			if (n == 0)
				errno = EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int rdc_file_replace(const char *path, const void *buf, size_t len, mode_t mode,
		     struct rdc_err *err)
{
	struct rdc_file f;
	int rc = rdc_file_begin(&f, path, mode, err);

	if (rc)
		return rc;
	if (rdc_fd_write_all(f.fd, buf, len) != (ssize_t)len) {
		rc = rdc_err_set(err, errno, "cannot write '%s'", path);
		rdc_file_abort(&f);
		return rc;
	}
	return rdc_file_commit(&f, err);
}
