// SPDX-License-Identifier: GPL-2.0-or-later
/* diag_collect.c - `rdmactl diag collect`: a support bundle of what diag reads, for --root */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/safefile.h"
#include "diag.h"
#include "host/bundle.h"
#include "host/rdma_netns.h"
#include "host/system.h"
#include "signals.h"

static const struct rdc_val_seconds collect_interval = {.min_s = 0.1, .zero_ok = true};

const struct rdc_param diag_collect_params[] = {
	{.name = "out",
	 .metavar = "FILE.tar.gz",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "where to write the bundle, - for standard output (default "
		 "rdmactl-bundle-UTCTIME.tar.gz here)",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct diag_opts, out)},
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "seconds between the two counter samples recorded (default 5; 0: one)",
	 .parse = rdc_val_seconds_ns,
	 .dest = offsetof(struct diag_opts, interval_ns),
	 .spec = &collect_interval},
	{.name = NULL},
};

/* VERSIONS: what the support engineer asks first.  Kernel and per-port driver and firmware. */
static int versions_write(const char *dir, const struct rdc_diag_host *h)
{
	char path[PATH_MAX + 32], lib[PATH_MAX] = "";
	struct rdc_err lib_err = {0};
	unsigned long release = 0;
	const char *ver;
	char *end = NULL;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/VERSIONS", dir);
	fp = fopen(path, "we");
	if (!fp)
		return -errno;
	/* rdmactl loads libibverbs only for bench and live GIDs: here, to name its file. */
	if (rdc_system_verbs_lib_file(lib, sizeof(lib), &lib_err))
		lib[0] = '\0';
	ver = strstr(lib, ".so.1.");
	fprintf(fp, "# rdmactl support bundle: versions\n");
	fprintf(fp, "rdmactl: %s\n", RDC_VERSION);
	fprintf(fp, "kernel: %s\n",
		h->facts.kernel_release[0] ? h->facts.kernel_release : "unknown");
	/* libibverbs.so.1.MINOR.RELEASE.0: RELEASE is rdma-core's version (44 in Debian 12). */
	if (ver) {
		(void)strtoul(ver + 6, &end, 10); /* MINOR */
		if (end && *end == '.')
			release = strtoul(end + 1, &end, 10);
	}
	if (release)
		fprintf(fp, "rdma-core: %lu (%s)\n", release, lib);
	else
		fprintf(fp, "rdma-core: unknown (%s)\n", lib[0] ? lib : lib_err.msg);
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];

		fprintf(fp, "port %s: driver %s %s, firmware %s, board %s\n", p->label,
			p->port.driver[0] ? p->port.driver : "?",
			p->netif.have_drvinfo ? p->netif.driver_version : "?",
			p->port.fw_ver[0] ? p->port.fw_ver : "?",
			p->port.board_id[0] ? p->port.board_id : "?");
	}
	return fclose(fp) ? -errno : 0;
}

/*
 * rdmactl-bundle-20261202T231500Z.tar.gz, or -2, -3... when that is taken:
 * reserved as an empty file made with O_EXCL, so that two collects in one
 * second never write the same bundle (the packed one is renamed over it).
 */
static int default_name(char *buf, size_t size, struct rdc_err *err)
{
	time_t now = time(NULL);
	char stem[48];
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stem, sizeof(stem), "rdmactl-bundle-%Y%m%dT%H%M%SZ", &tm);
	return rdc_file_reserve(buf, size, stem, ".tar.gz", 0600, err);
}

/*
 * Read the host as diag does, with the file seam copying and the transport
 * recording.  SIGINT and SIGTERM during the interval end it (exit 1, as diag):
 * the caller then removes what it made, as on any failure.
 */
static int capture(struct rdc_ctx *ctx, const char *bundle, double interval_s,
		   struct rdc_diag_host *h)
{
	struct rdc_system_opts live = {0};
	struct rdc_system_opts rec;
	char recfile[PATH_MAX + 32];
	struct rdc_err err = {0};
	int rc;

	snprintf(recfile, sizeof(recfile), "%s/kernel.rec", bundle);
	rec = (struct rdc_system_opts){.record = recfile};
	rdc_system_close();
	rc = rdc_system_open(&rec, &err);
	if (!rc)
		rc = rdc_system_capture_start(bundle, &err);
	if (!rc) {
		volatile sig_atomic_t *stop = rdc_sig_stop_begin(RDC_SIG_STOP_RESTART);

		enum rdc_rdma_netns_mode mode;

		/*
		 * Asked only to be recorded: 'port' and 'port features' on the
		 * bundle then say the mode (an old kernel's refusal is recorded too).
		 */
		(void)rdc_rdma_netns_mode(&mode, NULL);
		rdc_diag_policy_init(&h->policy);
		rc = rdc_diag_host_read(h, NULL, interval_s, stop, &err);
		rdc_sig_stop_end();
		rdc_system_capture_stop();
	}
	rdc_system_close(); /* flushes the recording */
	if (rdc_system_open(&live, rc ? NULL : &err) && !rc)
		rc = -EIO;
	return rc ? rdc_fail(ctx, &err) : 0;
}

/* The packed bundle to standard output, through the output layer (it keeps a failed write). */
struct collect_stdout {
	struct rdc_out *out;
	int rc;
};

static int collect_stdout_cb(void *data, const void *buf, size_t len)
{
	struct collect_stdout *so = data;

	so->rc = rdc_out_raw(so->out, buf, len);
	return so->rc;
}

/* `out -`: a gzip tarball is all standard output carries, and never onto a terminal. */
static int collect_stdout_check(struct rdc_ctx *ctx)
{
	struct rdc_err err = {0};

	if (!rdc_out_is_text(ctx->out))
		return rdc_usage_error(ctx, "collect out -: the bundle is the output; --json and "
					    "--yaml do not apply");
	if (isatty(STDOUT_FILENO)) {
		rdc_err_set_plain(&err, ENOTTY,
				  "collect out -: standard output is a terminal, not writing a "
				  "gzip tarball to it (redirect it, or name a file)");
		return rdc_fail(ctx, &err);
	}
	return 0;
}

static void collect_report(struct rdc_ctx *ctx, const struct diag_opts *d, const char *out,
			   const struct rdc_diag_host *h)
{
	struct stat st;

	rdc_out_begin(ctx->out, "diag-collect");
	rdc_out_str(ctx->out, RDC_OUT_ANY, "out", "bundle written to %s", out);
	/* Always there (schema 3): null, and nothing in text, when it cannot be stat'ed. */
	if (!stat(out, &st))
		rdc_out_u64(ctx->out, RDC_OUT_ANY, "size_bytes", " (%" PRIu64 " bytes)",
			    (uint64_t)st.st_size);
	else
		rdc_out_null(ctx->out, "size_bytes", NULL);
	rdc_out_u64(ctx->out, RDC_OUT_ANY, "ports", ", %" PRIu64 " ports", h->nports);
	if (d->interval_ns)
		rdc_out_f64(ctx->out, RDC_OUT_ANY, "interval_s", ", two samples %.1f s apart\n",
			    (double)d->interval_ns / 1e9);
	else
		rdc_out_f64(ctx->out, RDC_OUT_ANY, "interval_s", ", one sample\n", 0);
	rdc_out_end(ctx->out);
}

int diag_collect_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts)
{
	const struct diag_opts *d = opts;
	struct rdc_diag_host *h = calloc(1, sizeof(*h));
	char tmp[PATH_MAX], bundle[PATH_MAX + 16], name[64];
	const char *out = d->out;
	bool to_stdout = rdc_file_is_stdout(out);
	struct collect_stdout so = {.out = ctx->out};
	struct rdc_err err = {0};
	int rc = 0;

	(void)act;
	(void)args;
	if (!h)
		return rdc_oom(ctx);
	if (!rdc_system_live()) {
		free(h);
		/* Live-only under --root is exit 1 in every verb (rdmactl(8) ERRORS, live-only). */
		return rdc_fail_as(ctx, RDC_ERRK_OFFLINE, NULL,
				   "collect: reads the live host, not --root or --replay");
	}
	/* A target that cannot be replaced is said before seconds of sampling. */
	if (to_stdout)
		rc = collect_stdout_check(ctx);
	else if (out && rdc_file_target_ok(out, &err))
		rc = rdc_fail(ctx, &err);
	if (!rc && rdc_bundle_tmpdir(tmp, sizeof(tmp), &err))
		rc = rdc_fail(ctx, &err);
	if (rc) {
		free(h);
		return rc;
	}
	snprintf(bundle, sizeof(bundle), "%s/b", tmp);
	if (mkdir(bundle, 0700)) {
		rdc_err_set(&err, errno, "cannot make '%s'", bundle);
		rc = rdc_fail(ctx, &err);
	}
	if (!rc && !ctx->quiet && d->interval_ns && rdc_out_is_text(ctx->out))
		fprintf(stderr, "%s: diag: collecting, two samples %.1f s apart\n", ctx->prog,
			(double)d->interval_ns / 1e9);
	if (!rc)
		rc = capture(ctx, bundle, (double)d->interval_ns / 1e9, h);
	if (!rc && rdc_system_capture_error())
		fprintf(stderr, "%s: diag: warning: some files were not captured: %s\n", ctx->prog,
			rdc_system_capture_error());
	if (!rc && h->nports && h->ports[0].nsamples == 2 &&
	    rdc_system_window_write(bundle, rdc_diag_window_s(&h->ports[0]), &err))
		rc = rdc_fail(ctx, &err);
	if (!rc && versions_write(bundle, h)) {
		rdc_err_set(&err, errno, "cannot write the versions");
		rc = rdc_fail(ctx, &err);
	}
	/* Named after the samples: an interrupted collect leaves no empty bundle behind. */
	if (!rc && !out) {
		if (default_name(name, sizeof(name), &err))
			rc = rdc_fail(ctx, &err);
		else
			out = name;
	}
	if (!rc && to_stdout) {
		/* A failed write is the output layer's to say, once, at the end (main). */
		if (rdc_bundle_pack_stream(bundle, collect_stdout_cb, &so, &err))
			rc = so.rc ? RDC_EXIT_FAIL : rdc_fail(ctx, &err);
	} else if (!rc && out && rdc_bundle_pack(bundle, out, &err)) {
		rc = rdc_fail(ctx, &err);
	}
	if (!rc && !to_stdout && out)
		collect_report(ctx, d, out, h);
	/* The reserved default name goes when no bundle took its place. */
	if (rc && out == name)
		unlink(name);
	/* What the scratch directory held is the host's: one left behind is a failure. */
	rdc_bundle_remove(tmp);
	if (rdc_bundle_remove_result(&err)) {
		int removal = rdc_fail(ctx, &err);

		if (!rc)
			rc = removal;
	}
	rdc_diag_host_free(h);
	free(h);
	return rc;
}
