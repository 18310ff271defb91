// SPDX-License-Identifier: GPL-2.0-or-later
/* complete.c - the hidden `__complete` verb: candidates from the tables and live devices */
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/netns.h"
#include "base/util.h"
#include "diag/diag.h"
#include "host/ibdev.h"
#include "host/netdev.h"
#include "host/system.h"
#include "cmd.h"

/*
 * `rdmactl __complete WORD... CUR` prints one candidate per line for CUR,
 * given the words before it.  The shell wrappers in completions/ only call
 * this, so completion can never drift from what the parser accepts.
 */

static const char *const global_flags[] = {
	"--json",    "--yaml",	  "--pretty",  "--root",  "--replay", "--record",
	"--dry-run", "--confirm", "--verbose", "--quiet", "--brief",  "--color=",
	"--netns",   "--version", "--help",    "-j",	  "-p",	      "-v",
	"-q",	     "-n",	  "-V",	       "-h",	  NULL,
};

/*
 * What the shell completes itself, as the only line of the answer: a file
 * (":file") or a directory (":dir").  No candidate begins with ':'.
 */
#define FILES_DIRECTIVE ":file"
#define DIRS_DIRECTIVE ":dir"

/* -n NETNS: the named namespaces (`ip netns`'s), one per line. */
static void complete_netns(const char *cur)
{
	struct rdc_names names;

	if (rdc_netns_names(&names, NULL))
		return;
	for (size_t i = 0; i < names.count; i++)
		if (!strncmp(names.names[i], cur, strlen(cur)))
			printf("%s\n", names.names[i]);
	rdc_names_free(&names);
}

/* For a global option that takes the next word (rdc_global_arity 1): what that word is. */
static void complete_global_value(const char *opt, const char *cur)
{
	if (!strncmp(opt, "--ro", 4))
		printf("%s\n", DIRS_DIRECTIVE);
	else if (!strncmp(opt, "--rec", 5) || !strncmp(opt, "--rep", 5))
		printf("%s\n", FILES_DIRECTIVE);
	else if (!strncmp(opt, "--ne", 4) || (opt[0] == '-' && opt[1] != '-' && strchr(opt, 'n')))
		complete_netns(cur);
}

static void emit(const char *cand, const char *cur)
{
	if (!strncmp(cand, cur, strlen(cur)))
		printf("%s\n", cand);
}

static void complete_ports(const char *cur)
{
	struct rdc_port_list ports;
	struct rdc_names nets;
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
	if (!rdc_netdev_names(&nets, NULL)) {
		for (size_t i = 0; i < nets.count; i++)
			emit(nets.names[i], cur);
		rdc_names_free(&nets);
	}
}

/* Network interfaces, or only bonds. */
static void complete_netdevs(const char *cur, bool bonds_only)
{
	struct rdc_names nets;

	if (rdc_netdev_names(&nets, NULL))
		return;
	for (size_t i = 0; i < nets.count; i++) {
		struct rdc_netdev nd = {0};

		if (!bonds_only || (!rdc_netdev_read(nets.names[i], &nd, NULL) && nd.is_bond))
			emit(nets.names[i], cur);
		rdc_netdev_free(&nd);
	}
	rdc_names_free(&nets);
}

/* Candidates for what a value or positional argument names. */
/* diag's check ids and family names. */
static void complete_checks(const char *cur)
{
	for (size_t i = 0; i < rdc_diag_nfamilies; i++) {
		emit(rdc_diag_families[i]->name, cur);
		for (size_t k = 0; k < rdc_diag_families[i]->count; k++)
			emit(rdc_diag_families[i]->checks[k].id, cur);
	}
}

static void complete_kind(enum rdc_complete kind, const char *cur, bool list_ports)
{
	if (kind == RDC_COMPLETE_FILE) {
		printf("%s\n", FILES_DIRECTIVE);
		return;
	}
	if (kind == RDC_COMPLETE_CHECK) {
		complete_checks(cur); /* from the table: no host needed */
		return;
	}
	if (!list_ports)
		return;
	if (kind == RDC_COMPLETE_PORT)
		complete_ports(cur);
	else if (kind == RDC_COMPLETE_NETDEV || kind == RDC_COMPLETE_BOND)
		complete_netdevs(cur, kind == RDC_COMPLETE_BOND);
	else if (kind == RDC_COMPLETE_CHECK)
		complete_checks(cur);
}

/* The value of "--opt=VALUE", or NULL when @word is not that option. */
static const char *opt_value(const char *word, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(word, opt, n) && word[n] == '=' ? word + n + 1 : NULL;
}

static bool word_in(const char *word, int argc, char **argv)
{
	for (int k = 0; k < argc; k++)
		if (!strcmp(argv[k], word))
			return true;
	return false;
}

/* The values of a keyword with a fixed set: its suggestions, or its enum's names. */
static void complete_values(const struct rdc_param *p, const char *cur)
{
	const char *const *names = p->suggest;

	if (!names && p->parse == rdc_val_enum && p->spec)
		names = ((const struct rdc_val_enum *)p->spec)->names;
	for (; names && *names; names++)
		emit(*names, cur);
}

/*
 * A KEY:VALUE word of a map keyword ("prio-pfc 3:on"): the keys with their
 * colon, then after it the values where they are a fixed set.
 */
static void complete_map_word(const struct rdc_param *p, const char *cur)
{
	static const char *const onoff[] = {"on", "off", NULL};
	static const char *const tsa[] = {"strict", "cbs", "ets", "vendor", NULL};
	const struct rdc_val_map *spec = p->spec;
	const char *colon = strchr(cur, ':');
	char buf[64];

	if (p->parse != rdc_val_map || !spec)
		return;
	if (!colon) {
		if (spec->allow_all)
			emit("all:", cur);
		for (unsigned int k = 0; k < spec->nkeys; k++) {
			snprintf(buf, sizeof(buf), "%u:", k);
			emit(buf, cur);
		}
		return;
	}
	if ((size_t)(colon - cur) >= sizeof(buf) - 16)
		return;
	if (spec->kind == RDC_MAP_ONOFF || spec->kind == RDC_MAP_TSA) {
		for (const char *const *v = spec->kind == RDC_MAP_ONOFF ? onoff : tsa; *v; v++) {
			snprintf(buf, sizeof(buf), "%.*s:%s", (int)(colon - cur), cur, *v);
			emit(buf, cur);
		}
	} else if (spec->kind == RDC_MAP_NUMBER && spec->max <= 15) {
		for (unsigned int v = 0; v <= spec->max; v++) {
			snprintf(buf, sizeof(buf), "%.*s:%u", (int)(colon - cur), cur, v);
			emit(buf, cur);
		}
	}
}

/* Keywords and the object after the action, walked as the parser would. */
static void complete_action(const struct rdc_action *act, int argc, char **argv, const char *cur,
			    bool list_ports)
{
	int objects = 0;

	for (int i = 0; i < argc; i++) {
		const struct rdc_param *p = NULL;

		for (const struct rdc_param *q = act->params; q && q->name; q++)
			if (!strcmp(q->name, argv[i]))
				p = q;
		if (!p && rdc_global_arity(argv[i]) >= 0) {
			/* A global option after the verb, and its value. */
			if (rdc_global_arity(argv[i]) == 1) {
				if (i + 1 == argc) {
					complete_global_value(argv[i], cur);
					return;
				}
				i++;
			}
			continue;
		}
		if (p && p->words) {
			/* Its plain words: the word being completed may be another, or a keyword. */
			if (i + 1 == argc) {
				complete_kind(p->value_kind, cur, true);
				return;
			}
			while (i + 1 < argc && rdc_param_find(act, argv[i + 1]) < 0)
				i++;
			if (i + 1 == argc)
				complete_kind(p->value_kind, cur, true);
		} else if (p && p->multi) {
			/* Its KEY:VALUE words; the word being completed may be another. */
			if (i + 1 == argc) {
				complete_map_word(p, cur);
				return; /* at least one KEY:VALUE must come first */
			}
			while (i + 1 < argc && strchr(argv[i + 1], ':'))
				i++;
			if (i + 1 == argc && strchr(cur, ':')) {
				complete_map_word(p, cur);
				return;
			}
			if (i + 1 == argc && cur[0] && cur[0] >= '0' && cur[0] <= '9')
				complete_map_word(p, cur);
		} else if (p && p->metavar) {
			if (i + 1 == argc) {
				complete_values(p, cur);
				complete_kind(p->value_kind, cur, list_ports);
				return;
			}
			i++;
		} else if (!p) {
			objects++;
		}
	}
	for (const struct rdc_param *q = act->params; q && q->name; q++) {
		bool alone_given = false, others_given = false;

		/*
		 * Neither a keyword already given, nor one it excludes, nor beside a
		 * lone one (but the one keyword a lone one takes, either way round).
		 */
		for (const struct rdc_param *r = act->params; r->name; r++) {
			alone_given |= r->alone && word_in(r->name, argc, argv) &&
				       !(r->alone_but && !strcmp(q->name, r->alone_but));
			others_given |= r != q && word_in(r->name, argc, argv) &&
					!(q->alone_but && !strcmp(r->name, q->alone_but));
		}
		if ((word_in(q->name, argc, argv) && !q->repeat) ||
		    (q->excludes && word_in(q->excludes, argc, argv)) || alone_given ||
		    (q->alone && argc > 0 && (!q->alone_but || others_given)))
			continue;
		emit(q->name, cur);
	}
	if ((act->flags & RDC_ACT_MUTATES) && !word_in("--dry-run", argc, argv))
		emit("--dry-run", cur);
	/* The global options are good after the verb too; offered once a '-' is typed. */
	if (cur[0] == '-')
		for (size_t k = 0; global_flags[k]; k++)
			if (strcmp(global_flags[k], "--dry-run"))
				emit(global_flags[k], cur);
	if (objects == 0 || act->objects)
		complete_kind(act->object, cur, list_ports);
	else if (objects == 1)
		complete_kind(act->object2, cur, list_ports);
}

int rdc_complete(int argc, char **argv)
{
	static const char *const colors[] = {"--color=auto", "--color=always", "--color=never"};
	const char *cur = argc > 0 ? argv[argc - 1] : "";
	const struct rdc_action *act = NULL;
	const struct rdc_cmd *cmd = NULL;
	bool list_ports = true;
	int words = argc > 0 ? argc - 1 : 0; /* the words before the one being completed */
	int i = 0;

	/* Global options before the verb; --root changes which host we list devices of. */
	for (; i < words && argv[i][0] == '-'; i++) {
		const char *root = opt_value(argv[i], "--root");

		if (rdc_global_arity(argv[i]) == 1) {
			if (i + 1 == words) {
				/* its path (the shell lists files), or a namespace */
				complete_global_value(argv[i], cur);
				return 0;
			}
			root = !strcmp(argv[i], "--root") ? argv[i + 1] : NULL;
			i++;
		}
		/* A root that cannot be used lists nothing rather than the live host. */
		if (root && rdc_system_set_root(root, NULL))
			list_ports = false;
	}
	if (i == words) {
		if (!strncmp(cur, "--color=", 8)) {
			for (size_t k = 0; k < RDC_ARRAY_SIZE(colors); k++)
				emit(colors[k], cur);
		} else if (cur[0] == '-') {
			for (size_t k = 0; global_flags[k]; k++)
				emit(global_flags[k], cur);
		} else {
			for (size_t k = 0; rdc_cmds[k]; k++)
				emit(rdc_cmds[k]->name, cur);
			emit("help", cur);
		}
		return 0;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 == words)
			for (size_t k = 0; rdc_cmds[k]; k++)
				emit(rdc_cmds[k]->name, cur);
		return 0;
	}
	cmd = rdc_cmd_find(argv[i++]);
	if (!cmd)
		return 0;
	if (i == words) {
		for (const struct rdc_action *a = cmd->actions; a->name; a++)
			emit(a->name, cur);
		emit("help", cur);
		complete_kind(cmd->actions[0].object, cur, list_ports);
		return 0;
	}
	for (const struct rdc_action *a = cmd->actions; a->name; a++)
		if (!strcmp(a->name, argv[i]))
			act = a;
	if (act)
		i++;
	else
		act = &cmd->actions[0];
	complete_action(act, words - i, argv + i, cur, list_ports);
	return 0;
}
