/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs.h - the one file layer: every sysfs/procfs/configfs access goes through here */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/names.h"

/*
 * Paths given to these functions are absolute kernel paths ("/sys/class/net").
 * With a root set (global option --root DIR) they are read below DIR instead,
 * which is how fixtures and support bundles replace the running kernel.
 * Under a root every write is refused.
 *
 * Path arguments are printf formats; the formatted path must fit PATH_MAX.
 */

/* Root all later accesses at @dir; NULL or "/" means the live system. */
int rdc_fs_set_root(const char *dir, struct rdc_err *err);
/* The root directory, or NULL for the live system. */
const char *rdc_fs_root(void);

/*
 * Read a whole small attribute file into @buf (NUL-terminated, one trailing
 * newline removed).  Returns the length or -errno.
 */
int rdc_fs_read(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(4, 5);
/* Read a decimal or 0x-prefixed unsigned number. */
int rdc_fs_read_u64(uint64_t *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Read a signed decimal number ("-1" is a valid numa_node). */
int rdc_fs_read_i64(int64_t *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);

/* The last path component of a symlink's target ("../../mlx5_core" -> "mlx5_core"). */
int rdc_fs_link_name(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);
/*
 * Resolve a path through all symlinks and return it as a kernel path (root
 * prefix removed): "/sys/class/net/eth0" -> "/sys/devices/.../net/eth0".
 */
int rdc_fs_resolve(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);

bool rdc_fs_exists(const char *fmt, ...) RDC_PRINTF(1, 2);

/*
 * List the entries of a directory (no "." and ".."), in version order so that
 * mlx5_2 sorts before mlx5_10 and gid 9 before 10.  Free with rdc_names_free().
 */
int rdc_fs_list(struct rdc_names *list, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);

/* Create a directory (configfs objects); refused with -EROFS under a root; existing is fine. */
int rdc_fs_mkdir(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);

/* Write a value to an attribute file; refused with -EROFS under a root. */
int rdc_fs_write(const char *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);
