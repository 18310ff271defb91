// SPDX-License-Identifier: GPL-2.0-or-later
/* dcb.c - a netdev's IEEE DCB state as a model: read it, name and compare its values */
#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "host/dcb.h"

int rdc_dcb_read(const char *ifname, struct rdc_dcb *dcb, struct rdc_err *err)
{
	return rdc_dcbnl_get(ifname, dcb, err);
}

static const struct {
	uint8_t tsa;
	const char *name;
} dcb_tsas[] = {
	{IEEE_8021QAZ_TSA_STRICT, "strict"},
	{IEEE_8021QAZ_TSA_CB_SHAPER, "cbs"},
	{IEEE_8021QAZ_TSA_ETS, "ets"},
	{IEEE_8021QAZ_TSA_VENDOR, "vendor"},
};

int rdc_dcb_dscp_prio(const struct rdc_dcb *dcb, unsigned int dscp)
{
	for (size_t i = 0; i < dcb->napps; i++)
		if (dcb->apps[i].selector == IEEE_8021QAZ_APP_SEL_DSCP &&
		    dcb->apps[i].protocol == dscp)
			return dcb->apps[i].priority;
	return -1;
}

size_t rdc_dcb_dscp_count(const struct rdc_dcb *dcb)
{
	size_t n = 0;

	for (size_t i = 0; i < dcb->napps; i++)
		n += dcb->apps[i].selector == IEEE_8021QAZ_APP_SEL_DSCP;
	return n;
}

const char *rdc_dcb_tsa_name(uint8_t tsa)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(dcb_tsas); i++)
		if (dcb_tsas[i].tsa == tsa)
			return dcb_tsas[i].name;
	return "unknown";
}

int rdc_dcb_tsa_parse(const char *name, uint8_t *tsa)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(dcb_tsas); i++)
		if (!strcmp(dcb_tsas[i].name, name)) {
			*tsa = dcb_tsas[i].tsa;
			return 0;
		}
	return -EINVAL;
}
