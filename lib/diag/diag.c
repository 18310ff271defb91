// SPDX-License-Identifier: GPL-2.0-or-later
/* diag.c - the check table, running it, and the small helpers every check uses */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "diag/diag.h"

extern const struct rdc_diag_family rdc_diag_family_link;
extern const struct rdc_diag_family rdc_diag_family_host;
extern const struct rdc_diag_family rdc_diag_family_qos;
extern const struct rdc_diag_family rdc_diag_family_transport;
extern const struct rdc_diag_family rdc_diag_family_links;
extern const struct rdc_diag_family rdc_diag_family_bond;

/* The order diag runs and lists them: the wire first, then what rides on it. */
const struct rdc_diag_family *const rdc_diag_families[] = {
	&rdc_diag_family_link,	    &rdc_diag_family_host,  &rdc_diag_family_qos,
	&rdc_diag_family_transport, &rdc_diag_family_links, &rdc_diag_family_bond,
};
const size_t rdc_diag_nfamilies = RDC_ARRAY_SIZE(rdc_diag_families);

void rdc_diag_policy_init(struct rdc_diag_policy *p)
{
	*p = (struct rdc_diag_policy){
		.roce_prio = 3,
		.roce_dscp = 26,
		.cnp_prio = 6,
		.cnp_dscp = 48,
		.cm_tos = (26 << 2) | 2, /* DSCP 26 with ECT(0): 106 */
		.ets_min_bw_pct = 50,
		.pre_fec_ber_warn = 1e-8,
		.tx_pause_pct_warn = 10,
		.tx_pause_pct_fail = 50,
		.rx_pause_pct_warn = 10,
		.link_share_pct_warn = 90,
		.link_share_min_bytes = 1 << 20,
		.carrier_changes_warn = 10,
		.qp_timeout = RDC_BOND_CHECK_QP_TIMEOUT,
		.qp_retry_cnt = RDC_BOND_CHECK_RETRY_CNT,
	};
}

const struct rdc_diag_family *rdc_diag_family_find(const char *name)
{
	for (size_t i = 0; i < rdc_diag_nfamilies; i++)
		if (!strcmp(rdc_diag_families[i]->name, name))
			return rdc_diag_families[i];
	return NULL;
}

const struct rdc_diag_check *rdc_diag_check_find(const char *id)
{
	for (size_t i = 0; i < rdc_diag_nfamilies; i++)
		for (size_t k = 0; k < rdc_diag_families[i]->count; k++)
			if (!strcmp(rdc_diag_families[i]->checks[k].id, id))
				return &rdc_diag_families[i]->checks[k];
	return NULL;
}

/* Does @c match one of @names (its id or its family's name)? */
static bool check_named(const struct rdc_diag_family *fam, const struct rdc_diag_check *c,
			const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], c->id) || !strcmp(names[i], fam->name))
			return true;
	return false;
}

static int names_valid(const char *const *names, size_t n, const char *what, struct rdc_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (!rdc_diag_check_find(names[i]) && !rdc_diag_family_find(names[i]))
			return rdc_err_set(err, EINVAL,
					   "%s '%s' is no check id or family (rdmactl diag list)",
					   what, names[i]);
	return 0;
}

int rdc_diag_run(const struct rdc_diag_host *h, const char *const *only, size_t nonly,
		 const char *const *skip, size_t nskip, struct rdc_diag_result *r,
		 struct rdc_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rdc_findings_init(&r->findings);
	rc = names_valid(only, nonly, "check", err);
	if (!rc)
		rc = names_valid(skip, nskip, "skip", err);
	if (rc)
		return rc;
	for (size_t i = 0; i < rdc_diag_nfamilies; i++) {
		const struct rdc_diag_family *fam = rdc_diag_families[i];

		for (size_t k = 0; k < fam->count; k++) {
			const struct rdc_diag_check *c = &fam->checks[k];

			if ((nonly && !check_named(fam, c, only, nonly)) ||
			    check_named(fam, c, skip, nskip))
				continue;
			size_t first = r->findings.count;

			r->nran++;
			c->run(h, c, r);
			/* bond.check's findings carry bond check's own ids: say whose they are. */
			for (size_t f = first; f < r->findings.count; f++)
				r->check[f] = c->id;
		}
	}
	return 0;
}

/* ---- findings and skips ------------------------------------------------ */

static void finding_about_port(struct rdc_finding *f, const struct rdc_diag_port *p)
{
	if (!f || !p)
		return;
	rdc_strlcpy(f->device, p->port.device, sizeof(f->device));
	f->port = p->port.port;
	if (p->port.has_netdev)
		rdc_strlcpy(f->netdev, p->port.netdev.name, sizeof(f->netdev));
}

struct rdc_finding *rdc_diag_add(struct rdc_diag_result *r, const struct rdc_diag_check *c,
				 const struct rdc_diag_port *p, enum rdc_severity sev,
				 const char *title_fmt, ...)
{
	struct rdc_finding *f;
	va_list ap;

	/* The title whole, however long (issue 23). */
	va_start(ap, title_fmt);
	f = rdc_findings_vadd(&r->findings, c->id, sev, title_fmt, ap);
	va_end(ap);
	finding_about_port(f, p);
	return f;
}

struct rdc_finding *rdc_diag_add_bond(struct rdc_diag_result *r, const struct rdc_diag_check *c,
				      const char *bond, enum rdc_severity sev,
				      const char *title_fmt, ...)
{
	struct rdc_finding *f;
	va_list ap;

	/* The title whole, however long (issue 23). */
	va_start(ap, title_fmt);
	f = rdc_findings_vadd(&r->findings, c->id, sev, title_fmt, ap);
	va_end(ap);
	if (f && bond)
		rdc_strlcpy(f->bond, bond, sizeof(f->bond));
	return f;
}

/* The next skip slot, id set; NULL (counted) when the list is full. */
static struct rdc_diag_skip *skip_new(struct rdc_diag_result *r, const struct rdc_diag_check *c)
{
	struct rdc_diag_skip *s;

	if (r->nskipped >= RDC_DIAG_SKIPS_MAX) {
		r->skips_dropped++;
		return NULL;
	}
	s = &r->skipped[r->nskipped++];
	memset(s, 0, sizeof(*s));
	rdc_strlcpy(s->id, c->id, sizeof(s->id));
	return s;
}

void rdc_diag_skip(struct rdc_diag_result *r, const struct rdc_diag_check *c,
		   const struct rdc_diag_port *p, const char *reason_fmt, ...)
{
	struct rdc_diag_skip *s = skip_new(r, c);
	va_list ap;

	if (!s)
		return;
	if (p) {
		rdc_strlcpy(s->object, p->label, sizeof(s->object));
		rdc_strlcpy(s->device, p->port.device, sizeof(s->device));
		s->port = p->port.port;
		if (p->port.has_netdev)
			rdc_strlcpy(s->netdev, p->port.netdev.name, sizeof(s->netdev));
	}
	/* Sized for a check's words and one whole reason (diag.h): the word cut is never reached. */
	va_start(ap, reason_fmt);
	rdc_words_vformat(s->reason, sizeof(s->reason), reason_fmt, ap);
	va_end(ap);
}

void rdc_diag_skip_bond(struct rdc_diag_result *r, const struct rdc_diag_check *c, const char *bond,
			const char *reason_fmt, ...)
{
	struct rdc_diag_skip *s = skip_new(r, c);
	va_list ap;

	if (!s)
		return;
	rdc_strlcpy(s->object, bond, sizeof(s->object));
	rdc_strlcpy(s->bond, bond, sizeof(s->bond));
	va_start(ap, reason_fmt);
	rdc_words_vformat(s->reason, sizeof(s->reason), reason_fmt, ap);
	va_end(ap);
}

/* ---- counters ---------------------------------------------------------- */

static const struct rdc_counter_set *sample_set(const struct rdc_diag_sample *s,
						enum rdc_diag_set set)
{
	switch (set) {
	case RDC_DIAG_IB:
		return &s->ib;
	case RDC_DIAG_HW:
		return &s->hw;
	case RDC_DIAG_NETDEV:
		return &s->netdev;
	}
	return NULL;
}

/* A counter by name in any group of a set; the first match (sets list sysfs before ethtool). */
static const struct rdc_counter *set_find(const struct rdc_counter_set *set, const char *name)
{
	for (size_t i = 0; set && i < set->count; i++)
		if (!strcmp(set->items[i].name, name))
			return &set->items[i];
	return NULL;
}

int rdc_diag_counter(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		     uint64_t *value)
{
	const struct rdc_counter *c;

	if (!p->nsamples)
		return -ENOENT;
	c = set_find(sample_set(&p->s[p->nsamples - 1], set), name);
	if (!c)
		return -ENOENT;
	*value = c->value;
	return 0;
}

int rdc_diag_delta(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
		   uint64_t *delta)
{
	const struct rdc_counter *a, *b;

	if (!p->nsamples)
		return -ENOENT;
	b = set_find(sample_set(&p->s[p->nsamples - 1], set), name);
	if (!b)
		return -ENOENT;
	if (p->nsamples < 2)
		return -ENODATA;
	a = set_find(sample_set(&p->s[0], set), name);
	if (!a)
		return -ENOENT;
	/* A counter that went backwards was reset (driver reload, `ethtool -S` wrap): count from 0. */
	*delta = b->value >= a->value ? b->value - a->value : b->value;
	return 0;
}

double rdc_diag_window_s(const struct rdc_diag_port *p)
{
	return p->nsamples < 2 ? 0 : p->s[1].t_s - p->s[0].t_s;
}

void rdc_diag_counted(struct rdc_finding *f, const struct rdc_diag_port *p)
{
	if (p->nsamples < 2)
		rdc_finding_since_reset(f);
}

/* The longest source (see RDC_DIAG_SOURCE_LEN) fits whole. */
_Static_assert(sizeof("/sys/class/infiniband/") - 1 + RDC_IBDEV_NAME - 1 + sizeof("/ports/") - 1 +
			       10 + sizeof("/hw_counters/") - 1 +
			       sizeof(((struct rdc_counter *)0)->name) - 1 + sizeof(" x 4") <=
		       RDC_DIAG_SOURCE_LEN,
	       "a counter's source fits RDC_DIAG_SOURCE_LEN");

void rdc_diag_counter_source(const struct rdc_diag_port *p, enum rdc_diag_set set, const char *name,
			     char *buf, size_t size)
{
	const struct rdc_counter *c = NULL;
	const char *netdev = p->port.has_netdev ? p->port.netdev.name : "?";

	if (p->nsamples)
		c = set_find(sample_set(&p->s[p->nsamples - 1], set), name);
	switch (set) {
	case RDC_DIAG_IB:
		/* port_xmit_bytes/port_rcv_bytes are the 4-byte-word *_data files, times 4 */
		if (!strcmp(name, "port_xmit_bytes") || !strcmp(name, "port_rcv_bytes"))
			snprintf(buf, size, "/sys/class/infiniband/%s/ports/%u/counters/%s x 4",
				 p->port.device, p->port.port,
				 name[5] == 'x' ? "port_xmit_data" : "port_rcv_data");
		else
			snprintf(buf, size, "/sys/class/infiniband/%s/ports/%u/counters/%s",
				 p->port.device, p->port.port, name);
		return;
	case RDC_DIAG_HW:
		snprintf(buf, size, "/sys/class/infiniband/%s/ports/%u/hw_counters/%s",
			 p->port.device, p->port.port, name);
		return;
	case RDC_DIAG_NETDEV:
		if (!c || !strcmp(c->group, "netdev"))
			snprintf(buf, size, "/sys/class/net/%s/statistics/%s", netdev, name);
		else if (!strcmp(c->group, "driver"))
			snprintf(buf, size, "ethtool -S %s (ETHTOOL_GSTATS)", netdev);
		else
			snprintf(buf, size, "ethtool netlink %s stats of %s", c->group, netdev);
		return;
	}
	snprintf(buf, size, "?");
}

const struct rdc_diag_port *rdc_diag_port_of_netdev(const struct rdc_diag_host *h,
						    const char *netdev)
{
	for (size_t i = 0; i < h->nports; i++)
		if (h->ports[i].port.has_netdev && !strcmp(h->ports[i].port.netdev.name, netdev))
			return &h->ports[i];
	return NULL;
}

bool rdc_diag_port_roce(const struct rdc_diag_port *p)
{
	return p->port.has_netdev && !strcmp(p->port.link_layer, "Ethernet");
}

const char *rdc_diag_netdev(const struct rdc_diag_port *p)
{
	return p->port.has_netdev ? p->port.netdev.name : NULL;
}

const char *rdc_diag_ip_netdev(const struct rdc_diag_port *p)
{
	if (!p->port.has_netdev)
		return NULL;
	return p->ip_netdev[0] ? p->ip_netdev : p->port.netdev.name;
}

void rdc_diag_cat(char **s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rdc_str_vcatf(s, fmt, ap);
	va_end(ap);
}

void rdc_diag_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}
