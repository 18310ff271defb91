// SPDX-License-Identifier: GPL-2.0-or-later
/* port.c - `rdmactl port`: the descriptor and `port show` */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "base/util.h"
#include "host/ibdev.h"
#include "host/rdma_netns.h"
#include "cmd.h"
#include "port.h"
#include "port_features.h"
#include "term.h"

/*
 * Bounds: 10 ms is about what reading a port's counters from sysfs takes, so
 * a shorter interval measures the reads, not the traffic (and 1e-300 would
 * sample in a busy loop); rates divide by the time measured, so any interval
 * in range is honest.  A day is the longest any keyword of ours waits; a
 * million samples is 2.7 hours at the shortest interval.
 */
static const struct rdc_val_seconds stats_interval = {.min_s = 0.01};
static const struct rdc_val_uint stats_count = {
	.min = 1, .max = 1000000, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};

static const struct rdc_param port_stats_params[] = {
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "sample every SEC seconds (0.01-86400) and print rates per second",
	 .parse = rdc_val_seconds,
	 .dest = offsetof(struct port_stats_opts, interval_s),
	 .spec = &stats_interval},
	{.name = "count",
	 .metavar = "N",
	 .help = "stop after N samples (1-1000000, with interval)",
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct port_stats_opts, count),
	 .spec = &stats_count},
	{.name = "errors",
	 .help = "only counters of faults (errors, drops, discards, retries, timeouts, link "
		 "downs) that are not 0",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct port_stats_opts, errors)},
	{.name = "nonzero",
	 .help = "only counters that are not 0 (with interval: that moved)",
	 .excludes = "all",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct port_stats_opts, nonzero)},
	{.name = "all",
	 .help = "zeros too (with errors: every fault counter)",
	 .excludes = "nonzero",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct port_stats_opts, all)},
	{.name = NULL},
};

/*
 * errors: the faults that are not 0; errors all: every fault counter;
 * nonzero (errors nonzero is errors): every counter that is not 0.
 */
enum port_stats_filter port_stats_filter(const struct port_stats_opts *so)
{
	if (so->errors)
		return so->all ? PORT_STATS_ERRORS_ALL : PORT_STATS_ERRORS;
	return so->nonzero ? PORT_STATS_NONZERO : PORT_STATS_ALL;
}

const char *port_stats_filter_name(enum port_stats_filter filter)
{
	switch (filter) {
	case PORT_STATS_ERRORS:
		return "errors";
	case PORT_STATS_ERRORS_ALL:
		return "errors-all";
	case PORT_STATS_NONZERO:
		return "nonzero";
	case PORT_STATS_ALL:
		break;
	}
	return "all";
}

static const char *const mtu_suggest[] = {"1500", "4200", "9000", NULL};

/* 68 is the IPv4 minimum; the driver's own limits are checked by the kernel. */
static const struct rdc_val_uint set_mtu = {.min = 68,
					    .max = 65535,
					    .size = sizeof(uint32_t),
					    .given = offsetof(struct port_set_opts, mtu_given)};
static const int set_up = 1, set_down;

static const struct rdc_param port_set_params[] = {
	{.name = "mtu",
	 .metavar = "N",
	 .help = "set the netdev MTU in bytes (68-65535)",
	 .suggest = mtu_suggest,
	 .parse = rdc_val_uint,
	 .dest = offsetof(struct port_set_opts, mtu),
	 .spec = &set_mtu},
	{.name = "up",
	 .help = "bring the netdev up",
	 .excludes = "down",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct port_set_opts, admin_up),
	 .spec = &set_up},
	{.name = "down",
	 .help = "take the netdev down",
	 .excludes = "up",
	 .parse = rdc_val_flag,
	 .dest = offsetof(struct port_set_opts, admin_up),
	 .spec = &set_down},
	{.name = NULL},
};

static void port_set_defaults(void *opts)
{
	struct port_set_opts *o = opts;

	o->admin_up = -1;
}

const struct rdc_action port_actions[] = {
	{.name = "show",
	 .synopsis = "[DEV[/PORT] | NETDEV | ADDRESS]",
	 .help = "RDMA ports with their netdev, MTUs, rate, PCIe and NUMA",
	 .run = port_show_run,
	 .object = RDC_COMPLETE_PORT},
	{.name = "gids",
	 .synopsis = "[DEV[/PORT] | NETDEV | ADDRESS]",
	 .help = "GID tables: index, GID, IP, type, netdev, which to use",
	 .run = port_gids_run,
	 .object = RDC_COMPLETE_PORT},
	{.name = "stats",
	 .synopsis = "[DEV[/PORT] | NETDEV | ADDRESS] [interval SEC [count N]]",
	 .help = "port counters, hw_counters and netdev statistics; rates with interval",
	 .run = port_stats_run,
	 .params = port_stats_params,
	 .object = RDC_COMPLETE_PORT,
	 .opts_size = sizeof(struct port_stats_opts)},
	{.name = "set",
	 .synopsis = "NETDEV | DEV[/PORT] | ADDRESS { mtu N | up | down }...",
	 .help = "change the port's netdev over rtnetlink (only what differs; verified)",
	 .run = port_set_run,
	 .params = port_set_params,
	 .object = RDC_COMPLETE_PORT,
	 .object_required = true,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct port_set_opts),
	 .opts_init = port_set_defaults},
	{.name = "features",
	 .synopsis = "[out FILE]",
	 .help = "node labels for Node Feature Discovery (features.d lines: RDMA, RoCE v2, LAG, "
		 "speed, lossless priorities, netns mode)",
	 .run = port_features_run,
	 .params = port_features_params,
	 .opts_size = sizeof(struct port_features_opts)},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_port = {
	.name = "port",
	.summary = "RDMA devices and ports: state, netdevs, GIDs, counters, MTU",
	.actions = port_actions,
};

int port_select(struct rdc_ctx *ctx, const char *object, struct rdc_port_list *ports,
		struct rdc_port_query *q)
{
	struct rdc_err err = {0};

	if (rdc_ports_read(ports, &err))
		return rdc_fail(ctx, &err);
	if (object && rdc_ports_resolve(ports, object, q, &err)) {
		/* A device whose ports cannot be listed: that is why it has none. */
		if (port_report_issues(ctx, &ports->issues)) {
			rdc_ports_free(ports);
			return RDC_EXIT_FAIL;
		}
		rdc_ports_free(ports);
		return rdc_fail(ctx, &err);
	}
	return 0;
}

int port_none_found(struct rdc_ctx *ctx, size_t count, unsigned int issues)
{
	if (count || issues)
		return 0;
	/*
	 * Nothing to act on is a failure even with an empty document on stdout
	 * (issue 13).  In a container the usual reason is the RDMA netns mode,
	 * so the message says which is in force and what it means.
	 */
	const char *hint = rdc_rdma_netns_mode_hint(port_netns_mode());

	if (hint)
		log_err("%s: no RDMA devices found; %s", ctx->verb, hint);
	else
		log_err("%s: no RDMA devices found", ctx->verb);
	return RDC_EXIT_FAIL;
}

enum rdc_rdma_netns_mode port_netns_mode(void)
{
	enum rdc_rdma_netns_mode mode;

	/* Unknown (a kernel before 5.2, a bundle that did not record it) is no answer, not a failure. */
	if (rdc_rdma_netns_mode(&mode, NULL))
		return RDC_RDMA_NETNS_UNKNOWN;
	return mode;
}

void port_out_opt_str(struct rdc_out *o, const char *key, const char *fmt, const char *v)
{
	rdc_out_str(o, RDC_OUT_ANY, key, fmt, v && *v ? v : NULL);
}

void port_out_str_or_bad(struct rdc_out *o, const char *key, const char *fmt, const char *v,
			 bool bad)
{
	if (!bad)
		port_out_opt_str(o, key, fmt, v);
	else if (rdc_out_is_text(o))
		rdc_out_str(o, RDC_OUT_TEXT, key, fmt, "?");
	else
		rdc_out_null(o, key, NULL);
}

/*
 * Messages already printed: device-wide values are in every port of the
 * device, and `port stats interval` reads the same files every sample.  Say
 * each once per run.  Kept as 64-bit FNV-1a hashes of the whole message: a
 * message has no length bound (base/issues.h) and the records it came from
 * are freed between samples; two messages sharing a hash is a chance of one
 * in 2^64 per pair.
 */
static uint64_t issue_seen[64];
static unsigned int issue_nseen;

static bool issue_first_time(const char *msg)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	for (unsigned int i = 0; i < issue_nseen; i++)
		if (issue_seen[i] == h)
			return false;
	if (issue_nseen < RDC_ARRAY_SIZE(issue_seen))
		issue_seen[issue_nseen++] = h;
	return true;
}

unsigned int port_report_issues(struct rdc_ctx *ctx, const struct rdc_issues *is)
{
	for (unsigned int i = 0; i < is->count; i++) {
		const struct rdc_issue *it = &is->items[i];

		/* Paths and texts come from the system read: the log escapes control characters. */
		if (issue_first_time(it->msg))
			rdc_log_error_parts(ctx->verb, it->msg, it->code, it->plain, it->detail);
	}
	if (is->lost)
		log_err("%s: %u more values could not be read", ctx->verb, is->lost);
	return is->count + is->lost;
}

unsigned int port_report_port_issues(struct rdc_ctx *ctx, const struct rdc_port *p)
{
	unsigned int n = port_report_issues(ctx, &p->issues);

	if (p->has_pci)
		n += port_report_issues(ctx, &p->pci.issues);
	if (p->has_netdev)
		n += port_report_issues(ctx, &p->netdev.issues);
	return n;
}

static enum rdc_color state_color(const char *state)
{
	if (!strcmp(state, "ACTIVE") || !strcmp(state, "LINK_UP") || !strcmp(state, "up"))
		return RDC_COLOR_GREEN;
	if (!strcmp(state, "INIT") || !strcmp(state, "ARMED") || !strcmp(state, "POLLING"))
		return RDC_COLOR_YELLOW;
	return RDC_COLOR_RED;
}

/*
 * Why a netdev's link is down, in bond show's words: "admin-down" (IFF_UP
 * clear), "no-carrier" (up, no carrier); NULL when up or unknown.
 */
static const char *port_link_why(const struct rdc_netdev *nd)
{
	if (nd->admin_up == 0)
		return "admin-down";
	if (nd->admin_up == 1 && nd->carrier == 0)
		return "no-carrier";
	return NULL;
}

/* A string that may be absent (null, nothing in text) or unreadable ("?" in text). */
static void show_str(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, const char *fmt,
		     const char *v, bool bad)
{
	if (!bad)
		rdc_tline_str(l, sep, key, fmt, v && *v ? v : NULL, RDC_COLOR_NONE);
	else if (l->text)
		rdc_tline_str(l, sep, key, fmt, "?", RDC_COLOR_NONE);
	else
		rdc_out_null(l->o, key, NULL);
}

static void show_netdev(struct rdc_tline *l, const struct rdc_port *p)
{
	const struct rdc_netdev *nd = &p->netdev;

	if (!p->has_netdev) {
		rdc_tline_null(l, RDC_TL_GAP, "netdev", "netdev -");
		rdc_tline_null(l, RDC_TL_GAP, "upper", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "admin_up", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "carrier", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "operstate", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "mtu_bytes", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "active_mtu_bytes", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "active_mtu_limited", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "bond_mode", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "members", NULL);
		return;
	}
	rdc_tline_keep(l, RDC_TL_GAP,
		       (int)strlen("netdev ") + rdc_term_cols(nd->name) + 1 +
			       (nd->operstate[0] ? rdc_term_cols(nd->operstate) : 1));
	rdc_tline_str(l, RDC_TL_GAP, "netdev", "netdev %s", nd->name, RDC_COLOR_NONE);
	/* The bond (or VLAN) the port is used through: "netdev ens2f1np1 (bond1) up". */
	if (p->upper[0])
		rdc_tline_str(l, RDC_TL_SPACE, "upper", "(%s)", p->upper, RDC_COLOR_NONE);
	else
		rdc_tline_null(l, RDC_TL_SPACE, "upper", NULL);
	/* bond show's trio: admin_up (IFF_UP), carrier, operstate; each null unknown. */
	if (nd->admin_up >= 0)
		rdc_out_bool(l->o, RDC_OUT_MACHINE, "admin_up", NULL, nd->admin_up);
	else
		rdc_out_null(l->o, "admin_up", NULL);
	if (nd->carrier >= 0)
		rdc_out_bool(l->o, RDC_OUT_MACHINE, "carrier", NULL, nd->carrier);
	else
		rdc_out_null(l->o, "carrier", NULL);
	if (nd->operstate[0])
		rdc_tline_str(l, RDC_TL_SPACE, "operstate", "%s", nd->operstate,
			      state_color(nd->operstate));
	else
		rdc_tline_null(l, RDC_TL_SPACE, "operstate", "?");
	if (nd->mtu >= 0)
		rdc_tline_i64(l, RDC_TL_GAP, "mtu_bytes", "mtu %" PRId64, nd->mtu);
	else
		rdc_tline_null(l, RDC_TL_GAP, "mtu_bytes", "mtu ?");
	if (p->active_mtu) {
		rdc_tline_u64(l, RDC_TL_GAP, "active_mtu_bytes", "active_mtu %" PRIu64,
			      (uint64_t)p->active_mtu);
		rdc_out_bool(l->o, RDC_OUT_MACHINE, "active_mtu_limited", NULL,
			     p->active_mtu_limited);
		if (p->active_mtu_limited)
			rdc_tline_text(l, RDC_TL_GAP, RDC_COLOR_YELLOW,
				       "(netdev MTU %" PRId64 " limits RDMA MTU; %d gives 4096)",
				       nd->mtu, p->mtu_for_4096);
	} else {
		rdc_tline_null(l, RDC_TL_GAP, "active_mtu_bytes", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "active_mtu_limited", NULL);
	}
	/*
	 * Why it is down, where flags and carrier say, last on the line (the
	 * operstate stays the kernel's word): "netdev X down  mtu 9000  no-carrier".
	 */
	if (port_link_why(nd))
		rdc_tline_text(l, RDC_TL_GAP, RDC_COLOR_RED, "%s", port_link_why(nd));
	/* RoCE LAG: the port's netdev is the bond, its members the physical ports. */
	if (p->roce_lag) {
		/* On a line of its own: "bond 802.3ad  members ens1f0np0,ens1f1np1". */
		rdc_tline_end(l);
		rdc_tline_begin(l, l->o, 4, 6);
		show_str(l, RDC_TL_GAP, "bond_mode", "bond %s", nd->bond_mode, false);
		rdc_out_arr_open(l->o, "members");
		for (unsigned int i = 0; i < nd->nslaves; i++)
			rdc_tline_str(l, i ? RDC_TL_JOIN : RDC_TL_GAP, NULL,
				      i ? ",%s" : "members %s", nd->slaves[i], RDC_COLOR_NONE);
		rdc_out_arr_close(l->o);
	} else {
		rdc_tline_null(l, RDC_TL_GAP, "bond_mode", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "members", NULL);
	}
}

static void show_pci(struct rdc_tline *l, const struct rdc_port *p)
{
	const struct rdc_pci *pci = &p->pci;
	char group[128];

	show_str(l, RDC_TL_GAP, "driver", "driver %s", p->driver, false);
	if (!p->has_pci) {
		rdc_tline_null(l, RDC_TL_GAP, "pci", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "numa_node", NULL);
		rdc_tline_null(l, RDC_TL_GAP, "pcie", NULL);
		return;
	}
	rdc_tline_str(l, RDC_TL_GAP, "pci", "pci %s", pci->address, RDC_COLOR_NONE);
	/* The kernel reads -1 when the platform does not say: that is unknown, not a node. */
	if (pci->numa_node >= 0)
		rdc_tline_i64(l, RDC_TL_GAP, "numa_node", "numa %" PRId64, pci->numa_node);
	else
		rdc_tline_null(l, RDC_TL_GAP, "numa_node", "numa -");
	if (!pci->has_link) {
		rdc_tline_null(l, RDC_TL_GAP, "pcie", NULL);
		return;
	}
	/*
	 * "pcie 8.0 GT/s x8 (max 16.0 GT/s x16) DEGRADED" is read as one: on a
	 * line of its own, and kept together.
	 */
	rdc_tline_end(l);
	rdc_tline_begin(l, l->o, 4, 6);
	snprintf(group, sizeof(group), "pcie %.1f GT/s x%" PRId64 " (max %.1f GT/s x%" PRId64 ")%s",
		 pci->cur_speed_gts, pci->cur_width, pci->max_speed_gts, pci->max_width,
		 pci->degraded ? " DEGRADED" : "");
	rdc_tline_keep(l, RDC_TL_GAP, rdc_term_cols(group));
	rdc_out_obj_open(l->o, "pcie");
	/* Unknown speed ("Unknown", unreadable) and width are null, never 0 or -1. */
	if (pci->cur_speed_gts > 0)
		rdc_tline_f64(l, RDC_TL_GAP, "current_speed_gts", "pcie %.1f GT/s",
			      pci->cur_speed_gts);
	else
		rdc_tline_null(l, RDC_TL_GAP, "current_speed_gts", "pcie ? GT/s");
	if (pci->cur_width >= 0)
		rdc_tline_i64(l, RDC_TL_SPACE, "current_width", "x%" PRId64, pci->cur_width);
	else
		rdc_tline_null(l, RDC_TL_SPACE, "current_width", "x?");
	if (pci->max_speed_gts > 0)
		rdc_tline_f64(l, RDC_TL_SPACE, "max_speed_gts", "(max %.1f GT/s",
			      pci->max_speed_gts);
	else
		rdc_tline_null(l, RDC_TL_SPACE, "max_speed_gts", "(max ? GT/s");
	if (pci->max_width >= 0)
		rdc_tline_i64(l, RDC_TL_JOIN, "max_width", " x%" PRId64 ")", pci->max_width);
	else
		rdc_tline_null(l, RDC_TL_JOIN, "max_width", " x?)");
	rdc_out_bool(l->o, RDC_OUT_MACHINE, "degraded", NULL, pci->degraded);
	if (pci->degraded)
		rdc_tline_text(l, RDC_TL_SPACE, RDC_COLOR_RED, "DEGRADED");
	rdc_out_obj_close(l->o);
}

/* A port state: its name, or null (absent) / "?" (unreadable) when unknown. */
static void show_state(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, int state,
		       const char *name, bool bad)
{
	if (state >= 0)
		rdc_tline_str(l, sep, key, "%s", name, state_color(name));
	else
		show_str(l, sep, key, "%s", "", bad);
}

/*
 * Five lines a port (six on a bond), each wrapped at the width with
 * continuations indented further:
 *   mlx5_0/1  Ethernet  ACTIVE LINK_UP  100 Gb/s (2X HDR)
 *       netdev ens1f0np0 up  mtu 9000  active_mtu 4096
 *       CA  fw 22.39.1002  board MT_0000000359  hca MT4125  guid 0c42:a103:0065:8a10
 *       driver mlx5_core  pci 0000:3b:00.0  numa 0
 *       pcie 16.0 GT/s x16 (max 16.0 GT/s x16)
 */
static void show_port(struct rdc_out *o, const struct rdc_port *p)
{
	struct rdc_tline l;
	char rate[64];

	rdc_out_obj_open(o, NULL);
	rdc_tline_begin(&l, o, 0, 4);
	rdc_tline_str(&l, RDC_TL_GAP, "device", "%s", p->device, RDC_COLOR_NONE);
	rdc_tline_u64(&l, RDC_TL_JOIN, "port", "/%" PRIu64, p->port);
	show_str(&l, RDC_TL_GAP, "link_layer", "%s", p->link_layer,
		 p->bad & RDC_PORT_BAD_LINK_LAYER);
	/* "ACTIVE LINK_UP" and "100 Gb/s (2X HDR)" are each read as one: kept together. */
	rdc_tline_keep(&l, RDC_TL_GAP,
		       rdc_term_cols(p->state_name) + 1 + rdc_term_cols(p->phys_state_name));
	show_state(&l, RDC_TL_GAP, "state", p->state, p->state_name, p->bad & RDC_PORT_BAD_STATE);
	show_state(&l, RDC_TL_SPACE, "phys_state", p->phys_state, p->phys_state_name,
		   p->bad & RDC_PORT_BAD_PHYS_STATE);
	snprintf(rate, sizeof(rate), "%g Gb/s (%s)", p->rate_gbps, p->rate_lanes);
	rdc_tline_keep(&l, RDC_TL_GAP, rdc_term_cols(rate));
	if (p->rate_gbps > 0)
		rdc_tline_f64(&l, RDC_TL_GAP, "rate_gbps", "%g Gb/s", p->rate_gbps);
	else
		rdc_tline_null(&l, RDC_TL_GAP, "rate_gbps",
			       p->bad & RDC_PORT_BAD_RATE ? "? Gb/s" : NULL);
	show_str(&l, RDC_TL_SPACE, "rate_lanes", "(%s)", p->rate_lanes, false);
	if (p->lid >= 0)
		rdc_tline_i64(&l, RDC_TL_GAP, "lid", "lid %" PRId64, p->lid);
	else
		rdc_tline_null(&l, RDC_TL_GAP, "lid", p->bad & RDC_PORT_BAD_LID ? "lid ?" : NULL);
	if (p->sm_lid >= 0)
		rdc_tline_i64(&l, RDC_TL_SPACE, "sm_lid", "sm_lid %" PRId64, p->sm_lid);
	else
		rdc_tline_null(&l, RDC_TL_SPACE, "sm_lid",
			       p->bad & RDC_PORT_BAD_SM_LID ? "sm_lid ?" : NULL);
	rdc_tline_end(&l);

	rdc_tline_begin(&l, o, 4, 6);
	show_netdev(&l, p);
	rdc_tline_end(&l);

	rdc_tline_begin(&l, o, 4, 6);
	show_str(&l, RDC_TL_GAP, "node_type", "%s", p->node_type, p->bad & RDC_PORT_BAD_NODE_TYPE);
	show_str(&l, RDC_TL_GAP, "fw_ver", "fw %s", p->fw_ver, p->bad & RDC_PORT_BAD_FW_VER);
	show_str(&l, RDC_TL_GAP, "board_id", "board %s", p->board_id,
		 p->bad & RDC_PORT_BAD_BOARD_ID);
	show_str(&l, RDC_TL_GAP, "hca_type", "hca %s", p->hca_type, p->bad & RDC_PORT_BAD_HCA_TYPE);
	show_str(&l, RDC_TL_GAP, "node_guid", "guid %s", p->node_guid,
		 p->bad & RDC_PORT_BAD_NODE_GUID);
	show_str(&l, RDC_TL_GAP, "sys_image_guid", NULL, p->sys_image_guid,
		 p->bad & RDC_PORT_BAD_SYS_IMAGE_GUID);
	rdc_tline_end(&l);

	rdc_tline_begin(&l, o, 4, 6);
	show_pci(&l, p);
	rdc_tline_end(&l);
	rdc_out_obj_close(o);
}

/*
 * --brief: one line a port, columns as wide as their data (32 ports on one
 * screen); unknown values are "?", absent ones "-".  OPER is the
 * operstate, or why the link is down (admin-down, no-carrier).
 *   PORT      STATE   PHYS      RATE      NETDEV     OPER        MTU   RDMA_MTU
 *   mlx5_0/1  ACTIVE  LINK_UP   100 Gb/s  ens1f0np0  up          9000  4096
 *   mlx5_1/1  DOWN    DISABLED  -         ens1f1np1  no-carrier  9000  -
 */
enum {
	BRIEF_PORT,
	BRIEF_STATE,
	BRIEF_PHYS,
	BRIEF_RATE,
	BRIEF_NETDEV,
	BRIEF_OPER,
	BRIEF_MTU,
	BRIEF_RDMA_MTU,
	BRIEF_COLS
};

struct brief_row {
	char port[RDC_IBDEV_NAME + 16];
	char rate[32];
	char mtu[24];
	char rdma_mtu[24];
	const char *cells[BRIEF_COLS];
	enum rdc_color colors[BRIEF_COLS];
};

static const char *brief_state(int state, const char *name, bool bad)
{
	return state >= 0 ? name : bad ? "?" : "-";
}

static void brief_fill(struct brief_row *r, const struct rdc_port *p)
{
	const struct rdc_netdev *nd = &p->netdev;

	memset(r->colors, 0, sizeof(r->colors));
	snprintf(r->port, sizeof(r->port), "%s/%u", p->device, p->port);
	r->cells[BRIEF_PORT] = r->port;
	r->cells[BRIEF_STATE] = brief_state(p->state, p->state_name, p->bad & RDC_PORT_BAD_STATE);
	r->cells[BRIEF_PHYS] =
		brief_state(p->phys_state, p->phys_state_name, p->bad & RDC_PORT_BAD_PHYS_STATE);
	if (p->state >= 0)
		r->colors[BRIEF_STATE] = state_color(p->state_name);
	if (p->phys_state >= 0)
		r->colors[BRIEF_PHYS] = state_color(p->phys_state_name);
	if (p->rate_gbps > 0)
		snprintf(r->rate, sizeof(r->rate), "%g Gb/s", p->rate_gbps);
	else
		snprintf(r->rate, sizeof(r->rate), "%s", p->bad & RDC_PORT_BAD_RATE ? "?" : "-");
	r->cells[BRIEF_RATE] = r->rate;
	r->cells[BRIEF_NETDEV] = p->has_netdev ? nd->name : "-";
	r->cells[BRIEF_OPER] = !p->has_netdev ? "-" : nd->operstate[0] ? nd->operstate : "?";
	if (p->has_netdev && nd->operstate[0])
		r->colors[BRIEF_OPER] = state_color(nd->operstate);
	/* "down" says less than why: "admin-down", "no-carrier" (the full view says both). */
	if (p->has_netdev && port_link_why(nd)) {
		r->cells[BRIEF_OPER] = port_link_why(nd);
		r->colors[BRIEF_OPER] = RDC_COLOR_RED;
	}
	if (p->has_netdev && nd->mtu >= 0)
		snprintf(r->mtu, sizeof(r->mtu), "%" PRId64, nd->mtu);
	else
		snprintf(r->mtu, sizeof(r->mtu), "%s", p->has_netdev ? "?" : "-");
	r->cells[BRIEF_MTU] = r->mtu;
	/* "1024!": the netdev MTU keeps the RDMA MTU below 4096 (the full view says by how much). */
	if (p->has_netdev && p->active_mtu)
		snprintf(r->rdma_mtu, sizeof(r->rdma_mtu), "%d%s", p->active_mtu,
			 p->active_mtu_limited ? "!" : "");
	else
		snprintf(r->rdma_mtu, sizeof(r->rdma_mtu), "-");
	r->cells[BRIEF_RDMA_MTU] = r->rdma_mtu;
	if (p->active_mtu_limited)
		r->colors[BRIEF_RDMA_MTU] = RDC_COLOR_YELLOW;
}

static int show_brief(struct rdc_ctx *ctx, const struct rdc_port_list *ports)
{
	static const char *const head[BRIEF_COLS] = {"PORT",   "STATE", "PHYS", "RATE",
						     "NETDEV", "OPER",	"MTU",	"RDMA_MTU"};
	struct brief_row *rows = calloc(ports->count + 1, sizeof(*rows));
	struct rdc_table t;

	if (!rows)
		return rdc_oom(ctx);
	rdc_table_init(&t, BRIEF_COLS);
	rdc_table_fit(&t, head);
	for (size_t i = 0; i < ports->count; i++) {
		brief_fill(&rows[i], &ports->ports[i]);
		rdc_table_fit(&t, rows[i].cells);
	}
	if (ports->count)
		rdc_table_row(&t, ctx->out, head, NULL);
	for (size_t i = 0; i < ports->count; i++)
		rdc_table_row(&t, ctx->out, rows[i].cells, rows[i].colors);
	free(rows);
	return 0;
}

int port_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts)
{
	struct rdc_port_list ports;
	unsigned int issues;
	int rc;

	rc = port_select(ctx, args->object, &ports, NULL);
	if (rc)
		return rc;
	/* --brief changes only text: JSON and YAML are the same document either way. */
	if (ctx->brief && rdc_out_is_text(ctx->out)) {
		rc = show_brief(ctx, &ports);
		if (rc) {
			rdc_ports_free(&ports);
			return rc;
		}
	} else {
		const char *mode = rdc_rdma_netns_mode_name(port_netns_mode());

		rdc_out_begin(ctx->out, "port-show");
		rdc_out_arr_open(ctx->out, "ports");
		for (size_t i = 0; i < ports.count; i++)
			show_port(ctx->out, &ports.ports[i]);
		rdc_out_arr_close(ctx->out);
		/* The whole host's setting, after its ports; text says it only when known. */
		rdc_out_str(ctx->out, RDC_OUT_ANY, "netns_mode", "rdma netns %s\n", mode);
		rdc_out_end(ctx->out);
	}
	/* ls's convention: print everything that could be read, then say what could not. */
	issues = port_report_issues(ctx, &ports.issues);
	for (size_t i = 0; i < ports.count; i++)
		issues += port_report_port_issues(ctx, &ports.ports[i]);
	rc = port_none_found(ctx, ports.count, issues);
	rdc_ports_free(&ports);
	return issues || rc ? RDC_EXIT_FAIL : RDC_EXIT_OK;
}
