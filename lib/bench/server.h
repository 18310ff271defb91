/* SPDX-License-Identifier: GPL-2.0-or-later */
/* server.h - serving runs one after another, every client message distrusted */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/report.h"

struct rdc_bench_server_opts {
	const char *bind; /* NULL: every address */
	uint16_t port;
	bool has_allow;
	uint32_t allow_net, allow_prefix; /* clients allowed, host order */
	bool once;
	volatile sig_atomic_t *interrupted;
};

struct rdc_bench_server_cb {
	void (*listening)(void *arg, const char *addr, uint16_t port);
	/* A run's links are set up (r->links' local side is this host). */
	void (*run_begin)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	/* A run ended, or a client was turned away (r->status, r->error). */
	void (*run_end)(void *arg, unsigned int run, const struct rdc_bench_report *r);
	void *arg;
};

/*
 * Serve runs one after another until interrupted (or after one with @once).
 * *@last_status is the last run's status: 0, or -errno when it failed.
 */
int rdc_bench_server_serve(const struct rdc_bench_server_opts *o,
			   const struct rdc_bench_server_cb *cb, int *last_status,
			   struct rdc_err *err);
