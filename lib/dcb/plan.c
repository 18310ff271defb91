// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - read, diff, write only what differs, verify, and roll back */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dcb/plan.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"
#include "seam/fs.h"

static bool any(const bool *given, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (given[i])
			return true;
	return false;
}

bool rdc_dcb_want_touches_dcb(const struct rdc_dcb_want *w)
{
	bool dscp = false;

	for (int d = 0; d < RDC_DSCP_COUNT; d++)
		dscp |= w->dscp_prio[d] != RDC_DCB_DSCP_LEAVE;
	return dscp || w->trust >= 0 || w->delay_given || any(w->pfc_given, RDC_DCB_PRIOS) ||
	       any(w->prio_tc_given, RDC_DCB_PRIOS) || any(w->tsa_given, RDC_DCB_TCS) ||
	       any(w->bw_given, RDC_DCB_TCS) || any(w->maxrate_given, RDC_DCB_TCS) ||
	       any(w->prio_buffer_given, RDC_DCB_PRIOS) ||
	       any(w->buffer_size_given, DCBX_MAX_BUFFERS);
}

void rdc_dcb_want_init(struct rdc_dcb_want *want)
{
	memset(want, 0, sizeof(*want));
	for (int d = 0; d < RDC_DSCP_COUNT; d++)
		want->dscp_prio[d] = RDC_DCB_DSCP_LEAVE;
	want->trust = -1;
	want->roce_tos = want->roce_mode = want->cnp_dscp = want->cnp_prio = -1;
}

static int plan_pfc(const struct rdc_dcb_want *w, struct rdc_dcb_plan *p, struct rdc_err *err)
{
	struct ieee_pfc *pfc = &p->after.pfc;
	int enabled = 0;

	if (!any(w->pfc_given, RDC_DCB_PRIOS) && !w->delay_given)
		return 0;
	if (!p->before.have_pfc)
		return rdc_err_set(err, EOPNOTSUPP, "the driver reports no PFC state");
	for (int i = 0; i < RDC_DCB_PRIOS; i++) {
		if (w->pfc_given[i])
			pfc->pfc_en =
				w->pfc_on[i] ? pfc->pfc_en | (1U << i) : pfc->pfc_en & ~(1U << i);
		enabled += !!(pfc->pfc_en & (1U << i));
	}
	if (w->delay_given)
		pfc->delay = w->delay;
	if (pfc->pfc_cap && enabled > pfc->pfc_cap)
		return rdc_err_set_usage(err, "PFC on %d priorities, the NIC allows %u", enabled,
					 pfc->pfc_cap);
	p->pfc = pfc->pfc_en != p->before.pfc.pfc_en || pfc->delay != p->before.pfc.delay;
	return 0;
}

/* Same mapping, TSAs and ETS shares; bandwidth of non-ETS TCs is not compared (see below). */
static bool ets_equal(const struct ieee_ets *a, const struct ieee_ets *b)
{
	if (memcmp(a->prio_tc, b->prio_tc, sizeof(a->prio_tc)) ||
	    memcmp(a->tc_tsa, b->tc_tsa, sizeof(a->tc_tsa)))
		return false;
	for (int t = 0; t < RDC_DCB_TCS; t++)
		if (b->tc_tsa[t] == IEEE_8021QAZ_TSA_ETS && a->tc_tx_bw[t] != b->tc_tx_bw[t])
			return false;
	return true;
}

static int plan_ets(const struct rdc_dcb_want *w, struct rdc_dcb_plan *p, struct rdc_err *err)
{
	struct ieee_ets *ets = &p->after.ets;
	unsigned int tcs, sum = 0, ets_tcs = 0;

	if (!any(w->prio_tc_given, RDC_DCB_PRIOS) && !any(w->tsa_given, RDC_DCB_TCS) &&
	    !any(w->bw_given, RDC_DCB_TCS))
		return 0;
	if (!p->before.have_ets)
		return rdc_err_set(err, EOPNOTSUPP, "the driver reports no ETS state");
	tcs = ets->ets_cap ? ets->ets_cap : RDC_DCB_TCS;
	for (int i = 0; i < RDC_DCB_PRIOS; i++) {
		if (w->prio_tc_given[i])
			ets->prio_tc[i] = w->prio_tc[i];
		if (ets->prio_tc[i] >= tcs)
			return rdc_err_set_usage(err, "priority %d to TC %u: the NIC has %u TCs", i,
						 ets->prio_tc[i], tcs);
	}
	for (int t = 0; t < RDC_DCB_TCS; t++) {
		if (w->tsa_given[t])
			ets->tc_tsa[t] = w->tsa[t];
		if (w->bw_given[t])
			ets->tc_tx_bw[t] = w->bw[t];
		if (ets->tc_tsa[t] == IEEE_8021QAZ_TSA_ETS) {
			sum += ets->tc_tx_bw[t];
			ets_tcs++;
		} else if (w->bw_given[t] && w->bw[t]) {
			return rdc_err_set_usage(
				err, "TC %d is not an ETS TC: its bandwidth must be 0", t);
		} else {
			/*
			 * 802.1Qaz gives non-ETS TCs no share; mlx5 reports 100% for
			 * them anyway, so what was read is not sent back.
			 */
			ets->tc_tx_bw[t] = 0;
		}
	}
	/* 802.1Qaz: the ETS classes share 100%. */
	if (ets_tcs && sum != 100)
		return rdc_err_set_usage(err, "ETS TC bandwidths sum to %u%%, not 100%%", sum);
	p->ets = !ets_equal(&p->before.ets, ets);
	return 0;
}

static int plan_maxrate_buffer(const struct rdc_dcb_want *w, struct rdc_dcb_plan *p,
			       struct rdc_err *err)
{
	uint64_t total = 0;

	if (any(w->maxrate_given, RDC_DCB_TCS)) {
		if (!p->before.have_maxrate)
			return rdc_err_set(err, EOPNOTSUPP, "the driver reports no TC rate limits");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			if (w->maxrate_given[t])
				p->after.maxrate.tc_maxrate[t] = w->maxrate_kbps[t];
		p->maxrate =
			memcmp(&p->after.maxrate, &p->before.maxrate, sizeof(p->after.maxrate));
	}
	if (any(w->prio_buffer_given, RDC_DCB_PRIOS) ||
	    any(w->buffer_size_given, DCBX_MAX_BUFFERS)) {
		struct dcbnl_buffer *b = &p->after.buffer;

		if (!p->before.have_buffer)
			return rdc_err_set(err, EOPNOTSUPP,
					   "the driver reports no buffer settings");
		for (int i = 0; i < RDC_DCB_PRIOS; i++)
			if (w->prio_buffer_given[i])
				b->prio2buffer[i] = w->prio_buffer[i];
		for (int i = 0; i < DCBX_MAX_BUFFERS; i++) {
			if (w->buffer_size_given[i])
				b->buffer_size[i] = w->buffer_size[i];
			total += b->buffer_size[i];
		}
		if (b->total_size && total > b->total_size)
			return rdc_err_set_usage(err,
						 "buffer sizes sum to %llu bytes, the port has %u",
						 (unsigned long long)total, b->total_size);
		p->buffer = memcmp(b->prio2buffer, p->before.buffer.prio2buffer,
				   sizeof(b->prio2buffer)) ||
			    memcmp(b->buffer_size, p->before.buffer.buffer_size,
				   sizeof(b->buffer_size));
	}
	return 0;
}

static void plan_del_app(struct rdc_dcb_plan *p, const struct dcb_app *app)
{
	if (p->ndel < RDC_ARRAY_SIZE(p->del))
		p->del[p->ndel++] = *app;
}

/*
 * DSCP entries of the APP table.  A changed mapping deletes the old entry
 * before adding the new one: mlx5 refuses (-ENOENT) to delete an entry whose
 * priority is no longer the one programmed, so `dcb app replace`'s
 * add-then-delete fails there.  On mlx5 the first DSCP entry switches the
 * port to DSCP trust and removing the last switches it back to PCP.
 */
static void plan_apps(const struct rdc_dcb_want *w, struct rdc_dcb_plan *p)
{
	const struct rdc_dcb *b = &p->before;
	size_t remaining = rdc_dcb_dscp_count(b);

	for (size_t i = 0; i < b->napps; i++) {
		const struct dcb_app *a = &b->apps[i];
		bool drop;

		if (a->selector != IEEE_8021QAZ_APP_SEL_DSCP)
			continue;
		drop = w->trust == 0 || (a->protocol < RDC_DSCP_COUNT &&
					 (w->dscp_prio[a->protocol] == RDC_DCB_DSCP_NONE ||
					  (w->dscp_prio[a->protocol] >= 0 &&
					   w->dscp_prio[a->protocol] != a->priority)));
		if (drop) {
			plan_del_app(p, a);
			remaining--;
		}
	}
	for (unsigned int d = 0; d < RDC_DSCP_COUNT && w->trust != 0; d++) {
		bool present = false;

		if (w->dscp_prio[d] < 0)
			continue;
		for (size_t i = 0; i < b->napps; i++)
			present |= b->apps[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
				   b->apps[i].protocol == d &&
				   b->apps[i].priority == w->dscp_prio[d];
		if (present)
			continue;
		p->add[p->nadd++] = (struct dcb_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
						     .priority = (uint8_t)w->dscp_prio[d],
						     .protocol = (uint16_t)d};
	}
	/* DSCP trust without any DSCP entry: the firmware default map, as mlnx_qos does. */
	if (w->trust == 1 && remaining == 0 && p->nadd == 0) {
		for (unsigned int d = 0; d < RDC_DSCP_COUNT; d++)
			p->add[p->nadd++] = (struct dcb_app){.selector = IEEE_8021QAZ_APP_SEL_DSCP,
							     .priority = (uint8_t)(d >> 3),
							     .protocol = (uint16_t)d};
	}
	/* The table as it should read afterwards: before, minus deleted, plus added. */
	p->after.napps = 0;
	for (size_t i = 0; i < b->napps; i++) {
		bool deleted = false;

		for (size_t k = 0; k < p->ndel; k++)
			deleted |= !memcmp(&p->del[k], &b->apps[i], sizeof(b->apps[i]));
		if (!deleted)
			p->after.apps[p->after.napps++] = b->apps[i];
	}
	for (size_t k = 0; k < p->nadd && p->after.napps < RDC_DCB_MAX_APPS; k++)
		p->after.apps[p->after.napps++] = p->add[k];
}

int rdc_dcb_plan_make(const struct rdc_dcb *before, const struct rdc_dcb_want *want,
		      struct rdc_dcb_plan *plan, struct rdc_err *err)
{
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->before = *before;
	plan->after = *before;
	rc = plan_pfc(want, plan, err);
	if (!rc)
		rc = plan_ets(want, plan, err);
	if (!rc)
		rc = plan_maxrate_buffer(want, plan, err);
	if (rc)
		return rc;
	plan_apps(want, plan);
	return 0;
}

int rdc_dcb_plan_file(struct rdc_dcb_plan *plan, const char *path, const char *value,
		      struct rdc_err *err)
{
	struct rdc_file_change *f;
	char cur[64] = "";

	if (rdc_fs_exists("%s", path) && rdc_fs_read(cur, sizeof(cur), err, "%s", path) < 0)
		return -(err ? err->code : EIO);
	if (!strcmp(cur, value))
		return 0;
	if (plan->nfiles >= RDC_PLAN_MAX_FILES)
		return rdc_err_set(err, E2BIG, "too many attribute changes");
	f = &plan->files[plan->nfiles++];
	rdc_strlcpy(f->path, path, sizeof(f->path));
	rdc_strlcpy(f->before, cur, sizeof(f->before));
	rdc_strlcpy(f->after, value, sizeof(f->after));
	return 0;
}

/* The ECN and CNP files of MLNX_OFED's sysfs that @w changes. */
static int plan_ofed_files(const struct rdc_dcb_target *t, const struct rdc_dcb_want *w,
			   struct rdc_dcb_plan *plan, struct rdc_err *err)
{
	char path[256], val[16];
	bool ecn = false;
	int rc = 0;

	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		ecn |= w->ecn_given[p];
	if (ecn && !rdc_ofed_ecn_present(t->netdev)) {
		rdc_err_set(err, EOPNOTSUPP, "cannot set ECN on '%s'", t->netdev);
		rdc_err_detail(err,
			       "the driver exposes no ECN control (MLNX_OFED's "
			       "/sys/class/net/%s/ecn)",
			       t->netdev);
		return -EOPNOTSUPP;
	}
	for (unsigned int p = 0; p < RDC_DCB_PRIOS && !rc; p++) {
		if (!w->ecn_given[p])
			continue;
		for (int side = 0; side < 2 && !rc; side++) {
			rc = rdc_ofed_ecn_path(path, sizeof(path), t->netdev, side, p);
			if (!rc)
				rc = rdc_dcb_plan_file(plan, path, w->ecn_on[p] ? "1" : "0", err);
		}
	}
	/* CNP DSCP and priority: MLNX_OFED sysfs only; elsewhere firmware defaults apply. */
	if (!rc && w->cnp_dscp >= 0 &&
	    !rdc_ofed_cnp_path(path, sizeof(path), t->netdev, "cnp_dscp") &&
	    rdc_fs_exists("%s", path)) {
		snprintf(val, sizeof(val), "%d", w->cnp_dscp);
		rc = rdc_dcb_plan_file(plan, path, val, err);
	}
	if (!rc && w->cnp_prio >= 0 &&
	    !rdc_ofed_cnp_path(path, sizeof(path), t->netdev, "cnp_802p_prio") &&
	    rdc_fs_exists("%s", path)) {
		snprintf(val, sizeof(val), "%d", w->cnp_prio);
		rc = rdc_dcb_plan_file(plan, path, val, err);
	}
	return rc == -ENAMETOOLONG ? rdc_err_set(err, ENAMETOOLONG, "path too long") : rc;
}

/* The RDMA-CM defaults of every RDMA port on the netdev. */
static int plan_rdma_cm_files(const struct rdc_dcb_target *t, const struct rdc_dcb_want *w,
			      struct rdc_dcb_plan *plan, struct rdc_err *err)
{
	char path[256], val[16];
	int rc = 0;

	/* A RoCE LAG port's settings go with its first member (dcb/target.h): none here. */
	if ((w->roce_tos < 0 && w->roce_mode < 0) ||
	    (!t->nports && t->relation == RDC_REL_ROCE_LAG))
		return 0;
	if (!t->nports)
		return rdc_err_set(err, ENODEV, "'%s' has no RDMA port for roce-tos/roce-mode",
				   t->netdev);
	if (!rdc_rdma_cm_available()) {
		rdc_err_set(err, ENOENT, "cannot set RDMA-CM defaults");
		rdc_err_detail(err,
			       "no /sys/kernel/config/rdma_cm: load rdma_cm and mount configfs");
		return -ENOENT;
	}
	for (size_t i = 0; i < t->nports && !rc; i++) {
		const char *dev = t->ports[i].device;
		unsigned int port = t->ports[i].port;
		size_t k;

		/* The device's configfs object is created in the write phase, once. */
		for (k = 0; k < plan->ncreate && strcmp(plan->create[k], dev); k++)
			;
		if (k == plan->ncreate && plan->ncreate < RDC_DCB_TARGET_PORTS)
			rdc_strlcpy(plan->create[plan->ncreate++], dev, sizeof(plan->create[0]));
		if (w->roce_tos >= 0) {
			snprintf(val, sizeof(val), "%d", w->roce_tos);
			rc = rdc_rdma_cm_path(path, sizeof(path), dev, port, "default_roce_tos");
			if (!rc)
				rc = rdc_dcb_plan_file(plan, path, val, err);
		}
		if (!rc && w->roce_mode >= 0) {
			rc = rdc_rdma_cm_path(path, sizeof(path), dev, port, "default_roce_mode");
			if (!rc)
				rc = rdc_dcb_plan_file(plan, path,
						       rdc_rdma_cm_mode_name(w->roce_mode), err);
		}
	}
	return rc == -ENAMETOOLONG ? rdc_err_set(err, ENAMETOOLONG, "path too long") : rc;
}

int rdc_dcb_plan_target(const struct rdc_dcb_target *t, const struct rdc_dcb_want *want,
			struct rdc_dcb_plan *plan, struct rdc_err *err)
{
	struct rdc_dcb before;
	int rc;

	rc = rdc_dcb_read(t->netdev, &before, err);
	/* Without dcbnl (rxe on virtio) RDMA-CM and ECN files can still change. */
	if (rc && (rc != -EOPNOTSUPP || rdc_dcb_want_touches_dcb(want)))
		return rc;
	rdc_err_clear(err);
	rc = rdc_dcb_plan_make(&before, want, plan, err);
	/* The caller's values that do not fit (usage) say so alone; cmd names the netdev. */
	if (rc && !(err && err->usage))
		rdc_err_prefix(err, "cannot change '%s'", t->netdev);
	if (!rc)
		rc = plan_ofed_files(t, want, plan, err);
	if (!rc)
		rc = plan_rdma_cm_files(t, want, plan, err);
	return rc;
}

bool rdc_dcb_plan_empty(const struct rdc_dcb_plan *plan)
{
	return !plan->pfc && !plan->ets && !plan->maxrate && !plan->buffer && !plan->nadd &&
	       !plan->ndel && !plan->nfiles;
}

/* The steps of an apply, in the order they are written. */
enum plan_step {
	STEP_APP_DEL,
	STEP_APP_ADD,
	STEP_PFC,
	STEP_ETS,
	STEP_MAXRATE,
	STEP_BUFFER,
	STEP_FILES,
	STEP_COUNT
};

/* Whether a step of the plan sends anything. */
static bool plan_step_works(const struct rdc_dcb_plan *p, enum plan_step step)
{
	switch (step) {
	case STEP_APP_DEL:
		return p->ndel;
	case STEP_APP_ADD:
		return p->nadd;
	case STEP_PFC:
		return p->pfc;
	case STEP_ETS:
		return p->ets;
	case STEP_MAXRATE:
		return p->maxrate;
	case STEP_BUFFER:
		return p->buffer;
	case STEP_FILES:
	case STEP_COUNT:
		break;
	}
	return false;
}

static int plan_write(const char *ifname, const struct rdc_dcb_plan *p, enum plan_step step,
		      bool undo, size_t *files_done, struct rdc_err *err)
{
	const struct rdc_dcb *to = undo ? &p->before : &p->after;

	if (step != STEP_FILES && !plan_step_works(p, step))
		return 0;
	switch (step) {
	case STEP_APP_ADD:
		return rdc_dcbnl_apps(ifname, !undo, p->add, p->nadd, err);
	case STEP_PFC:
		return rdc_dcbnl_set_pfc(ifname, &to->pfc, err);
	case STEP_ETS: {
		struct ieee_ets ets = to->ets;

		/*
		 * What was read can hold bandwidth on non-ETS TCs (mlx5 reports
		 * 100% there) that the kernel refuses to take back ("BW
		 * allocation applies only to ETS TCs").
		 */
		for (int t = 0; t < RDC_DCB_TCS; t++)
			if (ets.tc_tsa[t] != IEEE_8021QAZ_TSA_ETS)
				ets.tc_tx_bw[t] = 0;
		return rdc_dcbnl_set_ets(ifname, &ets, err);
	}
	case STEP_MAXRATE:
		return rdc_dcbnl_set_maxrate(ifname, &to->maxrate, err);
	case STEP_BUFFER:
		return rdc_dcbnl_set_buffer(ifname, &to->buffer, err);
	case STEP_APP_DEL:
		return rdc_dcbnl_apps(ifname, undo, p->del, p->ndel, err);
	case STEP_FILES:
		/* Creating an RDMA-CM object changes no setting: it is not undone. */
		for (size_t i = 0; !undo && i < p->ncreate; i++) {
			int rc = rdc_rdma_cm_create(p->create[i], err);

			if (rc)
				return rc;
		}
		if (undo) {
			for (size_t i = *files_done; i-- > 0;)
				if (p->files[i].before[0])
					rdc_fs_write(p->files[i].before, NULL, "%s",
						     p->files[i].path);
			return 0;
		}
		for (*files_done = 0; *files_done < p->nfiles; (*files_done)++) {
			int rc = rdc_fs_write(p->files[*files_done].after, err, "%s",
					      p->files[*files_done].path);
			if (rc)
				return rc;
		}
		return 0;
	case STEP_COUNT:
		break;
	}
	return 0;
}

/* Does the device now read what the plan says it should? Names the first difference. */
static bool plan_verify(const struct rdc_dcb_plan *p, const struct rdc_dcb *now, char *what,
			size_t size)
{
	const struct rdc_dcb *want = &p->after;

	if (p->pfc && (now->pfc.pfc_en != want->pfc.pfc_en || now->pfc.delay != want->pfc.delay))
		return snprintf(what, size, "PFC"), false;
	if (p->ets && !ets_equal(&now->ets, &want->ets))
		return snprintf(what, size, "ETS"), false;
	if (p->maxrate && memcmp(&now->maxrate, &want->maxrate, sizeof(want->maxrate)))
		return snprintf(what, size, "TC rate limits"), false;
	if (p->buffer && (memcmp(now->buffer.prio2buffer, want->buffer.prio2buffer,
				 sizeof(want->buffer.prio2buffer)) ||
			  memcmp(now->buffer.buffer_size, want->buffer.buffer_size,
				 sizeof(want->buffer.buffer_size))))
		return snprintf(what, size, "buffers"), false;
	for (unsigned int d = 0; d < RDC_DSCP_COUNT; d++)
		if (rdc_dcb_dscp_prio(now, d) != rdc_dcb_dscp_prio(want, d))
			return snprintf(what, size, "the DSCP map (DSCP %u)", d), false;
	return true;
}

int rdc_dcb_plan_apply(const char *ifname, const struct rdc_dcb_plan *p, struct rdc_err *err)
{
	struct rdc_err undo_err = {0};
	struct rdc_dcb now;
	size_t files_done = 0;
	char what[64];
	int step, rc = 0, failed_undo = 0;

	for (step = 0; step < STEP_COUNT; step++) {
		rc = plan_write(ifname, p, (enum plan_step)step, false, &files_done, err);
		if (rc)
			break;
	}
	if (!rc) {
		/* Read back only what was written: a files-only change needs no dcbnl. */
		if (p->pfc || p->ets || p->maxrate || p->buffer || p->nadd || p->ndel) {
			rc = rdc_dcb_read(ifname, &now, err);
			if (!rc && !plan_verify(p, &now, what, sizeof(what)))
				rc = rdc_err_set(err, EIO,
						 "'%s' reads different %s after the change", ifname,
						 what);
		}
		for (size_t i = 0; !rc && i < p->nfiles; i++) {
			char cur[64] = "";

			rdc_fs_read(cur, sizeof(cur), NULL, "%s", p->files[i].path);
			if (strcmp(cur, p->files[i].after))
				rc = rdc_err_set(err, EIO, "'%s' reads '%s' after writing '%s'",
						 p->files[i].path, cur, p->files[i].after);
		}
		if (!rc)
			return 0;
		step = STEP_COUNT;
	} else if (step == STEP_FILES) {
		step++; /* the files written before the failure are undone too */
	}
	/* Restore what was written, newest first. */
	while (step-- > 0)
		if (plan_write(ifname, p, (enum plan_step)step, true, &files_done, &undo_err))
			failed_undo++;
	if (failed_undo)
		rdc_err_append(err, "restoring the old state failed too: %s", undo_err.msg);
	else
		rdc_err_append(err, "old state restored");
	return rc;
}

int rdc_dcb_plan_revert(const char *ifname, const struct rdc_dcb_plan *p, struct rdc_err *err)
{
	size_t files_done = p->nfiles;
	int rc = 0;

	for (int step = STEP_COUNT; step-- > 0;) {
		int r = plan_write(ifname, p, (enum plan_step)step, true, &files_done, err);

		if (r && !rc)
			rc = r;
	}
	return rc;
}

/* ---- the change engine's view of a DCB plan ---- */

static bool dcb_change_empty(const void *c)
{
	return rdc_dcb_plan_empty(((const struct rdc_dcb_change *)c)->plan);
}

/* One netdev's settings go in one pass: there is no step boundary to stop at. */
static int dcb_change_apply(void *c, volatile sig_atomic_t *stop, struct rdc_err *err)
{
	const struct rdc_dcb_change *dc = c;

	(void)stop;
	return rdc_dcb_plan_apply(dc->ifname, dc->plan, err);
}

static const char *dcb_change_name(const void *c)
{
	return ((const struct rdc_dcb_change *)c)->ifname;
}

/* The journal keeps the plan (fixed-size, pointer-free); the netdev is the change's name. */
static const void *dcb_change_blob(const void *c)
{
	return ((const struct rdc_dcb_change *)c)->plan;
}

/* A loaded change and what it points to, in one allocation (free() the change). */
struct dcb_loaded {
	struct rdc_dcb_change change;
	struct rdc_dcb_plan plan;
	char ifname[IF_NAMESIZE];
};

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* A file the plan may write back: sysfs or configfs, no way out of it. */
static bool plan_path_ok(const char *path)
{
	return terminated(path, sizeof(((struct rdc_file_change *)0)->path)) &&
	       !strncmp(path, "/sys/", 5) && !strstr(path, "/../") && !strstr(path, "/./");
}

/* Every flag of a DCB state read a byte of 0 or 1. */
static bool dcb_read_valid(const struct rdc_dcb *d)
{
	const bool *flags[] = {&d->supported,	&d->have_pfc,  &d->have_ets,	&d->have_maxrate,
			       &d->have_buffer, &d->have_dcbx, &d->ets_invalid, &d->buffer_invalid};

	for (size_t i = 0; i < RDC_ARRAY_SIZE(flags); i++)
		if (!rdc_bool_stored_ok(flags[i]))
			return false;
	return true;
}

static bool dcb_plan_valid(const struct rdc_dcb_plan *p)
{
	if (!dcb_read_valid(&p->before) || !dcb_read_valid(&p->after) ||
	    !rdc_bool_stored_ok(&p->pfc) || !rdc_bool_stored_ok(&p->ets) ||
	    !rdc_bool_stored_ok(&p->maxrate) || !rdc_bool_stored_ok(&p->buffer))
		return false;
	if (p->before.napps > RDC_DCB_MAX_APPS || p->after.napps > RDC_DCB_MAX_APPS ||
	    p->nadd > RDC_DSCP_COUNT || p->ndel > RDC_DCB_MAX_APPS ||
	    p->nfiles > RDC_PLAN_MAX_FILES || p->ncreate > RDC_DCB_TARGET_PORTS)
		return false;
	for (size_t i = 0; i < p->nfiles; i++)
		if (!plan_path_ok(p->files[i].path) ||
		    !terminated(p->files[i].before, sizeof(p->files[i].before)) ||
		    !terminated(p->files[i].after, sizeof(p->files[i].after)))
			return false;
	for (size_t i = 0; i < p->ncreate; i++)
		if (!terminated(p->create[i], sizeof(p->create[i])))
			return false;
	return true;
}

static int dcb_change_load(const void *blob, const char *name, void **out, struct rdc_err *err)
{
	struct dcb_loaded *l = malloc(sizeof(*l));

	if (!l)
		return rdc_err_set(err, ENOMEM, "out of memory");
	memcpy(&l->plan, blob, sizeof(l->plan));
	if (!dcb_plan_valid(&l->plan) || rdc_strlcpy(l->ifname, name, sizeof(l->ifname))) {
		free(l);
		return rdc_err_set(err, EINVAL,
				   "not a DCB plan (a count, a name or a flag out of range)");
	}
	l->change.ifname = l->ifname;
	l->change.plan = &l->plan;
	*out = &l->change;
	return 0;
}

static bool app_present(const struct rdc_dcb *d, const struct dcb_app *a)
{
	for (size_t i = 0; i < d->napps; i++)
		if (d->apps[i].selector == a->selector && d->apps[i].protocol == a->protocol &&
		    d->apps[i].priority == a->priority)
			return true;
	return false;
}

static bool pfc_equal(const struct ieee_pfc *a, const struct ieee_pfc *b)
{
	return a->pfc_en == b->pfc_en && a->delay == b->delay;
}

static bool buffer_equal(const struct dcbnl_buffer *a, const struct dcbnl_buffer *b)
{
	return !memcmp(a->prio2buffer, b->prio2buffer, sizeof(a->prio2buffer)) &&
	       !memcmp(a->buffer_size, b->buffer_size, sizeof(a->buffer_size));
}

/* One attribute: keep it in the restore when it reads what the plan set; name it when theirs. */
static bool restore_keep(bool planned, bool is_after, bool is_before, const char *what,
			 char *theirs, size_t size)
{
	if (planned && !is_after && !is_before) {
		size_t used = strlen(theirs);

		snprintf(theirs + used, size - used, "%s%s", used ? ", " : "", what);
	}
	return planned && is_after;
}

/*
 * Restore what reads as the plan left it: each attribute that reads its
 * "after" goes back to "before"; APP entries it added that are there go,
 * those it deleted that are missing come back; files likewise.
 */
static int dcb_change_revert(void *c, struct rdc_err *err)
{
	const struct rdc_dcb_change *dc = c;
	const struct rdc_dcb_plan *p = dc->plan;
	struct rdc_dcb_plan *q = malloc(sizeof(*q));
	struct rdc_dcb *now = malloc(sizeof(*now));
	char theirs[200] = "";
	int rc = 0;

	if (!q || !now) {
		free(q);
		free(now);
		return rdc_err_set(err, ENOMEM, "out of memory");
	}
	*q = *p;
	q->ncreate = 0;
	if (p->pfc || p->ets || p->maxrate || p->buffer || p->nadd || p->ndel) {
		rc = rdc_dcb_read(dc->ifname, now, err);
		if (rc)
			goto out;
		q->pfc = restore_keep(p->pfc, pfc_equal(&now->pfc, &p->after.pfc),
				      pfc_equal(&now->pfc, &p->before.pfc), "PFC", theirs,
				      sizeof(theirs));
		q->ets = restore_keep(p->ets, ets_equal(&now->ets, &p->after.ets),
				      ets_equal(&now->ets, &p->before.ets), "ETS", theirs,
				      sizeof(theirs));
		q->maxrate = restore_keep(
			p->maxrate, !memcmp(&now->maxrate, &p->after.maxrate, sizeof(now->maxrate)),
			!memcmp(&now->maxrate, &p->before.maxrate, sizeof(now->maxrate)),
			"TC rate limits", theirs, sizeof(theirs));
		q->buffer = restore_keep(p->buffer, buffer_equal(&now->buffer, &p->after.buffer),
					 buffer_equal(&now->buffer, &p->before.buffer), "buffers",
					 theirs, sizeof(theirs));
		q->nadd = q->ndel = 0;
		for (size_t i = 0; i < p->nadd; i++)
			if (app_present(now, &p->add[i]))
				q->add[q->nadd++] = p->add[i];
		for (size_t i = 0; i < p->ndel; i++)
			if (!app_present(now, &p->del[i]))
				q->del[q->ndel++] = p->del[i];
	}
	q->nfiles = 0;
	for (size_t i = 0; i < p->nfiles; i++) {
		char cur[64] = "";

		rdc_fs_read(cur, sizeof(cur), NULL, "%s", p->files[i].path);
		if (restore_keep(true, !strcmp(cur, p->files[i].after),
				 !strcmp(cur, p->files[i].before), p->files[i].path, theirs,
				 sizeof(theirs)))
			q->files[q->nfiles++] = p->files[i];
	}
	rc = rdc_dcb_plan_revert(dc->ifname, q, err);
	if (!rc && theirs[0])
		rc = rdc_err_set(err, EBUSY,
				 "'%s': %s read neither the old values nor that change's: left as "
				 "they are (another writer's); the rest is restored",
				 dc->ifname, theirs);
out:
	free(q);
	free(now);
	return rc;
}

const struct rdc_change_ops rdc_dcb_change_ops = {
	.empty = dcb_change_empty,
	.apply = dcb_change_apply,
	.revert = dcb_change_revert,
	.name = dcb_change_name,
	.kind = "dcb",
	.blob_size = sizeof(struct rdc_dcb_plan),
	.blob = dcb_change_blob,
	.load = dcb_change_load,
};
