// SPDX-License-Identifier: GPL-2.0-or-later
/* values.c - keyword converters: a value's words into its place in an action's options */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "dcb/dscp.h"
#include "host/dcb.h"
#include "cmd.h"

#define DEST(p, opts) ((char *)(opts) + (p)->dest)
#define MAX_SECONDS 86400.0

const struct rdc_val_uint rdc_val_tcp_port = {
	.min = 1, .max = 65535, .size = sizeof(uint16_t), .given = RDC_VAL_NO_FLAG};

/* Store @v in @size bytes (the destination's own type, checked by the spec's max). */
static void store_uint(void *dst, size_t size, uint64_t v)
{
	switch (size) {
	case 1: {
		uint8_t x = (uint8_t)v;

		memcpy(dst, &x, 1);
		break;
	}
	case 2: {
		uint16_t x = (uint16_t)v;

		memcpy(dst, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;

		memcpy(dst, &x, 4);
		break;
	}
	default:
		memcpy(dst, &v, 8);
		break;
	}
}

static void set_flag(void *opts, size_t off, size_t index)
{
	if (off != RDC_VAL_NO_FLAG)
		((bool *)((char *)opts + off))[index] = true;
}

int rdc_val_uint(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts)
{
	const struct rdc_val_uint *spec = p->spec;
	uint64_t v;
	int rc;

	(void)n;
	rc = rdc_parse_u64(w[0], 10, &v);
	if (rc == -ERANGE || (!rc && (v < spec->min || v > spec->max)))
		return rdc_usage_error(ctx, "'%s %s': out of range %" PRIu64 "-%" PRIu64, p->name,
				       w[0], spec->min, spec->max);
	if (rc)
		return rdc_usage_error(ctx, "'%s %s': not a number (%" PRIu64 "-%" PRIu64 ")",
				       p->name, w[0], spec->min, spec->max);
	store_uint(DEST(p, opts), spec->size, v);
	set_flag(opts, spec->given, 0);
	return 0;
}

/* "a, b or c" for messages. */
static void names_list(const char *const *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0	       ? ""
					: names[i + 1] ? ", "
						       : " or ",
					names[i]);
}

int rdc_val_enum(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts)
{
	const struct rdc_val_enum *spec = p->spec;
	char valid[256];

	(void)n;
	for (size_t i = 0; spec->names[i]; i++)
		if (!strcmp(spec->names[i], w[0])) {
			memcpy(DEST(p, opts), &spec->values[i], sizeof(int));
			return 0;
		}
	names_list(spec->names, valid, sizeof(valid));
	return rdc_usage_error(ctx, "'%s %s': expected %s", p->name, w[0], valid);
}

int rdc_val_string(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		   void *opts)
{
	(void)ctx;
	(void)n;
	memcpy(DEST(p, opts), &w[0], sizeof(w[0]));
	return 0;
}

int rdc_val_flag(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		 void *opts)
{
	bool yes = true;

	(void)ctx;
	(void)w;
	(void)n;
	if (p->spec)
		memcpy(DEST(p, opts), p->spec, sizeof(int));
	else
		memcpy(DEST(p, opts), &yes, sizeof(yes));
	return 0;
}

/*
 * Seconds in [min_s, 86400] (min_s 0: anything above 0), or a usage error
 * that says what was wrong and names the whole range:
 *   "interval 1e-300" -> "'interval 1e-300': at least 0.1 s (0.1-86400 s)"
 */
static int seconds(struct rdc_ctx *ctx, const char *keyword, const char *value, double min_s,
		   double *s)
{
	char range[48];
	int rc = rdc_parse_seconds(value, s);

	if (min_s > 0)
		snprintf(range, sizeof(range), "%g-%.0f s", min_s, MAX_SECONDS);
	else
		snprintf(range, sizeof(range), "more than 0, at most %.0f s", MAX_SECONDS);
	if (rc == -ERANGE)
		return rdc_usage_error(ctx, "'%s %s': must be more than 0 seconds (%s)", keyword,
				       value, range);
	if (rc)
		return rdc_usage_error(ctx, "'%s %s': not a number of seconds (%s)", keyword, value,
				       range);
	if (*s > MAX_SECONDS)
		return rdc_usage_error(ctx, "'%s %s': at most %.0f seconds (%s)", keyword, value,
				       MAX_SECONDS, range);
	if (*s < min_s)
		return rdc_usage_error(ctx, "'%s %s': at least %g s (%s)", keyword, value, min_s,
				       range);
	return 0;
}

int rdc_val_seconds(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		    void *opts)
{
	/* An optional spec gives the lower bound (a struct rdc_val_seconds; zero_ok unused). */
	const struct rdc_val_seconds *spec = p->spec;
	double s;
	int rc = seconds(ctx, p->name, w[0], spec ? spec->min_s : 0, &s);

	(void)n;
	if (!rc)
		memcpy(DEST(p, opts), &s, sizeof(s));
	return rc;
}

int rdc_val_seconds_ns(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		       void *opts)
{
	const struct rdc_val_seconds *spec = p->spec;
	uint64_t ns = 0;
	double s;
	int rc;

	(void)n;
	if (spec->zero_ok && rdc_parse_seconds(w[0], &s) == -ERANGE &&
	    strspn(w[0], "0.") == strlen(w[0])) {
		/* "0", "0.0": none */
		memcpy(DEST(p, opts), &ns, sizeof(ns));
		return 0;
	}
	rc = seconds(ctx, p->name, w[0], spec->min_s, &s);
	if (rc)
		return rc;
	ns = (uint64_t)llround(s * 1e9);
	memcpy(DEST(p, opts), &ns, sizeof(ns));
	return 0;
}

int rdc_val_positive(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		     void *opts)
{
	char *end;
	double v;

	(void)n;
	v = strtod(w[0], &end);
	if (!*w[0] || *end || !isfinite(v) || v <= 0)
		return rdc_usage_error(ctx, "'%s %s': not a positive number%s%s", p->name, w[0],
				       p->spec ? " of " : "", p->spec ? (const char *)p->spec : "");
	memcpy(DEST(p, opts), &v, sizeof(v));
	return 0;
}

/* A rate in kbit/s: "0" (unlimited) or a number with kbit, mbit, gbit or tbit (SI). */
static int map_rate(const char *s, uint64_t *v)
{
	static const struct {
		const char *unit;
		uint64_t kbit;
	} units[] = {{"kbit", 1}, {"mbit", 1000}, {"gbit", 1000000}, {"tbit", 1000000000}};
	char *end;
	unsigned long long n;

	if (!strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].unit)) {
			if (n > UINT64_MAX / units[i].kbit)
				return -ERANGE;
			*v = n * units[i].kbit;
			return 0;
		}
	return -EINVAL;
}

/* One map value; the valid values for the message in @valid. */
static int map_value(const struct rdc_val_map *spec, const char *s, uint64_t *v, char *valid,
		     size_t size)
{
	switch (spec->kind) {
	case RDC_MAP_NUMBER: {
		int rc = rdc_parse_u64(s, 10, v);

		snprintf(valid, size, "a number 0-%" PRIu64, spec->max);
		return rc ? rc : *v > spec->max ? -ERANGE : 0;
	}
	case RDC_MAP_ONOFF:
		snprintf(valid, size, "on or off");
		if (!strcmp(s, "on") || !strcmp(s, "off")) {
			*v = !strcmp(s, "on");
			return 0;
		}
		return -EINVAL;
	case RDC_MAP_TSA: {
		uint8_t tsa;
		int rc = rdc_dcb_tsa_parse(s, &tsa);

		snprintf(valid, size, "strict, cbs, ets or vendor");
		*v = tsa;
		return rc;
	}
	case RDC_MAP_SIZE:
		snprintf(valid, size, "bytes, nK or nM up to %" PRIu64, spec->max);
		return rdc_parse_size(s, spec->max, v);
	case RDC_MAP_RATE:
		snprintf(valid, size, "0 or a rate such as 500mbit, 25gbit");
		return map_rate(s, v);
	}
	return -EINVAL;
}

int rdc_val_map(struct rdc_ctx *ctx, const struct rdc_param *p, const char *const *w, int n,
		void *opts)
{
	const struct rdc_val_map *spec = p->spec;
	char *vals = DEST(p, opts);

	for (int i = 0; i < n; i++) {
		char key[16], valid[96];
		const char *colon = strchr(w[i], ':');
		size_t klen = colon ? (size_t)(colon - w[i]) : 0;
		unsigned int first, last;
		uint64_t k, v;

		if (!colon || klen == 0 || klen >= sizeof(key))
			return rdc_usage_error(ctx, "'%s %s': expected KEY:VALUE", p->name, w[i]);
		memcpy(key, w[i], klen);
		key[klen] = '\0';
		if (map_value(spec, colon + 1, &v, valid, sizeof(valid)))
			return rdc_usage_error(ctx, "'%s %s': bad value '%s', expected %s", p->name,
					       w[i], colon + 1, valid);
		if (spec->allow_all && !strcmp(key, "all")) {
			first = 0;
			last = spec->nkeys - 1;
		} else if (spec->dscp_keys) {
			if (!rdc_dscp_parse(key, &first))
				return rdc_usage_error(
					ctx,
					"'%s %s': '%s' is not a DSCP (0-63, or CS0-CS7, "
					"AF11-AF43, EF, VA)",
					p->name, w[i], key);
			last = first;
		} else if (!rdc_parse_u64(key, 10, &k) && k < spec->nkeys) {
			first = last = (unsigned int)k;
		} else {
			return rdc_usage_error(ctx, "'%s %s': '%s' is not %s0-%u", p->name, w[i],
					       key, spec->allow_all ? "all or " : "",
					       spec->nkeys - 1);
		}
		for (unsigned int j = first; j <= last; j++) {
			if (spec->elem) {
				store_uint(vals + j * spec->elem, spec->elem, v);
			} else {
				int x = (int)v;

				memcpy(vals + j * sizeof(int), &x, sizeof(int));
			}
			set_flag(opts, spec->given, j);
		}
	}
	return 0;
}
