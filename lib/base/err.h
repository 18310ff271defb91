/* SPDX-License-Identifier: GPL-2.0-or-later */
/* err.h - the error record lib/ fills in and cmd/ prints */
#pragma once

#include <stddef.h>

/*
 * Every lib/ function that can fail returns 0 or a negative errno and, when
 * the caller passes a record, says what it was doing in words.  cmd/ prints
 * exactly one line from it; lib/ never prints.
 */
struct rdc_err {
	int code;	  /* positive errno, 0 when unset */
	char msg[256];	  /* "cannot read 'ports/1/state'" */
	char detail[256]; /* kernel extack text or a hint, may be empty */
	/* The message says all there is: no strerror(code) after it ("has no port 2"). */
	int plain;
	/* The caller's input is malformed (a name that cannot be one): a usage error, exit 2. */
	int usage;
};

#define RDC_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Fill @err (if not NULL) and return -@code, so callers can `return rdc_err_set(...)`. */
int rdc_err_set(struct rdc_err *err, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* A malformed argument: EINVAL, plain, marked as the caller's usage error. */
int rdc_err_set_usage(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);
/* rdc_err_set for a message the errno text would only repeat; the code stays for callers. */
int rdc_err_set_plain(struct rdc_err *err, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Say again what failed in the caller's words, keeping the detail (the kernel's extack). */
int rdc_err_restate(struct rdc_err *err, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Put context before the message: "cannot change 'eth0'" -> "bond0: cannot change 'eth0'". */
void rdc_err_prefix(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);
/* Set the extra text (extack, hint) of an already set record, replacing any. */
void rdc_err_detail(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);
/* Add to the extra text, "; "-separated from what is there. */
void rdc_err_append(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);
void rdc_err_clear(struct rdc_err *err);
