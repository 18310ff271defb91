/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.h - YAML desired-state files: a list of devices, each a map of keywords */
#pragma once

#include <stddef.h>

#include "base/err.h"

/*
 *   devices:
 *     - dev: ens1f0np0
 *       profile: roce-lossless
 *       prio: 3
 *     - dev: ens1f1np1
 *       prio-pfc: all:off 3:on      a scalar is split at blanks ...
 *       dscp-prio: [26:3, 48:6]     ... a sequence gives one word per item
 *
 * Each key becomes a keyword and its words the values, exactly as on the
 * command line, so files and arguments share one parser.  Errors name the line.
 */
#define RDC_CFG_MAX_DEVICES 64
#define RDC_CFG_MAX_KEYS 32
#define RDC_CFG_MAX_WORDS 128
#define RDC_CFG_MAX_BYTES (1 << 20) /* a file of 64 devices is a few KiB */

struct rdc_cfg_device {
	unsigned int line; /* where the device's mapping starts, 1-based */
	size_t nkeys;
	struct rdc_cfg_key {
		char *key;
		unsigned int line;
		size_t nwords;
		char *words[RDC_CFG_MAX_WORDS];
	} keys[RDC_CFG_MAX_KEYS];
};

struct rdc_cfg {
	size_t ndevices;
	struct rdc_cfg_device devices[RDC_CFG_MAX_DEVICES];
};

/* Parse @path; @cfg must be freed with rdc_cfg_free() even after an error. */
int rdc_cfg_load(const char *path, struct rdc_cfg *cfg, struct rdc_err *err);
void rdc_cfg_free(struct rdc_cfg *cfg);
