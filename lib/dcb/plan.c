// SPDX-License-Identifier: GPL-2.0-or-later
/* plan.c - read, diff, write only what differs, verify, and roll back */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "dcb/plan.h"
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
		dscp |= w->dscp_prio[d] >= 0;
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
		want->dscp_prio[d] = -1;
	want->trust = -1;
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
		return rdc_err_set(err, EINVAL, "PFC on %d priorities, the NIC allows %u", enabled,
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
			return rdc_err_set(err, EINVAL, "priority %d to TC %u: the NIC has %u TCs",
					   i, ets->prio_tc[i], tcs);
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
			return rdc_err_set(err, EINVAL,
					   "TC %d is not an ETS TC: its bandwidth must be 0", t);
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
		return rdc_err_set(err, EINVAL, "ETS TC bandwidths sum to %u%%, not 100%%", sum);
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
			return rdc_err_set(err, EINVAL,
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
		drop = w->trust == 0 ||
		       (a->protocol < RDC_DSCP_COUNT && w->dscp_prio[a->protocol] >= 0 &&
			w->dscp_prio[a->protocol] != a->priority);
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

static int plan_write(const char *ifname, const struct rdc_dcb_plan *p, enum plan_step step,
		      bool undo, size_t *files_done, struct rdc_err *err)
{
	const struct rdc_dcb *to = undo ? &p->before : &p->after;

	switch (step) {
	case STEP_APP_ADD:
		return p->nadd ? rdc_dcb_apps(ifname, !undo, p->add, p->nadd, err) : 0;
	case STEP_PFC:
		return p->pfc ? rdc_dcb_set_pfc(ifname, &to->pfc, err) : 0;
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
		return p->ets ? rdc_dcb_set_ets(ifname, &ets, err) : 0;
	}
	case STEP_MAXRATE:
		return p->maxrate ? rdc_dcb_set_maxrate(ifname, &to->maxrate, err) : 0;
	case STEP_BUFFER:
		return p->buffer ? rdc_dcb_set_buffer(ifname, &to->buffer, err) : 0;
	case STEP_APP_DEL:
		return p->ndel ? rdc_dcb_apps(ifname, undo, p->del, p->ndel, err) : 0;
	case STEP_FILES:
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
			rc = rdc_dcb_get(ifname, &now, err);
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
	if (err) {
		char detail[sizeof(err->detail)];

		memcpy(detail, err->detail, sizeof(detail));
		if (failed_undo)
			rdc_err_detail(err, "%s%srestoring the old state failed too: %s", detail,
				       detail[0] ? "; " : "", undo_err.msg);
		else
			rdc_err_detail(err, "%s%sold state restored", detail,
				       detail[0] ? "; " : "");
	}
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
