// SPDX-License-Identifier: GPL-2.0-or-later
/* verbs.c - the table of verbs; main.c, help and completion walk it */
#include <stddef.h>
#include <string.h>

#include "cmd.h"

const struct rdc_cmd *const rdc_cmds[] = {&rdc_cmd_port, &rdc_cmd_pfc, &rdc_cmd_bench, NULL};

const struct rdc_cmd *rdc_cmd_find(const char *name)
{
	for (size_t i = 0; rdc_cmds[i]; i++)
		if (!strcmp(rdc_cmds[i]->name, name))
			return rdc_cmds[i];
	return NULL;
}
