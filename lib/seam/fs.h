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
 * A root is a jail, because bundles come from other hosts: every path is
 * resolved inside it as if DIR were "/" (openat2() with RESOLVE_IN_ROOT, or
 * the same walk one component at a time with O_NOFOLLOW where the kernel is
 * older than 5.6).  ".." stops at DIR, an absolute link ("/etc/hostname")
 * means DIR/etc/hostname, and relative links inside the bundle (sysfs is made
 * of them) work as on the host; procfs magic links are refused.
 *
 * Everywhere, live or not: files are opened non-blocking, and a read or a
 * listing refuses what is not a regular file or a directory (a FIFO, socket
 * or device: -ENXIO, never EINVAL, which sysfs uses for unused entries; the
 * error's detail says what it is) before reading it.  A read takes at most
 * RDC_FS_READ_MAX bytes of a file, and a longer file is an error.
 *
 * Listings at the floor: a read is one open, its read()s and a close; under
 * a root the open is one openat2() with the jail's resolution (of the whole
 * path from the root, or of the name alone from its directory's fd where the
 * directory was met before and is kept open: fs.c says when), and the
 * check is fstat() on that fd (so a FIFO is opened non-blocking and closed
 * unread, and so would be a device node: the bundle unpacker refuses
 * archives with one, host/bundle.h).  Live, sysfs and the procfs files read
 * hold nothing else, so there is no fstat(); a live sysfs attribute that
 * comes shorter than a page in one read is whole, and a file whose size
 * fstat() gave ends there, without a read to meet the end.  A listing is
 * O_DIRECTORY and getdents64().  The walk (capture, or kernels without
 * openat2()) still looks at each component before opening it.
 *
 * Path arguments are printf formats; the formatted path must fit PATH_MAX.
 */

/*
 * Under a root, how long a kept directory's fd (fs.c) is trusted to say that
 * a name is not in it: an ENOENT from one resolved longer ago opens the whole
 * path from the root, so that a directory removed and made again (a live
 * host's device that left and came back) is read anew.  Milliseconds.
 */
#define RDC_FS_DIR_FRESH_MS 100

/* The most one read takes of a file; sysfs attributes fit in a page (4 KiB). */
#define RDC_FS_READ_MAX ((size_t)1 << 20)

/* Root all later accesses at @dir; NULL or "/" means the live system. */
int rdc_fs_set_root(const char *dir, struct rdc_err *err);
/* The root directory, or NULL for the live system. */
const char *rdc_fs_root(void);

/*
 * Read a whole small attribute file into @buf (NUL-terminated, one trailing
 * newline removed).  Returns the length or -errno.  A file that does not fit
 * in @buf (or RDC_FS_READ_MAX), its newline aside, is -EFBIG: never a value
 * cut where the buffer ends.
 */
int rdc_fs_read(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(4, 5);
/*
 * The first @size - 1 bytes of a file whose head is all that is wanted
 * (/proc/stat's "cpu" line: the file grows with CPUs and interrupts): a cut
 * is expected, and only the head is captured.
 */
int rdc_fs_read_head(char *buf, size_t size, struct rdc_err *err, const char *fmt, ...)
	RDC_PRINTF(4, 5);
/*
 * Read an unsigned decimal number, as the kernel writes counters, MTUs and
 * indexes: base 10 always ("010" is ten, "0x10" is -EINVAL); -ERANGE beyond
 * 64 bits.
 */
int rdc_fs_read_u64(uint64_t *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);
/*
 * Read an unsigned hex number with its "0x" prefix, for the few attributes the
 * kernel prints "%#x" (a netdev's flags, "0x1003"): "1003" without the prefix
 * is -EINVAL; -ERANGE beyond 64 bits.
 */
int rdc_fs_read_x64(uint64_t *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);
/* Read a signed decimal number ("-1" is a valid numa_node). */
int rdc_fs_read_i64(int64_t *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);

/*
 * Open a regular file for reading as the reads above do (inside the root's
 * jail, non-blocking, nothing but a regular file), for a reader that takes
 * more than RDC_FS_READ_MAX (a kernel recording).  Returns the fd (the caller
 * closes it) or -errno.  Not captured.
 */
int rdc_fs_open_read(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);

/* The last path component of a symlink's target ("../../mlx5_core" -> "mlx5_core"). */
int rdc_fs_link_name(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);
/*
 * Resolve a path through all symlinks and return it as a kernel path (root
 * prefix removed): "/sys/class/net/eth0" -> "/sys/devices/.../net/eth0".
 */
int rdc_fs_resolve(char *buf, size_t size, const char *fmt, ...) RDC_PRINTF(3, 4);

bool rdc_fs_exists(const char *fmt, ...) RDC_PRINTF(1, 2);
/*
 * 0 where @path is a directory (links followed), else -errno: -ENOENT,
 * -ENOTDIR for anything else.  Under a root, with openat2(), its fd is kept
 * (fs.c; paths of 256 bytes or more are not), so the reads in it that follow
 * open their names from it: a device's PCI function entered through its
 * "device" link, without resolving where that leads.
 */
int rdc_fs_is_dir(const char *fmt, ...) RDC_PRINTF(1, 2);
/*
 * A hint: several reads below the directory @path follow (a device's
 * attributes).  Under a root its fd is opened now and kept, so that even the
 * first of them opens its name from it; live, and where it fails, nothing:
 * the reads find what is there.
 */
void rdc_fs_expect_dir(const char *fmt, ...) RDC_PRINTF(1, 2);

/*
 * List the entries of a directory (no "." and ".."), in version order so that
 * mlx5_2 sorts before mlx5_10 and gid 9 before 10.  Free with rdc_names_free().
 * More than RDC_FS_LIST_MAX entries is -EFBIG (a bundle could hold millions).
 */
#define RDC_FS_LIST_MAX 65536u /* /sys/class/net of a host with many containers: thousands */
int rdc_fs_list(struct rdc_names *list, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);

/* Create a directory (configfs objects); refused with -EROFS under a root; existing is fine. */
int rdc_fs_mkdir(struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(2, 3);

/* Write a value to an attribute file; refused with -EROFS under a root. */
int rdc_fs_write(const char *val, struct rdc_err *err, const char *fmt, ...) RDC_PRINTF(3, 4);

/*
 * Capture (the files half of a support bundle, `diag collect`): while it is
 * on, what the seam reads is also copied below @dir at the same kernel path,
 * so that `--root DIR` later reads the same values:
 *
 *   rdc_fs_read*()    the bytes read (what a short buffer cut stays cut)
 *   rdc_fs_list()     the directory (not its entries: those are captured as
 *                     they are read)
 *   rdc_fs_exists(), rdc_fs_is_dir(), rdc_fs_resolve()
 *                     a directory, or an empty file where the path is a file
 *                     not read (yet)
 *   rdc_fs_link_name() the link
 *
 * and under /sys every symbolic link met on the way is made again with the
 * same target ("class/net/eth0 -> ../../devices/..."), with the files at their
 * resolved paths, so the bundle resolves as the host did.  Each path is
 * copied once (the first read wins).  Only these kernel paths are captured,
 * anything else silently not (no keys, no environment, no process's files:
 * never /proc/self/ or /proc/PID/):
 *
 *   /sys/            sysfs and configfs (links kept; a link that leads out
 *                    of /sys is not followed into the capture)
 *   /proc/net/, /proc/sys/, /proc/irq/, /proc/stat, /proc/version
 *                    stored at the path asked for (/proc/net is a link to
 *                    /proc/self/net on the host, a directory in the bundle)
 *   /lib/modules/    existence only: directories and empty files
 *
 * Paths with "." or ".." components are not captured.  A capture error never
 * fails the read: the first is kept for rdc_fs_capture_error().  Capture is
 * meant for the live system; under a root it copies what the root holds
 * (that is how it is tested).  Not thread-safe: start, read and stop from one
 * thread.
 */

/* Start capturing into @dir (created if missing; its parent must exist). -EBUSY if on. */
int rdc_fs_capture_start(const char *dir, struct rdc_err *err);
/*
 * Go on capturing into another @dir (a bundle's second sample): what was
 * copied is forgotten, so the same paths are copied again there; the first
 * error is kept.
 */
int rdc_fs_capture_into(const char *dir, struct rdc_err *err);
/* Stop capturing and forget which paths were copied; the first error stays readable. */
void rdc_fs_capture_stop(void);
/* The first capture error since the last start ("cannot capture '/sys/...': ..."), or NULL. */
const char *rdc_fs_capture_error(void);

/*
 * Under a root: read files from @subdir of the root first ("samples/2", a
 * bundle's second counter sample), from the root where @subdir lacks them.
 * Listings, links and existence stay the root's.  NULL ends it; a root
 * without @subdir has no overlay (0).  Setting the root ends it too.
 */
int rdc_fs_set_overlay(const char *subdir, struct rdc_err *err);

/*
 * For tests: resolve under a root by the component walk even where openat2()
 * exists, so both resolvers are tested on every kernel.
 */
void rdc_fs_force_walk(bool on);
