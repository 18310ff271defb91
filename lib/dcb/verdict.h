/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdict.h - how a netdev's QoS compares with a profile: the differences, as data */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcb/plan.h"
#include "dcb/profile.h"
#include "host/dcb.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"

/*
 * Every value a want can name: 8 PFC priorities and the delay, 8 prio-tc,
 * 3 x 8 per TC (tsa, bw, maxrate), 8 + 8 buffers, trust, 64 DSCPs, 16 ECN
 * switches, the CNP's DSCP and priority, 2 per RDMA port.
 */
#define RDC_VERDICT_MAX_DIFFS 192

/* A value as read or wanted: null (not read, no entry), on/off, a number or a word. */
enum rdc_vval_type { RDC_VVAL_NULL, RDC_VVAL_BOOL, RDC_VVAL_UINT, RDC_VVAL_STR };

struct rdc_vval {
	enum rdc_vval_type type;
	bool b;
	uint64_t u;
	char s[24];
};

/*
 * One setting that differs, named twice.  In pfc set's grammar (text):
 * @keyword is the keyword ("prio-pfc", "trust", "dscp-prio", "tc-bw",
 * "ecn-np", "roce-tos"), @key the entry of a mapping keyword ("3", "26",
 * "mlx5_0/1"; "" for a plain one such as trust).  As pfc show's JSON names
 * it (one value per key): @path the key path, array levels left out
 * ("pfc.prios.enabled", "ets.tc_bw_pct", "dscp_prio.map.prio",
 * "roce.default_roce_tos"); @index the priority, TC, buffer or DSCP of the
 * entry, -1 for a single value; @device and @port the RDMA port of a
 * roce.* value ("" and 0 otherwise).
 */
struct rdc_dcb_difference {
	char keyword[16];
	char key[72];
	const char *path; /* static */
	int index;
	char device[64];
	unsigned int port;
	struct rdc_vval have, want;
};

enum rdc_verdict_result {
	RDC_VERDICT_MATCHES,
	RDC_VERDICT_DIFFERS,
	RDC_VERDICT_UNKNOWN, /* DCB could not be read: @reason says why */
};

struct rdc_dcb_verdict {
	struct rdc_dcb_profile profile; /* name NULL: compared with a bare want */
	enum rdc_verdict_result result;
	const char *reason; /* static text, RDC_VERDICT_UNKNOWN only */
	size_t ndiffs;
	struct rdc_dcb_difference diffs[RDC_VERDICT_MAX_DIFFS];
};

/* The state of one netdev as read: what a verdict compares. */
struct rdc_dcb_observed {
	const struct rdc_dcb *dcb;	 /* NULL or !supported: DCB unknown */
	const struct rdc_ofed_qos *ofed; /* NULL: no MLNX_OFED files */
	size_t nports;
	struct {
		const char *device;
		unsigned int port;
		struct rdc_rdma_cm_port cm;
	} ports[RDC_DCB_TARGET_PORTS];
};

/*
 * Compare @o with what @w asks for, value by value, as `pfc set` would
 * plan it: only what @w gives counts; bandwidth only of TCs that are (or
 * will be) ETS TCs; the CNP's DSCP and priority only where the driver has
 * the files.  @v->profile is left as it is.  Differences come in a fixed
 * order (PFC, ETS, rate limits, buffers, trust, DSCP map, ECN, CNP,
 * RDMA-CM), entries of one keyword ascending.
 */
void rdc_dcb_verdict_compare(const struct rdc_dcb_want *w, const struct rdc_dcb_observed *o,
			     struct rdc_dcb_verdict *v);

/*
 * The verdict of @t against profile @p, for @dcb as already read (NULL
 * when the driver has no dcbnl): reads MLNX_OFED's sysfs and the RDMA-CM
 * configfs of @t's ports through the models, nothing through dcbnl again.
 */
void rdc_dcb_verdict_of(const struct rdc_dcb_profile *p, const struct rdc_dcb_target *t,
			const struct rdc_dcb *dcb, struct rdc_dcb_verdict *v);

/* "keyword key" (or "keyword"): the difference in pfc set's words ("prio-pfc 3", "trust"). */
void rdc_dcb_difference_what(const struct rdc_dcb_difference *d, char *buf, size_t size);

/*
 * The DSCP entries (selector 5) of @apps in dcb's grammar, sorted by DSCP
 * (then priority), with consecutive DSCPs that map to the same priority
 * collapsed into a range; other selectors are left out:
 *
 *   0:0 1:0 ... 7:0 8:1 ... 15:1 26:3 48:6  ->  "0-7:0 8-15:1 26:3 48:6"
 *   none                                    ->  ""
 *
 * Truncates to @size like snprintf and returns the length it needed.
 */
size_t rdc_dcb_dscp_ranges(const struct dcb_app *apps, size_t n, char *buf, size_t size);
/* Sort the DSCP entries of @apps (up to RDC_DCB_MAX_APPS) into @out by DSCP; returns how many. */
size_t rdc_dcb_dscp_sorted(const struct dcb_app *apps, size_t n, struct dcb_app *out);
