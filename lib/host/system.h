/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system.h - which system the models read: the live kernel, a --root bundle, a recording */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

struct rdc_system_opts {
	const char *root;   /* --root DIR: files from DIR, kernel answers from DIR/kernel.rec */
	const char *record; /* --record FILE: the live kernel, every exchange written to FILE */
	const char *replay; /* --replay FILE: kernel answers from FILE */
};

/*
 * Point both seams (the file layer and the kernel transport) at the system
 * @o names.  Under a root without a recording, kernel messages are refused
 * (the bundle has no answers to give).
 */
int rdc_system_open(const struct rdc_system_opts *o, struct rdc_err *err);
void rdc_system_close(void);
/* After rdc_system_close() with --record: 0, or -errno when the recording could not be written. */
int rdc_system_record_result(struct rdc_err *err);
/*
 * At the end of a command, before or after rdc_system_close(): 0, or -EPROTO
 * when a strict replay (RDMACTL_REPLAY_STRICT, seam/nl.h) found requests
 * that broke its rule, the first named in @err; rdc_system_strict_line(0,
 * 1, ...) gives one line per request, NULL after the last.
 */
int rdc_system_strict_end(struct rdc_err *err);
const char *rdc_system_strict_line(size_t i);
/* Neither --root nor --replay: the running kernel answers, and writes may happen. */
bool rdc_system_live(void);
/* Whether files are read from a root directory (--root: a bundle), not this host's. */
bool rdc_system_rooted(void);
/*
 * The file rdma-core's libibverbs is loaded from here, links resolved
 * (libibverbs.so.1.14.44.0: rdma-core 44), loading it if need be; 0 or the
 * load's error (kernel/verbs_lib.h).
 */
int rdc_system_verbs_lib_file(char *buf, size_t size, struct rdc_err *err);
/* Only point the file layer at @root (completion lists a bundle's devices). */
int rdc_system_set_root(const char *root, struct rdc_err *err);

/*
 * Support bundles: while capturing, every file the models read is also
 * copied under @dir at its own path (links as links), so that `--root DIR`
 * reads the same.  Only system state is copied (the file seam's list of
 * allowed prefixes: /sys, /proc/net, /proc/sys, ...), never a process's.
 */
int rdc_system_capture_start(const char *dir, struct rdc_err *err);
void rdc_system_capture_stop(void);
/* The first file that could not be copied and why, or NULL. */
const char *rdc_system_capture_error(void);

/*
 * diag's counter samples in a bundle.  The files of the first sample are the
 * bundle's tree; those the second sample read are kept again under
 * samples/2/ (sysfs counters change between the two), and the seconds between
 * the samples in WINDOW.
 */
#define RDC_SYSTEM_SAMPLES "samples"
#define RDC_SYSTEM_WINDOW "WINDOW"
/*
 * Sample @k (0, 1) is read next: while capturing, its files go to
 * samples/K+1/ (k > 0); under a root, they are read from there first.
 */
int rdc_system_sample(unsigned int k, struct rdc_err *err);
/* Write @dir/WINDOW. */
int rdc_system_window_write(const char *dir, double window_s, struct rdc_err *err);
/*
 * The window a bundle under --root recorded: 0, or -ENOENT (none, or no
 * samples/2 beside it: one sample; live), -EINVAL (not sane).
 */
int rdc_system_window(double *window_s);
/*
 * Under --root, rates over @interval_s come only from the bundle's own two
 * samples: 0 and @window_s when its window is @interval_s (within the 10% a
 * rounded request differs by), else a usage error naming what the bundle
 * has (one sample only, a bad WINDOW file, another window).
 */
int rdc_system_window_for(double interval_s, double *window_s, struct rdc_err *err);
