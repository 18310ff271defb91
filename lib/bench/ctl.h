/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctl.h - sending and receiving control messages on a TCP socket, with time limits */
#pragma once

#include <signal.h>
#include <stdbool.h>

#include "base/err.h"
#include "bench/proto.h"

/*
 * A flag a signal handler sets: waits in this module end with -EINTR
 * ("interrupted") once it is set, instead of resuming.  NULL: none.
 */
void rdc_bench_ctl_set_interrupt(volatile sig_atomic_t *flag);
/* That flag is set: a wait elsewhere (rdma_cm's events) ends the same way. */
bool rdc_bench_ctl_interrupted(void);

/* Encode and write @m; -EPIPE/-ETIMEDOUT/... with the reason. */
int rdc_bench_ctl_send(int fd, const struct rdc_bench_msg *m, struct rdc_err *err);
/* Best effort: tell the peer why this side gives up. */
void rdc_bench_ctl_send_error(int fd, int code, const char *text);
/*
 * The same without waiting: one non-blocking send, for a server that must
 * not be held up by a client that does not read.
 */
void rdc_bench_ctl_send_error_now(int fd, int code, const char *text);
/*
 * Read one whole message within @timeout_ms (-1: no limit).  -ETIMEDOUT,
 * -ECONNRESET when the peer closed, -EPROTO/-EMSGSIZE/-EPROTONOSUPPORT for
 * what does not decode.
 */
int rdc_bench_ctl_recv(int fd, struct rdc_bench_msg *m, int timeout_ms, struct rdc_err *err);
/*
 * Receive and insist on @type.  An ERROR from the peer becomes -code with
 * "PEER: text"; any other type is -EPROTO.
 */
int rdc_bench_ctl_expect(int fd, struct rdc_bench_msg *m, unsigned int type, int timeout_ms,
			 const char *peer, struct rdc_err *err);
/*
 * Close after an ERROR without losing it: a close with the peer's bytes
 * unread sends a reset, which can discard what was sent last.  Stops
 * sending, reads what the peer still sends for at most 0.5 s, closes.
 */
void rdc_bench_ctl_close(int fd);
/* Short keep-alive timers, so a peer that vanished is noticed in about 10 s. */
void rdc_bench_ctl_keepalive(int fd);
