/* SPDX-License-Identifier: GPL-2.0-or-later */
/* netns.h - run in another network namespace, as `ip -n NAME` does */
#pragma once

#include "base/err.h"

/*
 * Enter network namespace @name (a name under /run/netns, or a path such as
 * /proc/PID/ns/net) and give this process its own mount namespace with a
 * sysfs of that network namespace on /sys, so /sys/class/net lists its
 * netdevs.  Needs CAP_SYS_ADMIN.  0 or -errno with @err filled.
 */
int rdc_netns_enter(const char *name, struct rdc_err *err);

struct rdc_names;
/* The named network namespaces (entries of /run/netns, sorted); none is an empty list. */
int rdc_netns_names(struct rdc_names *names, struct rdc_err *err);
