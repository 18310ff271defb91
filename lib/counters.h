/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counters.h - named 64-bit counters: IB port, hw_counters, ethtool */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct rdc_counter {
	char group[16]; /* "ib", "hw", "driver", "eth-mac", "pause", ... */
	char name[64];
	uint64_t value;
};

struct rdc_counter_set {
	struct rdc_counter *items;
	size_t count;
	size_t cap;
};

int rdc_counters_add(struct rdc_counter_set *set, const char *group, const char *name,
		     uint64_t value);
void rdc_counters_free(struct rdc_counter_set *set);
/* NULL when the set has no such counter. */
const struct rdc_counter *rdc_counters_find(const struct rdc_counter_set *set, const char *group,
					    const char *name);

/*
 * IB PortCounters from ports/N/counters.  port_xmit_data and port_rcv_data
 * count 4-byte words; they are reported as port_xmit_bytes/port_rcv_bytes
 * in bytes.  Entries that read "N/A (no PMA)" are left out.  A port without
 * the directory (rxe, irdma) gives an empty set.
 */
int rdc_port_ib_counters(const char *dev, unsigned int port, struct rdc_counter_set *set,
			 struct rdc_err *err);
/* ports/N/hw_counters, the RoCE-relevant ones (loss, retries, congestion) first. */
int rdc_port_hw_counters(const char *dev, unsigned int port, struct rdc_counter_set *set,
			 struct rdc_err *err);
