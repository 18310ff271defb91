/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.h - the host as diag sees it (two samples), the policy, the check table, the result */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/counters.h"
#include "base/err.h"
#include "base/finding.h"
#include "base/issues.h"
#include "bond/bond.h"
#include "bond/check.h"
#include "host/dcb.h"
#include "host/gid.h"
#include "host/ibdev.h"
#include "host/netif.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"

/*
 * Why something could not be read, whole: an error record as
 * rdc_err_describe() says it (its message and detail, whole as the record
 * holds them, its strerror and punctuation).  Never cut: a reason ends where
 * its author ended it, in text and JSON alike.
 */
#define RDC_DIAG_REASON_LEN RDC_ERR_TEXT_LEN

/*
 * Where a value was read (evidence's source), whole: the longest is a
 * counter's "/sys/class/infiniband/" + device (63) + "/ports/" + port (10)
 * + "/hw_counters/" + counter (63) + " x 4" (182 bytes); netdev names are
 * 15 bytes, PCI addresses and the other file names ours.  diag.c checks it.
 */
#define RDC_DIAG_SOURCE_LEN 256

/*
 * diag reads the host once through the models of lib/host, lib/dcb and
 * lib/bond (struct rdc_diag_host, "the facts"), twice for the counters
 * (the two samples, interval_s apart), and then runs every check of the
 * table on those facts.  Checks are pure: they read only the facts and the
 * policy, so a bundle gives the same findings offline as the live host.
 *
 * A check adds findings (base/finding.h) and, where the data it needs is
 * missing, says so with rdc_diag_skip(): a skipped check is never a failure.
 */

/* The thresholds and the fabric's intent; `-f POLICY.yaml` overrides them. */
struct rdc_diag_policy {
	unsigned int roce_prio;	    /* priority RoCE data rides on (3) */
	unsigned int roce_dscp;	    /* DSCP RoCE data is marked with (26) */
	unsigned int cnp_prio;	    /* priority of congestion notifications (6) */
	unsigned int cnp_dscp;	    /* DSCP of CNPs (48) */
	unsigned int cm_tos;	    /* rdma_cm default ToS: (26 << 2) | ECT(0) = 106 */
	double ets_min_bw_pct;	    /* the RoCE TC's ETS share at least (50) */
	double pre_fec_ber_warn;    /* corrected bits / received bits (1e-8) */
	double tx_pause_pct_warn;   /* time spent pausing the peer, per window (10) */
	double tx_pause_pct_fail;   /* (50) */
	double rx_pause_pct_warn;   /* time paused by the peer (10) */
	double link_share_pct_warn; /* one link carries more than this of its group's bytes (90) */
	uint64_t
		link_share_min_bytes; /* below this many bytes in the window, no judgement (1 MiB) */
	uint64_t carrier_changes_warn; /* cumulative carrier changes worth a warning (10) */
	unsigned int qp_timeout;       /* the QP bond failover must fit (14) */
	unsigned int qp_retry_cnt;     /* (7) */
};

/* The defaults above. */
void rdc_diag_policy_init(struct rdc_diag_policy *p);

/* The policy file's keys: "tx-pause-pct-warn" for tx_pause_pct_warn, with their bounds. */
struct rdc_diag_policy_key {
	const char *name;
	size_t offset; /* in struct rdc_diag_policy */
	int kind;      /* unsigned int, uint64_t or double (policy.c) */
	double min, max;
	const char *help;
};
extern const struct rdc_diag_policy_key rdc_diag_policy_keys[];
extern const size_t rdc_diag_npolicy_keys;
/* @k's value in @p as text ("10", "1e-08"). */
void rdc_diag_policy_format(const struct rdc_diag_policy *p, const struct rdc_diag_policy_key *k,
			    char *buf, size_t size);
/* The same as a number. */
double rdc_diag_policy_value(const struct rdc_diag_policy *p, const struct rdc_diag_policy_key *k);
/*
 * Override @policy from a YAML file ("-" = stdin) of `key: number` lines:
 * unknown keys, a key twice, a value out of bounds are -EINVAL naming the
 * line, and leave @policy as it was.
 */
int rdc_diag_policy_load(const char *path, struct rdc_diag_policy *policy, struct rdc_err *err);

/* What the counters said at one moment. */
struct rdc_diag_sample {
	double t_s;		       /* CLOCK_MONOTONIC seconds when read */
	struct rdc_counter_set ib;     /* ports/N/counters (group "ib") */
	struct rdc_counter_set hw;     /* ports/N/hw_counters (group "hw") */
	struct rdc_counter_set netdev; /* statistics/ and ethtool: "netdev", "driver", ... */
	int64_t carrier_changes;       /* -1 unknown */
	int ib_rc, hw_rc, netdev_rc;   /* 0 or -errno: why a set is empty */
};

/*
 * One physical port and everything read about it: an RDMA port and its own
 * netdev, or under RoCE LAG one entry per member of the bond, each with the
 * member as port.netdev (DCB, carrier, ethtool counters are per member) and
 * the RDMA port's facts repeated (checks of those look at the first member
 * only: rdc_diag_port_rdma()).
 */
struct rdc_diag_port {
	struct rdc_port port; /* device, port, state, netdev, PCI (host/ibdev) */
	char label[96];	      /* "mlx5_0/1 ens1f0np0": how findings name it */
	/* The bond the netdev is a member of (RoCE LAG or not), "" when none. */
	char bond[IF_NAMESIZE];
	/* The netdev whose addresses the RDMA port serves (its GIDs'): the bond of a member. */
	char ip_netdev[IF_NAMESIZE];
	bool lag_secondary; /* a RoCE LAG port's second (third...) member */
	size_t nsamples;    /* 1 with interval 0, else 2 */
	struct rdc_diag_sample s[2];
	struct rdc_netif netif; /* carrier, addresses, sysctls, pause, FEC (host/netif) */
	int dcb_rc;		/* 0, or -errno with dcb_reason */
	char dcb_reason[RDC_DIAG_REASON_LEN];
	struct rdc_dcb dcb;
	struct rdc_ofed_qos ofed;
	struct rdc_rdma_cm_port cm;
	int gid_rc;
	char gid_reason[RDC_DIAG_REASON_LEN];
	struct rdc_gid *gids; /* unreadable slots included (gid->unreadable) */
	size_t ngids;
	/*
	 * Files that exist but could not be read or parsed: GID slots, counters
	 * (each sample's).  A check that needs one of them skips and says so;
	 * the caller reports them, one line each (base/issues.h).
	 */
	struct rdc_issues issues;
};

struct rdc_diag_host {
	struct rdc_diag_policy policy;
	double interval_s; /* 0: one sample, cumulative counters only */
	size_t nports;
	struct rdc_diag_port *ports;
	int bonds_rc;
	char bonds_reason[RDC_DIAG_REASON_LEN];
	struct rdc_bond_list bonds;
	struct rdc_bond_facts *bond_facts; /* bond_facts[i] for bonds.bonds[i] */
	struct rdc_host_facts
		facts; /* kernel release, modules, ARP sysctls of "all" (host/netif) */
};

/* Whether a check of the RDMA port itself (counters, GIDs, state) looks at @p: once per RDMA port. */
static inline bool rdc_diag_port_rdma(const struct rdc_diag_port *p)
{
	return !p->lag_secondary;
}

/* Which ports to read: NULL or empty = every RDMA port; else device or netdev names. */
struct rdc_diag_select {
	size_t count;
	const char *const *names;
};

/*
 * Read the facts and the first sample, wait @interval_s (0: not at all, no
 * second sample), read the second.  @stop, when set during the wait, ends
 * it early with -EINTR.  A name in @sel that is neither an RDMA device nor
 * the netdev of one is -ENODEV.  What a port lacks is recorded with its
 * reason, not an error.  Free with rdc_diag_host_free().
 */
int rdc_diag_host_read(struct rdc_diag_host *h, const struct rdc_diag_select *sel,
		       double interval_s, volatile sig_atomic_t *stop, struct rdc_err *err);
void rdc_diag_host_free(struct rdc_diag_host *h);

/* ---- what the checks produce ------------------------------------------ */

#define RDC_DIAG_SKIPS_MAX 256

struct rdc_diag_skip {
	char id[48];
	char object[96]; /* the port's label ("mlx5_0/1 ens1f0np0"), or "" for the host */
	/* The same as a finding says it: "" / 0 where it is not about one. */
	char device[64];
	unsigned int port;
	char netdev[16];
	char bond[16];
	/*
	 * A check's words (under 256 bytes) around at most one reason of
	 * RDC_DIAG_REASON_LEN: whole.  Fixed-size because the result is a
	 * value its callers free as one block (rdc_findings_clear() and free()).
	 */
	char reason[RDC_DIAG_REASON_LEN + 256];
};

struct rdc_diag_result {
	struct rdc_findings findings;
	/* The id of the check that found findings.items[i] (bond.check's have ids of their own). */
	const char *check[RDC_FINDINGS_MAX];
	size_t nran; /* checks run (skipped ones included) */
	size_t nskipped;
	struct rdc_diag_skip skipped[RDC_DIAG_SKIPS_MAX];
	size_t skips_dropped;
};

/* ---- the check table --------------------------------------------------- */

struct rdc_diag_check {
	const char *id;	       /* stable: "link.flapping" */
	enum rdc_severity sev; /* the worst it reports */
	const char *title;     /* what it looks for, one line */
	const char *reads;     /* what it reads: "ports/N/state, phys_state" */
	const char *threshold; /* the default rule: "any", "> 10% of the window" */
	void (*run)(const struct rdc_diag_host *h, const struct rdc_diag_check *c,
		    struct rdc_diag_result *r);
};

struct rdc_diag_family {
	const char *name; /* "link", "pfc", ... */
	const struct rdc_diag_check *checks;
	size_t count;
};

/* Every family, in the order diag runs and lists them. */
extern const struct rdc_diag_family *const rdc_diag_families[];
extern const size_t rdc_diag_nfamilies;

/* The check with @id, or NULL.  A family name matches all of its checks (see run). */
const struct rdc_diag_check *rdc_diag_check_find(const char *id);
/* A family by name, or NULL. */
const struct rdc_diag_family *rdc_diag_family_find(const char *name);

/*
 * Run the checks on @h into @r (initialised here).  @only and @skip list
 * check ids or family names; @only empty = all.  Unknown names are -EINVAL.
 */
int rdc_diag_run(const struct rdc_diag_host *h, const char *const *only, size_t nonly,
		 const char *const *skip, size_t nskip, struct rdc_diag_result *r,
		 struct rdc_err *err);

/* ---- helpers for the checks ------------------------------------------- */

/*
 * A finding of check @c about port @p (NULL: the host), with the port's
 * device, port and netdev filled in.  Same NULL rules as rdc_findings_add().
 */
struct rdc_finding *rdc_diag_add(struct rdc_diag_result *r, const struct rdc_diag_check *c,
				 const struct rdc_diag_port *p, enum rdc_severity sev,
				 const char *title_fmt, ...) RDC_PRINTF(5, 6);
/* Same for a finding about a bond (object = the bond's name). */
struct rdc_finding *rdc_diag_add_bond(struct rdc_diag_result *r, const struct rdc_diag_check *c,
				      const char *bond, enum rdc_severity sev,
				      const char *title_fmt, ...) RDC_PRINTF(5, 6);
/* Check @c could not judge @p (NULL: the host): why. */
void rdc_diag_skip(struct rdc_diag_result *r, const struct rdc_diag_check *c,
		   const struct rdc_diag_port *p, const char *reason_fmt, ...) RDC_PRINTF(4, 5);
/* Check @c could not judge bond @bond: why. */
void rdc_diag_skip_bond(struct rdc_diag_result *r, const struct rdc_diag_check *c, const char *bond,
			const char *reason_fmt, ...) RDC_PRINTF(4, 5);

/* Which counter set of a sample. */
enum rdc_diag_set {
	RDC_DIAG_IB,
	RDC_DIAG_HW,
	RDC_DIAG_NETDEV,
};

/*
 * A counter's value in the last sample (any group of that set): 0, or
 * -ENOENT when the port has no such counter.
 */
int rdc_diag_counter(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		     uint64_t *value);
/*
 * Its change between the two samples: 0, -ENOENT (no such counter),
 * -ENODATA (one sample only: interval 0).  A counter that went backwards
 * (reset, wrapped) reads as its new value.
 */
int rdc_diag_delta(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		   uint64_t *delta);
/* The window in seconds (0 with one sample). */
double rdc_diag_window_s(const struct rdc_diag_port *p);
/*
 * @f (may be NULL) was judged on @p's counters: with one sample, their
 * totals since boot or reset (rdc_finding_since_reset); with two, a window.
 */
void rdc_diag_counted(struct rdc_finding *f, const struct rdc_diag_port *p);
/* Where a counter of @set is read, for evidence: "/sys/class/infiniband/D/ports/N/hw_counters/NAME". */
void rdc_diag_counter_source(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
			     char *buf, size_t size);
/* The port's netdev name, or NULL when it has none (an InfiniBand port). */
const char *rdc_diag_netdev(const struct rdc_diag_port *p);
/* The netdev whose addresses the port serves: its bond's for a member, else its own; NULL without one. */
const char *rdc_diag_ip_netdev(const struct rdc_diag_port *p);
/*
 * Append printf text to @buf (a C string of @size bytes), cutting what does
 * not fit: only for text whose bound is known (a list of the 8 priorities).
 */
void rdc_diag_append(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);
/*
 * Append printf text to the string *@s owns (NULL is the empty string), whole:
 * titles, reasons and lists of names, whose length the host decides.  The
 * caller frees *@s.  Without memory *@s keeps what it held (the finding that
 * would show it cannot be added either).
 */
void rdc_diag_cat(char **s, const char *fmt, ...) RDC_PRINTF(2, 3);
/* *@s of rdc_diag_cat(), or "" while it is NULL. */
static inline const char *rdc_diag_str(const char *s)
{
	return s ? s : "";
}
/* The port whose netdev is @netdev, or NULL. */
const struct rdc_diag_port *rdc_diag_port_of_netdev(const struct rdc_diag_host *h,
						    const char *netdev);
/* The port is RoCE (link layer Ethernet with a netdev). */
bool rdc_diag_port_roce(const struct rdc_diag_port *p);
