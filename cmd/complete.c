// SPDX-License-Identifier: GPL-2.0-or-later
/* complete.c - the hidden `__complete` verb: candidates from the tables and live devices */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "fs.h"
#include "ibdev.h"

/*
 * `rdmactl __complete WORD... CUR` prints one candidate per line for CUR,
 * given the words before it.  The shell wrappers in completions/ only call
 * this, so completion can never drift from what the parser accepts.
 */

static const char *const global_flags[] = {
	"--json",    "--yaml",	"--pretty", "--root",	 "--replay", "--record", "--dry-run",
	"--verbose", "--quiet", "--color=", "--version", "--help",   "-j",	 "-p",
	"-v",	     "-q",	"-V",	    "-h",	 NULL,
};

/* Global options that take the next word as their value. */
static bool takes_value(const char *word)
{
	return !strcmp(word, "--root") || !strcmp(word, "--replay") || !strcmp(word, "--record");
}

static void emit(const char *cand, const char *cur)
{
	if (!strncmp(cand, cur, strlen(cur)))
		printf("%s\n", cand);
}

static void complete_ports(const char *cur)
{
	struct rdc_port_list ports;
	struct rdc_fs_list nets;
	char buf[RDC_IBDEV_NAME + 8];
	const char *last = "";

	if (!rdc_ports_read(&ports, NULL)) {
		for (size_t i = 0; i < ports.count; i++) {
			if (strcmp(last, ports.ports[i].device))
				emit(ports.ports[i].device, cur);
			last = ports.ports[i].device;
			snprintf(buf, sizeof(buf), "%s/%u", ports.ports[i].device,
				 ports.ports[i].port);
			emit(buf, cur);
		}
		rdc_ports_free(&ports);
	}
	if (!rdc_fs_list(&nets, NULL, "/sys/class/net")) {
		for (size_t i = 0; i < nets.count; i++)
			emit(nets.names[i], cur);
		rdc_fs_list_free(&nets);
	}
}

int rdc_complete(int argc, char **argv)
{
	const char *cur = argc > 0 ? argv[argc - 1] : "";
	const struct rdc_action *act = NULL;
	const struct rdc_cmd *cmd = NULL;
	bool object_seen = false;
	int i = 0;

	/* Global options before the verb; --root changes which host we list devices of. */
	for (; i < argc - 1 && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--root") && i + 1 < argc - 1)
			rdc_fs_set_root(argv[i + 1], NULL);
		if (takes_value(argv[i]))
			i++;
	}
	if (i > 0 && takes_value(argv[i - 1]) && i == argc - 1)
		return 0; /* a path: the shell completes files */
	if (i >= argc - 1) {
		if (cur[0] == '-') {
			for (size_t k = 0; global_flags[k]; k++)
				emit(global_flags[k], cur);
			return 0;
		}
		for (size_t k = 0; rdc_cmds[k]; k++)
			emit(rdc_cmds[k]->name, cur);
		emit("help", cur);
		return 0;
	}
	if (!strcmp(argv[i], "help")) {
		for (size_t k = 0; rdc_cmds[k]; k++)
			emit(rdc_cmds[k]->name, cur);
		return 0;
	}
	cmd = rdc_cmd_find(argv[i++]);
	if (!cmd)
		return 0;
	if (i == argc - 1) {
		for (const struct rdc_action *a = cmd->actions; a->name; a++)
			emit(a->name, cur);
		emit("help", cur);
		if (cmd->actions[0].object != RDC_COMPLETE_NONE)
			complete_ports(cur);
		return 0;
	}
	for (const struct rdc_action *a = cmd->actions; a->name; a++)
		if (!strcmp(a->name, argv[i]))
			act = a;
	if (act)
		i++;
	else
		act = &cmd->actions[0];
	/* Walk the words after the action as the parser would. */
	for (; i < argc - 1; i++) {
		const struct rdc_param *p = NULL;

		for (const struct rdc_param *q = act->params; q && q->name; q++)
			if (!strcmp(q->name, argv[i]))
				p = q;
		if (p && p->metavar) {
			if (i + 1 == argc - 1) {
				for (const char *const *s = p->suggest; s && *s; s++)
					emit(*s, cur);
				return 0;
			}
			i++;
		} else if (!p) {
			object_seen = true;
		}
	}
	for (const struct rdc_param *q = act->params; q && q->name; q++) {
		bool used = false;

		for (int k = 0; k < argc - 1; k++)
			used |= !strcmp(argv[k], q->name);
		if (!used)
			emit(q->name, cur);
	}
	if (act->flags & RDC_ACT_MUTATES)
		emit("--dry-run", cur);
	if (act->object != RDC_COMPLETE_NONE && !object_seen)
		complete_ports(cur);
	return 0;
}
