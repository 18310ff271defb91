/* SPDX-License-Identifier: GPL-2.0-or-later */
/* failover.h - measure one bond failover while traffic runs: kernel events, probes, RDMA */
#pragma once

#include <net/if.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define RDC_FAILOVER_MAX_EVENTS 256
#define RDC_FAILOVER_DEFAULT_HZ 1000u
#define RDC_FAILOVER_MAX_HZ 10000u
#define RDC_FAILOVER_MAX_WAIT_S 3600.0
/* A reply later than this counts as lost, as `ping -W 1` counts it. */
#define RDC_FAILOVER_REPLY_TIMEOUT_MS 1000u

/*
 * The RDMA stream is one bench run after another (lib/bench's client
 * against `rdmactl bench server` on the peer).  lib/bond may not include
 * lib/bench (scripts/check-layers), so the caller hands the engine a runner:
 * cmd/ passes an adapter over rdc_bench_client_run().  The runner runs one
 * connection until it fails, its duration ends or *stop is set, and calls
 * interval() at the end of every interval with the bytes it carried.
 */
struct rdc_failover_rdma_run {
	/* Set by the engine. */
	const char *host; /* the peer, IPv4 */
	uint16_t port;	  /* the bench server's; 0: RDC_BENCH_DEFAULT_PORT */
	char device[72];  /* "rxeb/1": the RDMA port whose netdev is the bond */
	uint32_t size;	  /* bytes per message */
	double duration_s;
	uint64_t interval_ns;
	volatile sig_atomic_t *stop; /* the engine sets it to end the run */
	void (*interval)(struct rdc_failover_rdma_run *run, uint64_t start_ns, uint64_t bytes);
	void *engine;
	/* Set by the runner. */
	bool connected;		   /* the data moved (the QP reached RTS and traffic started) */
	int status;		   /* the connection's: 0, or -errno when it failed */
	uint64_t failed_ns;	   /* CLOCK_MONOTONIC of the failure, 0 none */
	uint64_t longest_stall_ns; /* longest time without a completion */
	/* The failed completion in words ("transport retry ..."): a bench error record's message. */
	char error[RDC_ERR_MSG_LEN];
};

/* 0 when the run went through or failed as measured; -errno (with @err) when it could not start. */
typedef int (*rdc_failover_rdma_fn)(struct rdc_failover_rdma_run *run, struct rdc_err *err);

struct rdc_failover_opts {
	const char *bond;
	const char *member;    /* take this member down and restore it; NULL: wait mode */
	double wait_s;	       /* wait mode: how long to wait for a failover by itself */
	const char *peer;      /* IPv4 to probe (and the bench server's host) */
	unsigned int probe_hz; /* 0: RDC_FAILOVER_DEFAULT_HZ */
	volatile sig_atomic_t *interrupted; /* SIGINT: end the measurement cleanly, report it */
	bool rdma;			    /* also an RDMA stream when possible */
	uint16_t bench_port;		    /* 0: the bench default */
	rdc_failover_rdma_fn rdma_run;	    /* required for rdma: see above */
	/* Optional: the engine says where it is ("ready": cause the failure now, in wait mode). */
	void (*progress)(void *arg, const char *phase, double t_s);
	void *progress_arg;
};

/* What happened, as the timeline shows it (rdc_failover_what_name() spells it). */
enum rdc_failover_what {
	RDC_FO_FAULT_INJECTED, /* we set the member admin down */
	RDC_FO_RESTORED,       /* we set it back up */
	RDC_FO_ADMIN_DOWN,
	RDC_FO_ADMIN_UP,
	RDC_FO_CARRIER_LOST,
	RDC_FO_CARRIER_BACK,
	RDC_FO_MII_STATUS,	/* value: "up", "going_down", "down", "going_back" */
	RDC_FO_STATE_ACTIVE,	/* the member became active */
	RDC_FO_STATE_BACKUP,	/* the member became backup */
	RDC_FO_ACTIVE_MEMBER,	/* the bond's: value is the new active member, "" none */
	RDC_FO_FAILOVER_NOTICE, /* the bond's IFLA_EVENT_BONDING_FAILOVER */
	RDC_FO_AGGREGATOR_LEFT, /* 802.3ad: the member stopped distributing / left the aggregator */
	RDC_FO_AGGREGATOR_JOINED, /* 802.3ad: it distributes in the active aggregator again */
	RDC_FO_MEMBER_ADDED,
	RDC_FO_MEMBER_REMOVED,
	RDC_FO_RDMA_FAILED,    /* value: the completion status */
	RDC_FO_RDMA_CONNECTED, /* a new RDMA connection carried traffic */
	RDC_FO_WHAT_COUNT,
};

const char *rdc_failover_what_name(enum rdc_failover_what what);

struct rdc_failover_event {
	double t_s; /* from t0 */
	char netdev[IF_NAMESIZE];
	enum rdc_failover_what what;
	char value[64];
};

/* One gap between two answered probes, by their send times. */
struct rdc_failover_span {
	uint64_t start_ns, end_ns; /* the answered probes around it (or the ends: open_*) */
	uint64_t lost;		   /* probes lost inside it */
	bool open_start, open_end; /* no answer before / after it: the outage ran past the ends */
	/*
	 * Probes sent and lost from the first up to the one that closed the span:
	 * the stream's counts minus these are what came after it (a bond that
	 * keeps losing once traffic is back has not really failed over).
	 */
	uint64_t sent_through, lost_through;
};

/*
 * The probe stream's gaps, built probe by probe in send order (each probe
 * once its reply came or its timeout passed) with rdc_failover_gap_add().
 * Every gap with lost probes is kept (the first and the last
 * RDC_FAILOVER_MAX_SPANS: a bond that loses every other probe after the
 * switch makes thousands, and the outage is among the first after the
 * fault), and the longest of all: one with lost probes beats any without (a
 * pause of the sender is the measurement's resolution, not an outage).
 */
#define RDC_FAILOVER_MAX_SPANS 64

struct rdc_failover_gap {
	uint64_t sent, received;
	uint64_t first_ns, last_ns; /* send times of the first and last probe */
	uint64_t last_ok_ns;	    /* send time of the last answered probe, 0 none yet */
	uint64_t run_lost;	    /* lost since then */
	uint64_t max_send_pause_ns; /* longest time between two sends: the resolution achieved */
	bool found;		    /* @longest is set (at least two probes, or a loss) */
	struct rdc_failover_span longest;
	uint64_t nspans; /* gaps with lost probes, all of them; spans[] holds the last ones */
	struct rdc_failover_span spans[RDC_FAILOVER_MAX_SPANS];
	struct rdc_failover_span first_spans[RDC_FAILOVER_MAX_SPANS]; /* the first ones */
};

void rdc_failover_gap_init(struct rdc_failover_gap *g);
/* One probe, sent at @sent_ns (CLOCK_MONOTONIC), in send order; @answered within the timeout. */
void rdc_failover_gap_add(struct rdc_failover_gap *g, uint64_t sent_ns, bool answered);
/* After the last probe: a loss that was still running becomes an open-ended gap. */
void rdc_failover_gap_finish(struct rdc_failover_gap *g);
/* Probes @g sent after the span @sp closed, and how many of them were lost (0, 0: open end). */
void rdc_failover_after_span(const struct rdc_failover_gap *g, const struct rdc_failover_span *sp,
			     uint64_t *sent, uint64_t *lost);
/*
 * The outage a fault at @fault_ns caused: the first gap with lost probes
 * that ends after it and starts before @until_ns (loss elsewhere is noise:
 * a busy VM, a slow start).  False when there is none.
 */
bool rdc_failover_gap_pick(const struct rdc_failover_gap *g, uint64_t fault_ns, uint64_t until_ns,
			   struct rdc_failover_span *out);

struct rdc_failover_probe_report {
	bool ran;
	char reason[160]; /* why not, when it did not */
	char method[8];	  /* "dgram" (ping socket) or "raw" */
	unsigned int hz;
	uint64_t sent, received, lost, send_errors;
	/*
	 * The outage: the lossy gap the fault caused (rdc_failover_gap_pick(), up
	 * to the restore in member mode), or without a fault the longest gap.
	 */
	double gap_start_s, gap_end_s, gap_ms; /* NAN: no gap found */
	uint64_t gap_lost;
	bool gap_open_start, gap_open_end;
	double recovered_s; /* gap end - fault: traffic flows again this long after the fault */
	double max_send_pause_ms; /* the achieved resolution: longest pause between two sends */
	double rtt_max_ms;
	/*
	 * After the outage (to the restore in member mode): probes sent and lost
	 * once traffic flowed again (@after_known: an outage was found and
	 * closed).  A bond that still sends over the dead member (balance-rr or
	 * xor on either end) shows here, not in the outage.
	 */
	bool after_known;
	uint64_t after_sent, after_lost;
	/* Member mode: the longest gap after the restore (a fail-back moves traffic again). */
	double failback_gap_ms;
	uint64_t failback_gap_lost;
};

struct rdc_failover_rdma_report {
	bool ran; /* a stream was set up and carried traffic before the fault */
	/* Why not, or what cut it short: our words around one error message, whole. */
	char reason[RDC_ERR_MSG_LEN + 128];
	char device[72];    /* "rxeb/1" */
	bool survived;	    /* the first connection carried traffic after the fault, never failed */
	double failed_s;    /* when it failed, NAN: it did not */
	char wc_status[96]; /* its completion status ("local QP operation error") */
	char error[RDC_ERR_MSG_LEN]; /* the whole failure as the bench engine said it */
	double resumed_s; /* survived: first interval with bytes after the stall, NAN: none seen */
	double reconnected_s; /* a new connection's first interval with bytes, NAN: none */
	double stall_ms;      /* longest time without a completion on the first connection */
	unsigned int connections;
	uint64_t bytes;
};

struct rdc_failover_report {
	char bond[IF_NAMESIZE];
	int mode; /* enum rdc_bond_mode, -1 unknown */
	int64_t miimon_ms, updelay_ms, downdelay_ms, arp_interval_ms;
	char primary[IF_NAMESIZE];
	bool member_mode;	  /* we took a member down; else we waited */
	char member[IF_NAMESIZE]; /* the member that failed: the given one, or the one seen */
	uint64_t t0_ns;		  /* CLOCK_MONOTONIC of the start: every *_s time is from it */
	double duration_s;
	char active_before[IF_NAMESIZE], active_after[IF_NAMESIZE], active_final[IF_NAMESIZE];
	bool failover; /* the bond failed over (see rdc_failover_derive()) */
	bool interrupted;
	/* Times from t0, NAN unknown.  detect_s and react_s are durations. */
	double fault_s;
	char fault_note[128];		/* wait mode: when the fault's time is only a bound, why */
	double detected_at_s, detect_s; /* fault -> the bond marks the member down */
	double reacted_at_s, react_s;	/* detection -> a new active member / the member leaves */
	char react_reason[96];		/* why react_s is unknown, where it is */
	double restore_s;		/* member mode: when we set it up again */
	double member_back_s;		/* its MII status is up again */
	double failback_s;		/* the bond made it active again (primary) */
	struct rdc_failover_probe_report probe;
	struct rdc_failover_rdma_report rdma;
	size_t nevents;
	unsigned int dropped_events; /* past RDC_FAILOVER_MAX_EVENTS */
	unsigned int event_overruns; /* events dropped by the kernel or unreadable: holes */
	struct rdc_failover_event events[RDC_FAILOVER_MAX_EVENTS];
};

/*
 * Measure one failover of @o->bond:
 *
 *   member mode  record, set @o->member admin down, wait until the bond
 *                reacted (5 s + miimon + downdelay at most), keep measuring
 *                while traffic settles, set it up again and wait for it to
 *                come back (and for a fail-back to a primary)
 *   wait mode    touch nothing; measure until a failover happens or
 *                @o->wait_s pass (-ETIMEDOUT "no failover within N s", with
 *                the report filled as far as it goes)
 *
 * Traffic: ICMP echo to @o->peer at probe_hz over the bond, and with
 * @o->rdma an RDMA stream over the bond's RDMA device.  @r is filled in
 * either case; -EINTR when @o->interrupted ended it early (r->interrupted).
 * Needs the live kernel (events cannot be replayed): -EOPNOTSUPP otherwise.
 */
/*
 * Loss after the outage that says the failover did not work: more than
 * RDC_FAILOVER_LOSSY_AFTER_PCT of the probes after it, and more than
 * RDC_FAILOVER_LOSSY_AFTER_MIN of them (one late reply in a busy VM is not it).
 */
#define RDC_FAILOVER_LOSSY_AFTER_PCT 1.0
#define RDC_FAILOVER_LOSSY_AFTER_MIN 2
bool rdc_failover_lossy_after(const struct rdc_failover_probe_report *pr);

int rdc_bond_failover_run(const struct rdc_failover_opts *o, struct rdc_failover_report *r,
			  struct rdc_err *err);

/*
 * From r->events, r->member, r->mode and r->fault_s: failover, detected_at_s,
 * detect_s, reacted_at_s, react_s (react_reason), member_back_s, failback_s,
 * and in wait mode fault_s (fault_note).
 * With r->member "" (wait mode, not known yet), the member is the one whose
 * failure the timeline shows first.  Pure: the run calls it, and tests do.
 */
void rdc_failover_derive(struct rdc_failover_report *r);
