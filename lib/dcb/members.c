// SPDX-License-Identifier: GPL-2.0-or-later
/* members.c - whether the members of a bond agree: PFC, trust, DSCP map, ETS, MTU, speed */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "dcb/members.h"
#include "dcb/verdict.h"
#include "host/netdev.h"
#include "host/ofed_qos.h"

/* "3,4" or "none": the enabled priorities as pfc show -b prints them. */
static void fmt_pfc(const struct rdc_dcb *d, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int p = 0; p < RDC_DCB_PRIOS; p++)
		if (d->pfc.pfc_en & (1U << p))
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", p);
	if (!len)
		snprintf(buf, size, "none");
}

/* "0:0 1:0 2:1 ...": a per-priority or per-TC list in dcb's K:V words. */
static void fmt_u8s(const uint8_t *v, int n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d:%u", i ? " " : "", i, v[i]);
}

static void fmt_tsa(const uint8_t *v, int n, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%d:%s", i ? " " : "", i,
					rdc_dcb_tsa_name(v[i]));
}

/* What one member has for one setting, "" when it was not read. */
typedef void (*member_fmt)(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *buf,
			   size_t size);

static void value_pfc(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	if (d && d->have_pfc)
		fmt_pfc(d, b, n);
}

static void value_delay(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	if (d && d->have_pfc)
		snprintf(b, n, "%u", d->pfc.delay);
}

/* MLNX_OFED's trust file, else upstream mlx5's rule (DSCP APP entries mean DSCP trust). */
static void value_trust(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	struct rdc_ofed_qos q;

	rdc_ofed_qos_read(t->netdev, &q);
	if (q.trust[0])
		snprintf(b, n, "%s", q.trust);
	else if (d && d->supported)
		snprintf(b, n, "%s", rdc_dcb_dscp_count(d) ? "dscp" : "pcp");
}

static void value_dscp(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	if (d && d->supported && !rdc_dcb_dscp_ranges(d->apps, d->napps, b, n))
		snprintf(b, n, "none");
}

static void value_prio_tc(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b,
			  size_t n)
{
	if (d && d->have_ets)
		fmt_u8s(d->ets.prio_tc, RDC_DCB_PRIOS, b, n);
}

static void value_tsa(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	if (d && d->have_ets)
		fmt_tsa(d->ets.tc_tsa, RDC_DCB_TCS, b, n);
}

static void value_bw(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	if (d && d->have_ets)
		fmt_u8s(d->ets.tc_tx_bw, RDC_DCB_TCS, b, n);
}

static void value_mtu(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	struct rdc_netdev nd;

	if (!rdc_netdev_read(t->netdev, &nd, NULL) && nd.mtu >= 0)
		snprintf(b, n, "%" PRId64, nd.mtu);
	rdc_netdev_free(&nd);
}

/* Mb/s; a member without link has no speed, which is its own finding (carrier), not this one. */
static void value_speed(const struct rdc_dcb_target *t, const struct rdc_dcb *d, char *b, size_t n)
{
	struct rdc_netdev nd;

	if (!rdc_netdev_read(t->netdev, &nd, NULL) && nd.speed_mbps > 0)
		snprintf(b, n, "%" PRId64, nd.speed_mbps);
	rdc_netdev_free(&nd);
}

static const struct {
	const char *what, *label;
	member_fmt fmt;
	bool dcb; /* comes from dcbnl: unknown for a member without it */
} settings[RDC_MEMBERS_MAX_DIFFS] = {
	{"pfc.enabled_prios", "prio-pfc", value_pfc, true},
	{"pfc.delay_bits", "delay", value_delay, true},
	{"trust", "trust", value_trust, true},
	{"dscp_prio", "dscp-prio", value_dscp, true},
	{"ets.prio_tc", "prio-tc", value_prio_tc, true},
	{"ets.tc_tsa", "tc-tsa", value_tsa, true},
	{"ets.tc_bw_pct", "tc-bw", value_bw, true},
	{"mtu_bytes", "mtu", value_mtu, false},
	{"speed_mbps", "speed", value_speed, false},
};

void rdc_members_compare(const struct rdc_dcb_target *t, const struct rdc_dcb *const *dcbs,
			 size_t n, struct rdc_members_agreement *a)
{
	bool unknown = false;

	memset(a, 0, sizeof(*a));
	if (n > RDC_MEMBERS_MAX)
		n = RDC_MEMBERS_MAX;
	for (size_t i = 0; i < n && !unknown; i++)
		if (!dcbs[i] || !dcbs[i]->supported) {
			unknown = true;
			snprintf(a->reason, sizeof(a->reason),
				 "no DCB on '%s': its driver implements no dcbnl operations",
				 t[i].netdev);
		}
	for (size_t s = 0; s < RDC_ARRAY_SIZE(settings); s++) {
		struct rdc_members_diff *d = &a->diffs[a->ndiffs];
		bool differ = false, all = true;

		if (settings[s].dcb && unknown)
			continue;
		memset(d, 0, sizeof(*d));
		for (size_t i = 0; i < n; i++) {
			rdc_strlcpy(d->values[i].netdev, t[i].netdev, IF_NAMESIZE);
			settings[s].fmt(&t[i], dcbs[i], d->values[i].value,
					sizeof(d->values[i].value));
			all &= d->values[i].value[0] != '\0';
			differ |= i && strcmp(d->values[i].value, d->values[0].value);
		}
		/* A value one member does not report is no disagreement: it is unknown there. */
		if (!all || !differ)
			continue;
		d->count = n;
		rdc_strlcpy(d->what, settings[s].what, sizeof(d->what));
		rdc_strlcpy(d->label, settings[s].label, sizeof(d->label));
		a->ndiffs++;
	}
	a->result = a->ndiffs ? RDC_MEMBERS_DIFFER
		    : unknown ? RDC_MEMBERS_UNKNOWN
			      : RDC_MEMBERS_AGREE;
}
