// SPDX-License-Identifier: GPL-2.0-or-later
/* port_stats.c - `rdmactl port stats`: counters, and rates per second with interval */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/util.h"
#include "host/netdev.h"
#include "host/netdev_stats.h"
#include "host/port_counters.h"
#include "port.h"

/* One thing we sample: an RDMA port (and its netdev), or a netdev alone. */
struct stats_target {
	char device[RDC_IBDEV_NAME]; /* "" for a netdev without RDMA port */
	unsigned int port;
	char netdev[IF_NAMESIZE]; /* "" when the port has none */
	struct rdc_counter_set now, prev;
	struct rdc_counter_unread unread; /* counters that exist but could not be read */
	char netdev_error[320];		  /* why ethtool statistics are missing, or "" */
};

static int stats_sample(struct stats_target *t, struct rdc_err *err)
{
	struct rdc_err nerr = {0};
	int rc;

	rdc_counters_free(&t->prev);
	t->prev = t->now;
	memset(&t->now, 0, sizeof(t->now));
	rdc_counter_unread_free(&t->unread);
	if (t->device[0]) {
		rc = rdc_port_counters_read(t->device, t->port, &t->now, &t->unread, err);
		if (rc)
			return rc;
	}
	if (!t->netdev[0])
		return 0;
	rc = rdc_netdev_stats_read(t->netdev, &t->now, &nerr, err);
	if (rc)
		return rc;
	/* ethtool statistics are optional: a bundle without recording, a driver without them. */
	t->netdev_error[0] = '\0';
	if (nerr.code)
		snprintf(t->netdev_error, sizeof(t->netdev_error), "%s: %s", nerr.msg,
			 strerror(nerr.code));
	return 0;
}

static int stats_targets(struct rdc_ctx *ctx, const char *object, struct stats_target **out,
			 size_t *count, unsigned int *issues)
{
	struct rdc_port_list ports;
	struct rdc_err err = {0};
	struct stats_target *t;

	*out = NULL;
	*count = 0;
	if (rdc_ports_read(&ports, &err))
		return rdc_fail(ctx, &err);
	if (object && rdc_ports_filter(&ports, object, &err)) {
		if (port_report_issues(ctx, &ports.issues)) {
			rdc_ports_free(&ports);
			return RDC_EXIT_FAIL;
		}
		rdc_ports_free(&ports);
		/* A netdev without an RDMA port still has netdev statistics. */
		if (err.code != ENXIO)
			return rdc_fail(ctx, &err);
		t = calloc(1, sizeof(*t));
		if (!t) {
			rdc_err_set(&err, ENOMEM, "cannot sample '%s'", object);
			return rdc_fail(ctx, &err);
		}
		rdc_strlcpy(t->netdev, object, sizeof(t->netdev));
		*out = t;
		*count = 1;
		return 0;
	}
	t = calloc(ports.count + 1, sizeof(*t));
	if (!t) {
		rdc_ports_free(&ports);
		rdc_err_set(&err, ENOMEM, "cannot sample the ports");
		return rdc_fail(ctx, &err);
	}
	for (size_t i = 0; i < ports.count; i++) {
		rdc_strlcpy(t[i].device, ports.ports[i].device, sizeof(t[i].device));
		t[i].port = ports.ports[i].port;
		if (ports.ports[i].has_netdev)
			rdc_strlcpy(t[i].netdev, ports.ports[i].netdev.name, sizeof(t[i].netdev));
	}
	*out = t;
	*count = ports.count;
	/* A device whose ports cannot be listed has no counters to show: say so, carry on. */
	*issues += port_report_issues(ctx, &ports.issues);
	rdc_ports_free(&ports);
	return 0;
}

/* "eth-mac" -> "eth_mac": JSON keys are snake_case. */
static void group_key(const char *group, char *key, size_t size)
{
	size_t i;

	for (i = 0; group[i] && i + 1 < size; i++)
		key[i] = group[i] == '-' ? '_' : group[i];
	key[i] = '\0';
}

/*
 * Counters arrive grouped by source; open a JSON object per group:
 * "counters": {"ib": {...}, "eth_mac": {...}}.  Close the last with
 * group_enter(o, &group, NULL).
 */
static void group_enter(struct rdc_out *o, const char **group, const char *next)
{
	char key[16];

	if (*group && next && !strcmp(*group, next))
		return;
	if (*group)
		rdc_out_obj_close(o);
	*group = next;
	if (next) {
		group_key(next, key, sizeof(key));
		rdc_out_obj_open(o, key);
	}
}

static void stats_emit_ident(struct rdc_out *o, const struct stats_target *t)
{
	if (t->device[0]) {
		rdc_out_str(o, RDC_OUT_ANY, "device", "%s", t->device);
		rdc_out_u64(o, RDC_OUT_ANY, "port", "/%" PRIu64 " ", t->port);
	} else {
		rdc_out_null(o, "device", NULL);
		rdc_out_null(o, "port", NULL);
	}
	port_out_opt_str(o, "netdev", "%s", t->netdev);
	port_out_opt_str(o, "netdev_stats_error", NULL, t->netdev_error);
	rdc_out_nl(o);
}

/*
 * The counters of @group that could not be read: null (value, or the rates
 * object), "?" in text.  Called when a group ends, and at the end for groups
 * that had nothing readable at all (@group NULL: those not yet emitted).
 */
static void stats_emit_unread(struct rdc_out *o, struct stats_target *t, const char **open,
			      const char *group, bool rates)
{
	for (size_t k = 0; k < t->unread.names.count; k++) {
		struct rdc_counter *c = &t->unread.names.items[k];

		/* value marks what this document already has (unread_reset() clears it). */
		if (c->value || (group && strcmp(c->group, group)))
			continue;
		c->value = 1;
		if (!group)
			group_enter(o, open, c->group);
		rdc_out_null(o, c->name, NULL);
		rdc_out_text(o, "%s%-8s %-40s %s\n", rates ? "    " : "  ", c->group, c->name,
			     rates ? "               ? /s" : "?");
	}
}

/* Before a document: none of the unreadable counters is in it yet. */
static void unread_reset(struct stats_target *t)
{
	for (size_t k = 0; k < t->unread.names.count; k++)
		t->unread.names.items[k].value = 0;
}

/* Counters grouped by source: "counters": {"ib": {...}, "hw": {...}, ...}. */
static void stats_emit_totals(struct rdc_out *o, struct stats_target *t)
{
	const char *group = NULL;

	unread_reset(t);
	rdc_out_obj_open(o, "counters");
	for (size_t i = 0; i < t->now.count; i++) {
		const struct rdc_counter *c = &t->now.items[i];

		if (group && strcmp(group, c->group))
			stats_emit_unread(o, t, &group, group, false);
		group_enter(o, &group, c->group);
		rdc_out_text(o, "  %-8s", c->group);
		rdc_out_u64(o, RDC_OUT_ANY, c->name, NULL, c->value);
		rdc_out_text(o, " %-40s %" PRIu64 "\n", c->name, c->value);
	}
	if (group)
		stats_emit_unread(o, t, &group, group, false);
	stats_emit_unread(o, t, &group, NULL, false);
	group_enter(o, &group, NULL);
	rdc_out_obj_close(o);
}

static uint64_t counter_delta(const struct rdc_counter_set *prev, const struct rdc_counter *c)
{
	const struct rdc_counter *old = rdc_counters_find(prev, c->group, c->name);

	/* A counter that went backwards was reset (driver reload): count from zero. */
	if (!old || c->value < old->value)
		return old ? c->value : 0;
	return c->value - old->value;
}

/* Headline rates: RDMA bytes from the IB counters where the port has them, else the netdev's. */
static void stats_emit_headline(struct rdc_out *o, const struct stats_target *t, double secs)
{
	static const struct {
		const char *group, *rx_bytes, *tx_bytes, *rx_pkts, *tx_pkts;
	} sources[] = {
		{"ib", "port_rcv_bytes", "port_xmit_bytes", "port_rcv_packets",
		 "port_xmit_packets"},
		{"netdev", "rx_bytes", "tx_bytes", "rx_packets", "tx_packets"},
	};

	for (size_t s = 0; s < RDC_ARRAY_SIZE(sources); s++) {
		const struct rdc_counter *rb, *tb, *rp, *tp;

		rb = rdc_counters_find(&t->now, sources[s].group, sources[s].rx_bytes);
		tb = rdc_counters_find(&t->now, sources[s].group, sources[s].tx_bytes);
		rp = rdc_counters_find(&t->now, sources[s].group, sources[s].rx_pkts);
		tp = rdc_counters_find(&t->now, sources[s].group, sources[s].tx_pkts);
		if (!rb || !tb || !rp || !tp)
			continue;
		rdc_out_obj_open(o, "rates");
		rdc_out_str(o, RDC_OUT_ANY, "source", "  %-6s", sources[s].group);
		rdc_out_f64(o, RDC_OUT_ANY, "rx_gbps", " rx %8.3f Gb/s",
			    (double)counter_delta(&t->prev, rb) * 8 / secs / 1e9);
		rdc_out_f64(o, RDC_OUT_ANY, "rx_pps", " %12.0f pps",
			    (double)counter_delta(&t->prev, rp) / secs);
		rdc_out_f64(o, RDC_OUT_ANY, "tx_gbps", "   tx %8.3f Gb/s",
			    (double)counter_delta(&t->prev, tb) * 8 / secs / 1e9);
		rdc_out_f64(o, RDC_OUT_ANY, "tx_pps", " %12.0f pps\n",
			    (double)counter_delta(&t->prev, tp) / secs);
		rdc_out_obj_close(o);
		return;
	}
	rdc_out_null(o, "rates", NULL);
}

/* Per counter: raw value, delta and rate; text shows only what moved (like mlnx_perf). */
static void stats_emit_rates(struct rdc_out *o, struct stats_target *t, double secs)
{
	const char *group = NULL;

	unread_reset(t);
	stats_emit_headline(o, t, secs);
	rdc_out_obj_open(o, "counters");
	for (size_t i = 0; i < t->now.count; i++) {
		const struct rdc_counter *c = &t->now.items[i];
		uint64_t d = counter_delta(&t->prev, c);
		double rate = (double)d / secs;

		if (group && strcmp(group, c->group))
			stats_emit_unread(o, t, &group, group, true);
		group_enter(o, &group, c->group);
		rdc_out_obj_open(o, c->name);
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL, c->value);
		rdc_out_u64(o, RDC_OUT_MACHINE, "delta", NULL, d);
		rdc_out_f64(o, RDC_OUT_MACHINE, "per_second", NULL, rate);
		rdc_out_obj_close(o);
		if (d == 0)
			continue;
		rdc_out_text(o, "    %-8s %-40s %16.0f /s", c->group, c->name, rate);
		if (strstr(c->name, "bytes") || strstr(c->name, "Octets"))
			rdc_out_text(o, "  (%.3f Gb/s)", rate * 8 / 1e9);
		rdc_out_nl(o);
	}
	if (group)
		stats_emit_unread(o, t, &group, group, true);
	stats_emit_unread(o, t, &group, NULL, true);
	group_enter(o, &group, NULL);
	rdc_out_obj_close(o);
}

/* Print what could not be read in this sample (each file once per run); how many. */
static unsigned int stats_issues(struct rdc_ctx *ctx, const struct stats_target *t, size_t n)
{
	unsigned int bad = 0;

	for (size_t i = 0; i < n; i++)
		bad += port_report_issues(ctx, &t[i].unread.issues);
	return bad;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_seconds(double secs)
{
	struct timespec ts = {.tv_sec = (time_t)secs,
			      .tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9)};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int port_stats_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		   void *opts)
{
	const struct port_stats_opts *so = opts;
	struct stats_target *targets = NULL;
	struct rdc_err err = {0};
	double interval = so->interval_s, t0, t1;
	uint32_t count = so->count;
	unsigned int bad = 0;
	size_t n = 0;
	int rc;

	if (count && !interval)
		return rdc_usage_error(ctx, "stats: 'count' needs 'interval'");
	rc = stats_targets(ctx, args->object, &targets, &n, &bad);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && !rc; i++)
		rc = stats_sample(&targets[i], &err);
	if (rc) {
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (targets[i].netdev_error[0])
			log_info("port: %s: no ethtool statistics (%s)", targets[i].netdev,
				 targets[i].netdev_error);
	if (!interval || !n) {
		rdc_out_begin(ctx->out);
		rdc_out_arr_open(ctx->out, "stats");
		for (size_t i = 0; i < n; i++) {
			rdc_out_obj_open(ctx->out, NULL);
			stats_emit_ident(ctx->out, &targets[i]);
			stats_emit_totals(ctx->out, &targets[i]);
			rdc_out_obj_close(ctx->out);
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
		bad += stats_issues(ctx, targets, n);
		/* No RDMA device at all: nothing to sample (not even once per interval) is no success. */
		if (!bad)
			rc = port_none_found(ctx, n, 0);
		goto out;
	}
	/* One document per interval, so a reader of a stream sees each as it comes. */
	t0 = mono_now();
	for (uint32_t sample = 1; !count || sample <= count; sample++) {
		sleep_seconds(interval);
		t1 = mono_now();
		for (size_t i = 0; i < n && !rc; i++)
			rc = stats_sample(&targets[i], &err);
		if (rc) {
			rc = rdc_fail(ctx, &err);
			goto out;
		}
		rdc_out_begin(ctx->out);
		rdc_out_u64(ctx->out, RDC_OUT_ANY, "sample", "sample %" PRIu64, sample);
		rdc_out_f64(ctx->out, RDC_OUT_ANY, "interval_s", " over %.3f s\n", t1 - t0);
		rdc_out_arr_open(ctx->out, "stats");
		for (size_t i = 0; i < n; i++) {
			rdc_out_obj_open(ctx->out, NULL);
			stats_emit_ident(ctx->out, &targets[i]);
			stats_emit_rates(ctx->out, &targets[i], t1 - t0);
			rdc_out_obj_close(ctx->out);
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
		bad += stats_issues(ctx, targets, n);
		t0 = t1;
	}
out:
	/* ls's convention: everything readable was printed; exit 1 if anything was not. */
	if (!rc && bad)
		rc = RDC_EXIT_FAIL;
	for (size_t i = 0; i < n; i++) {
		rdc_counters_free(&targets[i].now);
		rdc_counters_free(&targets[i].prev);
		rdc_counter_unread_free(&targets[i].unread);
	}
	free(targets);
	return rc;
}
