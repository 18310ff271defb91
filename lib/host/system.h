/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system.h - which system the models read: the live kernel, a --root bundle, a recording */
#pragma once

#include <stdbool.h>

#include "base/err.h"

struct rdc_system_opts {
	const char *root;   /* --root DIR: files from DIR, kernel answers from DIR/kernel.rec */
	const char *record; /* --record FILE: the live kernel, every exchange written to FILE */
	const char *replay; /* --replay FILE: kernel answers from FILE */
};

/*
 * Point both seams (the file layer and the kernel transport) at the system
 * @o names.  Under a root without a recording, kernel messages are refused
 * (the bundle has no answers to give).
 */
int rdc_system_open(const struct rdc_system_opts *o, struct rdc_err *err);
void rdc_system_close(void);
/* Neither --root nor --replay: the running kernel answers, and writes may happen. */
bool rdc_system_live(void);
/* Only point the file layer at @root (completion lists a bundle's devices). */
int rdc_system_set_root(const char *root, struct rdc_err *err);
