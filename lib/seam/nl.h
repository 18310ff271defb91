/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nl.h - the one kernel-message transport (netlink and the ethtool ioctl) */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#include "base/err.h"

/*
 * Every message rdmactl exchanges with the kernel passes through here, so
 * that one switch replaces the kernel:
 *
 *   live    talk to the kernel
 *   record  talk to the kernel and append every exchange to a file
 *   replay  answer from such a file; writes are refused
 *   off     no kernel and no recording (--root without one): every request
 *           fails with -ENODATA, and callers report the value as unknown
 *
 * The recording is line-oriented text, easy to diff and keep in git:
 *
 *   # rdmactl kernel recording v1
 *   > nl PROTO HEX            a netlink request (one message)
 *   < HEX                     one datagram of its reply, in order
 *   > ioctl ethtool IFNAME HEX    SIOCETHTOOL with the buffer sent
 *   < HEX                     the buffer the kernel returned
 *   ! ERRNO                   the request failed with this errno
 *
 * Replay matches a request by protocol and bytes, ignoring nlmsg_seq and
 * nlmsg_pid, and rewrites the sequence number of the recorded replies.  A
 * request asked more often than recorded gets its last answer again (a
 * command that samples twice on a recording of one sample).
 *
 * A recording is outside input: it is checked whole when it loads (a regular
 * file of at most RDC_NL_REC_MAX_BYTES, lines of at most RDC_NL_REC_MAX_LINE,
 * hex, every netlink message of every answer whole and inside its datagram,
 * errnos 1..RDC_NL_MAX_ERRNO, answers after their request), and a bad one is
 * one error naming the file and the line.
 */
enum rdc_nl_mode { RDC_NL_LIVE, RDC_NL_RECORD, RDC_NL_REPLAY, RDC_NL_OFF };

#define RDC_NL_REC_NAME "kernel.rec" /* the recording inside a --root bundle */

#define RDC_NL_REC_MAX_BYTES (64u << 20) /* a recording file; fixtures are ~150 KiB */
#define RDC_NL_REC_MAX_LINE (1u << 20)	 /* one line: 512 KiB of hex, 8 x a 64 KiB datagram */
#define RDC_NL_MAX_ERRNO 4095		 /* the kernel's MAX_ERRNO: larger is no errno */

/*
 * Strict replay, for tests: every recorded answer is used once and only once.
 * With RDMACTL_REPLAY_STRICT set in the environment when a recording is
 * opened, a command that asks something not recorded, asks a request again
 * after its answers ran out, or leaves an answer unused writes one line per
 * such request to stderr at the end and exits 1 (rdc_nl_strict_end(), which
 * cmd/main.c calls when the verb is done).  Values:
 *
 *   all     every answer in the file must be used
 *   asked   scoped per request: every answer recorded for a request the
 *           command asked (same protocol and bytes, seq and pid aside) must
 *           be used; answers to requests it never asked are out of scope, as
 *           a fixture recorded for several verbs holds answers (another
 *           netdev's, another family's) that a single verb never asks for
 *
 * (any other non-empty value but "0" is "all").
 */
#define RDC_NL_STRICT_ENV "RDMACTL_REPLAY_STRICT"
enum rdc_nl_strict { RDC_NL_STRICT_OFF, RDC_NL_STRICT_ALL, RDC_NL_STRICT_ASKED };

/* The request changes kernel state: refused in replay and off modes. */
#define RDC_NL_WRITE 0x1

/* Called for every reply message that is not an ACK, error or DONE; return 0 or -errno. */
typedef int (*rdc_nl_msg_cb)(const struct nlmsghdr *nlh, void *arg);

/* @file: the recording to write (record) or read (replay); ignored otherwise. */
int rdc_nl_open(enum rdc_nl_mode mode, const char *file, struct rdc_err *err);
void rdc_nl_close(void);
/*
 * After rdc_nl_close() of a recording: 0 when the file was written whole and
 * renamed into place, else -errno with why in @err (ENOSPC at the flush...);
 * the target then keeps what it had.
 */
int rdc_nl_record_result(struct rdc_err *err);
/*
 * Replay the recording open on @fd (read and closed here): the caller opened
 * it, through the file seam's --root jail where it belongs to a bundle.
 * @name names it in messages.
 */
int rdc_nl_open_replay_fd(int fd, const char *name, struct rdc_err *err);
enum rdc_nl_mode rdc_nl_mode(void);

/*
 * Strict replay without the environment (unit tests): set after rdc_nl_open(),
 * it lasts until rdc_nl_close().  rdc_nl_strict_check() returns 0, or -EPROTO
 * naming the first request that broke the rule in @err->msg (how many did in
 * @err->detail).  Only the environment variable makes the command fail.
 */
void rdc_nl_set_strict(enum rdc_nl_strict strict);
int rdc_nl_strict_check(struct rdc_err *err);
/*
 * The end of a command run with RDMACTL_REPLAY_STRICT: judges the recording
 * still open, else what the last close of one found.  0 when the rule held
 * (or the environment did not ask), else -EPROTO naming the first request
 * that broke it in @err; rdc_nl_strict_line(0, 1, ...) then gives one line
 * per request (the first 16, then "and N more"), NULL after the last.
 */
int rdc_nl_strict_end(struct rdc_err *err);
const char *rdc_nl_strict_line(size_t i);

/*
 * Send one request on a NETLINK_* @proto socket, sets seq and pid, and read
 * the replies until the kernel's ACK, error or DONE.  A kernel error is
 * returned as -errno with its extack message in @err->detail.
 */
int rdc_nl_talk(int proto, struct nlmsghdr *req, unsigned int flags, rdc_nl_msg_cb cb, void *arg,
		struct rdc_err *err);

/* SIOCETHTOOL on @ifname: @data is sent and overwritten with the kernel's answer. */
int rdc_nl_ethtool_ioctl(const char *ifname, void *data, size_t len, unsigned int flags,
			 struct rdc_err *err);

/* Resolve a generic netlink family ("ethtool") to its id, cached. */
int rdc_nl_genl_family(const char *name, uint16_t *id, struct rdc_err *err);

/*
 * Kernel events: a NETLINK_* socket that joined one multicast group
 * (RTNLGRP_LINK) and reads what the kernel announces, as it happens.
 * Events are live by nature: replay and off modes refuse to open one
 * (-EOPNOTSUPP), and record mode reads them live without writing them down.
 */
struct rdc_nl_monitor;

/* @group: one group number (RTNLGRP_LINK), not a mask.  Free with rdc_nl_monitor_close(). */
int rdc_nl_monitor_open(struct rdc_nl_monitor **m, int proto, unsigned int group,
			struct rdc_err *err);
/* NULL-safe. */
void rdc_nl_monitor_close(struct rdc_nl_monitor *m);
/* The socket, for a caller's own poll(); read it only with rdc_nl_monitor_recv(). */
int rdc_nl_monitor_fd(const struct rdc_nl_monitor *m);
/*
 * Wait up to @timeout_ms (0: only what is queued) for events, then hand every
 * queued message to @cb (ACKs, errors and DONE excepted).  Returns the number
 * of messages delivered (0 after a quiet timeout or a signal), the first
 * error @cb returned, or -ENOBUFS when the socket's buffer overran and the
 * kernel dropped events: count it and go on, the socket stays usable.
 */
int rdc_nl_monitor_recv(struct rdc_nl_monitor *m, int timeout_ms, rdc_nl_msg_cb cb, void *arg,
			struct rdc_err *err);
/* CLOCK_MONOTONIC (ns) when the datagram being delivered was read: valid inside @cb. */
uint64_t rdc_nl_monitor_stamp_ns(const struct rdc_nl_monitor *m);
