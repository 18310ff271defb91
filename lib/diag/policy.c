// SPDX-License-Identifier: GPL-2.0-or-later
/* policy.c - diag's thresholds from a YAML file: one flat mapping, every key known, none twice */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/util.h"
#include "base/yaml_file.h"
#include "diag/diag.h"

/* A policy is a few dozen lines; anything far larger is not one. */
#define POLICY_MAX_BYTES (64 << 10)

enum policy_kind { POLICY_UINT, POLICY_U64, POLICY_DOUBLE };

#define KEY(name_, field_, kind_, min_, max_, help_)                                               \
	{                                                                                          \
		.name = (name_), .offset = offsetof(struct rdc_diag_policy, field_),               \
		.kind = (kind_), .min = (min_), .max = (max_), .help = (help_)                     \
	}

const struct rdc_diag_policy_key rdc_diag_policy_keys[] = {
	KEY("roce-prio", roce_prio, POLICY_UINT, 0, 7, "priority RoCE data rides on"),
	KEY("roce-dscp", roce_dscp, POLICY_UINT, 0, 63, "DSCP RoCE data is marked with"),
	KEY("cnp-prio", cnp_prio, POLICY_UINT, 0, 7, "priority of congestion notifications"),
	KEY("cnp-dscp", cnp_dscp, POLICY_UINT, 0, 63, "DSCP of congestion notifications"),
	KEY("cm-tos", cm_tos, POLICY_UINT, 0, 255, "rdma_cm default ToS the fabric expects"),
	KEY("ets-min-bw-pct", ets_min_bw_pct, POLICY_DOUBLE, 0, 100,
	    "least ETS share of the RoCE traffic class, %"),
	KEY("pre-fec-ber-warn", pre_fec_ber_warn, POLICY_DOUBLE, 0, 1,
	    "pre-FEC bit error ratio that warns"),
	KEY("tx-pause-pct-warn", tx_pause_pct_warn, POLICY_DOUBLE, 0, 100,
	    "share of the window spent pausing the peer that warns, %"),
	KEY("tx-pause-pct-fail", tx_pause_pct_fail, POLICY_DOUBLE, 0, 100,
	    "share of the window spent pausing the peer that fails, %"),
	KEY("rx-pause-pct-warn", rx_pause_pct_warn, POLICY_DOUBLE, 0, 100,
	    "share of the window paused by the peer that warns, %"),
	KEY("link-share-pct-warn", link_share_pct_warn, POLICY_DOUBLE, 50, 100,
	    "share of the bytes one link of several carries that warns, %"),
	KEY("link-share-min-bytes", link_share_min_bytes, POLICY_U64, 0, 1e18,
	    "bytes moved below which traffic balance is not judged"),
	KEY("carrier-changes-warn", carrier_changes_warn, POLICY_U64, 1, 1e18,
	    "carrier changes since boot that warn"),
	KEY("qp-timeout", qp_timeout, POLICY_UINT, 1, 31,
	    "RC QP ACK timeout exponent bond failover must fit"),
	KEY("qp-retry-cnt", qp_retry_cnt, POLICY_UINT, 0, 7, "RC QP retry count"),
};
const size_t rdc_diag_npolicy_keys = RDC_ARRAY_SIZE(rdc_diag_policy_keys);

static const struct rdc_diag_policy_key *key_find(const char *name)
{
	for (size_t i = 0; i < rdc_diag_npolicy_keys; i++)
		if (!strcmp(rdc_diag_policy_keys[i].name, name))
			return &rdc_diag_policy_keys[i];
	return NULL;
}

void rdc_diag_policy_format(const struct rdc_diag_policy *p, const struct rdc_diag_policy_key *k,
			    char *buf, size_t size)
{
	const char *base = (const char *)p + k->offset;

	switch (k->kind) {
	case POLICY_UINT:
		snprintf(buf, size, "%u", *(const unsigned int *)(const void *)base);
		return;
	case POLICY_U64:
		snprintf(buf, size, "%llu",
			 (unsigned long long)*(const uint64_t *)(const void *)base);
		return;
	case POLICY_DOUBLE:
		snprintf(buf, size, "%g", *(const double *)(const void *)base);
		return;
	}
}

double rdc_diag_policy_value(const struct rdc_diag_policy *p, const struct rdc_diag_policy_key *k)
{
	const char *base = (const char *)p + k->offset;

	switch (k->kind) {
	case POLICY_UINT:
		return *(const unsigned int *)(const void *)base;
	case POLICY_U64:
		return (double)*(const uint64_t *)(const void *)base;
	case POLICY_DOUBLE:
		return *(const double *)(const void *)base;
	}
	return 0;
}

static int key_set(struct rdc_diag_policy *p, const struct rdc_diag_policy_key *k, const char *text,
		   const char *path, size_t line, struct rdc_err *err)
{
	char *base = (char *)p + k->offset;
	char *end;
	double d;

	errno = 0;
	d = strtod(text, &end);
	if (!text[0] || *end || errno || !isfinite(d) || d < k->min || d > k->max ||
	    (k->kind != POLICY_DOUBLE && (d != floor(d) || strpbrk(text, "eE.xX"))))
		return rdc_err_set(err, EINVAL, "%s line %zu: '%s: %s': want %s from %g to %g",
				   path, line, k->name, text,
				   k->kind == POLICY_DOUBLE ? "a number" : "a whole number", k->min,
				   k->max);
	switch (k->kind) {
	case POLICY_UINT:
		*(unsigned int *)(void *)base = (unsigned int)d;
		break;
	case POLICY_U64:
		*(uint64_t *)(void *)base = (uint64_t)d;
		break;
	case POLICY_DOUBLE:
		*(double *)(void *)base = d;
		break;
	}
	return 0;
}

enum policy_state { AT_STREAM, AT_DOC, AT_MAP, AT_KEY, AT_VALUE, AT_END };

struct policy_parse {
	struct rdc_diag_policy *policy;
	const char *path;
	struct rdc_err *err;
	enum policy_state state;
	const struct rdc_diag_policy_key *key;
	bool seen[64];
};

static int policy_event(struct policy_parse *pp, const yaml_event_t *ev)
{
	size_t line = ev->start_mark.line + 1;
	const char *text = ev->type == YAML_SCALAR_EVENT ? (const char *)ev->data.scalar.value : "";

	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
	case YAML_DOCUMENT_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		if (ev->type == YAML_DOCUMENT_START_EVENT && pp->state != AT_STREAM)
			return rdc_err_set(pp->err, EINVAL, "%s line %zu: one document only",
					   pp->path, line);
		if (ev->type == YAML_DOCUMENT_START_EVENT)
			pp->state = AT_DOC;
		return 0;
	case YAML_MAPPING_START_EVENT:
		if (pp->state != AT_DOC)
			break;
		pp->state = AT_KEY;
		return 0;
	case YAML_MAPPING_END_EVENT:
		pp->state = AT_END;
		return 0;
	case YAML_SCALAR_EVENT:
		if (pp->state == AT_DOC && !text[0])
			return 0; /* an empty file: every default */
		if (pp->state == AT_KEY) {
			pp->key = key_find(text);
			if (!pp->key)
				return rdc_err_set(pp->err, EINVAL,
						   "%s line %zu: '%s' is no policy key "
						   "(rdmactl diag list shows them)",
						   pp->path, line, text);
			if (pp->seen[pp->key - rdc_diag_policy_keys])
				return rdc_err_set(pp->err, EINVAL, "%s line %zu: '%s' given twice",
						   pp->path, line, text);
			pp->seen[pp->key - rdc_diag_policy_keys] = true;
			pp->state = AT_VALUE;
			return 0;
		}
		if (pp->state == AT_VALUE) {
			pp->state = AT_KEY;
			return key_set(pp->policy, pp->key, text, pp->path, line, pp->err);
		}
		break;
	default:
		break;
	}
	return rdc_err_set(pp->err, EINVAL,
			   "%s line %zu: a policy is one mapping of 'key: number' lines", pp->path,
			   line);
}

/* rdc_yaml_events' callback: the parse state is the context. */
static int policy_on_event(void *ctx, const yaml_event_t *ev)
{
	return policy_event(ctx, ev);
}

int rdc_diag_policy_load(const char *path, struct rdc_diag_policy *policy, struct rdc_err *err)
{
	struct rdc_diag_policy work = *policy;
	struct policy_parse pp = {.policy = &work, .path = path, .err = err};
	unsigned char *buf = NULL;
	size_t len = 0;
	int rc;

	rc = rdc_yaml_file_read(path, POLICY_MAX_BYTES, &buf, &len, err);
	if (rc)
		return rc;
	rc = rdc_yaml_events(path, buf, len, policy_on_event, &pp, err);
	free(buf);
	if (!rc && work.tx_pause_pct_fail < work.tx_pause_pct_warn)
		rc = rdc_err_set(err, EINVAL,
				 "%s: tx-pause-pct-fail (%g) is below tx-pause-pct-warn (%g)", path,
				 work.tx_pause_pct_fail, work.tx_pause_pct_warn);
	if (!rc)
		*policy = work; /* all or nothing */
	return rc;
}
