// SPDX-License-Identifier: GPL-2.0-or-later
/* bench.c - `rdmactl bench`: client and server keywords, the report in text, JSON and YAML */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include "base/ipv4.h"
#include "base/log.h"
#include "base/safefile.h"
#include "base/util.h"
#include "bond/check.h"
#include "bench/client.h"
#include "bench/engine.h"
#include "bench/pace.h"
#include "bench/server.h"
#include "bench/stats.h"
#include "host/gid.h"
#include "host/system.h"
#include "bench.h"
#include "bench_metrics.h"
#include "cmd.h"
#include "signals.h"

static const char *const test_values[] = {"write",    "read",	  "send", "lat",
					  "lat-read", "lat-send", NULL};
static const char *const mtu_values[] = {"256", "512", "1024", "2048", "4096", NULL};
static const char *const size_values[] = {"all", NULL};
static const char *const cq_wait_values[] = {"auto", "poll", "events", NULL};

/* What `bench client` keywords fill: the run's options and the verdict thresholds. */
struct client_args {
	struct rdc_bench_client_opts o;
	double expect_gbps, min_link_gbps;
	const char *metrics; /* the run per link as node_exporter textfile metrics */
};

#define CLIENT_PARAM(field) offsetof(struct client_args, o.params.field)

/* "test" comes first in the table: it sets the test's defaults the other keywords override. */
static int client_test(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct client_args *ca = opts;
	enum rdc_bench_test test;

	(void)n;
	if (rdc_bench_test_parse(w[0], &test))
		return rdc_usage_error(
			ctx, "'%s %s': not one of write, read, send, lat, lat-read, lat-send",
			p->name, w[0]);
	rdc_bench_params_default(&ca->o.params, test);
	return 0;
}

static int client_link(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct client_args *ca = opts;

	(void)n;
	if (ca->o.nspecs >= RDC_BENCH_MAX_LINKS ||
	    rdc_bench_link_spec_parse(w[0], &ca->o.specs[ca->o.nspecs]))
		return rdc_usage_error(ctx,
				       "'%s %s': not LOCAL or LOCAL:REMOTE (a DEV, DEV/PORT, "
				       "netdev or IPv4 address each)",
				       p->name, w[0]);
	ca->o.nspecs++;
	return 0;
}

static int client_size(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct client_args *ca = opts;
	uint64_t v;
	int rc;

	(void)n;
	/* perftest -a: every power of two from 2 B to 8 MiB, a run each. */
	ca->o.size_all = !strcmp(w[0], "all");
	if (ca->o.size_all)
		return 0;
	rc = rdc_parse_size(w[0], RDC_BENCH_MAX_SIZE, &v);
	if (rc || !v)
		return rdc_usage_error(ctx, "'%s %s': %s", p->name, w[0],
				       rc == -ERANGE ? "at most 16M"
				       : rc	     ? "not BYTES, nK or nM"
						     : "at least 1 byte");
	ca->o.params.size = (uint32_t)v;
	return 0;
}

/* Iteration mode: no window and, unless warmup follows in the table, no warm-up. */
static int client_iters(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
			void *opts)
{
	struct client_args *ca = opts;
	uint64_t v;

	(void)n;
	if (rdc_parse_u64(w[0], 10, &v) || !v || v > RDC_BENCH_MAX_ITERS)
		return rdc_usage_error(ctx, "'%s %s': not a number 1-%llu", p->name, w[0],
				       (unsigned long long)RDC_BENCH_MAX_ITERS);
	ca->o.params.iters = v;
	ca->o.params.duration_ns = 0;
	ca->o.params.warmup_ns = 0;
	return 0;
}

/* rate-limit: Gb/s as a plain number, as expect-gbps and perftest's default unit. */
static int client_rate(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct client_args *ca = opts;
	int rc = rdc_bench_rate_parse(w[0], &ca->o.params.rate_limit_bps);

	(void)n;
	if (rc == -ERANGE)
		return rdc_usage_error(ctx, "'%s %s': out of range 0.000001-10000 Gb/s", p->name,
				       w[0]);
	if (rc)
		return rdc_usage_error(ctx,
				       "'%s %s': a rate in Gb/s as a plain number, such as 2.5 or "
				       "0.4 (400 Mb/s); no unit",
				       p->name, w[0]);
	return 0;
}

/* DSCP is the upper six bits of the traffic class. */
static int client_dscp(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct client_args *ca = opts;
	uint32_t u;

	(void)n;
	if (rdc_parse_u32_range(w[0], 0, 63, &u))
		return rdc_usage_error(ctx, "'%s %s': out of range 0-63", p->name, w[0]);
	ca->o.params.traffic_class = (uint8_t)(u << 2);
	return 0;
}

static int client_cq_wait(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w,
			  int n, void *opts)
{
	struct client_args *ca = opts;
	enum rdc_bench_cq_wait cw;

	(void)n;
	if (rdc_bench_cq_wait_parse(w[0], &cw))
		return rdc_usage_error(ctx, "'%s %s': not auto, poll or events", p->name, w[0]);
	ca->o.params.cq_wait = (uint8_t)cw;
	return 0;
}

static int client_mtu(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		      void *opts)
{
	struct client_args *ca = opts;

	(void)n;
	for (size_t i = 0; mtu_values[i]; i++)
		if (!strcmp(w[0], mtu_values[i])) {
			ca->o.params.mtu = 256u << i;
			return 0;
		}
	return rdc_usage_error(ctx, "'%s %s': not 256, 512, 1024, 2048 or 4096", p->name, w[0]);
}

static const struct rdc_val_uint qps_range = {
	.min = 1, .max = RDC_BENCH_MAX_QPS, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint tclass_range = {
	.min = 0, .max = 255, .size = sizeof(uint8_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint qp_timeout_range = {.min = 0,
						     .max = RDC_BENCH_QP_TIMEOUT_MAX,
						     .size = sizeof(uint8_t),
						     .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint retry_range = {
	.min = 0, .max = RDC_BENCH_RETRY_MAX, .size = sizeof(uint8_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint depth_range = {
	.min = 1, .max = RDC_BENCH_MAX_DEPTH, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint inline_range = {
	.min = 0, .max = RDC_BENCH_MAX_INLINE, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_seconds window_s = {.min_s = 0.001};
static const struct rdc_val_seconds warmup_s = {.min_s = 0.001, .zero_ok = true};
static const struct rdc_val_seconds interval_s = {.min_s = 0.1};

static const struct rdc_param bench_client_params[] = {
	{.name = "test",
	 .metavar = "write|read|send|lat|lat-read|lat-send",
	 .suggest = test_values,
	 .help = "what to measure: bandwidth of write, read, send; latency of write (lat), read, "
		 "send (default write)",
	 .parse = client_test},
	{.name = "link",
	 .metavar = "LOCAL[:REMOTE]",
	 .repeat = true,
	 .value_kind = RDC_COMPLETE_PORT,
	 .help = "a link by RDMA DEV[/PORT] or IP on each side; repeatable (default: every "
		 "active port, paired by subnet)",
	 .parse = client_link},
	{.name = "qps",
	 .metavar = "N",
	 .help = "RC QPs per link (default 1)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(qps),
	 .spec = &qps_range},
	{.name = "size",
	 .metavar = "BYTES|nK|nM|all",
	 .suggest = size_values,
	 .help = "message size (default 64K, 2 for the latency tests); all: every power of two "
		 "from 2 B to 8M, a row each (perftest -a)",
	 .parse = client_size},
	{.name = "tx-depth",
	 .metavar = "N",
	 .help = "work requests in flight per QP, 1-1024 (default 128; perftest -t)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(tx_depth),
	 .spec = &depth_range},
	{.name = "cq-mod",
	 .metavar = "N",
	 .help = "signal one completion every N sends, 1 to tx-depth (default: 1 above 8K, else "
		 "tx-depth/4, or post-list; perftest -Q)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(cq_mod),
	 .spec = &depth_range},
	{.name = "post-list",
	 .metavar = "N",
	 .help = "post N work requests per ibv_post_send chain, 1 to tx-depth (default 1; "
		 "perftest -l)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(post_list),
	 .spec = &depth_range},
	{.name = "inline",
	 .metavar = "N",
	 .help = "send messages of at most N bytes inline, 0-1024 (default 220 for lat and "
		 "lat-send, 0 otherwise; perftest -I)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(inline_size),
	 .spec = &inline_range},
	{.name = "cq-wait",
	 .metavar = "auto|poll|events",
	 .suggest = cq_wait_values,
	 .help = "wait for completions by spinning on the CQ (poll) or sleeping on its completion "
		 "channel (events, perftest -e; bandwidth tests); auto (default): events on a "
		 "software device (rxe, siw), whose transport runs on the same CPUs, else poll",
	 .parse = client_cq_wait},
	{.name = "rate-limit",
	 .metavar = "GBPS",
	 .help = "pace each link's sends to at most GBPS Gb/s, 0.000001-10000, in software "
		 "(perftest --rate_limit_type SW)",
	 .parse = client_rate},
	{.name = "hugepages",
	 .help = "both sides' buffers from huge pages (perftest --use_hugepages)",
	 .parse = rdc_val_flag,
	 .dest = CLIENT_PARAM(hugepages)},
	{.name = "bidir",
	 .help = "both sides send at once over the same QPs, write, read and send (perftest -b): "
		 "the rates are both directions' sum, and each direction's",
	 .parse = rdc_val_flag,
	 .dest = CLIENT_PARAM(bidir)},
	{.name = "rdma-cm",
	 .help = "connect the QPs through rdma_cm, at the server's address on each link and the "
		 "control port (perftest -R)",
	 .parse = rdc_val_flag,
	 .dest = CLIENT_PARAM(rdma_cm)},
	{.name = "duration",
	 .metavar = "SEC",
	 .excludes = "iters",
	 .help = "the measured window (default 5)",
	 .parse = rdc_val_seconds_ns,
	 .dest = CLIENT_PARAM(duration_ns),
	 .spec = &window_s},
	{.name = "iters",
	 .metavar = "N",
	 .excludes = "duration",
	 .help = "messages per QP (round trips for the latency tests) instead",
	 .parse = client_iters},
	{.name = "warmup",
	 .metavar = "SEC",
	 .help = "traffic before the window, not counted (default 1 with duration, 0 with iters)",
	 .parse = rdc_val_seconds_ns,
	 .dest = CLIENT_PARAM(warmup_ns),
	 .spec = &warmup_s},
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "per-interval samples (default 1)",
	 .parse = rdc_val_seconds_ns,
	 .dest = CLIENT_PARAM(interval_ns),
	 .spec = &interval_s},
	{.name = "dscp",
	 .metavar = "N",
	 .excludes = "tclass",
	 .help = "DSCP of the traffic (GRH traffic class N << 2)",
	 .parse = client_dscp},
	{.name = "tclass",
	 .metavar = "N",
	 .excludes = "dscp",
	 .help = "GRH traffic class (the whole ToS byte)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(traffic_class),
	 .spec = &tclass_range},
	{.name = "mtu",
	 .metavar = "N",
	 .suggest = mtu_values,
	 .help = "path MTU limit: 256, 512, 1024, 2048 or 4096",
	 .parse = client_mtu},
	{.name = "qp-timeout",
	 .metavar = "N",
	 .help = "RC QP ACK timeout, 4.096 us * 2^N (0-31, 0: forever; default 14, about 67 ms)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(qp_timeout),
	 .spec = &qp_timeout_range},
	{.name = "retry-cnt",
	 .metavar = "N",
	 .help = "RC QP retries after an ACK timeout (0-7, default 7)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(retry_cnt),
	 .spec = &retry_range},
	{.name = "rnr-retry",
	 .metavar = "N",
	 .help = "RC QP retries after a receiver-not-ready NAK (0-7, 7: forever; default 7)",
	 .parse = rdc_val_uint,
	 .dest = CLIENT_PARAM(rnr_retry),
	 .spec = &retry_range},
	{.name = "port",
	 .metavar = "N",
	 .help = "the server's TCP port (default 18515)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct client_args, o.port),
	 .spec = &rdc_val_tcp_port},
	{.name = "expect-gbps",
	 .metavar = "X",
	 .help = "exit 1 when the total is below X Gb/s",
	 .parse = rdc_val_positive,
	 .dest = offsetof(struct client_args, expect_gbps),
	 .spec = "Gb/s"},
	{.name = "min-link-gbps",
	 .metavar = "X",
	 .help = "exit 1 when a link is below X Gb/s, naming it",
	 .parse = rdc_val_positive,
	 .dest = offsetof(struct client_args, min_link_gbps),
	 .spec = "Gb/s"},
	{.name = "metrics",
	 .metavar = "FILE",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "also replace FILE (a .prom in node_exporter's textfile directory) with the run "
		 "per link; - writes them to stdout after the report",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct client_args, metrics)},
	{.name = NULL},
};

static void client_defaults(void *opts)
{
	struct client_args *ca = opts;

	rdc_bench_params_default(&ca->o.params, RDC_BENCH_WRITE);
	ca->o.port = RDC_BENCH_DEFAULT_PORT;
}

/* What `bench server` keywords fill. */
static int server_bind(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct rdc_bench_server_opts *o = opts;
	struct in_addr in;

	(void)n;
	if (inet_pton(AF_INET, w[0], &in) != 1)
		return rdc_usage_error(ctx, "'%s %s': not an IPv4 address", p->name, w[0]);
	o->bind = w[0];
	return 0;
}

static int server_allow(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
			void *opts)
{
	struct rdc_bench_server_opts *o = opts;

	(void)n;
	if (rdc_ipv4_cidr_parse(w[0], &o->allow_net, &o->allow_prefix))
		return rdc_usage_error(ctx, "'%s %s': not an IPv4 CIDR such as 198.18.0.0/15",
				       p->name, w[0]);
	o->has_allow = true;
	return 0;
}

static const struct rdc_param bench_server_params[] = {
	{.name = "bind",
	 .metavar = "ADDR",
	 .help = "listen on this IPv4 address (default all)",
	 .parse = server_bind},
	{.name = "port",
	 .metavar = "N",
	 .help = "TCP port (default 18515)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct rdc_bench_server_opts, port),
	 .spec = &rdc_val_tcp_port},
	{.name = "allow",
	 .metavar = "CIDR",
	 .help = "serve only clients from this range",
	 .parse = server_allow},
	{.name = "once",
	 .help = "exit after one run",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct rdc_bench_server_opts, once)},
	{.name = NULL},
};

static void server_defaults(void *opts)
{
	struct rdc_bench_server_opts *o = opts;

	o->port = RDC_BENCH_DEFAULT_PORT;
}

static int bench_client_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			    const struct rdc_args *args, void *opts);
static int bench_server_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			    const struct rdc_args *args, void *opts);

static const struct rdc_action bench_actions[] = {
	{.name = "client",
	 .synopsis = "HOST [KEYWORD VALUE]...",
	 .help = "measure bandwidth or latency over every link to a server at once, one report",
	 .run = bench_client_run,
	 .params = bench_client_params,
	 .object = RDC_COMPLETE_HOST,
	 .object_required = true,
	 .opts_size = sizeof(struct client_args),
	 .opts_init = client_defaults},
	{.name = "server",
	 .synopsis = "[bind ADDR] [port N] [allow CIDR] [once]",
	 .help = "serve benchmark runs; the client sends every parameter",
	 .run = bench_server_run,
	 .params = bench_server_params,
	 .opts_size = sizeof(struct rdc_bench_server_opts),
	 .opts_init = server_defaults},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_bench = {
	.name = "bench",
	.summary = "ib_write_bw-style benchmarks over many links at once, one aggregated report",
	.actions = bench_actions,
};

/*
 * SIGINT/SIGTERM end the run cleanly (QPs destroyed, peer told): no
 * SA_RESTART, so a blocking accept or recv returns at once; a peer's closed
 * socket is an error, not SIGPIPE.  The handlers stay until the process ends.
 */
static volatile sig_atomic_t *bench_signals(void)
{
	return rdc_sig_stop_begin(RDC_SIG_STOP_NO_SIGPIPE);
}

/*
 * The data path is verbs on real devices: a bundle or a recording cannot
 * stand in.  The server alone may read a bundle (@bundle_ok, under --root
 * only): it offers the bundle's endpoints to rehearse the handshake and
 * refuses every run's SETUP, which is how the tests serve hostile clients on
 * a host without RDMA.
 */
static int bench_needs_live(struct rdc_ctx *ctx, bool bundle_ok)
{
	if (rdc_system_live() || (bundle_ok && rdc_bench_server_system_ok()))
		return 0;
	return rdc_fail_as(ctx, RDC_ERRK_OFFLINE, NULL,
			   "runs on the live system only, not under --root or --replay");
}

/* What no single keyword can check: combinations, and the limits of the whole run. */
static const char *const bw_knobs[] = {"tx-depth", "cq-mod", "post-list", "bidir"};

static int client_check(struct rdc_ctx *ctx, const struct rdc_action *act,
			const struct rdc_args *args, struct client_args *ca)
{
	struct rdc_err err = {0};
	bool lat = rdc_bench_test_is_lat(ca->o.params.test);

	ca->o.host = args->object;
	if (lat && rdc_arg_given(act, args, "qps"))
		return rdc_usage_error(ctx,
				       "'qps' applies to the bandwidth tests; %s runs one QP "
				       "per link",
				       rdc_bench_test_name(ca->o.params.test));
	for (size_t i = 0; lat && i < RDC_ARRAY_SIZE(bw_knobs); i++)
		if (rdc_arg_given(act, args, bw_knobs[i]))
			return rdc_usage_error(ctx,
					       "'%s' applies to the bandwidth tests; %s has one "
					       "message in flight",
					       bw_knobs[i], rdc_bench_test_name(ca->o.params.test));
	if (lat && (ca->expect_gbps || ca->min_link_gbps))
		return rdc_usage_error(ctx, "Gb/s thresholds apply to the bandwidth tests");
	if (ca->o.size_all) {
		/* One verdict and one metrics file describe one size's run, not a sweep. */
		if (ca->expect_gbps || ca->min_link_gbps)
			return rdc_usage_error(ctx, "'size all': Gb/s thresholds apply to a run of "
						    "one size");
		if (ca->metrics)
			return rdc_usage_error(ctx, "'size all': metrics describe a run of one "
						    "size");
		/* Neither iters nor duration: perftest -a's count per size, no warm-up. */
		if (!rdc_arg_given(act, args, "iters") && !rdc_arg_given(act, args, "duration")) {
			ca->o.params.iters = rdc_bench_sweep_iters(ca->o.params.test);
			ca->o.params.duration_ns = 0;
			if (!rdc_arg_given(act, args, "warmup"))
				ca->o.params.warmup_ns = 0;
		}
		if (rdc_bench_sweep_check(&ca->o.params, &err))
			return rdc_usage_error(ctx, "%s", err.msg);
	} else if (rdc_bench_params_check(&ca->o.params, &err)) {
		return rdc_usage_error(ctx, "%s", err.msg);
	}
	/* The metrics' target is said before the run: a file it cannot replace costs no run. */
	if (rdc_file_is_stdout(ca->metrics) && !rdc_out_is_text(ctx->out))
		return rdc_usage_error(ctx, "'metrics -': standard output holds the report's "
					    "document; name a file");
	if (ca->metrics && !rdc_file_is_stdout(ca->metrics) &&
	    rdc_file_target_ok(ca->metrics, &err))
		return rdc_fail(ctx, &err);
	return 0;
}

/* ---- output: one call sequence for text, JSON and YAML ---- */

/*
 * A link as the user names it: its local RDMA port and netdev,
 * "rxe1/1 (eth1)", never a bare index (JSON keeps the index as "link").
 */
#define LINK_NAME_LEN (64 + 12 + IF_NAMESIZE + 4)

static const char *link_name(const struct rdc_bench_link_report *lr, char buf[LINK_NAME_LEN])
{
	const struct rdc_bench_endpoint *e = &lr->local;

	if (e->netdev[0])
		snprintf(buf, LINK_NAME_LEN, "%s/%u (%s)", e->device, e->port, e->netdev);
	else
		snprintf(buf, LINK_NAME_LEN, "%s/%u", e->device, e->port);
	return buf;
}

/* @named: the text already named the port (link_name()); its fields go to JSON only. */
static void out_endpoint(struct rdc_out *o, enum rdc_out_sink sink, const char *key,
			 const struct rdc_bench_endpoint *e, bool named)
{
	enum rdc_out_sink dev_sink = named ? RDC_OUT_MACHINE : sink;
	char ip[INET_ADDRSTRLEN], gid[INET6_ADDRSTRLEN];

	rdc_ipv4_format(e->ipv4, ip);
	/* The short IPv6 form ("::ffff:198.18.1.1"), as `rdma` and show_gids print GIDs. */
	if (!inet_ntop(AF_INET6, e->gid, gid, sizeof(gid)))
		rdc_gid_format(e->gid, gid);
	rdc_out_obj_open(o, key);
	/* Every key always: the RDMA port is null when the peer did not name it. */
	if (e->device[0]) {
		rdc_out_str(o, dev_sink, "device", "%s", e->device);
		rdc_out_u64(o, dev_sink, "port", "/%" PRIu64, e->port);
		rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL, e->netdev[0] ? e->netdev : NULL);
		if (dev_sink != RDC_OUT_MACHINE)
			rdc_out_text(o, " %s ", e->netdev);
	} else {
		rdc_out_null(o, "device", NULL);
		rdc_out_null(o, "port", NULL);
		rdc_out_null(o, "netdev", NULL);
	}
	rdc_out_u64(o, sink, "gid_index", "gid %" PRIu64, e->gid_index);
	rdc_out_str(o, sink, "gid", " %s", gid);
	rdc_out_str(o, sink, "ip", " (%s)", ip);
	rdc_out_obj_close(o);
}

static void out_link_head(struct rdc_out *o, enum rdc_out_sink sink, uint32_t i,
			  const struct rdc_bench_link_report *lr, const char *arrow)
{
	char name[LINK_NAME_LEN];

	rdc_out_u64(o, RDC_OUT_MACHINE, "link", NULL, i);
	if (sink != RDC_OUT_MACHINE)
		rdc_out_text(o, "%s: ", link_name(lr, name));
	out_endpoint(o, sink, "local", &lr->local, true);
	if (arrow)
		rdc_out_text(o, "%s", arrow);
	out_endpoint(o, sink, "remote", &lr->remote, false);
	rdc_out_u64(o, sink, "path_mtu_bytes", ", mtu %" PRIu64, lr->path_mtu);
}

/*
 * The RC requester's retry settings and the window they give a silent link
 * before the QP dies (rdc_qp_survival_s(), as `bond check` judges it; null:
 * timeout 0 waits forever).  The text names them when they are not perftest's.
 */
static void out_qp_settings(struct rdc_out *o, enum rdc_out_sink sink,
			    const struct rdc_bench_params *p)
{
	struct rdc_bench_params def;
	double window = rdc_qp_survival_s(p->qp_timeout, p->retry_cnt);
	enum rdc_out_sink shown;

	rdc_bench_params_default(&def, p->test);
	shown = p->qp_timeout != def.qp_timeout || p->retry_cnt != def.retry_cnt ||
				p->rnr_retry != def.rnr_retry
			? sink
			: RDC_OUT_MACHINE;
	rdc_out_u64(o, shown, "qp_timeout", ", qp-timeout %" PRIu64, p->qp_timeout);
	rdc_out_u64(o, shown, "retry_cnt", " retry-cnt %" PRIu64, p->retry_cnt);
	rdc_out_u64(o, shown, "rnr_retry", " rnr-retry %" PRIu64, p->rnr_retry);
	if (isfinite(window))
		rdc_out_f64(o, shown, "qp_survival_s", " (a silent link kills a QP in %.3g s)",
			    window);
	else
		rdc_out_null(o, "qp_survival_s", NULL);
}

static void out_params(struct rdc_out *o, enum rdc_out_sink sink, const struct rdc_bench_params *p)
{
	rdc_out_str(o, sink, "test", "bench %s", rdc_bench_test_name(p->test));
	rdc_out_u64(o, sink, "msg_size_bytes", ": %" PRIu64 " B", p->size);
	rdc_out_u64(o, sink, "qps_per_link", ", %" PRIu64 " QP/link", p->qps);
	rdc_out_u64(o, sink, "tx_depth", ", depth %" PRIu64, p->tx_depth);
	/* The signalling and posting in effect (the engine's defaults resolved). */
	rdc_out_u64(o, rdc_bench_test_is_lat(p->test) ? RDC_OUT_MACHINE : sink, "cq_mod",
		    ", cq-mod %" PRIu64, rdc_bench_cq_mod(p));
	rdc_out_u64(o, p->post_list > 1 ? sink : RDC_OUT_MACHINE, "post_list",
		    ", post-list %" PRIu64, p->post_list);
	rdc_out_u64(o, rdc_bench_inline_bytes(p) ? sink : RDC_OUT_MACHINE, "inline_bytes",
		    ", inline <= %" PRIu64 " B", rdc_bench_inline_bytes(p));
	/* rate-limit and hugepages: null and false when not asked for. */
	if (p->rate_limit_bps)
		rdc_out_f64(o, sink, "rate_limit_gbps", ", rate-limit %.6g Gb/s",
			    (double)p->rate_limit_bps / 1e9);
	else
		rdc_out_null(o, "rate_limit_gbps", NULL);
	rdc_out_bool(o, p->hugepages ? sink : RDC_OUT_MACHINE, "hugepages", ", hugepages%.0s",
		     p->hugepages);
	rdc_out_bool(o, p->bidir ? sink : RDC_OUT_MACHINE, "bidir", ", bidir %s", p->bidir);
	rdc_out_bool(o, p->rdma_cm ? sink : RDC_OUT_MACHINE, "rdma_cm", ", rdma_cm %s", p->rdma_cm);
	/* As asked; each link's cq_wait says what its side did. */
	rdc_out_str(o, p->cq_wait != RDC_BENCH_CQ_WAIT_AUTO ? sink : RDC_OUT_MACHINE, "cq_wait",
		    ", cq-wait %s", rdc_bench_cq_wait_name(p->cq_wait));
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
	out_qp_settings(o, sink, p);
}

/* How this side waited for the link's completions; null where it waited for none. */
static void out_cq_wait(struct rdc_out *o, enum rdc_out_sink sink,
			const struct rdc_bench_result *res)
{
	if (res->cq_wait == RDC_BENCH_CQ_WAIT_AUTO)
		rdc_out_null(o, "cq_wait", NULL);
	else
		rdc_out_str(o, sink, "cq_wait", " (%s)", rdc_bench_cq_wait_name(res->cq_wait));
}

/* The page size of this side's buffer for the link (hugepages or not); null before it had one. */
static void out_buffer_pages(struct rdc_out *o, const struct rdc_bench_result *res)
{
	if (res->buffer_page_bytes)
		rdc_out_u64(o, RDC_OUT_MACHINE, "buffer_page_bytes", NULL, res->buffer_page_bytes);
	else
		rdc_out_null(o, "buffer_page_bytes", NULL);
}

/* The same keys, all null: a server's document of a run that set up no links. */
static void out_params_null(struct rdc_out *o)
{
	static const char *const keys[] = {
		"test",	      "msg_size_bytes", "qps_per_link",	   "tx_depth",	 "cq_mod",
		"post_list",  "inline_bytes",	"duration_s",	   "iters",	 "warmup_s",
		"interval_s", "traffic_class",	"mtu_limit_bytes", "qp_timeout", "retry_cnt",
		"rnr_retry",  "qp_survival_s",	"rate_limit_gbps", "hugepages",	 "bidir",
		"rdma_cm",    "cq_wait",
	};

	for (size_t i = 0; i < RDC_ARRAY_SIZE(keys); i++)
		rdc_out_null(o, keys[i], NULL);
}

struct client_out {
	struct rdc_ctx *ctx;
	bool progress;		   /* text lines while running */
	struct bench_sweep *sweep; /* size all's rows; NULL for one size */
	bool said_head;		   /* the progress said the sweep's parameters */
	int sweep_rc;		   /* a row that could not be added */
};

/*
 * The report's clock (rdc_bench_report_clock_s()): JSON names its origin,
 * the text says it once, before the first time it shows (@text).
 */
static void out_clock(struct rdc_out *o, bool text, const struct rdc_bench_params *p)
{
	rdc_out_str(o, RDC_OUT_MACHINE, "time_origin", NULL, p->warmup_ns ? "warmup_end" : "start");
	if (!text)
		return;
	if (p->warmup_ns)
		rdc_out_text(o, "times in seconds from the end of the %.3g s warm-up\n",
			     (double)p->warmup_ns / 1e9);
	else
		rdc_out_text(o, "times in seconds from the start\n");
}

static void client_linked_cb(void *arg, const struct rdc_bench_report *r)
{
	struct client_out *co = arg;
	struct rdc_out *o = co->ctx->out;

	if (!co->progress || co->said_head)
		return;
	out_params(o, RDC_OUT_TEXT, &r->params);
	rdc_out_text(o, " to %s (%s)\n", r->peer, r->peer_host);
	/* A sweep's runs differ only in their size: said once, before the first. */
	co->said_head = co->sweep != NULL;
	if (co->sweep)
		rdc_out_text(o, "size all: %u B to %u B, a run each, as perftest -a\n",
			     RDC_BENCH_SWEEP_MIN, RDC_BENCH_SWEEP_MAX);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		out_link_head(o, RDC_OUT_TEXT, i, &r->links[i], " -> ");
		rdc_out_nl(o);
	}
	out_clock(o, true, &r->params);
	fflush(stdout);
}

static void client_interval_cb(void *arg, const struct rdc_bench_report *r, size_t k,
			       const uint64_t *bytes)
{
	struct client_out *co = arg;
	struct rdc_out *o = co->ctx->out;
	uint64_t total = 0;

	/* A sweep's progress is its rows. */
	if (!co->progress || co->sweep)
		return;
	rdc_out_text(o, "%7.1f s", (double)(k + 1) * (double)r->params.interval_ns / 1e9);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		char name[LINK_NAME_LEN];

		rdc_out_text(o, "  %s %.3f", link_name(&r->links[i], name),
			     rdc_bench_gbps(bytes[i], r->params.interval_ns));
		total += bytes[i];
	}
	/* The server's requests (bidir) are counted on its side: they come with RESULT. */
	rdc_out_text(o, "  total %.3f Gb/s%s\n", rdc_bench_gbps(total, r->params.interval_ns),
		     r->params.bidir ? " (the client's requests)" : "");
	fflush(stdout);
}

/*
 * The link's counters as {"group", "name", "value", "meaning"}: the kernel's
 * names are values, not keys; "meaning" says what a counter means for this
 * run where it means something ("retransmissions"), else null.
 */
static void out_counters(struct rdc_out *o, const struct rdc_counter_set *set)
{
	bool any = false;

	rdc_out_arr_open(o, "counters");
	for (size_t i = 0; i < set->count; i++) {
		const struct rdc_counter *c = &set->items[i];
		const char *meaning = rdc_bench_counter_meaning(c->group, c->name);
		const char *prefix = strcmp(c->group, "pause") ? "" : "pause_";

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "group", NULL, c->group);
		rdc_out_str(o, RDC_OUT_MACHINE, "name", NULL, c->name);
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL, c->value);
		rdc_out_str(o, RDC_OUT_MACHINE, "meaning", NULL, meaning);
		rdc_out_obj_close(o);
		/* Text shows what moved, what it means first: "retransmissions (rcvd_seq_err): 12". */
		if (!c->value)
			continue;
		rdc_out_text(o, "%s", any ? ", " : "    counters: ");
		if (meaning)
			rdc_out_text(o, "%s (%s%s): %" PRIu64, meaning, prefix, c->name, c->value);
		else
			rdc_out_text(o, "%s%s: %" PRIu64, prefix, c->name, c->value);
		any = true;
	}
	rdc_out_arr_close(o);
	if (any)
		rdc_out_nl(o);
}

/*
 * The log2 histogram (rdc_lat_bucket()), JSON and YAML only: the buckets from
 * the first to the last that holds a sample, empty ones between included, as
 * {from_us, to_us, count}; to_us null for the last, open bucket.
 */
static void out_lat_histogram(struct rdc_out *o, const struct rdc_lat_stats *st)
{
	unsigned int first = RDC_LAT_BUCKETS, last = 0;

	for (unsigned int k = 0; k < RDC_LAT_BUCKETS; k++)
		if (st->hist[k]) {
			if (first == RDC_LAT_BUCKETS)
				first = k;
			last = k;
		}
	rdc_out_arr_open(o, "histogram");
	for (unsigned int k = first; k <= last && first < RDC_LAT_BUCKETS; k++) {
		uint64_t from, to;

		rdc_lat_bucket_range(k, &from, &to);
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_MACHINE, "from_us", NULL, from);
		if (to)
			rdc_out_u64(o, RDC_OUT_MACHINE, "to_us", NULL, to);
		else
			rdc_out_null(o, "to_us", NULL);
		rdc_out_u64(o, RDC_OUT_MACHINE, "count", NULL, st->hist[k]);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
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
	out_lat_histogram(o, st);
	rdc_out_obj_close(o);
}

/*
 * The longest time without a completion, as a length and where it lay on
 * the report's clock.  A failed link's silence to its end is not a stall:
 * it is said as the time its completions stopped.
 */
static void out_stalls(struct rdc_out *o, const struct rdc_bench_report *r,
		       const struct rdc_bench_result *res)
{
	/* Seconds in JSON and YAML (durations are _s), milliseconds in the text. */
	rdc_out_f64(o, RDC_OUT_MACHINE, "longest_stall_s", NULL,
		    (double)res->longest_stall_ns / 1e9);
	rdc_out_f64(o, RDC_OUT_TEXT, "longest_stall_s", "  longest stall %.1f ms",
		    (double)res->longest_stall_ns / 1e6);
	if (res->longest_stall_ns) {
		rdc_out_f64(o, RDC_OUT_ANY, "longest_stall_start_s", " (%.2f s",
			    rdc_bench_report_clock_s(r, res->longest_stall_start_ns));
		rdc_out_f64(o, RDC_OUT_ANY, "longest_stall_end_s", " to %.2f s)",
			    rdc_bench_report_clock_s(r, res->longest_stall_start_ns +
								res->longest_stall_ns));
	} else {
		rdc_out_null(o, "longest_stall_start_s", NULL);
		rdc_out_null(o, "longest_stall_end_s", NULL);
	}
	rdc_out_bool(o, RDC_OUT_MACHINE, "silent_to_end", NULL, res->silent_to_end);
	if (res->silent_to_end)
		rdc_out_f64(o, RDC_OUT_ANY, "silent_from_s", "\n    no completion after %.2f s",
			    rdc_bench_report_clock_s(r, res->silent_from_ns));
	else
		rdc_out_null(o, "silent_from_s", NULL);
}

/*
 * How a QP died: the completion's status and how long its retries held from
 * the last completion before the silence (a blackholed link's fault is
 * there); with the run's settings the RC window is T_ack * (retry_cnt + 1).
 */
static void out_qp_death(struct rdc_out *o, const struct rdc_bench_report *r,
			 const struct rdc_bench_result *res)
{
	if (!res->failed_ns) {
		rdc_out_null(o, "wc_status", NULL);
		rdc_out_null(o, "failed_at_s", NULL);
		rdc_out_null(o, "retries_held_s", NULL);
		return;
	}
	rdc_out_str(o, RDC_OUT_MACHINE, "wc_status", NULL, rdc_bench_wc_status_str(res->wc_status));
	rdc_out_f64(o, RDC_OUT_MACHINE, "failed_at_s", NULL,
		    rdc_bench_report_clock_s(r, res->failed_ns));
	if (res->silent_to_end && res->failed_ns >= res->silent_from_ns)
		rdc_out_f64(o, RDC_OUT_ANY, "retries_held_s",
			    "\n    the QP died %.3f s after its last completion",
			    (double)(res->failed_ns - res->silent_from_ns) / 1e9);
	else
		rdc_out_null(o, "retries_held_s", NULL);
}

/* The port's last outage: lost, back and how long, or lost and never back. */
static void out_carrier(struct rdc_out *o, const struct rdc_bench_report *r,
			const struct rdc_bench_link_report *lr)
{
	rdc_out_bool(o, RDC_OUT_MACHINE, "carrier_lost", NULL, lr->carrier_lost);
	rdc_out_u64(o, RDC_OUT_MACHINE, "carrier_losses", NULL, lr->carrier_losses);
	if (!lr->carrier_lost) {
		rdc_out_null(o, "carrier_lost_at_s", NULL);
		rdc_out_null(o, "carrier_back_at_s", NULL);
		rdc_out_null(o, "outage_s", NULL);
		return;
	}
	rdc_out_f64(o, RDC_OUT_ANY, "carrier_lost_at_s", "\n    carrier lost at %.2f s",
		    rdc_bench_report_clock_s(r, lr->carrier_lost_ns));
	if (lr->carrier_back) {
		rdc_out_f64(o, RDC_OUT_ANY, "carrier_back_at_s", ", back at %.2f s",
			    rdc_bench_report_clock_s(r, lr->carrier_back_ns));
		rdc_out_f64(o, RDC_OUT_ANY, "outage_s", ": %.2f s",
			    (double)(lr->carrier_back_ns - lr->carrier_lost_ns) / 1e9);
	} else {
		rdc_out_null(o, "carrier_back_at_s", NULL);
		rdc_out_null(o, "outage_s", NULL);
		rdc_out_text(o, ", not back by the end of the run");
	}
	if (lr->carrier_losses > 1)
		rdc_out_text(o, " (the last of %u losses)", lr->carrier_losses);
}

/*
 * bidir: the two directions of a link or of the run.  [0] is the client's
 * requests (its count, over the client's window), [1] the server's (its
 * count from RESULT, over the server's window: NAN when it sent none).
 * Named by where the data goes: a read's data flows to its requester.
 */
struct bench_dirs {
	uint64_t bytes[2], msgs[2];
	double gbps[2], mmsgs[2];
};

static void dirs_add(struct bench_dirs *d, const struct rdc_bench_report *r,
		     const struct rdc_bench_link_report *lr, uint64_t window)
{
	double sw = r->server_window_ns ? (double)r->server_window_ns : NAN;

	d->bytes[0] += lr->res.bytes;
	d->msgs[0] += lr->res.msgs;
	d->gbps[0] += rdc_bench_gbps(lr->res.bytes, window);
	d->mmsgs[0] += rdc_bench_mmsgps(lr->res.msgs, window);
	d->bytes[1] += lr->peer.bytes;
	d->msgs[1] += lr->peer.msgs;
	d->gbps[1] += (double)lr->peer.bytes * 8.0 / sw;
	d->mmsgs[1] += (double)lr->peer.msgs * 1e3 / sw;
}

static const char *dir_key(const struct rdc_bench_params *p, int side)
{
	bool to_server = (p->test == RDC_BENCH_READ) == (side == 1);

	return to_server ? "client_to_server" : "server_to_client";
}

/*
 * {"client_to_server": {...}, "server_to_client": {...}} for bidir, each
 * with its requester, bytes, msgs, gbps and mmsgs_per_s; null otherwise.
 * The text names each direction's rate after the sum.
 */
static void out_dirs(struct rdc_out *o, const struct rdc_bench_params *p,
		     const struct bench_dirs *d)
{
	if (!d) {
		rdc_out_null(o, "directions", NULL);
		return;
	}
	rdc_out_obj_open(o, "directions");
	/* Client to server first, whichever side requests it. */
	for (int k = 0; k < 2; k++) {
		int side = (p->test == RDC_BENCH_READ) ? 1 - k : k;

		rdc_out_obj_open(o, dir_key(p, side));
		rdc_out_str(o, RDC_OUT_MACHINE, "requester", NULL, side ? "server" : "client");
		rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, d->bytes[side]);
		rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, d->msgs[side]);
		rdc_out_f64(o, isfinite(d->gbps[side]) ? RDC_OUT_ANY : RDC_OUT_MACHINE, "gbps",
			    k ? ", <- %.3f)" : " (-> %.3f", d->gbps[side]);
		rdc_out_f64(o, RDC_OUT_MACHINE, "mmsgs_per_s", NULL, d->mmsgs[side]);
		if (!isfinite(d->gbps[side]))
			rdc_out_text(o, "%s", k ? ", <- ?)" : " (-> ?");
		rdc_out_obj_close(o);
	}
	rdc_out_obj_close(o);
}

/* A rate in Gb/s; unknown (null) when a bidir run has no count of the server's. */
static void out_gbps(struct rdc_out *o, double gbps)
{
	rdc_out_f64(o, isfinite(gbps) ? RDC_OUT_ANY : RDC_OUT_MACHINE, "gbps", "  %.3f Gb/s", gbps);
	if (!isfinite(gbps))
		rdc_out_text(o, "  ? Gb/s (no count from the server)");
}

static void out_link_result(struct rdc_out *o, const struct rdc_bench_report *r, uint32_t i)
{
	static const char *const bw_keys[] = {
		"gbps",		  "mmsgs_per_s",      "min_interval_gbps", "max_interval_gbps",
		"port_share_pct", "port_rate_gbps",   "intervals_gbps",	   "completions",
		"post_calls",	  "flushed_requests", "directions",
	};
	const struct rdc_bench_link_report *lr = &r->links[i];
	const struct rdc_bench_result *res = &lr->res;
	uint64_t window = res->window_end_ns > res->window_start_ns
				  ? res->window_end_ns - res->window_start_ns
				  : 0;
	char name[LINK_NAME_LEN];
	struct bench_dirs d = {0};
	double gbps, mmsgs, lo, hi, capacity = 1;

	/* The common window of a timed bandwidth run; a link's own otherwise. */
	if (r->params.duration_ns && !rdc_bench_test_is_lat(r->params.test))
		window = r->window_end_ns - r->window_start_ns;
	gbps = rdc_bench_gbps(res->bytes, window);
	mmsgs = rdc_bench_mmsgps(res->msgs, window);
	/* bidir: bytes, msgs and the rates are both directions' sum, as perftest -b's. */
	if (r->params.bidir) {
		dirs_add(&d, r, lr, window);
		gbps = d.gbps[0] + d.gbps[1];
		mmsgs = d.mmsgs[0] + d.mmsgs[1];
		capacity = 2; /* the port's rate each way */
	}
	rdc_out_obj_open(o, NULL);
	out_link_head(o, RDC_OUT_MACHINE, i, lr, NULL);
	rdc_out_text(o, "%s", link_name(lr, name));
	rdc_out_str_color(o, RDC_OUT_ANY, "status", "  %s", res->status ? "failed" : "ok",
			  res->status ? RDC_COLOR_RED : RDC_COLOR_GREEN);
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL,
		    r->params.bidir ? d.bytes[0] + d.bytes[1] : res->bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL,
		    r->params.bidir ? d.msgs[0] + d.msgs[1] : res->msgs);
	rdc_out_f64(o, RDC_OUT_MACHINE, "window_s", NULL, (double)window / 1e9);
	/* Every key in both kinds of test: latency_us null for bandwidth, the rates for lat. */
	if (rdc_bench_test_is_lat(r->params.test)) {
		out_lat(o, &lr->lat);
		for (size_t k = 0; k < RDC_ARRAY_SIZE(bw_keys); k++)
			rdc_out_null(o, bw_keys[k], NULL);
	} else {
		rdc_out_null(o, "latency_us", NULL);
		out_gbps(o, gbps);
		out_dirs(o, &r->params, r->params.bidir ? &d : NULL);
		rdc_out_f64(o, RDC_OUT_ANY, "mmsgs_per_s", "  %.4g Mmsg/s", mmsgs);
		/* Whole intervals only (the client's requests); a run shorter than one has none (null). */
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
			rdc_out_f64(o, RDC_OUT_ANY, "port_share_pct", "  %.1f%%",
				    100.0 * gbps * 1000.0 / (capacity * lr->local.rate_mbps));
			rdc_out_f64(o, RDC_OUT_ANY, "port_rate_gbps", " of %g Gb/s",
				    lr->local.rate_mbps / 1000.0);
		} else {
			rdc_out_null(o, "port_share_pct", NULL);
			rdc_out_null(o, "port_rate_gbps", NULL);
		}
		rdc_out_arr_open(o, "intervals_gbps");
		for (size_t k = 0; k < res->nintervals; k++)
			rdc_out_f64(o, RDC_OUT_MACHINE, NULL, NULL,
				    rdc_bench_gbps(res->interval_bytes[k], r->params.interval_ns));
		rdc_out_arr_close(o);
		/* What cq-mod and post-list change: machine output only. */
		rdc_out_u64(o, RDC_OUT_MACHINE, "completions", NULL, res->completions);
		rdc_out_u64(o, RDC_OUT_MACHINE, "post_calls", NULL, res->post_calls);
		if (res->tail_flushed)
			rdc_out_u64(o, RDC_OUT_MACHINE, "flushed_requests", NULL,
				    res->flushed_requests);
		else
			rdc_out_null(o, "flushed_requests", NULL);
	}
	out_buffer_pages(o, res);
	rdc_out_f64(o, RDC_OUT_ANY, "cpu_s", "  cpu %.2f s", (double)res->cpu_ns / 1e9);
	out_cq_wait(o, res->cq_wait == RDC_BENCH_CQ_WAIT_EVENTS ? RDC_OUT_ANY : RDC_OUT_MACHINE,
		    res);
	out_stalls(o, r, res);
	rdc_out_u64(o, RDC_OUT_MACHINE, "failed_completions", NULL, res->errors);
	rdc_out_str(o, RDC_OUT_ANY, "error", "\n    error: %s", res->status ? res->error : NULL);
	out_qp_death(o, r, res);
	out_carrier(o, r, lr);
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
		char name[LINK_NAME_LEN];

		if (lr->res.status) {
			log_err("bench: link %s failed: %s", link_name(lr, name), lr->res.error);
			rc = RDC_EXIT_FAIL;
		} else if (ca->min_link_gbps && isnan(link_gbps[i])) {
			/* bidir without the server's count (no RESULT): not a pass. */
			log_err("bench: link %s: its rate is unknown (no count from the server), "
				"so min-link-gbps %g is not shown to be met",
				link_name(lr, name), ca->min_link_gbps);
			rc = RDC_EXIT_FAIL;
		} else if (ca->min_link_gbps && link_gbps[i] < ca->min_link_gbps) {
			log_err("bench: link %s ran %.3f Gb/s, below min-link-gbps %g",
				link_name(lr, name), link_gbps[i], ca->min_link_gbps);
			rc = RDC_EXIT_FAIL;
		}
	}
	if (ca->expect_gbps && isnan(total_gbps)) {
		log_err("bench: the total rate is unknown (no count from the server), so "
			"expect-gbps %g is not shown to be met",
			ca->expect_gbps);
		rc = RDC_EXIT_FAIL;
	} else if (ca->expect_gbps && total_gbps < ca->expect_gbps) {
		log_err("bench: total %.3f Gb/s is below expect-gbps %g", total_gbps,
			ca->expect_gbps);
		rc = RDC_EXIT_FAIL;
	}
	return rc;
}

/* ---- size all: a row per size ---- */

int bench_sweep_add(struct bench_sweep *sw, const struct rdc_bench_report *r)
{
	struct bench_size_row *row;
	const struct rdc_bench_params *p = &r->params;
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};
	size_t nlat = 0;

	if (sw->nrows >= RDC_ARRAY_SIZE(sw->rows))
		return -ENOSPC;
	row = &sw->rows[sw->nrows++];
	memset(row, 0, sizeof(*row));
	row->params = *p;
	row->status = r->status;
	memcpy(row->error, r->error, sizeof(row->error));
	row->window_ns =
		r->window_end_ns > r->window_start_ns ? r->window_end_ns - r->window_start_ns : 0;
	/* The totals as a single run's document computes them (bench_client_doc()). */
	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_result *res = &r->links[i].res;
		uint64_t w = res->window_end_ns > res->window_start_ns
				     ? res->window_end_ns - res->window_start_ns
				     : 0;

		row->bytes += res->bytes;
		row->msgs += res->msgs;
		link_gbps[i] = rdc_bench_gbps(res->bytes, p->duration_ns ? row->window_ns : w);
		if (p->bidir) {
			struct bench_dirs one = {0};

			dirs_add(&one, r, &r->links[i], p->duration_ns ? row->window_ns : w);
			link_gbps[i] = one.gbps[0] + one.gbps[1];
		}
		nlat += res->lat_ns ? res->nlat : 0;
		if (res->status && !row->status) {
			row->status = res->status;
			rdc_strlcpy(row->error, res->error, sizeof(row->error));
		}
	}
	row->gbps = rdc_bench_gbps(row->bytes, row->window_ns);
	row->mmsgs_per_s = rdc_bench_mmsgps(row->msgs, row->window_ns);
	/* bidir: both directions' sum, as the run's "total" (unknown without the server's count). */
	if (p->bidir) {
		struct bench_dirs d = {0};

		for (uint32_t i = 0; i < r->nlinks; i++)
			dirs_add(&d, r, &r->links[i], 0);
		row->gbps += d.gbps[1];
		row->mmsgs_per_s += d.mmsgs[1];
		row->bytes += d.bytes[1];
		row->msgs += d.msgs[1];
	}
	row->imbalance = rdc_bench_imbalance(link_gbps, r->nlinks);
	row->host_cpu_pct = r->host_cpu_percent;
	if (rdc_bench_test_is_lat(p->test) && nlat) {
		/* Every link's samples together (the statistics sort them: a copy). */
		uint64_t *all = malloc(nlat * sizeof(*all));
		size_t k = 0;

		if (!all) {
			sw->nrows--; /* no half-made row */
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < r->nlinks; i++) {
			const struct rdc_bench_result *res = &r->links[i].res;

			if (res->lat_ns && res->nlat) {
				memcpy(all + k, res->lat_ns, res->nlat * sizeof(*all));
				k += res->nlat;
			}
		}
		rdc_lat_stats_compute(all, k, &row->lat);
		free(all);
	}
	return 0;
}

/* The table's head, text only: the columns of out_size_row(). */
static void out_size_head(struct rdc_out *o, enum rdc_bench_test test, bool timed)
{
	rdc_out_text(o, "%10s  %10s", "bytes", timed ? "seconds" : "iterations");
	if (rdc_bench_test_is_lat(test))
		rdc_out_text(o, "  %9s  %9s  %9s  %9s  %9s  %9s (us)\n", "min", "p50", "mean",
			     "p99", "p99.9", "max");
	else
		rdc_out_text(o, "  %10s  %10s\n", "Gb/s", "Mmsg/s");
}

/*
 * One size: a text row of the table (@sink RDC_OUT_TEXT or ANY) and an
 * object of "sizes" (MACHINE or ANY); the keys of a single run's "total",
 * its size, count and status, latency_us as a link's (null for bandwidth).
 */
static void out_size_row(struct rdc_out *o, enum rdc_out_sink sink,
			 const struct bench_size_row *row)
{
	const struct rdc_bench_params *p = &row->params;
	const struct rdc_lat_stats *st = &row->lat;

	rdc_out_obj_open(o, NULL);
	rdc_out_u64(o, sink, "msg_size_bytes", "%10" PRIu64, p->size);
	if (p->duration_ns) {
		rdc_out_f64(o, sink, "duration_s", "  %10.3g", (double)p->duration_ns / 1e9);
		rdc_out_null(o, "iters", NULL);
	} else {
		rdc_out_null(o, "duration_s", NULL);
		rdc_out_u64(o, sink, "iters", "  %10" PRIu64, p->iters);
	}
	rdc_out_str(o, RDC_OUT_MACHINE, "status", NULL, row->status ? "failed" : "ok");
	if (rdc_bench_test_is_lat(p->test)) {
		rdc_out_null(o, "gbps", NULL);
		rdc_out_null(o, "mmsgs_per_s", NULL);
		rdc_out_null(o, "imbalance", NULL);
		rdc_out_obj_open(o, "latency_us");
		rdc_out_u64(o, RDC_OUT_MACHINE, "count", NULL, st->count);
		rdc_out_f64(o, sink, "min", "  %9.2f", st->min_us);
		rdc_out_f64(o, sink, "p50", "  %9.2f", st->p50_us);
		rdc_out_f64(o, sink, "mean", "  %9.2f", st->mean_us);
		rdc_out_f64(o, sink, "p99", "  %9.2f", st->p99_us);
		rdc_out_f64(o, sink, "p99_9", "  %9.2f", st->p999_us);
		rdc_out_f64(o, sink, "max", "  %9.2f", st->max_us);
		rdc_out_f64(o, RDC_OUT_MACHINE, "stdev", NULL, st->stdev_us);
		out_lat_histogram(o, st);
		rdc_out_obj_close(o);
	} else {
		rdc_out_f64(o, sink, "gbps", "  %10.3f", row->gbps);
		rdc_out_f64(o, sink, "mmsgs_per_s", "  %10.4g", row->mmsgs_per_s);
		rdc_out_f64(o, RDC_OUT_MACHINE, "imbalance", NULL, row->imbalance);
		rdc_out_null(o, "latency_us", NULL);
	}
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, row->bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, row->msgs);
	rdc_out_f64(o, RDC_OUT_MACHINE, "window_s", NULL, (double)row->window_ns / 1e9);
	rdc_out_f64(o, RDC_OUT_MACHINE, "host_cpu_pct", NULL, row->host_cpu_pct);
	rdc_out_str(o, sink, "error", "  failed: %s", row->status ? row->error : NULL);
	if (sink != RDC_OUT_MACHINE)
		rdc_out_text(o, "\n");
	rdc_out_obj_close(o);
}

static void client_size_done_cb(void *arg, const struct rdc_bench_report *r)
{
	struct client_out *co = arg;
	struct rdc_out *o = co->ctx->out;
	int rc = bench_sweep_add(co->sweep, r);

	if (rc) {
		co->sweep_rc = rc;
		return;
	}
	if (!co->progress)
		return;
	if (co->sweep->nrows == 1)
		out_size_head(o, r->params.test, r->params.duration_ns != 0);
	out_size_row(o, RDC_OUT_TEXT, &co->sweep->rows[co->sweep->nrows - 1]);
	fflush(stdout);
}

double bench_client_doc(struct rdc_out *o, const struct rdc_bench_report *r, bool said_clock,
			double link_gbps[RDC_BENCH_MAX_LINKS])
{
	return bench_client_doc_sweep(o, r, said_clock, link_gbps, NULL, false);
}

double bench_client_doc_sweep(struct rdc_out *o, const struct rdc_bench_report *r, bool said_clock,
			      double link_gbps[RDC_BENCH_MAX_LINKS],
			      const struct bench_sweep *sweep, bool said_rows)
{
	const struct rdc_bench_params *p = &r->params;
	uint64_t window =
		r->window_end_ns > r->window_start_ns ? r->window_end_ns - r->window_start_ns : 0;
	uint64_t bytes = 0, msgs = 0;
	struct bench_dirs d = {0};
	double total, mmsgs;

	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_result *res = &r->links[i].res;
		uint64_t w = res->window_end_ns > res->window_start_ns
				     ? res->window_end_ns - res->window_start_ns
				     : 0;

		bytes += res->bytes;
		msgs += res->msgs;
		link_gbps[i] = rdc_bench_gbps(res->bytes, p->duration_ns ? window : w);
		if (p->bidir) {
			struct bench_dirs one = {0};

			dirs_add(&one, r, &r->links[i], p->duration_ns ? window : w);
			link_gbps[i] = one.gbps[0] + one.gbps[1];
		}
	}
	total = rdc_bench_gbps(bytes, window);
	mmsgs = rdc_bench_mmsgps(msgs, window);
	/* bidir: the sum of both directions (the client's over the run's window). */
	if (p->bidir) {
		for (uint32_t i = 0; i < r->nlinks; i++)
			dirs_add(&d, r, &r->links[i], 0);
		d.gbps[0] = total;
		d.mmsgs[0] = mmsgs;
		total += d.gbps[1];
		mmsgs += d.mmsgs[1];
		bytes += d.bytes[1];
		msgs += d.msgs[1];
	}
	rdc_out_begin(o, "bench-client");
	out_params(o, RDC_OUT_MACHINE, p);
	out_clock(o, !said_clock, p);
	rdc_out_str(o, RDC_OUT_MACHINE, "server", NULL, r->peer);
	rdc_out_str(o, RDC_OUT_MACHINE, "server_host", NULL, r->peer_host);
	/* A sweep: every size's row, then its last size's run in full. */
	if (sweep) {
		enum rdc_out_sink sink = said_rows ? RDC_OUT_MACHINE : RDC_OUT_ANY;

		if (!said_rows && sweep->nrows)
			out_size_head(o, p->test, p->duration_ns != 0);
		rdc_out_arr_open(o, "sizes");
		for (size_t k = 0; k < sweep->nrows; k++)
			out_size_row(o, sink, &sweep->rows[k]);
		rdc_out_arr_close(o);
		rdc_out_text(o, "the last size, %u B, in full:\n", p->size);
	} else {
		rdc_out_null(o, "sizes", NULL);
	}
	rdc_out_arr_open(o, "links");
	for (uint32_t i = 0; i < r->nlinks; i++)
		out_link_result(o, r, i);
	rdc_out_arr_close(o);
	rdc_out_obj_open(o, "total");
	rdc_out_text(o, "total");
	if (!rdc_bench_test_is_lat(p->test)) {
		out_gbps(o, total);
		out_dirs(o, p, p->bidir ? &d : NULL);
		rdc_out_f64(o, RDC_OUT_ANY, "mmsgs_per_s", "  %.4g Mmsg/s", mmsgs);
		rdc_out_f64(o, RDC_OUT_ANY, "imbalance", "  imbalance %.3f",
			    rdc_bench_imbalance(link_gbps, r->nlinks));
	} else {
		/* Bandwidth only: null for test lat. */
		rdc_out_null(o, "gbps", NULL);
		rdc_out_null(o, "directions", NULL);
		rdc_out_null(o, "mmsgs_per_s", NULL);
		rdc_out_null(o, "imbalance", NULL);
	}
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, bytes);
	rdc_out_u64(o, RDC_OUT_MACHINE, "msgs", NULL, msgs);
	rdc_out_f64(o, RDC_OUT_ANY, "window_s", " over %.3f s", (double)window / 1e9);
	rdc_out_f64(o, RDC_OUT_ANY, "host_cpu_pct", "  host cpu %.1f%%", r->host_cpu_percent);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
	rdc_out_str(o, RDC_OUT_MACHINE, "error", NULL, r->status ? r->error : NULL);
	rdc_out_end(o);
	return total;
}

/* @said_clock: the progress lines already said the report's clock. */
static int client_report(struct rdc_ctx *ctx, const struct client_args *ca,
			 const struct rdc_bench_report *r, bool said_clock)
{
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};
	double total = bench_client_doc(ctx->out, r, said_clock, link_gbps);

	return client_verdict(ca, r, total, link_gbps);
}

/* A sweep's document: the rows, the last size's run; a link's failure is already the run's error. */
static int client_report_sweep(struct rdc_ctx *ctx, const struct client_out *co,
			       const struct rdc_bench_report *r)
{
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};

	bench_client_doc_sweep(ctx->out, r, co->progress, link_gbps, co->sweep, co->progress);
	return RDC_EXIT_OK;
}

static int bench_client_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			    const struct rdc_args *args, void *opts)
{
	struct client_args *ca = opts;
	struct client_out co = {.ctx = ctx};
	struct rdc_bench_client_cb cb = {.linked = client_linked_cb,
					 .interval = client_interval_cb,
					 .size_done = client_size_done_cb,
					 .arg = &co};
	struct rdc_bench_report *r;
	struct rdc_err err = {0};
	int rc, verdict = RDC_EXIT_OK;

	rc = client_check(ctx, act, args, ca);
	if (rc)
		return rc;
	if (bench_needs_live(ctx, false))
		return RDC_EXIT_FAIL;
	co.progress = rdc_out_is_text(ctx->out) && !ctx->quiet;
	ca->o.interrupted = bench_signals();
	r = calloc(1, sizeof(*r));
	if (ca->o.size_all)
		co.sweep = calloc(1, sizeof(*co.sweep));
	if (!r || (ca->o.size_all && !co.sweep)) {
		free(r);
		free(co.sweep);
		return rdc_oom(ctx);
	}
	rc = rdc_bench_client_run(&ca->o, &cb, r, &err);
	/* A run cut short still reports what its links measured up to then; a sweep its rows. */
	if (co.sweep && co.sweep->nrows)
		verdict = client_report_sweep(ctx, &co, r);
	else if (r->started && !co.sweep)
		verdict = client_report(ctx, ca, r, co.progress);
	if (co.sweep_rc && !rc)
		rc = rdc_err_set(&err, -co.sweep_rc, "size all: a row could not be kept");
	/* The run's own error stays in err: the metrics' is said on its own. */
	if (r->started && ca->metrics) {
		struct rdc_err merr = {0};
		char *buf = NULL;
		size_t len = 0;

		if (!rdc_file_is_stdout(ca->metrics)) {
			if (bench_metrics_write(r, ca->metrics, &merr))
				verdict = rdc_fail(ctx, &merr);
		} else if (bench_metrics_render(r, &buf, &len, &merr)) {
			verdict = rdc_fail(ctx, &merr);
		} else if (rdc_out_raw(ctx->out, buf, len)) {
			/* After the report, as the text it is; a lost write is said at the end. */
			verdict = RDC_EXIT_FAIL;
		}
		free(buf);
	}
	rc = rc ? rdc_fail(ctx, &err) : verdict;
	rdc_bench_report_free(r);
	free(r);
	free(co.sweep);
	return rc;
}

/* ---- server ---- */

/*
 * The server's output is its log: every line that starts a run's text, and
 * every document, carries the wall-clock time as RFC 3339 UTC with
 * milliseconds, "2025-03-01T14:02:03.417Z" (JSON's "time").
 */
#define SERVER_TIME_LEN 32

static void server_time(char buf[SERVER_TIME_LEN])
{
	struct timespec ts;
	struct tm tm;
	char sec[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	if (!strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm))
		sec[0] = '\0';
	snprintf(buf, SERVER_TIME_LEN, "%s.%03dZ", sec, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* What the server's callbacks need: where to write, and the options to restate. */
struct server_out {
	struct rdc_ctx *ctx;
	const struct rdc_bench_server_opts *o;
};

static void server_listening_cb(void *arg, const char *addr, uint16_t port)
{
	struct server_out *so = arg;
	struct rdc_ctx *ctx = so->ctx;
	char now[SERVER_TIME_LEN], allow[INET_ADDRSTRLEN + 4] = "any";

	if (so->o->has_allow) {
		char net[INET_ADDRSTRLEN];

		rdc_ipv4_format(so->o->allow_net, net);
		snprintf(allow, sizeof(allow), "%s/%u", net, so->o->allow_prefix);
	}
	if (!ctx->quiet)
		log_info("bench: serving on %s:%u, allow %s", addr, port, allow);
	if (rdc_out_is_text(ctx->out) && !ctx->quiet) {
		server_time(now);
		rdc_out_text(ctx->out, "%s listening on %s:%u, allow %s\n", now, addr, port, allow);
		fflush(stdout);
	}
}

static void server_begin_cb(void *arg, unsigned int run, const struct rdc_bench_report *r)
{
	struct rdc_ctx *ctx = ((struct server_out *)arg)->ctx;
	struct rdc_out *o = ctx->out;
	char now[SERVER_TIME_LEN];

	/* Text only: JSON and YAML give the whole run in one document at its end. */
	if (ctx->quiet || !rdc_out_is_text(o))
		return;
	server_time(now);
	rdc_out_text(o, "%s run %u from %s: ", now, run, r->peer);
	out_params(o, RDC_OUT_TEXT, &r->params);
	rdc_out_nl(o);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		out_link_head(o, RDC_OUT_TEXT, i, &r->links[i], " <- client ");
		rdc_out_nl(o);
	}
	fflush(stdout);
}

/* One document per run (or per client turned away), so a stream reader sees each. */
static void server_end_cb(void *arg, unsigned int run, const struct rdc_bench_report *r)
{
	struct rdc_ctx *ctx = ((struct server_out *)arg)->ctx;
	struct rdc_out *o = ctx->out;
	uint64_t window = r->window_end_ns - r->window_start_ns, bytes = 0, sent = 0;
	bool bidir = r->nlinks && r->params.bidir;
	char now[SERVER_TIME_LEN];

	for (uint32_t i = 0; i < r->nlinks; i++) {
		bytes += r->links[i].peer.bytes;
		sent += r->links[i].res.bytes;
	}
	server_time(now);
	rdc_out_begin(o, "bench-server");
	rdc_out_str(o, RDC_OUT_ANY, "time", "%s ", now);
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
	/*
	 * Every key always: a client turned away, or a run that set up no links,
	 * has null parameters and no links.
	 */
	if (r->nlinks)
		out_params(o, RDC_OUT_MACHINE, &r->params);
	else
		out_params_null(o);
	rdc_out_arr_open(o, "links");
	for (uint32_t i = 0; i < r->nlinks; i++) {
		const struct rdc_bench_link_report *lr = &r->links[i];

		rdc_out_obj_open(o, NULL);
		out_link_head(o, RDC_OUT_MACHINE, i, lr, NULL);
		rdc_out_u64(o, RDC_OUT_MACHINE, "client_bytes", NULL, lr->peer.bytes);
		/* bidir: this side's requests are its result; what its receives took is apart. */
		rdc_out_u64(o, RDC_OUT_MACHINE, "received_bytes", NULL,
			    bidir ? lr->res.recv_bytes : lr->res.bytes);
		if (bidir)
			rdc_out_u64(o, RDC_OUT_MACHINE, "sent_bytes", NULL, lr->res.bytes);
		else
			rdc_out_null(o, "sent_bytes", NULL);
		out_buffer_pages(o, &lr->res);
		out_cq_wait(o, RDC_OUT_MACHINE, &lr->res);
		rdc_out_u64(o, RDC_OUT_MACHINE, "failed_completions", NULL, lr->res.errors);
		rdc_out_str(o, RDC_OUT_MACHINE, "error", NULL,
			    lr->res.status ? lr->res.error : NULL);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	if (!r->status && window && !rdc_bench_test_is_lat(r->params.test))
		rdc_out_f64(o, RDC_OUT_ANY, "client_gbps", ", client measured %.3f Gb/s",
			    rdc_bench_gbps(bytes, window));
	else
		rdc_out_null(o, "client_gbps", NULL);
	/* bidir: what this side's own requests moved, over its own window. */
	if (!r->status && bidir && r->server_window_ns)
		rdc_out_f64(o, RDC_OUT_ANY, "sent_gbps", ", this server sent %.3f Gb/s",
			    rdc_bench_gbps(sent, r->server_window_ns));
	else
		rdc_out_null(o, "sent_gbps", NULL);
	rdc_out_nl(o);
	for (uint32_t i = 0; i < r->nlinks; i++) {
		char name[LINK_NAME_LEN];

		if (r->links[i].res.status)
			rdc_out_text(o, "  %s: %s\n", link_name(&r->links[i], name),
				     r->links[i].res.error);
	}
	rdc_out_end(o);
}

static int bench_server_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			    const struct rdc_args *args, void *opts)
{
	struct rdc_bench_server_opts *o = opts;
	struct server_out so = {.ctx = ctx, .o = o};
	struct rdc_bench_server_cb cb = {.listening = server_listening_cb,
					 .run_begin = server_begin_cb,
					 .run_end = server_end_cb,
					 .arg = &so};
	struct rdc_err err = {0};
	int rc, last = 0;

	if (bench_needs_live(ctx, true))
		return RDC_EXIT_FAIL;
	o->interrupted = bench_signals();
	rc = rdc_bench_server_serve(o, &cb, &last, &err);
	if (rc)
		return rdc_fail(ctx, &err);
	/* With once, the exit status is the run's (its failure is already reported). */
	return o->once && last ? RDC_EXIT_FAIL : RDC_EXIT_OK;
}
