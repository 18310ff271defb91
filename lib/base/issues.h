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

/* One value that could not be read: its message whole, however long the path in it. */
struct rdc_issue {
	int code;     /* positive errno */
	bool plain;   /* the message says all there is: no strerror(code) after it */
	char *msg;    /* "'/sys/class/net/eth0/mtu' holds 'x', not a number" */
	char *detail; /* a hint or the kernel's text, "" for none */
};

/*
 * Every port, netdev and PCI function holds a list and nearly all stay
 * empty, so records live on the heap, made when one is kept: an empty list
 * is its counts and a NULL pointer (an error record by value is 5 KiB; six
 * of them in each of three lists per port took `port` on 800 devices from
 * 19 to 84 MB).  A list is owned by what holds it: rdc_issues_free(), and
 * rdc_issues_copy() for a second holder, never a struct assignment.
 */
struct rdc_issues {
	unsigned int count;	 /* records kept */
	unsigned int lost;	 /* more than RDC_ISSUES_MAX, or no memory for one: counted */
	struct rdc_issue *items; /* RDC_ISSUES_MAX of room once one is kept, else NULL */
};

/* Keep a copy of @err (its message names the file, its code says why). */
void rdc_issues_add(struct rdc_issues *is, const struct rdc_err *err);
/* Keep a record made here ("'FILE' holds 'TEXT', not a number"), whole. */
void rdc_issues_addf(struct rdc_issues *is, int code, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Whether anything went wrong (kept or lost). */
bool rdc_issues_any(const struct rdc_issues *is);
/* Make @to (uninitialised) a copy of @from; what finds no memory is counted lost. */
void rdc_issues_copy(struct rdc_issues *to, const struct rdc_issues *from);
/*
 * Move @from's records into @to, leaving out those whose message @to already
 * holds (the same file failing in two samples is said once); @from is freed.
 */
void rdc_issues_merge(struct rdc_issues *to, struct rdc_issues *from);
/* Keep only the records whose message contains @needle, forgetting the lost count. */
void rdc_issues_keep_matching(struct rdc_issues *is, const char *needle);
/* Free the records; @is is an empty list after (NULL-safe). */
void rdc_issues_free(struct rdc_issues *is);
