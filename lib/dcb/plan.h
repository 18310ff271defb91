/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - desired DCB state, the difference to the current one, and applying it */
#pragma once

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/change.h"
#include "base/err.h"
#include "dcb/target.h"
#include "host/dcb.h"

#define RDC_DCB_TCS 8
#define RDC_DSCP_COUNT 64
#define RDC_PLAN_MAX_FILES 16

/* What a DSCP of rdc_dcb_want.dscp_prio should map to besides a priority. */
#define RDC_DCB_DSCP_LEAVE (-1) /* whatever it maps to now */
#define RDC_DCB_DSCP_NONE (-2)	/* nothing: its APP entries deleted (dcb app del) */

/* What the user asked for; every field has a "given" flag, the rest is left as it is. */
struct rdc_dcb_want {
	bool pfc_given[RDC_DCB_PRIOS];
	bool pfc_on[RDC_DCB_PRIOS];
	bool delay_given;
	uint16_t delay; /* bit times */
	bool prio_tc_given[RDC_DCB_PRIOS];
	uint8_t prio_tc[RDC_DCB_PRIOS];
	bool tsa_given[RDC_DCB_TCS];
	uint8_t tsa[RDC_DCB_TCS]; /* IEEE_8021QAZ_TSA_* */
	bool bw_given[RDC_DCB_TCS];
	uint8_t bw[RDC_DCB_TCS]; /* percent */
	bool maxrate_given[RDC_DCB_TCS];
	uint64_t maxrate_kbps[RDC_DCB_TCS];
	bool prio_buffer_given[RDC_DCB_PRIOS];
	uint8_t prio_buffer[RDC_DCB_PRIOS];
	bool buffer_size_given[DCBX_MAX_BUFFERS];
	uint32_t buffer_size[DCBX_MAX_BUFFERS]; /* bytes */
	/* RDC_DCB_DSCP_LEAVE, RDC_DCB_DSCP_NONE, else the priority DSCP must map to */
	int dscp_prio[RDC_DSCP_COUNT];
	int trust; /* -1: leave, 0: pcp, 1: dscp */
	/* Beside dcbnl: RDMA-CM defaults (configfs) and ECN/CNP (MLNX_OFED sysfs). */
	int roce_tos;  /* -1: leave; 0-255 */
	int roce_mode; /* -1: leave, 1: RoCE v1, 2: RoCE v2 */
	bool ecn_given[RDC_DCB_PRIOS];
	bool ecn_on[RDC_DCB_PRIOS];
	int cnp_dscp; /* -1: leave; written only where the driver has the file */
	int cnp_prio;
};

/* A sysfs/configfs attribute to change alongside (RoCE ToS, ECN). */
struct rdc_file_change {
	char path[256];
	char before[64];
	char after[64];
};

struct rdc_dcb_plan {
	struct rdc_dcb before;
	struct rdc_dcb after;		/* what the device should read when done */
	bool pfc, ets, maxrate, buffer; /* which attributes differ */
	size_t nadd, ndel;
	struct dcb_app add[RDC_DSCP_COUNT];
	struct dcb_app del[RDC_DCB_MAX_APPS];
	size_t nfiles;
	struct rdc_file_change files[RDC_PLAN_MAX_FILES];
	/* RDMA devices whose RDMA-CM configfs object the write phase creates first. */
	size_t ncreate;
	char create[RDC_DCB_TARGET_PORTS][64];
};

void rdc_dcb_want_init(struct rdc_dcb_want *want);
/* Whether @want changes anything dcbnl holds (as opposed to RDMA-CM or ECN files only). */
bool rdc_dcb_want_touches_dcb(const struct rdc_dcb_want *want);

/*
 * The difference between @before and @want, validated as the kernel and
 * mlx5 would (priorities < ets_cap TCs, ETS bandwidths summing to 100,
 * buffer sizes within total_size, at most pfc_cap PFC priorities).
 */
int rdc_dcb_plan_make(const struct rdc_dcb *before, const struct rdc_dcb_want *want,
		      struct rdc_dcb_plan *plan, struct rdc_err *err);
/*
 * Read @t's DCB state and plan @want on it: the dcbnl difference
 * (rdc_dcb_plan_make) and the RDMA-CM and ECN files.  Nothing is written,
 * nothing created.  Without dcbnl (rxe on virtio) a want that touches only
 * files is still planned.  -EINVAL: the values combine to something the
 * standard or the NIC does not allow (err->msg says what).
 */
int rdc_dcb_plan_target(const struct rdc_dcb_target *t, const struct rdc_dcb_want *want,
			struct rdc_dcb_plan *plan, struct rdc_err *err);
/* Add a file change to the plan, reading its current value; unchanged values are not added. */
int rdc_dcb_plan_file(struct rdc_dcb_plan *plan, const char *path, const char *value,
		      struct rdc_err *err);
bool rdc_dcb_plan_empty(const struct rdc_dcb_plan *plan);

/*
 * Write only what differs, read back and compare with plan->after; on any
 * failure restore everything already written, in reverse order.
 */
int rdc_dcb_plan_apply(const char *ifname, const struct rdc_dcb_plan *plan, struct rdc_err *err);
/* Put back plan->before after a successful apply (another device of the same apply failed). */
int rdc_dcb_plan_revert(const char *ifname, const struct rdc_dcb_plan *plan, struct rdc_err *err);

/* A DCB plan as one change of the engine (base/change.h): @plan is a struct rdc_dcb_change. */
struct rdc_dcb_change {
	const char *ifname;
	const struct rdc_dcb_plan *plan;
};
extern const struct rdc_change_ops rdc_dcb_change_ops;
