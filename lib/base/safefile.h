/* SPDX-License-Identifier: GPL-2.0-or-later */
/* safefile.h - the one way rdmactl writes a file: a temporary file beside it, renamed over it */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"

/*
 * A file being written.  rdc_file_begin() refuses a target that is not
 * absent or a regular file owned by this user (a symlink, a device such as
 * /dev/null, a FIFO, a directory, another user's file: the writer would
 * follow it, replace it or hand it our data), then creates a temporary file
 * in the target's directory (O_EXCL: never a planted one) with @mode, whatever
 * the umask.  rdc_file_commit() syncs it, closes it (errors checked) and
 * renames it over the target; rdc_file_abort() removes it.  Either must be
 * called once begin succeeded.
 */
struct rdc_file {
	int fd;	   /* the temporary file, open for writing */
	char *tmp; /* its path */
	char *path;
	char *dir;
};

int rdc_file_begin(struct rdc_file *f, const char *path, mode_t mode, struct rdc_err *err);
int rdc_file_commit(struct rdc_file *f, struct rdc_err *err);
void rdc_file_abort(struct rdc_file *f);

/*
 * All of @buf to @fd, across short writes and EINTR: @len, or the bytes that
 * were written before a write failed (errno says why; 0 bytes: -1).
 */
ssize_t rdc_fd_write_all(int fd, const void *buf, size_t len);

/* The whole of @buf as @path's new content (begin, write, commit). */
int rdc_file_replace(const char *path, const void *buf, size_t len, mode_t mode,
		     struct rdc_err *err);

/*
 * A new file's name nobody holds: STEM EXT, else STEM-2 EXT ... STEM-100 EXT,
 * in @buf; made empty with O_EXCL and @mode, so that no other writer (another
 * rdmactl in the same second) takes it before this one's rdc_file_commit().
 * The caller removes it when nothing took its place.
 */
int rdc_file_reserve(char *buf, size_t size, const char *stem, const char *ext, mode_t mode,
		     struct rdc_err *err);

/*
 * @path may be replaced: absent, or a regular file owned by this user.  -errno
 * with why.  "-" is refused (-EINVAL): a writer that takes it as standard
 * output (rdc_file_is_stdout()) says so before it gets here; any other does
 * not make a file of that name (./- does).
 */
int rdc_file_target_ok(const char *path, struct rdc_err *err);

/* Does @path name standard output ("-")?  Only cmd/ writes it, through its output layer. */
bool rdc_file_is_stdout(const char *path);
