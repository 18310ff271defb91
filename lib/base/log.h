/* SPDX-License-Identifier: GPL-2.0-or-later */
/* log.h - messages on stderr with levels (-q, -v, -vv) */
#pragma once

#include <stdbool.h>

#include "base/err.h"

enum rdc_log_level { RDC_LOG_ERR, RDC_LOG_WARN, RDC_LOG_INFO, RDC_LOG_DEBUG };

/* Program name used as the message prefix ("rdmactl"). */
void rdc_log_init(const char *prog, enum rdc_log_level level);
void rdc_log(enum rdc_log_level level, const char *fmt, ...) RDC_PRINTF(2, 3);

#define log_err(...) rdc_log(RDC_LOG_ERR, __VA_ARGS__)
#define log_warn(...) rdc_log(RDC_LOG_WARN, __VA_ARGS__)
#define log_info(...) rdc_log(RDC_LOG_INFO, __VA_ARGS__)
#define log_dbg(...) rdc_log(RDC_LOG_DEBUG, __VA_ARGS__)

/* "rdmactl: VERB: MSG: strerror (DETAIL)" from an error record. */
void rdc_log_error_record(const char *verb, const struct rdc_err *err);
/* The same from its parts (a record kept whole on the heap: base/issues.h); @verb may be NULL. */
void rdc_log_error_parts(const char *verb, const char *msg, int code, bool plain,
			 const char *detail);
