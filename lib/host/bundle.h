/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle.h - support bundles as files: a --root tree plus kernel.rec, packed with tar and gzip */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/* Is @path a gzip file (by its magic bytes, not its name)? */
bool rdc_bundle_is_tarball(const char *path);

/*
 * Unpack the tarball @path into a new private directory (mode 0700 under
 * $TMPDIR or /tmp), its name into @dir.  GNU tar drops absolute names and
 * `..` members; ownership and modes are not taken from the archive.  The
 * caller removes it with rdc_bundle_remove().
 */
int rdc_bundle_unpack(const char *path, char *dir, size_t size, struct rdc_err *err);

/* Pack the tree under @dir (its contents, not the folder) into @out as .tar.gz. */
int rdc_bundle_pack(const char *dir, const char *out, struct rdc_err *err);

/* Remove the tree @dir (no symlink is followed).  Best effort. */
void rdc_bundle_remove(const char *dir);

/* A private scratch directory (mode 0700), like rdc_bundle_unpack makes. */
int rdc_bundle_tmpdir(char *dir, size_t size, struct rdc_err *err);
