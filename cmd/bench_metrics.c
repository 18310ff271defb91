// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_metrics.c - `bench client ... metrics FILE`: the last run per link for node_exporter */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "bench_metrics.h"

#define C RDC_PROM_COUNTER
#define G RDC_PROM_GAUGE

/*
 * Every value is of the last run (gauges: a new run replaces them, nothing
 * accumulates across runs); per link the labels are the local end's device,
 * port and netdev and the test.
 */
static const struct {
	const char *name;
	enum rdc_prom_type type;
	const char *help;
} bench_families[] = {
	{"rdmactl_bench_last_run_timestamp_seconds", G, "when the last bench run ended, Unix time"},
	{"rdmactl_bench_run_success", G,
	 "1 when the last bench run completed and every link succeeded"},
	{"rdmactl_bench_links", G, "links the last bench run measured"},
	{"rdmactl_bench_total_bandwidth_bytes_per_second", G,
	 "all links together over the common window (bandwidth tests; bidir: both directions)"},
	{"rdmactl_bench_link_success", G, "1 when the link ran to the end without error"},
	{"rdmactl_bench_bandwidth_bytes_per_second", G,
	 "the link's bandwidth in the window (bandwidth tests; x8/1e9 for Gb/s; bidir: both "
	 "directions)"},
	{"rdmactl_bench_messages_per_second", G,
	 "the link's message rate in the window (bidir: both directions)"},
	{"rdmactl_bench_transferred_bytes", G,
	 "bytes the link moved in the window (bidir: both directions)"},
	{"rdmactl_bench_window_seconds", G, "the measured window of the link"},
	{"rdmactl_bench_latency_seconds", G,
	 "one-way latency (round trip / 2) by quantile, 0 the minimum and 1 the maximum (lat)"},
	{"rdmactl_bench_latency_mean_seconds", G, "mean one-way latency (lat)"},
	{"rdmactl_bench_latency_samples", G, "latency samples taken (lat)"},
	{"rdmactl_bench_failed_completions", G, "failed work completions on the link in the run"},
	{"rdmactl_bench_longest_stall_seconds", G,
	 "the longest time without a completion on the link"},
	{"rdmactl_bench_carrier_losses", G, "times the port left ACTIVE during the run"},
	{"rdmactl_bench_outage_seconds", G,
	 "the link's last outage, carrier lost to back (only when it came back)"},
	{"rdmactl_bench_port_stats_delta", G,
	 "change of the port's error, congestion and pause counters over the run, by name"},
};

#undef C
#undef G

struct link_labels {
	char port[12];
	struct rdc_prom_label l[5];
};

static size_t link_labels(struct link_labels *ll, const struct rdc_bench_report *r,
			  const struct rdc_bench_link_report *lr)
{
	snprintf(ll->port, sizeof(ll->port), "%u", lr->local.port);
	ll->l[0] = (struct rdc_prom_label){"device", lr->local.device};
	ll->l[1] = (struct rdc_prom_label){"port", ll->port};
	ll->l[2] = (struct rdc_prom_label){"netdev", lr->local.netdev};
	ll->l[3] = (struct rdc_prom_label){"test", rdc_bench_test_name(r->params.test)};
	return 4;
}

static uint64_t span(uint64_t start, uint64_t end)
{
	return end > start ? end - start : 0;
}

/* @n things in @ns nanoseconds, per second (bytes: the base unit; Gb/s is x8/1e9). */
static double per_second(uint64_t n, uint64_t ns)
{
	return (double)n * 1e9 / (double)ns;
}

/*
 * A link's rate of @mine (the client's count over @window) and, under bidir,
 * the server's @theirs over the server's own window, summed as the report's
 * "gbps" is; NAN when the server sent no count (the value is then left out).
 */
static double link_rate(const struct rdc_bench_report *r, uint64_t mine, uint64_t window,
			uint64_t theirs)
{
	double rate = per_second(mine, window);

	if (!r->params.bidir)
		return rate;
	return r->server_window_ns ? rate + per_second(theirs, r->server_window_ns) : NAN;
}

static void prom_rate(struct rdc_prom *m, const char *name, const struct rdc_prom_label *l,
		      size_t n, double rate)
{
	if (isfinite(rate))
		rdc_prom_f64(m, name, l, n, rate);
}

static void emit_lat(struct rdc_prom *m, struct link_labels *ll, const struct rdc_lat_stats *st)
{
	const struct {
		const char *q;
		double us;
	} qs[] = {
		{"0", st->min_us},	{"0.5", st->p50_us}, {"0.99", st->p99_us},
		{"0.999", st->p999_us}, {"1", st->max_us},
	};

	if (!st->count)
		return;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(qs); i++) {
		ll->l[4] = (struct rdc_prom_label){"quantile", qs[i].q};
		rdc_prom_f64(m, "rdmactl_bench_latency_seconds", ll->l, 5, qs[i].us / 1e6);
	}
	rdc_prom_f64(m, "rdmactl_bench_latency_mean_seconds", ll->l, 4, st->mean_us / 1e6);
	rdc_prom_u64(m, "rdmactl_bench_latency_samples", ll->l, 4, st->count);
}

static void emit_link(struct rdc_prom *m, const struct rdc_bench_report *r,
		      const struct rdc_bench_link_report *lr)
{
	const struct rdc_bench_result *res = &lr->res;
	uint64_t window = span(res->window_start_ns, res->window_end_ns);
	struct link_labels ll = {0};
	size_t n = link_labels(&ll, r, lr);

	/* As the report: a timed bandwidth run is judged over the common window. */
	if (r->params.duration_ns && !rdc_bench_test_is_lat(r->params.test))
		window = span(r->window_start_ns, r->window_end_ns);
	rdc_prom_u64(m, "rdmactl_bench_link_success", ll.l, n, res->status == 0);
	rdc_prom_u64(m, "rdmactl_bench_transferred_bytes", ll.l, n,
		     res->bytes + (r->params.bidir ? lr->peer.bytes : 0));
	rdc_prom_u64(m, "rdmactl_bench_failed_completions", ll.l, n, res->errors);
	rdc_prom_f64(m, "rdmactl_bench_longest_stall_seconds", ll.l, n,
		     (double)res->longest_stall_ns / 1e9);
	rdc_prom_u64(m, "rdmactl_bench_carrier_losses", ll.l, n, lr->carrier_losses);
	if (lr->carrier_lost && lr->carrier_back)
		rdc_prom_f64(m, "rdmactl_bench_outage_seconds", ll.l, n,
			     (double)span(lr->carrier_lost_ns, lr->carrier_back_ns) / 1e9);
	/* No window, no rate: left out rather than 0. */
	if (window) {
		rdc_prom_f64(m, "rdmactl_bench_window_seconds", ll.l, n, (double)window / 1e9);
		prom_rate(m, "rdmactl_bench_messages_per_second", ll.l, n,
			  link_rate(r, res->msgs, window, lr->peer.msgs));
		if (!rdc_bench_test_is_lat(r->params.test))
			prom_rate(m, "rdmactl_bench_bandwidth_bytes_per_second", ll.l, n,
				  link_rate(r, res->bytes, window, lr->peer.bytes));
	}
	if (rdc_bench_test_is_lat(r->params.test))
		emit_lat(m, &ll, &lr->lat);
	for (size_t i = 0; i < lr->counters.count; i++) {
		const struct rdc_counter *c = &lr->counters.items[i];
		char name[96];

		/* The report's names: the standard pause statistics as pause_rx_frames. */
		snprintf(name, sizeof(name), "%s%s", strcmp(c->group, "pause") ? "" : "pause_",
			 c->name);
		ll.l[4] = (struct rdc_prom_label){"counter", name};
		rdc_prom_u64(m, "rdmactl_bench_port_stats_delta", ll.l, 5, c->value);
	}
}

int bench_metrics_fill(struct rdc_prom *m, const struct rdc_bench_report *r, double now_s,
		       struct rdc_err *err)
{
	uint64_t window = span(r->window_start_ns, r->window_end_ns), bytes = 0, peer_bytes = 0;
	bool ok = !r->status && r->started;

	for (size_t i = 0; i < RDC_ARRAY_SIZE(bench_families); i++)
		rdc_prom_family(m, bench_families[i].name, bench_families[i].type,
				bench_families[i].help);
	for (uint32_t i = 0; i < r->nlinks && i < RDC_BENCH_MAX_LINKS; i++) {
		emit_link(m, r, &r->links[i]);
		bytes += r->links[i].res.bytes;
		peer_bytes += r->links[i].peer.bytes;
		ok &= !r->links[i].res.status;
	}
	rdc_prom_f64(m, "rdmactl_bench_last_run_timestamp_seconds", NULL, 0, now_s);
	rdc_prom_u64(m, "rdmactl_bench_run_success", NULL, 0, ok);
	rdc_prom_u64(m, "rdmactl_bench_links", NULL, 0, r->nlinks);
	if (window && !rdc_bench_test_is_lat(r->params.test))
		prom_rate(m, "rdmactl_bench_total_bandwidth_bytes_per_second", NULL, 0,
			  link_rate(r, bytes, window, peer_bytes));
	return rdc_prom_status(m, err);
}

/* A fresh set of run @r, as of now, in *@m (the caller frees it); 0 or -errno. */
static int bench_metrics_new(const struct rdc_bench_report *r, struct rdc_prom **m,
			     struct rdc_err *err)
{
	struct timespec ts;
	int rc;

	*m = rdc_prom_new();
	if (!*m)
		return rdc_err_set(err, ENOMEM, "cannot make the metrics");
	clock_gettime(CLOCK_REALTIME, &ts);
	rc = bench_metrics_fill(*m, r, (double)ts.tv_sec + (double)ts.tv_nsec / 1e9, err);
	if (rc) {
		rdc_prom_free(*m);
		*m = NULL;
	}
	return rc;
}

int bench_metrics_write(const struct rdc_bench_report *r, const char *path, struct rdc_err *err)
{
	struct rdc_prom *m;
	int rc = bench_metrics_new(r, &m, err);

	if (!rc)
		rc = rdc_prom_write_file(m, path, err);
	rdc_prom_free(m);
	return rc;
}

int bench_metrics_render(const struct rdc_bench_report *r, char **buf, size_t *len,
			 struct rdc_err *err)
{
	struct rdc_prom *m;
	int rc = bench_metrics_new(r, &m, err);

	*buf = NULL;
	*len = 0;
	if (!rc)
		rc = rdc_prom_render(m, buf, len, err);
	rdc_prom_free(m);
	return rc;
}
