/* SPDX-License-Identifier: GPL-2.0-or-later */
/* textfmt.h - printf for a terminal: the arguments escaped, the format trusted */
#pragma once

#include <stdarg.h>

#include "base/err.h"

/*
 * vasprintf(), except that every %s argument is escaped as by
 * rdc_str_escape() with newline and tab too: the format is ours and may lay
 * out lines, a string argument (a device name from a bundle, a counter name,
 * a peer's text) never may.  A precision ("%.*s") cuts the argument before
 * it is escaped, a width pads the escaped form.
 *   ("%s\n", "mlx5\nFAKE ROW")  ->  "mlx5\\x0aFAKE ROW\n"
 * Supports the conversions diouxXcsfFeEgGaAp and %% with the usual flags,
 * widths, precisions (also *) and length modifiers; %n and wide strings are
 * refused.  Returns a malloc'd string, or NULL (errno set: ENOMEM, EINVAL
 * for a format it does not support).
 */
char *rdc_text_vasprintf(const char *fmt, va_list ap);
char *rdc_text_asprintf(const char *fmt, ...) RDC_PRINTF(1, 2);
