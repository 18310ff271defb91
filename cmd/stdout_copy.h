/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdout_copy.h - the test suite's copy of standard output, written by rdmactl itself */
#pragma once

#define RDC_STDOUT_COPY_ENV "RDMACTL_STDOUT_COPY_FD"

/*
 * With RDMACTL_STDOUT_COPY_FD=N in the environment (tests/json-capture sets
 * it), every byte rdmactl writes to standard output is written to fd N as
 * well, in the same write and the same order: stdout becomes a stream whose
 * writes go to fd 1 first, then to fd N.  fd 1's result is the stream's
 * result (a full disk, a closed pipe and SIGPIPE stay rdmactl's own); the
 * copy's errors are ignored.  The variable is removed and fd N made
 * close-on-exec, so nothing rdmactl starts inherits either.
 *
 * Returns 0 (nothing asked, or the copy set up) or -errno with a message
 * in *why: a value that is not a descriptor open for writing.
 */
int rdc_stdout_copy_init(const char **why);
