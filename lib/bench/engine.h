/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - one link's verbs resources and the thread that moves its data */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/bench.h"
#include "bench/proto.h"

/*
 * A link owns its device context, PD, buffer (page-aligned, on the device's
 * NUMA node), MR, one CQ and its RC QPs.  The life of a link:
 *
 *   rdc_bench_link_open()      resources, QPs in INIT
 *   rdc_bench_link_local()     what the peer needs (QPNs, PSNs, rkey, GID)
 *   rdc_bench_link_connect()   the peer's half: RTR, RTS (receives posted)
 *   rdc_bench_link_cm_*()      with rdma-cm: the CM connects them instead
 *   rdc_bench_links_start()    one thread per link, all released at start_ns
 *   rdc_bench_links_join()     after they finished or were told to stop
 *   rdc_bench_link_close()
 */
struct rdc_bench_link;

/* Shared by the threads of one run. */
struct rdc_bench_sync {
	int stop;	   /* set (atomically) to end every thread early */
	uint64_t start_ns; /* CLOCK_MONOTONIC time the threads start together */
};

struct rdc_bench_result {
	int status;	 /* 0, or -errno when the link failed */
	char error[256]; /* what failed, in words */
	uint64_t bytes;	 /* moved inside the window */
	uint64_t msgs;
	/*
	 * The requester of a bandwidth test, inside the window: signalled
	 * completions polled (msgs / cq-mod) and ibv_post_send() calls
	 * (posted requests / post-list).
	 */
	uint64_t completions, post_calls;
	/*
	 * Duration write and send without bidir, on a link whose port stayed
	 * ACTIVE (run_bw): once each QP still outstanding after the window had
	 * completed one more, its QPs went to ERR instead of draining; what was
	 * outstanding then (0: all had retired first).  Meaningful when
	 * tail_flushed (JSON flushed_requests, else null).
	 */
	bool tail_flushed;
	uint64_t flushed_requests;
	uint64_t window_start_ns, window_end_ns; /* CLOCK_MONOTONIC */
	uint64_t longest_stall_ns;		 /* longest time without a completion */
	uint64_t longest_stall_start_ns;	 /* CLOCK_MONOTONIC: the completion before it */
	/*
	 * A failed link's last silence is an outage, not a stall: when it
	 * failed, the time from its last completion (or its start) to its end
	 * is not counted in longest_stall_ns; silent_from_ns is where it began.
	 */
	bool silent_to_end;
	uint64_t silent_from_ns; /* CLOCK_MONOTONIC */
	/*
	 * The first failed work completion: when it came (CLOCK_MONOTONIC; 0: the
	 * link did not fail on a completion) and its ibv_wc_status.  After a
	 * blackhole, failed_ns - silent_from_ns is how long the QP's retries held.
	 */
	int wc_status;
	uint64_t failed_ns;
	uint64_t cpu_ns; /* CPU time of the link's thread */
	/*
	 * How this side waited for its completions, cq-wait resolved: POLL or
	 * EVENTS; AUTO when it waits for none (the target of write and read
	 * without bidir, whose NIC alone answers).
	 */
	enum rdc_bench_cq_wait cq_wait;
	uint32_t errors;	  /* failed completions */
	uint64_t *interval_bytes; /* per interval from the window start */
	size_t nintervals;
	uint64_t *lat_ns; /* one-way latency samples (round trip / 2), lat only */
	size_t nlat, cap_lat;
	uint64_t buffer_page_bytes; /* the page size of the link's buffer: huge pages or not */
	/*
	 * bidir send: messages and bytes of the peer's sends this side's
	 * receives took inside its window (the requester counts above are its
	 * own sends).
	 */
	uint64_t recv_msgs, recv_bytes;
	/*
	 * Its requests are done and the counts above final (acquire); the
	 * thread of a bidir send link goes on taking the peer's sends until
	 * told to stop, so finished comes later.
	 */
	bool sent;
	bool finished; /* its thread ended */
};

int rdc_bench_link_open(struct rdc_bench_link **out, const struct rdc_bench_params *p,
			const struct rdc_bench_endpoint *ep, bool server, struct rdc_err *err);
void rdc_bench_link_close(struct rdc_bench_link *l);
void rdc_bench_link_local(const struct rdc_bench_link *l, uint32_t endpoint,
			  struct rdc_bench_link_wire *w);
/* Connect to the peer's half; checks what the peer sent against the run first. */
int rdc_bench_link_connect(struct rdc_bench_link *l, const struct rdc_bench_link_wire *remote,
			   struct rdc_err *err);
/*
 * rdma-cm (perftest -R): the QPs connect through rdma_cm after
 * rdc_bench_link_connect() (which then only checks and keeps the peer's
 * half).  The server listens on the link's address at @port before it
 * answers SETUP, then serves the channel (rdc_bench_link_cm_fd() readable:
 * rdc_bench_link_cm_service(), never blocks) until every QP is connected.
 * The client connects its QPs one after the other, blocking (seconds at
 * most per step).  A request that is not one of the run's QPs is refused;
 * rdc_bench_link_cm_refused() says the last one's why (NULL: none).
 */
int rdc_bench_link_cm_listen(struct rdc_bench_link *l, uint16_t port, struct rdc_err *err);
int rdc_bench_link_cm_connect(struct rdc_bench_link *l, uint32_t server_ipv4, uint16_t port,
			      struct rdc_err *err);
int rdc_bench_link_cm_fd(const struct rdc_bench_link *l);
int rdc_bench_link_cm_service(struct rdc_bench_link *l, struct rdc_err *err);
bool rdc_bench_link_cm_ready(const struct rdc_bench_link *l);
const char *rdc_bench_link_cm_refused(const struct rdc_bench_link *l);
/* The path MTU after connect, bytes. */
uint32_t rdc_bench_link_mtu(const struct rdc_bench_link *l);
const struct rdc_bench_result *rdc_bench_link_result(const struct rdc_bench_link *l);
/* Move the result out, its arrays included: the caller frees them (the link no longer has them). */
void rdc_bench_link_take_result(struct rdc_bench_link *l, struct rdc_bench_result *out);
/* The bytes of interval @k (0 until it has any), readable while the link's thread runs. */
uint64_t rdc_bench_link_interval(const struct rdc_bench_link *l, size_t k);
bool rdc_bench_link_finished(const struct rdc_bench_link *l);
/*
 * Its own requests are done and its result final except recv_msgs and
 * recv_bytes (rdc_bench_result.sent).  A bidir send link's thread then
 * keeps the receive queues full for the peer's last sends until
 * rdc_bench_links_stop(): the side that waits for the other's count
 * (the client, for RESULT) joins only after that.
 */
bool rdc_bench_link_sent(const struct rdc_bench_link *l);
/* The client saw the link's port leave ACTIVE: its window's tail drains whole (run_bw). */
void rdc_bench_link_note_port_down(struct rdc_bench_link *l);

/*
 * Start one thread per link that has work in this role (the server of a
 * write or read test has none).  On failure, threads already started are
 * stopped and joined.
 */
int rdc_bench_links_start(struct rdc_bench_link **links, size_t n, struct rdc_bench_sync *sync,
			  struct rdc_err *err);
void rdc_bench_links_stop(struct rdc_bench_sync *sync);
void rdc_bench_links_join(struct rdc_bench_link **links, size_t n);

/* verbs' words for a work completion status ("transport retry counter exceeded"). */
const char *rdc_bench_wc_status_str(int status);

/*
 * The threads' common start, this long after the server's STARTED: the
 * server of a bidir run starts its own requesters as long after START, so
 * that both sides' windows about coincide (their clocks are not shared).
 */
#define RDC_BENCH_START_DELAY_NS 200000000ull

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t rdc_bench_now_ns(void);
