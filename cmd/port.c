// SPDX-License-Identifier: GPL-2.0-or-later
/* port.c - `rdmactl port`: the descriptor and `port show` */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "base/util.h"
#include "host/ibdev.h"
#include "cmd.h"
#include "port.h"

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
	{.name = NULL},
};

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
	/* Nothing to act on is a failure even with an empty document on stdout (issue 13). */
	log_err("%s: no RDMA devices found", ctx->verb);
	return RDC_EXIT_FAIL;
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
 * each once per run.
 */
static char issue_seen[64][sizeof(((struct rdc_err *)0)->msg)];
static unsigned int issue_nseen;

static bool issue_first_time(const char *msg)
{
	for (unsigned int i = 0; i < issue_nseen; i++)
		if (!strcmp(issue_seen[i], msg))
			return false;
	if (issue_nseen < RDC_ARRAY_SIZE(issue_seen))
		rdc_strlcpy(issue_seen[issue_nseen++], msg, sizeof(issue_seen[0]));
	return true;
}

unsigned int port_report_issues(struct rdc_ctx *ctx, const struct rdc_issues *is)
{
	for (unsigned int i = 0; i < is->count; i++) {
		struct rdc_err e = is->items[i];

		if (!issue_first_time(e.msg))
			continue;
		/* Paths and texts come from the system read: no raw control characters. */
		rdc_str_escape(e.msg, sizeof(e.msg), is->items[i].msg, false);
		rdc_str_escape(e.detail, sizeof(e.detail), is->items[i].detail, false);
		rdc_log_error_record(ctx->verb, &e);
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

static void show_netdev(struct rdc_out *o, const struct rdc_port *p)
{
	const struct rdc_netdev *nd = &p->netdev;

	rdc_out_text(o, "\n    ");
	if (!p->has_netdev) {
		rdc_out_null(o, "netdev", "netdev -");
		rdc_out_null(o, "netdev_operstate", NULL);
		rdc_out_null(o, "netdev_mtu", NULL);
		rdc_out_null(o, "active_mtu", NULL);
		rdc_out_null(o, "active_mtu_limited", NULL);
		rdc_out_null(o, "bond", NULL);
		return;
	}
	rdc_out_str(o, RDC_OUT_ANY, "netdev", "netdev %s", nd->name);
	if (nd->operstate[0])
		rdc_out_str_color(o, RDC_OUT_ANY, "netdev_operstate", " %s", nd->operstate,
				  state_color(nd->operstate));
	else
		rdc_out_null(o, "netdev_operstate", " ?");
	if (nd->mtu >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "netdev_mtu", "  mtu %" PRId64, nd->mtu);
	else
		rdc_out_null(o, "netdev_mtu", "  mtu ?");
	if (p->active_mtu) {
		rdc_out_u64(o, RDC_OUT_ANY, "active_mtu", "  active_mtu %" PRIu64,
			    (uint64_t)p->active_mtu);
		rdc_out_bool(o, RDC_OUT_MACHINE, "active_mtu_limited", NULL, p->active_mtu_limited);
		if (p->active_mtu_limited)
			rdc_out_text_color(o, RDC_COLOR_YELLOW,
					   " (netdev MTU %" PRId64
					   " limits RDMA MTU; %d gives 4096)",
					   nd->mtu, p->mtu_for_4096);
	} else {
		rdc_out_null(o, "active_mtu", NULL);
		rdc_out_null(o, "active_mtu_limited", NULL);
	}
	if (nd->is_bond) {
		rdc_out_obj_open(o, "bond");
		port_out_opt_str(o, "mode", "  bond %s", nd->bond_mode);
		rdc_out_arr_open(o, "slaves");
		for (unsigned int i = 0; i < nd->nslaves; i++)
			rdc_out_str(o, RDC_OUT_ANY, NULL, i ? ",%s" : " slaves %s", nd->slaves[i]);
		rdc_out_arr_close(o);
		rdc_out_obj_close(o);
	} else {
		rdc_out_null(o, "bond", NULL);
	}
}

static void show_pci(struct rdc_out *o, const struct rdc_port *p)
{
	const struct rdc_pci *pci = &p->pci;

	rdc_out_text(o, "\n    ");
	port_out_opt_str(o, "driver", "driver %s", p->driver);
	if (!p->has_pci) {
		rdc_out_null(o, "pci", NULL);
		rdc_out_null(o, "numa_node", NULL);
		rdc_out_null(o, "pcie", NULL);
		return;
	}
	rdc_out_str(o, RDC_OUT_ANY, "pci", "  pci %s", pci->address);
	/* The kernel reads -1 when the platform does not say: that is unknown, not a node. */
	if (pci->numa_node >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "numa_node", "  numa %" PRId64, pci->numa_node);
	else
		rdc_out_null(o, "numa_node", "  numa -");
	if (!pci->has_link) {
		rdc_out_null(o, "pcie", NULL);
		return;
	}
	rdc_out_obj_open(o, "pcie");
	/* Unknown speed ("Unknown", unreadable) and width are null, never 0 or -1. */
	if (pci->cur_speed_gts > 0)
		rdc_out_f64(o, RDC_OUT_ANY, "current_speed_gts", "  pcie %.1f GT/s",
			    pci->cur_speed_gts);
	else
		rdc_out_null(o, "current_speed_gts", "  pcie ? GT/s");
	if (pci->cur_width >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "current_width", " x%" PRId64, pci->cur_width);
	else
		rdc_out_null(o, "current_width", " x?");
	if (pci->max_speed_gts > 0)
		rdc_out_f64(o, RDC_OUT_ANY, "max_speed_gts", " (max %.1f GT/s", pci->max_speed_gts);
	else
		rdc_out_null(o, "max_speed_gts", " (max ? GT/s");
	if (pci->max_width >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "max_width", " x%" PRId64 ")", pci->max_width);
	else
		rdc_out_null(o, "max_width", " x?)");
	rdc_out_bool(o, RDC_OUT_MACHINE, "degraded", NULL, pci->degraded);
	if (pci->degraded)
		rdc_out_text_color(o, RDC_COLOR_RED, " DEGRADED");
	rdc_out_obj_close(o);
}

/* A port state: its name, or null (absent) / "?" (unreadable) when unknown. */
static void show_state(struct rdc_out *o, const char *key, const char *fmt, int state,
		       const char *name, bool bad)
{
	if (state >= 0)
		rdc_out_str_color(o, RDC_OUT_ANY, key, fmt, name, state_color(name));
	else
		port_out_str_or_bad(o, key, fmt, "", bad);
}

static void show_port(struct rdc_out *o, const struct rdc_port *p)
{
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_ANY, "device", "%s", p->device);
	rdc_out_u64(o, RDC_OUT_ANY, "port", "/%" PRIu64, p->port);
	port_out_str_or_bad(o, "link_layer", "  %s", p->link_layer,
			    p->bad & RDC_PORT_BAD_LINK_LAYER);
	show_state(o, "state", "  %s", p->state, p->state_name, p->bad & RDC_PORT_BAD_STATE);
	show_state(o, "phys_state", " %s", p->phys_state, p->phys_state_name,
		   p->bad & RDC_PORT_BAD_PHYS_STATE);
	if (p->rate_gbps > 0)
		rdc_out_f64(o, RDC_OUT_ANY, "rate_gbps", "  %g Gb/s", p->rate_gbps);
	else
		rdc_out_null(o, "rate_gbps", p->bad & RDC_PORT_BAD_RATE ? "  ? Gb/s" : NULL);
	port_out_opt_str(o, "rate_lanes", " (%s)", p->rate_lanes);
	if (p->lid >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "lid", "  lid %" PRId64, p->lid);
	else
		rdc_out_null(o, "lid", p->bad & RDC_PORT_BAD_LID ? "  lid ?" : NULL);
	if (p->sm_lid >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "sm_lid", " sm_lid %" PRId64, p->sm_lid);
	else
		rdc_out_null(o, "sm_lid", p->bad & RDC_PORT_BAD_SM_LID ? " sm_lid ?" : NULL);
	show_netdev(o, p);
	rdc_out_text(o, "\n    ");
	port_out_str_or_bad(o, "node_type", "%s", p->node_type, p->bad & RDC_PORT_BAD_NODE_TYPE);
	port_out_str_or_bad(o, "fw_ver", "  fw %s", p->fw_ver, p->bad & RDC_PORT_BAD_FW_VER);
	port_out_str_or_bad(o, "board_id", "  board %s", p->board_id,
			    p->bad & RDC_PORT_BAD_BOARD_ID);
	port_out_str_or_bad(o, "hca_type", "  hca %s", p->hca_type, p->bad & RDC_PORT_BAD_HCA_TYPE);
	port_out_str_or_bad(o, "node_guid", "  guid %s", p->node_guid,
			    p->bad & RDC_PORT_BAD_NODE_GUID);
	port_out_str_or_bad(o, "sys_image_guid", NULL, p->sys_image_guid,
			    p->bad & RDC_PORT_BAD_SYS_IMAGE_GUID);
	show_pci(o, p);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
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
	rdc_out_begin(ctx->out);
	rdc_out_arr_open(ctx->out, "ports");
	for (size_t i = 0; i < ports.count; i++)
		show_port(ctx->out, &ports.ports[i]);
	rdc_out_arr_close(ctx->out);
	rdc_out_end(ctx->out);
	/* ls's convention: print everything that could be read, then say what could not. */
	issues = port_report_issues(ctx, &ports.issues);
	for (size_t i = 0; i < ports.count; i++)
		issues += port_report_port_issues(ctx, &ports.ports[i]);
	rc = port_none_found(ctx, ports.count, issues);
	rdc_ports_free(&ports);
	return issues || rc ? RDC_EXIT_FAIL : RDC_EXIT_OK;
}
