// SPDX-License-Identifier: GPL-2.0-or-later
/* pfc.c - `rdmactl pfc`: the descriptor, target resolution and `pfc show` */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/log.h"
#include "base/util.h"
#include "host/dcb.h"
#include "host/ibdev.h"
#include "host/netdev.h"
#include "host/netdev_stats.h"
#include "host/ofed_qos.h"
#include "host/rdma_cm.h"
#include "pfc.h"

static const char *const trust_values[] = {"pcp", "dscp", NULL};
static const int trust_codes[] = {0, 1};
static const char *const mode_values[] = {"v1", "v2", NULL};
static const int mode_codes[] = {1, 2};

#define SET_WANT(field) offsetof(struct pfc_set_opts, want.field)
#define MAP(n, all, k, mx, type, flag)                                                             \
	{                                                                                          \
		.nkeys = (n), .allow_all = (all), .kind = (k), .max = (mx), .elem = sizeof(type),  \
		.given = (flag)                                                                    \
	}

static const struct rdc_val_map map_pfc =
	MAP(RDC_DCB_PRIOS, true, RDC_MAP_ONOFF, 1, bool, SET_WANT(pfc_given));
static const struct rdc_val_map map_prio_tc =
	MAP(RDC_DCB_PRIOS, true, RDC_MAP_NUMBER, 7, uint8_t, SET_WANT(prio_tc_given));
static const struct rdc_val_map map_tsa =
	MAP(RDC_DCB_TCS, true, RDC_MAP_TSA, 255, uint8_t, SET_WANT(tsa_given));
static const struct rdc_val_map map_bw =
	MAP(RDC_DCB_TCS, true, RDC_MAP_NUMBER, 100, uint8_t, SET_WANT(bw_given));
static const struct rdc_val_map map_maxrate =
	MAP(RDC_DCB_TCS, true, RDC_MAP_RATE, UINT64_MAX, uint64_t, SET_WANT(maxrate_given));
static const struct rdc_val_map map_prio_buffer =
	MAP(RDC_DCB_PRIOS, true, RDC_MAP_NUMBER, DCBX_MAX_BUFFERS - 1, uint8_t,
	    SET_WANT(prio_buffer_given));
static const struct rdc_val_map map_buffer_size = MAP(
	DCBX_MAX_BUFFERS, true, RDC_MAP_SIZE, UINT32_MAX, uint32_t, SET_WANT(buffer_size_given));
/* int entries, -1 meaning "leave": no flags beside them. */
static const struct rdc_val_map map_dscp_prio = {
	.nkeys = RDC_DSCP_COUNT, .kind = RDC_MAP_NUMBER, .max = 7, .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_map map_ecn =
	MAP(RDC_DCB_PRIOS, true, RDC_MAP_ONOFF, 1, bool, SET_WANT(ecn_given));
static const struct rdc_val_uint delay_range = {
	.min = 0, .max = 65535, .size = sizeof(uint16_t), .given = SET_WANT(delay_given)};
static const struct rdc_val_enum trust_enum = {.names = trust_values, .values = trust_codes};
static const struct rdc_val_enum mode_enum = {.names = mode_values, .values = mode_codes};

/* A value that lands in an int (-1: leave). */
static int pfc_int(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		   void *opts)
{
	const struct rdc_val_uint *spec = p->spec;
	uint32_t v;
	int rc = rdc_parse_u32_range(w[0], (uint32_t)spec->min, (uint32_t)spec->max, &v);

	(void)n;
	if (rc == -ERANGE)
		return rdc_usage_error(ctx, "'%s %s': out of range %u-%u", p->name, w[0],
				       (uint32_t)spec->min, (uint32_t)spec->max);
	if (rc)
		return rdc_usage_error(ctx, "'%s %s': not a number", p->name, w[0]);
	*(int *)(void *)((char *)opts + p->dest) = (int)v;
	return 0;
}

static const struct rdc_val_uint tos_range = {.min = 0, .max = 255};

#define PFC_DEV_PARAM(opts_type)                                                                   \
	{                                                                                          \
		.name = "dev", .metavar = "NETDEV", .value_kind = RDC_COMPLETE_PORT,               \
		.help = "the netdev, or an RDMA DEV[/PORT] on it", .parse = rdc_val_string,        \
		.dest = offsetof(opts_type, dev)                                                   \
	}

static const struct rdc_param pfc_show_params[] = {
	{.name = "dev",
	 .metavar = "NETDEV",
	 .value_kind = RDC_COMPLETE_PORT,
	 .help = "the netdev, or an RDMA DEV[/PORT] on it"},
	{.name = NULL},
};

static const struct rdc_param pfc_set_params[] = {
	PFC_DEV_PARAM(struct pfc_set_opts),
	{.name = "prio-pfc",
	 .metavar = "{all|P}:{on|off}...",
	 .multi = true,
	 .help = "PFC per priority",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(pfc_on),
	 .spec = &map_pfc},
	{.name = "delay",
	 .metavar = "BITTIMES",
	 .help = "PFC delay allowance (0-65535 bit times)",
	 .parse = rdc_val_uint,
	 .dest = SET_WANT(delay),
	 .spec = &delay_range},
	{.name = "prio-tc",
	 .metavar = "{all|P}:TC...",
	 .multi = true,
	 .help = "priority to TC",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(prio_tc),
	 .spec = &map_prio_tc},
	{.name = "tc-tsa",
	 .metavar = "{all|TC}:{strict|cbs|ets|vendor}...",
	 .multi = true,
	 .help = "transmission selection per TC",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(tsa),
	 .spec = &map_tsa},
	{.name = "tc-bw",
	 .metavar = "{all|TC}:PERCENT...",
	 .multi = true,
	 .help = "ETS bandwidth per TC; the ETS TCs sum to 100",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(bw),
	 .spec = &map_bw},
	{.name = "tc-maxrate",
	 .metavar = "{all|TC}:RATE...",
	 .multi = true,
	 .help = "rate limit per TC (RATE: 0 or e.g. 25Gbit, 500Mbit)",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(maxrate_kbps),
	 .spec = &map_maxrate},
	{.name = "prio-buffer",
	 .metavar = "{all|P}:BUF...",
	 .multi = true,
	 .help = "priority to receive buffer",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(prio_buffer),
	 .spec = &map_prio_buffer},
	{.name = "buffer-size",
	 .metavar = "{all|BUF}:SIZE...",
	 .multi = true,
	 .help = "receive buffer sizes (SIZE: bytes, or with K/M suffix)",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(buffer_size),
	 .spec = &map_buffer_size},
	{.name = "trust",
	 .metavar = "dscp|pcp",
	 .suggest = trust_values,
	 .help = "trust DSCP (APP entries) or PCP (none)",
	 .parse = rdc_val_enum,
	 .dest = SET_WANT(trust),
	 .spec = &trust_enum},
	{.name = "dscp-prio",
	 .metavar = "DSCP:P...",
	 .multi = true,
	 .help = "DSCP to priority (APP table, selector 5)",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(dscp_prio),
	 .spec = &map_dscp_prio},
	{.name = "roce-tos",
	 .metavar = "TOS",
	 .help = "RDMA-CM default ToS (0-255) on the RDMA ports",
	 .parse = pfc_int,
	 .dest = SET_WANT(roce_tos),
	 .spec = &tos_range},
	{.name = "roce-mode",
	 .metavar = "v1|v2",
	 .suggest = mode_values,
	 .help = "RDMA-CM default RoCE mode on the RDMA ports",
	 .parse = rdc_val_enum,
	 .dest = SET_WANT(roce_mode),
	 .spec = &mode_enum},
	{.name = "ecn",
	 .metavar = "{all|P}:{on|off}...",
	 .multi = true,
	 .help = "ECN reaction and notification point per priority (MLNX_OFED sysfs)",
	 .parse = rdc_val_map,
	 .dest = SET_WANT(ecn_on),
	 .spec = &map_ecn},
	{.name = NULL},
};

void pfc_set_defaults(void *opts)
{
	struct pfc_set_opts *so = opts;

	rdc_dcb_want_init(&so->want);
}

/* "profile" comes first in the table: it sets the defaults its parameters override. */
static int apply_profile(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w,
			 int n, void *opts)
{
	struct pfc_apply_opts *ao = opts;

	(void)n;
	if (rdc_dcb_profile_init(&ao->profile, w[0]))
		return rdc_usage_error(ctx, "apply: unknown profile '%s' (roce-lossless)", w[0]);
	return 0;
}

#define APPLY_PROFILE(field) offsetof(struct pfc_apply_opts, profile.field)
static const struct rdc_val_uint prio_range = {
	.min = 0, .max = 7, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint dscp_range = {
	.min = 0, .max = 63, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};

static const struct rdc_param pfc_apply_params[] = {
	PFC_DEV_PARAM(struct pfc_apply_opts),
	{.name = "profile",
	 .metavar = "NAME",
	 .suggest = rdc_dcb_profile_names,
	 .help = "roce-lossless: DSCP trust, PFC on one priority, CNP strict",
	 .parse = apply_profile},
	{.name = "prio",
	 .metavar = "P",
	 .help = "the lossless RoCE priority (default 3)",
	 .parse = rdc_val_uint,
	 .dest = APPLY_PROFILE(prio),
	 .spec = &prio_range},
	{.name = "dscp",
	 .metavar = "DSCP",
	 .help = "the RoCE data DSCP (default 26)",
	 .parse = rdc_val_uint,
	 .dest = APPLY_PROFILE(dscp),
	 .spec = &dscp_range},
	{.name = "cnp-dscp",
	 .metavar = "DSCP",
	 .help = "the CNP DSCP (default 48)",
	 .parse = rdc_val_uint,
	 .dest = APPLY_PROFILE(cnp_dscp),
	 .spec = &dscp_range},
	{.name = "cnp-prio",
	 .metavar = "P",
	 .help = "the CNP priority (default 6)",
	 .parse = rdc_val_uint,
	 .dest = APPLY_PROFILE(cnp_prio),
	 .spec = &prio_range},
	{.name = "-f",
	 .metavar = "FILE",
	 .alone = true,
	 .help = "apply a YAML file of devices instead (see rdmactl.yaml(5))",
	 .value_kind = RDC_COMPLETE_FILE,
	 .parse = rdc_val_string,
	 .dest = offsetof(struct pfc_apply_opts, file)},
	{.name = NULL},
};

static const struct rdc_action pfc_actions[] = {
	{.name = "show",
	 .synopsis = "[dev NETDEV | DEV[/PORT]]",
	 .help = "PFC, ETS, trust, DSCP map, buffers, rate limits, ECN and RoCE ToS with their "
		 "sources",
	 .run = pfc_show_run,
	 .params = pfc_show_params,
	 .object = RDC_COMPLETE_PORT},
	{.name = "set",
	 .synopsis = "dev NETDEV KEYWORD VALUE...",
	 .help = "change DCB in dcb's grammar; only what differs is sent, then verified",
	 .run = pfc_set_run,
	 .params = pfc_set_params,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct pfc_set_opts),
	 .opts_init = pfc_set_defaults},
	{.name = "apply",
	 .synopsis = "dev NETDEV profile roce-lossless [prio P] [dscp D] ... | -f FILE.yaml",
	 .help = "apply a whole profile idempotently, with rollback on failure",
	 .run = pfc_apply_run,
	 .params = pfc_apply_params,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct pfc_apply_opts)},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_pfc = {
	.name = "pfc",
	.summary = "lossless RoCE: PFC, ETS, trust and DSCP map, buffers, ECN, RoCE ToS",
	.actions = pfc_actions,
};

int pfc_target(struct rdc_ctx *ctx, const char *name, struct rdc_dcb_target *t)
{
	struct rdc_port_list ports;
	struct rdc_err err = {0};
	bool rdma_name;

	memset(t, 0, sizeof(*t));
	if (!name)
		return rdc_usage_error(ctx, "name the device: dev NETDEV or DEV[/PORT]");
	if (rdc_ports_read(&ports, &err))
		return rdc_fail(ctx, &err);
	rdma_name = strchr(name, '/') || rdc_ibdev_exists(name);
	if (rdma_name) {
		if (rdc_ports_filter(&ports, name, &err)) {
			rdc_ports_free(&ports);
			return rdc_fail(ctx, &err);
		}
		if (ports.count > 1) {
			rdc_err_set(&err, EINVAL, "'%s' has %zu ports; name one as DEV/PORT", name,
				    ports.count);
			rdc_ports_free(&ports);
			return rdc_fail(ctx, &err);
		}
		if (!ports.count || !ports.ports[0].has_netdev) {
			rdc_ports_free(&ports);
			rdc_err_set(&err, ENODEV, "'%s' has no network interface", name);
			return rdc_fail(ctx, &err);
		}
		rdc_strlcpy(t->netdev, ports.ports[0].netdev.name, sizeof(t->netdev));
	} else if (rdc_strlcpy(t->netdev, name, sizeof(t->netdev))) {
		rdc_ports_free(&ports);
		return rdc_usage_error(ctx, "'%s' is not an interface name", name);
	}
	/* Every RDMA port on this netdev: RDMA-CM settings live per port. */
	if (!rdc_ports_filter(&ports, t->netdev, NULL))
		for (size_t i = 0; i < ports.count && t->nports < RDC_DCB_TARGET_PORTS; i++) {
			rdc_strlcpy(t->ports[t->nports].device, ports.ports[i].device,
				    sizeof(t->ports[0].device));
			t->ports[t->nports++].port = ports.ports[i].port;
		}
	rdc_ports_free(&ports);
	return 0;
}

/* Why a DCB value is unknown: the driver's dcbnl reply lacked it, or there is no dcbnl. */
#define DCB_NONE (d->supported ? "not in the driver's dcbnl reply" : DCB_NO_OPS)
#define DCB_NO_OPS "the driver implements no dcbnl operations"

/* A section whose source could not be read: say so, never guess. */
static void emit_unknown(struct rdc_out *o, const char *key, const char *label, const char *why)
{
	rdc_out_obj_open(o, key);
	rdc_out_str(o, RDC_OUT_ANY, "source", NULL, "unknown");
	rdc_out_text(o, "  %-9s unknown (%s)\n", label, why);
	rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, why);
	rdc_out_obj_close(o);
}

static void emit_dcbx(struct rdc_out *o, const struct rdc_dcb *d)
{
	static const struct {
		uint8_t bit;
		const char *key;
	} flags[] = {
		{DCB_CAP_DCBX_HOST, "host"},	 {DCB_CAP_DCBX_LLD_MANAGED, "lld_managed"},
		{DCB_CAP_DCBX_VER_CEE, "cee"},	 {DCB_CAP_DCBX_VER_IEEE, "ieee"},
		{DCB_CAP_DCBX_STATIC, "static"},
	};

	if (!d->have_dcbx) {
		emit_unknown(o, "dcbx", "dcbx", DCB_NONE);
		return;
	}
	rdc_out_obj_open(o, "dcbx");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl");
	rdc_out_text(o, "  dcbx     ");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(flags); i++) {
		rdc_out_bool(o, RDC_OUT_MACHINE, flags[i].key, NULL, d->dcbx & flags[i].bit);
		if (d->dcbx & flags[i].bit)
			rdc_out_text(o, " %s", flags[i].key);
	}
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

static void emit_pfc(struct rdc_out *o, const struct rdc_dcb *d, const struct rdc_counter_set *st)
{
	if (!d->have_pfc) {
		emit_unknown(o, "pfc", "pfc", DCB_NONE);
		return;
	}
	rdc_out_obj_open(o, "pfc");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl");
	rdc_out_u64(o, RDC_OUT_ANY, "pfc_cap", "  pfc       cap %" PRIu64, d->pfc.pfc_cap);
	rdc_out_u64(o, RDC_OUT_ANY, "delay", "  delay %" PRIu64 " bit times", d->pfc.delay);
	rdc_out_text(o, "  enabled");
	rdc_out_arr_open(o, "enabled_prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		if (d->pfc.pfc_en & (1U << p))
			rdc_out_u64(o, RDC_OUT_ANY, NULL, " %" PRIu64, (uint64_t)p);
	rdc_out_arr_close(o);
	if (!d->pfc.pfc_en)
		rdc_out_text(o, " none");
	rdc_out_text(o, "\n            prio  enabled  requests(tx)  indications(rx)  "
			"tx_pause_us  rx_pause_us\n");
	rdc_out_arr_open(o, "prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++) {
		const struct rdc_counter *tx = NULL, *rx = NULL;
		char name[40];

		snprintf(name, sizeof(name), "tx_prio%d_pause_duration", p);
		tx = st ? rdc_counters_find(st, "driver", name) : NULL;
		snprintf(name, sizeof(name), "rx_prio%d_pause_duration", p);
		rx = st ? rdc_counters_find(st, "driver", name) : NULL;
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_ANY, "prio", "            %4" PRIu64, (uint64_t)p);
		rdc_out_bool(o, RDC_OUT_ANY, "enabled", "  %-7s", d->pfc.pfc_en & (1U << p));
		/* requests = PFC frames sent, indications = received (IEEE 802.1Qbb). */
		rdc_out_u64(o, RDC_OUT_ANY, "requests", "  %12" PRIu64, d->pfc.requests[p]);
		rdc_out_u64(o, RDC_OUT_ANY, "indications", "  %15" PRIu64, d->pfc.indications[p]);
		if (tx)
			rdc_out_u64(o, RDC_OUT_ANY, "tx_pause_duration_us", "  %11" PRIu64,
				    tx->value);
		else
			rdc_out_null(o, "tx_pause_duration_us", "            -");
		if (rx)
			rdc_out_u64(o, RDC_OUT_ANY, "rx_pause_duration_us", "  %11" PRIu64,
				    rx->value);
		else
			rdc_out_null(o, "rx_pause_duration_us", "            -");
		rdc_out_nl(o);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_str(o, RDC_OUT_MACHINE, "pause_duration_source", NULL, st ? "ethtool" : "unknown");
	rdc_out_obj_close(o);
}

static void emit_trust_map(struct rdc_out *o, const struct rdc_ofed_qos *q, const struct rdc_dcb *d)
{
	const char *ofed = q->trust;
	size_t n = rdc_dcb_dscp_count(d);

	/* MLNX_OFED has its own sysfs; upstream mlx5 trusts DSCP iff DSCP APP entries exist. */
	if (!ofed[0] && !d->supported) {
		emit_unknown(o, "trust", "trust", DCB_NO_OPS);
		emit_unknown(o, "dscp_prio", "dscp-prio", DCB_NO_OPS);
		return;
	}
	rdc_out_obj_open(o, "trust");
	if (ofed[0]) {
		rdc_out_str(o, RDC_OUT_ANY, "value", "  trust     %s", ofed);
		rdc_out_str(o, RDC_OUT_ANY, "source", " (%s)\n", "ofed-sysfs");
	} else {
		rdc_out_str(o, RDC_OUT_ANY, "value", "  trust     %s", n ? "dscp" : "pcp");
		rdc_out_str(o, RDC_OUT_ANY, "source", " (%s)\n", "dcbnl-app");
	}
	rdc_out_obj_close(o);
	rdc_out_obj_open(o, "dscp_prio");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl-app");
	rdc_out_text(o, "  dscp-prio");
	rdc_out_arr_open(o, "map");
	for (size_t i = 0; i < d->napps; i++) {
		if (d->apps[i].selector != IEEE_8021QAZ_APP_SEL_DSCP)
			continue;
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_ANY, "dscp", " %" PRIu64, d->apps[i].protocol);
		rdc_out_u64(o, RDC_OUT_ANY, "prio", ":%" PRIu64, d->apps[i].priority);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	if (!n)
		rdc_out_text(o, " none");
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

static void emit_u8_list(struct rdc_out *o, const char *key, const char *label, const uint8_t *v,
			 int n)
{
	rdc_out_text(o, "  %-9s", label);
	rdc_out_arr_open(o, key);
	for (int i = 0; i < n; i++) {
		rdc_out_text(o, " %d:", i);
		rdc_out_u64(o, RDC_OUT_ANY, NULL, "%" PRIu64, v[i]);
	}
	rdc_out_arr_close(o);
	rdc_out_nl(o);
}

static void emit_ets(struct rdc_out *o, const struct rdc_dcb *d)
{
	if (!d->have_ets) {
		emit_unknown(o, "ets", "ets", DCB_NONE);
		return;
	}
	rdc_out_obj_open(o, "ets");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl");
	rdc_out_u64(o, RDC_OUT_MACHINE, "ets_cap", NULL, d->ets.ets_cap);
	rdc_out_bool(o, RDC_OUT_MACHINE, "willing", NULL, d->ets.willing);
	emit_u8_list(o, "prio_tc", "prio-tc", d->ets.prio_tc, RDC_DCB_PRIOS);
	rdc_out_text(o, "  %-9s", "tc-tsa");
	rdc_out_arr_open(o, "tc_tsa");
	for (int t = 0; t < RDC_DCB_TCS; t++) {
		rdc_out_text(o, " %d:", t);
		rdc_out_str(o, RDC_OUT_ANY, NULL, "%s", rdc_dcb_tsa_name(d->ets.tc_tsa[t]));
	}
	rdc_out_arr_close(o);
	rdc_out_nl(o);
	emit_u8_list(o, "tc_bw", "tc-bw", d->ets.tc_tx_bw, RDC_DCB_TCS);
	rdc_out_obj_close(o);
}

static void emit_maxrate_buffer(struct rdc_out *o, const struct rdc_dcb *d)
{
	if (!d->have_maxrate) {
		emit_unknown(o, "maxrate", "maxrate", DCB_NONE);
	} else {
		rdc_out_obj_open(o, "maxrate");
		rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl");
		rdc_out_text(o, "  maxrate  ");
		rdc_out_arr_open(o, "tc_maxrate_kbps");
		for (int t = 0; t < RDC_DCB_TCS; t++) {
			rdc_out_text(o, " %d:", t);
			rdc_out_u64(o, RDC_OUT_ANY, NULL, "%" PRIu64, d->maxrate.tc_maxrate[t]);
		}
		rdc_out_arr_close(o);
		rdc_out_text(o, " (kbit/s, 0 = unlimited)\n");
		rdc_out_obj_close(o);
	}
	if (!d->have_buffer) {
		emit_unknown(o, "buffer", "buffer", DCB_NONE);
		return;
	}
	rdc_out_obj_open(o, "buffer");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "dcbnl");
	emit_u8_list(o, "prio_buffer", "prio-buf", d->buffer.prio2buffer, RDC_DCB_PRIOS);
	rdc_out_text(o, "  buf-size ");
	rdc_out_arr_open(o, "buffer_size_bytes");
	for (int b = 0; b < DCBX_MAX_BUFFERS; b++) {
		rdc_out_text(o, " %d:", b);
		rdc_out_u64(o, RDC_OUT_ANY, NULL, "%" PRIu64, d->buffer.buffer_size[b]);
	}
	rdc_out_arr_close(o);
	rdc_out_u64(o, RDC_OUT_ANY, "total_size_bytes", " total %" PRIu64 " bytes\n",
		    d->buffer.total_size);
	rdc_out_obj_close(o);
}

/* ECN and CNP live only in MLNX_OFED's sysfs (upstream has debugfs parameters only). */
static void emit_ecn(struct rdc_out *o, const struct rdc_ofed_qos *q)
{
	if (!q->have_ecn) {
		emit_unknown(o, "ecn", "ecn", "no MLNX_OFED ecn sysfs on this driver");
		emit_unknown(o, "cnp", "cnp", "no MLNX_OFED ecn sysfs on this driver");
		return;
	}
	rdc_out_obj_open(o, "ecn");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "ofed-sysfs");
	rdc_out_text(o, "  ecn       prio:np/rp");
	rdc_out_arr_open(o, "prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++) {
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_ANY, "prio", " %" PRIu64 ":", (uint64_t)p);
		if (q->ecn_np[p] >= 0)
			rdc_out_bool(o, RDC_OUT_ANY, "np", "%s", q->ecn_np[p]);
		else
			rdc_out_null(o, "np", "-");
		if (q->ecn_rp[p] >= 0)
			rdc_out_bool(o, RDC_OUT_ANY, "rp", "/%s", q->ecn_rp[p]);
		else
			rdc_out_null(o, "rp", "/-");
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
	rdc_out_obj_open(o, "cnp");
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "ofed-sysfs");
	rdc_out_text(o, "  cnp      ");
	if (q->cnp_dscp >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "dscp", " dscp %" PRId64, q->cnp_dscp);
	else
		rdc_out_null(o, "dscp", " dscp -");
	if (q->cnp_prio >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "prio", " prio %" PRId64, q->cnp_prio);
	else
		rdc_out_null(o, "prio", " prio -");
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

/* RDMA-CM defaults per RDMA port, from configfs (the directory exists once created). */
static void emit_roce(struct rdc_out *o, const struct rdc_dcb_target *t)
{
	rdc_out_arr_open(o, "roce");
	for (size_t i = 0; i < t->nports; i++) {
		struct rdc_rdma_cm_port cm;

		rdc_rdma_cm_read(t->ports[i].device, t->ports[i].port, &cm);
		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_ANY, "device", "  roce      %s", t->ports[i].device);
		rdc_out_u64(o, RDC_OUT_ANY, "port", "/%" PRIu64, t->ports[i].port);
		rdc_out_str(o, RDC_OUT_ANY, "source", " (%s)",
			    cm.have_mode || cm.have_tos ? "configfs" : "unknown");
		if (cm.have_mode)
			rdc_out_str(o, RDC_OUT_ANY, "default_roce_mode", " mode %s", cm.mode);
		else
			rdc_out_null(o, "default_roce_mode", " mode -");
		if (cm.have_tos)
			rdc_out_i64(o, RDC_OUT_ANY, "default_roce_tos", " tos %" PRId64, cm.tos);
		else
			rdc_out_null(o, "default_roce_tos", " tos -");
		if (!cm.have_mode && !cm.have_tos)
			rdc_out_text(o, " (rdma_cm configfs not set up for this device)");
		rdc_out_nl(o);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

static void pfc_emit_state(struct rdc_out *o, const struct rdc_dcb_target *t,
			   const struct rdc_dcb *dcb)
{
	struct rdc_counter_set stats = {0};
	bool have_stats = !rdc_netdev_driver_stats(t->netdev, &stats, NULL);
	struct rdc_ofed_qos ofed;

	rdc_ofed_qos_read(t->netdev, &ofed);
	emit_dcbx(o, dcb);
	emit_pfc(o, dcb, have_stats ? &stats : NULL);
	emit_trust_map(o, &ofed, dcb);
	emit_ets(o, dcb);
	emit_maxrate_buffer(o, dcb);
	emit_ecn(o, &ofed);
	emit_roce(o, t);
	rdc_counters_free(&stats);
}

/*
 * Every netdev that carries an RDMA port, once: *@names (malloc'd) and *@n.
 * A host has at most as many as it has ports; none is dropped.
 */
static int pfc_all_netdevs(char (**names)[IF_NAMESIZE], size_t *n, struct rdc_err *err)
{
	struct rdc_port_list ports;
	int rc;

	*names = NULL;
	*n = 0;
	rc = rdc_ports_read(&ports, err);
	if (rc)
		return rc;
	*names = calloc(ports.count + 1, sizeof(**names));
	if (!*names) {
		rdc_ports_free(&ports);
		return rdc_err_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < ports.count; i++) {
		bool seen = false;

		if (!ports.ports[i].has_netdev)
			continue;
		for (size_t k = 0; k < *n; k++)
			seen |= !strcmp((*names)[k], ports.ports[i].netdev.name);
		if (!seen)
			rdc_strlcpy((*names)[(*n)++], ports.ports[i].netdev.name, IF_NAMESIZE);
	}
	rdc_ports_free(&ports);
	return 0;
}

int pfc_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts)
{
	const char *dev = rdc_arg_value(act, args, "dev");
	char(*names)[IF_NAMESIZE] = NULL;
	struct rdc_err err = {0};
	struct rdc_dcb_target *targets;
	struct rdc_dcb *dcbs;
	const char *name = dev ? dev : args->object;
	size_t n = 1;
	int rc = 0;

	if (dev && args->object)
		return rdc_usage_error(ctx, "show: give 'dev NETDEV' or DEV[/PORT], not both");
	if (!name && pfc_all_netdevs(&names, &n, &err))
		return rdc_fail(ctx, &err);
	targets = calloc(n + 1, sizeof(*targets));
	dcbs = calloc(n + 1, sizeof(*dcbs));
	if (!targets || !dcbs) {
		free(names);
		free(targets);
		free(dcbs);
		return rdc_oom(ctx);
	}
	/* Read everything first: a failure prints no half document. */
	for (size_t i = 0; i < n && !rc; i++) {
		rc = pfc_target(ctx, name ? name : names[i], &targets[i]);
		/* No dcbnl is an answer to show (every DCB value unknown), not a failure. */
		if (!rc && rdc_dcb_read(targets[i].netdev, &dcbs[i], &err) &&
		    err.code != EOPNOTSUPP)
			rc = rdc_fail(ctx, &err);
	}
	if (!rc) {
		rdc_out_begin(ctx->out);
		rdc_out_arr_open(ctx->out, "devices");
		for (size_t i = 0; i < n; i++) {
			rdc_out_obj_open(ctx->out, NULL);
			rdc_out_str(ctx->out, RDC_OUT_ANY, "netdev", "%s:\n", targets[i].netdev);
			pfc_emit_state(ctx->out, &targets[i], &dcbs[i]);
			rdc_out_obj_close(ctx->out);
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
	}
	/* An empty list is a document, but nothing to show is worth saying (and exit 1). */
	if (!rc && !n) {
		rdc_err_set(&err, 0, "no netdev carries an RDMA port: nothing to show");
		rc = rdc_fail(ctx, &err);
	}
	free(names);
	free(targets);
	free(dcbs);
	return rc;
}
