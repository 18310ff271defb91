/* SPDX-License-Identifier: GPL-2.0-or-later */
/* features.h - a host's RDMA facts as node labels (Node Feature Discovery's local source) */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag/diag.h"
#include "host/rdma_netns.h"

/*
 * What a scheduler wants to know about a node, from one diag host read.
 * Each value is known or not: an unknown one is no label at all, never a
 * guess (a node whose DCB could not be read is not labelled lossless or not).
 */
struct rdc_features {
	size_t devices;	   /* RDMA devices */
	size_t ports;	   /* RDMA ports */
	bool capable;	   /* at least one RDMA port */
	bool roce_v2;	   /* an Ethernet port has a RoCE v2 GID */
	bool lag;	   /* an RDMA port runs over a bond (RoCE LAG, rxe on a bond) */
	double speed_gbps; /* the fastest ACTIVE port's rate; 0 unknown or none active */
	bool lossless_known;
	uint8_t lossless_mask; /* priorities with PFC on every Ethernet RDMA netdev (bit n: prio n) */
	enum rdc_rdma_netns_mode netns_mode;
};

void rdc_features_compute(const struct rdc_diag_host *h, enum rdc_rdma_netns_mode netns_mode,
			  struct rdc_features *f);

/* NFD reads feature files line by line; a label value is at most 63 characters. */
#define RDC_FEATURE_LINE 96

/*
 * The @i-th label line ("rdma.capable=true"), for i from 0 while it returns
 * true; an unknown value's line is skipped, not written as "unknown".
 */
bool rdc_features_line(const struct rdc_features *f, size_t i, char line[RDC_FEATURE_LINE]);
