/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle.h - support bundles as files: a --root tree plus kernel.rec, packed with tar and gzip */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/* Is @path a gzip file (by its magic bytes, not its name)? */
bool rdc_bundle_is_tarball(const char *path);

/*
 * What a bundle may hold, checked on tar's listing before anything is
 * unpacked: a bundle rdmactl makes has a few thousand files and a few MiB;
 * a hostile one (537 KB of gzip unpacking to 512 MiB) is refused.
 */
#define RDC_BUNDLE_MAX_ENTRIES 100000u
#define RDC_BUNDLE_MAX_BYTES (128u << 20)

/*
 * Unpack the tarball @path into a new private directory (mode 0700 under
 * $TMPDIR or /tmp), its name into @dir, after its listing passed the caps.
 * GNU tar (/usr/bin/tar, in a clean environment: no TAR_OPTIONS) drops
 * absolute names and `..` members; ownership and modes are not taken from
 * the archive.  The caller removes it with rdc_bundle_remove(); if rdmactl
 * ends any other way, a guard process removes it (rdc_bundle_tmpdir()).
 */
int rdc_bundle_unpack(const char *path, char *dir, size_t size, struct rdc_err *err);

/*
 * Pack the tree under @dir (its contents, not the folder) into @out as
 * .tar.gz (safefile.h: 0600, the old @out kept until the new one is whole).
 * The archive is made first as DIR.tar.gz beside @dir, which must be in a
 * private scratch directory (rdc_bundle_tmpdir()), then copied: a full disk
 * is -ENOSPC with @out named, @out as it was, no temporary file left.
 */
int rdc_bundle_pack(const char *dir, const char *out, struct rdc_err *err);

/* Where rdc_bundle_pack_stream() hands the archive: 0, or -errno to stop. */
typedef int rdc_bundle_sink_fn(void *data, const void *buf, size_t len);

/*
 * The same archive handed to @sink in pieces, in order (cmd/ writes it to
 * standard output), only once tar made it whole.  A failure of @sink is its
 * -errno, with "cannot write the bundle" in @err.
 */
int rdc_bundle_pack_stream(const char *dir, rdc_bundle_sink_fn *sink, void *data,
			   struct rdc_err *err);

/*
 * Check tar's verbose listing (--numeric-owner) against the caps: 0, -EFBIG
 * over a cap, -EINVAL for a device node (character or block), -EPROTO on a
 * line that is not one.  Pure: unit-tested.
 */
int rdc_bundle_listing_check(FILE *listing, struct rdc_err *err);

/*
 * Remove the tree @dir (no symlink is followed) and end its guard.  All that
 * can go goes; the first entry that cannot ("cannot remove scratch 'PATH'",
 * its errno) is kept for rdc_bundle_remove_result().  A directory made by
 * rdc_bundle_tmpdir() and not removed by the time the process exits normally
 * is removed then (atexit), and on a signal by its guard.
 */
void rdc_bundle_remove(const char *dir);

/*
 * The first failure of rdc_bundle_remove() since this was last called:
 * -errno with the path in @err (may be NULL), or 0; it is forgotten once read.
 */
int rdc_bundle_remove_result(struct rdc_err *err);

/*
 * A private scratch directory (mode 0700), like rdc_bundle_unpack makes,
 * with a guard process that removes it when rdmactl ends without
 * rdc_bundle_remove() (a signal, SIGKILL).
 */
int rdc_bundle_tmpdir(char *dir, size_t size, struct rdc_err *err);
