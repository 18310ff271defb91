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
};

#define RDC_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Fill @err (if not NULL) and return -@code, so callers can `return rdc_err_set(...)`. */
int rdc_err_set(struct rdc_err *err, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Attach extra text (extack, hint) to an already set record. */
void rdc_err_detail(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);
void rdc_err_clear(struct rdc_err *err);
