/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pfc.h - `rdmactl pfc`: shared pieces of show, set and apply */
#pragma once

#include "dcb/plan.h"
#include "dcb/profile.h"
#include "host/dcb.h"
#include "host/ofed_qos.h"
#include "cmd.h"

/* What `pfc set` keywords (and a keyword device of a YAML file) fill. */
struct pfc_set_opts {
	const char *dev;
	struct rdc_dcb_want want;
};

/* What `pfc show` keywords fill: the profile the verdict judges by. */
struct pfc_show_opts {
	struct rdc_dcb_profile profile; /* roce-lossless unless given */
};

/* What `pfc apply` keywords (and a profile device of a YAML file) fill. */
struct pfc_apply_opts {
	const char *dev;
	struct rdc_dcb_profile profile; /* name NULL: no profile given */
	const char *file;
};

int pfc_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts);
int pfc_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		void *opts);
int pfc_apply_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts);
void pfc_set_defaults(void *opts);

/*
 * The netdevs whose DCB NAME means (lib/dcb/target.h: a bond's members, a
 * VLAN's port, the port itself); NULL: every netdev of an RDMA port.
 * Prints errors, returns the exit code; free with rdc_dcb_targets_free().
 */
int pfc_targets(struct rdc_ctx *ctx, const char *name, struct rdc_dcb_targets *ts);
/* The same, quietly: 0, or -errno with @err set (ENODEV: no such netdev or RDMA device). */
int pfc_targets_of(const char *name, struct rdc_dcb_targets *ts, struct rdc_err *err);
/* One netdev's planned change: pfc set and apply write a list of them, all or none. */
struct pfc_job {
	struct rdc_dcb_target t;
	struct rdc_dcb_plan *plan;
	unsigned int line; /* the device's line in the file, 0 on the command line */
};

struct pfc_jobs {
	size_t count;
	struct pfc_job *items;
	/*
	 * `apply -f FILE dev NETDEV`: only these netdevs are planned; a file
	 * device that is not on this host, or none of whose netdevs is one of
	 * them, is passed over.  NULL: every device of the file.
	 */
	const struct rdc_dcb_targets *only;
	const char *only_name, *file; /* as given, for the text of a run that found nothing */
};

/*
 * Resolve @dev (a bond: every member) and plan each netdev with @prof, or
 * @want when @prof is NULL; appends to @jobs.  Prints errors, returns the
 * exit code; nothing is written.
 */
int pfc_jobs_add(struct rdc_ctx *ctx, const char *dev, const struct rdc_dcb_profile *prof,
		 const struct rdc_dcb_want *want, struct pfc_jobs *jobs, unsigned int line);
/*
 * With @rc 0 (everything planned): write every plan in order (on a failure
 * or signal undo the written ones, newest first), then print the pfc-change
 * document; always free the jobs.  Returns the exit code.
 */
int pfc_jobs_finish(struct rdc_ctx *ctx, struct pfc_jobs *jobs, int rc);

/* Cross-keyword checks of a set want (trust pcp with dscp-prio); prints, returns exit code. */
int pfc_set_check(struct rdc_ctx *ctx, const struct rdc_args *args, const struct pfc_set_opts *so);
/* Read the device and plan the change (allocated into *plan); prints errors, returns exit code. */
int pfc_prepare(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_want *want, struct rdc_dcb_plan **plan);
/*
 * Sections of pfc show, and of pfc set's before and after (the same names
 * and shapes): each is always an object with every key, "source" and
 * "reason" first; a section that could not be read has source "unknown",
 * the reason, and null for every other key.  A known one has reason null.
 */
extern const char pfc_why_no_dcb[], pfc_why_no_ecn[], pfc_why_no_cm[];
/* The keys of each section after source and reason, NULL-terminated. */
extern const char *const pfc_keys_pfc_config[]; /* pfc without its counters (before/after) */
extern const char *const pfc_keys_ets[], *const pfc_keys_maxrate[], *const pfc_keys_buffer[];
extern const char *const pfc_keys_trust[], *const pfc_keys_dscp_prio[];
extern const char *const pfc_keys_ecn[], *const pfc_keys_cnp[];
/* Why dcbnl gave no section: no dcbnl, not in the reply, or (@corrupt) its values out of range. */
const char *pfc_dcb_why(const struct rdc_dcb *d, bool corrupt);
/* An unknown section @key: text "  LABEL unknown (why)" when @label is given. */
void pfc_emit_unknown(struct rdc_out *o, const char *key, const char *label, const char *why,
		      const char *const *keys);
/* A known section's opening: @key, its source and a null reason. */
void pfc_section_open(struct rdc_out *o, const char *key, const char *source);
/* What a netdev trusts, as show says it: MLNX_OFED's file, else upstream mlx5's APP rule. */
const char *pfc_trust(const struct rdc_ofed_qos *q, const struct rdc_dcb *d);
/* The DSCP map as pfc show's dscp_prio.map (an array under @key, ordered by DSCP). */
void pfc_emit_dscp_map(struct rdc_out *o, const char *key, const struct rdc_dcb *d);

/* "NETDEV:" or "NETDEV (BOND, RELATION):"; keys netdev, upper, relation. */
void pfc_emit_target_name(struct rdc_out *o, const struct rdc_dcb_target *t);
/* The report of one device: changed, dry_run, the differences, before and after. */
void pfc_report(struct rdc_ctx *ctx, const struct rdc_dcb_target *t,
		const struct rdc_dcb_plan *plan);
