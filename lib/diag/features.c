// SPDX-License-Identifier: GPL-2.0-or-later
/* features.c - node labels from the diag host model: one fact per line, unknown ones left out */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag/features.h"
#include "host/gid.h"

static bool port_ethernet(const struct rdc_port *p)
{
	return !strcmp(p->link_layer, "Ethernet");
}

static bool has_roce_v2_gid(const struct rdc_diag_port *p)
{
	for (size_t i = 0; i < p->ngids; i++)
		if (!p->gids[i].unreadable && p->gids[i].type == RDC_GID_ROCE_V2)
			return true;
	return false;
}

/* Devices counted once however many ports each has: diag lists ports device by device. */
static size_t count_devices(const struct rdc_diag_host *h)
{
	size_t n = 0;

	for (size_t i = 0; i < h->nports; i++)
		if (i == 0 || strcmp(h->ports[i].port.device, h->ports[i - 1].port.device))
			n++;
	return n;
}

void rdc_features_compute(const struct rdc_diag_host *h, enum rdc_rdma_netns_mode netns_mode,
			  struct rdc_features *f)
{
	bool any_eth = false, dcb_unknown = false;
	uint8_t mask = 0xff;

	memset(f, 0, sizeof(*f));
	f->netns_mode = netns_mode;
	f->devices = count_devices(h);
	for (size_t i = 0; i < h->nports; i++) {
		const struct rdc_diag_port *p = &h->ports[i];

		if (rdc_diag_port_rdma(p)) {
			f->ports++;
			if (p->port.state_name[0] && !strcmp(p->port.state_name, "ACTIVE") &&
			    p->port.rate_gbps > f->speed_gbps)
				f->speed_gbps = p->port.rate_gbps;
		}
		if (p->port.roce_lag)
			f->lag = true;
		if (!port_ethernet(&p->port))
			continue;
		if (has_roce_v2_gid(p))
			f->roce_v2 = true;
		any_eth = true;
		/* A driver without dcbnl (virtio, veth, most VFs) has no PFC: known, none. */
		if (p->dcb_rc == -EOPNOTSUPP || (!p->dcb_rc && !p->dcb.have_pfc))
			mask = 0;
		else if (p->dcb_rc)
			dcb_unknown = true;
		else
			mask &= p->dcb.pfc.pfc_en;
	}
	f->capable = f->ports > 0;
	f->lossless_known = any_eth && !dcb_unknown;
	f->lossless_mask = f->lossless_known ? mask : 0;
}

static const char *yes_no(bool b)
{
	return b ? "true" : "false";
}

/* "3" or "3_4": label values allow [A-Za-z0-9_.-], no commas; "none" for an empty set. */
static void prios_value(uint8_t mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int prio = 0; prio < 8; prio++)
		if (mask & (1u << prio))
			len += (size_t)snprintf(buf + len, size - len, "%s%u", len ? "_" : "",
						prio);
	if (!len)
		snprintf(buf, size, "none");
}

/* Fact @k's line, or false when fact @k is unknown (no line); k from 0 to FEATURE_FACTS - 1. */
#define FEATURE_FACTS 7
static bool fact_line(const struct rdc_features *f, size_t k, char line[RDC_FEATURE_LINE])
{
	char prios[24];

	switch (k) {
	case 0:
		snprintf(line, RDC_FEATURE_LINE, "rdma.capable=%s", yes_no(f->capable));
		return true;
	case 1:
		snprintf(line, RDC_FEATURE_LINE, "rdma.devices=%zu", f->devices);
		return true;
	case 2:
		snprintf(line, RDC_FEATURE_LINE, "rdma.roce-v2=%s", yes_no(f->roce_v2));
		return true;
	case 3:
		snprintf(line, RDC_FEATURE_LINE, "rdma.lag=%s", yes_no(f->lag));
		return true;
	case 4:
		if (f->speed_gbps <= 0)
			return false;
		snprintf(line, RDC_FEATURE_LINE, "rdma.link-speed-gbps=%g", f->speed_gbps);
		return true;
	case 5:
		if (!f->lossless_known)
			return false;
		prios_value(f->lossless_mask, prios, sizeof(prios));
		snprintf(line, RDC_FEATURE_LINE, "rdma.lossless-prios=%s", prios);
		return true;
	case 6:
		if (!rdc_rdma_netns_mode_name(f->netns_mode))
			return false;
		snprintf(line, RDC_FEATURE_LINE, "rdma.netns-mode=%s",
			 rdc_rdma_netns_mode_name(f->netns_mode));
		return true;
	default:
		return false;
	}
}

bool rdc_features_line(const struct rdc_features *f, size_t i, char line[RDC_FEATURE_LINE])
{
	/* The i-th line is the i-th known fact: unknown ones take no index. */
	for (size_t k = 0; k < FEATURE_FACTS; k++)
		if (fact_line(f, k, line) && i-- == 0)
			return true;
	return false;
}
