/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdma_netns.h - how RDMA devices relate to network namespaces, as the host runs it */
#pragma once

#include "base/err.h"

/*
 * shared: every namespace sees every device, and each namespace's GIDs come
 * from the netdevs it holds (the default; the RDMA shared device plugin's
 * mode); exclusive: a device belongs to one namespace and is seen only there
 * (`rdma system set netns exclusive`, used with SR-IOV VFs in pods).
 */
enum rdc_rdma_netns_mode {
	RDC_RDMA_NETNS_UNKNOWN = 0, /* the kernel did not say (before 5.2, or no kernel) */
	RDC_RDMA_NETNS_SHARED,
	RDC_RDMA_NETNS_EXCLUSIVE,
};

/* The mode in force, from RDMA netlink; see rdc_rdmanl_netns_shared() for the errors. */
int rdc_rdma_netns_mode(enum rdc_rdma_netns_mode *mode, struct rdc_err *err);

/* "shared", "exclusive", or NULL for UNKNOWN. */
const char *rdc_rdma_netns_mode_name(enum rdc_rdma_netns_mode mode);

/* What the mode means for a namespace that sees no RDMA device, for the message that says so. */
const char *rdc_rdma_netns_mode_hint(enum rdc_rdma_netns_mode mode);
