/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h - `bench`: the run's parameters, the endpoints of a link, and what a run measured */
#pragma once

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define RDC_BENCH_DEFAULT_PORT 18515 /* perftest's, so firewall rules carry over */
#define RDC_BENCH_MAX_LINKS 16
#define RDC_BENCH_MAX_QPS 64		  /* per link */
#define RDC_BENCH_MAX_ENDPOINTS 32	  /* (port, IPv4 address) pairs one host offers */
#define RDC_BENCH_MAX_SIZE (16u << 20)	  /* bytes per message */
#define RDC_BENCH_MAX_MEMORY (1ull << 30) /* registered bytes per side and run */
#define RDC_BENCH_MAX_ITERS 100000000ull  /* per QP */
#define RDC_BENCH_MAX_DEPTH 1024	  /* send queue entries per QP */
#define RDC_BENCH_MAX_SECONDS 86400
#define RDC_BENCH_MAX_INTERVALS 100000 /* per-interval samples kept per link */
/* lat keeps every sample (8 bytes each): bounded per run. */
#define RDC_BENCH_MAX_LAT_ITERS 10000000u
#define RDC_BENCH_MAX_LAT_SECONDS 60u

/*
 * lat is the latency of RDMA writes (ib_write_lat), lat-read of RDMA reads
 * (ib_read_lat: a sample is a read's whole round trip), lat-send of
 * send/receive (ib_send_lat).  The values are the protocol's: append only.
 */
enum rdc_bench_test {
	RDC_BENCH_WRITE,
	RDC_BENCH_READ,
	RDC_BENCH_SEND,
	RDC_BENCH_LAT,
	RDC_BENCH_LAT_READ,
	RDC_BENCH_LAT_SEND,
};
#define RDC_BENCH_TEST_LAST RDC_BENCH_LAT_SEND

/* One of the latency tests: one message in flight, every sample kept. */
static inline bool rdc_bench_test_is_lat(enum rdc_bench_test test)
{
	return test == RDC_BENCH_LAT || test == RDC_BENCH_LAT_READ || test == RDC_BENCH_LAT_SEND;
}

/* "write" / "read" / "send" / "lat" / "lat-read" / "lat-send"; NULL for an unknown value. */
const char *rdc_bench_test_name(enum rdc_bench_test test);
int rdc_bench_test_parse(const char *name, enum rdc_bench_test *test);

/* Everything a run needs to agree on; the client chooses it and sends it to the server. */
struct rdc_bench_params {
	enum rdc_bench_test test;
	uint32_t size;	       /* bytes per message */
	uint32_t qps;	       /* RC QPs per link */
	uint32_t tx_depth;     /* outstanding work requests per QP */
	uint64_t duration_ns;  /* the measured window; 0 in iteration mode */
	uint64_t iters;	       /* messages per QP (round trips for lat); 0 in duration mode */
	uint64_t warmup_ns;    /* traffic before the window that is not counted */
	uint64_t interval_ns;  /* per-interval samples */
	uint8_t traffic_class; /* GRH traffic class: DSCP << 2 */
	uint32_t mtu;	       /* path MTU limit in bytes (256..4096), 0: none */
	/*
	 * The RC requester's retry settings (IB spec 9.7.6): ACK timeout as the
	 * exponent of 4.096 us * 2^N (0: wait forever; at most 31), retries after
	 * a timeout (0-7), retries after an RNR NAK (0-7, 7: forever).
	 */
	uint8_t qp_timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	/*
	 * perftest's tuning knobs (-Q, -l, -I): signal one send in cq_mod (0:
	 * the engine's choice, rdc_bench_cq_mod()), chain post_list work
	 * requests per ibv_post_send(), send messages of at most inline_size
	 * bytes inline (RDC_BENCH_INLINE_DEFAULT: the test's default,
	 * rdc_bench_inline_bytes()).
	 */
	uint32_t cq_mod;
	uint32_t post_list;
	uint32_t inline_size;
	/*
	 * rate-limit (perftest's --rate_limit_type SW): the requester paces its
	 * posts so that each link (all its QPs together) sends at most
	 * rate_limit_bps bits of payload per second; 0: unlimited.  hugepages:
	 * both sides' buffers from huge pages (perftest's --use_hugepages).
	 * bidir (perftest -b): both sides are requesters over the same QPs at
	 * once (the bandwidth tests only); the server's counts come back in
	 * RESULT.  rdma_cm (perftest -R): connect the QPs through rdma_cm (a
	 * connection request per QP to the server's address at its control
	 * port) instead of moving them to RTR/RTS from the control
	 * connection's QPNs; 0 or 1.
	 */
	uint64_t rate_limit_bps;
	bool hugepages;
	bool bidir;
	uint8_t rdma_cm;
	/*
	 * How a side waits for its completions (enum rdc_bench_cq_wait; each
	 * side resolves auto for its own device): spin on the CQ, or sleep on
	 * its completion channel (perftest -e).
	 */
	uint8_t cq_wait;
};

/*
 * cq-wait.  A software device (rxe, siw) runs its transport on the host's
 * own CPUs: a thread spinning on its CQ takes the CPU from the very work it
 * waits for (on a 1-vCPU guest, half of it).  auto: events there, polling
 * on a NIC, where spinning costs the transport nothing and a wake-up costs
 * latency.  The values are the protocol's: append only.
 */
enum rdc_bench_cq_wait {
	RDC_BENCH_CQ_WAIT_AUTO,
	RDC_BENCH_CQ_WAIT_POLL,
	RDC_BENCH_CQ_WAIT_EVENTS,
};
#define RDC_BENCH_CQ_WAIT_LAST RDC_BENCH_CQ_WAIT_EVENTS
/* "auto" / "poll" / "events"; NULL for an unknown value. */
const char *rdc_bench_cq_wait_name(enum rdc_bench_cq_wait w);
int rdc_bench_cq_wait_parse(const char *name, enum rdc_bench_cq_wait *w);

#define RDC_BENCH_QP_TIMEOUT_MAX 31
#define RDC_BENCH_RETRY_MAX 7
#define RDC_BENCH_MAX_INLINE 1024u /* bytes; the device may take less */
/* inline_size: perftest's default, 220 bytes for lat (0 where the device takes less), 0 otherwise */
#define RDC_BENCH_INLINE_DEFAULT UINT32_MAX
#define RDC_BENCH_LAT_INLINE 220u

/*
 * Defaults as perftest users expect them: 64 KiB (2 B for lat), depth 128, 5 s,
 * ACK timeout 14 (about 67 ms), 7 retries, RNR retry 7 (forever).
 */
void rdc_bench_params_default(struct rdc_bench_params *p, enum rdc_bench_test test);
/*
 * Check a parameter set against the limits above (the server runs this on
 * what a client sent: never trust the peer).  -EINVAL with the reason.
 */
int rdc_bench_params_check(const struct rdc_bench_params *p, struct rdc_err *err);
/*
 * Signal one send in this many: cq_mod when given, else post_list when
 * chains are longer than 1 (perftest's rule), else every send above 8 KiB
 * or with a queue shallower than 4, else one in a quarter of the queue.
 * Always 1 for lat.
 */
uint32_t rdc_bench_cq_mod(const struct rdc_bench_params *p);
/* The largest message sent inline, bytes (inline_size with the default resolved). */
uint32_t rdc_bench_inline_bytes(const struct rdc_bench_params *p);
/* The buffer slot of one QP: @size page-rounded (twice @size for lat: send and receive areas). */
uint64_t rdc_bench_slot_bytes(const struct rdc_bench_params *p);
/*
 * How long a link may wait without progress, ns: @base_ns, the limit for
 * small messages, plus a second for each whole RDC_BENCH_SLOW_BYTES_PER_S of
 * the @bytes it waits for, at most RDC_BENCH_SILENCE_MAX_NS (never less than
 * @base_ns).  Why: on Soft-RoCE under emulation one 8 MiB message takes
 * seconds (measured 1.2-2.5 MB/s a link), longer than the 5 s and 10 s that
 * suit small ones.  What a link waits for: one completion's messages
 * (cq_mod x size) in the bandwidth tests, a round trip (2 x size) in lat.
 */
#define RDC_BENCH_SLOW_BYTES_PER_S (512u << 10)
#define RDC_BENCH_SILENCE_MAX_NS 60000000000ull
uint64_t rdc_bench_silence_ns(uint64_t base_ns, uint64_t bytes);
/* Bytes a link waits for between two completions (the rule above). */
uint64_t rdc_bench_wait_bytes(const struct rdc_bench_params *p);
/* Registered bytes per side for @nlinks links: one slot per QP. */
uint64_t rdc_bench_params_memory(const struct rdc_bench_params *p, uint32_t nlinks);

/*
 * size all (perftest -a): one run per power of two from RDC_BENCH_SWEEP_MIN to
 * RDC_BENCH_SWEEP_MAX bytes, the range perftest -a covers for every test over
 * RC, on one control connection.  The client sweeps; each run's SETUP carries
 * one size as ever.
 */
#define RDC_BENCH_SWEEP_MIN 2u
#define RDC_BENCH_SWEEP_MAX (8u << 20)
#define RDC_BENCH_SWEEP_SIZES 23u /* 2^1 .. 2^23 */
/*
 * A sweep's count per size when neither iters nor duration is given:
 * perftest -a's, its default iterations (5000 for write, 1000 for the others).
 */
uint64_t rdc_bench_sweep_iters(enum rdc_bench_test test);
/*
 * rdc_bench_params_check() at every size of a sweep (the engine's defaults,
 * cq-mod's, change with the size): -EINVAL naming the size that fails.
 */
int rdc_bench_sweep_check(const struct rdc_bench_params *p, struct rdc_err *err);
