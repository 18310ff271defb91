// SPDX-License-Identifier: GPL-2.0-or-later
/* help.c - help text generated from the verb tables, wrapped to the terminal */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "term.h"

/* Where the help of an option or a keyword starts: after "      WORD              ". */
#define HELP_COL 25

static const struct {
	const char *flags;
	const char *help;
} help_options[] = {
	{"-j, --json", "JSON output"},
	{"    --yaml", "YAML output"},
	{"-p, --pretty", "indent JSON"},
	{"    --root DIR", "read a captured host below DIR (writes are refused)"},
	{"    --replay FILE", "answer kernel requests from a recording"},
	{"    --record FILE", "record every kernel request and reply to FILE"},
	{"-n, --netns NETNS", "run in network namespace NETNS (/run/netns/NETNS or a path)"},
	{"    --dry-run", "show what would change, change nothing"},
	{"    --confirm SEC", "a write comes undone after SEC s unless 'rdmactl confirm'"},
	{"-v, --verbose", "more messages (-vv: debug)"},
	{"-q, --quiet", "errors only"},
	{"-b, --brief", "one line per port or bond in text (port, pfc show, bond show)"},
	{"    --color[=WHEN]", "auto, always or never (NO_COLOR is honoured)"},
	{"-V, --version", "rdmactl's version and its libraries'"},
	{"-h, --help", "this help"},
};

void rdc_help_main(struct rdc_ctx *ctx, FILE *fp)
{
	int width = rdc_term_width();
	char text[256];

	fprintf(fp, "usage: %s [OPTIONS] VERB [ACTION] [ARGS...]\n\n", ctx->prog);
	fprintf(fp, "verbs:\n");
	for (size_t i = 0; rdc_cmds[i]; i++) {
		fprintf(fp, "  %-8s ", rdc_cmds[i]->name);
		rdc_term_wrap(fp, rdc_cmds[i]->summary, 11, 11, width);
	}
	fprintf(fp, "\noptions:\n");
	for (size_t i = 0; i < sizeof(help_options) / sizeof(help_options[0]); i++) {
		fprintf(fp, "  %-19s ", help_options[i].flags);
		rdc_term_wrap(fp, help_options[i].help, 22, 22, width);
	}
	fprintf(fp, "\n");
	rdc_term_wrap(fp, "Options may come after the verb too ('port show -j'); '--' ends them.",
		      0, 0, width);
	snprintf(text, sizeof(text),
		 "'%s help VERB' describes a verb. Exit status: 0 success, 1 failure, 2 usage "
		 "error, 3 warnings and no failure (bond check, diag), 4 a --dry-run that would "
		 "change something.",
		 ctx->prog);
	rdc_term_wrap(fp, text, 0, 0, width);
}

void rdc_help_cmd(struct rdc_ctx *ctx, const struct rdc_cmd *cmd)
{
	int width = rdc_term_width();
	int col;

	col = printf("%s %s - ", ctx->prog, cmd->name);
	rdc_term_wrap(stdout, cmd->summary, col, col, width);
	printf("\nusage:\n");
	for (const struct rdc_action *a = cmd->actions; a->name; a++) {
		/* A long synopsis continues under its first argument. */
		col = printf("  %s %s %s%s", ctx->prog, cmd->name, a->name,
			     a->synopsis[0] ? " " : "");
		if (a->synopsis[0])
			rdc_term_wrap_synopsis(stdout, a->synopsis, col, col, width);
		else
			printf("\n");
		/* Continued at 8, so that only keywords start at 6. */
		printf("      ");
		rdc_term_wrap(stdout, a->help, 6, 8, width);
		for (const struct rdc_param *p = a->params; p && p->name; p++) {
			char word[48];

			snprintf(word, sizeof(word), "%s%s%s", p->name, p->metavar ? " " : "",
				 p->metavar ? p->metavar : "");
			/* A long keyword synopsis gets its help on the next line. */
			if (strlen(word) > 18)
				printf("      %s\n      %-18s ", word, "");
			else
				printf("      %-18s ", word);
			rdc_term_wrap(stdout, p->help, HELP_COL, HELP_COL, width);
		}
	}
	printf("\nWithout an action, '%s %s' runs '%s'.\n", ctx->prog, cmd->name,
	       cmd->actions[0].name);
}
