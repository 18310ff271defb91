// SPDX-License-Identifier: GPL-2.0-or-later
/* names.c - a list of owned names (directory entries, interfaces) */
#include <stdlib.h>

#include "base/names.h"

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
