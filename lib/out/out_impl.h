/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_impl.h - what the JSON and YAML backends implement for out.c */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "out/out.h"

enum out_scalar { OUT_STRING, OUT_NUMBER, OUT_BOOL, OUT_NULL };

struct out_backend {
	void *(*open)(FILE *fp, bool pretty);
	/* Delimit one document; a stream may hold several (stats samples). */
	void (*doc_begin)(void *state);
	void (*doc_end)(void *state);
	void (*obj_open)(void *state, const char *key);
	void (*obj_close)(void *state);
	void (*arr_open)(void *state, const char *key);
	void (*arr_close)(void *state);
	/* @value is the text of the scalar: digits for numbers, "true"/"false", NULL for null. */
	void (*scalar)(void *state, const char *key, enum out_scalar kind, const char *value);
	/* Finish the document and free the state; returns 0 or -EIO. */
	int (*close)(void *state);
};

extern const struct out_backend rdc_out_json_backend;
extern const struct out_backend rdc_out_yaml_backend;
