/* SPDX-License-Identifier: GPL-2.0-or-later */
/* proto.h - the bench control protocol: framing, messages, encoder and decoder */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/bench.h"
#include "bench/links.h"

/*
 * One TCP connection per run.  Every message is a 12-byte header and a
 * payload, all integers big-endian:
 *
 *   0  magic   "RDCB"
 *   4  u16     protocol version (RDC_BENCH_PROTO_VERSION)
 *   6  u16     message type
 *   8  u32     payload length, at most RDC_BENCH_MAX_FRAME
 *
 * A run:  client HELLO -> server PORTS (its endpoint table)
 *         client SETUP (parameters, links, client QPs) -> server SETUP_OK (server QPs)
 *         client START -> server STARTED; the data moves
 *         client DONE (what it measured) -> server RESULT (what it saw)
 *         [client SETUP ... -> server RESULT again: another run; size all]
 * Either side may send ERROR instead of its next message and close.
 *
 * The decoder trusts nothing: every count and string is bounded, strings
 * must be NUL-free and fit their field, and trailing bytes are an error.
 */
#define RDC_BENCH_PROTO_MAGIC "RDCB"
/*
 * 2: SETUP carries the QP retry settings.
 * 3: SETUP carries cq-mod, post-list and inline; ERROR's text holds a whole
 *    error record's message (RDC_ERR_MSG_LEN), not 255 bytes; SETUP's test
 *    takes lat-read (4) and lat-send (5) too (added before any release spoke
 *    3: no peer of protocol 3 knows fewer tests).
 * 4: SETUP's params end with rate-limit (u64 bit/s, 0: none), hugepages
 *    (u8 0/1), bidir (u8 0/1) and rdma_cm (u8 0/1: the QPs connect through
 *    rdma_cm, perftest -R); RESULT's window_ns is the server's own
 *    window when it was a requester too (bidir), else 0; a session may hold
 *    several runs: after RESULT the client sends SETUP again (size all: one
 *    run per size) or closes (RDC_BENCH_SESSION_RUNS).
 * 5: SETUP's params end with cq-wait (u8: 0 auto, 1 poll, 2 events; each
 *    side resolves auto for its own device).
 * A peer of another version is refused on its first message, in words
 * ("protocol version mismatch: peer speaks 2, this rdmactl speaks 3").
 */
#define RDC_BENCH_PROTO_VERSION 5
/* Runs one session may hold, at most: a sweep needs RDC_BENCH_SWEEP_SIZES. */
#define RDC_BENCH_SESSION_RUNS 64
#define RDC_BENCH_HDR_LEN 12
#define RDC_BENCH_MAX_FRAME 65536

enum rdc_bench_msg_type {
	RDC_BENCH_MSG_HELLO = 1,
	RDC_BENCH_MSG_PORTS,
	RDC_BENCH_MSG_SETUP,
	RDC_BENCH_MSG_SETUP_OK,
	RDC_BENCH_MSG_START,
	RDC_BENCH_MSG_STARTED,
	RDC_BENCH_MSG_DONE,
	RDC_BENCH_MSG_RESULT,
	RDC_BENCH_MSG_ERROR,
	RDC_BENCH_MSG_MAX = RDC_BENCH_MSG_ERROR,
};

const char *rdc_bench_msg_name(unsigned int type);

struct rdc_bench_qp_wire {
	uint32_t qpn; /* 24 bits */
	uint32_t psn; /* 24 bits */
};

/* One side's half of a link, what the other side needs to connect to it. */
struct rdc_bench_link_wire {
	uint32_t endpoint; /* index into the server's endpoint table */
	uint8_t gid[16];
	uint32_t gid_index;
	uint32_t mtu;	  /* the sender's active MTU, bytes */
	uint32_t rd_atom; /* RDMA reads this side accepts in flight per QP */
	uint32_t rkey;
	uint64_t vaddr; /* the registered buffer */
	uint64_t length;
	uint32_t nqps;
	struct rdc_bench_qp_wire qps[RDC_BENCH_MAX_QPS];
};

/* One link's count from one side at the end of a run. */
struct rdc_bench_link_count {
	uint64_t bytes;
	uint64_t msgs;
	uint32_t errors; /* failed completions */
};

struct rdc_bench_msg {
	uint16_t version; /* as decoded; the encoder always writes ours */
	uint16_t type;
	union {
		struct { /* HELLO */
			char software[32];
		} hello;
		struct { /* PORTS */
			char host[64];
			uint32_t count;
			struct rdc_bench_endpoint eps[RDC_BENCH_MAX_ENDPOINTS];
		} ports;
		struct { /* SETUP (client) and SETUP_OK (server: params unused) */
			struct rdc_bench_params params;
			uint32_t nlinks;
			struct rdc_bench_link_wire links[RDC_BENCH_MAX_LINKS];
		} setup;
		struct { /* DONE and RESULT */
			uint64_t window_ns;
			uint32_t nlinks;
			struct rdc_bench_link_count links[RDC_BENCH_MAX_LINKS];
		} count;
		struct {	      /* ERROR */
			int32_t code; /* positive errno */
			char text[RDC_ERR_MSG_LEN];
		} error;
	} u;
};

/*
 * Encode @m (header included) into @buf.  Returns the length or -EMSGSIZE
 * when it does not fit @cap, -EINVAL for counts over the limits.
 */
long rdc_bench_msg_encode(const struct rdc_bench_msg *m, uint8_t *buf, size_t cap);

/*
 * Check a header: magic, length limit.  Fills @type, @version and the
 * payload length.  A version other than ours is reported as -EPROTONOSUPPORT
 * after the fields are filled, so the caller can name it.
 */
int rdc_bench_hdr_decode(const uint8_t *hdr, uint16_t *version, uint16_t *type, uint32_t *len,
			 struct rdc_err *err);

/* Decode one whole message (header and payload, exactly @len bytes). */
int rdc_bench_msg_decode(const uint8_t *buf, size_t len, struct rdc_bench_msg *m,
			 struct rdc_err *err);
