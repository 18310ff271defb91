// SPDX-License-Identifier: GPL-2.0-or-later
/* counters.c - a growable set of named 64-bit counters, grouped by source */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/util.h"

int rdc_counters_add(struct rdc_counter_set *set, const char *group, const char *name,
		     uint64_t value)
{
	struct rdc_counter *grown;

	if (set->count == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 32;

		grown = realloc(set->items, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		set->items = grown;
		set->cap = cap;
	}
	rdc_strlcpy(set->items[set->count].group, group, sizeof(set->items[0].group));
	rdc_strlcpy(set->items[set->count].name, name, sizeof(set->items[0].name));
	set->items[set->count].value = value;
	set->count++;
	return 0;
}

void rdc_counters_free(struct rdc_counter_set *set)
{
	free(set->items);
	set->items = NULL;
	set->count = set->cap = 0;
}

const struct rdc_counter *rdc_counters_find(const struct rdc_counter_set *set, const char *group,
					    const char *name)
{
	for (size_t i = 0; i < set->count; i++)
		if (!strcmp(set->items[i].group, group) && !strcmp(set->items[i].name, name))
			return &set->items[i];
	return NULL;
}
