// SPDX-License-Identifier: GPL-2.0-or-later
/* port_set.c - `rdmactl port set`: netdev MTU and admin state, diffed and verified */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "host/link.h"
#include "host/netdev.h"
#include "port.h"
#include "signals.h"
#include "write.h"

/*
 * Which netdev a NETDEV | DEV[/PORT] | ADDRESS argument means.  A netdev is
 * itself (a VLAN's MTU is the VLAN's); an address is the netdev that holds
 * it, whose MTU is the one RoCE to that address is bounded by (the GID's
 * ndev); a port is its netdev.
 */
static int set_resolve_netdev(struct rdc_ctx *ctx, const char *object, char *ifname, size_t size)
{
	struct rdc_port_list ports;
	struct rdc_port_query q;
	struct rdc_err err = {0};
	int rc;

	if (rdc_netdev_exists(object))
		return rdc_strlcpy(ifname, object, size) ? RDC_EXIT_FAIL : 0;
	rc = port_select(ctx, object, &ports, &q);
	if (rc)
		return rc;
	if (q.kind == RDC_NAMED_ADDRESS && q.netdev[0]) {
		rdc_strlcpy(ifname, q.netdev, size);
	} else if (ports.count != 1) {
		rdc_err_set(&err, EINVAL, "'%s' has %zu ports; name one as DEV/PORT", object,
			    ports.count);
		rc = rdc_fail(ctx, &err);
	} else if (!ports.ports[0].has_netdev) {
		rdc_err_set(&err, ENODEV, "'%s/%u' has no network interface", ports.ports[0].device,
			    ports.ports[0].port);
		rc = rdc_fail(ctx, &err);
	} else {
		rdc_strlcpy(ifname, ports.ports[0].netdev.name, size);
	}
	rdc_ports_free(&ports);
	return rc;
}

/*
 * The netdev's carrier beside the plan, which the journal keeps as it is
 * (host/link.h): 1, 0, -1 unknown (null), as port show reads it.
 */
struct set_carrier {
	int before, after;
};

/*
 * After: what sysfs reads once the change is made; without a write (a dry
 * run) the carrier before, unless the plan changes the admin state: a link
 * taken down has no carrier to read (EINVAL), one brought up waits for it.
 */
static int set_carrier_after(const struct rdc_link_plan *plan, int before, bool written)
{
	if (written)
		return rdc_link_carrier(plan->before.name);
	return plan->change.admin_up >= 0 ? -1 : before;
}

static void set_emit_state(struct rdc_out *o, const char *key, const struct rdc_link *l,
			   int carrier)
{
	rdc_out_obj_open(o, key);
	rdc_out_u64(o, RDC_OUT_MACHINE, "mtu_bytes", NULL, l->mtu);
	rdc_out_bool(o, RDC_OUT_MACHINE, "admin_up", NULL, l->admin_up);
	if (carrier >= 0)
		rdc_out_bool(o, RDC_OUT_MACHINE, "carrier", NULL, carrier);
	else
		rdc_out_null(o, "carrier", NULL);
	/* "" is an operstate no one can know yet (a planned "up" waits for carrier). */
	rdc_out_str(o, RDC_OUT_MACHINE, "operstate", NULL, l->operstate[0] ? l->operstate : NULL);
	rdc_out_obj_close(o);
}

static void set_report(struct rdc_ctx *ctx, const struct rdc_link *before,
		       const struct rdc_link *after, const struct set_carrier *carrier,
		       bool changed)
{
	struct rdc_out *o = ctx->out;

	rdc_out_begin(o, "port-change");
	rdc_out_str(o, RDC_OUT_ANY, "netdev", "%s:", before->name);
	rdc_out_bool(o, RDC_OUT_MACHINE, "changed", NULL, changed);
	rdc_out_bool(o, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	ctx->would_change = changed;
	set_emit_state(o, "before", before, carrier->before);
	set_emit_state(o, "after", after, carrier->after);
	if (!changed)
		rdc_out_text(o, " already mtu %u, %s (nothing sent)", before->mtu,
			     before->admin_up ? "up" : "down");
	if (before->mtu != after->mtu)
		rdc_out_text(o, " mtu %u -> %u", before->mtu, after->mtu);
	if (before->admin_up != after->admin_up)
		rdc_out_text(o, " %s -> %s", before->admin_up ? "up" : "down",
			     after->admin_up ? "up" : "down");
	/* Brought up (or changed while up) and still without a link: "down -> up (no-carrier)". */
	if (changed && !ctx->dry_run && after->admin_up && carrier->after == 0)
		rdc_out_text(o, " (no-carrier)");
	if (changed && ctx->dry_run)
		rdc_out_text(o, " (dry run: nothing sent)");
	rdc_out_nl(o);
	rdc_out_end(o);
}

/*
 * Send the change through the change engine (base/change.h); a failed one
 * puts the old state back itself.  SIGINT and SIGTERM wait for it
 * (signals.h) and then put back the MTU and state read before.
 */
static int set_write(struct rdc_ctx *ctx, struct rdc_link_plan *plan)
{
	const struct rdc_change change = {&rdc_link_change_ops, plan};
	struct rdc_change_result res;
	struct rdc_err err = {0};

	rdc_sig_defer_begin();
	rdc_write_commit(ctx, &change, 1, rdc_sig_flag(), &res, &err);
	return rdc_sig_finish(ctx, res.rc, &err, res.undo_rc, &res.undo);
}

int port_set_run(struct rdc_ctx *ctx, const struct rdc_action *act, const struct rdc_args *args,
		 void *opts)
{
	const struct port_set_opts *so = opts;
	struct rdc_link_plan plan;
	struct set_carrier carrier;
	struct rdc_err err = {0};
	char ifname[IF_NAMESIZE];
	bool written = false;
	int rc;

	if (so->admin_up < 0 && !so->mtu_given)
		return rdc_usage_error(ctx, "set: nothing to set: give mtu N, up or down");
	/* A dry run only reads: it plans against a bundle or recording too (issue 13). */
	rc = rdc_writes_allowed(ctx);
	if (rc)
		return rc;
	rc = set_resolve_netdev(ctx, args->object, ifname, sizeof(ifname));
	if (rc)
		return rc;
	/* Held from before the state is read until the change is verified or undone. */
	rc = rdc_lock_netdev(ctx, ifname);
	if (rc)
		return rc;
	if (rdc_link_plan_make(ifname, so->mtu_given ? (int64_t)so->mtu : -1, so->admin_up, &plan,
			       &err))
		return rdc_fail(ctx, &err);
	carrier.before = rdc_link_carrier(ifname);
	/* Only what differs is sent; nothing at all when nothing differs. */
	if (plan.changed && !ctx->dry_run) {
		rc = set_write(ctx, &plan);
		if (rc)
			return rc;
		written = true;
	}
	carrier.after = set_carrier_after(&plan, carrier.before, written);
	set_report(ctx, &plan.before, &plan.after, &carrier, plan.changed);
	return RDC_EXIT_OK;
}
