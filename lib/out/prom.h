/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prom.h - Prometheus text exposition (0.0.4) for node_exporter's textfile collector */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

/*
 * A set of metric families, filled in any order and written sorted (families
 * by name, samples by their labels), so the same host gives the same bytes:
 *
 *   # HELP rdmactl_rdma_hw_counter_total RDMA hw_counters of a port ...
 *   # TYPE rdmactl_rdma_hw_counter_total counter
 *   rdmactl_rdma_hw_counter_total{device="mlx5_0",port="1",counter="np_cnp_sent"} 4420491
 *
 * Each family's HELP and TYPE are written once, before its samples; a family
 * without samples is not written at all.  No timestamps: the textfile
 * collector refuses them.
 *
 * Names: [a-zA-Z_][a-zA-Z0-9_]* (colons are for recording rules, so refused
 * here); a counter's name ends in "_total".  Label names the same, without a
 * leading "__" (Prometheus keeps those).  Label values and HELP are escaped
 * as the format says: backslash, double quote (label values only) and
 * newline; bytes that are not valid UTF-8 become U+FFFD.
 *
 * Errors are sticky, as with ferror(): the first one (an invalid name, a
 * sample of an undeclared family, no memory) is kept, later calls do
 * nothing, and rdc_prom_status() or the writers report it.
 * A value that could not be read is simply not added: the format has no null.
 */
struct rdc_prom;

enum rdc_prom_type { RDC_PROM_COUNTER, RDC_PROM_GAUGE };

/* One label of a sample; a NULL or empty @value leaves the label out (as Prometheus does). */
struct rdc_prom_label {
	const char *name;
	const char *value;
};

struct rdc_prom *rdc_prom_new(void);
void rdc_prom_free(struct rdc_prom *p); /* NULL-safe */

/* Whether @name is a valid metric (or, with @label, label) name by the rules above. */
bool rdc_prom_name_valid(const char *name, bool label);

/*
 * Declare family @name.  Declaring it again with the same type and help is
 * a no-op; with another type or help it is an error (-EINVAL).
 */
int rdc_prom_family(struct rdc_prom *p, const char *name, enum rdc_prom_type type,
		    const char *help);

/*
 * A sample of family @name with @nlabels labels (in the order given; the
 * caller keeps one order per family).  -EINVAL for an undeclared family or
 * a bad label name.  A label set the family already has is -EEXIST and
 * dropped, the first sample kept, and not an error of the set: label values
 * come from the kernel, which may repeat a name.
 */
int rdc_prom_u64(struct rdc_prom *p, const char *name, const struct rdc_prom_label *labels,
		 size_t nlabels, uint64_t v);
/* The same for a float; NaN and infinities are written as the format spells them. */
int rdc_prom_f64(struct rdc_prom *p, const char *name, const struct rdc_prom_label *labels,
		 size_t nlabels, double v);

/* 0, or the first error (negative errno) with its message in @err. */
int rdc_prom_status(const struct rdc_prom *p, struct rdc_err *err);
/* How many samples the set holds (all families). */
size_t rdc_prom_count(const struct rdc_prom *p);

/* The exposition as one malloc'd NUL-terminated string (*@buf, the caller frees it). */
int rdc_prom_render(const struct rdc_prom *p, char **buf, size_t *len, struct rdc_err *err);
/* Write the exposition to @fp; -EIO when the stream failed. */
int rdc_prom_write(const struct rdc_prom *p, FILE *fp, struct rdc_err *err);

/*
 * Replace @path atomically, as the textfile collector wants (it may read at
 * any moment): a temporary ".NAME.XXXXXX" in the same directory (mkstemp;
 * the collector reads only *.prom), written, fsync'ed, mode 0644 (the
 * exporter runs as another user), then renamed over @path, and the
 * directory synced.  On any failure the temporary file is removed and @path
 * is as it was.  A symlink at @path is replaced, not followed.
 */
int rdc_prom_write_file(const struct rdc_prom *p, const char *path, struct rdc_err *err);
