/* SPDX-License-Identifier: GPL-2.0-or-later */
/* err.h - the error record lib/ fills in and cmd/ prints */
#pragma once

#include <limits.h> /* PATH_MAX */
#include <stddef.h>

/*
 * What kind of failure a record is: the stable id of an error document
 * (rdmactl(8) ERRORS), for a script to act on without reading English.
 * Named in err_ids[] (err.c); an id, once shipped, is never renamed.
 * live-only is only ever marked by the verb that refuses, never guessed from an errno.
 */
enum rdc_err_kind {
	RDC_ERRK_AUTO = 0,	/* from the usage flag, else from the errno (rdc_err_kind_of) */
	RDC_ERRK_USAGE,		/* "usage": the caller's words or values */
	RDC_ERRK_NOT_FOUND,	/* "not-found": no such device, netdev, bond, file */
	RDC_ERRK_EXISTS,	/* "exists": something else already has that name */
	RDC_ERRK_NOT_SUPPORTED, /* "not-supported": the driver or kernel lacks it */
	RDC_ERRK_NO_DCB,	/* "no-dcb": the netdev's driver has no dcbnl operations */
	RDC_ERRK_PERMISSION,	/* "permission-denied": needs root or CAP_NET_ADMIN */
	RDC_ERRK_BUSY,		/* "busy": another run holds the lock, try again later */
	RDC_ERRK_OFFLINE,	/* "live-only": a write or live run under --root/--replay */
	RDC_ERRK_INVALID,	/* "invalid": the kernel or a file refused a value */
	RDC_ERRK_BAD_DATA,	/* "bad-data": a file, reply or peer said what cannot be */
	RDC_ERRK_IO,		/* "io-error": a read or write failed */
	RDC_ERRK_TIMEOUT,	/* "timeout": no answer in time */
	RDC_ERRK_PEER,		/* "peer": the bench peer refused, closed or broke the protocol */
	RDC_ERRK_NO_MEMORY,	/* "no-memory" */
	RDC_ERRK_FAILED,	/* "failed": none of the above */
	RDC_ERRK_COUNT
};

/*
 * Every lib/ function that can fail returns 0 or a negative errno and, when
 * the caller passes a record, says what it was doing in words.  cmd/ prints
 * exactly one line from it; lib/ never prints.
 */
/*
 * The record is a value: it is copied (struct assignment into undo results,
 * the first error of a run), kept in arrays and on the stack, and never
 * released, so its text cannot be allocated (a copy would share or leak it;
 * there is no one place that frees a record).  Its text is therefore
 * fixed-size, and sized so that every message rdmactl composes fits whole:
 *
 *   msg     one format of ours (its words, names, numbers: under 256 bytes)
 *           with one path of up to PATH_MAX bytes in it ("cannot read
 *           '/a/very/long/root/sys/...'"), a prefix ("bond0: ") included;
 *   detail  the kernel's extack (static strings of the kernel's, short), hints
 *           of ours, an undo's message about a sysfs file or netlink object;
 *   object  a netdev, bond or RDMA device name (kernel bounds: 16, 64 bytes).
 *
 * Text that still does not fit (a message with two PATH_MAX paths, a detail
 * holding a PATH_MAX message) is cut at a word and ends " ..."
 * (rdc_words_vformat), never mid-word: the last resort, which
 * tests/unit/test_err_words.c shows a message with one PATH_MAX path never
 * reaches.
 *
 * Why not PATH_MAX for the detail too: records sit in arrays and on stacks,
 * and 5 KiB each is already much.  base/issues.h keeps none by value (an
 * issues list holding six of them in every port, netdev and PCI function
 * took `port` on 800 devices from 19 to 84 MB): its records are made on the
 * heap, whole, when one is kept.
 */
#define RDC_ERR_MSG_LEN (PATH_MAX + 256)
#define RDC_ERR_DETAIL_LEN 1024
#define RDC_ERR_OBJECT_LEN 256
/* What rdc_err_describe() writes at most: "MSG: strerror (DETAIL)" and its NUL. */
#define RDC_ERR_TEXT_LEN (RDC_ERR_MSG_LEN + RDC_ERR_DETAIL_LEN + 128)

struct rdc_err {
	int code;			 /* positive errno, 0 when unset */
	char msg[RDC_ERR_MSG_LEN];	 /* "cannot read 'ports/1/state'" */
	char detail[RDC_ERR_DETAIL_LEN]; /* kernel extack text or a hint, may be empty */
	/* The message says all there is: no strerror(code) after it ("has no port 2"). */
	int plain;
	/* The caller's input is malformed (a name that cannot be one): a usage error, exit 2. */
	int usage;
	/* Set where the kind is known better than the errno says (rdc_err_mark). */
	enum rdc_err_kind kind;
	/* What the failure is about (a netdev, a bond, a file), or empty. */
	char object[RDC_ERR_OBJECT_LEN];
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
/* Say what kind of failure a set record is and what it is about (@object may be NULL). */
void rdc_err_mark(struct rdc_err *err, enum rdc_err_kind kind, const char *object);
/* The record's kind: its mark, else "usage" for a usage error, else its errno's class. */
enum rdc_err_kind rdc_err_kind_of(const struct rdc_err *err);
/* The stable id of @kind ("not-found"); RDC_ERRK_AUTO and out of range give "failed". */
const char *rdc_err_kind_id(enum rdc_err_kind kind);
/*
 * The whole message as cmd/ prints it: "MSG: strerror (detail)"; whole in a
 * buffer of RDC_ERR_TEXT_LEN bytes, truncated to a smaller @size.
 */
void rdc_err_describe(const struct rdc_err *err, char *buf, size_t size);
