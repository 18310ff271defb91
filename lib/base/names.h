/* SPDX-License-Identifier: GPL-2.0-or-later */
/* names.h - a list of owned names (directory entries, interfaces) */
#pragma once

#include <stddef.h>

struct rdc_names {
	char **names;
	size_t count;
};

/* Free every name and the list; NULL-safe; the list is empty afterwards. */
void rdc_names_free(struct rdc_names *list);

/*
 * The candidate closest to @word by edit distance, if within two edits and
 * fewer than the candidate has letters (a typo: "--jsn", "mlx5_O"), for "did
 * you mean"; NULL when none is that close.
 */
const char *rdc_closest(const char *word, const char *const *candidates, size_t n);
