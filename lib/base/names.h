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
