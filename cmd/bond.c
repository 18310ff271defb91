// SPDX-License-Identifier: GPL-2.0-or-later
/* bond.c - `rdmactl bond`: the descriptor, `bond show`, and the changes (create .. apply) */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "base/log.h"
#include "base/util.h"
#include "bond/bond.h"
#include "bond/netplan.h"
#include "bond/plan.h"
#include "host/link.h"
#include "bond.h"
#include "signals.h"
#include "write.h"
#include "term.h"

/* ---- keyword converters: the want of create, set, add, del ---- */

#define WANT(field) offsetof(struct bond_opts, want.field)

/* An enum of lib/bond's names, with the "given" flag beside it. */
struct bond_enum_spec {
	int (*parse)(const char *name, int *value);
	const char *valid;
	size_t given;
};

static int bond_enum(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		     void *opts)
{
	const struct bond_enum_spec *spec = p->spec;
	int v;

	(void)n;
	if (spec->parse(w[0], &v))
		return rdc_usage_error(ctx, "'%s %s': not %s", p->name, w[0], spec->valid);
	memcpy((char *)opts + p->dest, &v, sizeof(v));
	*(bool *)(void *)((char *)opts + spec->given) = true;
	return 0;
}

/*
 * Milliseconds, as netplan writes them too:
 *   "100" "100ms" -> 100     "2s" -> 2000     "-1" "1.5s" "100us" -> usage error
 */
static int bond_ms(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		   void *opts)
{
	const size_t *given = p->spec;
	char num[24];
	const char *s = w[0];
	size_t len = strspn(s, "0123456789");
	uint64_t v, scale = 1;
	uint32_t ms;

	(void)n;
	if (!strcmp(s + len, "s"))
		scale = 1000;
	else if (s[len] && strcmp(s + len, "ms"))
		len = 0;
	if (!len || len >= sizeof(num))
		return rdc_usage_error(ctx, "'%s %s': not milliseconds (N, Nms or Ns)", p->name, s);
	memcpy(num, s, len);
	num[len] = '\0';
	if (rdc_parse_u64(num, 10, &v) || v > INT32_MAX / scale)
		return rdc_usage_error(ctx, "'%s %s': out of range 0-%d ms", p->name, s, INT32_MAX);
	ms = (uint32_t)(v * scale);
	memcpy((char *)opts + p->dest, &ms, sizeof(ms));
	*(bool *)(void *)((char *)opts + *given) = true;
	return 0;
}

/* "eth0,eth1": the members, exactly. */
static int bond_members(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
			void *opts)
{
	struct bond_opts *bo = opts;
	char copy[RDC_BOND_MAX_MEMBERS * IF_NAMESIZE + 1], *tok, *save = NULL;

	bo->want.members_exact = true;
	for (int i = 0; i < n; i++) {
		if (rdc_strlcpy(copy, w[i], sizeof(copy)))
			return rdc_usage_error(ctx, "'%s': too long", p->name);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (bo->want.nmembers == RDC_BOND_MAX_MEMBERS)
				return rdc_usage_error(ctx, "'%s': at most %d members", p->name,
						       RDC_BOND_MAX_MEMBERS);
			if (rdc_strlcpy(bo->want.members[bo->want.nmembers++], tok, IF_NAMESIZE))
				return rdc_usage_error(ctx,
						       "'%s %s': '%s' is not an interface name",
						       p->name, w[i], tok);
		}
	}
	if (!bo->want.nmembers)
		return rdc_usage_error(ctx, "'%s': name at least one interface", p->name);
	return 0;
}

static int bond_primary(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
			void *opts)
{
	struct bond_opts *bo = opts;

	(void)n;
	if (strcmp(w[0], "none") && rdc_strlcpy(bo->want.primary, w[0], IF_NAMESIZE))
		return rdc_usage_error(ctx, "'%s %s': not an interface name", p->name, w[0]);
	bo->want.opts.primary_given = true;
	return 0;
}

static const char *const mode_values[] = {"active-backup", "802.3ad",	"balance-xor",
					  "balance-rr",	   "broadcast", "balance-tlb",
					  "balance-alb",   NULL};
static const char *const hash_values[] = {"layer3+4", "layer2",	     "layer2+3", "encap2+3",
					  "encap3+4", "vlan+srcmac", NULL};
static const char *const rate_values[] = {"fast", "slow", NULL};
static const char *const select_values[] = {"stable", "bandwidth", "count", NULL};

static const struct bond_enum_spec mode_spec = {
	rdc_bond_mode_parse,
	"active-backup, 802.3ad, balance-xor, balance-rr, broadcast, balance-tlb or balance-alb",
	WANT(opts.mode_given)};
static const struct bond_enum_spec hash_spec = {
	rdc_bond_hash_parse, "layer3+4, layer2, layer2+3, encap2+3, encap3+4 or vlan+srcmac",
	WANT(opts.hash_given)};
static const struct bond_enum_spec rate_spec = {rdc_bond_lacp_rate_parse, "fast or slow",
						WANT(opts.lacp_rate_given)};
static const struct bond_enum_spec select_spec = {
	rdc_bond_ad_select_parse, "stable, bandwidth or count", WANT(opts.ad_select_given)};
static const size_t miimon_spec = WANT(opts.miimon_given);
static const size_t updelay_spec = WANT(opts.updelay_given);
static const size_t downdelay_spec = WANT(opts.downdelay_given);
static const struct rdc_val_uint min_links_spec = {.min = 0,
						   .max = RDC_BOND_MAX_MEMBERS,
						   .size = sizeof(uint32_t),
						   .given = WANT(opts.min_links_given)};

/* The options of create and set: one table for the command line and netplan files. */
#define BOND_OPTION_PARAMS                                                                         \
	{.name = "mode",                                                                           \
	 .metavar = "MODE",                                                                        \
	 .suggest = mode_values,                                                                   \
	 .help = "active-backup, 802.3ad or balance-xor for RoCE LAG (others: no LAG)",            \
	 .parse = bond_enum,                                                                       \
	 .dest = WANT(opts.mode),                                                                  \
	 .spec = &mode_spec},                                                                      \
		{.name = "xmit-hash",                                                              \
		 .metavar = "POLICY",                                                              \
		 .suggest = hash_values,                                                           \
		 .help = "transmit hash (802.3ad, balance-xor): layer3+4 spreads RoCE",            \
		 .parse = bond_enum,                                                               \
		 .dest = WANT(opts.hash),                                                          \
		 .spec = &hash_spec},                                                              \
		{.name = "miimon",                                                                 \
		 .metavar = "MS",                                                                  \
		 .help = "link monitoring interval (0: off)",                                      \
		 .parse = bond_ms,                                                                 \
		 .dest = WANT(opts.miimon_ms),                                                     \
		 .spec = &miimon_spec},                                                            \
		{.name = "updelay",                                                                \
		 .metavar = "MS",                                                                  \
		 .help = "wait before using a member whose link came back (a multiple of miimon)", \
		 .parse = bond_ms,                                                                 \
		 .dest = WANT(opts.updelay_ms),                                                    \
		 .spec = &updelay_spec},                                                           \
		{.name = "downdelay",                                                              \
		 .metavar = "MS",                                                                  \
		 .help = "wait before dropping a member whose link went (a multiple of miimon)",   \
		 .parse = bond_ms,                                                                 \
		 .dest = WANT(opts.downdelay_ms),                                                  \
		 .spec = &downdelay_spec},                                                         \
		{.name = "lacp-rate",                                                              \
		 .metavar = "fast|slow",                                                           \
		 .suggest = rate_values,                                                           \
		 .help = "ask the partner for LACPDUs every second (fast) or 30 s (802.3ad)",      \
		 .parse = bond_enum,                                                               \
		 .dest = WANT(opts.lacp_rate),                                                     \
		 .spec = &rate_spec},                                                              \
		{.name = "ad-select",                                                              \
		 .metavar = "POLICY",                                                              \
		 .suggest = select_values,                                                         \
		 .help = "aggregator selection (802.3ad): stable, bandwidth or count",             \
		 .parse = bond_enum,                                                               \
		 .dest = WANT(opts.ad_select),                                                     \
		 .spec = &select_spec},                                                            \
		{.name = "primary",                                                                \
		 .metavar = "IF",                                                                  \
		 .value_kind = RDC_COMPLETE_NETDEV,                                                \
		 .help = "the member active-backup prefers (none: no preference)",                 \
		 .parse = bond_primary},                                                           \
	{                                                                                          \
		.name = "min-links", .metavar = "N",                                               \
		.help = "members that must be up for the bond to have carrier",                    \
		.parse = rdc_val_uint, .dest = WANT(opts.min_links), .spec = &min_links_spec       \
	}

static const struct rdc_param bond_create_params[] = {
	{.name = "members",
	 .metavar = "IF[,IF]...",
	 .value_kind = RDC_COMPLETE_NETDEV,
	 .help = "the member interfaces (taken down, enslaved, brought up)",
	 .parse = bond_members},
	BOND_OPTION_PARAMS,
	{.name = NULL},
};

static const struct rdc_param bond_set_params[] = {
	BOND_OPTION_PARAMS,
	{.name = NULL},
};

static const struct rdc_param bond_apply_params[] = {
	{.name = "-f",
	 .metavar = "FILE.yaml",
	 .value_kind = RDC_COMPLETE_FILE,
	 .help = "bonds in netplan's schema (network: bonds: NAME: interfaces, parameters)",
	 .parse = rdc_val_string,
	 .dest = offsetof(struct bond_opts, file)},
	{.name = NULL},
};

void bond_defaults(void *opts)
{
	struct bond_opts *bo = opts;

	bo->qp_timeout = 14; /* perftest's DEF_QP_TIME, and what rdma_cm users commonly set */
	bo->retry_cnt = 7;
	bo->probe_hz = 1000;
	bo->bench_port = 18515;
}

/* ---- output: one call sequence for text, JSON and YAML ---- */

static const struct {
	unsigned int bit;
	const char *name;
} lacp_bits[] = {
	{RDC_LACP_ACTIVITY, "activity"},       {RDC_LACP_TIMEOUT, "short_timeout"},
	{RDC_LACP_AGGREGATION, "aggregating"}, {RDC_LACP_SYNC, "in_sync"},
	{RDC_LACP_COLLECTING, "collecting"},   {RDC_LACP_DISTRIBUTING, "distributing"},
	{RDC_LACP_DEFAULTED, "defaulted"},     {RDC_LACP_EXPIRED, "expired"},
};

/*
 * Text lines wrap at the width (cmd/term.h).  @text false (a plan's before
 * and after) sends every field to JSON and YAML only: those helpers never
 * touch the line then.
 */
static void line_begin(struct rdc_tline *l, struct rdc_out *o, bool text, int indent, int hang)
{
	if (text) {
		rdc_tline_begin(l, o, indent, hang);
		return;
	}
	memset(l, 0, sizeof(*l));
	l->o = o;
}

static void line_end(struct rdc_tline *l, bool text)
{
	if (text)
		rdc_tline_end(l);
}

/* An LACP port state: its number and the flags it holds, by name. */
static void emit_lacp(struct rdc_tline *l, enum rdc_tl_sep sep, const char *key, int64_t state,
		      bool text)
{
	if (state < 0) {
		if (text)
			rdc_tline_null(l, sep, key, "-");
		else
			rdc_out_null(l->o, key, NULL);
		return;
	}
	rdc_out_obj_open(l->o, key);
	if (text)
		rdc_tline_u64(l, sep, "value", "%" PRIu64, (uint64_t)state);
	else
		rdc_out_u64(l->o, RDC_OUT_MACHINE, "value", NULL, (uint64_t)state);
	rdc_out_arr_open(l->o, "flags");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(lacp_bits); i++)
		if (state & lacp_bits[i].bit)
			rdc_out_str(l->o, RDC_OUT_MACHINE, NULL, NULL, lacp_bits[i].name);
	rdc_out_arr_close(l->o);
	rdc_out_obj_close(l->o);
}

static void emit_int(struct rdc_tline *l, bool text, enum rdc_tl_sep sep, const char *key,
		     const char *fmt, int64_t v)
{
	if (v < 0)
		rdc_out_null(l->o, key, NULL);
	else if (text && fmt)
		rdc_tline_i64(l, sep, key, fmt, v);
	else
		rdc_out_i64(l->o, RDC_OUT_MACHINE, key, NULL, v);
}

static void emit_name(struct rdc_tline *l, bool text, enum rdc_tl_sep sep, const char *key,
		      const char *fmt, const char *v)
{
	v = v && *v ? v : NULL;
	if (text && fmt)
		rdc_tline_str(l, sep, key, fmt, v, RDC_COLOR_NONE);
	else
		rdc_out_str(l->o, RDC_OUT_MACHINE, key, NULL, v);
}

/*
 * A netdev's admin state and operstate from sysfs (host/link.h), as port
 * show reads them; unknown when the netdev or its files are not there.
 */
static void netdev_state_read(const char *name, struct bond_netdev_state *ns)
{
	struct rdc_link link;

	ns->admin_up = -1;
	ns->carrier = -1;
	ns->operstate[0] = '\0';
	if (!name[0] || rdc_link_read_sysfs(name, &link, NULL))
		return;
	ns->admin_up = link.admin_up;
	ns->carrier = rdc_link_carrier(name);
	rdc_strlcpy(ns->operstate, link.operstate, sizeof(ns->operstate));
}

static void emit_netdev_state(struct rdc_out *o, const struct bond_netdev_state *ns)
{
	if (ns->admin_up < 0)
		rdc_out_null(o, "admin_up", NULL);
	else
		rdc_out_bool(o, RDC_OUT_MACHINE, "admin_up", NULL, ns->admin_up);
}

static void emit_operstate(struct rdc_out *o, const struct bond_netdev_state *ns)
{
	rdc_out_str(o, RDC_OUT_MACHINE, "operstate", NULL, ns->operstate[0] ? ns->operstate : NULL);
}

/* The text columns of a bond's member lines, as wide as their widest value. */
struct member_cols {
	int name, state, mii, speed, duplex;
};

static const char *member_state(const struct rdc_bond_member *m)
{
	return m->state == 0 ? "active" : m->state == 1 ? "backup" : NULL;
}

/* "100 Gb/s", or Mb/s when that is not whole. */
static void member_speed(char *buf, size_t size, int64_t mbps)
{
	if (mbps < 0)
		snprintf(buf, size, "-");
	else if (mbps && mbps % 1000 == 0)
		snprintf(buf, size, "%" PRId64 " Gb/s", mbps / 1000);
	else
		snprintf(buf, size, "%" PRId64 " Mb/s", mbps);
}

static int cols_max(int a, const char *s)
{
	int n = rdc_term_cols(s ? s : "-");

	return n > a ? n : a;
}

static void member_cols_fit(struct member_cols *c, const struct rdc_bond *b)
{
	char speed[32];

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < b->nmembers; i++) {
		const struct rdc_bond_member *m = &b->members[i];

		member_speed(speed, sizeof(speed), m->speed_mbps);
		c->name = cols_max(c->name, m->name);
		c->state = cols_max(c->state, member_state(m));
		c->mii = cols_max(c->mii, rdc_bond_mii_status_name(m->mii_status));
		c->speed = cols_max(c->speed, speed);
		c->duplex = cols_max(c->duplex, m->duplex[0] ? m->duplex : NULL);
	}
}

/*
 *   ens1f0np0  active  up  100 Gb/s  full  failures 0 aggregator 1 lacp 63/63
 * The first five are columns across the bond's members; JSON and YAML get
 * the same values under their keys.
 */
static void emit_member(struct rdc_out *o, const struct rdc_bond_member *m,
			const struct bond_netdev_state *ns, const struct member_cols *c, bool text)
{
	const char *state = member_state(m), *mii = rdc_bond_mii_status_name(m->mii_status);
	bool lacp_text = text && (m->actor_port_state >= 0 || m->partner_port_state >= 0);
	struct rdc_tline l;
	char speed[32];

	rdc_out_obj_open(o, NULL);
	line_begin(&l, o, text, 2, 6);
	member_speed(speed, sizeof(speed), m->speed_mbps);
	rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL, m->name[0] ? m->name : NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "state", NULL, state);
	rdc_out_str(o, RDC_OUT_MACHINE, "mii_status", NULL, mii);
	/* The member netdev's own state; mii_status above is the bond's verdict on it. */
	emit_netdev_state(o, ns);
	/* Netlink's IFLA_CARRIER; a member read from procfs alone (no ifindex): sysfs's. */
	if (m->ifindex > 0)
		rdc_out_bool(o, RDC_OUT_MACHINE, "carrier", NULL, m->carrier);
	else if (ns->carrier >= 0)
		rdc_out_bool(o, RDC_OUT_MACHINE, "carrier", NULL, ns->carrier);
	else
		rdc_out_null(o, "carrier", NULL);
	emit_operstate(o, ns);
	/* Gb/s, as port show's rate_gbps (the kernel says Mb/s). */
	if (m->speed_mbps < 0)
		rdc_out_null(o, "rate_gbps", NULL);
	else
		rdc_out_f64(o, RDC_OUT_MACHINE, "rate_gbps", NULL, (double)m->speed_mbps / 1000.0);
	rdc_out_str(o, RDC_OUT_MACHINE, "duplex", NULL, m->duplex[0] ? m->duplex : NULL);
	if (text) {
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "%-*s", c->name, m->name);
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "%-*s", c->state,
			       state ? state : "-");
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "%-*s", c->mii, mii ? mii : "-");
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "%*s", c->speed, speed);
		rdc_tline_text(&l, RDC_TL_GAP, RDC_COLOR_NONE, "%-*s", c->duplex,
			       m->duplex[0] ? m->duplex : "-");
	}
	emit_int(&l, text, RDC_TL_GAP, "mtu_bytes", NULL, m->mtu);
	emit_int(&l, text, RDC_TL_GAP, "link_failure_count", "failures %" PRId64,
		 m->link_failure_count);
	emit_name(&l, false, RDC_TL_GAP, "perm_hwaddr", NULL, m->perm_hwaddr);
	emit_int(&l, text, RDC_TL_SPACE, "aggregator_id", "aggregator %" PRId64, m->aggregator_id);
	/* Always in JSON and YAML (null outside 802.3ad); in text only when known. */
	if (lacp_text)
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "lacp");
	emit_lacp(&l, RDC_TL_SPACE, "actor_port_state", m->actor_port_state, lacp_text);
	if (lacp_text)
		rdc_tline_text(&l, RDC_TL_JOIN, RDC_COLOR_NONE, "/");
	emit_lacp(&l, RDC_TL_JOIN, "partner_port_state", m->partner_port_state, lacp_text);
	line_end(&l, text);
	rdc_out_obj_close(o);
}

void bond_states_read(const struct rdc_bond *b, struct bond_states *s)
{
	memset(s, 0, sizeof(*s));
	netdev_state_read(b->name, &s->bond);
	for (size_t i = 0; i < b->nmembers && i < RDC_ARRAY_SIZE(s->members); i++)
		netdev_state_read(b->members[i].name, &s->members[i]);
}

void bond_emit(struct rdc_out *o, const char *key, const struct rdc_bond *b,
	       const struct bond_states *s, bool text)
{
	static const struct bond_netdev_state unknown = {.admin_up = -1, .carrier = -1};
	bool lacp = b->mode == RDC_BOND_8023AD;
	struct bond_netdev_state bs = s ? s->bond : unknown;
	struct member_cols cols;
	struct rdc_tline l;

	/* Netlink's flags (or sysfs's, bond/bond.c) when the record has them. */
	if (b->ifindex > 0)
		bs.admin_up = b->admin_up;
	rdc_out_obj_open(o, key);
	line_begin(&l, o, text, 0, 4);
	emit_name(&l, text, RDC_TL_SPACE, "bond", "%s:", b->name);
	emit_name(&l, text, RDC_TL_SPACE, "mode", "%s", rdc_bond_mode_name(b->mode));
	emit_netdev_state(o, &bs);
	rdc_out_bool(o, RDC_OUT_MACHINE, "carrier", NULL, b->carrier);
	emit_operstate(o, &bs);
	if (text)
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "%s",
			       !b->admin_up ? "down"
			       : b->carrier ? "up"
					    : "no-carrier");
	emit_int(&l, text, RDC_TL_SPACE, "mtu_bytes", "mtu %" PRId64, b->mtu);
	emit_int(&l, text, RDC_TL_SPACE, "miimon_ms", "miimon %" PRId64 " ms", b->miimon_ms);
	emit_int(&l, text, RDC_TL_SPACE, "updelay_ms", "updelay %" PRId64, b->updelay_ms);
	emit_int(&l, text, RDC_TL_SPACE, "downdelay_ms", "downdelay %" PRId64, b->downdelay_ms);
	emit_int(&l, false, RDC_TL_SPACE, "arp_interval_ms", NULL, b->arp_interval_ms);
	emit_name(&l, text, RDC_TL_SPACE, "xmit_hash_policy", "hash %s",
		  rdc_bond_hash_name(b->xmit_hash_policy));
	emit_name(&l, text && lacp, RDC_TL_SPACE, "lacp_rate", "lacp-rate %s",
		  rdc_bond_lacp_rate_name(b->lacp_rate));
	emit_name(&l, text && lacp, RDC_TL_SPACE, "ad_select", "ad-select %s",
		  rdc_bond_ad_select_name(b->ad_select));
	emit_int(&l, text && lacp, RDC_TL_SPACE, "min_links", "min-links %" PRId64, b->min_links);
	emit_name(&l, text, RDC_TL_SPACE, "primary", "primary %s", b->primary);
	emit_name(&l, text, RDC_TL_SPACE, "active_member", "active %s", b->active_member);
	line_end(&l, text);
	if (b->ad_aggregator_id >= 0 || b->ad_partner_mac[0]) {
		rdc_out_obj_open(o, "ad_info");
		line_begin(&l, o, text, 2, 4);
		emit_int(&l, text, RDC_TL_SPACE, "aggregator_id", "aggregator %" PRId64,
			 b->ad_aggregator_id);
		emit_int(&l, text, RDC_TL_SPACE, "num_ports", "(%" PRId64 " ports)",
			 b->ad_num_ports);
		emit_int(&l, text, RDC_TL_SPACE, "actor_key", "actor key %" PRId64,
			 b->ad_actor_key);
		emit_int(&l, text, RDC_TL_SPACE, "partner_key", "partner key %" PRId64,
			 b->ad_partner_key);
		emit_name(&l, text, RDC_TL_SPACE, "partner_mac", "partner %s", b->ad_partner_mac);
		line_end(&l, text);
		rdc_out_obj_close(o);
	} else {
		rdc_out_null(o, "ad_info", NULL);
	}
	member_cols_fit(&cols, b);
	rdc_out_arr_open(o, "members");
	for (size_t i = 0; i < b->nmembers; i++)
		emit_member(o, &b->members[i],
			    s && i < RDC_ARRAY_SIZE(s->members) ? &s->members[i] : &unknown, &cols,
			    text);
	rdc_out_arr_close(o);
	if (text && !b->nmembers)
		rdc_out_text(o, "  no members\n");
	rdc_out_obj_open(o, "rdma");
	if (b->rdma_device[0]) {
		line_begin(&l, o, text, 2, 4);
		emit_name(&l, text, RDC_TL_SPACE, "device", "rdma %s", b->rdma_device);
		if (text)
			rdc_tline_u64(&l, RDC_TL_JOIN, "port", "/%" PRIu64, b->rdma_port);
		else
			rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, b->rdma_port);
		rdc_out_bool(o, RDC_OUT_MACHINE, "roce_lag", NULL, !b->rdma_soft);
		rdc_out_bool(o, RDC_OUT_MACHINE, "soft_roce", NULL, b->rdma_soft);
		rdc_out_null(o, "reason", NULL);
		if (text && b->rdma_soft)
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE,
				       "(Soft-RoCE on %s: follows the active member)", b->name);
		else if (text)
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE,
				       "(RoCE LAG: the RDMA port's netdev is %s)", b->name);
		line_end(&l, text);
	} else {
		rdc_out_null(o, "device", NULL);
		rdc_out_null(o, "port", NULL);
		rdc_out_bool(o, RDC_OUT_MACHINE, "roce_lag", NULL, false);
		rdc_out_bool(o, RDC_OUT_MACHINE, "soft_roce", NULL, false);
		rdc_out_str(o, RDC_OUT_MACHINE, "reason", NULL,
			    b->rdma_reason[0] ? b->rdma_reason : NULL);
		if (text && b->rdma_reason[0] && rdc_out_is_text(o)) {
			/* A sentence: wrapped between its words. */
			rdc_tline_begin(&l, o, 2, 4);
			rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "rdma none:");
			rdc_tline_words(&l, RDC_TL_SPACE, b->rdma_reason);
			rdc_tline_end(&l);
		}
	}
	rdc_out_obj_close(o);
	rdc_out_obj_close(o);
}

/* ---- show ---- */

/*
 * --brief: one line a bond, columns as wide as their data; members with
 * their MII state:
 *   BOND   MODE     STATE  ACTIVE  MEMBERS                    RDMA
 *   bond0  802.3ad  up     -       ens1f0np0:up,ens1f1np1:up  mlx5_bond_0/1
 */
enum { BRIEF_BOND, BRIEF_MODE, BRIEF_STATE, BRIEF_ACTIVE, BRIEF_MEMBERS, BRIEF_RDMA, BRIEF_COLS };

struct brief_row {
	char members[RDC_BOND_MAX_MEMBERS * (IF_NAMESIZE + 12)];
	char rdma[96];
	const char *cells[BRIEF_COLS];
};

static void brief_fill(struct brief_row *r, const struct rdc_bond *b)
{
	size_t len = 0;

	r->cells[BRIEF_BOND] = b->name;
	r->cells[BRIEF_MODE] = rdc_bond_mode_name(b->mode);
	r->cells[BRIEF_STATE] = !b->admin_up ? "down" : b->carrier ? "up" : "no-carrier";
	r->cells[BRIEF_ACTIVE] = b->active_member[0] ? b->active_member : "-";
	r->members[0] = '\0';
	for (size_t i = 0; i < b->nmembers && len < sizeof(r->members); i++) {
		const char *mii = rdc_bond_mii_status_name(b->members[i].mii_status);
		int n = snprintf(r->members + len, sizeof(r->members) - len, "%s%s:%s",
				 i ? "," : "", b->members[i].name, mii ? mii : "?");

		len += n > 0 ? (size_t)n : 0;
	}
	r->cells[BRIEF_MEMBERS] = b->nmembers ? r->members : "-";
	if (b->rdma_device[0])
		snprintf(r->rdma, sizeof(r->rdma), "%s/%u", b->rdma_device, b->rdma_port);
	else
		snprintf(r->rdma, sizeof(r->rdma), "none");
	r->cells[BRIEF_RDMA] = r->rdma;
}

static void bond_show_brief(struct rdc_ctx *ctx, const struct rdc_bond_list *list, const char *only)
{
	static const char *const head[BRIEF_COLS] = {"BOND",   "MODE",	  "STATE",
						     "ACTIVE", "MEMBERS", "RDMA"};
	static struct brief_row rows[RDC_BOND_MAX];
	struct rdc_table t;
	size_t n = 0;

	rdc_table_init(&t, BRIEF_COLS);
	rdc_table_fit(&t, head);
	for (size_t i = 0; i < list->count; i++) {
		if (only && strcmp(list->bonds[i].name, only))
			continue;
		brief_fill(&rows[n], &list->bonds[i]);
		rdc_table_fit(&t, rows[n++].cells);
	}
	if (n)
		rdc_table_row(&t, ctx->out, head, NULL);
	for (size_t i = 0; i < n; i++)
		rdc_table_row(&t, ctx->out, rows[i].cells, NULL);
}

static int bond_show_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			 const struct rdc_args *args, void *opts)
{
	struct rdc_bond_list *list = malloc(sizeof(*list));
	struct rdc_err err = {0};
	size_t shown = 0;

	if (!list)
		return rdc_oom(ctx);
	if (rdc_bond_read_all(list, &err)) {
		free(list);
		return rdc_fail(ctx, &err);
	}
	if (args->object) {
		size_t i;

		for (i = 0; i < list->count && strcmp(list->bonds[i].name, args->object); i++)
			;
		if (i == list->count) {
			free(list);
			rdc_err_set(&err, ENODEV, "no bond '%s'", args->object);
			rdc_err_mark(&err, RDC_ERRK_NOT_FOUND, args->object);
			return rdc_fail(ctx, &err);
		}
	}
	/* --brief changes only text: JSON and YAML are the same document either way. */
	if (ctx->brief && rdc_out_is_text(ctx->out)) {
		bond_show_brief(ctx, list, args->object);
		for (size_t i = 0; i < list->count; i++)
			shown += !args->object || !strcmp(list->bonds[i].name, args->object);
	} else {
		rdc_out_begin(ctx->out, "bond-show");
		rdc_out_arr_open(ctx->out, "bonds");
		for (size_t i = 0; i < list->count; i++) {
			struct bond_states states;

			if (args->object && strcmp(list->bonds[i].name, args->object))
				continue;
			bond_states_read(&list->bonds[i], &states);
			bond_emit(ctx->out, NULL, &list->bonds[i], &states, true);
			shown++;
		}
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
	}
	if (!shown && rdc_out_is_text(ctx->out))
		rdc_out_text(ctx->out, "no bonds\n");
	free(list);
	return RDC_EXIT_OK;
}

/* ---- changes ---- */

/*
 * The netdev states of a plan's bond before the write (read before it) and
 * after (read after it).
 */
struct plan_states {
	struct bond_states before, after;
};

static void plan_report(struct rdc_ctx *ctx, const struct rdc_bond_plan *p,
			const struct plan_states *ps)
{
	struct rdc_out *o = ctx->out;
	bool changed = !rdc_bond_plan_empty(p);

	rdc_out_obj_open(o, NULL);
	rdc_out_str(o, RDC_OUT_ANY, "bond", "%s:", p->name);
	rdc_out_bool(o, RDC_OUT_MACHINE, "changed", NULL, changed);
	rdc_out_bool(o, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
	if (!changed)
		rdc_out_text(o, " nothing to change (nothing sent)\n");
	else if (ctx->dry_run)
		rdc_out_text(o, " would change (dry run: nothing sent)\n");
	else
		rdc_out_text(o, " changed and verified\n");
	rdc_out_arr_open(o, "steps");
	for (size_t i = 0; i < p->nsteps; i++) {
		static const char *const ops[] = {
			[RDC_BOND_OP_CREATE] = "create",   [RDC_BOND_OP_DELETE] = "delete",
			[RDC_BOND_OP_OPTS] = "set",	   [RDC_BOND_OP_DOWN] = "down",
			[RDC_BOND_OP_UP] = "up",	   [RDC_BOND_OP_ENSLAVE] = "enslave",
			[RDC_BOND_OP_RELEASE] = "release",
		};

		rdc_out_obj_open(o, NULL);
		rdc_out_str(o, RDC_OUT_MACHINE, "op", NULL, ops[p->steps[i].op]);
		rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL,
			    p->steps[i].op == RDC_BOND_OP_OPTS ? p->name : p->steps[i].netdev);
		rdc_out_str(o, RDC_OUT_ANY, "text", "  %s\n", p->steps[i].text);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_out_arr_open(o, "skipped");
	for (size_t i = 0; i < p->nskipped; i++)
		rdc_out_str(o, RDC_OUT_ANY, NULL, "  %s: not used in this mode, not sent\n",
			    p->skipped[i]);
	rdc_out_arr_close(o);
	if (p->existed)
		bond_emit(o, "before", &p->before, &ps->before, false);
	else
		rdc_out_null(o, "before", NULL);
	if (changed && !ctx->dry_run && !p->deleted)
		bond_emit(o, "after", &p->after, &ps->after, false);
	else if (!changed)
		bond_emit(o, "after", &p->before, &ps->before, false);
	else
		rdc_out_null(o, "after", NULL); /* a dry run, or the bond is gone */
	rdc_out_obj_close(o);
}

/*
 * Write the plans, undo earlier bonds on a failure.  Writing and undoing are
 * one critical section (signals.h): SIGINT or SIGTERM stops the plan under way
 * between two steps (rdc_bond_plan_apply undoes its steps) and every bond
 * written before it is put back too.
 */
static int bond_write(struct rdc_ctx *ctx, struct rdc_bond_plan *plans, size_t nwants)
{
	struct rdc_change *changes = calloc(nwants ? nwants : 1, sizeof(*changes));
	struct rdc_change_result res;
	struct rdc_err err = {0};
	int rc;

	if (!changes)
		return rdc_oom(ctx);
	for (size_t i = 0; i < nwants; i++) {
		changes[i].ops = &rdc_bond_change_ops;
		changes[i].plan = &plans[i];
	}
	rdc_sig_defer_begin();
	rc = rdc_write_commit(ctx, changes, nwants, rdc_sig_flag(), &res, &err);
	free(changes);
	return rdc_sig_finish(ctx, rc, &err, res.undo_rc, &res.undo);
}

/* Plan every want first (all or nothing), then write. */
static int bond_change(struct rdc_ctx *ctx, const struct rdc_bond_want *wants, size_t nwants,
		       bool delete)
{
	struct rdc_bond_plan *plans = calloc(nwants ? nwants : 1, sizeof(*plans));
	struct plan_states *states = calloc(nwants ? nwants : 1, sizeof(*states));
	struct rdc_err err = {0};
	bool changed = false;
	int rc = 0;

	if (!plans || !states) {
		free(plans);
		free(states);
		return rdc_oom(ctx);
	}
	/* Asked before anything is read: under --root refused whether or not anything differs. */
	rc = rdc_writes_allowed(ctx);
	/* Every netdev named, locked before the plans read them: held until the run ends. */
	for (size_t i = 0; i < nwants && !rc; i++) {
		rc = rdc_lock_netdev(ctx, wants[i].name);
		for (size_t m = 0; m < wants[i].nmembers && !rc; m++)
			rc = rdc_lock_netdev(ctx, wants[i].members[m]);
		for (size_t m = 0; m < wants[i].nremove && !rc; m++)
			rc = rdc_lock_netdev(ctx, wants[i].remove[m]);
	}
	for (size_t i = 0; i < nwants && !rc; i++) {
		rc = delete ? rdc_bond_plan_delete(wants[i].name, &plans[i], &err)
			    : rdc_bond_plan_make(&wants[i], &plans[i], &err);
		/* The record says whose mistake it is: a kernel's EINVAL is no usage error. */
		if (rc && err.usage)
			rc = rdc_usage_error(ctx, "'%s': %s", wants[i].name, err.msg);
		else if (rc)
			rc = rdc_fail(ctx, &err);
		changed |= !rc && !rdc_bond_plan_empty(&plans[i]);
	}
	for (size_t i = 0; i < nwants && !rc; i++)
		if (plans[i].existed)
			bond_states_read(&plans[i].before, &states[i].before);
	if (!rc && changed && !ctx->dry_run)
		rc = bond_write(ctx, plans, nwants);
	for (size_t i = 0; i < nwants && !rc && changed && !ctx->dry_run; i++)
		if (!plans[i].deleted)
			bond_states_read(&plans[i].after, &states[i].after);
	if (!rc) {
		rdc_out_begin(ctx->out, "bond-change");
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "changed", NULL, changed);
		rdc_out_bool(ctx->out, RDC_OUT_MACHINE, "dry_run", NULL, ctx->dry_run);
		ctx->would_change = changed;
		rdc_out_arr_open(ctx->out, "bonds");
		for (size_t i = 0; i < nwants; i++)
			plan_report(ctx, &plans[i], &states[i]);
		rdc_out_arr_close(ctx->out);
		rdc_out_end(ctx->out);
	}
	free(plans);
	free(states);
	return rc;
}

static int bond_name(struct rdc_ctx *ctx, const char *name, struct rdc_bond_want *w)
{
	if (!name || !*name || rdc_strlcpy(w->name, name, sizeof(w->name)) || strchr(name, '/'))
		return rdc_usage_error(ctx, "'%s' is not an interface name", name ? name : "");
	return 0;
}

static int bond_create_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			   const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	int rc = bond_name(ctx, args->object, &bo->want);

	if (rc)
		return rc;
	if (!bo->want.opts.mode_given)
		return rdc_usage_error(ctx, "create: a new bond needs 'mode MODE'");
	bo->want.create = true;
	return bond_change(ctx, &bo->want, 1, false);
}

static int bond_set_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	bool any = false;
	int rc = bond_name(ctx, args->object, &bo->want);

	for (int i = 0; act->params[i].name; i++)
		any |= args->given[i];
	if (!rc && !any)
		return rdc_usage_error(ctx, "set: nothing to set");
	return rc ? rc : bond_change(ctx, &bo->want, 1, false);
}

static int bond_add_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	int rc = bond_name(ctx, args->object, &bo->want);

	if (!rc && rdc_strlcpy(bo->want.members[0], args->object2, IF_NAMESIZE))
		rc = rdc_usage_error(ctx, "'%s' is not an interface name", args->object2);
	bo->want.nmembers = 1;
	return rc ? rc : bond_change(ctx, &bo->want, 1, false);
}

static int bond_del_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	int rc = bond_name(ctx, args->object, &bo->want);

	if (!rc && rdc_strlcpy(bo->want.remove[0], args->object2, IF_NAMESIZE))
		rc = rdc_usage_error(ctx, "'%s' is not an interface name", args->object2);
	bo->want.nremove = 1;
	return rc ? rc : bond_change(ctx, &bo->want, 1, false);
}

static int bond_delete_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			   const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	int rc = bond_name(ctx, args->object, &bo->want);

	return rc ? rc : bond_change(ctx, &bo->want, 1, true);
}

/* netplan's bond parameters and the keywords of `bond create` they are. */
static const struct {
	const char *netplan;
	const char *keyword;
} netplan_keys[] = {
	{"interfaces", "members"},
	{"mode", "mode"},
	{"mii-monitor-interval", "miimon"},
	{"lacp-rate", "lacp-rate"},
	{"transmit-hash-policy", "xmit-hash"},
	{"up-delay", "updelay"},
	{"down-delay", "downdelay"},
	{"primary", "primary"},
	{"min-links", "min-links"},
	{"ad-select", "ad-select"},
};

/* A key's words into one comma-separated word ("eth0" "eth1" -> "eth0,eth1"). */
static int join_words(struct rdc_ctx *ctx, struct rdc_cfg_key *key)
{
	size_t len = 1;
	char *joined;

	for (size_t w = 0; w < key->nwords; w++)
		len += strlen(key->words[w]) + 1;
	joined = calloc(1, len);
	if (!joined)
		return rdc_oom(ctx);
	len = 0;
	for (size_t w = 0; w < key->nwords; w++) {
		size_t n = strlen(key->words[w]);

		if (w)
			joined[len++] = ',';
		memcpy(joined + len, key->words[w], n);
		len += n;
		free(key->words[w]);
	}
	key->words[0] = joined;
	key->nwords = 1;
	return 0;
}

/* One bond of a netplan file, through create's keyword table. */
static int want_from_netplan(struct rdc_ctx *ctx, const char *path, struct rdc_cfg_device *d,
			     struct rdc_bond_want *w)
{
	const struct rdc_action *create = rdc_action_find(&rdc_cmd_bond, "create");
	struct bond_opts *bo = calloc(1, sizeof(*bo));
	struct rdc_args args;
	int rc = 0;

	if (!bo)
		return rdc_oom(ctx);
	/* Key 0 is the bond's name (netplan: the mapping key); the rest are translated. */
	for (size_t k = 1; k < d->nkeys && !rc; k++) {
		size_t i;

		for (i = 0; i < RDC_ARRAY_SIZE(netplan_keys); i++)
			if (!strcmp(d->keys[k].key, netplan_keys[i].netplan))
				break;
		if (i == RDC_ARRAY_SIZE(netplan_keys)) {
			rc = rdc_usage_error(ctx,
					     "%s line %u: bond parameter '%s' is not one rdmactl "
					     "sets (interfaces, mode, mii-monitor-interval, "
					     "lacp-rate, transmit-hash-policy, up-delay, "
					     "down-delay, primary, min-links, ad-select)",
					     path, d->keys[k].line, d->keys[k].key);
			break;
		}
		free(d->keys[k].key);
		d->keys[k].key = strdup(netplan_keys[i].keyword);
		if (!d->keys[k].key)
			rc = rdc_oom(ctx);
		/* netplan lists interfaces; the keyword takes them as one IF,IF word. */
		if (!rc && !strcmp(netplan_keys[i].keyword, "members"))
			rc = join_words(ctx, &d->keys[k]);
	}
	if (!rc) {
		/* The name key is not a keyword: parse from the second key on. */
		struct rdc_cfg_device rest = *d;

		memmove(&rest.keys[0], &rest.keys[1], (rest.nkeys - 1) * sizeof(rest.keys[0]));
		rest.nkeys--;
		bond_defaults(bo);
		rc = rdc_args_from_cfg(ctx, create, path, &rest, NULL, d->keys[0].words[0], &args);
		if (!rc)
			rc = rdc_args_convert(ctx, create, &args, bo);
	}
	if (!rc && bond_name(ctx, d->keys[0].words[0], &bo->want) == 0) {
		*w = bo->want;
		w->create = true;
		w->members_exact = true;
	} else if (!rc) {
		rc = RDC_EXIT_USAGE;
	}
	free(bo);
	return rc;
}

static int bond_apply_run(struct rdc_ctx *ctx, const struct rdc_action *act,
			  const struct rdc_args *args, void *opts)
{
	struct bond_opts *bo = opts;
	struct rdc_cfg *cfg;
	struct rdc_bond_want *wants;
	struct rdc_err err = {0};
	size_t n = 0;
	int rc = 0;

	if (!bo->file)
		return rdc_usage_error(ctx, "apply: give '-f FILE.yaml'");
	cfg = calloc(1, sizeof(*cfg));
	wants = calloc(RDC_CFG_MAX_DEVICES, sizeof(*wants));
	if (!cfg || !wants) {
		free(cfg);
		free(wants);
		return rdc_oom(ctx);
	}
	if (rdc_bond_netplan_load(bo->file, cfg, &err))
		rc = rdc_fail(ctx, &err);
	for (size_t i = 0; !rc && i < cfg->ndevices; i++) {
		rc = want_from_netplan(ctx, bo->file, &cfg->devices[i], &wants[n]);
		if (rc)
			fprintf(stderr, "%s: bond: in '%s', the bond at line %u\n", ctx->prog,
				bo->file, cfg->devices[i].line);
		else
			n++;
	}
	if (!rc && !n)
		rc = rdc_usage_error(ctx, "apply: '%s' has no bonds", bo->file);
	if (!rc)
		rc = bond_change(ctx, wants, n, false);
	rdc_cfg_free(cfg);
	free(cfg);
	free(wants);
	return rc;
}

/* ---- the descriptor ---- */

static const struct rdc_action bond_actions[] = {
	{.name = "show",
	 .synopsis = "[BOND]",
	 .help = "bonds: mode, options, members with their LACP state, and RoCE LAG",
	 .run = bond_show_run,
	 .object = RDC_COMPLETE_BOND},
	{.name = "create",
	 .synopsis = "BOND mode MODE members IF,IF [KEYWORD VALUE]...",
	 .help = "create a bond (idempotent: converges an existing one), with rollback",
	 .run = bond_create_run,
	 .params = bond_create_params,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "set",
	 .synopsis = "BOND KEYWORD VALUE...",
	 .help = "change a bond's options in the kernel's order; only what differs is sent",
	 .run = bond_set_run,
	 .params = bond_set_params,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "add",
	 .synopsis = "BOND IF",
	 .help = "enslave an interface (taken down first, brought up after)",
	 .run = bond_add_run,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .object2 = RDC_COMPLETE_NETDEV,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "del",
	 .synopsis = "BOND IF",
	 .help = "release a member and bring it back up",
	 .run = bond_del_run,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .object2 = RDC_COMPLETE_NETDEV,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "delete",
	 .synopsis = "BOND",
	 .help = "release every member (left up) and delete the bond",
	 .run = bond_delete_run,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "apply",
	 .synopsis = "-f FILE.yaml",
	 .help = "converge the bonds of a netplan file, all or nothing",
	 .run = bond_apply_run,
	 .params = bond_apply_params,
	 .flags = RDC_ACT_MUTATES,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "check",
	 .synopsis = "[BOND] [qp-timeout N] [retry-cnt N]",
	 .help = "RoCE LAG readiness and failover against the RC QP retry window; exit 0/1/3",
	 .run = bond_check_run,
	 .params = bond_check_params,
	 .object = RDC_COMPLETE_BOND,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = "failover",
	 .synopsis = "BOND [member IF | wait SEC] [peer HOST]",
	 .help = "measure one failover under traffic: detection, reaction, outage, QP fate",
	 .run = bond_failover_run,
	 .params = bond_failover_params,
	 .object = RDC_COMPLETE_BOND,
	 .object_required = true,
	 .opts_size = sizeof(struct bond_opts),
	 .opts_init = bond_defaults},
	{.name = NULL},
};

const struct rdc_cmd rdc_cmd_bond = {
	.name = "bond",
	.summary = "link aggregation for RDMA: show, create, check RoCE LAG, measure failover",
	.actions = bond_actions,
};
