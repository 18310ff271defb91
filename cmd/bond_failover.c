// SPDX-License-Identifier: GPL-2.0-or-later
/* bond_failover.c - `rdmactl bond failover`: one failover measured under traffic, reported */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include "base/util.h"
#include "bench/client.h"
#include "bench/ctl.h"
#include "bond/bond.h"
#include "bond/failover.h"
#include "host/system.h"
#include "bond.h"
#include "signals.h"

static const struct rdc_val_uint hz_range = {
	.min = 10, .max = RDC_FAILOVER_MAX_HZ, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};

static int failover_peer(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w,
			 int n, void *opts)
{
	struct bond_opts *bo = opts;
	struct in_addr in;

	(void)n;
	if (inet_pton(AF_INET, w[0], &in) != 1)
		return rdc_usage_error(ctx, "'%s %s': not an IPv4 address", p->name, w[0]);
	bo->peer = w[0];
	return 0;
}

const struct rdc_param bond_failover_params[] = {
	{.name = "member",
	 .metavar = "IF",
	 .excludes = "wait",
	 .value_kind = RDC_COMPLETE_NETDEV,
	 .help = "take this member down, measure, and bring it back",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct bond_opts, member)},
	{.name = "wait",
	 .metavar = "SEC",
	 .excludes = "member",
	 .help = "touch nothing: measure the next failover within SEC (a pulled cable)",
	 .parse = rdc_val_seconds,
	 .dest = offsetof(struct bond_opts, wait_s)},
	{.name = "peer",
	 .metavar = "HOST",
	 .value_kind = RDC_COMPLETE_HOST,
	 .help = "IPv4 to probe over the bond (ICMP at 1 kHz); its bench server for RDMA",
	 .parse = failover_peer},
	{.name = "rate",
	 .metavar = "HZ",
	 .help = "probes per second (10-10000, default 1000)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct bond_opts, probe_hz),
	 .spec = &hz_range},
	{.name = "port",
	 .metavar = "N",
	 .help = "the peer's `rdmactl bench server` TCP port (default 18515)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct bond_opts, bench_port),
	 .spec = &rdc_val_tcp_port},
	{.name = "no-rdma",
	 .help = "probes only, no RDMA stream",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct bond_opts, no_rdma),
	 .spec = NULL},
	{.name = NULL},
};

/* ---- the RDMA stream: one bench run per connection, as the engine asks ---- */

static void rdma_interval_cb(void *arg, const struct rdc_bench_report *r, size_t k,
			     const uint64_t *bytes)
{
	struct rdc_failover_rdma_run *run = arg;

	run->connected = true;
	/* Intervals count from the window, which starts after the warm-up (none here). */
	if (run->interval)
		run->interval(run, r->start_ns + r->params.warmup_ns + k * r->params.interval_ns,
			      bytes[0]);
}

/* One RDMA write connection over the bond's RDMA port until it fails, ends, or is stopped. */
static int failover_rdma(struct rdc_failover_rdma_run *run, struct rdc_err *err)
{
	struct rdc_bench_client_opts o = {.host = run->host, .nspecs = 1, .interrupted = run->stop};
	struct rdc_bench_client_cb cb = {.interval = rdma_interval_cb, .arg = run};
	struct rdc_bench_report *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return rdc_err_set(err, ENOMEM, "cannot start the RDMA stream");
	rdc_bench_params_default(&o.params, RDC_BENCH_WRITE);
	o.port = run->port ? run->port : RDC_BENCH_DEFAULT_PORT;
	if (run->size)
		o.params.size = run->size;
	/* A few writes in flight: what a failover catches mid-air, and fails fast. */
	o.params.tx_depth = 16;
	o.params.duration_ns = (uint64_t)llround(run->duration_s * 1e9);
	o.params.warmup_ns = 0;
	if (run->interval_ns)
		o.params.interval_ns = run->interval_ns;
	rdc_strlcpy(o.specs[0].local, run->device, sizeof(o.specs[0].local));
	rc = rdc_bench_client_run(&o, &cb, r, err);
	/* The control socket keeps the flag's address: not past this run (the engine frees it). */
	rdc_bench_ctl_set_interrupt(NULL);
	run->connected = run->connected || r->started;
	if (r->nlinks) {
		const struct rdc_bench_result *res = &r->links[0].res;

		run->status = res->status;
		/* The link's window ends at its last completion: the failure is there. */
		run->failed_ns = res->status ? res->window_end_ns : 0;
		run->longest_stall_ns = res->longest_stall_ns;
		rdc_strlcpy(run->error, res->status ? res->error : "", sizeof(run->error));
	}
	rdc_bench_report_free(r);
	free(r);
	return rc;
}

/* ---- the report ---- */

/* A member's name, or unknown: null in JSON, @unknown ("... -") in text. */
static void emit_member(struct rdc_out *o, const char *key, const char *fmt, const char *unknown,
			const char *name)
{
	if (name[0])
		rdc_out_str(o, RDC_OUT_ANY, key, fmt, name);
	else
		rdc_out_null(o, key, unknown);
}

static void emit_s(struct rdc_out *o, const char *key, const char *fmt, double v)
{
	if (isnan(v) || isinf(v))
		rdc_out_null(o, key, NULL);
	else
		rdc_out_f64(o, fmt ? RDC_OUT_ANY : RDC_OUT_MACHINE, key, fmt, v);
}

/*
 * A duration: seconds in JSON and YAML (the key ends _s, as every duration
 * of the bond documents), milliseconds in the text (@fmt takes the ms).
 */
static void emit_dur_s(struct rdc_out *o, const char *key, const char *fmt, double s)
{
	if (isnan(s) || isinf(s)) {
		rdc_out_null(o, key, NULL);
		return;
	}
	rdc_out_f64(o, RDC_OUT_MACHINE, key, NULL, s);
	if (fmt)
		rdc_out_f64(o, RDC_OUT_TEXT, key, fmt, s * 1e3);
}

/* The same from milliseconds, as the probe and RDMA reports hold some. */
static void emit_dur_ms(struct rdc_out *o, const char *key, const char *fmt, double ms)
{
	emit_dur_s(o, key, fmt, ms / 1e3);
}

/*
 * An RDMA port as the report names it, "rxeb/1": its device and port in
 * two keys (null when unknown).
 */
static void emit_rdma_port(struct rdc_out *o, const char *name)
{
	const char *slash = strrchr(name, '/');
	char device[72];
	uint64_t port;

	if (!name[0] || !slash || slash == name || rdc_parse_u64(slash + 1, 10, &port) ||
	    (size_t)(slash - name) >= sizeof(device)) {
		rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, name[0] ? name : NULL);
		rdc_out_null(o, "port", NULL);
		return;
	}
	memcpy(device, name, (size_t)(slash - name));
	device[slash - name] = '\0';
	rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, device);
	rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, port);
}

static bool what_is_rdma(enum rdc_failover_what what)
{
	return what == RDC_FO_RDMA_FAILED || what == RDC_FO_RDMA_CONNECTED;
}

/* What the probes saw once traffic flowed again: the outage is not the whole cost. */
static void out_after_outage(struct rdc_out *o, const struct rdc_failover_probe_report *pr)
{
	bool shown = pr->ran && pr->after_known;

	if (!shown) {
		rdc_out_null(o, "sent_after_outage", NULL);
		rdc_out_null(o, "lost_after_outage", NULL);
		rdc_out_null(o, "loss_after_outage_pct", NULL);
		return;
	}
	rdc_out_u64(o, RDC_OUT_ANY, "lost_after_outage", "  after it: %" PRIu64, pr->after_lost);
	rdc_out_u64(o, RDC_OUT_ANY, "sent_after_outage", " of %" PRIu64 " probes lost",
		    pr->after_sent);
	rdc_out_f64(o, RDC_OUT_ANY, "loss_after_outage_pct", " (%.1f%%)",
		    pr->after_sent ? 100.0 * (double)pr->after_lost / (double)pr->after_sent : 0.0);
	rdc_out_nl(o);
	if (rdc_failover_lossy_after(pr))
		rdc_out_text(o, "  traffic still goes over the failed member: balance-rr or "
				"balance-xor here or on the peer?\n");
}

static void failover_report(struct rdc_ctx *ctx, const struct rdc_failover_report *r)
{
	const struct rdc_failover_probe_report *pr = &r->probe;
	const struct rdc_failover_rdma_report *rd = &r->rdma;
	struct rdc_out *o = ctx->out;

	rdc_out_begin(o, "bond-failover");
	rdc_out_str(o, RDC_OUT_ANY, "bond", "%s", r->bond);
	rdc_out_str(o, RDC_OUT_ANY, "mode", " (%s", rdc_bond_mode_name(r->mode));
	if (r->miimon_ms >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "miimon_ms", ", miimon %" PRId64 " ms)", r->miimon_ms);
	else
		rdc_out_null(o, "miimon_ms", ")");
	rdc_out_str(o, RDC_OUT_ANY, "method", ": %s",
		    r->member_mode ? "member taken down" : "waited");
	rdc_out_str(o, RDC_OUT_ANY, "member", " %s", r->member[0] ? r->member : NULL);
	rdc_out_bool(o, RDC_OUT_MACHINE, "failover", NULL, r->failover);
	rdc_out_bool(o, RDC_OUT_MACHINE, "interrupted", NULL, r->interrupted);
	rdc_out_text(o, "%s\n", r->failover ? ", failed over" : ", no failover seen");
	rdc_out_text(o, "  times from the start of the measurement (t0); durations in ms\n");
	emit_member(o, "active_before", "  active member %s", "  active member -",
		    r->active_before);
	emit_member(o, "active_after", " -> %s", " -> -", r->active_after);
	emit_member(o, "active_final", ", at the end %s\n", ", at the end -\n", r->active_final);
	emit_s(o, "fault_s", "  fault at %.3f s", r->fault_s);
	rdc_out_str(o, RDC_OUT_MACHINE, "fault_note", NULL,
		    r->fault_note[0] ? r->fault_note : NULL);
	emit_dur_s(o, "detect_s", ", detected %.1f ms later", r->detect_s);
	emit_dur_s(o, "react_s", ", bond reacted %.1f ms after that", r->react_s);
	rdc_out_str(o, RDC_OUT_MACHINE, "react_reason", NULL,
		    r->react_reason[0] ? r->react_reason : NULL);
	/* Fault to reaction: what bond check's failover_s estimates, measured. */
	emit_dur_s(o, "failover_s", NULL, r->detect_s + r->react_s);
	rdc_out_nl(o);
	emit_s(o, "detected_at_s", NULL, r->detected_at_s);
	emit_s(o, "reacted_at_s", NULL, r->reacted_at_s);
	emit_s(o, "restore_s", NULL, r->restore_s);
	emit_s(o, "member_back_s", NULL, r->member_back_s);
	emit_s(o, "failback_s", NULL, r->failback_s);
	emit_s(o, "duration_s", NULL, r->duration_s);

	rdc_out_obj_open(o, "probe");
	rdc_out_bool(o, RDC_OUT_MACHINE, "ran", NULL, pr->ran);
	rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, pr->reason[0] ? pr->reason : NULL);
	if (!pr->ran)
		rdc_out_text(o, "  probes: none (%s)\n", pr->reason);
	rdc_out_str(o, RDC_OUT_MACHINE, "method", NULL, pr->method[0] ? pr->method : NULL);
	rdc_out_u64(o, pr->ran ? RDC_OUT_ANY : RDC_OUT_MACHINE, "rate_hz",
		    "  probes at %" PRIu64 " Hz", pr->hz);
	rdc_out_u64(o, pr->ran ? RDC_OUT_ANY : RDC_OUT_MACHINE, "sent", ": %" PRIu64 " sent",
		    pr->sent);
	rdc_out_u64(o, pr->ran ? RDC_OUT_ANY : RDC_OUT_MACHINE, "received",
		    ", %" PRIu64 " answered", pr->received);
	rdc_out_u64(o, pr->ran ? RDC_OUT_ANY : RDC_OUT_MACHINE, "lost", ", %" PRIu64 " lost\n",
		    pr->lost);
	rdc_out_u64(o, RDC_OUT_MACHINE, "send_errors", NULL, pr->send_errors);
	emit_s(o, "gap_start_s", pr->ran ? "  outage (longest gap) from %.3f s" : NULL,
	       pr->gap_start_s);
	emit_s(o, "gap_end_s", pr->ran ? " to %.3f s" : NULL, pr->gap_end_s);
	emit_dur_ms(o, "outage_s", pr->ran ? ": %.1f ms" : NULL, pr->gap_ms);
	rdc_out_u64(o, pr->ran ? RDC_OUT_ANY : RDC_OUT_MACHINE, "gap_lost",
		    " (%" PRIu64 " probes lost)", pr->gap_lost);
	rdc_out_bool(o, RDC_OUT_MACHINE, "gap_open_start", NULL, pr->gap_open_start);
	rdc_out_bool(o, RDC_OUT_MACHINE, "gap_open_end", NULL, pr->gap_open_end);
	emit_dur_s(o, "recovered_after_fault_s",
		   pr->ran ? ", traffic again %.1f ms after the fault" : NULL, pr->recovered_s);
	if (pr->ran)
		rdc_out_nl(o);
	out_after_outage(o, pr);
	emit_dur_ms(o, "resolution_s", NULL, pr->max_send_pause_ms);
	emit_dur_ms(o, "rtt_max_s", NULL, pr->rtt_max_ms);
	emit_dur_ms(o, "failback_gap_s", NULL, pr->failback_gap_ms);
	rdc_out_obj_close(o);

	rdc_out_obj_open(o, "rdma");
	rdc_out_bool(o, RDC_OUT_MACHINE, "ran", NULL, rd->ran);
	rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, rd->reason[0] ? rd->reason : NULL);
	emit_rdma_port(o, rd->device);
	if (!rd->ran) {
		rdc_out_text(o, "  rdma: none (%s)\n", rd->reason);
		rdc_out_null(o, "qp_survived", NULL);
	} else {
		rdc_out_text(o, "  rdma write stream on %s", rd->device);
		rdc_out_bool(o, RDC_OUT_MACHINE, "qp_survived", NULL, rd->survived);
		rdc_out_text(o, rd->survived ? ": the QP survived" : ": the QP did not survive");
	}
	emit_s(o, "resumed_s", rd->ran && rd->survived ? ", traffic resumed at %.3f s" : NULL,
	       rd->resumed_s);
	emit_s(o, "failed_s", rd->ran && !rd->survived ? ", it failed at %.3f s" : NULL,
	       rd->failed_s);
	rdc_out_str(o, rd->ran && !rd->survived ? RDC_OUT_ANY : RDC_OUT_MACHINE, "wc_status",
		    " (%s)", rd->wc_status[0] ? rd->wc_status : NULL);
	emit_s(o, "reconnected_s",
	       rd->ran && !rd->survived ? ", a new connection carried traffic at %.3f s" : NULL,
	       rd->reconnected_s);
	if (rd->ran)
		rdc_out_nl(o);
	rdc_out_str(o, RDC_OUT_MACHINE, "error", NULL, rd->error[0] ? rd->error : NULL);
	/* bench client's longest_stall: the same engine's, of the first connection. */
	emit_dur_ms(o, "longest_stall_s", NULL, rd->stall_ms);
	rdc_out_u64(o, RDC_OUT_MACHINE, "connections", NULL, rd->connections);
	rdc_out_u64(o, RDC_OUT_MACHINE, "bytes", NULL, rd->bytes);
	rdc_out_obj_close(o);

	rdc_out_arr_open(o, "events");
	for (size_t i = 0; i < r->nevents; i++) {
		const struct rdc_failover_event *e = &r->events[i];

		rdc_out_obj_open(o, NULL);
		rdc_out_f64(o, ctx->quiet ? RDC_OUT_MACHINE : RDC_OUT_ANY, "t_s", "  %9.3f s",
			    e->t_s);
		/* The RDMA events name the port ("rxeb/1"), the others a netdev. */
		if (!ctx->quiet)
			rdc_out_text(o, "  %-8s", e->netdev);
		rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL,
			    what_is_rdma(e->what) || !e->netdev[0] ? NULL : e->netdev);
		if (what_is_rdma(e->what)) {
			emit_rdma_port(o, e->netdev);
		} else {
			rdc_out_null(o, "device", NULL);
			rdc_out_null(o, "port", NULL);
		}
		rdc_out_str(o, ctx->quiet ? RDC_OUT_MACHINE : RDC_OUT_ANY, "what", " %s",
			    rdc_failover_what_name(e->what));
		rdc_out_str(o, ctx->quiet ? RDC_OUT_MACHINE : RDC_OUT_ANY, "value", " %s",
			    e->value[0] ? e->value : NULL);
		if (!ctx->quiet)
			rdc_out_nl(o);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_u64(o, RDC_OUT_MACHINE, "dropped_events", NULL, r->dropped_events);
	rdc_out_u64(o, RDC_OUT_MACHINE, "event_overruns", NULL, r->event_overruns);
	rdc_out_end(o);
}

static void failover_progress(void *arg, const char *phase, double t_s)
{
	struct rdc_ctx *ctx = arg;

	if (!ctx->quiet) {
		fprintf(stderr, "%s: bond: %8.3f s %s\n", ctx->prog, t_s, phase);
		fflush(stderr);
	}
}

int bond_failover_run(struct rdc_ctx *ctx, const struct rdc_action *act,
		      const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	struct rdc_failover_opts fo = {
		.bond = args->object,
		.member = bo->member,
		.wait_s = bo->wait_s,
		.peer = bo->peer,
		.probe_hz = bo->probe_hz,
		.interrupted = NULL, /* the stop flag, once the words are checked */
		.rdma = !bo->no_rdma && bo->peer,
		.bench_port = bo->bench_port,
		.rdma_run = failover_rdma,
		.progress = failover_progress,
		.progress_arg = ctx,
	};
	struct rdc_failover_report *r;
	struct rdc_err err = {0};
	bool lossy;
	int rc;

	if (!bo->member && !bo->wait_s)
		return rdc_usage_error(ctx, "failover: give 'member IF' or 'wait SEC'");
	if (bo->wait_s > RDC_FAILOVER_MAX_WAIT_S)
		return rdc_usage_error(ctx, "'wait %g': at most %.0f seconds", bo->wait_s,
				       RDC_FAILOVER_MAX_WAIT_S);
	if (!bo->peer)
		return rdc_usage_error(ctx, "failover: give 'peer HOST', the address the probes "
					    "(and the RDMA stream) go to over the bond");
	if (!rdc_system_live())
		return rdc_fail_as(ctx, RDC_ERRK_OFFLINE, NULL,
				   "failover measures the live system, not --root or --replay");
	r = calloc(1, sizeof(*r));
	if (!r)
		return rdc_oom(ctx);
	/* Probes and the RDMA stream block on sockets: no SA_RESTART; stays till exit. */
	fo.interrupted = rdc_sig_stop_begin(RDC_SIG_STOP_NO_SIGPIPE);
	rc = rdc_bond_failover_run(&fo, r, &err);
	/* A measurement cut short or without a failover still shows what it saw. */
	if (!rc || rc == -ETIMEDOUT || rc == -EINTR)
		failover_report(ctx, r);
	lossy = !rc && rdc_failover_lossy_after(&r->probe);
	if (lossy)
		fprintf(stderr,
			"%s: bond: failover of %s: %" PRIu64 " of %" PRIu64
			" probes lost after the outage: the bond did not fail over cleanly\n",
			ctx->prog, r->bond, r->probe.after_lost, r->probe.after_sent);
	free(r);
	if (rc)
		return rdc_fail(ctx, &err);
	return lossy ? RDC_EXIT_FAIL : RDC_EXIT_OK;
}
