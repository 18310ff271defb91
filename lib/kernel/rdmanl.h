/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdmanl.h - the RDMA subsystem's own netlink (NETLINK_RDMA, the nldev client) */
#pragma once

#include <stdbool.h>

#include "base/err.h"

/*
 * RDMA_NLDEV_SYS_ATTR_NETNS_MODE of RDMA_NLDEV_CMD_SYS_GET (`rdma system
 * show`): @shared true when every namespace sees every device, false when a
 * device is seen only in the namespace it belongs to.  0, or -errno:
 * -EOPNOTSUPP when the kernel has no nldev client (ib_core not loaded) or
 * answers without the attribute (before 5.2), -ENODATA with no kernel
 * (--root without a recording), -EBADMSG for a reply that breaks its format.
 */
int rdc_rdmanl_netns_shared(bool *shared, struct rdc_err *err);
