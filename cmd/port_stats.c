// SPDX-License-Identifier: GPL-2.0-or-later
/* port_stats.c - `rdmactl port stats`: counters, and rates per second with interval */
#define _GNU_SOURCE /* asprintf */
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
#include "host/system.h"
#include "port.h"

/* One thing we sample: an RDMA port (and its netdev), or a netdev alone. */
struct stats_target {
	char device[RDC_IBDEV_NAME]; /* "" for a netdev without RDMA port */
	unsigned int port;
	char netdev[IF_NAMESIZE]; /* "" when the port has none */
	struct rdc_counter_set now, prev;
	struct rdc_counter_unread unread; /* counters that exist but could not be read */
	char *reason; /* why ethtool statistics are missing (whole, owned), or NULL */
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
		/* The kernel's names and values: port_*_data stay 4-byte words. */
		rc = rdc_port_counters_read_kernel(t->device, t->port, &t->now, &t->unread, err);
		if (rc)
			return rc;
	}
	if (!t->netdev[0])
		return 0;
	rc = rdc_netdev_stats_read(t->netdev, &t->now, &nerr, err);
	if (rc)
		return rc;
	/* ethtool statistics are optional: a bundle without recording, a driver without them. */
	free(t->reason);
	t->reason = NULL;
	if (nerr.code && asprintf(&t->reason, "%s: %s", nerr.msg, strerror(nerr.code)) < 0) {
		t->reason = NULL;
		return rdc_err_set(err, ENOMEM, "cannot hold why '%s' has no statistics",
				   t->netdev);
	}
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
	/* The glossary's reason: why a part (the netdev's statistics) is missing; null when read. */
	port_out_opt_str(o, "reason", NULL, t->reason);
	rdc_out_nl(o);
}

static uint64_t counter_delta(const struct rdc_counter_set *prev, const struct rdc_counter *c)
{
	const struct rdc_counter *old = rdc_counters_find(prev, c->group, c->name);

	/* A counter that went backwards was reset (driver reload): count from zero. */
	if (!old || c->value < old->value)
		return old ? c->value : 0;
	return c->value - old->value;
}

/*
 * Headline rates: RDMA traffic from the IB counters where the port has them,
 * else the netdev's.  Bits (_gbps) from a byte count: the IB counters count
 * 4-byte words (rdc_port_counter_unit_bytes()), the netdev's bytes.
 */
static void stats_emit_headline(struct rdc_out *o, const struct stats_target *t, double secs)
{
	static const struct {
		const char *group, *rx_data, *tx_data, *rx_pkts, *tx_pkts;
	} sources[] = {
		{"ib", "port_rcv_data", "port_xmit_data", "port_rcv_packets", "port_xmit_packets"},
		{"netdev", "rx_bytes", "tx_bytes", "rx_packets", "tx_packets"},
	};

	for (size_t s = 0; s < RDC_ARRAY_SIZE(sources); s++) {
		const struct rdc_counter *rd, *td, *rp, *tp;
		double unit;

		rd = rdc_counters_find(&t->now, sources[s].group, sources[s].rx_data);
		td = rdc_counters_find(&t->now, sources[s].group, sources[s].tx_data);
		rp = rdc_counters_find(&t->now, sources[s].group, sources[s].rx_pkts);
		tp = rdc_counters_find(&t->now, sources[s].group, sources[s].tx_pkts);
		if (!rd || !td || !rp || !tp)
			continue;
		unit = rdc_port_counter_unit_bytes(rd->group, rd->name);
		if (!unit)
			unit = 1;
		rdc_out_obj_open(o, "rates");
		rdc_out_str(o, RDC_OUT_ANY, "source", "  %-6s", sources[s].group);
		rdc_out_f64(o, RDC_OUT_ANY, "rx_gbps", " rx %8.3f Gb/s",
			    (double)counter_delta(&t->prev, rd) * unit * 8 / secs / 1e9);
		rdc_out_f64(o, RDC_OUT_ANY, "rx_packets_per_s", " %12.0f pps",
			    (double)counter_delta(&t->prev, rp) / secs);
		rdc_out_f64(o, RDC_OUT_ANY, "tx_gbps", "   tx %8.3f Gb/s",
			    (double)counter_delta(&t->prev, td) * unit * 8 / secs / 1e9);
		rdc_out_f64(o, RDC_OUT_ANY, "tx_packets_per_s", " %12.0f pps\n",
			    (double)counter_delta(&t->prev, tp) / secs);
		rdc_out_obj_close(o);
		return;
	}
	rdc_out_null(o, "rates", NULL);
}

/* Whether @c passes the filter (@d: its delta, with an interval). */
static bool stats_keep(enum port_stats_filter filter, const struct rdc_counter *c, bool rates,
		       uint64_t d)
{
	switch (filter) {
	case PORT_STATS_ERRORS:
		return rdc_counter_is_fault(c->group, c->name) && (rates ? d != 0 : c->value != 0);
	case PORT_STATS_ERRORS_ALL:
		return rdc_counter_is_fault(c->group, c->name);
	case PORT_STATS_NONZERO:
		return rates ? d != 0 : c->value != 0;
	case PORT_STATS_ALL:
		break;
	}
	return true;
}

/*
 * One counter: {"group", "name", "value", "delta", "per_s"}.  The kernel's
 * names are not snake_case, so they are values, never keys; delta and per_s
 * are null without an interval, so both documents have the same shape.
 * @value NULL: the counter exists but could not be read.
 */
static void stats_emit_counter(struct rdc_out *o, const struct rdc_counter *c,
			       const uint64_t *value, bool rates, uint64_t d, double secs)
{
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "group", NULL, c->group);
	rdc_out_str(o, RDC_OUT_MACHINE, "name", NULL, c->name);
	if (value)
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL, *value);
	else
		rdc_out_null(o, "value", NULL);
	if (rates && value) {
		rdc_out_u64(o, RDC_OUT_MACHINE, "delta", NULL, d);
		rdc_out_f64(o, RDC_OUT_MACHINE, "per_s", NULL, (double)d / secs);
	} else {
		rdc_out_null(o, "delta", NULL);
		rdc_out_null(o, "per_s", NULL);
	}
	rdc_out_obj_close(o);
}

/* Room for a counter's name and its unit: "port_rcv_data (4-byte words)". */
#define STATS_LABEL_SIZE (sizeof(((struct rdc_counter *)0)->name) + 32)

/*
 * A counter's name in text: the kernel's, and for one that counts units of
 * several bytes (port_rcv_data) the unit, in the name's column so the line
 * stays as wide: "port_rcv_data (4-byte words)".  JSON has the name alone.
 */
static const char *stats_label(const struct rdc_counter *c, char label[STATS_LABEL_SIZE])
{
	unsigned int unit = rdc_port_counter_unit_bytes(c->group, c->name);

	if (!unit)
		return c->name;
	snprintf(label, STATS_LABEL_SIZE, "%s (%u-byte words)", c->name, unit);
	return label;
}

/*
 * The counters of one target.  Text: every counter's value, or with an
 * interval (@rates) only what moved, as a rate (like mlnx_perf); an
 * unreadable counter is "?" in text and null in JSON.
 */
static void stats_emit_counters(struct rdc_out *o, const struct stats_target *t,
				enum port_stats_filter filter, bool rates, double secs)
{
	const char *indent = rates ? "    " : "  ";

	if (rates)
		stats_emit_headline(o, t, secs);
	else
		rdc_out_null(o, "rates", NULL);
	rdc_out_arr_open(o, "counters");
	for (size_t i = 0; i < t->now.count; i++) {
		const struct rdc_counter *c = &t->now.items[i];
		uint64_t d = rates ? counter_delta(&t->prev, c) : 0;
		double rate = rates ? (double)d / secs : 0;
		unsigned int unit = rdc_port_counter_unit_bytes(c->group, c->name);
		char label[STATS_LABEL_SIZE];

		if (!stats_keep(filter, c, rates, d))
			continue;
		stats_emit_counter(o, c, &c->value, rates, d, secs);
		if (!rates) {
			rdc_out_text(o, "%s%-8s %-40s %" PRIu64 "\n", indent, c->group,
				     stats_label(c, label), c->value);
			continue;
		}
		if (d == 0)
			continue;
		rdc_out_text(o, "%s%-8s %-40s %16.0f /s", indent, c->group, stats_label(c, label),
			     rate);
		/* Gb/s of the words: port_rcv_data counts 4 bytes a unit. */
		if (unit)
			rdc_out_text(o, "  (%.3f Gb/s)", rate * unit * 8 / 1e9);
		else if (strstr(c->name, "bytes") || strstr(c->name, "Octets"))
			rdc_out_text(o, "  (%.3f Gb/s)", rate * 8 / 1e9);
		rdc_out_nl(o);
	}
	for (size_t k = 0; k < t->unread.names.count; k++) {
		const struct rdc_counter *c = &t->unread.names.items[k];
		char label[STATS_LABEL_SIZE];

		/* Unread: whether it is 0 is unknown, so every filter of faults keeps it. */
		if ((filter == PORT_STATS_ERRORS || filter == PORT_STATS_ERRORS_ALL) &&
		    !rdc_counter_is_fault(c->group, c->name))
			continue;
		stats_emit_counter(o, c, NULL, rates, 0, secs);
		rdc_out_text(o, "%s%-8s %-40s %s\n", indent, c->group, stats_label(c, label),
			     rates ? "               ? /s" : "?");
	}
	rdc_out_arr_close(o);
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
	bool rooted = rdc_system_rooted();
	uint32_t count = so->count;
	unsigned int bad = 0;
	size_t n = 0;
	int rc;

	if (count && !interval)
		return rdc_usage_error(ctx, "stats: 'count' needs 'interval'");
	rc = stats_targets(ctx, args->object, &targets, &n, &bad);
	if (rc)
		return rc;
	/*
	 * A bundle holds at most two samples, one window apart: rates come from
	 * them, over that window, once (no count means as many as it holds).
	 * Without a port there is nothing to sample: said below, as live.
	 */
	if (interval && rooted && n) {
		if (rdc_system_window_for(interval, &interval, &err)) {
			rc = rdc_fail(ctx, &err);
			goto out;
		}
		if (count > 1) {
			rc = rdc_usage_error(ctx,
					     "stats: count %" PRIu32
					     ": a bundle holds two samples, "
					     "one interval (use count 1)",
					     count);
			goto out;
		}
		count = 1;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = stats_sample(&targets[i], &err);
	if (rc) {
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (targets[i].reason)
			log_info("port: %s: no ethtool statistics (%s)", targets[i].netdev,
				 targets[i].reason);
	if (!interval || !n) {
		rdc_out_begin(ctx->out, "port-stats");
		rdc_out_null(ctx->out, "sample", NULL);
		rdc_out_null(ctx->out, "interval_s", NULL);
		rdc_out_str(ctx->out, RDC_OUT_MACHINE, "filter", NULL,
			    port_stats_filter_name(port_stats_filter(so)));
		rdc_out_arr_open(ctx->out, "stats");
		for (size_t i = 0; i < n; i++) {
			rdc_out_obj_open(ctx->out, NULL);
			stats_emit_ident(ctx->out, &targets[i]);
			stats_emit_counters(ctx->out, &targets[i], port_stats_filter(so), false, 0);
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
		if (rooted) {
			/* The bundle's second sample, its recorded window after the first. */
			rc = rdc_system_sample(1, &err);
			for (size_t i = 0; i < n && !rc; i++)
				rc = stats_sample(&targets[i], &err);
			rdc_system_sample(0, NULL);
			t1 = t0 + interval;
		} else {
			sleep_seconds(interval);
			t1 = mono_now();
			for (size_t i = 0; i < n && !rc; i++)
				rc = stats_sample(&targets[i], &err);
		}
		if (rc) {
			rc = rdc_fail(ctx, &err);
			goto out;
		}
		rdc_out_begin(ctx->out, "port-stats");
		rdc_out_u64(ctx->out, RDC_OUT_ANY, "sample", "sample %" PRIu64, sample);
		rdc_out_f64(ctx->out, RDC_OUT_ANY, "interval_s", " over %.3f s\n", t1 - t0);
		rdc_out_str(ctx->out, RDC_OUT_MACHINE, "filter", NULL,
			    port_stats_filter_name(port_stats_filter(so)));
		rdc_out_arr_open(ctx->out, "stats");
		for (size_t i = 0; i < n; i++) {
			rdc_out_obj_open(ctx->out, NULL);
			stats_emit_ident(ctx->out, &targets[i]);
			stats_emit_counters(ctx->out, &targets[i], port_stats_filter(so), true,
					    t1 - t0);
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
		free(targets[i].reason);
	}
	free(targets);
	return rc;
}
