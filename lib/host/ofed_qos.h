/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ofed_qos.h - MLNX_OFED's per-netdev QoS sysfs: trust, ECN per priority, the CNP's DSCP/priority */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define RDC_OFED_PRIOS 8

/*
 * /sys/class/net/IF/qos/trust and /sys/class/net/IF/ecn/... exist only with
 * MLNX_OFED's mlx5; upstream keeps ECN in debugfs parameters and trust in
 * the dcbnl APP table.  -1 / "" for what a file did not say.
 */
struct rdc_ofed_qos {
	char trust[16];		    /* "dscp" or "pcp"; "" without the file */
	bool have_ecn;		    /* the ecn directory exists */
	int ecn_np[RDC_OFED_PRIOS]; /* notification point enabled: 0, 1, -1 unreadable */
	int ecn_rp[RDC_OFED_PRIOS]; /* reaction point enabled */
	int64_t cnp_dscp, cnp_prio; /* -1 unreadable */
};

/* Read what of the above @netdev has; never fails (absence is the answer). */
void rdc_ofed_qos_read(const char *netdev, struct rdc_ofed_qos *q);
/* Whether @netdev has the ECN directory at all. */
bool rdc_ofed_ecn_present(const char *netdev);

/* The attribute files a change writes, as paths for the file layer. */
int rdc_ofed_ecn_path(char *buf, size_t size, const char *netdev, bool reaction_point,
		      unsigned int prio);
/* @attr: "cnp_dscp" or "cnp_802p_prio". */
int rdc_ofed_cnp_path(char *buf, size_t size, const char *netdev, const char *attr);
