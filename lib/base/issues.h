/* SPDX-License-Identifier: GPL-2.0-or-later */
/* issues.h - values that exist but could not be read or parsed, one record each */
#pragma once

#include <stdbool.h>

#include "base/err.h"

/*
 * A model (a port, a PCI function, a netdev) reads many files; one that the
 * kernel does not offer is simply absent (null), but one that exists and
 * cannot be read or parsed is a fact the user must hear about.  The model
 * keeps a record per such value and carries on; cmd/ prints one line each
 * and exits 1 (ls's convention: print what can be read, say what cannot).
 */
#define RDC_ISSUES_MAX 6

struct rdc_issues {
	unsigned int count; /* records kept */
	unsigned int lost;  /* more than RDC_ISSUES_MAX: counted, not kept */
	struct rdc_err items[RDC_ISSUES_MAX];
};

/* Keep a copy of @err (its message names the file, its code says why). */
void rdc_issues_add(struct rdc_issues *is, const struct rdc_err *err);
/* Keep a record made here ("'FILE' holds 'TEXT', not a number"). */
void rdc_issues_addf(struct rdc_issues *is, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Whether anything went wrong (kept or lost). */
bool rdc_issues_any(const struct rdc_issues *is);
