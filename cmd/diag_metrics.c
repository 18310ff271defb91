// SPDX-License-Identifier: GPL-2.0-or-later
/* diag_metrics.c - `rdmactl diag metrics`: what node_exporter lacks, in its textfile format */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "diag/diag.h"
#include "host/dcb.h"
#include "out/prom.h"
#include "diag_metrics.h"
#include "port.h"
#include "signals.h"

/*
 * One run of diag's reading (one sample by default, so a timer can run it
 * every minute without waiting), written as Prometheus metrics:
 *
 *   - what node_exporter 1.5 does not export: RDMA hw_counters, the
 *     per-priority pause and discard counters of the driver, PFC, trust and
 *     ETS from dcbnl, the state of each bond member;
 *   - diag's findings, counted by check and severity;
 *   - whether this run read everything, and when it ran.
 *
 * A value that could not be read is left out (the format has no null); the
 * files behind it are named on stderr and the exit status is 1, as `port`
 * and `diag` do, with rdmactl_scrape_success 0 in the output.
 */

static const struct rdc_val_seconds metrics_interval = {.min_s = 0.1, .zero_ok = true};

const struct rdc_param diag_metrics_params[] = {
	{.name = "out",
	 .metavar = "FILE",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "replace FILE atomically (node_exporter's textfile directory, *.prom) instead of "
		 "writing to stdout",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct diag_metrics_opts, out)},
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "seconds between two counter samples for the checks that judge rates (default 0: "
		 "one sample)",
	 .parse = rdc_val_seconds_ns,
	 .dest = offsetof(struct diag_metrics_opts, interval_ns),
	 .spec = &metrics_interval},
	{.name = "-f",
	 .metavar = "POLICY.yaml",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "the checks' thresholds, as for 'diag run'",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct diag_metrics_opts, policy_file)},
	{.name = NULL},
};

void diag_metrics_defaults(void *opts)
{
	struct diag_metrics_opts *m = opts;

	m->interval_ns = 0;
}

/* ---- the families: one table, so each HELP and TYPE is said once ---- */

#define C RDC_PROM_COUNTER
#define G RDC_PROM_GAUGE

static const struct {
	const char *name;
	enum rdc_prom_type type;
	const char *help;
} metrics_families[] = {
	{"rdmactl_scrape_success", G,
	 "1 when rdmactl read every file it found; 0 when some could not be read (named on its "
	 "stderr) or the host could not be read at all"},
	{"rdmactl_last_run_timestamp_seconds", G, "when rdmactl diag metrics ran, Unix time"},
	{"rdmactl_scrape_duration_seconds", G,
	 "how long reading the host and running the checks took"},
	{"rdmactl_build_info", G, "the rdmactl that wrote these metrics"},
	{"rdmactl_unreadable_files", G,
	 "files that exist but could not be read or parsed in this run; their values are left out"},
	{"rdmactl_ports", G, "RDMA ports read"},
	{"rdmactl_port_info", G,
	 "an RDMA port and its netdev (node_exporter's node_network_* label device is the netdev)"},
	{"rdmactl_rdma_hw_stats_total", C,
	 "an RDMA port's hw_counters (/sys/class/infiniband/DEV/ports/N/hw_counters), by the "
	 "kernel's name"},
	{"rdmactl_ethtool_stats_total", C,
	 "driver statistics (ethtool -S) about drops, discards, buffers and pause, by the driver's "
	 "name"},
	{"rdmactl_rx_pause_frames_total", C,
	 "PFC pause frames received on a priority (ethtool -S)"},
	{"rdmactl_tx_pause_frames_total", C, "PFC pause frames sent on a priority (ethtool -S)"},
	{"rdmactl_rx_pause_duration_seconds_total", C,
	 "time the peer kept a priority paused (ethtool -S, microseconds in the driver)"},
	{"rdmactl_tx_pause_duration_seconds_total", C,
	 "time this port kept the peer's priority paused (ethtool -S, microseconds in the driver)"},
	{"rdmactl_rx_pause_transitions_total", C,
	 "pause on/off transitions received on a priority (ethtool -S)"},
	{"rdmactl_rx_prio_discards_total", C,
	 "packets of a priority discarded on receive (ethtool -S)"},
	{"rdmactl_pfc_enabled", G, "1 when PFC is on for the priority (dcbnl IEEE PFC pfc_en)"},
	{"rdmactl_pfc_requests_total", C,
	 "PFC frames sent for the priority (dcbnl IEEE PFC requests)"},
	{"rdmactl_pfc_indications_total", C,
	 "PFC frames received for the priority (dcbnl IEEE PFC indications)"},
	{"rdmactl_trust_info", G,
	 "what the port classifies by: dscp or pcp (MLNX_OFED qos/trust, else the dcbnl APP "
	 "table)"},
	{"rdmactl_ets_bandwidth_percent", G, "ETS bandwidth share of the traffic class, percent"},
	{"rdmactl_ets_tsa_info", G, "the traffic class's scheduler: strict, cbs, ets or vendor"},
	{"rdmactl_ets_prio_tc", G, "the traffic class a priority maps to"},
	{"rdmactl_bond_member_active", G,
	 "1 when the bond member is active, 0 when it is a backup (IFLA_BOND_SLAVE_STATE)"},
	{"rdmactl_bond_member_up", G, "1 when the bond member's MII status is up"},
	{"rdmactl_bond_member_link_failures_total", C,
	 "link failures the bond counted on the member"},
	{"rdmactl_diag_findings", G,
	 "diag findings of this run by check and severity (configuration, or counters over a "
	 "window: not those on counters' totals since boot)"},
	{"rdmactl_diag_finding", G,
	 "diag findings of this run about one object, labelled with the check, severity and "
	 "the device, netdev or bond (the same findings as rdmactl_diag_findings)"},
	{"rdmactl_diag_findings_since_reset", G,
	 "findings on counters' totals since boot or reset (one sample), left out of "
	 "rdmactl_diag_findings and rdmactl_diag_finding: run with interval to judge a window"},
	{"rdmactl_diag_skipped", G,
	 "objects a diag check could not judge in this run (see 'diag run')"},
	{"rdmactl_diag_findings_dropped", G,
	 "findings past diag's limit of 64, not counted in rdmactl_diag_findings"},
};

#undef C
#undef G

/* The labels every per-port metric has, then up to two of its own. */
struct port_labels {
	char port[12];
	struct rdc_prom_label l[5];
};

static void port_labels_init(struct port_labels *pl, const struct rdc_diag_port *p)
{
	snprintf(pl->port, sizeof(pl->port), "%u", p->port.port);
	pl->l[0] = (struct rdc_prom_label){"device", p->port.device};
	pl->l[1] = (struct rdc_prom_label){"port", pl->port};
	pl->l[2] = (struct rdc_prom_label){"netdev", rdc_diag_netdev(p)};
}

/* A per-port sample with one or two more labels (@n2 NULL: one). */
static void port_u64(struct rdc_prom *m, const char *name, struct port_labels *pl, const char *n1,
		     const char *v1, const char *n2, const char *v2, uint64_t v)
{
	size_t n = 3;

	if (n1)
		pl->l[n++] = (struct rdc_prom_label){n1, v1};
	if (n2)
		pl->l[n++] = (struct rdc_prom_label){n2, v2};
	rdc_prom_u64(m, name, pl->l, n, v);
}

static void port_f64(struct rdc_prom *m, const char *name, struct port_labels *pl, const char *n1,
		     const char *v1, double v)
{
	size_t n = 3;

	if (n1)
		pl->l[n++] = (struct rdc_prom_label){n1, v1};
	rdc_prom_f64(m, name, pl->l, n, v);
}

static const struct rdc_diag_sample *last_sample(const struct rdc_diag_port *p)
{
	return p->nsamples ? &p->s[p->nsamples - 1] : NULL;
}

static void emit_hw(struct rdc_prom *m, const struct rdc_diag_port *p, struct port_labels *pl)
{
	const struct rdc_diag_sample *s = last_sample(p);

	/* Counters that could not be read are not in the set: left out. */
	if (!s || s->hw_rc)
		return;
	for (size_t i = 0; i < s->hw.count; i++)
		port_u64(m, "rdmactl_rdma_hw_stats_total", pl, "counter", s->hw.items[i].name, NULL,
			 NULL, s->hw.items[i].value);
}

/*
 * mlx5's per-priority statistics, "rx_prio3_pause" and friends: direction,
 * priority, what.  Bytes and packets per priority are node_exporter's
 * (its ethtool collector); these it has no names for.
 */
static const struct {
	const char *dir, *what, *family;
	double scale; /* 0: a count as it is; else the factor to the family's unit */
} prio_stats[] = {
	{"rx", "pause", "rdmactl_rx_pause_frames_total", 0},
	{"tx", "pause", "rdmactl_tx_pause_frames_total", 0},
	{"rx", "pause_duration", "rdmactl_rx_pause_duration_seconds_total", 1e-6},
	{"tx", "pause_duration", "rdmactl_tx_pause_duration_seconds_total", 1e-6},
	{"rx", "pause_transition", "rdmactl_rx_pause_transitions_total", 0},
	{"rx", "discards", "rdmactl_rx_prio_discards_total", 0},
};

/*
 * The driver statistics kept whole, by name: what tells of drops, discards,
 * buffer pressure and pause ("rx_discards_phy", "rx_out_of_buffer",
 * "rx_buffer_passed_thres_phy", "tx_pause_storm_warning_events", bnxt's
 * "rx_pfc_ena_frames_pri3" ...).
 */
static const char *const ethtool_kept[] = {
	"discard", "drop", "out_of_buffer", "buffer_passed", "pause", "storm", "pfc"};

/* "rx_prio3_pause_duration" -> 1 with *dir "rx", *prio 3, *what "pause_duration". */
static bool prio_stat_parse(const char *name, char dir[3], unsigned int *prio, const char **what)
{
	if ((strncmp(name, "rx_prio", 7) && strncmp(name, "tx_prio", 7)) || name[7] < '0' ||
	    name[7] > '7' || name[8] != '_')
		return false;
	dir[0] = name[0];
	dir[1] = 'x';
	dir[2] = '\0';
	*prio = (unsigned int)(name[7] - '0');
	*what = name + 9;
	return true;
}

static void emit_ethtool(struct rdc_prom *m, const struct rdc_diag_port *p, struct port_labels *pl)
{
	const struct rdc_diag_sample *s = last_sample(p);

	if (!s || s->netdev_rc)
		return;
	for (size_t i = 0; i < s->netdev.count; i++) {
		const struct rdc_counter *c = &s->netdev.items[i];
		unsigned int prio;
		const char *what;
		char dir[3], ps[4];

		if (strcmp(c->group, "driver"))
			continue;
		if (prio_stat_parse(c->name, dir, &prio, &what)) {
			snprintf(ps, sizeof(ps), "%u", prio);
			for (size_t k = 0; k < RDC_ARRAY_SIZE(prio_stats); k++) {
				if (strcmp(dir, prio_stats[k].dir) ||
				    strcmp(what, prio_stats[k].what))
					continue;
				if (prio_stats[k].scale)
					port_f64(m, prio_stats[k].family, pl, "prio", ps,
						 (double)c->value * prio_stats[k].scale);
				else
					port_u64(m, prio_stats[k].family, pl, "prio", ps, NULL,
						 NULL, c->value);
			}
			continue;
		}
		for (size_t k = 0; k < RDC_ARRAY_SIZE(ethtool_kept); k++)
			if (strstr(c->name, ethtool_kept[k])) {
				port_u64(m, "rdmactl_ethtool_stats_total", pl, "counter", c->name,
					 NULL, NULL, c->value);
				break;
			}
	}
}

static void emit_dcb(struct rdc_prom *m, const struct rdc_diag_port *p, struct port_labels *pl)
{
	const struct rdc_dcb *d = &p->dcb;
	bool dcb = !p->dcb_rc && d->supported;
	const char *trust = NULL;
	char n[4];

	/* As `pfc show` and diag's qos.trust: MLNX_OFED's file, else upstream's APP rule. */
	if (p->ofed.trust[0])
		trust = p->ofed.trust;
	else if (dcb)
		trust = rdc_dcb_dscp_count(d) ? "dscp" : "pcp";
	if (trust)
		port_u64(m, "rdmactl_trust_info", pl, "trust", trust, NULL, NULL, 1);
	if (!dcb)
		return;
	for (unsigned int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		snprintf(n, sizeof(n), "%u", i);
		if (d->have_pfc) {
			port_u64(m, "rdmactl_pfc_enabled", pl, "prio", n, NULL, NULL,
				 (d->pfc.pfc_en >> i) & 1);
			port_u64(m, "rdmactl_pfc_requests_total", pl, "prio", n, NULL, NULL,
				 d->pfc.requests[i]);
			port_u64(m, "rdmactl_pfc_indications_total", pl, "prio", n, NULL, NULL,
				 d->pfc.indications[i]);
		}
		if (d->have_ets) {
			port_u64(m, "rdmactl_ets_bandwidth_percent", pl, "tc", n, NULL, NULL,
				 d->ets.tc_tx_bw[i]);
			port_u64(m, "rdmactl_ets_tsa_info", pl, "tc", n, "tsa",
				 rdc_dcb_tsa_name(d->ets.tc_tsa[i]), 1);
			port_u64(m, "rdmactl_ets_prio_tc", pl, "prio", n, NULL, NULL,
				 d->ets.prio_tc[i]);
		}
	}
}

static void emit_port(struct rdc_prom *m, const struct rdc_diag_port *p)
{
	struct port_labels pl = {0};

	port_labels_init(&pl, p);
	port_u64(m, "rdmactl_port_info", &pl, "link_layer", p->port.link_layer, NULL, NULL, 1);
	emit_hw(m, p, &pl);
	emit_ethtool(m, p, &pl);
	emit_dcb(m, p, &pl);
}

static void emit_bonds(struct rdc_prom *m, const struct rdc_diag_host *h)
{
	if (h->bonds_rc)
		return;
	for (size_t i = 0; i < h->bonds.count; i++) {
		const struct rdc_bond *b = &h->bonds.bonds[i];

		for (size_t k = 0; k < b->nmembers; k++) {
			const struct rdc_bond_member *mb = &b->members[k];
			struct rdc_prom_label l[] = {{"bond", b->name}, {"member", mb->name}};

			/* -1: the kernel did not say; left out. */
			if (mb->state >= 0)
				rdc_prom_u64(m, "rdmactl_bond_member_active", l, 2, mb->state == 0);
			if (mb->mii_status >= 0)
				rdc_prom_u64(m, "rdmactl_bond_member_up", l, 2,
					     mb->mii_status == 0);
			if (mb->link_failure_count >= 0)
				rdc_prom_u64(m, "rdmactl_bond_member_link_failures_total", l, 2,
					     (uint64_t)mb->link_failure_count);
		}
	}
}

/*
 * What an alert may rest on: a finding about the configuration, or about
 * counters over this run's window.  A finding on counters' totals since boot
 * or reset (one sample) says only that something happened once; exported,
 * it would keep its alert firing until the counters were reset.
 */
static bool finding_exported(const struct rdc_finding *f)
{
	return !f->since_reset;
}

/* Two findings a series cannot tell apart: same check, severity and object. */
static bool finding_same_series(const struct rdc_finding *a, const struct rdc_finding *b)
{
	return !strcmp(a->id, b->id) && a->severity == b->severity &&
	       !strcmp(a->device, b->device) && a->port == b->port &&
	       !strcmp(a->netdev, b->netdev) && !strcmp(a->bond, b->bond);
}

/*
 * One series per object a check found something about, labelled with it;
 * its value counts the findings (a check may say two things of one port).
 * Emitted at the first of them: a series given twice would void the file.
 */
static void emit_finding(struct rdc_prom *m, const struct rdc_findings *list, size_t at)
{
	const struct rdc_finding *f = &list->items[at];
	struct rdc_prom_label l[6];
	uint64_t count = 0;
	char port[12];
	size_t n = 0;

	for (size_t i = 0; i < list->count; i++) {
		if (!finding_exported(&list->items[i]) || !finding_same_series(f, &list->items[i]))
			continue;
		if (i < at)
			return;
		count++;
	}
	l[n++] = (struct rdc_prom_label){"check", f->id};
	l[n++] = (struct rdc_prom_label){"severity", rdc_severity_name(f->severity)};
	/* An empty label is no label in Prometheus: only what the finding names. */
	if (f->device[0]) {
		snprintf(port, sizeof(port), "%u", f->port);
		l[n++] = (struct rdc_prom_label){"device", f->device};
		l[n++] = (struct rdc_prom_label){"port", port};
	}
	if (f->netdev[0])
		l[n++] = (struct rdc_prom_label){"netdev", f->netdev};
	if (f->bond[0])
		l[n++] = (struct rdc_prom_label){"bond", f->bond};
	rdc_prom_u64(m, "rdmactl_diag_finding", l, n, count);
}

/*
 * Every check that ran, with a count for each severity (0 included, so an
 * alert on "> 0" sees the check ran and found nothing), bond.check's
 * findings under bond.check whatever their own ids, and its skips; then
 * each finding on its own, and how many rest on totals since reset.
 */
static void emit_findings(struct rdc_prom *m, const struct rdc_diag_result *r)
{
	static const enum rdc_severity sevs[] = {RDC_SEV_FAIL, RDC_SEV_WARN, RDC_SEV_INFO};
	uint64_t since_reset = 0;

	for (size_t i = 0; i < rdc_diag_nfamilies; i++) {
		const struct rdc_diag_family *fam = rdc_diag_families[i];

		for (size_t k = 0; k < fam->count; k++) {
			const char *id = fam->checks[k].id;
			struct rdc_prom_label l[] = {{"check", id}, {"severity", NULL}};
			uint64_t skipped = 0;

			for (size_t s = 0; s < RDC_ARRAY_SIZE(sevs); s++) {
				uint64_t n = 0;

				for (size_t f = 0; f < r->findings.count; f++) {
					const struct rdc_finding *fi = &r->findings.items[f];

					n += r->check[f] && !strcmp(r->check[f], id) &&
					     fi->severity == sevs[s] && finding_exported(fi);
				}
				l[1].value = rdc_severity_name(sevs[s]);
				rdc_prom_u64(m, "rdmactl_diag_findings", l, 2, n);
			}
			for (size_t s = 0; s < r->nskipped; s++)
				skipped += !strcmp(r->skipped[s].id, id);
			rdc_prom_u64(m, "rdmactl_diag_skipped", l, 1, skipped);
		}
	}
	for (size_t f = 0; f < r->findings.count; f++) {
		if (finding_exported(&r->findings.items[f]))
			emit_finding(m, &r->findings, f);
		else
			since_reset++;
	}
	rdc_prom_u64(m, "rdmactl_diag_findings_since_reset", NULL, 0, since_reset);
	rdc_prom_u64(m, "rdmactl_diag_findings_dropped", NULL, 0, r->findings.dropped);
}

static double realtime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Everything but the meta metrics; @h was read, @r holds its findings. */
static void metrics_fill(struct rdc_prom *m, const struct rdc_diag_host *h,
			 const struct rdc_diag_result *r)
{
	rdc_prom_u64(m, "rdmactl_ports", NULL, 0, h->nports);
	for (size_t i = 0; i < h->nports; i++)
		emit_port(m, &h->ports[i]);
	emit_bonds(m, h);
	emit_findings(m, r);
}

static int metrics_write(struct rdc_ctx *ctx, const struct rdc_prom *m, const char *out)
{
	struct rdc_err err = {0};
	char *buf = NULL;
	size_t len = 0;
	int rc;

	/* "out -" is standard output, as no out at all (./- names a file). */
	if (out && strcmp(out, "-"))
		return rdc_prom_write_file(m, out, &err) ? rdc_fail(ctx, &err) : 0;
	if (rdc_prom_render(m, &buf, &len, &err))
		return rdc_fail(ctx, &err);
	/* Through the output layer: a lost write is said once, with its reason, at the end. */
	rc = rdc_out_raw(ctx->out, buf, len);
	free(buf);
	return rc ? RDC_EXIT_FAIL : 0;
}

/* Read the host as diag does; 0, or the exit status after saying why not. */
static int metrics_read(struct rdc_ctx *ctx, const struct rdc_args *args,
			const struct diag_metrics_opts *mo, struct rdc_diag_host *h)
{
	struct rdc_diag_select sel = {.count = (size_t)args->nobjects, .names = args->objects};
	struct rdc_err err = {0};
	int rc = 0;

	rdc_diag_policy_init(&h->policy);
	if (mo->policy_file && rdc_diag_policy_load(mo->policy_file, &h->policy, &err))
		return rdc_fail(ctx, &err);
	volatile sig_atomic_t *stop = NULL;

	/* One sample waits for nothing: the signals keep their default, a quick death. */
	if (mo->interval_ns)
		stop = rdc_sig_stop_begin(RDC_SIG_STOP_RESTART);
	if (rdc_diag_host_read(h, &sel, (double)mo->interval_ns / 1e9, stop, &err))
		rc = rdc_fail(ctx, &err);
	if (mo->interval_ns)
		rdc_sig_stop_end();
	return rc;
}

int diag_metrics_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		     void *opts)
{
	const struct diag_metrics_opts *mo = opts;
	struct rdc_diag_host *h = calloc(1, sizeof(*h));
	/* Zeroed: its findings are cleared at the end whether or not the checks ran. */
	struct rdc_diag_result *r = calloc(1, sizeof(*r));
	struct rdc_prom *m = rdc_prom_new();
	struct rdc_prom_label version = {"version", RDC_VERSION};
	double t0 = monotonic_s(), now = realtime_s();
	struct rdc_err err = {0};
	unsigned int bad = 0;
	int rc = 0, read_rc;

	(void)act;
	if (!rdc_out_is_text(ctx->out)) {
		rc = rdc_usage_error(ctx, "metrics: writes Prometheus' text format; --json and "
					  "--yaml do not apply");
		goto out;
	}
	if (!h || !r || !m) {
		rc = rdc_oom(ctx);
		goto out;
	}
	for (size_t i = 0; i < RDC_ARRAY_SIZE(metrics_families); i++)
		rdc_prom_family(m, metrics_families[i].name, metrics_families[i].type,
				metrics_families[i].help);
	read_rc = metrics_read(ctx, args, mo, h);
	if (read_rc == RDC_EXIT_USAGE) {
		rc = read_rc;
		goto out;
	}
	if (!read_rc && rdc_diag_run(h, NULL, 0, NULL, 0, r, &err)) {
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	/* A host that could not be read still gets a file: success 0 is what alerts see. */
	if (!read_rc) {
		metrics_fill(m, h, r);
		for (size_t i = 0; i < h->nports; i++)
			bad += port_report_port_issues(ctx, &h->ports[i].port) +
			       port_report_issues(ctx, &h->ports[i].issues);
		rdc_prom_u64(m, "rdmactl_unreadable_files", NULL, 0, bad);
	}
	rdc_prom_u64(m, "rdmactl_scrape_success", NULL, 0, !read_rc && !bad);
	rdc_prom_f64(m, "rdmactl_last_run_timestamp_seconds", NULL, 0, now);
	rdc_prom_f64(m, "rdmactl_scrape_duration_seconds", NULL, 0, monotonic_s() - t0);
	rdc_prom_u64(m, "rdmactl_build_info", &version, 1, 1);
	rc = metrics_write(ctx, m, mo->out);
	if (!rc && (read_rc || bad))
		rc = RDC_EXIT_FAIL;
out:
	rdc_prom_free(m);
	if (r)
		rdc_findings_clear(&r->findings);
	free(r);
	if (h)
		rdc_diag_host_free(h);
	free(h);
	return rc;
}
