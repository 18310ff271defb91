/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dcb.h - a netdev's IEEE DCB state as a model: read it, name and compare its values */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "kernel/dcbnl.h"

/*
 * Everything dcbnl says about @ifname (one DCB_CMD_IEEE_GET).  A driver
 * without dcbnl operations is -EOPNOTSUPP with a message that says so and
 * why: callers that can live without DCB test for it.
 */
int rdc_dcb_read(const char *ifname, struct rdc_dcb *dcb, struct rdc_err *err);

/* "strict", "cbs", "ets", "vendor" for an IEEE_8021QAZ_TSA_* value ("unknown" otherwise). */
const char *rdc_dcb_tsa_name(uint8_t tsa);
/* The inverse: 0 and the TSA value, or -EINVAL. */
int rdc_dcb_tsa_parse(const char *name, uint8_t *tsa);
/* The priority DSCP @dscp maps to in the APP table, or -1. */
int rdc_dcb_dscp_prio(const struct rdc_dcb *dcb, unsigned int dscp);
/* How many DSCP (selector 5) entries the APP table holds. */
size_t rdc_dcb_dscp_count(const struct rdc_dcb *dcb);
