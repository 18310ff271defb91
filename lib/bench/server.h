/* SPDX-License-Identifier: GPL-2.0-or-later */
/* server.h - serving runs one at a time, every client message distrusted */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/report.h"

/*
 * A client must send its whole HELLO within this many seconds of being
 * accepted, or it is told so and dropped.  An rdmactl client sends it at
 * once; the wait only bounds what a silent or trickling peer can hold.
 */
#define RDC_BENCH_HELLO_TIMEOUT_S 5
/*
 * After its HELLO a client holds the server's one run slot; it must send
 * SETUP within this many seconds of PORTS (it opens its links and registers
 * its memory meanwhile) and START within as many of SETUP_OK, or the run
 * fails and the slot is free again.  A client that stalls mid-handshake
 * keeps others waiting for no longer.
 */
#define RDC_BENCH_SETUP_TIMEOUT_S 10
/*
 * Connections that have not said HELLO yet, at most, each in a slot of
 * about 350 bytes.  When all are taken, a new connection pushes out the
 * one that has waited longest (it is told why): idle connections cannot
 * lock out a client that says HELLO as soon as it connects.
 */
#define RDC_BENCH_MAX_PENDING 64
/*
 * bidir: after the client's DONE the server's own requests may still run
 * (its drain, or iterations a slower direction has not finished): it waits
 * at most this many seconds for them before RESULT, and a client waits as
 * much longer for RESULT.
 */
#define RDC_BENCH_BIDIR_WAIT_S 60

struct rdc_bench_server_opts {
	const char *bind; /* NULL: every address */
	uint16_t port;
	bool has_allow;
	uint32_t allow_net, allow_prefix; /* clients allowed, host order */
	bool once;
	volatile sig_atomic_t *interrupted;
};

/*
 * What the server reports.  run_begin and run_end may be called from the
 * server's run thread as well as from the caller's, but one at a time,
 * never concurrently.
 */
struct rdc_bench_server_cb {
	void (*listening)(void *arg, const char *addr, uint16_t port);
	/* A run's links are set up (r->links' local side is this host). */
	void (*run_begin)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	/*
	 * A run ended, or (@run 0) a client was turned away before its run:
	 * outside allow, no HELLO in time, a bad first message, too many
	 * connections waiting, or busy with another run (r->peer, r->status,
	 * r->error; nothing else is set).
	 */
	void (*run_end)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	void *arg;
};

/*
 * Whether the server may run on the system the seams read: the live one, or
 * a --root bundle, whose endpoints it offers to rehearse the handshake while
 * it refuses every run's SETUP (no data moves from a bundle).  Not a
 * recording alone (--replay): its files would be the live host's.
 */
bool rdc_bench_server_system_ok(void);

/*
 * Serve runs, one at a time, until interrupted (or after one with @once);
 * connections that have not said HELLO yet are handled meanwhile, and one
 * that says HELLO during a run is told at once: ERROR EBUSY, "busy with
 * run N, started S s ago; try again later" (the holder's address is in
 * the server's log only).
 * *@last_status is the last run's status: 0, or -errno when it failed.
 */
int rdc_bench_server_serve(const struct rdc_bench_server_opts *o,
			   const struct rdc_bench_server_cb *cb, int *last_status,
			   struct rdc_err *err);
