// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stdout_copy.c - the test suite's copy of standard output (stdout_copy.h)
 *
 * Why in rdmactl and not a tee beside it: a copier between rdmactl and the
 * test's pipe still holds rdmactl's last lines when rdmactl has exited, so
 * the test's next command (or rdmactl's own stderr) could reach the pipe
 * first.  Written here, each byte reaches fd 1 when rdmactl writes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/safefile.h"
#include "stdout_copy.h"

static int copy_fd = -1;

static ssize_t copy_write(void *cookie, const char *buf, size_t len)
{
	ssize_t n = rdc_fd_write_all(STDOUT_FILENO, buf, len);
	int saved = errno;

	(void)cookie;
	/* Only what reached fd 1 is copied: the copy is what the reader got. */
	if (n > 0)
		(void)rdc_fd_write_all(copy_fd, buf, (size_t)n);
	errno = saved;
	/* glibc's cookie streams take 0 as an error (the buffer is kept). */
	return n < 0 ? 0 : n;
}

int rdc_stdout_copy_init(const char **why)
{
	static const cookie_io_functions_t io = {.write = copy_write};
	const char *v = getenv(RDC_STDOUT_COPY_ENV);
	char *end;
	long fd;
	int fl;
	FILE *fp;

	if (!v)
		return 0;
	errno = 0;
	fd = strtol(v, &end, 10);
	if (errno || end == v || *end || fd <= STDERR_FILENO || fd > INT_MAX) {
		*why = "not a file descriptor above 2";
		return -EINVAL;
	}
	fl = fcntl((int)fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		*why = "not a descriptor open for writing";
		return -EBADF;
	}
	if (fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0) {
		*why = "cannot make it close-on-exec";
		return -errno;
	}
	fp = fopencookie(NULL, "w", io);
	if (!fp) {
		*why = "no memory for the stream";
		return -ENOMEM;
	}
	/* stdout's own buffering: a line at a time to a terminal, blocks otherwise. */
	if (isatty(STDOUT_FILENO))
		setvbuf(fp, NULL, _IOLBF, 0);
	copy_fd = (int)fd;
	unsetenv(RDC_STDOUT_COPY_ENV);
	stdout = fp;
	return 0;
}
