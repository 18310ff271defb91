// SPDX-License-Identifier: GPL-2.0-or-later
/* rdma_netns.c - the RDMA subsystem's network namespace mode, named and explained */
#include <stdbool.h>

#include "host/rdma_netns.h"
#include "kernel/rdmanl.h"

int rdc_rdma_netns_mode(enum rdc_rdma_netns_mode *mode, struct rdc_err *err)
{
	bool shared;
	int rc = rdc_rdmanl_netns_shared(&shared, err);

	*mode = rc ? RDC_RDMA_NETNS_UNKNOWN
		   : (shared ? RDC_RDMA_NETNS_SHARED : RDC_RDMA_NETNS_EXCLUSIVE);
	return rc;
}

const char *rdc_rdma_netns_mode_name(enum rdc_rdma_netns_mode mode)
{
	switch (mode) {
	case RDC_RDMA_NETNS_SHARED:
		return "shared";
	case RDC_RDMA_NETNS_EXCLUSIVE:
		return "exclusive";
	case RDC_RDMA_NETNS_UNKNOWN:
		break;
	}
	return NULL;
}

const char *rdc_rdma_netns_mode_hint(enum rdc_rdma_netns_mode mode)
{
	switch (mode) {
	case RDC_RDMA_NETNS_SHARED:
		return "the RDMA netns mode is shared (every namespace sees every RDMA device), "
		       "so this host has none";
	case RDC_RDMA_NETNS_EXCLUSIVE:
		return "the RDMA netns mode is exclusive: a namespace sees only the devices moved "
		       "into it ('rdma dev set DEV netns NS', which the device's driver must "
		       "support)";
	case RDC_RDMA_NETNS_UNKNOWN:
		break;
	}
	return NULL;
}
