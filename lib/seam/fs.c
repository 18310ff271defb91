// SPDX-License-Identifier: GPL-2.0-or-later
/* fs.c - root-prefixed file layer (the sysfs test seam): a jail under --root, and capture */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "seam/fs.h"

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture (Linux 5.6) */
#endif

#define FS_MAX_LINKS 40 /* links followed in one resolution: the kernel's MAXSYMLINKS */
/* Every open that reads: a FIFO must not block, a terminal must not become ours. */
#define FS_OPEN_FLAGS (O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

static char fs_root[PATH_MAX]; /* resolved root, "" for the live system */
static int fs_root_fd = -1;    /* O_PATH of fs_root; -1 live */
static int fs_slash_fd = -1;   /* O_PATH of "/": the walk's root when capturing live */
static bool fs_walk_only;      /* the kernel has no openat2() (ENOSYS), or a test asked */
static int fs_overlay_fd = -1; /* O_PATH of a tree inside the root read first (a later sample) */

/*
 * Directories under a root kept open, for the files read in them: a file of a
 * directory met before is one openat2() of its last component from the
 * directory's fd (RESOLVE_BENEATH), not a walk of every component from the
 * root again; a GID table is 256 files or more in one directory.
 *
 * The jail's promise holds: the directory was resolved in the root
 * (RESOLVE_IN_ROOT, as the whole path would be), and what RESOLVE_BENEATH
 * reaches from it is below it.  Where the two resolutions could differ (the
 * last component a link that is absolute or leads up out of the directory:
 * EXDEV) or the short open fails for anything but ENOENT, the whole path is
 * opened as before and decides.  A directory is opened (O_PATH) the second
 * time it is asked for, so one read once costs nothing more; a listing's own
 * fd is kept instead of closed, and a reader that knows several reads follow
 * in one directory (a device's attributes) opens it at once
 * (rdc_fs_expect_dir(), rdc_fs_is_dir()).  Where a path's own directory is
 * not open, the rest of it is opened from the one kept nearest above it
 * ("ports/1/state" from a device's directory, "eth0/dev_port" from the
 * listing of a function's "net"), alike.  A link is read with readlinkat()
 * of its name from its directory's fd, opened at once where it is not kept
 * yet: one name resolves nothing, so that needs no O_PATH fd of the link
 * (fs_dir_readlink).  In an overlay (a later sample of a bundle, written
 * once) a directory that does not resolve is remembered as such and an
 * ENOENT from a kept directory decides: most files are not in it.  Under
 * the root itself an ENOENT from a kept directory decides only while the
 * directory is fresh (RDC_FS_DIR_FRESH_MS since its fd was resolved); an
 * older one is dropped and the whole path opened, and a directory that did
 * not resolve is asked again: a root may be a live host (a container's /host)
 * where a device or a bond appears between two samples of one diag run, or
 * leaves and comes back (its old directory's fd then finds nothing, the whole
 * path finds the new one).  Why fresh and not always: a listing probes for
 * names that are mostly absent (a port's "parent", a netdev's "bonding" and
 * "master"), and opening each whole path again cost a second walk from the
 * root per probe (an IN_ROOT lookup that fails is about four times a relative
 * one: 5 against 1.2 us on CI's kind), 2400 of `port`'s 94500 system calls
 * on 800 devices.  A directory removed and made again within the window of
 * its first open is the same race as one removed during the read.  Only
 * under a root (live, bonds and configfs objects come and go under a command
 * that makes them), never for the walk (capture, no openat2()), emptied when
 * the root or the overlay changes.  Keyed by the fd resolved from (the
 * root's or the overlay's).
 */
#define FS_DIRS 16
#define FS_DIR_SEEN (-1)   /* asked for once, not opened */
#define FS_DIR_ABSENT (-2) /* resolves to ENOENT (in an overlay only) */
static struct fs_dir {
	int base;	     /* the fd it was resolved from; -1: a free entry */
	int fd;		     /* O_PATH or listing fd, or FS_DIR_SEEN, FS_DIR_ABSENT */
	bool up;	     /* a name in it was a link leading up (EXDEV): /sys/class/net */
	long long opened_ms; /* fs_now_ms() when it was added or its fd resolved */
	unsigned long used;  /* for the least recently used to go first */
	size_t len;
	char path[256]; /* longer directories are not kept */
} fs_dirs[FS_DIRS] = {[0 ... FS_DIRS - 1] = {.base = -1}};
static unsigned long fs_dirs_tick;

/* Milliseconds of CLOCK_MONOTONIC_COARSE (the vDSO's, no system call; a tick's resolution). */
static long long fs_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void fs_dir_drop(struct fs_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->base = -1;
	d->fd = FS_DIR_SEEN;
	d->up = false;
}

static void fs_dirs_flush(void)
{
	for (size_t i = 0; i < FS_DIRS; i++)
		if (fs_dirs[i].base >= 0)
			fs_dir_drop(&fs_dirs[i]);
}

int rdc_fs_set_root(const char *dir, struct rdc_err *err)
{
	struct stat st;
	char real[PATH_MAX];
	int fd;

	fs_root[0] = '\0';
	rdc_fs_set_overlay(NULL, NULL);
	fs_dirs_flush();
	if (fs_root_fd >= 0) {
		close(fs_root_fd);
		fs_root_fd = -1;
	}
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
	fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot use root '%s'", dir);
	fs_root_fd = fd;
	snprintf(fs_root, sizeof(fs_root), "%s", real);
	return 0;
}

static int fs_openat2(int rootfd, const char *kpath, int flags);

/* @subdir's directories one by one, none of them a link (for kernels without openat2). */
static int fs_open_plain_dirs(int rootfd, const char *subdir)
{
	char copy[PATH_MAX], *save = NULL, *part;
	int fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0), next;

	snprintf(copy, sizeof(copy), "%s", subdir);
	for (part = strtok_r(copy, "/", &save); fd >= 0 && part;
	     part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, ".."))
			next = -1, errno = EINVAL;
		else
			next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	return fd < 0 ? -errno : fd;
}

int rdc_fs_set_overlay(const char *subdir, struct rdc_err *err)
{
	int fd;

	fs_dirs_flush();
	if (fs_overlay_fd >= 0)
		close(fs_overlay_fd);
	fs_overlay_fd = -1;
	if (!subdir || fs_root_fd < 0)
		return 0;
	/* The overlay is found inside the jail like any other path. */
	fd = fs_walk_only ? -ENOSYS
			  : fs_openat2(fs_root_fd, subdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd == -ENOSYS || fd == -EPERM)
		fd = fs_open_plain_dirs(fs_root_fd, subdir);
	if (fd == -ENOENT)
		return 0; /* a bundle without a later sample: everything from the root */
	if (fd < 0)
		return rdc_err_set(err, -fd, "cannot use '%s' in the root", subdir);
	fs_overlay_fd = fd;
	return 0;
}

const char *rdc_fs_root(void)
{
	return fs_root[0] ? fs_root : NULL;
}

void rdc_fs_force_walk(bool on)
{
	fs_walk_only = on;
}

/*
 * Format a kernel path; returns -ENAMETOOLONG on overflow.  Under a root the
 * path is opened relative to the root's fd, and live it is the path itself:
 * no root prefix is ever put in front.  "%s", the format of callers that
 * built the path themselves, is a copy.
 */
static int fs_vpath(char *kpath, size_t ksize, const char *fmt, va_list ap)
{
	size_t len;
	int n;

	if (fmt[0] == '%' && fmt[1] == 's' && !fmt[2]) {
		const char *s = va_arg(ap, const char *);

		len = strlen(s);
		if (len >= ksize)
			return -ENAMETOOLONG;
		memcpy(kpath, s, len + 1);
		return 0;
	}
	n = vsnprintf(kpath, ksize, fmt, ap);
	if (n < 0 || (size_t)n >= ksize)
		return -ENAMETOOLONG;
	return 0;
}

/* Declares the buffer it names, so its arguments cannot be parenthesized. */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define FS_PATH(kpath, fmt)                                                                        \
	char kpath[PATH_MAX];                                                                      \
	int path_rc;                                                                               \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, fmt);                                                                 \
		path_rc = fs_vpath(kpath, sizeof(kpath), fmt, ap);                                 \
		va_end(ap);                                                                        \
	}
/* NOLINTEND(bugprone-macro-parentheses) */

/* Whether @path is @dir or below it ("/sys" holds "/sys/class", not "/sysfoo"). */
static bool fs_under(const char *path, const char *dir)
{
	while (*dir && *path == *dir) {
		path++;
		dir++;
	}
	return !*dir && (*path == '\0' || *path == '/');
}

/*
 * Capture: the paths copied so far, sorted, each with what it became
 * ('f' file, 'e' empty file for a path only tested, 'd' directory, 'l' link).
 */
struct fs_cap_entry {
	char *path;
	char kind;
};

static struct {
	bool on;
	int dirfd; /* O_PATH of the capture directory */
	struct fs_cap_entry *done;
	size_t count, cap;
	char error[PATH_MAX + 64]; /* the first error, "" when none */
} fs_cap = {.dirfd = -1};

static void fs_cap_fail(int code, const char *kpath)
{
	if (code < 0)
		code = -code;
	if (!fs_cap.error[0])
		snprintf(fs_cap.error, sizeof(fs_cap.error), "cannot capture '%s': %s", kpath,
			 strerror(code));
}

/* How capture treats a kernel path (fs.h lists what is allowed). */
enum fs_scope {
	FS_SCOPE_NONE,	/* capture off, or a path never captured */
	FS_SCOPE_SYS,	/* links kept, files at their resolved paths */
	FS_SCOPE_PLAIN, /* stored at the path asked for */
	FS_SCOPE_EXIST, /* existence only */
};

/* "/a/b": absolute, no empty, "." or ".." component, no trailing slash. */
static bool fs_clean(const char *p)
{
	if (p[0] != '/' || !p[1])
		return false;
	while (*p == '/') {
		size_t n = strcspn(++p, "/");

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
	}
	return true;
}

static enum fs_scope fs_cap_scope(const char *kpath)
{
	if (!fs_cap.on || !fs_clean(kpath))
		return FS_SCOPE_NONE;
	if (fs_under(kpath, "/sys"))
		return FS_SCOPE_SYS;
	/* /proc/irq: which CPUs serve the NIC's interrupts (diag's NUMA check), nothing else. */
	if (fs_under(kpath, "/proc/net") || fs_under(kpath, "/proc/sys") ||
	    fs_under(kpath, "/proc/irq") || !strcmp(kpath, "/proc/stat") ||
	    !strcmp(kpath, "/proc/version"))
		return FS_SCOPE_PLAIN;
	if (fs_under(kpath, "/lib/modules"))
		return FS_SCOPE_EXIST;
	return FS_SCOPE_NONE;
}

/*
 * Whether @kpath still needs capturing as @kind, and remember it: each path
 * is copied once, except that an empty file (the path was only tested) gets
 * its contents when it is read later.
 */
static bool fs_cap_claim(const char *kpath, char kind)
{
	size_t lo = 0, hi = fs_cap.count;
	struct fs_cap_entry *grown;
	char *copy;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(fs_cap.done[mid].path, kpath);

		if (!cmp) {
			if (fs_cap.done[mid].kind == 'e' && kind == 'f') {
				fs_cap.done[mid].kind = 'f';
				return true;
			}
			return false;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (fs_cap.count == fs_cap.cap) {
		size_t cap = fs_cap.cap ? fs_cap.cap * 2 : 256;

		grown = realloc(fs_cap.done, cap * sizeof(*grown));
		if (!grown)
			goto err_nomem;
		fs_cap.done = grown;
		fs_cap.cap = cap;
	}
	copy = strdup(kpath);
	if (!copy)
		goto err_nomem;
	memmove(fs_cap.done + lo + 1, fs_cap.done + lo, (fs_cap.count - lo) * sizeof(*fs_cap.done));
	fs_cap.done[lo].path = copy;
	fs_cap.done[lo].kind = kind;
	fs_cap.count++;
	return true;

err_nomem:
	fs_cap_fail(ENOMEM, kpath);
	return false;
}

/*
 * Open the directory that holds @kpath in the capture, making the missing
 * ones and never going through a link (a hostile root cannot make capture
 * write outside its directory); the last component is left in @name.
 * Returns a directory fd or -errno.
 */
static int fs_cap_parent(const char *kpath, char name[NAME_MAX + 1])
{
	const char *p = kpath;
	int cur, fd;

	cur = fcntl(fs_cap.dirfd, F_DUPFD_CLOEXEC, 0);
	if (cur < 0)
		return -errno;
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			close(cur);
			return -ENAMETOOLONG;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		if (!*p)
			return cur;
		if (mkdirat(cur, name, 0755) < 0 && errno != EEXIST)
			goto err;
		fd = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			goto err;
		close(cur);
		cur = fd;
	}

err:
	fd = -errno;
	close(cur);
	return fd;
}

static void fs_cap_dir(const char *kpath)
{
	char name[NAME_MAX + 1];
	int dir;

	if (!fs_cap_claim(kpath, 'd'))
		return;
	dir = fs_cap_parent(kpath, name);
	if (dir < 0) {
		fs_cap_fail(dir, kpath);
		return;
	}
	if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
		fs_cap_fail(errno, kpath);
	close(dir);
}

/* The bytes read, or with @data NULL an empty file (its existence). */
static void fs_cap_file(const char *kpath, const char *data, size_t len)
{
	char name[NAME_MAX + 1];
	size_t done = 0;
	int dir, fd;

	if (!fs_cap_claim(kpath, data ? 'f' : 'e'))
		return;
	dir = fs_cap_parent(kpath, name);
	if (dir < 0) {
		fs_cap_fail(dir, kpath);
		return;
	}
	fd = openat(dir, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (data ? O_TRUNC : 0),
		    0644);
	close(dir);
	if (fd < 0) {
		fs_cap_fail(errno, kpath);
		return;
	}
	while (data && done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fs_cap_fail(n < 0 ? errno : EIO, kpath);
			break;
		}
		done += (size_t)n;
	}
	close(fd);
}

static void fs_cap_link(const char *kpath, const char *target)
{
	char name[NAME_MAX + 1];
	int dir;

	if (!fs_cap_claim(kpath, 'l'))
		return;
	dir = fs_cap_parent(kpath, name);
	if (dir < 0) {
		fs_cap_fail(dir, kpath);
		return;
	}
	if (symlinkat(target, dir, name) < 0 && errno != EEXIST)
		fs_cap_fail(errno, kpath);
	close(dir);
}

/* A path that was found (tested or resolved, not read): a directory or an empty file. */
static void fs_cap_found(const char *kpath, mode_t mode)
{
	if (S_ISDIR(mode))
		fs_cap_dir(kpath);
	else if (S_ISREG(mode))
		fs_cap_file(kpath, NULL, 0);
}

int rdc_fs_capture_start(const char *dir, struct rdc_err *err)
{
	int fd;

	if (!dir || !*dir)
		return rdc_err_set(err, EINVAL, "no capture directory");
	if (fs_cap.on)
		return rdc_err_set(err, EBUSY, "cannot capture into '%s': a capture is running",
				   dir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return rdc_err_set(err, errno, "cannot capture into '%s'", dir);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot capture into '%s'", dir);
	fs_cap.dirfd = fd;
	fs_cap.error[0] = '\0';
	fs_cap.on = true;
	return 0;
}

int rdc_fs_capture_into(const char *dir, struct rdc_err *err)
{
	char error[sizeof(fs_cap.error)];
	int rc;

	snprintf(error, sizeof(error), "%s", fs_cap.error);
	rdc_fs_capture_stop();
	rc = rdc_fs_capture_start(dir, err);
	if (!rc && error[0])
		snprintf(fs_cap.error, sizeof(fs_cap.error), "%s", error);
	return rc;
}

void rdc_fs_capture_stop(void)
{
	for (size_t i = 0; i < fs_cap.count; i++)
		free(fs_cap.done[i].path);
	free(fs_cap.done);
	fs_cap.done = NULL;
	fs_cap.count = fs_cap.cap = 0;
	if (fs_cap.dirfd >= 0)
		close(fs_cap.dirfd);
	fs_cap.dirfd = -1;
	if (fs_slash_fd >= 0)
		close(fs_slash_fd);
	fs_slash_fd = -1;
	fs_cap.on = false;
}

const char *rdc_fs_capture_error(void)
{
	return fs_cap.error[0] ? fs_cap.error : NULL;
}

/* How to open a path (fs_open). */
struct fs_how {
	int flags;    /* O_PATH, or O_RDONLY (| O_DIRECTORY); | O_NOFOLLOW: the link itself */
	mode_t want;  /* what a read or listing needs: S_IFREG, S_IFDIR, or 0 for anything */
	bool walk;    /* resolve with fs_walk(), which fills canon */
	bool capture; /* and re-create the links it meets in the capture */
	char *canon;  /* PATH_MAX bytes: the resolved kernel path, with walk */
	mode_t got;   /* out: the type found when it is not the one wanted */
	off_t size;   /* out: a regular file's size where its fd was fstat()ed, else -1 */
};

/*
 * 0 when @mode is what @h wants, else -errno (and h->got): EISDIR, ENOTDIR, or
 * ENXIO for a FIFO, socket or device (what open() itself says of a socket).
 * Never EINVAL: sysfs answers EINVAL for an unused entry (a GID slot, an
 * ndev of an InfiniBand GID), and a FIFO in a bundle must not pass for one.
 */
static int fs_check_type(struct fs_how *h, mode_t mode)
{
	mode_t type = mode & S_IFMT;

	if (!h->want || type == h->want)
		return 0;
	h->got = type;
	if (h->want == S_IFREG && type == S_IFDIR)
		return -EISDIR;
	if (h->want == S_IFDIR && type == S_IFREG)
		return -ENOTDIR;
	return -ENXIO; /* a FIFO, socket or device */
}

/*
 * The final step of both resolvers: @pfd is an O_PATH fd of what was found;
 * check its type before anything opens it for real (opening a device can do
 * things), then open it through @reopen and make sure that is the same file.
 * Returns the fd for @h->flags (@pfd itself for O_PATH) or -errno; closes @pfd.
 */
static int fs_finish(int pfd, struct fs_how *h, int (*reopen)(const void *ctx, int flags),
		     const void *ctx)
{
	struct stat st, st2;
	int fd, rc;

	if (h->flags & O_PATH)
		return pfd;
	if (fstat(pfd, &st) < 0) {
		rc = -errno;
		goto err;
	}
	rc = fs_check_type(h, st.st_mode);
	if (rc < 0)
		goto err;
	fd = reopen(ctx, h->flags | FS_OPEN_FLAGS);
	if (fd < 0) {
		rc = fd;
		goto err;
	}
	if (fstat(fd, &st2) < 0 || st.st_dev != st2.st_dev || st.st_ino != st2.st_ino) {
		/* Replaced while we looked: say so rather than read something else. */
		rc = -EAGAIN;
		close(fd);
		goto err;
	}
	if (S_ISREG(st2.st_mode))
		h->size = st2.st_size;
	close(pfd);
	return fd;

err:
	close(pfd);
	return rc;
}

/*
 * Where fs_walk() ended: the directory holding the last component, and its
 * name ("." when the path ended on a directory reached by "..", "/" or a link).
 */
struct fs_walk_end {
	int dir;
	const char *name;
};

static int fs_walk_reopen(const void *ctx, int flags)
{
	const struct fs_walk_end *end = ctx;
	int fd = openat(end->dir, end->name, flags | O_NOFOLLOW);

	return fd < 0 ? -errno : fd;
}

/* Append "/@name" to the kernel path @canon of length *@len. */
static int fs_canon_push(char *canon, size_t *len, const char *name)
{
	int n = snprintf(canon + *len, PATH_MAX - *len, "/%s", name);

	if (n < 0 || (size_t)n >= PATH_MAX - *len)
		return -ENAMETOOLONG;
	*len += (size_t)n;
	return 0;
}

/*
 * Resolve @kpath below @rootfd one component at a time, the way openat2()'s
 * RESOLVE_IN_ROOT does: ".." at the root stays there, an absolute link target
 * starts again at the root, and every component is opened with O_NOFOLLOW, so
 * only this walk follows links, inside the root.  It serves kernels without
 * openat2() (before 5.6), the resolved path (@h->canon, "/" for the root) and
 * capture (the links it meets).  Unlike openat2() it is not proof against a
 * directory moved out of the root while it walks.  Returns as fs_finish().
 */
static int fs_walk(int rootfd, const char *kpath, struct fs_how *h)
{
	char rest[PATH_MAX], target[PATH_MAX], next[PATH_MAX], name[NAME_MAX + 1];
	bool nofollow = h->flags & O_NOFOLLOW;
	struct fs_walk_end end;
	int links = 0, cur, fd = -1, rc;
	size_t clen = 0;
	const char *p;
	struct stat st;

	if (!*kpath)
		return -ENOENT;
	if (snprintf(rest, sizeof(rest), "%s", kpath) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (cur < 0)
		return -errno;
	h->canon[0] = '\0';
	p = rest;
	for (;;) {
		size_t n;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto err;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		while (*p == '/')
			p++;
		last = !*p;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			if (!clen)
				continue; /* the root is its own parent */
			fd = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				rc = -errno;
				goto err;
			}
			close(cur);
			cur = fd;
			fd = -1;
			while (clen && h->canon[clen - 1] != '/')
				clen--;
			h->canon[--clen] = '\0';
			continue;
		}
		fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			rc = -errno;
			goto err;
		}
		if (S_ISLNK(st.st_mode) && !(last && nofollow)) {
			ssize_t tn;

			if (++links > FS_MAX_LINKS) {
				rc = -ELOOP;
				goto err;
			}
			tn = readlinkat(fd, "", target, sizeof(target) - 1);
			if (tn <= 0) {
				rc = tn < 0 ? -errno : -ENOENT;
				goto err;
			}
			target[tn] = '\0';
			close(fd);
			fd = -1;
			if (h->capture) {
				size_t at = clen;

				if (!fs_canon_push(h->canon, &at, name) &&
				    fs_under(h->canon, "/sys"))
					fs_cap_link(h->canon, target);
				h->canon[clen] = '\0';
			}
			/* Go on with the target, then with what was left after the link. */
			if (snprintf(next, sizeof(next), "%s/%s", target, p) >= (int)sizeof(next)) {
				rc = -ENAMETOOLONG;
				goto err;
			}
			memcpy(rest, next, sizeof(rest));
			p = rest;
			if (target[0] == '/') {
				fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
				if (fd < 0) {
					rc = -errno;
					goto err;
				}
				close(cur);
				cur = fd;
				fd = -1;
				clen = 0;
				h->canon[0] = '\0';
			}
			continue;
		}
		rc = fs_canon_push(h->canon, &clen, name);
		if (rc < 0)
			goto err;
		if (last)
			break;
		if (!S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			goto err;
		}
		close(cur);
		cur = fd;
		fd = -1;
	}
	if (!clen)
		snprintf(h->canon, PATH_MAX, "/");
	if (fd < 0) {
		/* Ended on a directory that is @cur itself. */
		fd = fcntl(cur, F_DUPFD_CLOEXEC, 0);
		if (fd < 0) {
			rc = -errno;
			goto err;
		}
		snprintf(name, sizeof(name), ".");
	}
	end.dir = cur;
	end.name = name;
	rc = fs_finish(fd, h, fs_walk_reopen, &end);
	close(cur);
	return rc;

err:
	if (fd >= 0)
		close(fd);
	close(cur);
	return rc;
}

/*
 * openat2() from @dirfd as @resolve says, retried when a rename elsewhere made
 * the kernel unsure (EAGAIN).
 */
static int fs_openat2_res(int dirfd, const char *kpath, int flags, uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = resolve,
	};

	for (int i = 0; i < 8; i++) {
		long fd = syscall(SYS_openat2, dirfd, kpath, &how, sizeof(how));

		if (fd >= 0)
			return (int)fd;
		if (errno != EAGAIN)
			return -errno;
	}
	return -EAGAIN;
}

/* openat2() in the root. */
static int fs_openat2(int rootfd, const char *kpath, int flags)
{
	return fs_openat2_res(rootfd, kpath, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

/* The entry of directory @dir (@len bytes of it) resolved from @base, or NULL. */
static struct fs_dir *fs_dir_find(int base, const char *dir, size_t len)
{
	for (size_t i = 0; i < FS_DIRS; i++) {
		struct fs_dir *d = &fs_dirs[i];

		if (d->base == base && d->len == len && !memcmp(d->path, dir, len)) {
			d->used = ++fs_dirs_tick;
			return d;
		}
	}
	return NULL;
}

/* A new entry: a free one, else the least recently used one's. */
static struct fs_dir *fs_dir_add(int base, const char *dir, size_t len, int fd)
{
	struct fs_dir *d = &fs_dirs[0];

	for (size_t i = 0; i < FS_DIRS; i++) {
		if (fs_dirs[i].base < 0) {
			d = &fs_dirs[i];
			break;
		}
		if (fs_dirs[i].used < d->used)
			d = &fs_dirs[i];
	}
	if (d->base >= 0)
		fs_dir_drop(d);
	d->base = base;
	d->fd = fd;
	d->up = false;
	d->len = len;
	memcpy(d->path, dir, len);
	d->path[len] = '\0';
	d->used = ++fs_dirs_tick;
	d->opened_ms = fs_now_ms();
	return d;
}

/*
 * The length of @kpath's directory (up to its last '/'), 0 where none is kept
 * (no '/', a name in "/" itself, a trailing '/', a directory too long).
 */
static size_t fs_dir_len(const char *kpath)
{
	const char *slash = strrchr(kpath, '/');
	size_t len;

	if (!slash || slash == kpath || !slash[1])
		return 0;
	len = (size_t)(slash - kpath);
	return len < sizeof(fs_dirs[0].path) ? len : 0;
}

/*
 * A name missing from @d: whether that decides (an overlay's; the fresh
 * directory's, above), or the whole path must say (@d is dropped then).
 */
static bool fs_dir_missing_decides(struct fs_dir *d, int base)
{
	if (base == fs_overlay_fd || fs_now_ms() - d->opened_ms <= RDC_FS_DIR_FRESH_MS)
		return true;
	fs_dir_drop(d);
	return false;
}

/*
 * The directory kept open nearest above the first @len bytes of @kpath (a
 * strict prefix ending at a '/', with a name after it: "/sys/a/" is not
 * below "/sys/a"), for the rest to be opened from it: the longest, among
 * those resolved from @base whose names have not led up.  NULL where there
 * is none.
 */
static struct fs_dir *fs_dir_above(int base, const char *kpath, size_t len)
{
	struct fs_dir *best = NULL;

	for (size_t i = 0; i < FS_DIRS; i++) {
		struct fs_dir *d = &fs_dirs[i];

		if (d->base == base && d->fd >= 0 && !d->up && d->len + 1 < len &&
		    kpath[d->len] == '/' && !memcmp(d->path, kpath, d->len) &&
		    (!best || d->len > best->len))
			best = d;
	}
	if (best)
		best->used = ++fs_dirs_tick;
	return best;
}

/*
 * openat2() of the rest of @kpath below the directory @d keeps
 * (RESOLVE_BENEATH), with @flags.  True with *@fd an fd, or -ENOENT where
 * that decides (fs_dir_missing_decides()); false where the whole path must be
 * opened: a link that is absolute or leads up out of @d (EXDEV), any other
 * error, a directory no longer fresh.
 */
static bool fs_dir_openat(struct fs_dir *d, int base, const char *kpath, int flags, int *fd)
{
	*fd = fs_openat2_res(d->fd, kpath + d->len + 1, flags,
			     RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
	if (*fd >= 0)
		return true;
	return *fd == -ENOENT && fs_dir_missing_decides(d, base);
}

/*
 * openat2() of @kpath in the root @base: the rest of it from the directory
 * kept nearest above it where there is one, else the whole path from @base.
 * Returns an fd or -errno.
 */
static int fs_openat2_near(int base, const char *kpath, int flags)
{
	struct fs_dir *above = fs_dir_above(base, kpath, strlen(kpath));
	int fd;

	if (above && fs_dir_openat(above, base, kpath, flags, &fd))
		return fd;
	return fs_openat2(base, kpath, flags);
}

/*
 * The entry of @kpath's directory in the root @base with its fd resolved, or
 * NULL where there is none to use: no directory kept for it (fs_dir_len()),
 * one seen for the first time (unless @now: then it is opened at once, and
 * kept only where it opens, so that a missing one evicts nothing), or one
 * that did not resolve (dropped; in an overlay kept as FS_DIR_ABSENT).
 */
static struct fs_dir *fs_dir_get(int base, const char *kpath, bool now)
{
	size_t len = fs_dir_len(kpath);
	struct fs_dir *d;

	if (!len)
		return NULL;
	d = fs_dir_find(base, kpath, len);
	if (!d && now) {
		char dir[sizeof(fs_dirs[0].path)];
		int dfd;

		memcpy(dir, kpath, len);
		dir[len] = '\0';
		dfd = fs_openat2_near(base, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		return dfd < 0 ? NULL : fs_dir_add(base, kpath, len, dfd);
	}
	if (!d) {
		fs_dir_add(base, kpath, len, FS_DIR_SEEN);
		return NULL;
	}
	if (d->fd == FS_DIR_SEEN) {
		int dfd = fs_openat2_near(base, d->path, O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0 && (dfd != -ENOENT || base != fs_overlay_fd)) {
			fs_dir_drop(d);
			return NULL;
		}
		d->fd = dfd < 0 ? FS_DIR_ABSENT : dfd;
		d->opened_ms = fs_now_ms();
	}
	return d;
}

/*
 * Open @kpath in the root @base through the directory kept for it (above),
 * or where that is not open (yet), the one kept nearest above it ("ports/1/
 * link_layer" from the device's directory, "net/eth0/dev_port" from the
 * listing of "net"), with the flags the whole path would have.  True with
 * *@fd an fd or -ENOENT where that decides; false where the whole path must
 * be opened.
 */
static bool fs_dir_open(int base, const char *kpath, int flags, int *fd)
{
	struct fs_dir *d = fs_dir_get(base, kpath, false);
	const char *slash;

	if (d && d->fd == FS_DIR_ABSENT) {
		*fd = -ENOENT;
		return true;
	}
	if (d && d->up)
		return false; /* its names lead up: so would the path through them */
	if (d) {
		/*
		 * A name of its own that is refused (EXDEV) marks it: a class
		 * directory is links up into /sys/devices, each opened whole from
		 * then on.  Through an ancestor, or where a directory is opened on
		 * the way (fs_openat2_near()), EXDEV says nothing of the
		 * directory's own names (a device's "device" link leads up, its
		 * "ports" does not).
		 */
		if (fs_dir_openat(d, base, kpath, flags, fd))
			return true;
		if (*fd == -EXDEV)
			d->up = true;
		return false;
	}
	slash = strrchr(kpath, '/');
	d = slash ? fs_dir_above(base, kpath, (size_t)(slash - kpath)) : NULL;
	return d && fs_dir_openat(d, base, kpath, flags, fd);
}

/*
 * Read the link @kpath names by its name from its directory's fd, opened
 * now if it is not kept yet (a PCI function's "driver" comes before the
 * files read next to it): readlinkat() of one name resolves nothing, so
 * the jail holds without an O_PATH fd of the link.  Returns its length, or
 * -errno where that decides; 0 where the whole path must say (no directory,
 * an error other than a missing name, a directory no longer fresh).
 */
static ssize_t fs_dir_readlink(int base, const char *kpath, char *target, size_t size)
{
	struct fs_dir *d = fs_dir_get(base, kpath, true);
	ssize_t n;

	if (!d || d->fd < 0)
		return 0;
	n = readlinkat(d->fd, kpath + d->len + 1, target, size);
	if (n > 0)
		return n;
	if (n == 0 || errno != ENOENT)
		return 0;
	return fs_dir_missing_decides(d, base) ? -ENOENT : 0;
}

/* Keep a listing's fd (of @kpath, resolved from @base) as its directory's; closes it otherwise. */
static void fs_dir_keep(int base, const char *kpath, int fd)
{
	size_t len = strlen(kpath);
	struct fs_dir *d;

	if (!len || len >= sizeof(fs_dirs[0].path)) {
		close(fd);
		return;
	}
	d = fs_dir_find(base, kpath, len);
	if (!d) {
		fs_dir_add(base, kpath, len, fd);
	} else if (d->fd >= 0) {
		close(fd);
	} else {
		d->fd = fd;
		d->opened_ms = fs_now_ms();
	}
}

/*
 * A live kernel path on a filesystem of nothing but directories, regular
 * files and links (sysfs; the procfs files rdmactl reads, not /proc/PID/,
 * whose fd/ links lead anywhere): a read there needs no fstat() to refuse a
 * FIFO or a device, there is none to meet.
 */
static bool fs_live_plain(const char *kpath)
{
	return fs_clean(kpath) && (fs_under(kpath, "/sys") || fs_under(kpath, "/proc/net") ||
				   fs_under(kpath, "/proc/sys") || fs_under(kpath, "/proc/irq") ||
				   !strcmp(kpath, "/proc/stat") || !strcmp(kpath, "/proc/version"));
}

/*
 * A live sysfs attribute, which kernfs hands over whole in one read of up to
 * a page: a shorter read is its end.  Not debugfs or tracefs below /sys,
 * whose files are the drivers' own.
 */
#define FS_PAGE 4096
static bool fs_live_whole(const char *kpath)
{
	return fs_clean(kpath) && fs_under(kpath, "/sys") &&
	       !fs_under(kpath, "/sys/kernel/debug") && !fs_under(kpath, "/sys/kernel/tracing");
}

/*
 * After an open refused for what the path is (ENXIO: a socket; ENOTDIR: a
 * listing of a file or a FIFO), look at it without opening it, for the
 * error's detail and the same -errno as the type check after an open.
 */
static int fs_open_refused(const char *kpath, int rootfd, struct fs_how *h, int rc)
{
	struct stat st;
	int fd, type_rc;

	if (rc != -ENXIO && rc != -ENOTDIR)
		return rc;
	if (rootfd < 0) {
		if (stat(kpath, &st) < 0)
			return rc;
	} else {
		fd = fs_openat2(rootfd, kpath, O_PATH | O_CLOEXEC);
		if (fd < 0)
			return rc;
		if (fstat(fd, &st) < 0) {
			close(fd);
			return rc;
		}
		close(fd);
	}
	type_rc = fs_check_type(h, st.st_mode);
	return type_rc < 0 ? type_rc : rc;
}

/*
 * @fd, just opened for @h: refuse what is not the type wanted, by fstat()
 * on @fd (a FIFO opened non-blocking, never read), and note a regular file's
 * size.  A listing's O_DIRECTORY already made sure.  Returns @fd or -errno
 * (and closes @fd).
 */
static int fs_opened(int fd, struct fs_how *h)
{
	struct stat st;
	int rc;

	if (h->want != S_IFREG)
		return fd;
	rc = fstat(fd, &st) < 0 ? -errno : fs_check_type(h, st.st_mode);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	h->size = st.st_size;
	return fd;
}

/*
 * Open @kpath as @h says: under a root (or to capture) inside the jail, else
 * as the live path itself.  Returns an fd or -errno.
 *
 * One open for a file or a listing: live open(), or under a root openat2()
 * with the jail's resolve flags; then fstat() on that fd where a FIFO or a
 * device could be met (a bundle; a live path outside sysfs and the procfs
 * files above).  A FIFO is opened non-blocking and never read; a device
 * node is opened (non-blocking, never our terminal) and closed unread:
 * `diag collect` bundles never hold one, and the bundle unpacker refuses
 * archives that do (host/bundle.c).  The walk (capture, or no openat2())
 * still checks each component before it opens it.
 */
static int fs_open(const char *kpath, struct fs_how *h)
{
	int rootfd = fs_root_fd, fd, flags;

	h->size = -1;
	if (!fs_root[0] && !h->walk) {
		if (h->flags & O_PATH)
			fd = open(kpath, h->flags | O_CLOEXEC);
		else
			fd = open(kpath, h->flags | FS_OPEN_FLAGS);
		if (fd < 0)
			return fs_open_refused(kpath, -1, h, -errno);
		if ((h->flags & O_PATH) || fs_live_plain(kpath))
			return fd;
		return fs_opened(fd, h);
	}
	if (!fs_root[0]) {
		if (fs_slash_fd < 0)
			fs_slash_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fs_slash_fd < 0)
			return -errno;
		rootfd = fs_slash_fd;
	}
	if (h->walk || fs_walk_only)
		return fs_walk(rootfd, kpath, h);
	flags = (h->flags & O_PATH) ? h->flags | O_CLOEXEC : h->flags | FS_OPEN_FLAGS;
	if (!fs_root[0] || !fs_dir_open(rootfd, kpath, flags, &fd))
		fd = fs_openat2(rootfd, kpath, flags);
	if (fd == -ENOSYS || fd == -EPERM) {
		/* No openat2() (ENOSYS), or a seccomp filter that does not know it (EPERM). */
		if (fd == -ENOSYS)
			fs_walk_only = true;
		return fs_walk(rootfd, kpath, h);
	}
	if (fd < 0)
		return fs_open_refused(kpath, rootfd, h, fd);
	if (h->flags & O_PATH)
		return fd;
	return fs_opened(fd, h);
}

static const char *fs_type_name(mode_t type)
{
	switch (type) {
	case S_IFDIR:
		return "a directory";
	case S_IFREG:
		return "a regular file";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "of an unknown type";
	}
}

/* Fill @err for a failed open: "cannot read '/sys/...'" (and what it is, when not a file). */
static int fs_open_error(struct rdc_err *err, int rc, const char *verb, const char *kpath,
			 const struct fs_how *h)
{
	rc = rdc_err_set(err, -rc, "cannot %s '%s'", verb, kpath);
	if (h->got)
		rdc_err_detail(err, "%s, not %s", fs_type_name(h->got), fs_type_name(h->want));
	return rc;
}

static int fs_read_path(const char *kpath, char *buf, size_t size, bool head, struct rdc_err *err)
{
	enum fs_scope scope = fs_cap_scope(kpath);
	char canon[PATH_MAX];
	struct fs_how how = {
		.flags = O_RDONLY,
		.want = S_IFREG,
		.walk = scope == FS_SCOPE_SYS,
		.capture = scope == FS_SCOPE_SYS,
		.canon = canon,
	};
	size_t len = 0;
	bool whole;
	ssize_t n;
	int fd, saved;

	canon[0] = '\0';
	if (size == 0)
		return rdc_err_set(err, EINVAL, "cannot read '%s'", kpath);
	if (size > RDC_FS_READ_MAX + 1)
		size = RDC_FS_READ_MAX + 1;
	fd = -ENOENT;
	if (fs_overlay_fd >= 0) {
		/* A later sample's copy of the file, where the bundle has one. */
		int root = fs_root_fd;

		fs_root_fd = fs_overlay_fd;
		fd = fs_open(kpath, &how);
		fs_root_fd = root;
		if (fd == -ENOENT) {
			canon[0] = '\0';
			how.got = 0;
		}
	}
	if (fd == -ENOENT)
		fd = fs_open(kpath, &how);
	if (fd < 0)
		return fs_open_error(err, fd, "read", kpath, &how);
	/*
	 * sysfs attributes fit in a page; loop anyway, procfs files may be split.
	 * No read only to meet the end where it is known: a file of the size
	 * fstat() gave (a bundle's), or a live sysfs attribute that came shorter
	 * than asked and than a page (kernfs hands it over whole in one read).
	 */
	whole = !fs_root[0] && fs_live_whole(kpath);
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
		if ((how.size >= 0 && len == (size_t)how.size) ||
		    (whole && len < size - 1 && n < FS_PAGE))
			break;
	}
	/*
	 * A file longer than @buf would be cut where it happens to end: "000...09000"
	 * would read as 0, a name would lose its tail.  Whoever asked sized @buf for
	 * the attribute; more than that is not the attribute.
	 */
	if (len == size - 1 && !head && !(how.size >= 0 && len == (size_t)how.size)) {
		char more[2];

		/* Only its newline left over is still the whole attribute. */
		do
			n = read(fd, more, sizeof(more));
		while (n < 0 && errno == EINTR);
		if (n > 0 && !(n == 1 && more[0] == '\n')) {
			close(fd);
			rdc_err_set(err, EFBIG, "cannot read '%s'", kpath);
			rdc_err_detail(err, "longer than the %zu bytes such a file has", size - 1);
			return -EFBIG;
		}
	}
	close(fd);
	if (scope == FS_SCOPE_SYS && fs_under(canon, "/sys"))
		fs_cap_file(canon, buf, len);
	else if (scope == FS_SCOPE_PLAIN)
		fs_cap_file(kpath, buf, len);
	else if (scope == FS_SCOPE_EXIST)
		fs_cap_file(kpath, NULL, 0);
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (int)len;
}

int rdc_fs_read(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_path(kpath, buf, size, false, err);
}

int rdc_fs_read_head(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_path(kpath, buf, size, true, err);
}

int rdc_fs_open_read(struct rdc_err *err, const char *fmt, ...)
{
	struct fs_how how = {.flags = O_RDONLY, .want = S_IFREG};
	int fd;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	fd = fs_open(kpath, &how);
	if (fd < 0)
		return fs_open_error(err, fd, "open", kpath, &how);
	return fd;
}

/*
 * Read a small file and parse it as a number: signed decimal, unsigned
 * decimal or unsigned "0x"-prefixed hex (@kind).  -ERANGE when
 * it does not fit 64 bits, -EINVAL when it is not such a number.
 */
enum fs_num { FS_NUM_DEC, FS_NUM_HEX, FS_NUM_SIGNED };

static int fs_read_number(const char *kpath, enum fs_num kind, uint64_t *u, int64_t *i,
			  struct rdc_err *err)
{
	char buf[64];
	int rc = fs_read_path(kpath, buf, sizeof(buf), false, err);

	if (rc < 0)
		return rc;
	if (kind == FS_NUM_SIGNED)
		rc = rdc_parse_i64(buf, i);
	else if (kind == FS_NUM_HEX)
		/* The kernel prints these "%#x"; demand the prefix so a decimal file is not taken as hex. */
		rc = (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) ? rdc_parse_u64(buf, 16, u)
									 : -EINVAL;
	else
		rc = rdc_parse_u64(buf, 10, u);
	if (rc == -ERANGE)
		return rdc_err_set(err, ERANGE, "'%s' holds '%s', beyond 64 bits", kpath, buf);
	if (rc < 0)
		return rdc_err_set(err, EINVAL, "'%s' holds '%s', not a %s number", kpath, buf,
				   kind == FS_NUM_HEX ? "0x-prefixed hex" : "decimal");
	return 0;
}

int rdc_fs_read_u64(uint64_t *val, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_number(kpath, FS_NUM_DEC, val, NULL, err);
}

int rdc_fs_read_x64(uint64_t *val, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_number(kpath, FS_NUM_HEX, val, NULL, err);
}

int rdc_fs_read_i64(int64_t *val, struct rdc_err *err, const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	return fs_read_number(kpath, FS_NUM_SIGNED, NULL, val, err);
}

int rdc_fs_link_name(char *buf, size_t size, const char *fmt, ...)
{
	char target[PATH_MAX], canon[PATH_MAX];
	const char *base;
	enum fs_scope scope;
	ssize_t n;
	int fd;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return path_rc;
	scope = fs_cap_scope(kpath);
	canon[0] = '\0';
	if (!fs_root[0] && scope != FS_SCOPE_SYS) {
		n = readlink(kpath, target, sizeof(target) - 1);
	} else if (scope == FS_SCOPE_NONE && !fs_walk_only &&
		   (n = fs_dir_readlink(fs_root_fd, kpath, target, sizeof(target) - 1)) != 0) {
		if (n < 0)
			return (int)n;
	} else {
		struct fs_how how = {
			.flags = O_PATH | O_NOFOLLOW,
			.walk = scope == FS_SCOPE_SYS,
			.capture = scope == FS_SCOPE_SYS,
			.canon = canon,
		};

		fd = fs_open(kpath, &how);
		if (fd < 0)
			return fd;
		/*
		 * An empty path names the link an O_PATH | O_NOFOLLOW fd holds; of
		 * anything else readlinkat() says ENOENT, where readlink() says EINVAL.
		 */
		n = readlinkat(fd, "", target, sizeof(target) - 1);
		if (n == -1)
			n = errno == ENOENT ? -EINVAL : -errno;
		close(fd);
		if (n < 0)
			return (int)n;
		if (scope == FS_SCOPE_SYS && fs_under(canon, "/sys")) {
			target[n] = '\0';
			fs_cap_link(canon, target);
		}
	}
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (snprintf(buf, size, "%s", base) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Resolve @kpath under the root with one openat2() (the jail's resolution),
 * and take the path the kernel gives that fd in /proc/self/fd, the root's
 * prefix removed, into @real (PATH_MAX bytes).  -errno where openat2() or
 * /proc cannot say, or the name is not below the root (a bind mount, a
 * deleted directory): the walk then resolves it.
 */
static int fs_resolve_fast(const char *kpath, char *real)
{
	char link[32], name[PATH_MAX];
	size_t rlen = strlen(fs_root);
	ssize_t n;
	int fd;

	if (!fs_root[0] || fs_walk_only)
		return -ENOSYS;
	fd = fs_openat2(fs_root_fd, kpath, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return fd;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, sizeof(name) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	name[n] = '\0';
	if ((size_t)n < rlen || memcmp(name, fs_root, rlen) || (name[rlen] && name[rlen] != '/') ||
	    strstr(name, " (deleted)"))
		return -EXDEV;
	snprintf(real, PATH_MAX, "%s", name[rlen] ? name + rlen : "/");
	return 0;
}

int rdc_fs_resolve(char *buf, size_t size, const char *fmt, ...)
{
	char real[PATH_MAX];
	enum fs_scope scope;
	struct stat st;
	int fd;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return path_rc;
	scope = fs_cap_scope(kpath);
	if (!fs_root[0] && scope != FS_SCOPE_SYS) {
		if (!realpath(kpath, real))
			return -errno;
		if (scope != FS_SCOPE_NONE && stat(kpath, &st) == 0)
			fs_cap_found(kpath, st.st_mode);
	} else if (scope == FS_SCOPE_NONE && fs_resolve_fast(kpath, real) == 0) {
		/* Resolved inside the jail by openat2(), named by the kernel. */
	} else {
		/* The walk, not openat2(): it knows the path it resolved. */
		struct fs_how how = {
			.flags = O_PATH,
			.walk = true,
			.capture = scope == FS_SCOPE_SYS,
			.canon = real,
		};

		fd = fs_open(kpath, &how);
		if (fd < 0)
			return fd;
		if (scope != FS_SCOPE_NONE && fstat(fd, &st) == 0) {
			if (scope != FS_SCOPE_SYS)
				fs_cap_found(kpath, st.st_mode);
			else if (fs_under(real, "/sys"))
				fs_cap_found(real, st.st_mode);
		}
		close(fd);
	}
	if (snprintf(buf, size, "%s", real) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Look @kpath up without opening it to read (O_PATH, through the jail, or the
 * walk when capturing) and, capturing, record what it is.  With @mode its
 * type is asked of the fd too; without, under a root and not capturing, the
 * lookup is all.  0 or -errno.
 */
static int fs_lookup(const char *kpath, enum fs_scope scope, mode_t *mode)
{
	char canon[PATH_MAX] = "";
	struct fs_how how = {
		.flags = O_PATH,
		.walk = scope == FS_SCOPE_SYS,
		.capture = scope == FS_SCOPE_SYS,
		.canon = canon,
	};
	struct stat st;
	int fd, rc = 0;

	fd = fs_open(kpath, &how);
	if (fd < 0)
		return fd;
	if (mode || scope != FS_SCOPE_NONE) {
		if (fstat(fd, &st) == 0) {
			if (scope == FS_SCOPE_SYS && fs_under(canon, "/sys"))
				fs_cap_found(canon, st.st_mode);
			else if (scope != FS_SCOPE_NONE && scope != FS_SCOPE_SYS)
				fs_cap_found(kpath, st.st_mode);
			if (mode)
				*mode = st.st_mode;
		} else if (mode) {
			rc = -errno;
		}
	}
	close(fd);
	return rc;
}

bool rdc_fs_exists(const char *fmt, ...)
{
	enum fs_scope scope;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return false;
	scope = fs_cap_scope(kpath);
	if (!fs_root[0] && scope == FS_SCOPE_NONE)
		return access(kpath, F_OK) == 0;
	return fs_lookup(kpath, scope, NULL) == 0;
}

/*
 * Under a root (not the walk): open the directory @kpath and keep it, where it
 * is not kept yet.  Its whole path from the root: the path is a link
 * ("device") more often than not, and those lead up.  0 or -errno.
 */
static int fs_dir_enter(const char *kpath)
{
	size_t len = strlen(kpath);
	struct fs_dir *d =
		len < sizeof(fs_dirs[0].path) ? fs_dir_find(fs_root_fd, kpath, len) : NULL;
	int fd;

	if (d && d->fd >= 0)
		return 0;
	fd = fs_openat2(fs_root_fd, kpath, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	fs_dir_keep(fs_root_fd, kpath, fd);
	return 0;
}

void rdc_fs_expect_dir(const char *fmt, ...)
{
	FS_PATH(kpath, fmt);
	if (!path_rc && fs_root[0] && !fs_walk_only && fs_cap_scope(kpath) == FS_SCOPE_NONE)
		fs_dir_enter(kpath);
}

int rdc_fs_is_dir(const char *fmt, ...)
{
	enum fs_scope scope;
	struct stat st;
	mode_t mode = 0;
	int rc;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return path_rc;
	scope = fs_cap_scope(kpath);
	if (!fs_root[0] && scope == FS_SCOPE_NONE) {
		if (stat(kpath, &st) < 0)
			return -errno;
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	}
	if (scope == FS_SCOPE_NONE && !fs_walk_only) {
		rc = fs_dir_enter(kpath);
		if (rc != -ENOSYS && rc != -EPERM)
			return rc;
		/* No openat2(): fs_lookup() walks (and remembers that). */
	}
	rc = fs_lookup(kpath, scope, &mode);
	if (rc)
		return rc;
	return S_ISDIR(mode) ? 0 : -ENOTDIR;
}

static int fs_name_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int rdc_fs_list(struct rdc_names *list, struct rdc_err *err, const char *fmt, ...)
{
	char canon[PATH_MAX];
	/* Aligned for the records in it; 32 KiB as readdir()'s own buffer. */
	_Alignas(struct dirent64) char dents[32768];
	struct dirent64 *de = NULL;
	enum fs_scope scope;
	size_t cap = 0;
	char **grown;
	int fd, saved;

	list->names = NULL;
	list->count = 0;
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	scope = fs_cap_scope(kpath);
	canon[0] = '\0';

	struct fs_how how = {
		.flags = O_RDONLY | O_DIRECTORY,
		.want = S_IFDIR,
		.walk = scope == FS_SCOPE_SYS,
		.capture = scope == FS_SCOPE_SYS,
		.canon = canon,
	};

	fd = fs_open(kpath, &how);
	if (fd < 0)
		return fs_open_error(err, fd, "list", kpath, &how);
	/* getdents64() itself: readdir()'s fdopendir() would fstat() and fcntl() the fd again. */
	for (;;) {
		ssize_t got = getdents64(fd, dents, sizeof(dents));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			saved = errno;
			close(fd);
			rdc_names_free(list);
			return rdc_err_set(err, saved, "cannot list '%s'", kpath);
		}
		if (got == 0)
			break;
		for (size_t at = 0; at < (size_t)got; at += de->d_reclen) {
			de = (struct dirent64 *)(void *)(dents + at);
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (list->count == RDC_FS_LIST_MAX) {
				close(fd);
				rdc_names_free(list);
				rdc_err_set(err, EFBIG, "cannot list '%s'", kpath);
				rdc_err_detail(err, "more than %u entries", RDC_FS_LIST_MAX);
				return -EFBIG;
			}
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
	}
	if (fs_root[0] && !how.walk && !fs_walk_only)
		fs_dir_keep(fs_root_fd, kpath, fd); /* its files are likely read next */
	else
		close(fd);
	if (list->count)
		qsort(list->names, list->count, sizeof(*list->names), fs_name_cmp);
	if (scope == FS_SCOPE_SYS && fs_under(canon, "/sys"))
		fs_cap_dir(canon);
	else if (scope == FS_SCOPE_PLAIN || scope == FS_SCOPE_EXIST)
		fs_cap_dir(kpath);
	return 0;

err_nomem:
	saved = ENOMEM;
	close(fd);
	rdc_names_free(list);
	return rdc_err_set(err, saved, "cannot list '%s'", kpath);
}

int rdc_fs_write(const char *val, struct rdc_err *err, const char *fmt, ...)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, saved;

	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	if (fs_root[0])
		return rdc_err_set(err, EROFS, "cannot write '%s': writes are refused under --root",
				   kpath);
	fd = open(kpath, O_WRONLY | O_CLOEXEC);
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
	FS_PATH(kpath, fmt);
	if (path_rc)
		return rdc_err_set(err, -path_rc, "path too long");
	if (fs_root[0])
		return rdc_err_set(err, EROFS,
				   "cannot create '%s': writes are refused under --root", kpath);
	if (mkdir(kpath, 0755) < 0 && errno != EEXIST)
		return rdc_err_set(err, errno, "cannot create '%s'", kpath);
	return 0;
}
