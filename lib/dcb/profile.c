// SPDX-License-Identifier: GPL-2.0-or-later
/* profile.c - named QoS profiles as data: what they want of a netdev, as pfc set would say it */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "dcb/profile.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"

static const struct rdc_dcb_profile profiles[] = {
	{.name = "roce-lossless", .prio = 3, .dscp = 26, .cnp_dscp = 48, .cnp_prio = 6},
};

const char *const rdc_dcb_profile_names[] = {"roce-lossless", NULL};

int rdc_dcb_profile_init(struct rdc_dcb_profile *p, const char *name)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name)) {
			*p = profiles[i];
			return 0;
		}
	return -ENOENT;
}

int rdc_dcb_profile_check(const struct rdc_dcb_profile *p, struct rdc_err *err)
{
	if (p->prio > 7 || p->cnp_prio > 7 || p->dscp > 63 || p->cnp_dscp > 63)
		return rdc_err_set_usage(err, "priorities are 0-7 and DSCPs 0-63");
	if (p->prio == p->cnp_prio)
		return rdc_err_set_usage(err, "CNPs must not share the lossless priority %u",
					 p->prio);
	if (p->dscp == p->cnp_dscp)
		return rdc_err_set_usage(err, "RoCE data and CNPs need different DSCPs");
	return 0;
}

/* ECN-capable transport, codepoint ECT(0), in the two low bits of the ToS byte. */
#define TOS_ECT0 2

void rdc_dcb_profile_want(const struct rdc_dcb_profile *p, const struct rdc_dcb_target *t,
			  struct rdc_dcb_want *w)
{
	rdc_dcb_want_init(w);
	w->trust = 1;
	w->dscp_prio[p->dscp] = (int)p->prio;
	w->dscp_prio[p->cnp_dscp] = (int)p->cnp_prio;
	for (int i = 0; i < RDC_DCB_PRIOS; i++) {
		w->pfc_given[i] = w->prio_tc_given[i] = true;
		w->pfc_on[i] = (uint32_t)i == p->prio;
		w->prio_tc[i] = 0;
	}
	w->prio_tc[p->prio] = (uint8_t)p->prio;
	w->prio_tc[p->cnp_prio] = (uint8_t)p->cnp_prio;
	/* TC 0 and the lossless TC share by ETS; every other TC is strict (the CNP's too). */
	for (int tc = 0; tc < RDC_DCB_TCS; tc++) {
		w->tsa_given[tc] = w->bw_given[tc] = true;
		w->tsa[tc] = IEEE_8021QAZ_TSA_STRICT;
		w->bw[tc] = 0;
	}
	w->tsa[0] = w->tsa[p->prio] = IEEE_8021QAZ_TSA_ETS;
	if (p->prio == 0) {
		w->bw[0] = 100;
	} else {
		w->bw[0] = 50;
		w->bw[p->prio] = 50;
	}
	if (rdc_ofed_ecn_present(t->netdev)) {
		w->ecn_given[p->prio] = true;
		w->ecn_on[p->prio] = true;
	}
	if (t->nports && rdc_rdma_cm_available()) {
		w->roce_tos = (int)(p->dscp << 2 | TOS_ECT0);
		w->roce_mode = 2;
	}
	w->cnp_dscp = (int)p->cnp_dscp;
	w->cnp_prio = (int)p->cnp_prio;
}

/* "prio 4" when @v is not @dflt. */
static void argv_param(struct rdc_argv *a, const char *key, uint32_t v, uint32_t dflt)
{
	char num[16];

	if (v == dflt)
		return;
	snprintf(num, sizeof(num), "%u", v);
	rdc_argv_add(a, key);
	rdc_argv_add(a, num);
}

void rdc_dcb_profile_argv(const struct rdc_dcb_profile *p, const char *dev, struct rdc_argv *a)
{
	static const char *const words[] = {"rdmactl", "pfc", "apply", "dev"};
	struct rdc_dcb_profile dflt = *p;

	memset(a, 0, sizeof(*a));
	rdc_dcb_profile_init(&dflt, p->name);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(words); i++)
		rdc_argv_add(a, words[i]);
	rdc_argv_add(a, dev);
	rdc_argv_add(a, "profile");
	rdc_argv_add(a, p->name);
	argv_param(a, "prio", p->prio, dflt.prio);
	argv_param(a, "dscp", p->dscp, dflt.dscp);
	argv_param(a, "cnp-dscp", p->cnp_dscp, dflt.cnp_dscp);
	argv_param(a, "cnp-prio", p->cnp_prio, dflt.cnp_prio);
}
