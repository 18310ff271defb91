// SPDX-License-Identifier: GPL-2.0-or-later
/* netplan.c - the bonds of a netplan file, read with libyaml's document loader */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/util.h"
#include "base/yaml_file.h"
#include "bond/netplan.h"

#define NETPLAN_MAX_BYTES (1 << 20) /* a netplan file is a few KiB; refuse anything huge */

struct np_load {
	yaml_document_t *doc;
	struct rdc_cfg *cfg;
	const char *path;
	struct rdc_err *err;
};

static int np_error(struct np_load *l, const yaml_node_t *node, const char *fmt, ...)
	RDC_PRINTF(3, 4);
static int np_error(struct np_load *l, const yaml_node_t *node, const char *fmt, ...)
{
	char *msg = NULL; /* it quotes the file's keys and values: whole */
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rdc_str_vcatf(&msg, fmt, ap);
	va_end(ap);
	rc = rdc_err_set(l->err, EINVAL, "%s line %zu: %s", l->path,
			 node ? node->start_mark.line + 1 : 0,
			 msg ? msg : "(no memory for the message)");
	free(msg);
	return rc;
}

static const char *np_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A scalar's text for messages, "" for anything else. */
static const char *np_text(const yaml_node_t *n)
{
	return np_scalar(n) ? np_scalar(n) : "";
}

/* The value node of @key in mapping @map (NULL when absent); a key given twice is an error. */
static int np_get(struct np_load *l, const yaml_node_t *map, const char *key, yaml_node_t **value)
{
	*value = NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(l->doc, p->key);
		const char *name = np_scalar(k);

		if (!name)
			return np_error(l, k, "%s", "keys must be scalars");
		if (strcmp(name, key))
			continue;
		if (*value)
			return np_error(l, k, "'%s' given twice", key);
		*value = yaml_document_get_node(l->doc, p->value);
	}
	return 0;
}

/* The key node of @key in mapping @map (its line is the one to name), or NULL. */
static const yaml_node_t *np_key(struct np_load *l, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(l->doc, p->key);

		if (np_scalar(k) && !strcmp(np_scalar(k), key))
			return k;
	}
	return NULL;
}

/*
 * A host's netplan mapping holds a few dozen keys (interfaces, parameters); the
 * check below compares every pair, so a mapping is capped well before that costs
 * time (a 1 MiB file of one mapping would be 10^9 comparisons).
 */
#define NETPLAN_MAX_KEYS 256

/* Every key of @map once: YAML allows duplicates, a desired state must not. */
static int np_unique_keys(struct np_load *l, const yaml_node_t *map)
{
	if (map->data.mapping.pairs.top - map->data.mapping.pairs.start > NETPLAN_MAX_KEYS)
		return np_error(l, map, "more than %d keys in one mapping", NETPLAN_MAX_KEYS);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(l->doc, p->key);
		yaml_node_t *v;
		int rc;

		if (!np_scalar(k))
			return np_error(l, k, "%s", "keys must be scalars");
		rc = np_get(l, map, np_scalar(k), &v);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Every mapping of the document, the sections rdmactl passes over included,
 * holds each key once: a file with two 'ethernets:' or two 'mode:' says two
 * things, and which one netplan or rdmactl would take is not the user's.
 */
#define NETPLAN_MAX_DEPTH 32 /* netplan nests 5 deep; a deeper file is not one */

static int np_unique_all(struct np_load *l, const yaml_node_t *n, int depth)
{
	int rc = 0;

	if (!n || n->type == YAML_SCALAR_NODE)
		return 0;
	if (depth > NETPLAN_MAX_DEPTH)
		return np_error(l, n, "nested more than %d deep", NETPLAN_MAX_DEPTH);
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = n->data.sequence.items.start;
		     !rc && i < n->data.sequence.items.top; i++)
			rc = np_unique_all(l, yaml_document_get_node(l->doc, *i), depth + 1);
		return rc;
	}
	rc = np_unique_keys(l, n);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     !rc && p < n->data.mapping.pairs.top; p++)
		rc = np_unique_all(l, yaml_document_get_node(l->doc, p->value), depth + 1);
	return rc;
}

/*
 * A bond's name must be one the kernel takes (dev_valid_name(): 1-15 bytes,
 * not "." or "..", no '/', ':' or blank) and must not read as an option.
 */
static int np_ifname(struct np_load *l, const yaml_node_t *at, const char *what, const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= 16 || !strcmp(name, ".") || !strcmp(name, "..") || name[0] == '-' ||
	    strpbrk(name, "/: \t\n\r\v\f"))
		return np_error(l, at, "%s '%s' is not an interface name", what, name);
	return 0;
}

/*
 * One interface in one bond: named twice, or in two bonds, the second enslave
 * would fail half way through the apply (or move the interface); say so now.
 */
static int np_members_unique(struct np_load *l, const yaml_node_t *bond_name,
			     const yaml_node_t *ifaces)
{
	if (!ifaces || ifaces->type != YAML_SEQUENCE_NODE)
		return 0;
	for (yaml_node_item_t *i = ifaces->data.sequence.items.start;
	     i < ifaces->data.sequence.items.top; i++) {
		yaml_node_t *item = yaml_document_get_node(l->doc, *i);
		const char *name = np_scalar(item);
		int rc;

		if (!name)
			continue; /* np_value says what is wrong with it */
		rc = np_ifname(l, item, "interface", name);
		if (rc)
			return rc;
		for (yaml_node_item_t *j = ifaces->data.sequence.items.start; j < i; j++)
			if (!strcmp(np_text(yaml_document_get_node(l->doc, *j)), name))
				return np_error(l, item, "interface '%s' given twice in '%s'", name,
						np_text(bond_name));
		/* The bonds read so far: device 0.. with key "interfaces" at some index. */
		for (size_t d = 0; d < l->cfg->ndevices; d++) {
			const struct rdc_cfg_device *dev = &l->cfg->devices[d];

			for (size_t k = 0; k < dev->nkeys; k++) {
				if (strcmp(dev->keys[k].key, "interfaces"))
					continue;
				for (size_t w = 0; w < dev->keys[k].nwords; w++)
					if (!strcmp(dev->keys[k].words[w], name))
						return np_error(l, item,
								"interface '%s' is in bond '%s' "
								"(line %u) too",
								name, dev->keys[0].words[0],
								dev->line);
			}
		}
	}
	return 0;
}

static int np_add_key(struct np_load *l, struct rdc_cfg_device *d, const yaml_node_t *at,
		      const char *key)
{
	if (d->nkeys >= RDC_CFG_MAX_KEYS)
		return np_error(l, at, "%s", "too many keys");
	d->keys[d->nkeys].key = strdup(key);
	d->keys[d->nkeys].line = (unsigned int)at->start_mark.line + 1;
	d->keys[d->nkeys].nwords = 0;
	if (!d->keys[d->nkeys].key)
		return rdc_err_set(l->err, ENOMEM, "cannot load '%s'", l->path);
	d->nkeys++;
	return 0;
}

static int np_add_word(struct np_load *l, struct rdc_cfg_device *d, const yaml_node_t *at,
		       const char *word)
{
	size_t k = d->nkeys - 1;

	if (d->keys[k].nwords >= RDC_CFG_MAX_WORDS)
		return np_error(l, at, "%s", "too many values");
	d->keys[k].words[d->keys[k].nwords] = strdup(word);
	if (!d->keys[k].words[d->keys[k].nwords])
		return rdc_err_set(l->err, ENOMEM, "cannot load '%s'", l->path);
	d->keys[k].nwords++;
	return 0;
}

/* A scalar, or a sequence of scalars (interfaces), as the key's words. */
static int np_value(struct np_load *l, struct rdc_cfg_device *d, const yaml_node_t *v)
{
	if (np_scalar(v))
		return np_add_word(l, d, v, np_scalar(v));
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return np_error(l, v, "%s", "a value must be a scalar or a list of scalars");
	for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top;
	     i++) {
		yaml_node_t *item = yaml_document_get_node(l->doc, *i);
		int rc;

		if (!np_scalar(item))
			return np_error(l, item, "%s", "list items must be scalars");
		rc = np_add_word(l, d, item, np_scalar(item));
		if (rc)
			return rc;
	}
	return 0;
}

static int np_bond(struct np_load *l, const yaml_node_t *name, const yaml_node_t *bond)
{
	struct rdc_cfg_device *d;
	yaml_node_t *v;
	int rc;

	if (!bond || bond->type != YAML_MAPPING_NODE)
		return np_error(l, bond, "bond '%s' must be a mapping", np_text(name));
	rc = np_ifname(l, name, "bond", np_text(name));
	if (rc)
		return rc;
	for (size_t i = 0; i < l->cfg->ndevices; i++)
		if (!strcmp(l->cfg->devices[i].keys[0].words[0], np_text(name)))
			return np_error(l, name, "bond '%s' given twice", np_text(name));
	if (l->cfg->ndevices >= RDC_CFG_MAX_DEVICES)
		return np_error(l, name, "%s", "too many bonds");
	rc = np_unique_keys(l, bond);
	if (rc)
		return rc;
	d = &l->cfg->devices[l->cfg->ndevices++];
	memset(d, 0, sizeof(*d));
	d->line = (unsigned int)name->start_mark.line + 1;
	rc = np_add_key(l, d, name, "bond");
	if (!rc)
		rc = np_add_word(l, d, name, np_text(name));
	for (yaml_node_pair_t *p = bond->data.mapping.pairs.start;
	     !rc && p < bond->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(l->doc, p->key);

		if (strcmp(np_text(k), "interfaces") && strcmp(np_text(k), "parameters"))
			rc = np_error(l, k,
				      "'%s' is not a bond setting rdmactl applies (interfaces, "
				      "parameters)",
				      np_text(k));
	}
	if (!rc)
		rc = np_get(l, bond, "interfaces", &v);
	if (!rc)
		rc = np_members_unique(l, name, v);
	if (!rc && v) {
		rc = np_add_key(l, d, v, "interfaces");
		if (!rc)
			rc = np_value(l, d, v);
	}
	if (!rc)
		rc = np_get(l, bond, "parameters", &v);
	if (rc || !v)
		return rc;
	if (v->type != YAML_MAPPING_NODE)
		return np_error(l, v, "%s", "'parameters' must be a mapping");
	rc = np_unique_keys(l, v);
	for (yaml_node_pair_t *p = v->data.mapping.pairs.start;
	     !rc && p < v->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(l->doc, p->key);

		rc = np_add_key(l, d, k, np_text(k));
		if (!rc)
			rc = np_value(l, d, yaml_document_get_node(l->doc, p->value));
	}
	return rc;
}

static int np_root(struct np_load *l, yaml_node_t *root)
{
	yaml_node_t *net, *bonds;
	int rc;

	if (!root || root->type != YAML_MAPPING_NODE)
		return np_error(l, root, "%s", "expected a mapping (network: bonds: ...)");
	rc = np_unique_all(l, root, 0);
	if (!rc)
		rc = np_get(l, root, "network", &net);
	if (!rc)
		rc = np_get(l, root, "bonds", &bonds);
	if (rc)
		return rc;
	if (net) {
		/* Two bonds sections, one inside network and one beside it: which one? */
		if (bonds)
			return np_error(l, np_key(l, root, "bonds"), "%s",
					"'bonds' beside 'network' (bonds go inside it)");
		if (net->type != YAML_MAPPING_NODE)
			return np_error(l, net, "%s", "'network' must be a mapping");
		root = net;
	}
	rc = np_get(l, root, "bonds", &bonds);
	if (rc)
		return rc;
	if (!bonds)
		return np_error(l, root, "%s", "no 'bonds' section");
	if (bonds->type != YAML_MAPPING_NODE)
		return np_error(l, bonds, "%s", "'bonds' must be a mapping of bond names");
	rc = np_unique_keys(l, bonds);
	for (yaml_node_pair_t *p = bonds->data.mapping.pairs.start;
	     !rc && p < bonds->data.mapping.pairs.top; p++)
		rc = np_bond(l, yaml_document_get_node(l->doc, p->key),
			     yaml_document_get_node(l->doc, p->value));
	return rc;
}

int rdc_bond_netplan_load(const char *path, struct rdc_cfg *cfg, struct rdc_err *err)
{
	struct np_load l = {.cfg = cfg, .path = path, .err = err};
	unsigned char *buf = NULL;
	yaml_parser_t parser;
	yaml_document_t doc;
	size_t len = 0;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	rc = rdc_yaml_file_read(path, NETPLAN_MAX_BYTES, &buf, &len, err);
	if (rc)
		return rc;
	/*
	 * What the document loader hides: an alias (it would share one node
	 * between two places, e.g. one bond's interfaces in another) and a second
	 * document (yaml_parser_load() reads the first and leaves the rest unread).
	 */
	rc = rdc_yaml_events(path, buf, len, NULL, NULL, err);
	if (rc) {
		free(buf);
		return rc;
	}
	if (!yaml_parser_initialize(&parser)) {
		free(buf);
		return rdc_err_set(err, ENOMEM, "cannot load '%s'", path);
	}
	yaml_parser_set_input_string(&parser, buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = rdc_yaml_parse_error(&parser, path, err);
	} else {
		l.doc = &doc;
		rc = np_root(&l, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	free(buf);
	return rc;
}
