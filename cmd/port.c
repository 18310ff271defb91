// SPDX-License-Identifier: GPL-2.0-or-later
/* port.c - `rdmactl port`: the descriptor and `port show` */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "host/ibdev.h"
#include "cmd.h"
#include "port.h"

static const struct rdc_val_uint stats_count = {
	.min = 1, .max = UINT32_MAX, .size = sizeof(uint32_t), .given = RDC_VAL_NO_FLAG};

static const struct rdc_param port_stats_params[] = {
	{.name = "interval",
	 .metavar = "SEC",
	 .help = "sample every SEC seconds and print rates per second",
	 .parse = rdc_val_seconds,
	 .dest = offsetof(struct port_stats_opts, interval_s)},
	{.name = "count",
	 .metavar = "N",
	 .help = "stop after N samples (with interval)",
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
	 .synopsis = "[DEV[/PORT] | NETDEV]",
	 .help = "RDMA ports with their netdev, MTUs, rate, PCIe and NUMA",
	 .run = port_show_run,
	 .object = RDC_COMPLETE_PORT},
	{.name = "gids",
	 .synopsis = "[DEV[/PORT] | NETDEV]",
	 .help = "GID tables: index, GID, IP, type, netdev, which to use",
	 .run = port_gids_run,
	 .object = RDC_COMPLETE_PORT},
	{.name = "stats",
	 .synopsis = "[DEV[/PORT] | NETDEV] [interval SEC [count N]]",
	 .help = "port counters, hw_counters and netdev statistics; rates with interval",
	 .run = port_stats_run,
	 .params = port_stats_params,
	 .object = RDC_COMPLETE_PORT,
	 .opts_size = sizeof(struct port_stats_opts)},
	{.name = "set",
	 .synopsis = "NETDEV | DEV[/PORT] { mtu N | up | down }...",
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

int port_select(struct rdc_ctx *ctx, const char *object, struct rdc_port_list *ports)
{
	struct rdc_err err = {0};

	if (rdc_ports_read(ports, &err))
		return rdc_fail(ctx, &err);
	if (object && rdc_ports_filter(ports, object, &err)) {
		rdc_ports_free(ports);
		return rdc_fail(ctx, &err);
	}
	return 0;
}

void port_out_opt_str(struct rdc_out *o, const char *key, const char *fmt, const char *v)
{
	rdc_out_str(o, RDC_OUT_ANY, key, fmt, v && *v ? v : NULL);
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
	rdc_out_str_color(o, RDC_OUT_ANY, "netdev_operstate", " %s", nd->operstate,
			  state_color(nd->operstate));
	if (nd->mtu >= 0)
		rdc_out_i64(o, RDC_OUT_ANY, "netdev_mtu", "  mtu %" PRId64, nd->mtu);
	else
		rdc_out_null(o, "netdev_mtu", NULL);
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
	rdc_out_f64(o, RDC_OUT_ANY, "current_speed_gts", "  pcie %.1f GT/s", pci->cur_speed_gts);
	rdc_out_i64(o, RDC_OUT_ANY, "current_width", " x%" PRId64, pci->cur_width);
	rdc_out_f64(o, RDC_OUT_ANY, "max_speed_gts", " (max %.1f GT/s", pci->max_speed_gts);
	rdc_out_i64(o, RDC_OUT_ANY, "max_width", " x%" PRId64 ")", pci->max_width);
	rdc_out_bool(o, RDC_OUT_MACHINE, "degraded", NULL, pci->degraded);
	if (pci->degraded)
		rdc_out_text_color(o, RDC_COLOR_RED, " DEGRADED");
	rdc_out_obj_close(o);
}

static void show_port(struct rdc_out *o, const struct rdc_port *p)
{
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_ANY, "device", "%s", p->device);
	rdc_out_u64(o, RDC_OUT_ANY, "port", "/%" PRIu64, p->port);
	port_out_opt_str(o, "link_layer", "  %s", p->link_layer);
	rdc_out_str_color(o, RDC_OUT_ANY, "state", "  %s", p->state_name,
			  state_color(p->state_name));
	rdc_out_str_color(o, RDC_OUT_ANY, "phys_state", " %s", p->phys_state_name,
			  state_color(p->phys_state_name));
	if (p->rate_gbps > 0)
		rdc_out_f64(o, RDC_OUT_ANY, "rate_gbps", "  %g Gb/s", p->rate_gbps);
	else
		rdc_out_null(o, "rate_gbps", NULL);
	port_out_opt_str(o, "rate_lanes", " (%s)", p->rate_lanes);
	if (p->lid >= 0) {
		rdc_out_i64(o, RDC_OUT_ANY, "lid", "  lid %" PRId64, p->lid);
		rdc_out_i64(o, RDC_OUT_ANY, "sm_lid", " sm_lid %" PRId64, p->sm_lid);
	} else {
		rdc_out_null(o, "lid", NULL);
		rdc_out_null(o, "sm_lid", NULL);
	}
	show_netdev(o, p);
	rdc_out_text(o, "\n    ");
	port_out_opt_str(o, "node_type", "%s", p->node_type);
	port_out_opt_str(o, "fw_ver", "  fw %s", p->fw_ver);
	port_out_opt_str(o, "board_id", "  board %s", p->board_id);
	port_out_opt_str(o, "hca_type", "  hca %s", p->hca_type);
	port_out_opt_str(o, "node_guid", "  guid %s", p->node_guid);
	port_out_opt_str(o, "sys_image_guid", NULL, p->sys_image_guid);
	show_pci(o, p);
	rdc_out_nl(o);
	rdc_out_obj_close(o);
}

int port_show_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts)
{
	struct rdc_port_list ports;
	int rc;

	rc = port_select(ctx, args->object, &ports);
	if (rc)
		return rc;
	rdc_out_begin(ctx->out);
	rdc_out_arr_open(ctx->out, "ports");
	for (size_t i = 0; i < ports.count; i++)
		show_port(ctx->out, &ports.ports[i]);
	rdc_out_arr_close(ctx->out);
	rdc_out_end(ctx->out);
	if (ports.count == 0 && rdc_out_is_text(ctx->out))
		log_warn("port: no RDMA devices found");
	rdc_ports_free(&ports);
	return RDC_EXIT_OK;
}
