// SPDX-License-Identifier: GPL-2.0-or-later
/* help.c - help text generated from the verb tables */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

void rdc_help_main(struct rdc_ctx *ctx)
{
	printf("usage: %s [OPTIONS] VERB [ACTION] [ARGS...]\n\n", ctx->prog);
	printf("verbs:\n");
	for (size_t i = 0; rdc_cmds[i]; i++)
		printf("  %-8s %s\n", rdc_cmds[i]->name, rdc_cmds[i]->summary);
	printf("\noptions:\n"
	       "  -j, --json          JSON output\n"
	       "      --yaml          YAML output\n"
	       "  -p, --pretty        indent JSON\n"
	       "      --root DIR      read a captured host below DIR (writes are refused)\n"
	       "      --replay FILE   answer kernel requests from a recording\n"
	       "      --record FILE   record every kernel request and reply to FILE\n"
	       "  -n, --netns NETNS   run in network namespace NETNS (/run/netns/NETNS or a path)\n"
	       "      --dry-run       show what would change, change nothing\n"
	       "  -v, --verbose       more messages (-vv: debug)\n"
	       "  -q, --quiet         errors only\n"
	       "      --color[=WHEN]  auto, always or never (NO_COLOR is honoured)\n"
	       "  -V, --version       rdmactl's version and its libraries'\n"
	       "  -h, --help          this help\n\n"
	       "Options may come after the verb too ('port show -j'); '--' ends them.\n"
	       "'%s help VERB' describes a verb. Exit status: 0 success, 1 failure, 2 usage "
	       "error.\n",
	       ctx->prog);
}

void rdc_help_cmd(struct rdc_ctx *ctx, const struct rdc_cmd *cmd)
{
	printf("%s %s - %s\n\nusage:\n", ctx->prog, cmd->name, cmd->summary);
	for (const struct rdc_action *a = cmd->actions; a->name; a++) {
		printf("  %s %s %s%s%s\n", ctx->prog, cmd->name, a->name, a->synopsis[0] ? " " : "",
		       a->synopsis);
		printf("      %s\n", a->help);
		for (const struct rdc_param *p = a->params; p && p->name; p++) {
			char word[48];

			snprintf(word, sizeof(word), "%s%s%s", p->name, p->metavar ? " " : "",
				 p->metavar ? p->metavar : "");
			/* A long keyword synopsis gets its help on the next line. */
			if (strlen(word) > 18)
				printf("      %s\n      %-18s %s\n", word, "", p->help);
			else
				printf("      %-18s %s\n", word, p->help);
		}
	}
	printf("\nWithout an action, '%s %s' runs '%s'.\n", ctx->prog, cmd->name,
	       cmd->actions[0].name);
}
