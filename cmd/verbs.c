// SPDX-License-Identifier: GPL-2.0-or-later
/* verbs.c - the table of verbs; main.c, help and completion walk it */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "cmd.h"

const struct rdc_cmd *const rdc_cmds[] = {&rdc_cmd_port,    &rdc_cmd_pfc,  &rdc_cmd_bond,
					  &rdc_cmd_bench,   &rdc_cmd_diag, &rdc_cmd_undo,
					  &rdc_cmd_confirm, NULL};

const struct rdc_cmd *rdc_cmd_find(const char *name)
{
	for (size_t i = 0; rdc_cmds[i]; i++)
		if (!strcmp(rdc_cmds[i]->name, name))
			return rdc_cmds[i];
	return NULL;
}

const struct rdc_action *rdc_action_find(const struct rdc_cmd *cmd, const char *name)
{
	for (const struct rdc_action *a = cmd->actions; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	assert(!"no such action");
	return NULL;
}
