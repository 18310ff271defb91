/* SPDX-License-Identifier: GPL-2.0-or-later */
/* yaml_file.h - the one way a user's YAML file is read: bounded, no aliases, one document */
#pragma once

#include <stddef.h>

#include <yaml.h>

#include "base/err.h"

/*
 * The whole of @path ("-": standard input) into *@buf (malloc'd, *@len bytes).
 * A FIFO, socket or device named as @path is refused without blocking (only
 * "-" may be a pipe), and a file over @max_bytes is EFBIG: a desired state is
 * a few KiB, and a huge one would only cost memory.
 */
int rdc_yaml_file_read(const char *path, size_t max_bytes, unsigned char **buf, size_t *len,
		       struct rdc_err *err);

/* "PATH line N: PROBLEM" from a parser that failed; returns -EINVAL. */
int rdc_yaml_parse_error(const yaml_parser_t *parser, const char *path, struct rdc_err *err);

/*
 * Every event of @buf to @on_event (which returns 0 or -errno with @err set),
 * in order, to the end of the stream or the first error.  Refused before the
 * callback sees them: an alias (it would let a small file expand without bound,
 * or share one node between two places) and a second document (a loader
 * reading the first would silently ignore the rest).  A mapping or sequence nested
 * deeper than RDC_YAML_MAX_DEPTH is refused as the parser reaches it, so a
 * hostile file (80000 '[' in 160 KB) costs linear time: libyaml's scanner
 * walks its whole flow-level stack for every token, which is quadratic when
 * the whole document is parsed first.  @on_event may be NULL to only check
 * the file.
 */
#define RDC_YAML_MAX_DEPTH                                                                         \
	32 /* netplan nests 5 deep, our own files 4: no settings file is deeper */
int rdc_yaml_events(const char *path, const unsigned char *buf, size_t len,
		    int (*on_event)(void *ctx, const yaml_event_t *ev), void *ctx,
		    struct rdc_err *err);
