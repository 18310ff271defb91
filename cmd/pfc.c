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
#include "dcb/dscp.h"
#include "dcb/members.h"
#include "dcb/verdict.h"
#include "pfc.h"
#include "term.h"

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
static const struct rdc_val_map map_dscp_prio = {.nkeys = RDC_DSCP_COUNT,
						 .dscp_keys = true,
						 .kind = RDC_MAP_NUMBER,
						 .max = 7,
						 .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_map map_ecn =
	MAP(RDC_DCB_PRIOS, true, RDC_MAP_ONOFF, 1, bool, SET_WANT(ecn_given));
static const struct rdc_val_uint delay_range = {
	.min = 0, .max = 65535, .size = sizeof(uint16_t), .given = SET_WANT(delay_given)};
static const struct rdc_val_enum trust_enum = {.names = trust_values, .values = trust_codes};
static const struct rdc_val_enum mode_enum = {.names = mode_values, .values = mode_codes};

/*
 * dscp-prio-del DSCP...: the APP entries of each DSCP deleted, whatever
 * priority they give (`dcb app del dev X dscp-prio 26:3` names it too).
 */
static int pfc_dscp_del(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
			void *opts)
{
	int *dscp_prio = (int *)(void *)((char *)opts + p->dest);

	for (int i = 0; i < n; i++) {
		unsigned int d;

		if (!rdc_dscp_parse(w[i], &d))
			return rdc_usage_error(
				ctx, "'%s %s': not a DSCP (0-63, or CS0-CS7, AF11-AF43, EF, VA)",
				p->name, w[i]);
		dscp_prio[d] = RDC_DCB_DSCP_NONE;
	}
	return 0;
}

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
	{.name = "dscp-prio-del",
	 .metavar = "DSCP...",
	 .words = true,
	 .help = "delete the APP entries of these DSCPs (dcb app del)",
	 .parse = pfc_dscp_del,
	 .dest = SET_WANT(dscp_prio)},
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
static int pfc_profile(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	struct rdc_dcb_profile *prof = (void *)((char *)opts + p->dest);

	(void)n;
	if (rdc_dcb_profile_init(prof, w[0]))
		return rdc_usage_error(ctx, "unknown profile '%s' (roce-lossless)", w[0]);
	return 0;
}

static const struct rdc_val_uint prio_range = {
	.min = 0, .max = 7, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};
static const struct rdc_val_uint dscp_range = {
	.min = 0, .max = 63, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};

/* The profile and its parameters: one set of entries for apply (what to set) and show (what to judge by). */
#define PFC_PROFILE_PARAMS(opts_type)                                                              \
	{.name = "profile",                                                                        \
	 .metavar = "NAME",                                                                        \
	 .suggest = rdc_dcb_profile_names,                                                         \
	 .help = "roce-lossless: DSCP trust, PFC on one priority, CNP strict",                     \
	 .parse = pfc_profile,                                                                     \
	 .dest = offsetof(opts_type, profile)},                                                    \
		{.name = "prio",                                                                   \
		 .metavar = "P",                                                                   \
		 .help = "the lossless RoCE priority (default 3)",                                 \
		 .parse = rdc_val_uint,                                                            \
		 .dest = offsetof(opts_type, profile.prio),                                        \
		 .spec = &prio_range},                                                             \
		{.name = "dscp",                                                                   \
		 .metavar = "DSCP",                                                                \
		 .help = "the RoCE data DSCP (default 26)",                                        \
		 .parse = rdc_val_uint,                                                            \
		 .dest = offsetof(opts_type, profile.dscp),                                        \
		 .spec = &dscp_range},                                                             \
		{.name = "cnp-dscp",                                                               \
		 .metavar = "DSCP",                                                                \
		 .help = "the CNP DSCP (default 48)",                                              \
		 .parse = rdc_val_uint,                                                            \
		 .dest = offsetof(opts_type, profile.cnp_dscp),                                    \
		 .spec = &dscp_range},                                                             \
	{                                                                                          \
		.name = "cnp-prio", .metavar = "P", .help = "the CNP priority (default 6)",        \
		.parse = rdc_val_uint, .dest = offsetof(opts_type, profile.cnp_prio),              \
		.spec = &prio_range                                                                \
	}

static const struct rdc_param pfc_show_params[] = {
	{.name = "dev",
	 .metavar = "NETDEV",
	 .value_kind = RDC_COMPLETE_PORT,
	 .help = "the netdev, or an RDMA DEV[/PORT] on it"},
	PFC_PROFILE_PARAMS(struct pfc_show_opts),
	{.name = NULL},
};

/* show judges by roce-lossless unless told otherwise. */
static void pfc_show_defaults(void *opts)
{
	struct pfc_show_opts *so = opts;

	rdc_dcb_profile_init(&so->profile, "roce-lossless");
}

static const struct rdc_param pfc_apply_params[] = {
	PFC_DEV_PARAM(struct pfc_apply_opts),
	PFC_PROFILE_PARAMS(struct pfc_apply_opts),
	{.name = "-f",
	 .metavar = "FILE",
	 .alone = true,
	 .alone_but = "dev",
	 .help = "apply a YAML file of devices instead (see rdmactl.yaml(5)); with dev NETDEV, "
		 "only what it says for NETDEV",
	 .value_kind = RDC_COMPLETE_FILE,
	 .parse = rdc_val_string,
	 .dest = offsetof(struct pfc_apply_opts, file)},
	{.name = NULL},
};

static const struct rdc_action pfc_actions[] = {
	{.name = "show",
	 .synopsis = "[dev NETDEV | DEV[/PORT]] [profile NAME] [prio P] [dscp D]",
	 .help = "PFC, ETS, trust, DSCP map, ECN, RoCE ToS; a verdict against a profile",
	 .run = pfc_show_run,
	 .params = pfc_show_params,
	 .object = RDC_COMPLETE_PORT,
	 .opts_size = sizeof(struct pfc_show_opts),
	 .opts_init = pfc_show_defaults},
	{.name = "set",
	 .synopsis = "dev NETDEV KEYWORD VALUE...",
	 .help = "change DCB in dcb's grammar; only what differs is sent, then verified",
	 .run = pfc_set_run,
	 .params = pfc_set_params,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct pfc_set_opts),
	 .opts_init = pfc_set_defaults},
	{.name = "apply",
	 .synopsis = "dev NETDEV profile NAME [prio P] [dscp D] ... | -f FILE [dev NETDEV]",
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

int pfc_targets_of(const char *name, struct rdc_dcb_targets *ts, struct rdc_err *err)
{
	struct rdc_port_list ports;
	int rc;

	memset(ts, 0, sizeof(*ts));
	rc = rdc_ports_read(&ports, err);
	if (rc)
		return rc;
	rc = name ? rdc_dcb_targets_of(&ports, name, ts, err)
		  : rdc_dcb_targets_all(&ports, ts, err);
	rdc_ports_free(&ports);
	return rc;
}

int pfc_targets(struct rdc_ctx *ctx, const char *name, struct rdc_dcb_targets *ts)
{
	struct rdc_err err = {0};

	if (pfc_targets_of(name, ts, &err))
		return rdc_fail(ctx, &err);
	/* A name above the ports (a VLAN, an address, a bond) acts on them: say which. */
	for (size_t i = 0; name && i < ts->count; i++)
		if (strcmp(ts->items[i].netdev, name))
			log_info("pfc: '%s' is on %s (%s): its DCB is %s's", name,
				 ts->items[i].netdev, rdc_port_relation_name(ts->items[i].relation),
				 ts->items[i].netdev);
	return 0;
}

/* Why a DCB value is unknown: the driver's dcbnl reply lacked it, or there is no dcbnl. */
const char pfc_why_no_dcb[] = "the driver implements no dcbnl operations";
const char pfc_why_no_ecn[] = "no MLNX_OFED ecn sysfs on this driver";
const char pfc_why_no_cm[] = "rdma_cm configfs not set up for this device";
#define DCB_NOT_IN_REPLY "not in the driver's dcbnl reply"
#define DCB_CORRUPT "the dcbnl reply's values are out of range: left out"

const char *pfc_dcb_why(const struct rdc_dcb *d, bool corrupt)
{
	if (!d->supported)
		return pfc_why_no_dcb;
	return corrupt ? DCB_CORRUPT : DCB_NOT_IN_REPLY;
}

/* The keys of each section besides source and reason: null when the section is unknown. */
static const char *const keys_dcbx[] = {"host", "lld_managed", "cee", "ieee", "static", NULL};
static const char *const keys_pfc[] = {
	"pfc_cap", "delay_bits", "enabled_prios", "prios", "pause_duration_source", NULL};
const char *const pfc_keys_pfc_config[] = {"pfc_cap", "delay_bits", "enabled_prios", NULL};
const char *const pfc_keys_ets[] = {"ets_cap", "willing", "prio_tc", "tc_tsa", "tc_bw_pct", NULL};
const char *const pfc_keys_maxrate[] = {"tc_maxrate_kbps", NULL};
const char *const pfc_keys_buffer[] = {"prio_buffer", "buffer_size_bytes", "total_size_bytes",
				       NULL};
const char *const pfc_keys_trust[] = {"value", NULL};
const char *const pfc_keys_dscp_prio[] = {"map", NULL};
const char *const pfc_keys_ecn[] = {"prios", NULL};
const char *const pfc_keys_cnp[] = {"dscp", "prio", NULL};

/* A section whose source could not be read: say so, never guess; every key there, null. */
void pfc_emit_unknown(struct rdc_out *o, const char *key, const char *label, const char *why,
		      const char *const *keys)
{
	rdc_out_obj_open(o, key);
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, "unknown");
	rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, why);
	if (label)
		rdc_out_text(o, "  %-9s unknown (%s)\n", label, why);
	for (size_t i = 0; keys[i]; i++)
		rdc_out_null(o, keys[i], NULL);
	rdc_out_obj_close(o);
}

void pfc_section_open(struct rdc_out *o, const char *key, const char *source)
{
	rdc_out_obj_open(o, key);
	rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, source);
	rdc_out_null(o, "reason", NULL);
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
		pfc_emit_unknown(o, "dcbx", "dcbx", pfc_dcb_why(d, false), keys_dcbx);
		return;
	}
	pfc_section_open(o, "dcbx", "dcbnl");
	rdc_out_text(o, "  dcbx     ");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(flags); i++) {
		rdc_out_bool(o, RDC_OUT_MACHINE, flags[i].key, NULL, d->dcbx & flags[i].bit);
		if (d->dcbx & flags[i].bit)
			rdc_out_text(o, " %s", flags[i].key);
	}
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

/*
 * A text line of a mapping in dcb's words, "  LABEL    K:V K:V ...", that
 * goes on under its first entry when it would pass the terminal's width.
 */
#define MAP_HANG 12

static void map_begin(struct rdc_tline *l, struct rdc_out *o, const char *label)
{
	rdc_tline_begin(l, o, 2, MAP_HANG);
	rdc_tline_text(l, RDC_TL_JOIN, RDC_COLOR_NONE, "%-9s", label);
}

/* One K:V entry of a number, the number into the open array. */
static void map_u64(struct rdc_tline *l, int k, uint64_t v)
{
	char e[40];

	snprintf(e, sizeof(e), "%d:%" PRIu64, k, v);
	rdc_tline_keep(l, RDC_TL_SPACE, (int)strlen(e));
	rdc_tline_text(l, RDC_TL_SPACE, RDC_COLOR_NONE, "%d:", k);
	rdc_tline_u64(l, RDC_TL_JOIN, NULL, "%" PRIu64, v);
}

/* The same with a word ("ets"), the word into the open array. */
static void map_str(struct rdc_tline *l, int k, const char *v)
{
	char e[40];

	snprintf(e, sizeof(e), "%d:%s", k, v);
	rdc_tline_keep(l, RDC_TL_SPACE, (int)strlen(e));
	rdc_tline_text(l, RDC_TL_SPACE, RDC_COLOR_NONE, "%d:", k);
	rdc_tline_str(l, RDC_TL_JOIN, NULL, "%s", v, RDC_COLOR_NONE);
}

static void emit_pfc(struct rdc_out *o, const struct rdc_dcb *d, const struct rdc_counter_set *st)
{
	struct rdc_tline l;

	if (!d->have_pfc) {
		pfc_emit_unknown(o, "pfc", "pfc", pfc_dcb_why(d, false), keys_pfc);
		return;
	}
	pfc_section_open(o, "pfc", "dcbnl");
	/* dcb pfc show's words: pfc-cap, delay (bit times), prio-pfc P:on|off. */
	rdc_out_u64(o, RDC_OUT_ANY, "pfc_cap", "  pfc       pfc-cap %" PRIu64, d->pfc.pfc_cap);
	rdc_out_u64(o, RDC_OUT_ANY, "delay_bits", " delay %" PRIu64 "\n", d->pfc.delay);
	map_begin(&l, o, "prio-pfc");
	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "%d:%s", p,
			       d->pfc.pfc_en & (1U << p) ? "on" : "off");
	rdc_tline_end(&l);
	rdc_out_arr_open(o, "enabled_prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		if (d->pfc.pfc_en & (1U << p))
			rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, (uint64_t)p);
	rdc_out_arr_close(o);
	rdc_out_text(o, "            prio  pfc  requests(tx)  indications(rx)  "
			"tx_pause_us  rx_pause_us\n");
	rdc_out_arr_open(o, "prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++) {
		const struct rdc_counter *tx = NULL, *rx = NULL;
		bool on = d->pfc.pfc_en & (1U << p);
		char name[40];

		snprintf(name, sizeof(name), "tx_prio%d_pause_duration", p);
		tx = st ? rdc_counters_find(st, "driver", name) : NULL;
		snprintf(name, sizeof(name), "rx_prio%d_pause_duration", p);
		rx = st ? rdc_counters_find(st, "driver", name) : NULL;
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_ANY, "prio", "            %4" PRIu64, (uint64_t)p);
		rdc_out_bool(o, RDC_OUT_MACHINE, "enabled", NULL, on);
		rdc_out_text(o, "  %-3s", on ? "on" : "off");
		/* requests = PFC frames sent, indications = received (IEEE 802.1Qbb). */
		rdc_out_u64(o, RDC_OUT_ANY, "tx_pfc_frames", "  %12" PRIu64, d->pfc.requests[p]);
		rdc_out_u64(o, RDC_OUT_ANY, "rx_pfc_frames", "  %15" PRIu64, d->pfc.indications[p]);
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

const char *pfc_trust(const struct rdc_ofed_qos *q, const struct rdc_dcb *d)
{
	if (q->trust[0])
		return q->trust;
	return rdc_dcb_dscp_count(d) ? "dscp" : "pcp";
}

void pfc_emit_dscp_map(struct rdc_out *o, const char *key, const struct rdc_dcb *d)
{
	struct dcb_app sorted[RDC_DCB_MAX_APPS];
	size_t n = rdc_dcb_dscp_sorted(d->apps, d->napps, sorted);

	rdc_out_arr_open(o, key);
	for (size_t i = 0; i < n; i++) {
		rdc_out_obj_open(o, NULL);
		rdc_out_u64(o, RDC_OUT_MACHINE, "dscp", NULL, sorted[i].protocol);
		rdc_out_u64(o, RDC_OUT_MACHINE, "prio", NULL, sorted[i].priority);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

static void emit_trust_map(struct rdc_out *o, const struct rdc_ofed_qos *q, const struct rdc_dcb *d)
{
	const char *source = q->trust[0] ? "ofed-sysfs" : "dcbnl-app";
	struct rdc_tline l;
	char ranges[3072];

	/* MLNX_OFED has its own sysfs; upstream mlx5 trusts DSCP iff DSCP APP entries exist. */
	if (!q->trust[0] && !d->supported) {
		pfc_emit_unknown(o, "trust", "trust", pfc_why_no_dcb, pfc_keys_trust);
	} else {
		pfc_section_open(o, "trust", source);
		rdc_out_str(o, RDC_OUT_ANY, "value", "  trust     %s", pfc_trust(q, d));
		rdc_out_text(o, " (%s)\n", source);
		rdc_out_obj_close(o);
	}
	/* The APP table is dcbnl's, whatever MLNX_OFED's trust file says. */
	if (!d->supported) {
		pfc_emit_unknown(o, "dscp_prio", "dscp-prio", pfc_why_no_dcb, pfc_keys_dscp_prio);
		return;
	}
	pfc_section_open(o, "dscp_prio", "dcbnl-app");
	/* Text: ranges of DSCPs with one priority (a DSCP-trusting mlx5 often has all 64). */
	rdc_dcb_dscp_ranges(d->apps, d->napps, ranges, sizeof(ranges));
	map_begin(&l, o, "dscp-prio");
	rdc_tline_words(&l, RDC_TL_SPACE, ranges[0] ? ranges : "none");
	rdc_tline_end(&l);
	pfc_emit_dscp_map(o, "map", d);
	rdc_out_obj_close(o);
}

static void emit_u8_list(struct rdc_out *o, const char *key, const char *label, const uint8_t *v,
			 int n)
{
	struct rdc_tline l;

	map_begin(&l, o, label);
	rdc_out_arr_open(o, key);
	for (int i = 0; i < n; i++)
		map_u64(&l, i, v[i]);
	rdc_out_arr_close(o);
	rdc_tline_end(&l);
}

static void emit_ets(struct rdc_out *o, const struct rdc_dcb *d)
{
	struct rdc_tline l;

	if (!d->have_ets) {
		pfc_emit_unknown(o, "ets", "ets", pfc_dcb_why(d, d->ets_invalid), pfc_keys_ets);
		return;
	}
	pfc_section_open(o, "ets", "dcbnl");
	rdc_out_u64(o, RDC_OUT_MACHINE, "ets_cap", NULL, d->ets.ets_cap);
	rdc_out_bool(o, RDC_OUT_MACHINE, "willing", NULL, d->ets.willing);
	emit_u8_list(o, "prio_tc", "prio-tc", d->ets.prio_tc, RDC_DCB_PRIOS);
	map_begin(&l, o, "tc-tsa");
	rdc_out_arr_open(o, "tc_tsa");
	for (int t = 0; t < RDC_DCB_TCS; t++)
		map_str(&l, t, rdc_dcb_tsa_name(d->ets.tc_tsa[t]));
	rdc_out_arr_close(o);
	rdc_tline_end(&l);
	emit_u8_list(o, "tc_bw_pct", "tc-bw", d->ets.tc_tx_bw, RDC_DCB_TCS);
	rdc_out_obj_close(o);
}

static void emit_maxrate_buffer(struct rdc_out *o, const struct rdc_dcb *d)
{
	struct rdc_tline l;
	char total[48];

	if (!d->have_maxrate) {
		pfc_emit_unknown(o, "maxrate", "maxrate", pfc_dcb_why(d, false), pfc_keys_maxrate);
	} else {
		pfc_section_open(o, "maxrate", "dcbnl");
		map_begin(&l, o, "maxrate");
		rdc_out_arr_open(o, "tc_maxrate_kbps");
		for (int t = 0; t < RDC_DCB_TCS; t++)
			map_u64(&l, t, d->maxrate.tc_maxrate[t]);
		rdc_out_arr_close(o);
		rdc_tline_keep(&l, RDC_TL_SPACE, (int)strlen("(kbit/s, 0 = unlimited)"));
		rdc_tline_words(&l, RDC_TL_SPACE, "(kbit/s, 0 = unlimited)");
		rdc_tline_end(&l);
		rdc_out_obj_close(o);
	}
	if (!d->have_buffer) {
		pfc_emit_unknown(o, "buffer", "buffer", pfc_dcb_why(d, d->buffer_invalid),
				 pfc_keys_buffer);
		return;
	}
	pfc_section_open(o, "buffer", "dcbnl");
	emit_u8_list(o, "prio_buffer", "prio-buf", d->buffer.prio2buffer, RDC_DCB_PRIOS);
	map_begin(&l, o, "buf-size");
	rdc_out_arr_open(o, "buffer_size_bytes");
	for (int b = 0; b < DCBX_MAX_BUFFERS; b++)
		map_u64(&l, b, d->buffer.buffer_size[b]);
	rdc_out_arr_close(o);
	snprintf(total, sizeof(total), "total %u bytes", d->buffer.total_size);
	rdc_tline_keep(&l, RDC_TL_SPACE, (int)strlen(total));
	rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "total");
	rdc_tline_u64(&l, RDC_TL_SPACE, "total_size_bytes", "%" PRIu64, d->buffer.total_size);
	rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "bytes");
	rdc_tline_end(&l);
	rdc_out_obj_close(o);
}

/* An ECN switch of MLNX_OFED's sysfs: on/off, or "-" (null) when unreadable. */
static void ecn_switch(struct rdc_tline *l, const char *key, const char *sep, int v)
{
	if (v >= 0) {
		rdc_out_bool(l->o, RDC_OUT_MACHINE, key, NULL, v);
		rdc_tline_text(l, RDC_TL_JOIN, RDC_COLOR_NONE, "%s%s", sep, v ? "on" : "off");
	} else {
		rdc_tline_null(l, RDC_TL_JOIN, key, *sep ? "/-" : "-");
	}
}

/* ECN and CNP live only in MLNX_OFED's sysfs (upstream has debugfs parameters only). */
static void emit_ecn(struct rdc_out *o, const struct rdc_ofed_qos *q)
{
	struct rdc_tline l;

	if (!q->have_ecn) {
		pfc_emit_unknown(o, "ecn", "ecn", pfc_why_no_ecn, pfc_keys_ecn);
		pfc_emit_unknown(o, "cnp", "cnp", pfc_why_no_ecn, pfc_keys_cnp);
		return;
	}
	pfc_section_open(o, "ecn", "ofed-sysfs");
	map_begin(&l, o, "ecn");
	rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "prio:np/rp");
	rdc_out_arr_open(o, "prios");
	for (int p = 0; p < RDC_DCB_PRIOS; p++) {
		rdc_out_obj_open(o, NULL);
		rdc_tline_keep(&l, RDC_TL_SPACE, (int)strlen("0:off/off"));
		rdc_tline_u64(&l, RDC_TL_SPACE, "prio", "%" PRIu64 ":", (uint64_t)p);
		ecn_switch(&l, "np", "", q->ecn_np[p]);
		ecn_switch(&l, "rp", "/", q->ecn_rp[p]);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_tline_end(&l);
	rdc_out_obj_close(o);
	pfc_section_open(o, "cnp", "ofed-sysfs");
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
		struct rdc_tline l;

		rdc_rdma_cm_read(t->ports[i].device, t->ports[i].port, &cm);
		rdc_out_obj_open(o, NULL);
		map_begin(&l, o, "roce");
		rdc_tline_str(&l, RDC_TL_SPACE, "device", "%s", t->ports[i].device, RDC_COLOR_NONE);
		rdc_tline_u64(&l, RDC_TL_JOIN, "port", "/%" PRIu64, t->ports[i].port);
		rdc_tline_str(&l, RDC_TL_SPACE, "source", "(%s)",
			      cm.have_mode || cm.have_tos ? "configfs" : "unknown", RDC_COLOR_NONE);
		if (cm.have_mode || cm.have_tos)
			rdc_out_null(o, "reason", NULL);
		else
			rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, pfc_why_no_cm);
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "mode");
		if (cm.have_mode)
			rdc_tline_str(&l, RDC_TL_SPACE, "default_roce_mode", "%s", cm.mode,
				      RDC_COLOR_NONE);
		else
			rdc_tline_null(&l, RDC_TL_SPACE, "default_roce_mode", "-");
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "tos");
		if (cm.have_tos)
			rdc_tline_i64(&l, RDC_TL_SPACE, "default_roce_tos", "%" PRId64, cm.tos);
		else
			rdc_tline_null(&l, RDC_TL_SPACE, "default_roce_tos", "-");
		if (!cm.have_mode && !cm.have_tos) {
			char why[64];

			snprintf(why, sizeof(why), "(%s)", pfc_why_no_cm);
			rdc_tline_words(&l, RDC_TL_SPACE, why);
		}
		rdc_tline_end(&l);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
}

/* A verdict value in text: on/off, a number, a word, "none" for no value. */
static void vval_text(const struct rdc_vval *v, char *buf, size_t size)
{
	switch (v->type) {
	case RDC_VVAL_BOOL:
		snprintf(buf, size, "%s", v->b ? "on" : "off");
		break;
	case RDC_VVAL_UINT:
		snprintf(buf, size, "%" PRIu64, v->u);
		break;
	case RDC_VVAL_STR:
		snprintf(buf, size, "%s", v->s);
		break;
	case RDC_VVAL_NULL:
		snprintf(buf, size, "none");
		break;
	}
}

static void vval_out(struct rdc_out *o, const char *key, const struct rdc_vval *v)
{
	switch (v->type) {
	case RDC_VVAL_BOOL:
		rdc_out_bool(o, RDC_OUT_MACHINE, key, NULL, v->b);
		break;
	case RDC_VVAL_UINT:
		rdc_out_u64(o, RDC_OUT_MACHINE, key, NULL, v->u);
		break;
	case RDC_VVAL_STR:
		rdc_out_str(o, RDC_OUT_MACHINE, key, NULL, v->s);
		break;
	case RDC_VVAL_NULL:
		rdc_out_null(o, key, NULL);
		break;
	}
}

#define VERDICT_INDENT "              "

/*
 * The differences in text, one line per keyword in pfc set's grammar, what
 * is there and what the profile wants: "prio-pfc 4:on 6:on (want 4:off
 * 6:off)", "trust pcp (want dscp)"; a line that would pass the terminal's
 * width goes on in the next.
 */
static void emit_verdict_lines(struct rdc_out *o, const struct rdc_dcb_verdict *v)
{
	char have[256] = "", want[256] = "";
	size_t width = (size_t)rdc_term_width(), start = 0;

	for (size_t i = 0; i < v->ndiffs; i++) {
		const struct rdc_dcb_difference *d = &v->diffs[i];
		char hv[48], wv[48], h[128], w[128];

		vval_text(&d->have, hv, sizeof(hv));
		vval_text(&d->want, wv, sizeof(wv));
		snprintf(h, sizeof(h), "%s%s%s", d->key, d->key[0] ? ":" : "", hv);
		snprintf(w, sizeof(w), "%s%s%s", d->key, d->key[0] ? ":" : "", wv);
		if (i > start && (strcmp(d->keyword, v->diffs[start].keyword) ||
				  sizeof(VERDICT_INDENT) + strlen(d->keyword) + strlen(have) +
						  strlen(want) + strlen(h) + strlen(w) + 10 >
					  width)) {
			rdc_out_text(o, VERDICT_INDENT "%s %s (want %s)\n", v->diffs[start].keyword,
				     have, want);
			have[0] = want[0] = '\0';
			start = i;
		}
		snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
			 have[0] ? " " : "", h);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
			 want[0] ? " " : "", w);
	}
	if (v->ndiffs)
		rdc_out_text(o, VERDICT_INDENT "%s %s (want %s)\n", v->diffs[start].keyword, have,
			     want);
}

/* The verdict word of brief lines and the text's first verdict line. */
static const char *verdict_word(const struct rdc_dcb_verdict *v)
{
	switch (v->result) {
	case RDC_VERDICT_MATCHES:
		return "matches";
	case RDC_VERDICT_DIFFERS:
		return "differs";
	case RDC_VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
}

/*
 * The fix of a verdict that differs: the profile applied to the netdev, or
 * to the bond of a member (a bond's members are set together and kept alike).
 */
static void emit_verdict_fix(struct rdc_out *o, const struct rdc_dcb_target *t,
			     const struct rdc_dcb_verdict *v)
{
	bool member =
		t->upper[0] && (t->relation == RDC_REL_ROCE_LAG || t->relation == RDC_REL_MEMBER);
	struct rdc_argv a;
	char line[RDC_ARGV_MAX * RDC_ARGV_WORD];

	if (v->result != RDC_VERDICT_DIFFERS || !v->profile.name) {
		rdc_out_null(o, "fix_command", NULL);
		rdc_out_null(o, "fix_argv", NULL);
		return;
	}
	rdc_dcb_profile_argv(&v->profile, member ? t->upper : t->netdev, &a);
	rdc_argv_join(&a, line, sizeof(line));
	rdc_out_str(o, RDC_OUT_ANY, "fix_command", "  fix       %s\n", line);
	rdc_out_arr_open(o, "fix_argv");
	for (size_t i = 0; i < a.argc; i++)
		rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL, a.argv[i]);
	rdc_out_arr_close(o);
}

static void emit_verdict(struct rdc_out *o, const struct rdc_dcb_target *t,
			 const struct rdc_dcb_verdict *v)
{
	const struct rdc_dcb_profile *p = &v->profile;

	rdc_out_obj_open(o, "verdict");
	rdc_out_str(o, RDC_OUT_MACHINE, "profile", NULL, p->name);
	rdc_out_u64(o, RDC_OUT_MACHINE, "prio", NULL, p->prio);
	rdc_out_u64(o, RDC_OUT_MACHINE, "dscp", NULL, p->dscp);
	rdc_out_u64(o, RDC_OUT_MACHINE, "cnp_dscp", NULL, p->cnp_dscp);
	rdc_out_u64(o, RDC_OUT_MACHINE, "cnp_prio", NULL, p->cnp_prio);
	switch (v->result) {
	case RDC_VERDICT_UNKNOWN:
		rdc_out_null(o, "matches", NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, v->reason);
		rdc_out_text(o, "  verdict   unknown (%s)\n", v->reason);
		break;
	case RDC_VERDICT_MATCHES:
		rdc_out_bool(o, RDC_OUT_MACHINE, "matches", NULL, true);
		rdc_out_null(o, "reason", NULL);
		rdc_out_text(o, "  verdict   matches %s (prio %u, dscp %u)\n", p->name, p->prio,
			     p->dscp);
		break;
	case RDC_VERDICT_DIFFERS:
		rdc_out_bool(o, RDC_OUT_MACHINE, "matches", NULL, false);
		rdc_out_null(o, "reason", NULL);
		rdc_out_text(o, "  verdict   differs from %s (prio %u, dscp %u):\n", p->name,
			     p->prio, p->dscp);
		emit_verdict_lines(o, v);
		break;
	}
	rdc_out_arr_open(o, "differences");
	/* One value per key: the key path, the entry (priority, TC, DSCP) and the RDMA port apart. */
	for (size_t i = 0; i < v->ndiffs; i++) {
		const struct rdc_dcb_difference *d = &v->diffs[i];

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "what", NULL, d->path);
		if (d->index >= 0)
			rdc_out_u64(o, RDC_OUT_MACHINE, "index", NULL, (uint64_t)d->index);
		else
			rdc_out_null(o, "index", NULL);
		if (d->device[0]) {
			rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, d->device);
			rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, d->port);
		} else {
			rdc_out_null(o, "device", NULL);
			rdc_out_null(o, "port", NULL);
		}
		vval_out(o, "have", &d->have);
		vval_out(o, "want", &d->want);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	emit_verdict_fix(o, t, v);
	rdc_out_obj_close(o);
}

static void pfc_emit_state(struct rdc_out *o, const struct rdc_dcb_target *t,
			   const struct rdc_dcb *dcb, const struct rdc_dcb_verdict *v)
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
	emit_verdict(o, t, v);
	rdc_counters_free(&stats);
}

/*
 * -b: one text line per netdev, columns as wide as their widest value:
 * NETDEV, the PFC priorities, trust, the DSCP map in ranges, the verdict.
 *
 *   ens1f0np0  pfc 3,4,6  trust dscp  dscp-prio 24:3 48:6  differs
 *   bond0      pfc -      trust -     dscp-prio -          unknown
 */
struct brief_line {
	char name[2 * IF_NAMESIZE + 1], pfc[32], trust[32], map[3100];
};

static void brief_fill(const struct rdc_dcb_target *t, const struct rdc_dcb *d,
		       struct brief_line *b)
{
	struct rdc_ofed_qos q;
	char ranges[3072];
	size_t len;

	rdc_ofed_qos_read(t->netdev, &q);
	len = (size_t)snprintf(b->pfc, sizeof(b->pfc), "pfc %s",
			       d->have_pfc ? (d->pfc.pfc_en ? "" : "none") : "-");
	for (int p = 0; d->have_pfc && p < RDC_DCB_PRIOS; p++)
		if (d->pfc.pfc_en & (1U << p))
			len += (size_t)snprintf(b->pfc + len, sizeof(b->pfc) - len, "%s%d",
						d->pfc.pfc_en & ((1U << p) - 1) ? "," : "", p);
	snprintf(b->trust, sizeof(b->trust), "trust %s",
		 q.trust[0] || d->supported ? pfc_trust(&q, d) : "-");
	if (!d->supported)
		snprintf(ranges, sizeof(ranges), "-");
	else if (!rdc_dcb_dscp_ranges(d->apps, d->napps, ranges, sizeof(ranges)))
		snprintf(ranges, sizeof(ranges), "none");
	snprintf(b->map, sizeof(b->map), "dscp-prio %s", ranges);
}

/* The bond @i belongs to, as the index of its first member; n when it is no member. */
static size_t bond_first(const struct rdc_dcb_targets *ts, size_t i);

static int pfc_show_brief(struct rdc_ctx *ctx, const struct rdc_dcb_targets *ts,
			  const struct rdc_dcb *dcbs, const struct rdc_dcb_verdict *v,
			  const struct rdc_members_agreement *agree)
{
	size_t n = ts->count;
	struct brief_line *lines = calloc(n + 1, sizeof(*lines));
	struct rdc_table table;

	if (!lines)
		return rdc_oom(ctx);
	rdc_table_init(&table, 5);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			const struct rdc_dcb_target *t = &ts->items[i];
			size_t g = bond_first(ts, i);
			bool differ = g < n && agree[g].result == RDC_MEMBERS_DIFFER;
			const char *cells[] = {lines[i].name, lines[i].pfc, lines[i].trust,
					       lines[i].map,
					       differ ? "members-differ" : verdict_word(&v[i])};
			const enum rdc_color colors[] = {
				RDC_COLOR_NONE, RDC_COLOR_NONE, RDC_COLOR_NONE, RDC_COLOR_NONE,
				differ || v[i].result == RDC_VERDICT_DIFFERS ? RDC_COLOR_RED
				: v[i].result == RDC_VERDICT_MATCHES	     ? RDC_COLOR_GREEN
									     : RDC_COLOR_YELLOW};

			if (pass == 0) {
				/* A member says its bond: "ens1f0np0@bond0". */
				snprintf(lines[i].name, sizeof(lines[i].name), "%s%s%s", t->netdev,
					 t->upper[0] ? "@" : "", t->upper);
				brief_fill(t, &dcbs[i], &lines[i]);
				rdc_table_fit(&table, cells);
			} else {
				rdc_table_row(&table, ctx->out, cells, colors);
			}
		}
	free(lines);
	return 0;
}

/* Whether targets @i and @i-1 are members of one bond (grouped under it). */
static bool same_bond(const struct rdc_dcb_targets *ts, size_t i)
{
	const struct rdc_dcb_target *t = &ts->items[i];

	return t->upper[0] && (t->relation == RDC_REL_ROCE_LAG || t->relation == RDC_REL_MEMBER) &&
	       i > 0 && !strcmp(ts->items[i - 1].upper, t->upper) &&
	       ts->items[i - 1].relation == t->relation;
}

/* How many targets from @first on are members of its bond: 0 when it is no member. */
static size_t bond_members(const struct rdc_dcb_targets *ts, size_t first)
{
	const struct rdc_dcb_target *t = &ts->items[first];
	size_t n = 1;

	if (!t->upper[0] || (t->relation != RDC_REL_ROCE_LAG && t->relation != RDC_REL_MEMBER))
		return 0;
	while (first + n < ts->count && same_bond(ts, first + n))
		n++;
	return n;
}

/*
 * The key pfc show gives the value of a setting the members do not share:
 * dcb/members.c compares "trust" and "dscp_prio", whose values are pfc
 * show's "trust.value" and "dscp_prio.map"; the other names are the keys.
 */
static const char *bond_what(const char *compared)
{
	if (!strcmp(compared, "trust"))
		return "trust.value";
	if (!strcmp(compared, "dscp_prio"))
		return "dscp_prio.map";
	return compared;
}

static void bond_u8s(struct rdc_out *o, const uint8_t *v, int n)
{
	rdc_out_arr_open(o, "value");
	for (int i = 0; i < n; i++)
		rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, v[i]);
	rdc_out_arr_close(o);
}

/*
 * What member @t (its DCB @d) has for the setting @compared, typed and
 * shaped as pfc show's key bond_what() names: an array of priorities, a
 * number, a word, the DSCP map's objects; null when it cannot be read.
 */
static void bond_value(struct rdc_out *o, const char *compared, const struct rdc_dcb_target *t,
		       const struct rdc_dcb *d)
{
	struct rdc_ofed_qos q;
	struct rdc_netdev nd = {0};
	bool mtu = !strcmp(compared, "mtu_bytes");

	if (!strcmp(compared, "pfc.enabled_prios")) {
		rdc_out_arr_open(o, "value");
		for (int p = 0; p < RDC_DCB_PRIOS; p++)
			if (d->pfc.pfc_en & (1U << p))
				rdc_out_u64(o, RDC_OUT_MACHINE, NULL, NULL, (uint64_t)p);
		rdc_out_arr_close(o);
	} else if (!strcmp(compared, "pfc.delay_bits")) {
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL, d->pfc.delay);
	} else if (!strcmp(compared, "trust")) {
		rdc_ofed_qos_read(t->netdev, &q);
		rdc_out_str(o, RDC_OUT_MACHINE, "value", NULL, pfc_trust(&q, d));
	} else if (!strcmp(compared, "dscp_prio")) {
		pfc_emit_dscp_map(o, "value", d);
	} else if (!strcmp(compared, "ets.prio_tc")) {
		bond_u8s(o, d->ets.prio_tc, RDC_DCB_PRIOS);
	} else if (!strcmp(compared, "ets.tc_bw_pct")) {
		bond_u8s(o, d->ets.tc_tx_bw, RDC_DCB_TCS);
	} else if (!strcmp(compared, "ets.tc_tsa")) {
		rdc_out_arr_open(o, "value");
		for (int i = 0; i < RDC_DCB_TCS; i++)
			rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL,
				    rdc_dcb_tsa_name(d->ets.tc_tsa[i]));
		rdc_out_arr_close(o);
	} else if ((mtu || !strcmp(compared, "speed_mbps")) &&
		   !rdc_netdev_read(t->netdev, &nd, NULL) &&
		   (mtu ? nd.mtu >= 0 : nd.speed_mbps > 0)) {
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL,
			    (uint64_t)(mtu ? nd.mtu : nd.speed_mbps));
	} else {
		rdc_out_null(o, "value", NULL);
	}
	rdc_netdev_free(&nd);
}

/*
 * A bond's line before its members, and its entry in "bonds": whether the
 * members agree (a mismatch is a failure of its own, RDC_MEMBERS_DIFFER_ID):
 *
 *   bond0: RoCE LAG (802.3ad) over ens1f0np0 ens1f1np1; members differ:
 *     prio-pfc  ens1f0np0 3  ens1f1np1 3,4
 */
static void emit_bond(struct rdc_out *o, const struct rdc_dcb_target *t, size_t n,
		      const struct rdc_dcb *dcbs, const struct rdc_members_agreement *a)
{
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_ANY, "bond", "%s:", t[0].upper);
	rdc_out_str(o, RDC_OUT_MACHINE, "relation", NULL, rdc_port_relation_name(t[0].relation));
	rdc_out_text(o, " %s", t[0].relation == RDC_REL_ROCE_LAG ? "RoCE LAG" : "bond");
	if (t[0].bond_mode[0])
		rdc_out_str(o, RDC_OUT_ANY, "bond_mode", " (%s)", t[0].bond_mode);
	else
		rdc_out_null(o, "bond_mode", NULL);
	rdc_out_text(o, " over");
	rdc_out_arr_open(o, "members");
	for (size_t i = 0; i < n; i++)
		rdc_out_str(o, RDC_OUT_ANY, NULL, " %s", t[i].netdev);
	rdc_out_arr_close(o);
	switch (a->result) {
	case RDC_MEMBERS_AGREE:
		rdc_out_bool(o, RDC_OUT_MACHINE, "members_agree", NULL, true);
		rdc_out_null(o, "id", NULL);
		rdc_out_null(o, "reason", NULL);
		rdc_out_text(o, "; members agree\n");
		break;
	case RDC_MEMBERS_UNKNOWN:
		rdc_out_null(o, "members_agree", NULL);
		rdc_out_null(o, "id", NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL, a->reason);
		rdc_out_text(o, "; members agree on MTU and speed, DCB unknown (%s)\n", a->reason);
		break;
	case RDC_MEMBERS_DIFFER:
		rdc_out_bool(o, RDC_OUT_MACHINE, "members_agree", NULL, false);
		rdc_out_str(o, RDC_OUT_MACHINE, "id", NULL, RDC_MEMBERS_DIFFER_ID);
		rdc_out_null(o, "reason", NULL);
		rdc_out_text(o, "; members differ (%s):\n", RDC_MEMBERS_DIFFER_ID);
		break;
	}
	rdc_out_arr_open(o, "differences");
	for (size_t k = 0; k < a->ndiffs; k++) {
		const struct rdc_members_diff *d = &a->diffs[k];

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "what", NULL, bond_what(d->what));
		rdc_out_text(o, "  %-9s", d->label);
		rdc_out_arr_open(o, "values");
		/* Text: pfc set's words ("3,4"); JSON and YAML: the value as pfc show has it. */
		for (size_t i = 0; i < d->count && i < n; i++) {
			rdc_out_obj_open(o, NULL);
			rdc_out_str(o, RDC_OUT_ANY, "netdev", "  %s", d->values[i].netdev);
			rdc_out_text(o, " %s", d->values[i].value);
			if (!rdc_out_is_text(o))
				bond_value(o, d->what, &t[i], &dcbs[i]);
			rdc_out_obj_close(o);
		}
		rdc_out_arr_close(o);
		rdc_out_nl(o);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_obj_close(o);
}

/* The name line of a netdev: "ens1f0np0:", or "ens1f0np0 (bond0, roce_lag):" for a member. */
void pfc_emit_target_name(struct rdc_out *o, const struct rdc_dcb_target *t)
{
	rdc_out_str(o, RDC_OUT_ANY, "netdev", "%s", t->netdev);
	if (t->upper[0])
		rdc_out_str(o, RDC_OUT_ANY, "upper", " (%s,", t->upper);
	else
		rdc_out_null(o, "upper", NULL);
	if (t->upper[0])
		rdc_out_str(o, RDC_OUT_ANY, "relation", " %s)",
			    rdc_port_relation_name(t->relation));
	else
		rdc_out_str(o, RDC_OUT_MACHINE, "relation", NULL,
			    rdc_port_relation_name(t->relation));
	rdc_out_text(o, ":");
}

static size_t bond_first(const struct rdc_dcb_targets *ts, size_t i)
{
	if (!bond_members(ts, i) && !same_bond(ts, i))
		return ts->count;
	while (same_bond(ts, i))
		i--;
	return i;
}

/* Every bond among the targets, its members compared: into @a (one per target, at its first member). */
static void bonds_compare(const struct rdc_dcb_targets *ts, const struct rdc_dcb *dcbs,
			  struct rdc_members_agreement *a)
{
	const struct rdc_dcb *members[RDC_MEMBERS_MAX];

	for (size_t i = 0; i < ts->count; i++) {
		size_t n = bond_members(ts, i);

		if (!n || same_bond(ts, i))
			continue;
		for (size_t k = 0; k < n && k < RDC_MEMBERS_MAX; k++)
			members[k] = &dcbs[i + k];
		rdc_members_compare(&ts->items[i], members, n, &a[i]);
	}
}

int pfc_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts)
{
	const struct pfc_show_opts *so = opts;
	const char *dev = rdc_arg_value(act, args, "dev");
	struct rdc_err err = {0};
	struct rdc_dcb_targets ts;
	struct rdc_dcb_verdict *verdicts;
	struct rdc_members_agreement *agree;
	struct rdc_dcb *dcbs;
	const char *name = dev ? dev : args->object;
	size_t n;
	int rc = 0;

	if (dev && args->object)
		return rdc_usage_error(ctx, "show: give 'dev NETDEV' or DEV[/PORT], not both");
	if (rdc_dcb_profile_check(&so->profile, &err))
		return rdc_arg_error(ctx, args, -1, "show: %s", err.msg);
	rc = pfc_targets(ctx, name, &ts);
	if (rc)
		return rc;
	n = ts.count;
	dcbs = calloc(n + 1, sizeof(*dcbs));
	verdicts = calloc(n + 1, sizeof(*verdicts));
	agree = calloc(n + 1, sizeof(*agree));
	if (!dcbs || !verdicts || !agree) {
		rdc_dcb_targets_free(&ts);
		free(dcbs);
		free(verdicts);
		free(agree);
		return rdc_oom(ctx);
	}
	/* Read everything first: a failure prints no half document. */
	for (size_t i = 0; i < n && !rc; i++) {
		/* No dcbnl is an answer to show (every DCB value unknown), not a failure. */
		if (rdc_dcb_read(ts.items[i].netdev, &dcbs[i], &err) && err.code != EOPNOTSUPP)
			rc = rdc_fail(ctx, &err);
		/* A verdict is information: whatever it says, show exits 0. */
		if (!rc)
			rdc_dcb_verdict_of(&so->profile, &ts.items[i], &dcbs[i], &verdicts[i]);
	}
	if (!rc)
		bonds_compare(&ts, dcbs, agree);
	if (!rc && ctx->brief && rdc_out_is_text(ctx->out)) {
		rdc_out_begin(ctx->out, "pfc-show");
		rc = pfc_show_brief(ctx, &ts, dcbs, verdicts, agree);
		rdc_out_end(ctx->out);
	} else if (!rc) {
		rdc_out_begin(ctx->out, "pfc-show");
		rdc_out_arr_open(ctx->out, "netdevs");
		for (size_t i = 0; i < n; i++) {
			size_t members = bond_members(&ts, i);

			/* Text: a bond's line before its first member (JSON: in "bonds"). */
			if (members && !same_bond(&ts, i) && !!rdc_out_is_text(ctx->out))
				emit_bond(ctx->out, &ts.items[i], members, &dcbs[i], &agree[i]);
			rdc_out_obj_open(ctx->out, NULL);
			pfc_emit_target_name(ctx->out, &ts.items[i]);
			rdc_out_nl(ctx->out);
			pfc_emit_state(ctx->out, &ts.items[i], &dcbs[i], &verdicts[i]);
			rdc_out_obj_close(ctx->out);
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_arr_open(ctx->out, "bonds");
		for (size_t i = 0; i < n && !rdc_out_is_text(ctx->out); i++) {
			size_t members = bond_members(&ts, i);

			if (members && !same_bond(&ts, i))
				emit_bond(ctx->out, &ts.items[i], members, &dcbs[i], &agree[i]);
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
	}
	/* What the reply held that no driver can: shown without it, said, exit 1. */
	for (size_t i = 0; i < n && !rc; i++)
		if (dcbs[i].ets_invalid || dcbs[i].buffer_invalid) {
			rdc_err_set_plain(&err, EINVAL,
					  "%s: the dcbnl reply's %s held values no driver can "
					  "(a TC or buffer past 7, a share past 100%%): left out",
					  ts.items[i].netdev,
					  dcbs[i].ets_invalid ? "ETS" : "buffer section");
			rc = rdc_fail(ctx, &err);
		}
	for (size_t i = 0; i < n && !rc; i++)
		if (dcbs[i].napps_invalid) {
			rdc_err_set_plain(
				&err, EINVAL,
				"%s: %zu APP entries out of range (DSCP past 63 or priority "
				"past 7) in the dcbnl reply were left out",
				ts.items[i].netdev, dcbs[i].napps_invalid);
			rc = rdc_fail(ctx, &err);
		}
	/* An empty list is a document, but nothing to show is worth saying (and exit 1). */
	if (!rc && !n) {
		rdc_err_set(&err, 0, "no netdev carries an RDMA port: nothing to show");
		rc = rdc_fail(ctx, &err);
	}
	rdc_dcb_targets_free(&ts);
	free(dcbs);
	free(verdicts);
	free(agree);
	return rc;
}
