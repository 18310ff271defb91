// SPDX-License-Identifier: GPL-2.0-or-later
/* system.c - which system the models read: the live kernel, a --root bundle, a recording */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/bundle.h"
#include "host/system.h"
#include "kernel/verbs_lib.h"
#include "seam/fs.h"
#include "seam/nl.h"

/* A tarball given to --root is unpacked here for the life of the process. */
static char unpacked[4096];

/* @root itself, or where its tarball was unpacked. */
static int root_dir(const char *root, const char **dir, struct rdc_err *err)
{
	int rc;

	*dir = root;
	if (!root || !rdc_bundle_is_tarball(root))
		return 0;
	if (unpacked[0]) {
		rdc_bundle_remove(unpacked);
		unpacked[0] = 0;
	}
	rc = rdc_bundle_unpack(root, unpacked, sizeof(unpacked), err);
	if (rc) {
		unpacked[0] = 0;
		return rc;
	}
	*dir = unpacked;
	return 0;
}

int rdc_system_open(const struct rdc_system_opts *o, struct rdc_err *err)
{
	const char *root;
	char rec[4096];
	int rc, fd;

	rc = root_dir(o->root, &root, err);
	if (!rc)
		rc = rdc_fs_set_root(root, err);
	if (rc)
		return rc;
	if (o->replay)
		return rdc_nl_open(RDC_NL_REPLAY, o->replay, err);
	if (o->record)
		return rdc_nl_open(RDC_NL_RECORD, o->record, err);
	if (!rdc_fs_root())
		return rdc_nl_open(RDC_NL_LIVE, NULL, err);
	/*
	 * Found and opened through the file layer: the recording is part of the
	 * rooted bundle, and a link in it resolves inside the root like any file.
	 */
	if (!rdc_fs_exists("/%s", RDC_NL_REC_NAME))
		return rdc_nl_open(RDC_NL_OFF, NULL, err);
	fd = rdc_fs_open_read(err, "/%s", RDC_NL_REC_NAME);
	if (fd < 0) {
		rdc_nl_open(RDC_NL_OFF, NULL, NULL);
		return fd;
	}
	snprintf(rec, sizeof(rec), "%s/%s", rdc_fs_root(), RDC_NL_REC_NAME);
	return rdc_nl_open_replay_fd(fd, rec, err);
}

int rdc_system_strict_end(struct rdc_err *err)
{
	return rdc_nl_strict_end(err);
}

const char *rdc_system_strict_line(size_t i)
{
	return rdc_nl_strict_line(i);
}

int rdc_system_record_result(struct rdc_err *err)
{
	return rdc_nl_record_result(err);
}

void rdc_system_close(void)
{
	rdc_nl_close();
	if (unpacked[0]) {
		rdc_fs_set_root(NULL, NULL);
		rdc_bundle_remove(unpacked);
		unpacked[0] = 0;
	}
}

bool rdc_system_live(void)
{
	return !rdc_fs_root() && rdc_nl_mode() != RDC_NL_REPLAY;
}

bool rdc_system_rooted(void)
{
	return rdc_fs_root() != NULL;
}

int rdc_system_set_root(const char *root, struct rdc_err *err)
{
	const char *dir;
	int rc = root_dir(root, &dir, err);

	return rc ? rc : rdc_fs_set_root(dir, err);
}

/* Where the capture goes (a later sample goes to its samples/ folder). */
static char capture_dir[4096];

int rdc_system_capture_start(const char *dir, struct rdc_err *err)
{
	int rc = rdc_fs_capture_start(dir, err);

	if (!rc)
		snprintf(capture_dir, sizeof(capture_dir), "%s", dir);
	return rc;
}

void rdc_system_capture_stop(void)
{
	rdc_fs_capture_stop();
	capture_dir[0] = '\0';
}

int rdc_system_sample(unsigned int k, struct rdc_err *err)
{
	char dir[sizeof(capture_dir) + 32];

	if (capture_dir[0] && k > 0) {
		snprintf(dir, sizeof(dir), "%s/" RDC_SYSTEM_SAMPLES, capture_dir);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return rdc_err_set(err, errno, "cannot make '%s'", dir);
		snprintf(dir, sizeof(dir), "%s/" RDC_SYSTEM_SAMPLES "/%u", capture_dir, k + 1);
		return rdc_fs_capture_into(dir, err);
	}
	if (!rdc_fs_root())
		return 0;
	if (!k)
		return rdc_fs_set_overlay(NULL, err);
	snprintf(dir, sizeof(dir), RDC_SYSTEM_SAMPLES "/%u", k + 1);
	return rdc_fs_set_overlay(dir, err);
}

int rdc_system_window_write(const char *dir, double window_s, struct rdc_err *err)
{
	char path[4096 + 32];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/" RDC_SYSTEM_WINDOW, dir);
	fp = fopen(path, "we");
	if (!fp)
		return rdc_err_set(err, errno, "cannot write '%s'", path);
	fprintf(fp, "%.6f\n", window_s);
	if (fclose(fp))
		return rdc_err_set(err, errno, "cannot write '%s'", path);
	return 0;
}

int rdc_system_window(double *window_s)
{
	char text[64], *end;
	double w;

	if (!rdc_fs_root() || rdc_fs_read(text, sizeof(text), NULL, "/" RDC_SYSTEM_WINDOW) <= 0)
		return -ENOENT;
	errno = 0;
	w = strtod(text, &end);
	/* A window from another host's bundle is data: only a sane one is used. */
	if (*end || errno || !(w > 0 && w <= 86400))
		return -EINVAL;
	/* A WINDOW without its second sample is one sample: rates over it would be zeros. */
	if (!rdc_fs_exists("/" RDC_SYSTEM_SAMPLES "/2"))
		return -ENOENT;
	*window_s = w;
	return 0;
}

/*
 * A bundle holds what was collected: two samples its recorded window apart,
 * or one.  Another interval is never silently replaced by the window, and
 * one sample has no rates at all.
 */
int rdc_system_window_for(double interval_s, double *window_s, struct rdc_err *err)
{
	int rc = rdc_system_window(window_s);

	if (rc == -ENOENT)
		return rdc_err_set_usage(err,
					 "interval %g s: the bundle holds one sample, no window to "
					 "measure rates over (leave out the interval)",
					 interval_s);
	if (rc)
		return rdc_err_set_usage(
			err,
			"interval %g s: the bundle's " RDC_SYSTEM_WINDOW
			" file is not a number of seconds (leave out the interval)",
			interval_s);
	if (fabs(interval_s - *window_s) > 0.1 * *window_s)
		return rdc_err_set_usage(err,
					 "interval %g s: the bundle's two samples are %.3g s apart "
					 "(use interval %.3g, or leave it out)",
					 interval_s, *window_s, *window_s);
	return 0;
}

const char *rdc_system_capture_error(void)
{
	return rdc_fs_capture_error();
}

int rdc_system_verbs_lib_file(char *buf, size_t size, struct rdc_err *err)
{
	return rdc_verbs_lib_file(buf, size, err);
}
