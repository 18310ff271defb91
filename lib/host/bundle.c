// SPDX-License-Identifier: GPL-2.0-or-later
/* bundle.c - pack and unpack support bundles with the system's tar (GNU tar, gzip) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/safefile.h"
#include "host/bundle.h"

extern char **environ;

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

int rdc_bundle_tmpdir(char *dir, size_t size, struct rdc_err *err)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(dir, size, "%s/rdmactl-bundle.XXXXXX", tmp) >= size)
		return rdc_err_set(err, ENAMETOOLONG, "TMPDIR is too long");
	if (!mkdtemp(dir)) /* mode 0700 */
		return rdc_err_set(err, errno, "cannot make a scratch directory in %s", tmp);
	return 0;
}

#define TAR_ARGS_MAX 16

/* Run tar with @argv (NULL-terminated); 0 when it exits 0. */
static int run_tar(const char *const *argv, const char *what, struct rdc_err *err)
{
	char *args[TAR_ARGS_MAX];
	size_t n = 0;
	pid_t pid;
	int status, rc;

	/* posix_spawnp wants char *const[]: copy the pointers, the strings stay untouched. */
	while (argv[n] && n + 1 < TAR_ARGS_MAX)
		n++;
	memcpy(args, argv, n * sizeof(args[0]));
	args[n] = NULL;
	rc = posix_spawnp(&pid, "tar", NULL, NULL, args, environ);
	if (rc)
		return rdc_err_set(err, rc, "cannot run tar to %s", what);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return rdc_err_set(err, errno, "cannot wait for tar");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return rdc_err_set(err, EIO, "tar could not %s", what);
	return 0;
}

int rdc_bundle_unpack(const char *path, char *dir, size_t size, struct rdc_err *err)
{
	int rc = rdc_bundle_tmpdir(dir, size, err);

	if (rc)
		return rc;
	{
		/* No owners and no modes from the archive; GNU tar drops absolute and ".." names. */
		const char *const argv[] = {"tar",
					    "--extract",
					    "--gzip",
					    "--no-same-owner",
					    "--no-same-permissions",
					    "--no-overwrite-dir",
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

int rdc_bundle_pack(const char *dir, const char *out, struct rdc_err *err)
{
	struct rdc_file f;
	/* The bundle describes the host: only its owner reads it (0600). */
	int rc = rdc_file_begin(&f, out, 0600, err);

	if (rc)
		return rc;
	{
		/* Sorted and owner-free: the same host gives the same listing. */
		const char *const argv[] = {"tar",
					    "--create",
					    "--gzip",
					    "--sort=name",
					    "--owner=0",
					    "--group=0",
					    "--numeric-owner",
					    "--file",
					    f.tmp,
					    "--directory",
					    dir,
					    ".",
					    NULL};

		/* tar writes into our temporary file; the old bundle stays until the rename. */
		rc = run_tar(argv, "pack the bundle", err);
	}
	if (rc) {
		rdc_file_abort(&f);
		return rc;
	}
	return rdc_file_commit(&f, err);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void rdc_bundle_remove(const char *dir)
{
	if (dir && dir[0])
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
