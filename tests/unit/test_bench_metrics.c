// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bench_metrics.c - `bench client`'s document and `metrics FILE` on constructed reports (bench runs in the lab only) */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "out/out.h"
#include "bench.h"
#include "bench_metrics.h"

static void link_init(struct rdc_bench_link_report *lr, const char *dev, const char *netdev)
{
	snprintf(lr->local.device, sizeof(lr->local.device), "%s", dev);
	lr->local.port = 1;
	snprintf(lr->local.netdev, sizeof(lr->local.netdev), "%s", netdev);
}

/* Two links of a 2 s write run: rxe0 moved 0.5 GB, rxe1 failed after 0.1 GB and lost carrier. */
static void report_write(struct rdc_bench_report *r)
{
	memset(r, 0, sizeof(*r));
	r->params.test = RDC_BENCH_WRITE;
	r->params.duration_ns = 2000000000ULL;
	r->started = true;
	r->window_start_ns = 10000000000ULL;
	r->window_end_ns = 12000000000ULL;
	r->nlinks = 2;
	link_init(&r->links[0], "rxe0", "eth0");
	r->links[0].res.bytes = 500000000;
	r->links[0].res.msgs = 7630;
	r->links[0].res.window_start_ns = r->window_start_ns;
	r->links[0].res.window_end_ns = r->window_end_ns;
	r->links[0].res.longest_stall_ns = 1500000;
	assert_int_equal(rdc_counters_add(&r->links[0].counters, "hw", "rcvd_seq_err", 12), 0);
	assert_int_equal(rdc_counters_add(&r->links[0].counters, "pause", "rx_frames", 3), 0);
	link_init(&r->links[1], "rxe1", "eth1");
	r->links[1].res.status = -ETIMEDOUT;
	r->links[1].res.errors = 4;
	r->links[1].res.bytes = 100000000;
	r->links[1].res.msgs = 1526;
	r->links[1].carrier_lost = true;
	r->links[1].carrier_lost_ns = 11000000000ULL;
	r->links[1].carrier_back = true;
	r->links[1].carrier_back_ns = 11250000000ULL;
	r->links[1].carrier_losses = 1;
}

static char *fill(const struct rdc_bench_report *r)
{
	struct rdc_prom *m = rdc_prom_new();
	struct rdc_err err = {0};
	char *buf;
	size_t len;

	assert_non_null(m);
	assert_int_equal(bench_metrics_fill(m, r, 1796292347.5, &err), 0);
	assert_int_equal(rdc_prom_render(m, &buf, &len, &err), 0);
	rdc_prom_free(m);
	return buf;
}

static void has(const char *out, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(out, want))
		fail_msg("missing line: %s\n--- output:\n%s", line, out);
}

static void lacks(const char *out, const char *prefix)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s", prefix);
	if (strstr(out, want))
		fail_msg("unexpected: %s\n--- output:\n%s", prefix, out);
}

#define L0 "{device=\"rxe0\",port=\"1\",netdev=\"eth0\",test=\"write\"}"
#define L1 "{device=\"rxe1\",port=\"1\",netdev=\"eth1\",test=\"write\"}"

static void test_write_run(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	char *out;

	(void)state;
	assert_non_null(r);
	report_write(r);
	out = fill(r);
	has(out, "rdmactl_bench_last_run_timestamp_seconds 1796292347.5");
	has(out, "rdmactl_bench_run_success 0");
	has(out, "rdmactl_bench_links 2");
	/* 600 MB over the common 2 s window. */
	has(out, "rdmactl_bench_total_bandwidth_bytes_per_second 300000000");
	has(out, "rdmactl_bench_bandwidth_bytes_per_second" L0 " 250000000");
	has(out, "rdmactl_bench_bandwidth_bytes_per_second" L1 " 50000000");
	has(out, "rdmactl_bench_messages_per_second" L0 " 3815");
	has(out, "rdmactl_bench_window_seconds" L0 " 2");
	has(out, "rdmactl_bench_link_success" L0 " 1");
	has(out, "rdmactl_bench_link_success" L1 " 0");
	has(out, "rdmactl_bench_failed_completions" L1 " 4");
	has(out, "rdmactl_bench_longest_stall_seconds" L0 " 0.0015");
	has(out, "rdmactl_bench_carrier_losses" L1 " 1");
	has(out, "rdmactl_bench_outage_seconds" L1 " 0.25");
	has(out, "rdmactl_bench_port_stats_delta{device=\"rxe0\",port=\"1\",netdev=\"eth0\","
		 "test=\"write\",counter=\"pause_rx_frames\"} 3");
	has(out, "rdmactl_bench_port_stats_delta{device=\"rxe0\",port=\"1\",netdev=\"eth0\","
		 "test=\"write\",counter=\"rcvd_seq_err\"} 12");
	has(out, "# TYPE rdmactl_bench_bandwidth_bytes_per_second gauge");
	/* No outage on rxe0, no latency in a write run: left out, not 0. */
	lacks(out, "rdmactl_bench_outage_seconds" L0);
	lacks(out, "rdmactl_bench_latency");
	free(out);
	rdc_bench_report_free(r);
	free(r);
}

/*
 * The client's document, as JSON: one name per meaning (qp_survival_s, bond
 * check's name of the window) and durations in seconds (longest_stall_s).
 */
static void test_client_doc(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};
	struct rdc_out *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(r);
	report_write(r);
	r->params.qp_timeout = 14;
	r->params.retry_cnt = 7;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	o = rdc_out_new(fp, RDC_FMT_JSON, false, false);
	assert_non_null(o);
	assert_true(bench_client_doc(o, r, false, link_gbps) > 0);
	assert_int_equal(rdc_out_free(o), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "\"kind\":\"bench-client\""));
	/* 4.096 us * 2^14 * (7 + 1) */
	if (!strstr(buf, "\"qp_survival_s\":0.536870912,"))
		fail_msg("no qp_survival_s 0.536870912:\n%s", buf);
	/* 1.5 ms, in seconds; the failed link with none: 0 */
	if (!strstr(buf, "\"longest_stall_s\":0.0015,") || !strstr(buf, "\"longest_stall_s\":0,"))
		fail_msg("no longest_stall_s 0.0015 and 0:\n%s", buf);
	assert_null(strstr(buf, "qp_retry_window_s"));
	assert_null(strstr(buf, "_ms\""));
	free(buf);
	rdc_bench_report_free(r);
	free(r);
}

static void test_lat_run(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	char *out;

	(void)state;
	assert_non_null(r);
	r->params.test = RDC_BENCH_LAT;
	r->params.iters = 1000;
	r->started = true;
	r->nlinks = 1;
	link_init(&r->links[0], "mlx5_0", "ens1f0np0");
	r->links[0].res.msgs = 1000;
	r->links[0].res.window_start_ns = 1000000000ULL;
	r->links[0].res.window_end_ns = 1004000000ULL;
	r->links[0].lat = (struct rdc_lat_stats){.count = 1000,
						 .min_us = 1.5,
						 .p50_us = 2,
						 .p99_us = 3.25,
						 .p999_us = 8,
						 .max_us = 20,
						 .mean_us = 2.5};
	out = fill(r);
#define LL "device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\",test=\"lat\""
	has(out, "rdmactl_bench_latency_seconds{" LL ",quantile=\"0\"} 1.5e-06");
	has(out, "rdmactl_bench_latency_seconds{" LL ",quantile=\"0.5\"} 2e-06");
	has(out, "rdmactl_bench_latency_seconds{" LL ",quantile=\"0.999\"} 8e-06");
	has(out, "rdmactl_bench_latency_seconds{" LL ",quantile=\"1\"} 2e-05");
	has(out, "rdmactl_bench_latency_mean_seconds{" LL "} 2.5e-06");
	has(out, "rdmactl_bench_latency_samples{" LL "} 1000");
	has(out, "rdmactl_bench_messages_per_second{" LL "} 250000");
	has(out, "rdmactl_bench_run_success 1");
	lacks(out, "rdmactl_bench_bandwidth_bytes_per_second");
	lacks(out, "rdmactl_bench_total_bandwidth_bytes_per_second");
#undef LL
	free(out);
	rdc_bench_report_free(r);
	free(r);
}

/*
 * size all: rows from two sizes of a write sweep (the second with a failed
 * link) and of a lat sweep (samples of two links merged), as "sizes".
 */
static void test_sweep_doc(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	struct bench_sweep *sw = calloc(1, sizeof(*sw));
	double link_gbps[RDC_BENCH_MAX_LINKS] = {0};
	struct rdc_out *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(r);
	assert_non_null(sw);
	report_write(r);
	r->params.size = 2;
	r->links[1].res.status = 0; /* 2 B: both links whole */
	assert_int_equal(bench_sweep_add(sw, r), 0);
	assert_int_equal(sw->rows[0].status, 0);
	assert_int_equal(sw->rows[0].bytes, 600000000);
	assert_int_equal(sw->rows[0].msgs, 7630 + 1526);
	assert_true(sw->rows[0].gbps > 2.39 && sw->rows[0].gbps < 2.41); /* 0.6 GB in 2 s */
	r->params.size = 4;
	r->links[1].res.status = -ETIMEDOUT;
	snprintf(r->links[1].res.error, sizeof(r->links[1].res.error), "retry exceeded");
	assert_int_equal(bench_sweep_add(sw, r), 0);
	assert_int_equal(sw->rows[1].status, -ETIMEDOUT);
	assert_string_equal(sw->rows[1].error, "retry exceeded");
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	o = rdc_out_new(fp, RDC_FMT_JSON, false, false);
	assert_non_null(o);
	bench_client_doc_sweep(o, r, false, link_gbps, sw, false);
	assert_int_equal(rdc_out_free(o), 0);
	assert_int_equal(fclose(fp), 0);
	if (!strstr(buf, "\"sizes\":[{\"msg_size_bytes\":2,\"duration_s\":2,\"iters\":null,"
			 "\"status\":\"ok\",\"gbps\":2.4,"))
		fail_msg("no first row of 2 B:\n%s", buf);
	if (!strstr(buf, "{\"msg_size_bytes\":4,") || !strstr(buf, "\"status\":\"failed\"") ||
	    !strstr(buf, "\"error\":\"retry exceeded\"}]"))
		fail_msg("no failed row of 4 B:\n%s", buf);
	free(buf);
	buf = NULL;
	/* A single run: "sizes" null. */
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	o = rdc_out_new(fp, RDC_FMT_JSON, false, false);
	assert_non_null(o);
	bench_client_doc(o, r, false, link_gbps);
	assert_int_equal(rdc_out_free(o), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "\"sizes\":null"));
	free(buf);

	/*
	 * bidir: a row is both directions' sum, as the run's total; unknown
	 * (NAN, null in JSON) without the server's count.
	 */
	memset(sw, 0, sizeof(*sw));
	r->params.bidir = true;
	r->links[1].res.status = 0;
	r->links[0].peer.bytes = 300000000;
	r->links[0].peer.msgs = 4578;
	r->server_window_ns = 2000000000ull;
	assert_int_equal(bench_sweep_add(sw, r), 0);
	assert_int_equal(sw->rows[0].bytes, 900000000);
	assert_int_equal(sw->rows[0].msgs, 7630 + 1526 + 4578);
	assert_true(sw->rows[0].gbps > 3.59 && sw->rows[0].gbps < 3.61); /* 2.4 + 1.2 */
	r->server_window_ns = 0;
	assert_int_equal(bench_sweep_add(sw, r), 0);
	assert_true(isnan(sw->rows[1].gbps));
	r->params.bidir = false;
	r->links[0].peer.bytes = 0;
	r->links[0].peer.msgs = 0;
	rdc_bench_report_free(r);

	/* lat: both links' samples in one set of statistics. */
	memset(sw, 0, sizeof(*sw));
	r->params.test = RDC_BENCH_LAT;
	r->params.size = 8;
	r->params.iters = 2;
	r->started = true;
	r->nlinks = 2;
	for (uint32_t i = 0; i < 2; i++) {
		r->links[i].res.nlat = 2;
		r->links[i].res.lat_ns = calloc(2, sizeof(uint64_t));
		assert_non_null(r->links[i].res.lat_ns);
	}
	r->links[0].res.lat_ns[0] = 1000;
	r->links[0].res.lat_ns[1] = 3000;
	r->links[1].res.lat_ns[0] = 2000;
	r->links[1].res.lat_ns[1] = 4000;
	assert_int_equal(bench_sweep_add(sw, r), 0);
	assert_int_equal(sw->rows[0].lat.count, 4);
	assert_true(sw->rows[0].lat.min_us == 1.0 && sw->rows[0].lat.max_us == 4.0);
	assert_true(sw->rows[0].lat.p50_us == 2.0);
	/* The report's own samples are not reordered. */
	assert_int_equal(r->links[0].res.lat_ns[1], 3000);
	rdc_bench_report_free(r);
	free(r);
	free(sw);
}

/*
 * bidir: each link's bytes and rates are both directions' sum, as the report's
 * (the server's count over its own window); without the server's count the
 * rates are left out, never the client's half alone.
 */
static void test_bidir_run(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	char *out;

	(void)state;
	assert_non_null(r);
	report_write(r);
	r->params.bidir = true;
	/* The server moved 300 MB on rxe0 and 100 MB on rxe1 in its 2.5 s window. */
	r->server_window_ns = 2500000000ull;
	r->links[0].peer.bytes = 300000000;
	r->links[0].peer.msgs = 4578;
	r->links[1].peer.bytes = 100000000;
	r->links[1].peer.msgs = 1526;
	out = fill(r);
	/* rxe0: 250 MB/s the client's way, 120 MB/s the server's. */
	has(out, "rdmactl_bench_bandwidth_bytes_per_second" L0 " 370000000");
	has(out, "rdmactl_bench_transferred_bytes" L0 " 800000000");
	has(out, "rdmactl_bench_messages_per_second" L0 " 5646.2");
	/* All: 300 MB/s and 160 MB/s. */
	has(out, "rdmactl_bench_total_bandwidth_bytes_per_second 460000000");
	free(out);

	/* No count from the server: no rate at all, the bytes the client knows of. */
	r->server_window_ns = 0;
	r->links[0].peer.bytes = r->links[1].peer.bytes = 0;
	r->links[0].peer.msgs = r->links[1].peer.msgs = 0;
	out = fill(r);
	lacks(out, "rdmactl_bench_bandwidth_bytes_per_second" L0);
	lacks(out, "rdmactl_bench_messages_per_second" L0);
	lacks(out, "rdmactl_bench_total_bandwidth_bytes_per_second ");
	has(out, "rdmactl_bench_transferred_bytes" L0 " 500000000");
	has(out, "rdmactl_bench_window_seconds" L0 " 2");
	free(out);
	rdc_bench_report_free(r);
	free(r);
}

/* The file is written whole and readable by the exporter; a bad directory is an error. */
static void test_write_file(void **state)
{
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	char dir[] = "/tmp/test_bench_metrics-XXXXXX", path[128];
	struct rdc_err err = {0};
	struct stat st;

	(void)state;
	assert_non_null(r);
	report_write(r);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bench.prom", dir);
	assert_int_equal(bench_metrics_write(r, path, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_true(st.st_size > 1000);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	snprintf(path, sizeof(path), "%s/bench.prom", dir); /* the directory is gone now */
	assert_int_equal(bench_metrics_write(r, path, &err), -ENOENT);
	rdc_bench_report_free(r);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_run),  cmocka_unit_test(test_client_doc),
		cmocka_unit_test(test_lat_run),	   cmocka_unit_test(test_sweep_doc),
		cmocka_unit_test(test_write_file), cmocka_unit_test(test_bidir_run),
	};

	return cmocka_run_group_tests_name("bench_metrics", tests, NULL, NULL);
}
