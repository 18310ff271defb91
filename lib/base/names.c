// SPDX-License-Identifier: GPL-2.0-or-later
/* names.c - a list of owned names (directory entries, interfaces), and the closest to a typo */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"

void rdc_names_free(struct rdc_names *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->count; i++)
		free(list->names[i]);
	free(list->names);
	list->names = NULL;
	list->count = 0;
}

/* Levenshtein distance, SIZE_MAX for words too long to be a typo of a name. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (la >= RDC_ARRAY_SIZE(row) || lb >= RDC_ARRAY_SIZE(row))
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *rdc_closest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, candidates[i]);

		/* As many edits as the name has letters is another word, not a typo ("foo", "lo"). */
		if (d < best_d && d < strlen(candidates[i])) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}
