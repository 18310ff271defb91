// SPDX-License-Identifier: GPL-2.0-or-later
/* bundle.c - pack and unpack support bundles with the system's tar (GNU tar, gzip) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/safefile.h"
#include "host/bundle.h"

bool rdc_bundle_is_tarball(const char *path)
{
	unsigned char magic[2];
	bool gz = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return false;
	gz = read(fd, magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	close(fd);
	return gz;
}

/*
 * A scratch directory outlives nothing: a guard process (forked when it is
 * made) waits for rdmactl's end on a pipe and removes it, however rdmactl
 * ends (SIGINT, SIGTERM, SIGHUP, SIGPIPE from `| head -1`, SIGKILL).  The
 * normal end removes it first and closes the pipe.
 */
#define GUARDS_MAX 4

static struct bundle_guard {
	char dir[4096];
	int fd; /* the pipe's write end: its close is the signal */
	pid_t pid;
} guards[GUARDS_MAX];

static void guard_child(const char *dir, int rfd)
{
	char c;
	int nul = open("/dev/null", O_RDWR | O_CLOEXEC);

	/* The terminal's Ctrl-C and a kill of the process group are for rdmactl, not this. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	/* Hold none of rdmactl's files: a reader of its stdout must see EOF when it ends. */
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
	}
	if (dup2(rfd, 3) == 3)
		close_range(4, ~0U, 0);
	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	/* A tar that was writing into it dies with rdmactl, maybe a moment later: try again. */
	for (int i = 0; i < 50; i++) {
		struct stat st;

		rdc_bundle_remove(dir);
		if (lstat(dir, &st))
			break;
		usleep(100000);
	}
	_exit(0);
}

static void guard_start(const char *dir)
{
	struct bundle_guard *g = NULL;
	int p[2];
	pid_t pid;

	for (size_t i = 0; i < GUARDS_MAX && !g; i++)
		if (!guards[i].dir[0])
			g = &guards[i];
	/* Without a guard the directory is still removed on a normal end. */
	if (!g || strlen(dir) >= sizeof(g->dir) || pipe2(p, O_CLOEXEC))
		return;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0)
		guard_child(dir, p[0]);
	close(p[0]);
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	g->fd = p[1];
	g->pid = pid;
}

/*
 * @dir's guard is no longer needed: removed (@removed), or the removal failed
 * and was reported, when retrying for 5 s would only hold rdmactl's end up.
 */
static void guard_end(const char *dir, bool removed)
{
	for (size_t i = 0; i < GUARDS_MAX; i++) {
		struct bundle_guard *g = &guards[i];

		if (!g->dir[0] || strcmp(g->dir, dir))
			continue;
		if (!removed)
			kill(g->pid, SIGKILL);
		close(g->fd);
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
		g->dir[0] = 0;
	}
}

/*
 * A normal end (main returned, exit()) that did not remove a scratch
 * directory (a failure after the unpack: a bad kernel.rec) removes it before
 * the process is gone, not a moment later by its guard.  Only in the process
 * that made it: a forked child that calls exit() leaves it alone.
 */
static pid_t guards_owner;

static void guards_atexit(void)
{
	if (getpid() != guards_owner)
		return;
	for (size_t i = 0; i < GUARDS_MAX; i++)
		if (guards[i].dir[0])
			rdc_bundle_remove(guards[i].dir);
}

int rdc_bundle_tmpdir(char *dir, size_t size, struct rdc_err *err)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(dir, size, "%s/rdmactl-bundle.XXXXXX", tmp) >= size)
		return rdc_err_set(err, ENAMETOOLONG, "TMPDIR is too long");
	if (!mkdtemp(dir)) /* mode 0700 */
		return rdc_err_set(err, errno, "cannot make a scratch directory in %s", tmp);
	if (!guards_owner && !atexit(guards_atexit))
		guards_owner = getpid();
	guard_start(dir);
	return 0;
}

#define TAR_ARGS_MAX 20

/* GNU tar by its path: not whatever "tar" comes first in the caller's PATH. */
static const char *tar_path(void)
{
	static const char *const paths[] = {"/usr/bin/tar", "/bin/tar"};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/*
 * Start tar with @argv (NULL-terminated) in a clean environment: the caller's
 * TAR_OPTIONS (--absolute-names, -v), GZIP and TAPE must not reach it.  Its
 * stdout goes to @out_fd (closed here; -1: /dev/null, never ours: our stdout
 * is the JSON).  Its pid in @pid, for tar_wait().
 */
static int tar_start(const char *const *argv, int out_fd, const char *what, pid_t *pid,
		     struct rdc_err *err)
{
	/* gzip is found on this PATH; LC_ALL=C: messages and the listing's format as parsed. */
	static char env_path[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin", env_lang[] = "LC_ALL=C";
	char *const env[] = {env_path, env_lang, NULL};
	const char *tar = tar_path();
	pid_t parent = getpid();
	char *args[TAR_ARGS_MAX];
	size_t n = 0;

	if (!tar) {
		if (out_fd >= 0)
			close(out_fd);
		return rdc_err_set_plain(
			err, ENOENT, "cannot %s: no tar in /usr/bin or /bin (Debian package tar)",
			what);
	}
	/* execve wants char *const[]: copy the pointers, the strings stay untouched. */
	while (argv[n] && n + 1 < TAR_ARGS_MAX)
		n++;
	memcpy(args, argv, n * sizeof(args[0]));
	args[n] = NULL;
	/*
	 * fork + exec, not posix_spawn: tar must die with rdmactl (PDEATHSIG), or
	 * a killed rdmactl leaves it writing into the scratch directory its guard
	 * is removing.
	 */
	*pid = fork();
	if (*pid < 0) {
		if (out_fd >= 0)
			close(out_fd);
		return rdc_err_set(err, errno, "cannot run tar to %s", what);
	}
	if (*pid == 0) {
		int nul = out_fd >= 0 ? out_fd : open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* A reader that stopped (a listing over a cap) ends tar on EPIPE. */
		signal(SIGPIPE, SIG_DFL);
		if (getppid() != parent || nul < 0 || dup2(nul, 1) < 0)
			_exit(127);
		execve(tar, args, env);
		_exit(127);
	}
	if (out_fd >= 0)
		close(out_fd);
	return 0;
}

/* 0 when tar @pid exits 0. */
static int tar_wait(pid_t pid, const char *what, struct rdc_err *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return rdc_err_set(err, errno, "cannot wait for tar");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return rdc_err_set(err, EIO, "tar could not %s", what);
	return 0;
}

static int run_tar(const char *const *argv, const char *what, struct rdc_err *err)
{
	pid_t pid = -1;
	int rc = tar_start(argv, -1, what, &pid, err);

	return rc ? rc : tar_wait(pid, what, err);
}

int rdc_bundle_listing_check(FILE *listing, struct rdc_err *err)
{
	char line[8192];
	unsigned long long bytes = 0, entries = 0;

	while (fgets(line, sizeof(line), listing)) {
		unsigned long long size;
		char *p = line, *end;
		char type = line[0];

		/* Quoted whole below: the error record holds a PATH_MAX name and tar's words. */
		line[strcspn(line, "\n")] = '\0';

		/*
		 * A device node is never captured, and --root opens what it reads
		 * before it can see what it is (fs.h): opening some devices acts
		 * (a watchdog arms, a tape rewinds).  Refused before tar makes one.
		 */
		if (type == 'c' || type == 'b')
			return rdc_err_set_plain(err, EINVAL,
						 "a device node: not a bundle rdmactl made: '%s'",
						 line);
		/* "-rw-r--r-- 0/0  1234 2026-12-02 23:15 ./name" (--numeric-owner) */
		for (int field = 0; field < 2; field++) {
			p += strcspn(p, " \t\n");
			p += strspn(p, " \t");
		}
		errno = 0;
		size = strtoull(p, &end, 10);
		if (!*line || *line == ' ' || end == p || errno || (*end != ' ' && *end != '\t'))
			return rdc_err_set_plain(err, EPROTO, "cannot read tar's listing: '%s'",
						 line);
		entries++;
		if (type == '-' || type == 'h')
			bytes += size;
		if (entries > RDC_BUNDLE_MAX_ENTRIES)
			return rdc_err_set_plain(
				err, EFBIG,
				"more than %u entries: not a bundle rdmactl made "
				"(the limit keeps a hostile archive from filling the disk)",
				RDC_BUNDLE_MAX_ENTRIES);
		if (bytes > RDC_BUNDLE_MAX_BYTES)
			return rdc_err_set_plain(
				err, EFBIG,
				"more than %u MiB unpacked: not a bundle rdmactl made "
				"(the limit keeps a hostile archive from filling the disk)",
				RDC_BUNDLE_MAX_BYTES >> 20);
	}
	return 0;
}

/* The archive's listing against the caps, before anything is unpacked. */
static int bundle_check(const char *path, struct rdc_err *err)
{
	const char *const argv[] = {
		"tar",		 "--list", "--verbose", "--gzip", "--numeric-owner",
		"--force-local", "--file", path,	NULL};
	struct rdc_err tar_err = {0};
	int p[2], rc;
	pid_t pid = -1;
	FILE *fp;

	if (pipe2(p, O_CLOEXEC))
		return rdc_err_set(err, errno, "cannot list the bundle");
	rc = tar_start(argv, p[1], "list the bundle", &pid, err);
	if (rc) {
		close(p[0]);
		return rc;
	}
	fp = fdopen(p[0], "re");
	if (!fp) {
		rc = rdc_err_set(err, errno, "cannot list the bundle");
		close(p[0]);
		tar_wait(pid, "list the bundle", &tar_err);
		return rc;
	}
	/*
	 * Read while tar writes, then collect its status.  A listing over a cap
	 * stops reading: tar then ends on EPIPE, and the cap is the error reported.
	 */
	rc = rdc_bundle_listing_check(fp, err);
	fclose(fp);
	if (tar_wait(pid, "list the bundle", &tar_err) && !rc)
		rc = rdc_err_set_plain(err, EIO, "tar could not list the bundle (not a .tar.gz?)");
	return rc;
}

int rdc_bundle_unpack(const char *path, char *dir, size_t size, struct rdc_err *err)
{
	int rc = bundle_check(path, err);

	if (!rc)
		rc = rdc_bundle_tmpdir(dir, size, err);
	if (rc) {
		rdc_err_prefix(err, "'%s'", path);
		return rc;
	}
	{
		/*
		 * No owners and no modes from the archive; GNU tar drops absolute
		 * and ".." names; --force-local: a colon in the name
		 * ("gw1:2026-12-02.tar.gz") is a file name, not host:file for rsh.
		 */
		const char *const argv[] = {"tar",
					    "--extract",
					    "--gzip",
					    "--no-same-owner",
					    "--no-same-permissions",
					    "--no-overwrite-dir",
					    "--force-local",
					    "--file",
					    path,
					    "--directory",
					    dir,
					    NULL};

		rc = run_tar(argv, "unpack the bundle", err);
	}
	if (rc) {
		rdc_bundle_remove(dir);
		rdc_err_prefix(err, "'%s'", path);
	}
	return rc;
}

/*
 * tar packs @dir into DIR.tar.gz beside it (the caller's private scratch
 * directory), its name in @tgz, opened for reading: our own writes copy it
 * on, so that a full disk is said as such ("No space left on device", not
 * "tar failed") and nothing reaches standard output from an archive that
 * tar could not finish.
 */
static int pack_scratch(const char *dir, char *tgz, size_t size, int *fd, struct rdc_err *err)
{
	int rc;

	if ((size_t)snprintf(tgz, size, "%s.tar.gz", dir) >= size)
		return rdc_err_set(err, ENAMETOOLONG, "cannot pack '%s'", dir);
	{
		/* Sorted and owner-free: the same host gives the same listing. */
		const char *const argv[] = {
			"tar",	     "--create",  "--gzip",	     "--sort=name",
			"--owner=0", "--group=0", "--numeric-owner", "--force-local",
			"--file",    tgz,	  "--directory",     dir,
			".",	     NULL};

		rc = run_tar(argv, "pack the bundle", err);
	}
	if (!rc) {
		*fd = open(tgz, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (*fd < 0)
			rc = rdc_err_set(err, errno, "cannot read the packed bundle '%s'", tgz);
	}
	if (rc)
		unlink(tgz);
	return rc;
}

/*
 * Every byte of @fd to @sink; 0, -errno of a read (in @err), or the sink's own
 * -errno (*@by_sink set, @err untouched: the sink's owner words it).
 */
static int pack_copy(int fd, rdc_bundle_sink_fn *sink, void *data, const char *tgz, bool *by_sink,
		     struct rdc_err *err)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rdc_err_set(err, errno, "cannot read the packed bundle '%s'", tgz);
		if (!n)
			return 0;
		rc = sink(data, buf, (size_t)n);
		if (rc) {
			*by_sink = true;
			return rc;
		}
	}
}

static int pack_write_cb(void *data, const void *buf, size_t len)
{
	const int *fd = data;
	const char *p = buf;

	while (len) {
		ssize_t n = write(*fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rdc_bundle_pack(const char *dir, const char *out, struct rdc_err *err)
{
	char tgz[4096];
	struct rdc_file f;
	bool by_sink = false;
	int rc, fd = -1;

	/* The bundle describes the host: only its owner reads it (0600). */
	rc = rdc_file_begin(&f, out, 0600, err);
	if (rc)
		return rc;
	rc = pack_scratch(dir, tgz, sizeof(tgz), &fd, err);
	if (!rc) {
		/* Into our temporary file; the old bundle stays until the rename. */
		rc = pack_copy(fd, pack_write_cb, &f.fd, tgz, &by_sink, err);
		if (rc && by_sink)
			rc = rdc_err_set(err, -rc, "cannot write '%s'", out);
		close(fd);
		unlink(tgz);
	}
	if (rc) {
		rdc_file_abort(&f);
		return rc;
	}
	return rdc_file_commit(&f, err);
}

int rdc_bundle_pack_stream(const char *dir, rdc_bundle_sink_fn *sink, void *data,
			   struct rdc_err *err)
{
	char tgz[4096];
	bool by_sink = false;
	int rc, fd = -1;

	rc = pack_scratch(dir, tgz, sizeof(tgz), &fd, err);
	if (rc)
		return rc;
	rc = pack_copy(fd, sink, data, tgz, &by_sink, err);
	if (rc && by_sink)
		rc = rdc_err_set(err, -rc, "cannot write the bundle");
	close(fd);
	unlink(tgz);
	return rc;
}

/* The first removal that failed since rdc_bundle_remove_result() last looked. */
static struct rdc_err remove_err;
static bool remove_failed;

/* nftw has no user data: the walk's first failure is kept here. */
static struct rdc_err walk_err;
static int walk_rc;

static void walk_fail(int code, const char *path)
{
	if (!walk_rc)
		walk_rc = rdc_err_set(&walk_err, code, "cannot remove scratch '%s'", path);
}

/* Depth first: a directory comes after its entries.  The walk goes on after a failure. */
static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_NS || flag == FTW_DNR) {
		/* Not read: its entries stay, and so will it. */
		walk_fail(errno ? errno : EACCES, path);
		if (flag == FTW_NS)
			return 0;
	}
	if (flag == FTW_DP || flag == FTW_DNR) {
		if (rmdir(path) && errno != ENOENT)
			walk_fail(errno, path);
	} else if (unlink(path) && errno != ENOENT) {
		walk_fail(errno, path);
	}
	return 0;
}

void rdc_bundle_remove(const char *dir)
{
	if (!dir || !dir[0])
		return;
	walk_rc = 0;
	memset(&walk_err, 0, sizeof(walk_err));
	/* Already gone is removed. */
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		walk_fail(errno, dir);
	if (walk_rc && !remove_failed) {
		remove_err = walk_err;
		remove_failed = true;
	}
	guard_end(dir, !walk_rc);
}

int rdc_bundle_remove_result(struct rdc_err *err)
{
	int rc = remove_failed ? -remove_err.code : 0;

	if (rc && err)
		*err = remove_err;
	remove_failed = false;
	return rc;
}
