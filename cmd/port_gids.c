// SPDX-License-Identifier: GPL-2.0-or-later
/* port_gids.c - `rdmactl port gids`: what show_gids prints, and which GID to use */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "base/log.h"
#include "base/util.h"
#include "host/gid.h"
#include "host/netdev.h"
#include "port.h"
#include "term.h"

/*
 * Text is a table, columns as wide as their data:
 *   PORT      INDEX  GID                       TYPE     NETDEV
 *   mlx5_0/1  3      ::ffff:192.168.10.11      RoCE v2  ens1f0np0  *
 * The GID is written as inet_ntop(3) writes an IPv6 address (`ip` and
 * `rdma` users read it so), which also says its IP: JSON's "ip" column has
 * no text column of its own.
 */
enum { GIDS_PORT, GIDS_INDEX, GIDS_GID, GIDS_TYPE, GIDS_NETDEV, GIDS_MARK, GIDS_COLS };

struct gids_row {
	char port[RDC_IBDEV_NAME + 16];
	char index[16];
	char gid[INET6_ADDRSTRLEN];
	char netdev[IF_NAMESIZE + 16];
	const char *cells[GIDS_COLS];
};

/*
 * Whether a GID's netdev is in this network namespace (the one -n entered).
 * In the RDMA subsystem's shared netns mode a device's table has entries for
 * the netdevs of every namespace, and an application here can use only the
 * ones of its own netdevs.  /sys/class/net is this namespace's (-n mounts
 * its sysfs); the last answer is kept, as a table's entries share a few netdevs.
 */
static bool gids_netdev_here(const char *netdev)
{
	static char last[IF_NAMESIZE];
	static bool here;

	if (strcmp(last, netdev)) {
		here = rdc_netdev_exists(netdev);
		rdc_strlcpy(last, netdev, sizeof(last));
	}
	return here;
}

static void gids_fill(struct gids_row *r, const struct rdc_port *p, const struct rdc_gid *g)
{
	snprintf(r->port, sizeof(r->port), "%s/%u", p->device, p->port);
	snprintf(r->index, sizeof(r->index), "%u", g->index);
	r->cells[GIDS_PORT] = r->port;
	r->cells[GIDS_INDEX] = r->index;
	if (g->unreadable) {
		/* The slot exists but says nothing we can trust: every field unknown. */
		r->cells[GIDS_GID] = r->cells[GIDS_TYPE] = r->cells[GIDS_NETDEV] = "?";
		r->cells[GIDS_MARK] = "";
		return;
	}
	if (!inet_ntop(AF_INET6, g->raw, r->gid, sizeof(r->gid)))
		rdc_strlcpy(r->gid, g->text, sizeof(r->gid));
	r->cells[GIDS_GID] = r->gid;
	r->cells[GIDS_TYPE] = g->type_unreadable ? "?" : rdc_gid_type_name(g->type);
	if (g->netdev[0] && !gids_netdev_here(g->netdev))
		snprintf(r->netdev, sizeof(r->netdev), "%s (other netns)", g->netdev);
	else
		rdc_strlcpy(r->netdev, g->netdev[0] ? g->netdev : "-", sizeof(r->netdev));
	r->cells[GIDS_NETDEV] = r->netdev;
	r->cells[GIDS_MARK] = g->recommended ? "*" : "";
}

/* JSON and YAML: every field under its key (text has the table row instead). */
static void gids_emit(struct rdc_out *o, const struct rdc_port *p, const struct rdc_gid *g)
{
	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, p->device);
	rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, p->port);
	rdc_out_u64(o, RDC_OUT_MACHINE, "index", NULL, g->index);
	if (g->unreadable) {
		rdc_out_null(o, "gid", NULL);
		rdc_out_null(o, "ip", NULL);
		rdc_out_null(o, "ip_family", NULL);
		rdc_out_null(o, "type", NULL);
		rdc_out_null(o, "netdev", NULL);
		rdc_out_null(o, "netdev_in_netns", NULL);
		rdc_out_null(o, "link_local", NULL);
		rdc_out_null(o, "recommended", NULL);
		rdc_out_obj_close(o);
		return;
	}
	rdc_out_str(o, RDC_OUT_MACHINE, "gid", NULL, g->text);
	if (g->family) {
		rdc_out_str(o, RDC_OUT_MACHINE, "ip", NULL, g->ip);
		rdc_out_str(o, RDC_OUT_MACHINE, "ip_family", NULL,
			    g->family == AF_INET ? "ipv4" : "ipv6");
	} else {
		rdc_out_null(o, "ip", NULL);
		rdc_out_null(o, "ip_family", NULL);
	}
	if (g->type_unreadable)
		rdc_out_null(o, "type", NULL);
	else
		rdc_out_str(o, RDC_OUT_MACHINE, "type", NULL, rdc_gid_type_name(g->type));
	port_out_opt_str(o, "netdev", NULL, g->netdev);
	if (g->netdev[0])
		rdc_out_bool(o, RDC_OUT_MACHINE, "netdev_in_netns", NULL,
			     gids_netdev_here(g->netdev));
	else
		rdc_out_null(o, "netdev_in_netns", NULL);
	rdc_out_bool(o, RDC_OUT_MACHINE, "link_local", NULL, g->link_local);
	rdc_out_bool(o, RDC_OUT_MACHINE, "recommended", NULL, g->recommended);
	rdc_out_obj_close(o);
}

/* Whether @g answers the question @q asked: all of a port's GIDs unless an address or upper netdev was named. */
static bool gids_wanted(const struct rdc_port_query *q, const struct rdc_gid *g)
{
	if (q->kind == RDC_NAMED_ADDRESS)
		return !g->unreadable && !memcmp(g->raw, q->gid, sizeof(g->raw));
	if (q->kind == RDC_NAMED_UPPER)
		return !g->unreadable && !strcmp(g->netdev, q->netdev);
	return true;
}

/*
 * The order of an address's GIDs: the recommended one, then RoCE v2 (a
 * link-local address has no recommended GID, and v2 is still what to use),
 * then the rest.
 */
static int gids_rank(const struct rdc_gid *g)
{
	if (g->recommended)
		return 0;
	return g->type == RDC_GID_ROCE_V2 ? 1 : 2;
}

/* Keep the entries @q wants, in place; returns how many are left. */
static size_t gids_keep(const struct rdc_port_query *q, struct rdc_gid *gids, size_t count)
{
	size_t kept = 0;

	for (size_t k = 0; k < count; k++)
		if (gids_wanted(q, &gids[k]))
			gids[kept++] = gids[k];
	return kept;
}

/* Nothing matched an address or an upper netdev that does resolve to a port: say which. */
static int gids_none(struct rdc_ctx *ctx, const struct rdc_port_query *q,
		     const struct rdc_port_list *ports)
{
	const struct rdc_port *p = &ports->ports[0];

	if (q->kind == RDC_NAMED_ADDRESS)
		log_err("%s: no GID of %s/%u carries address %s (it is on '%s')", ctx->verb,
			p->device, p->port, q->addr, q->netdev);
	else
		log_err("%s: no GID of %s/%u is on '%s'", ctx->verb, p->device, p->port, q->netdev);
	return RDC_EXIT_FAIL;
}

int port_gids_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		  void *opts)
{
	struct rdc_port_list ports;
	struct rdc_err err = {0};
	struct rdc_issues issues = {0};
	struct rdc_port_query q;
	struct rdc_gid **tables;
	size_t *counts, total = 0, recommended = 0;
	unsigned int bad;
	static const char *const gids_head[GIDS_COLS] = {"PORT", "INDEX",  "GID",
							 "TYPE", "NETDEV", ""};
	static const enum rdc_color mark_color[GIDS_COLS] = {[GIDS_MARK] = RDC_COLOR_GREEN};
	struct rdc_table t;
	struct rdc_tline l;
	bool by_addr, text;
	int rc;

	rc = port_select(ctx, args->object, &ports, &q);
	if (rc)
		return rc;
	by_addr = args->object && q.kind == RDC_NAMED_ADDRESS;
	/* Read every table before printing: what could not be read is said after the document. */
	tables = calloc(ports.count + 1, sizeof(struct rdc_gid *));
	counts = calloc(ports.count + 1, sizeof(*counts));
	if (!tables || !counts) {
		rdc_err_set(&err, ENOMEM, "cannot read GID tables");
		rc = rdc_fail(ctx, &err);
		goto out;
	}
	for (size_t i = 0; i < ports.count; i++) {
		const struct rdc_port *p = &ports.ports[i];

		/* A bad slot, even a whole unreadable table, never hides the other ports' GIDs. */
		rc = rdc_gid_table_read_all(p->device, p->port,
					    strcmp(p->link_layer, "InfiniBand") != 0, &tables[i],
					    &counts[i], &issues, &err);
		if (rc == -ENOMEM) {
			rc = rdc_fail(ctx, &err);
			goto out;
		}
		if (rc)
			rdc_issues_add(&issues, &err);
		if (args->object)
			counts[i] = gids_keep(&q, tables[i], counts[i]);
		total += counts[i];
	}
	rdc_out_begin(ctx->out, "port-gids");
	text = rdc_out_is_text(ctx->out);
	rdc_table_init(&t, GIDS_COLS);
	rdc_table_fit(&t, gids_head);
	rdc_out_arr_open(ctx->out, "gids");
	/*
	 * For an address, the GID to use comes first (what ib_write_bw -x
	 * wants), then the others that carry it, RoCE v2 before v1; otherwise
	 * table order.  Text walks the rows twice: widths, then the table.
	 */
	for (int walk = text ? 0 : 1; walk < 2; walk++) {
		if (walk && text && total)
			rdc_table_row(&t, ctx->out, gids_head, NULL);
		for (int pass = 0; pass < (by_addr ? 3 : 1); pass++) {
			for (size_t i = 0; i < ports.count; i++) {
				for (size_t k = 0; k < counts[i]; k++) {
					const struct rdc_gid *g = &tables[i][k];
					struct gids_row row = {0};

					if (by_addr && gids_rank(g) != pass)
						continue;
					if (!text) {
						gids_emit(ctx->out, &ports.ports[i], g);
					} else {
						gids_fill(&row, &ports.ports[i], g);
						if (walk)
							rdc_table_row(&t, ctx->out, row.cells,
								      mark_color);
						else
							rdc_table_fit(&t, row.cells);
					}
					recommended += walk && g->recommended;
				}
			}
		}
	}
	rdc_out_arr_close(ctx->out);
	rdc_tline_begin(&l, ctx->out, 0, 2);
	rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "n_gids_found=%zu", total);
	if (recommended)
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE,
			       "(* the GID a RoCEv2 application should use for that IP)");
	rdc_tline_end(&l);
	rdc_out_end(ctx->out);
	bad = port_report_issues(ctx, &issues);
	rc = bad ? RDC_EXIT_FAIL : RDC_EXIT_OK;
	if (!rc && !args->object)
		rc = port_none_found(ctx, ports.count, 0);
	else if (!rc && !total && (q.kind == RDC_NAMED_ADDRESS || q.kind == RDC_NAMED_UPPER))
		rc = gids_none(ctx, &q, &ports);
out:
	for (size_t i = 0; tables && i < ports.count; i++)
		free(tables[i]);
	free(tables);
	free(counts);
	rdc_issues_free(&issues);
	rdc_ports_free(&ports);
	return rc;
}
