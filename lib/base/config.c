// SPDX-License-Identifier: GPL-2.0-or-later
/* config.c - YAML desired-state files through libyaml's event parser */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/config.h"
#include "base/util.h"
#include "base/yaml_file.h"

/* Where the parser is in the one shape we accept. */
enum cfg_state {
	CFG_STREAM,    /* before the top mapping */
	CFG_TOP_KEY,   /* in the top mapping, expecting "devices" */
	CFG_DEVICES,   /* expecting the devices sequence */
	CFG_DEVICE,    /* in the sequence, expecting a device mapping */
	CFG_KEY,       /* in a device mapping, expecting a key */
	CFG_VALUE,     /* expecting a scalar or a sequence of scalars */
	CFG_VALUE_SEQ, /* inside a value sequence */
	CFG_DONE,
};

struct cfg_parse {
	struct rdc_cfg *cfg;
	struct rdc_err *err;
	const char *path;
	enum cfg_state state;
	unsigned int devices_line; /* where 'devices:' was, 0 before it */
};

static int cfg_error(struct cfg_parse *p, const yaml_event_t *ev, const char *what)
{
	return rdc_err_set(p->err, EINVAL, "%s line %zu: %s", p->path,
			   ev ? ev->start_mark.line + 1 : 0, what);
}

static int cfg_errorf(struct cfg_parse *p, const yaml_event_t *ev, const char *fmt, ...)
	RDC_PRINTF(3, 4);
static int cfg_errorf(struct cfg_parse *p, const yaml_event_t *ev, const char *fmt, ...)
{
	char *what = NULL; /* it quotes the file's keys and values: whole */
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rdc_str_vcatf(&what, fmt, ap);
	va_end(ap);
	rc = cfg_error(p, ev, what ? what : "(no memory for the message)");
	free(what);
	return rc;
}

/*
 * A key is a keyword as on the command line: a lowercase word with digits and
 * inner dashes ("prio-pfc", "cnp-dscp").  Anything else cannot be a setting,
 * and an option ("--dry-run", "-f") must not ride in on a file: the command
 * line alone says how a file is applied.
 */
static bool cfg_keyword(const char *key)
{
	size_t n = strlen(key);

	if (!n || n > 32 || key[0] < 'a' || key[0] > 'z' || key[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((key[i] >= 'a' && key[i] <= 'z') || (key[i] >= '0' && key[i] <= '9') ||
		      key[i] == '-'))
			return false;
	return true;
}

/* The key of the device being read, once: YAML would keep the last of two. */
static int cfg_add_key(struct cfg_parse *p, const yaml_event_t *ev)
{
	struct rdc_cfg_device *d = &p->cfg->devices[p->cfg->ndevices - 1];
	const char *key = (const char *)ev->data.scalar.value;

	if (!cfg_keyword(key))
		return cfg_errorf(p, ev,
				  "'%s' is not a setting (keys are keywords such as 'prio-pfc'; "
				  "options such as --dry-run go on the command line)",
				  key);
	for (size_t k = 0; k < d->nkeys; k++)
		if (!strcmp(d->keys[k].key, key))
			return cfg_errorf(p, ev, "'%s' given twice (first at line %u)", key,
					  d->keys[k].line);
	if (d->nkeys >= RDC_CFG_MAX_KEYS)
		return cfg_error(p, ev, "too many keys");
	d->keys[d->nkeys].key = strdup(key);
	if (!d->keys[d->nkeys].key)
		return rdc_err_set(p->err, ENOMEM, "cannot load '%s'", p->path);
	d->keys[d->nkeys].line = (unsigned int)ev->start_mark.line + 1;
	d->nkeys++;
	return 0;
}

static int cfg_add_word(struct cfg_parse *p, const yaml_event_t *ev, const char *word)
{
	struct rdc_cfg_device *d = &p->cfg->devices[p->cfg->ndevices - 1];
	size_t k = d->nkeys - 1;

	if (d->keys[k].nwords >= RDC_CFG_MAX_WORDS)
		return cfg_error(p, ev, "too many values");
	d->keys[k].words[d->keys[k].nwords] = strdup(word);
	if (!d->keys[k].words[d->keys[k].nwords])
		return rdc_err_set(p->err, ENOMEM, "cannot load '%s'", p->path);
	d->keys[k].nwords++;
	return 0;
}

/* A scalar value: split at blanks, so "all:off 3:on" reads as on the command line. */
static int cfg_add_scalar(struct cfg_parse *p, const yaml_event_t *ev)
{
	char *copy = strdup((const char *)ev->data.scalar.value), *tok, *save = NULL;
	int rc = 0;

	if (!copy)
		return rdc_err_set(p->err, ENOMEM, "cannot load '%s'", p->path);
	for (tok = strtok_r(copy, " \t", &save); tok && !rc; tok = strtok_r(NULL, " \t", &save))
		rc = cfg_add_word(p, ev, tok);
	free(copy);
	return rc;
}

static int cfg_event(struct cfg_parse *p, const yaml_event_t *ev)
{
	struct rdc_cfg *cfg = p->cfg;
	struct rdc_cfg_device *d;

	switch (p->state) {
	case CFG_STREAM:
		if (ev->type == YAML_STREAM_START_EVENT || ev->type == YAML_DOCUMENT_START_EVENT)
			return 0;
		if (ev->type != YAML_MAPPING_START_EVENT)
			return cfg_error(p, ev, "expected a mapping with 'devices:'");
		p->state = CFG_TOP_KEY;
		return 0;
	case CFG_TOP_KEY:
		if (ev->type == YAML_MAPPING_END_EVENT) {
			p->state = CFG_DONE;
			return 0;
		}
		if (ev->type != YAML_SCALAR_EVENT ||
		    strcmp((const char *)ev->data.scalar.value, "devices"))
			return cfg_error(p, ev, "unknown top-level key (only 'devices')");
		/* A second list would merge into the first: one list says it all. */
		if (p->devices_line)
			return cfg_errorf(p, ev, "'devices' given twice (first at line %u)",
					  p->devices_line);
		p->devices_line = (unsigned int)ev->start_mark.line + 1;
		p->state = CFG_DEVICES;
		return 0;
	case CFG_DEVICES:
		if (ev->type != YAML_SEQUENCE_START_EVENT)
			return cfg_error(p, ev, "'devices' must be a list");
		p->state = CFG_DEVICE;
		return 0;
	case CFG_DEVICE:
		if (ev->type == YAML_SEQUENCE_END_EVENT) {
			p->state = CFG_TOP_KEY;
			return 0;
		}
		if (ev->type != YAML_MAPPING_START_EVENT)
			return cfg_error(p, ev, "each device must be a mapping of keys");
		if (cfg->ndevices >= RDC_CFG_MAX_DEVICES)
			return cfg_error(p, ev, "too many devices");
		d = &cfg->devices[cfg->ndevices++];
		d->line = (unsigned int)ev->start_mark.line + 1;
		p->state = CFG_KEY;
		return 0;
	case CFG_KEY:
		if (ev->type == YAML_MAPPING_END_EVENT) {
			p->state = CFG_DEVICE;
			return 0;
		}
		if (ev->type != YAML_SCALAR_EVENT)
			return cfg_error(p, ev, "expected a key");
		p->state = CFG_VALUE;
		return cfg_add_key(p, ev);
	case CFG_VALUE:
		if (ev->type == YAML_SEQUENCE_START_EVENT) {
			p->state = CFG_VALUE_SEQ;
			return 0;
		}
		if (ev->type != YAML_SCALAR_EVENT)
			return cfg_error(p, ev, "a value must be a scalar or a list of scalars");
		p->state = CFG_KEY;
		return cfg_add_scalar(p, ev);
	case CFG_VALUE_SEQ:
		if (ev->type == YAML_SEQUENCE_END_EVENT) {
			p->state = CFG_KEY;
			return 0;
		}
		if (ev->type != YAML_SCALAR_EVENT)
			return cfg_error(p, ev, "list items must be scalars");
		return cfg_add_word(p, ev, (const char *)ev->data.scalar.value);
	case CFG_DONE:
		if (ev->type == YAML_DOCUMENT_END_EVENT || ev->type == YAML_STREAM_END_EVENT)
			return 0;
		return cfg_error(p, ev, "only one document is allowed");
	}
	return 0;
}

/* rdc_yaml_events' callback: the parse state is the context. */
static int cfg_on_event(void *ctx, const yaml_event_t *ev)
{
	return cfg_event(ctx, ev);
}

int rdc_cfg_load(const char *path, struct rdc_cfg *cfg, struct rdc_err *err)
{
	struct cfg_parse p = {.cfg = cfg, .err = err, .path = path, .state = CFG_STREAM};
	unsigned char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	rc = rdc_yaml_file_read(path, RDC_CFG_MAX_BYTES, &buf, &len, err);
	if (rc)
		return rc;
	rc = rdc_yaml_events(path, buf, len, cfg_on_event, &p, err);
	free(buf);
	if (!rc && cfg->ndevices == 0)
		rc = rdc_err_set(err, EINVAL, "%s: no devices", path);
	return rc;
}

void rdc_cfg_free(struct rdc_cfg *cfg)
{
	for (size_t i = 0; i < cfg->ndevices; i++) {
		for (size_t k = 0; k < cfg->devices[i].nkeys; k++) {
			free(cfg->devices[i].keys[k].key);
			for (size_t w = 0; w < cfg->devices[i].keys[k].nwords; w++)
				free(cfg->devices[i].keys[k].words[w]);
		}
	}
	memset(cfg, 0, sizeof(*cfg));
}
