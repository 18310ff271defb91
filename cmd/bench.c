// SPDX-License-Identifier: GPL-2.0-or-later
/* bench.c - `rdmactl bench`: client and server keywords, the report in text, JSON and YAML */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "base/ipv4.h"
#include "base/log.h"
#include "base/util.h"
#include "bench/client.h"
#include "bench/server.h"
#include "bench/stats.h"
#include "host/gid.h"
#include "cmd.h"

static const char *const test_values[] = {"write", "read", "send", "lat", NULL};

static const struct rdc_param bench_client_params[] = {
	{.name = "test",
	 .metavar = "write|read|send|lat",
	 .suggest = test_values,
	 .help = "what to measure (default write)"},
	{.name = "link",
	 .metavar = "LOCAL[:REMOTE]",
	 .repeat = true,
	 .value_kind = RDC_COMPLETE_PORT,
	 .help = "a link by RDMA DEV[/PORT] or IP on each side; repeatable (default: every "
		 "active port, paired by subnet)"},
	{.name = "qps", .metavar = "N", .help = "RC QPs per link (default 1)"},
	{.name = "size", .metavar = "BYTES|nK|nM", .help = "message size (default 64K, lat 2)"},
	{.name = "duration",
	 .metavar = "SEC",
	 .excludes = "iters",
	 .help = "the measured window (default 5)"},
	{.name = "iters",
	 .metavar = "N",
	 .excludes = "duration",
	 .help = "messages per QP (round trips for lat) instead"},
	{.name = "warmup",
	 .metavar = "SEC",
	 .help = "traffic before the window, not counted (default 1 with duration, 0 with iters)"},
	{.name = "interval", .metavar = "SEC", .help = "per-interval samples (default 1)"},
	{.name = "dscp",
	 .metavar = "N",
	 .excludes = "tclass",
	 .help = "DSCP of the traffic (GRH traffic class N << 2)"},
	{.name = "tclass",
	 .metavar = "N",
	 .excludes = "dscp",
	 .help = "GRH traffic class (the whole ToS byte)"},
	{.name = "mtu", .metavar = "N", .help = "path MTU limit: 256, 512, 1024, 2048 or 4096"},
	{.name = "port", .metavar = "N", .help = "the server's TCP port (default 18515)"},
	{.name = "expect-gbps", .metavar = "X", .help = "exit 1 when the total is below X Gb/s"},
	{.name = "min-link-gbps",
	 .metavar = "X",
	 .help = "exit 1 when a link is below X Gb/s, naming it"},
	{.name = NULL},
};

static const struct rdc_param bench_server_params[] = {
	{.name = "bind", .metavar = "ADDR", .help = "listen on this IPv4 address (default all)"},
	{.name = "port", .metavar = "N", .help = "TCP port (default 18515)"},
	{.name = "allow", .metavar = "CIDR", .help = "serve only clients from this range"},
	{.name = "once", .help = "exit after one run"},
	{.name = NULL},
};

static int bench_client_run(struct rdc_ctx *ctx, int argc, char **argv);
static int bench_server_run(struct rdc_ctx *ctx, int argc, char **argv);

static const struct rdc_action bench_actions[] = {
	{"client", "HOST [KEYWORD VALUE]...",
	 "measure bandwidth or latency over every link to a server at once, one report",
	 bench_client_run, bench_client_params, RDC_COMPLETE_HOST, true, 0},
	{"server", "[bind ADDR] [port N] [allow CIDR] [once]",
	 "serve benchmark runs; the client sends every parameter", bench_server_run,
	 bench_server_params, RDC_COMPLETE_NONE, false, 0},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_bench = {
	.name = "bench",
	.summary = "ib_write_bw-style benchmarks over many links at once, one aggregated report",
	.actions = bench_actions,
};

static volatile sig_atomic_t bench_interrupted;

static void bench_on_signal(int sig)
{
	(void)sig;
	bench_interrupted = 1;
}

/* SIGINT/SIGTERM end the run cleanly (QPs destroyed, peer told); no SA_RESTART. */
static void bench_signals(void)
{
	struct sigaction sa = {.sa_handler = bench_on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The data path is verbs on real devices: a bundle or a recording cannot stand in. */
static int bench_needs_live(struct rdc_ctx *ctx)
{
	if (rdc_live_system())
		return 0;
	fprintf(stderr, "%s: bench: runs on the live system only, not under --root or --replay\n",
		ctx->prog);
	return 1;
}

static const char *arg_of(const struct rdc_action *act, const struct rdc_args *args,
			  const char *name)
{
	int i = rdc_param_index(act, name);

	return args->given[i] ? args->value[i] : NULL;
}

static int arg_gbps(struct rdc_ctx *ctx, const char *keyword, const char *value, double *out)
{
	char *end;

	*out = strtod(value, &end);
	if (!*value || *end || !isfinite(*out) || *out <= 0)
		return rdc_usage_error(ctx, "'%s %s': not a positive number of Gb/s", keyword,
				       value);
	return 0;
}

/* Seconds as nanoseconds, at least @min_s; "0" is allowed where @zero_ok (no warm-up). */
static int arg_ns(struct rdc_ctx *ctx, const char *keyword, const char *value, bool zero_ok,
		  double min_s, uint64_t *ns)
{
	double s;
	int rc;

	if (zero_ok && rdc_parse_seconds(value, &s) == -ERANGE &&
	    strspn(value, "0.") == strlen(value)) {
		*ns = 0; /* "0", "0.0": no warm-up */
		return 0;
	}
	rc = rdc_arg_seconds(ctx, keyword, value, &s);
	if (rc)
		return rc;
	if (s < min_s)
		return rdc_usage_error(ctx, "'%s %s': at least %g s", keyword, value, min_s);
	*ns = (uint64_t)llround(s * 1e9);
	return 0;
}

struct client_args {
	struct rdc_bench_client_opts o;
	double expect_gbps, min_link_gbps;
};

static int client_parse(struct rdc_ctx *ctx, const struct rdc_action *act,
			const struct rdc_args *args, struct client_args *ca)
{
	struct rdc_bench_params *p = &ca->o.params;
	enum rdc_bench_test test = RDC_BENCH_WRITE;
	const char *v;
	uint32_t u;
	uint64_t u64;
	int rc;

	memset(ca, 0, sizeof(*ca));
	v = arg_of(act, args, "test");
	if (v && rdc_bench_test_parse(v, &test))
		return rdc_usage_error(ctx, "'test %s': not one of write, read, send, lat", v);
	rdc_bench_params_default(p, test);
	ca->o.host = args->object;
	ca->o.port = RDC_BENCH_DEFAULT_PORT;
	for (int i = 0; i < args->nrepeated; i++)
		if (rdc_bench_link_spec_parse(args->repeated[i], &ca->o.specs[ca->o.nspecs++]))
			return rdc_usage_error(ctx,
					       "'link %s': not LOCAL or LOCAL:REMOTE (a DEV, "
					       "DEV/PORT, netdev or IPv4 address each)",
					       args->repeated[i]);
	if ((v = arg_of(act, args, "qps"))) {
		if ((rc = rdc_arg_u32(ctx, "qps", v, 1, RDC_BENCH_MAX_QPS, &p->qps)))
			return rc;
		if (test == RDC_BENCH_LAT)
			return rdc_usage_error(ctx,
					       "'qps' applies to the bandwidth tests; lat runs "
					       "one QP per link");
	}
	if ((v = arg_of(act, args, "size"))) {
		rc = rdc_parse_size(v, RDC_BENCH_MAX_SIZE, &u64);
		if (rc || !u64)
			return rdc_usage_error(ctx, "'size %s': %s", v,
					       rc == -ERANGE ? "at most 16M"
					       : rc	     ? "not BYTES, nK or nM"
							     : "at least 1 byte");
		p->size = (uint32_t)u64;
	}
	if ((v = arg_of(act, args, "iters"))) {
		rc = rdc_parse_u64(v, 10, &p->iters);
		if (rc || !p->iters || p->iters > RDC_BENCH_MAX_ITERS)
			return rdc_usage_error(ctx, "'iters %s': not a number 1-%llu", v,
					       (unsigned long long)RDC_BENCH_MAX_ITERS);
		p->duration_ns = 0;
		p->warmup_ns = 0;
	}
	if ((v = arg_of(act, args, "duration")) &&
	    (rc = arg_ns(ctx, "duration", v, false, 0.001, &p->duration_ns)))
		return rc;
	if ((v = arg_of(act, args, "warmup")) &&
	    (rc = arg_ns(ctx, "warmup", v, true, 0.001, &p->warmup_ns)))
		return rc;
	if ((v = arg_of(act, args, "interval")) &&
	    (rc = arg_ns(ctx, "interval", v, false, 0.1, &p->interval_ns)))
		return rc;
	if ((v = arg_of(act, args, "dscp"))) {
		if ((rc = rdc_arg_u32(ctx, "dscp", v, 0, 63, &u)))
			return rc;
		p->traffic_class = (uint8_t)(u << 2);
	}
	if ((v = arg_of(act, args, "tclass"))) {
		if ((rc = rdc_arg_u32(ctx, "tclass", v, 0, 255, &u)))
			return rc;
		p->traffic_class = (uint8_t)u;
	}
	if ((v = arg_of(act, args, "mtu"))) {
		if ((rc = rdc_arg_u32(ctx, "mtu", v, 256, 4096, &p->mtu)))
			return rc;
		if (p->mtu & (p->mtu - 1))
			return rdc_usage_error(ctx, "'mtu %s': not 256, 512, 1024, 2048 or 4096",
					       v);
	}
	if ((v = arg_of(act, args, "port"))) {
		if ((rc = rdc_arg_u32(ctx, "port", v, 1, 65535, &u)))
			return rc;
		ca->o.port = (uint16_t)u;
	}
	if ((v = arg_of(act, args, "expect-gbps")) &&
	    (rc = arg_gbps(ctx, "expect-gbps", v, &ca->expect_gbps)))
		return rc;
	if ((v = arg_of(act, args, "min-link-gbps")) &&
	    (rc = arg_gbps(ctx, "min-link-gbps", v, &ca->min_link_gbps)))
		return rc;
	if (test == RDC_BENCH_LAT && (ca->expect_gbps || ca->min_link_gbps))
		return rdc_usage_error(ctx, "Gb/s thresholds apply to the bandwidth tests");
	{
		struct rdc_err err = {0};

		if (rdc_bench_params_check(p, &err))
			return rdc_usage_error(ctx, "%s", err.msg);
	}
	return 0;
}

/* ---- output: one call sequence for text, JSON and YAML ---- */

static void out_endpoint(struct rdc_out *o, enum rdc_out_sink sink, const char *key,
			 const struct rdc_bench_endpoint *e)
{
	char ip[INET_ADDRSTRLEN], gid[INET6_ADDRSTRLEN];

	rdc_ipv4_format(e->ipv4, ip);
	/* The short IPv6 form ("::ffff:198.18.1.1"), as `rdma` and show_gids print GIDs. */
	if (!inet_ntop(AF_INET6, e->gid, gid, sizeof(gid)))
		rdc_gid_format(e->gid, gid);
	rdc_out_obj_open(o, key);
	if (e->device[0]) {
		rdc_out_str(o, sink, "device", "%s", e->device);
		rdc_out_u64(o, sink, "port", "/%" PRIu64, e->port);
		rdc_out_str(o, sink, "netdev", " %s", e->netdev);
	}
	rdc_out_u64(o, sink, "gid_index", " gid %" PRIu64, e->gid_index);
	rdc_out_str(o, sink, "gid", " %s", gid);
	rdc_out_str(o, sink, "ip", " (%s)", ip);
	rdc_out_obj_close(o);
}

static void out_link_head(struct rdc_out *o, enum rdc_out_sink sink, uint32_t i,
			  const struct rdc_bench_link_report *lr, const char *arrow)
{
	rdc_out_u64(o, sink, "link", "link %" PRIu64 ": ", i);
	out_endpoint(o, sink, "local", &lr->local);
	if (arrow)
		rdc_out_text(o, "%s", arrow);
	out_endpoint(o, sink, "remote", &lr->remote);
	rdc_out_u64(o, sink, "path_mtu_bytes", ", mtu %" PRIu64, lr->path_mtu);
}

static void out_params(struct rdc_out *o, enum rdc_out_sink sink, const struct rdc_bench_params *p)
{
	rdc_out_str(o, sink, "test", "bench %s", rdc_bench_test_name(p->test));
	rdc_out_u64(o, sink, "msg_size_bytes", ": %" PRIu64 " B", p->size);
	rdc_out_u64(o, sink, "qps_per_link", ", %" PRIu64 " QP/link", p->qps);
	rdc_out_u64(o, sink, "tx_depth", ", depth %" PRIu64, p->tx_depth);
	/* Both keys always: the one not in use is null. */
	if (p->duration_ns) {
		rdc_out_f64(o, sink, "duration_s", ", %.3g s", (double)p->duration_ns / 1e9);
		rdc_out_null(o, "iters", NULL);
	} else {
		rdc_out_null(o, "duration_s", NULL);
		rdc_out_u64(o, sink, "iters", ", %" PRIu64 " iterations/QP", p->iters);
	}
	rdc_out_f64(o, p->warmup_ns ? sink : RDC_OUT_MACHINE, "warmup_s", " after %.3g s warm-up",
		    (double)p->warmup_ns / 1e9);
	rdc_out_f64(o, RDC_OUT_MACHINE, "interval_s", NULL, (double)p->interval_ns / 1e9);
	rdc_out_u64(o, sink, "traffic_class", ", tclass %" PRIu64, p->traffic_class);
	if (p->mtu)
		rdc_out_u64(o, sink, "mtu_limit_bytes", ", mtu <= %" PRIu64, p->mtu);
	else
		rdc_out_null(o, "mtu_limit_bytes", NULL);
}

struct client_out {
	struct rdc_ctx *ctx;
	bool progress; /* text lines while running */
};

static void client_linked_cb(void *arg, const struct rdc_bench_report *r)
{
	struct client_out *co = arg;
	struct rdc_out *o = co->ctx->out;

	if (!co->progress)
		return;
	out_params(o, RDC_OUT_TEXT, &r->params);
	rdc_out_text(o, " to %s (%s)\n", r->peer, r->peer_host);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		out_link_head(o, RDC_OUT_TEXT, i, &r->links[i], " -> ");
		rdc_out_nl(o);
	}
	fflush(stdout);
}

static void client_interval_cb(void *arg, const struct rdc_bench_report *r, size_t k,
			       const uint64_t *bytes)
{
	struct client_out *co = arg;
	struct rdc_out *o = co->ctx->out;
	uint64_t total = 0;

	if (!co->progress)
		return;
	rdc_out_text(o, "%7.1f s", (double)(k + 1) * (double)r->params.interval_ns / 1e9);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		rdc_out_text(o, "  link %u %.3f", i,
			     rdc_bench_gbps(bytes[i], r->params.interval_ns));
		total += bytes[i];
	}
	rdc_out_text(o, "  total %.3f Gb/s\n", rdc_bench_gbps(total, r->params.interval_ns));
	fflush(stdout);
}

static void out_counters(struct rdc_out *o, const struct rdc_counter_set *set)
{
	bool any = false;

	rdc_out_obj_open(o, "counters");
	for (size_t i = 0; i < set->count; i++) {
		char key[96], fmt[160];

		snprintf(key, sizeof(key), "%s%s",
			 strcmp(set->items[i].group, "pause") ? "" : "pause_", set->items[i].name);
		/* Text shows what moved; the machine formats show every counter read. */
		if (!set->items[i].value) {
			rdc_out_u64(o, RDC_OUT_MACHINE, key, NULL, 0);
			continue;
		}
		snprintf(fmt, sizeof(fmt), "%s%s %%" PRIu64, any ? ", " : "    counters: ", key);
		rdc_out_u64(o, RDC_OUT_ANY, key, fmt, set->items[i].value);
		any = true;
	}
	rdc_out_obj_close(o);
	if (any)
		rdc_out_nl(o);
}

static void out_lat(struct rdc_out *o, const struct rdc_lat_stats *st)
{
	rdc_out_obj_open(o, "latency_us");
	rdc_out_u64(o, RDC_OUT_ANY, "count", "  %" PRIu64 " samples", st->count);
	rdc_out_f64(o, RDC_OUT_ANY, "min", "  min %.2f", st->min_us);
	rdc_out_f64(o, RDC_OUT_ANY, "p50", "  p50 %.2f", st->p50_us);
	rdc_out_f64(o, RDC_OUT_ANY, "p99", "  p99 %.2f", st->p99_us);
	rdc_out_f64(o, RDC_OUT_ANY, "p99_9", "  p99.9 %.2f", st->p999_us);
	rdc_out_f64(o, RDC_OUT_ANY, "max", "  max %.2f", st->max_us);
	rdc_out_f64(o, RDC_OUT_ANY, "mean", "  mean %.2f", st->mean_us);
	rdc_out_f64(o, RDC_OUT_ANY, "stdev", "  stdev %.2f us", st->stdev_us);
	rdc_out_obj_close(o);
}

static void out_link_result(struct rdc_out *o, const struct rdc_bench_report *r, uint32_t i)
{
	const struct rdc_bench_link_report *lr = &r->links[i];
	const struct rdc_bench_result *res = &lr->res;
	uint64_t window = res->window_end_ns > res->window_start_ns
				  ? res->window_end_ns - res->window_start_ns
				  : 0;
	double gbps, lo, hi;

	/* The common window of a timed bandwidth run; a link's own otherwise. */
	if (r->params.duration_ns && r->params.test != RDC_BENCH_LAT)
		window = r->window_end_ns - r->window_start_ns;
	gbps = rdc_bench_gbps(res->bytes, window);
	rdc_out_obj_open(o, NULL);
	out_link_head(o, RDC_OUT_MACHINE, i, lr, NULL);
	rdc_out_text(o, "link %u %s/%u", i, lr->local.device, lr->local.port);
	rdc_out_str_color(o, RDC_OUT_ANY, "status", "  %s", res->status ? "failed" : "ok",
			  res->status ? RDC_COLOR_RED : RDC_COLOR_GREEN);
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, res->bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, res->msgs);
	rdc_out_f64(o, RDC_OUT_MACHINE, "window_s", NULL, (double)window / 1e9);
	if (r->params.test == RDC_BENCH_LAT) {
		out_lat(o, &lr->lat);
	} else {
		rdc_out_f64(o, RDC_OUT_ANY, "gbps", "  %.3f Gb/s", gbps);
		rdc_out_f64(o, RDC_OUT_ANY, "mmsgps", "  %.4g Mmsg/s",
			    rdc_bench_mmsgps(res->msgs, window));
		/* Whole intervals only; a run shorter than one has none (null). */
		if (res->nintervals) {
			rdc_bench_interval_range(res->interval_bytes, res->nintervals,
						 r->params.interval_ns, &lo, &hi);
			rdc_out_f64(o, RDC_OUT_ANY, "min_interval_gbps", "  interval min %.3f", lo);
			rdc_out_f64(o, RDC_OUT_ANY, "max_interval_gbps", " max %.3f", hi);
		} else {
			rdc_out_null(o, "min_interval_gbps", NULL);
			rdc_out_null(o, "max_interval_gbps", NULL);
		}
		if (lr->local.rate_mbps) {
			rdc_out_f64(o, RDC_OUT_ANY, "port_share_percent", "  %.1f%%",
				    100.0 * gbps * 1000.0 / lr->local.rate_mbps);
			rdc_out_f64(o, RDC_OUT_ANY, "port_rate_gbps", " of %g Gb/s",
				    lr->local.rate_mbps / 1000.0);
		} else {
			rdc_out_null(o, "port_share_percent", NULL);
			rdc_out_null(o, "port_rate_gbps", NULL);
		}
		rdc_out_arr_open(o, "intervals_gbps");
		for (size_t k = 0; k < res->nintervals; k++)
			rdc_out_f64(o, RDC_OUT_MACHINE, NULL, NULL,
				    rdc_bench_gbps(res->interval_bytes[k], r->params.interval_ns));
		rdc_out_arr_close(o);
	}
	rdc_out_f64(o, RDC_OUT_ANY, "cpu_s", "  cpu %.2f s", (double)res->cpu_ns / 1e9);
	rdc_out_f64(o, RDC_OUT_ANY, "longest_stall_ms", "  longest stall %.1f ms",
		    (double)res->longest_stall_ns / 1e6);
	rdc_out_u64(o, RDC_OUT_MACHINE, "failed_completions", NULL, res->errors);
	rdc_out_str(o, RDC_OUT_ANY, "error", "\n    error: %s", res->status ? res->error : NULL);
	rdc_out_bool(o, RDC_OUT_MACHINE, "carrier_lost", NULL, lr->carrier_lost);
	if (lr->carrier_lost)
		rdc_out_f64(o, RDC_OUT_ANY, "carrier_lost_at_s", "\n    carrier lost at %.2f s",
			    (double)lr->carrier_lost_ns / 1e9);
	else
		rdc_out_null(o, "carrier_lost_at_s", NULL);
	rdc_out_nl(o);
	out_counters(o, &lr->counters);
	rdc_out_obj_open(o, "peer");
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, lr->peer.bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, lr->peer.msgs);
	rdc_out_u64(o, RDC_OUT_MACHINE, "failed_completions", NULL, lr->peer.errors);
	rdc_out_obj_close(o);
	rdc_out_obj_close(o);
}

/* Threshold checks: each failure is one line on stderr naming what fell short. */
static int client_verdict(const struct client_args *ca, const struct rdc_bench_report *r,
			  double total_gbps, const double *link_gbps)
{
	int rc = RDC_EXIT_OK;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_link_report *lr = &r->links[i];

		if (lr->res.status) {
			log_err("bench: link %u (%s/%u) failed: %s", i, lr->local.device,
				lr->local.port, lr->res.error);
			rc = RDC_EXIT_FAIL;
		} else if (ca->min_link_gbps && link_gbps[i] < ca->min_link_gbps) {
			log_err("bench: link %u (%s/%u) ran %.3f Gb/s, below min-link-gbps %g", i,
				lr->local.device, lr->local.port, link_gbps[i], ca->min_link_gbps);
			rc = RDC_EXIT_FAIL;
		}
	}
	if (ca->expect_gbps && total_gbps < ca->expect_gbps) {
		log_err("bench: total %.3f Gb/s is below expect-gbps %g", total_gbps,
			ca->expect_gbps);
		rc = RDC_EXIT_FAIL;
	}
	return rc;
}

static int client_report(struct rdc_ctx *ctx, const struct client_args *ca,
			 const struct rdc_bench_report *r)
{
	struct rdc_out *o = ctx->out;
	const struct rdc_bench_params *p = &r->params;
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};
	uint64_t window =
		r->window_end_ns > r->window_start_ns ? r->window_end_ns - r->window_start_ns : 0;
	uint64_t bytes = 0, msgs = 0;
	double total;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_result *res = &r->links[i].res;
		uint64_t w = res->window_end_ns > res->window_start_ns
				     ? res->window_end_ns - res->window_start_ns
				     : 0;

		bytes += res->bytes;
		msgs += res->msgs;
		link_gbps[i] = rdc_bench_gbps(res->bytes, p->duration_ns ? window : w);
	}
	total = rdc_bench_gbps(bytes, window);
	rdc_out_begin(o);
	out_params(o, RDC_OUT_MACHINE, p);
	rdc_out_str(o, RDC_OUT_MACHINE, "server", NULL, r->peer);
	rdc_out_str(o, RDC_OUT_MACHINE, "server_host", NULL, r->peer_host);
	rdc_out_arr_open(o, "links");
	for (uint32_t i = 0; i < r->nlinks; i++)
		out_link_result(o, r, i);
	rdc_out_arr_close(o);
	rdc_out_obj_open(o, "total");
	rdc_out_text(o, "total");
	if (p->test != RDC_BENCH_LAT) {
		rdc_out_f64(o, RDC_OUT_ANY, "gbps", "  %.3f Gb/s", total);
		rdc_out_f64(o, RDC_OUT_ANY, "mmsgps", "  %.4g Mmsg/s",
			    rdc_bench_mmsgps(msgs, window));
		rdc_out_f64(o, RDC_OUT_ANY, "imbalance", "  imbalance %.3f",
			    rdc_bench_imbalance(link_gbps, r->nlinks));
	}
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, msgs);
	rdc_out_f64(o, RDC_OUT_ANY, "window_s", " over %.3f s", (double)window / 1e9);
	rdc_out_f64(o, RDC_OUT_ANY, "host_cpu_percent", "  host cpu %.1f%%", r->host_cpu_percent);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
	rdc_out_str(o, RDC_OUT_MACHINE, "error", NULL, r->status ? r->error : NULL);
	rdc_out_end(o);
	return client_verdict(ca, r, total, link_gbps);
}

static int bench_client_run(struct rdc_ctx *ctx, int argc, char **argv)
{
	const struct rdc_action *act = &bench_actions[0];
	struct client_out co = {.ctx = ctx};
	struct rdc_bench_client_cb cb = {
		.linked = client_linked_cb, .interval = client_interval_cb, .arg = &co};
	struct rdc_bench_report *r;
	struct client_args ca;
	struct rdc_args args;
	struct rdc_err err = {0};
	int rc, verdict = RDC_EXIT_OK;

	rc = rdc_args_parse(ctx, act, argc, argv, &args);
	if (!rc)
		rc = client_parse(ctx, act, &args, &ca);
	if (rc)
		return rc;
	if (bench_needs_live(ctx))
		return RDC_EXIT_FAIL;
	co.progress = rdc_out_is_text(ctx->out) && !ctx->quiet;
	bench_signals();
	ca.o.interrupted = &bench_interrupted;
	r = calloc(1, sizeof(*r));
	if (!r)
		return RDC_EXIT_FAIL;
	rc = rdc_bench_client_run(&ca.o, &cb, r, &err);
	/* A run cut short still reports what its links measured up to then. */
	if (r->started)
		verdict = client_report(ctx, &ca, r);
	rc = rc ? rdc_fail(ctx, &err) : verdict;
	rdc_bench_report_free(r);
	free(r);
	return rc;
}

/* ---- server ---- */

static void server_listening_cb(void *arg, const char *addr, uint16_t port)
{
	struct rdc_ctx *ctx = arg;

	if (!ctx->quiet)
		log_info("bench: serving on %s:%u", addr, port);
	if (rdc_out_is_text(ctx->out) && !ctx->quiet) {
		rdc_out_text(ctx->out, "listening on %s:%u\n", addr, port);
		fflush(stdout);
	}
}

static void server_begin_cb(void *arg, unsigned int run, const struct rdc_bench_report *r)
{
	struct rdc_ctx *ctx = arg;
	struct rdc_out *o = ctx->out;

	/* Text only: JSON and YAML give the whole run in one document at its end. */
	if (ctx->quiet || !rdc_out_is_text(o))
		return;
	rdc_out_text(o, "run %u from %s: ", run, r->peer);
	out_params(o, RDC_OUT_TEXT, &r->params);
	rdc_out_nl(o);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		out_link_head(o, RDC_OUT_TEXT, i, &r->links[i], " <- client");
		rdc_out_nl(o);
	}
	fflush(stdout);
}

/* One document per run (or per client turned away), so a stream reader sees each. */
static void server_end_cb(void *arg, unsigned int run, const struct rdc_bench_report *r)
{
	struct rdc_ctx *ctx = arg;
	struct rdc_out *o = ctx->out;
	uint64_t window = r->window_end_ns - r->window_start_ns, bytes = 0;

	for (uint32_t i = 0; i < r->nlinks; i++)
		bytes += r->links[i].peer.bytes;
	rdc_out_begin(o);
	if (run) {
		rdc_out_u64(o, RDC_OUT_ANY, "run", "run %" PRIu64, run);
	} else {
		rdc_out_null(o, "run", NULL); /* a client turned away is not a run */
		rdc_out_text(o, "refused");
	}
	rdc_out_str(o, RDC_OUT_ANY, "client", " from %s", r->peer);
	rdc_out_str_color(o, RDC_OUT_ANY, "status", ": %s", r->status ? "failed" : "done",
			  r->status ? RDC_COLOR_RED : RDC_COLOR_GREEN);
	rdc_out_str(o, RDC_OUT_ANY, "error", ": %s", r->status ? r->error : NULL);
	if (r->nlinks) {
		out_params(o, RDC_OUT_MACHINE, &r->params);
		rdc_out_arr_open(o, "links");
		for (uint32_t i = 0; i < r->nlinks; i++) {
			const struct rdc_bench_link_report *lr = &r->links[i];

			rdc_out_obj_open(o, NULL);
			out_link_head(o, RDC_OUT_MACHINE, i, lr, NULL);
			rdc_out_u64(o, RDC_OUT_MACHINE, "client_bytes", NULL, lr->peer.bytes);
			rdc_out_u64(o, RDC_OUT_MACHINE, "received_bytes", NULL, lr->res.bytes);
			rdc_out_u64(o, RDC_OUT_MACHINE, "failed_completions", NULL, lr->res.errors);
			rdc_out_str(o, RDC_OUT_MACHINE, "error", NULL,
				    lr->res.status ? lr->res.error : NULL);
			rdc_out_obj_close(o);
		}
		rdc_out_arr_close(o);
	}
	if (!r->status && window && r->params.test != RDC_BENCH_LAT)
		rdc_out_f64(o, RDC_OUT_ANY, "client_gbps", ", client measured %.3f Gb/s",
			    rdc_bench_gbps(bytes, window));
	else
		rdc_out_null(o, "client_gbps", NULL);
	rdc_out_nl(o);
	for (uint32_t i = 0; i < r->nlinks; i++)
		if (r->links[i].res.status)
			rdc_out_text(o, "  link %u: %s\n", i, r->links[i].res.error);
	rdc_out_end(o);
}

static int bench_server_run(struct rdc_ctx *ctx, int argc, char **argv)
{
	const struct rdc_action *act = &bench_actions[1];
	struct rdc_bench_server_opts o = {.port = RDC_BENCH_DEFAULT_PORT};
	struct rdc_bench_server_cb cb = {.listening = server_listening_cb,
					 .run_begin = server_begin_cb,
					 .run_end = server_end_cb,
					 .arg = ctx};
	struct rdc_args args;
	struct rdc_err err = {0};
	const char *v;
	uint32_t u;
	int rc, last = 0;

	rc = rdc_args_parse(ctx, act, argc, argv, &args);
	if (rc)
		return rc;
	if ((v = arg_of(act, &args, "port"))) {
		if ((rc = rdc_arg_u32(ctx, "port", v, 1, 65535, &u)))
			return rc;
		o.port = (uint16_t)u;
	}
	if ((v = arg_of(act, &args, "bind"))) {
		struct in_addr in;

		if (inet_pton(AF_INET, v, &in) != 1)
			return rdc_usage_error(ctx, "'bind %s': not an IPv4 address", v);
		o.bind = v;
	}
	if ((v = arg_of(act, &args, "allow"))) {
		if (rdc_ipv4_cidr_parse(v, &o.allow_net, &o.allow_prefix))
			return rdc_usage_error(
				ctx, "'allow %s': not an IPv4 CIDR such as 198.18.0.0/15", v);
		o.has_allow = true;
	}
	o.once = args.given[rdc_param_index(act, "once")];
	if (bench_needs_live(ctx))
		return RDC_EXIT_FAIL;
	bench_signals();
	o.interrupted = &bench_interrupted;
	rc = rdc_bench_server_serve(&o, &cb, &last, &err);
	if (rc)
		return rdc_fail(ctx, &err);
	/* With once, the exit status is the run's (its failure is already reported). */
	return o.once && last ? RDC_EXIT_FAIL : RDC_EXIT_OK;
}
