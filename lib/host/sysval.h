/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysval.h - one sysfs value: read, absent, or a recorded reason why not */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base/issues.h"

/*
 * Each returns 1 when the value was read, 0 when the file does not exist
 * (the kernel does not offer that value: null, and nothing to say), and a
 * negative errno when it exists but could not be read or parsed; then one
 * record naming the file and why is added to @is (may be NULL).
 */
int rdc_sysval_str(struct rdc_issues *is, char *buf, size_t size, const char *fmt, ...)
	RDC_PRINTF(4, 5);
/*
 * Decimal numbers, as the kernel writes counters, widths and node numbers
 * (base 10: "010" is ten; "0x10" is not a number here).
 */
int rdc_sysval_u64(struct rdc_issues *is, uint64_t *v, const char *fmt, ...) RDC_PRINTF(3, 4);
int rdc_sysval_i64(struct rdc_issues *is, int64_t *v, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Record that the file at @path holds @text, which is not @what. */
void rdc_sysval_bad(struct rdc_issues *is, const char *path, const char *text, const char *what);
