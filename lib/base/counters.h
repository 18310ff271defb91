/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counters.h - a growable set of named 64-bit counters, grouped by source */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rdc_counter {
	char group[16]; /* "ib", "hw", "driver", "eth_mac", "pause", ... */
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
 * Whether a counter counts a fault (an error, a drop, a discard, a retry or
 * timeout, a link going down) rather than traffic: what `port stats errors`
 * keeps.  By name, case-insensitively, since the kernel's names (mlx5 ethtool,
 * hw_counters, IEEE 802.3 statistics) say what they count.
 */
bool rdc_counter_is_fault(const char *group, const char *name);
