// SPDX-License-Identifier: GPL-2.0-or-later
/* port_features.c - `rdmactl port features`: the host's RDMA facts as NFD feature lines */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safefile.h"
#include "diag/features.h"
#include "host/rdma_netns.h"
#include "port.h"
#include "port_features.h"

/*
 * Node Feature Discovery's local source reads every file in
 * /etc/kubernetes/node-feature-discovery/features.d/ (on the node; the
 * nfd-worker pod mounts it) and turns each "name=value" line into the node
 * label feature.node.kubernetes.io/name=value.  The file is replaced whole
 * (temporary file, rename), so nfd-worker never reads half of one, and a
 * fact that is no longer true disappears with the next write.
 */

const struct rdc_param port_features_params[] = {
	{.name = "out",
	 .metavar = "FILE",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "replace FILE atomically (NFD's features.d directory) instead of writing to "
		 "stdout",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct port_features_opts, out)},
	{.name = NULL},
};

/* The label lines, each ending in a newline, in one allocated buffer. */
static int features_render(const struct rdc_features *f, char **buf, size_t *len)
{
	char line[RDC_FEATURE_LINE];
	FILE *fp = open_memstream(buf, len);

	if (!fp)
		return -ENOMEM;
	for (size_t i = 0; rdc_features_line(f, i, line); i++)
		fprintf(fp, "%s\n", line);
	/* The stream's buffer is whole only after it is closed. */
	if (fclose(fp)) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void features_emit(struct rdc_ctx *ctx, const struct rdc_features *f, const char *file)
{
	struct rdc_out *o = ctx->out;
	char line[RDC_FEATURE_LINE];

	rdc_out_begin(o, "port-features");
	rdc_out_u64(o, RDC_OUT_MACHINE, "devices_count", NULL, f->devices);
	rdc_out_u64(o, RDC_OUT_MACHINE, "ports_count", NULL, f->ports);
	rdc_out_bool(o, RDC_OUT_MACHINE, "capable", NULL, f->capable);
	rdc_out_bool(o, RDC_OUT_MACHINE, "roce_v2", NULL, f->roce_v2);
	rdc_out_bool(o, RDC_OUT_MACHINE, "lag", NULL, f->lag);
	if (f->speed_gbps > 0)
		rdc_out_f64(o, RDC_OUT_MACHINE, "link_speed_gbps", NULL, f->speed_gbps);
	else
		rdc_out_null(o, "link_speed_gbps", NULL);
	if (f->lossless_known) {
		rdc_out_arr_open(o, "lossless_prios");
		for (unsigned int prio = 0; prio < 8; prio++)
			if (f->lossless_mask & (1u << prio))
				rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, prio);
		rdc_out_arr_close(o);
	} else {
		rdc_out_null(o, "lossless_prios", NULL);
	}
	rdc_out_str(o, RDC_OUT_MACHINE, "netns_mode", NULL,
		    rdc_rdma_netns_mode_name(f->netns_mode));
	rdc_out_str(o, RDC_OUT_MACHINE, "file", NULL, file);
	rdc_out_arr_open(o, "labels");
	for (size_t i = 0; rdc_features_line(f, i, line); i++)
		rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL, line);
	rdc_out_arr_close(o);
	rdc_out_end(o);
}

int port_features_run(struct rdc_ctx *ctx, const struct rdc_action *act,
		      const struct rdc_args *args, void *opts)
{
	const struct port_features_opts *fo = opts;
	const char *file = fo->out && strcmp(fo->out, "-") ? fo->out : NULL;
	struct rdc_diag_host *h = calloc(1, sizeof(*h));
	const struct rdc_diag_select all = {0};
	enum rdc_rdma_netns_mode mode;
	struct rdc_features f;
	struct rdc_err err = {0};
	unsigned int bad = 0;
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;

	(void)act;
	(void)args;
	if (!h)
		return rdc_oom(ctx);
	rdc_diag_policy_init(&h->policy);
	if (rdc_diag_host_read(h, &all, 0, NULL, &err)) {
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	/* Unknown (no RDMA netlink, a bundle without a recording) is no label, not an error. */
	if (rdc_rdma_netns_mode(&mode, NULL))
		mode = RDC_RDMA_NETNS_UNKNOWN;
	rdc_features_compute(h, mode, &f);
	for (size_t i = 0; i < h->nports; i++)
		bad += port_report_port_issues(ctx, &h->ports[i].port) +
		       port_report_issues(ctx, &h->ports[i].issues);
	if (features_render(&f, &buf, &len)) {
		rc = rdc_oom(ctx);
		goto out;
	}
	if (file && rdc_file_replace(file, buf, len, 0644, &err)) {
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	if (!rdc_out_is_text(ctx->out))
		features_emit(ctx, &f, file);
	else if (!file && rdc_out_raw(ctx->out, buf, len))
		rc = RDC_EXIT_FAIL;
	/* The labels are written either way; what could not be read is named and exits 1. */
	if (!rc && bad)
		rc = RDC_EXIT_FAIL;
out:
	free(buf);
	rdc_diag_host_free(h);
	free(h);
	return rc;
}
