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

/* Pack the tree under @dir (its contents, not the folder) into @out as .tar.gz. */
int rdc_bundle_pack(const char *dir, const char *out, struct rdc_err *err);

/*
 * Check tar's verbose listing (--numeric-owner) against the caps: 0, -EFBIG
 * over a cap, -EPROTO on a line that is not one.  Pure: unit-tested.
 */
int rdc_bundle_listing_check(FILE *listing, struct rdc_err *err);

/* Remove the tree @dir (no symlink is followed) and end its guard.  Best effort. */
void rdc_bundle_remove(const char *dir);

/*
 * A private scratch directory (mode 0700), like rdc_bundle_unpack makes,
 * with a guard process that removes it when rdmactl ends without
 * rdc_bundle_remove() (a signal, SIGKILL).
 */
int rdc_bundle_tmpdir(char *dir, size_t size, struct rdc_err *err);
