// SPDX-License-Identifier: GPL-2.0-or-later
/* fs.c - root-prefixed file layer (the sysfs test seam) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "seam/fs.h"

static char fs_root[PATH_MAX]; /* resolved root, "" for the live system */

int rdc_fs_set_root(const char *dir, struct rdc_err *err)
{
	struct stat st;
	char real[PATH_MAX];

	fs_root[0] = '\0';
	if (!dir || !strcmp(dir, "/"))
		return 0;
	if (!*dir)
		return rdc_err_set(err, EINVAL, "empty root directory");
	if (stat(dir, &st) < 0)
		return rdc_err_set(err, errno, "cannot use root '%s'", dir);
	if (!S_ISDIR(st.st_mode))
		return rdc_err_set(err, ENOTDIR, "cannot use root '%s'", dir);
	if (access(dir, R_OK | X_OK) < 0)
		return rdc_err_set(err, errno, "cannot use root '%s'", dir);
	if (!realpath(dir, real))
		return rdc_err_set(err, errno, "cannot use root '%s'", dir);
	if (!strcmp(real, "/"))
		return 0;
	snprintf(fs_root, sizeof(fs_root), "%s", real);
	return 0;
}

const char *rdc_fs_root(void)
{
	return fs_root[0] ? fs_root : NULL;
}

/* Format a kernel path and prefix the root; returns -ENAMETOOLONG on overflow. */
static int fs_vpath(char *out, size_t size, char *kpath, size_t ksize, const char *fmt, va_list ap)
{
	int n = vsnprintf(kpath, ksize, fmt, ap);

	if (n < 0 || (size_t)n >= ksize)
		return -ENAMETOOLONG;
	n = snprintf(out, size, "%s%s", fs_root, kpath);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Declares the buffers it names, so its arguments cannot be parenthesized. */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define FS_PATH(path, kpath, fmt)                                                                  \
	char path[PATH_MAX], kpath[PATH_MAX];                                                      \
	int path_rc;                                                                               \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, fmt);                                                                 \
		path_rc = fs_vpath(path, sizeof(path), kpath, sizeof(kpath), fmt, ap);             \
		va_end(ap);                                                                        \
	}
/* NOLINTEND(bugprone-macro-parentheses) */

static int fs_read_path(const char *path, const char *kpath, char *buf, size_t size,
			struct rdc_err *err)
{
	ssize_t n;
	size_t len = 0;
	int fd, saved;

	if (size == 0)
		return rdc_err_set(err, EINVAL, "cannot read '%s'", kpath);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot read '%s'", kpath);
	/* sysfs attributes fit in a page; loop anyway, procfs files may be split. */
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			close(fd);
			return rdc_err_set(err, saved, "cannot read '%s'", kpath);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (int)len;
}

int rdc_fs_read(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_path(path, kpath, buf, size, err);
}

/* Read a small file and parse it as a signed or unsigned number. */
static int fs_read_number(const char *path, const char *kpath, bool is_signed, uint64_t *u,
			  int64_t *i, struct rdc_err *err)
{
	char buf[64];
	int rc = fs_read_path(path, kpath, buf, sizeof(buf), err);

	if (rc < 0)
		return rc;
	rc = is_signed ? rdc_parse_i64(buf, i) : rdc_parse_u64(buf, 0, u);
	if (rc < 0)
		return rdc_err_set(err, EINVAL, "'%s' holds '%s', not a number", kpath, buf);
	return 0;
}

int rdc_fs_read_u64(uint64_t *val, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_number(path, kpath, false, val, NULL, err);
}

int rdc_fs_read_i64(int64_t *val, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_number(path, kpath, true, NULL, val, err);
}

int rdc_fs_link_name(char *buf, size_t size, const char *fmt, ...)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	FS_PATH(path, kpath, fmt);
	(void)kpath;
	if (path_rc)
		return path_rc;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (snprintf(buf, size, "%s", base) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int rdc_fs_resolve(char *buf, size_t size, const char *fmt, ...)
{
	char real[PATH_MAX];
	size_t rootlen = strlen(fs_root);

	FS_PATH(path, kpath, fmt);
	(void)kpath;
	if (path_rc)
		return path_rc;
	if (!realpath(path, real))
		return -errno;
	/* A link that escapes the root is not part of the captured host. */
	if (rootlen && (strncmp(real, fs_root, rootlen) || (real[rootlen] && real[rootlen] != '/')))
		return -EXDEV;
	if (snprintf(buf, size, "%s", real[rootlen] ? real + rootlen : "/") >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

bool rdc_fs_exists(const char *fmt, ...)
{
	FS_PATH(path, kpath, fmt);
	(void)kpath;
	return !path_rc && access(path, F_OK) == 0;
}

static int fs_name_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int rdc_fs_list(struct rdc_names *list, struct rdc_err *err, const char *fmt, ...)
{
	struct dirent *de;
	size_t cap = 0;
	char **grown;
	DIR *dir;
	int saved;

	list->names = NULL;
	list->count = 0;
	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	dir = opendir(path);
	if (!dir)
		return rdc_err_set(err, errno, "cannot list '%s'", kpath);
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (list->count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(list->names, cap * sizeof(*list->names));
			if (!grown)
				goto err_nomem;
			list->names = grown;
		}
		list->names[list->count] = strdup(de->d_name);
		if (!list->names[list->count])
			goto err_nomem;
		list->count++;
	}
	closedir(dir);
	if (list->count)
		qsort(list->names, list->count, sizeof(*list->names), fs_name_cmp);
	return 0;

err_nomem:
	saved = ENOMEM;
	closedir(dir);
	rdc_names_free(list);
	return rdc_err_set(err, saved, "cannot list '%s'", kpath);
}

int rdc_fs_write(const char *val, struct rdc_err *err, const char *fmt, ...)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, saved;

	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	if (fs_root[0])
		return rdc_err_set(err, EROFS, "cannot write '%s': writes are refused under --root",
				   kpath);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot write '%s'", kpath);
	n = write(fd, val, len);
	saved = errno;
	close(fd);
	if (n < 0)
		return rdc_err_set(err, saved, "cannot write '%s'", kpath);
	if ((size_t)n != len)
		return rdc_err_set(err, EIO, "short write to '%s'", kpath);
	return 0;
}

int rdc_fs_mkdir(struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(path, kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	if (fs_root[0])
		return rdc_err_set(err, EROFS,
				   "cannot create '%s': writes are refused under --root", kpath);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return rdc_err_set(err, errno, "cannot create '%s'", kpath);
	return 0;
}
