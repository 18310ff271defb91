// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * state.c - the simulated NIC's state: defaults, the text file, the lock, and
 * the values the driver reports back (mlx5 derives some on every read).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dd.h"

/* The shim points this at the real close(): its own close() wrapper must not
 * be re-entered from inside the double. */
int (*dd_close_hook)(int) = close;

/*
 * A netdev as upstream mlx5 leaves it after probe on a PF (en_dcbnl.c):
 *  - mlx5e_dcbnl_initialize(): dcbx.cap = VER_CEE | VER_IEEE, plus HOST when the
 *    firmware DCBX mode is HOST (assumed here): 0x0d, `dcb dcbx` "host cee ieee";
 *    dcbx.cable_len = MLX5E_DEFAULT_CABLE_LEN (7), reported as pfc.delay;
 *  - mlx5e_ets_init(): every TC vendor TSA with 100% bw, prio_tc = {1,0,2,..,7}
 *    (priority 0 on TC1 so that untagged traffic is not on the lowest TC);
 *  - mlx5e_trust_initialize(): firmware trust PCP, dscp2prio the firmware default
 *    dscp >> 3, no APP entries;
 *  - PFC off, no rate limits, every priority on buffer 0, which holds the whole
 *    port buffer.
 */
void dd_dev_defaults(struct dd_dev *d, const char *name)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->dcbx_cap = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE;
	d->dcbx_host = true;
	d->cable_len = DD_MLX5_CABLE_LEN;
	for (int i = 0; i < 8; i++) {
		d->prio_tc[i] = (uint8_t)i;
		d->tc_tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
		d->tc_group[i] = DD_MLX5_VENDOR_GROUP;
		d->tc_bw[i] = DD_MLX5_MAX_BW;
	}
	d->prio_tc[0] = 1;
	d->prio_tc[1] = 0;
	d->buffer_size[0] = DD_PORT_BUFFER;
	d->buffer_total = DD_PORT_BUFFER;
	for (int i = 0; i < 64; i++)
		d->dscp2prio[i] = (uint8_t)(i >> 3);
}

struct dd_dev *dd_state_find(struct dd_state *st, const char *name)
{
	for (int i = 0; i < st->ndevs; i++)
		if (!strcmp(st->devs[i].name, name))
			return &st->devs[i];
	return NULL;
}

/* What the kernel's dev_valid_name() allows, less quotes and backslashes,
 * which the JSON output does not escape. */
bool dd_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= DD_IFNAMSIZ || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (name[i] <= ' ' || name[i] == '/' || name[i] == ':' || name[i] == '"' ||
		    name[i] == '\\' || (unsigned char)name[i] >= 0x7f)
			return false;
	return true;
}

bool dd_fail_spec_ok(const char *spec)
{
	for (; *spec; spec++)
		if (!((*spec >= 'a' && *spec <= 'z') || (*spec >= '0' && *spec <= '9') ||
		      *spec == ':' || *spec == '-'))
			return false;
	return true;
}

struct dd_dev *dd_state_get(struct dd_state *st, const char *name)
{
	struct dd_dev *d = dd_state_find(st, name);

	if (d || st->ndevs >= DD_MAX_DEVS || !dd_name_ok(name))
		return d;
	d = &st->devs[st->ndevs++];
	dd_dev_defaults(d, name);
	return d;
}

/* mlx5e_dcbnl_ieee_getets(): tc_tsa is re-derived from the firmware groups. */
void dd_getets(const struct dd_dev *d, struct ieee_ets *ets)
{
	bool zero_bw_ets_tc = false, group6 = false;

	memset(ets, 0, sizeof(*ets));
	memcpy(ets->prio_tc, d->prio_tc, 8);
	ets->ets_cap = DD_MLX5_MAX_TC + 1;
	for (int i = 0; i < ets->ets_cap; i++) {
		ets->tc_tx_bw[i] = d->tc_bw[i];
		if (d->tc_bw[i] < DD_MLX5_MAX_BW && d->tc_group[i] == DD_MLX5_LOWEST_GROUP + 1)
			zero_bw_ets_tc = true;
		if (d->tc_group[i] == DD_MLX5_VENDOR_GROUP - 1)
			group6 = true;
	}
	/* "Report 0% ets tc if exits" */
	if (zero_bw_ets_tc)
		for (int i = 0; i < ets->ets_cap; i++)
			if (d->tc_group[i] == DD_MLX5_LOWEST_GROUP)
				ets->tc_tx_bw[i] = 0;
	memcpy(ets->tc_tsa, d->tc_tsa, 8);
	for (int i = 0; i < ets->ets_cap; i++) {
		if (ets->tc_tx_bw[i] < DD_MLX5_MAX_BW)
			ets->tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		else if (d->tc_group[i] == DD_MLX5_VENDOR_GROUP && !group6)
			ets->tc_tsa[i] = IEEE_8021QAZ_TSA_VENDOR;
	}
}

/* mlx5e_dcbnl_ieee_getpfc(): delay is the cable length, mbc is never set. */
void dd_getpfc(const struct dd_dev *d, struct ieee_pfc *pfc)
{
	memset(pfc, 0, sizeof(*pfc));
	pfc->pfc_cap = DD_MLX5_MAX_TC + 1;
	pfc->pfc_en = d->pfc_en;
	pfc->delay = d->cable_len;
	for (int i = 0; i < 8; i++) {
		if (d->have_counters) {
			pfc->requests[i] = d->requests[i];
			pfc->indications[i] = d->indications[i];
		} else if (d->pfc_en & (1u << i)) {
			/* per-priority tx_pause / rx_pause: fixed stand-ins */
			pfc->requests[i] = DD_PFC_REQUESTS;
			pfc->indications[i] = DD_PFC_INDICATIONS;
		}
	}
}

const char *dd_tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case IEEE_8021QAZ_TSA_STRICT:
		return "strict";
	case IEEE_8021QAZ_TSA_CB_SHAPER:
		return "cbs";
	case IEEE_8021QAZ_TSA_ETS:
		return "ets";
	case IEEE_8021QAZ_TSA_VENDOR:
		return "vendor";
	default:
		return "???";
	}
}

/* ---- the text file ------------------------------------------------------ */

struct sbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void __attribute__((format(printf, 2, 3))) sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->oom)
		return;
	for (;;) {
		size_t room = s->cap - s->len;

		va_start(ap, fmt);
		n = vsnprintf(s->p ? s->p + s->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			s->oom = true;
			return;
		}
		if ((size_t)n < room) {
			s->len += (size_t)n;
			return;
		}
		size_t ncap = (s->cap ? s->cap * 2 : 4096) + (size_t)n;
		char *np = realloc(s->p, ncap);

		if (!np) {
			s->oom = true;
			return;
		}
		s->p = np;
		s->cap = ncap;
	}
}

static void sb_u8s(struct sbuf *s, const char *key, const uint8_t *v, int n)
{
	sb_printf(s, "%s", key);
	for (int i = 0; i < n; i++)
		sb_printf(s, " %u", v[i]);
	sb_printf(s, "\n");
}

static void sb_u64s(struct sbuf *s, const char *key, const uint64_t *v, int n)
{
	sb_printf(s, "%s", key);
	for (int i = 0; i < n; i++)
		sb_printf(s, " %" PRIu64, v[i]);
	sb_printf(s, "\n");
}

char *dd_state_format(const struct dd_state *st)
{
	struct sbuf s = {0};

	sb_printf(&s, "# dcb-double state; see tests/dcb-double/README.md\n");
	sb_printf(&s, "fail_spec %s\nfail_seen %u\n", st->fail_spec[0] ? st->fail_spec : "-",
		  st->fail_seen);
	for (int k = 0; k < st->ndevs; k++) {
		const struct dd_dev *d = &st->devs[k];
		uint64_t v[8];

		sb_printf(&s, "dev %s\n", d->name);
		sb_printf(&s, "dcbx_cap %u\ndcbx_mode %s\n", d->dcbx_cap,
			  d->dcbx_host ? "host" : "auto");
		sb_printf(&s, "pfc_en %u\ncable_len %u\n", d->pfc_en, d->cable_len);
		sb_u8s(&s, "prio_tc", d->prio_tc, 8);
		sb_u8s(&s, "tc_group", d->tc_group, 8);
		sb_u8s(&s, "tc_bw", d->tc_bw, 8);
		sb_u8s(&s, "tc_tsa", d->tc_tsa, 8);
		sb_u64s(&s, "maxrate", d->maxrate, 8);
		sb_u8s(&s, "prio2buffer", d->prio2buffer, 8);
		for (int i = 0; i < 8; i++)
			v[i] = d->buffer_size[i];
		sb_u64s(&s, "buffer_size", v, 8);
		sb_printf(&s, "buffer_total %u\n", d->buffer_total);
		sb_printf(&s, "trust %s\n", d->trust_dscp ? "dscp" : "pcp");
		sb_u8s(&s, "dscp2prio", d->dscp2prio, 64);
		for (int i = 0; i < d->napps; i++)
			sb_printf(&s, "app %u %u %u\n", d->apps[i].selector, d->apps[i].protocol,
				  d->apps[i].priority);
		for (int i = 0; i < d->nrewr; i++)
			sb_printf(&s, "rewr %u %u %u\n", d->rewr[i].selector, d->rewr[i].protocol,
				  d->rewr[i].priority);
		if (d->have_counters) {
			sb_u64s(&s, "requests", d->requests, 8);
			sb_u64s(&s, "indications", d->indications, 8);
		}
	}
	if (s.oom) {
		free(s.p);
		return NULL;
	}
	if (!s.p)
		return strdup("");
	return s.p;
}

/* "N N N ..." with exactly @n values, each <= @max */
static bool parse_nums(const char *p, uint64_t *out, int n, uint64_t max)
{
	for (int i = 0; i < n; i++) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		errno = 0;
		out[i] = strtoull(p, &end, 10);
		if (errno || out[i] > max)
			return false;
		p = end;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\0';
}

static bool parse_u8s(const char *p, uint8_t *out, int n, uint64_t max)
{
	uint64_t v[64];

	if (n > 64 || !parse_nums(p, v, n, max))
		return false;
	for (int i = 0; i < n; i++)
		out[i] = (uint8_t)v[i];
	return true;
}

int dd_state_parse(struct dd_state *st, const char *text, char *why, size_t whylen)
{
	char *copy = strdup(text), *save = NULL, *line;
	struct dd_dev *d = NULL;
	int lineno = 0;

	memset(st, 0, sizeof(*st));
	if (!copy) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[32];
		const char *rest;
		uint64_t v[8] = {0};
		bool ok = true;
		int klen = 0;

		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '#' || *line == '\0')
			continue;
		while (line[klen] && line[klen] != ' ' && line[klen] != '\t')
			klen++;
		if (klen >= (int)sizeof(key))
			goto bad;
		memcpy(key, line, (size_t)klen);
		key[klen] = '\0';
		rest = line + klen;
		while (*rest == ' ' || *rest == '\t')
			rest++;

		if (!strcmp(key, "fail_spec")) {
			if (strlen(rest) >= sizeof(st->fail_spec) || !dd_fail_spec_ok(rest))
				goto bad;
			snprintf(st->fail_spec, sizeof(st->fail_spec), "%s",
				 strcmp(rest, "-") ? rest : "");
			continue;
		}
		if (!strcmp(key, "fail_seen")) {
			ok = parse_nums(rest, v, 1, UINT32_MAX);
			st->fail_seen = (unsigned int)v[0];
			if (!ok)
				goto bad;
			continue;
		}
		if (!strcmp(key, "dev")) {
			if (!dd_name_ok(rest) || dd_state_find(st, rest) ||
			    st->ndevs >= DD_MAX_DEVS)
				goto bad;
			d = &st->devs[st->ndevs++];
			dd_dev_defaults(d, rest);
			continue;
		}
		if (!d)
			goto bad;
		if (!strcmp(key, "dcbx_cap")) {
			ok = parse_nums(rest, v, 1, 255);
			d->dcbx_cap = (uint8_t)v[0];
		} else if (!strcmp(key, "dcbx_mode")) {
			ok = !strcmp(rest, "host") || !strcmp(rest, "auto");
			d->dcbx_host = !strcmp(rest, "host");
		} else if (!strcmp(key, "pfc_en")) {
			ok = parse_nums(rest, v, 1, 255);
			d->pfc_en = (uint8_t)v[0];
		} else if (!strcmp(key, "cable_len")) {
			ok = parse_nums(rest, v, 1, UINT16_MAX);
			d->cable_len = (uint16_t)v[0];
		} else if (!strcmp(key, "prio_tc")) {
			ok = parse_u8s(rest, d->prio_tc, 8, 7);
		} else if (!strcmp(key, "tc_group")) {
			ok = parse_u8s(rest, d->tc_group, 8, 7);
		} else if (!strcmp(key, "tc_bw")) {
			ok = parse_u8s(rest, d->tc_bw, 8, 100);
		} else if (!strcmp(key, "tc_tsa")) {
			ok = parse_u8s(rest, d->tc_tsa, 8, 255);
		} else if (!strcmp(key, "maxrate")) {
			ok = parse_nums(rest, d->maxrate, 8, UINT64_MAX);
		} else if (!strcmp(key, "prio2buffer")) {
			ok = parse_u8s(rest, d->prio2buffer, 8, 7);
		} else if (!strcmp(key, "buffer_size")) {
			ok = parse_nums(rest, v, 8, UINT32_MAX);
			for (int i = 0; ok && i < 8; i++)
				d->buffer_size[i] = (uint32_t)v[i];
		} else if (!strcmp(key, "buffer_total")) {
			ok = parse_nums(rest, v, 1, UINT32_MAX);
			d->buffer_total = (uint32_t)v[0];
		} else if (!strcmp(key, "trust")) {
			ok = !strcmp(rest, "pcp") || !strcmp(rest, "dscp");
			d->trust_dscp = !strcmp(rest, "dscp");
		} else if (!strcmp(key, "dscp2prio")) {
			ok = parse_u8s(rest, d->dscp2prio, 64, 255);
		} else if (!strcmp(key, "app") || !strcmp(key, "rewr")) {
			bool app = key[0] == 'a';
			int *n = app ? &d->napps : &d->nrewr;
			struct dd_app *t = app ? d->apps : d->rewr;

			ok = parse_nums(rest, v, 3, UINT16_MAX) && v[0] <= 255 && v[2] <= 255 &&
			     *n < (app ? DD_MAX_APPS : DD_MAX_REWR);
			if (ok)
				t[(*n)++] = (struct dd_app){.selector = (uint8_t)v[0],
							    .protocol = (uint16_t)v[1],
							    .priority = (uint8_t)v[2]};
		} else if (!strcmp(key, "requests")) {
			ok = parse_nums(rest, d->requests, 8, UINT64_MAX);
			d->have_counters = true;
		} else if (!strcmp(key, "indications")) {
			ok = parse_nums(rest, d->indications, 8, UINT64_MAX);
			d->have_counters = true;
		} else {
			ok = false;
		}
		if (!ok)
			goto bad;
	}
	free(copy);
	return 0;
bad:
	snprintf(why, whylen, "line %d: cannot parse", lineno);
	free(copy);
	return -EINVAL;
}

const char *dd_state_path(void)
{
	static char path[256];
	const char *p = getenv("DCB_DOUBLE_STATE");

	if (p && *p)
		return p;
	p = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/dcb-double-%u.state", p && *p ? p : "/tmp",
		 (unsigned int)getuid());
	return path;
}

static char *read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return buf;
}

int dd_state_open(const char *path, struct dd_state *st, struct dd_locked *lk, char *why,
		  size_t whylen)
{
	int rc;

	lk->orig = NULL;
	lk->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lk->fd < 0) {
		rc = -errno;
		snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
		return rc;
	}
	/* One process at a time reads, changes and writes the NIC, as the RTNL
	 * lock serialises dcbnl requests in the kernel. */
	while (flock(lk->fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		rc = -errno;
		snprintf(why, whylen, "cannot lock %s: %s", path, strerror(errno));
		dd_close_hook(lk->fd);
		return rc;
	}
	lk->orig = read_all(lk->fd);
	if (!lk->orig) {
		snprintf(why, whylen, "cannot read %s", path);
		dd_close_hook(lk->fd);
		return -EIO;
	}
	rc = dd_state_parse(st, lk->orig, why, whylen);
	if (rc) {
		char tmp[128];

		snprintf(tmp, sizeof(tmp), "%s", why);
		snprintf(why, whylen, "%s: %s", path, tmp);
		free(lk->orig);
		dd_close_hook(lk->fd);
	}
	return rc;
}

int dd_state_close(struct dd_locked *lk, const struct dd_state *st, bool write_back)
{
	int rc = 0;

	if (write_back && st) {
		char *text = dd_state_format(st);

		if (!text) {
			rc = -ENOMEM;
		} else if (strcmp(text, lk->orig)) {
			size_t len = strlen(text), off = 0;

			if (lseek(lk->fd, 0, SEEK_SET) < 0 || ftruncate(lk->fd, 0) < 0)
				rc = -errno;
			while (!rc && off < len) {
				ssize_t n = pwrite(lk->fd, text + off, len - off, (off_t)off);

				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0)
					rc = n < 0 ? -errno : -EIO;
				else
					off += (size_t)n;
			}
		}
		free(text);
	}
	free(lk->orig);
	lk->orig = NULL;
	dd_close_hook(lk->fd); /* also drops the flock */
	lk->fd = -1;
	return rc;
}

/* ---- JSON for dcb-double-ctl show ---------------------------------------- */

static void json_u8s(FILE *f, const uint8_t *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? "," : "", v[i]);
	fputc(']', f);
}

static void json_u64s(FILE *f, const uint64_t *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", v[i]);
	fputc(']', f);
}

static void json_apps(FILE *f, const struct dd_app *a, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"selector\":%u,\"protocol\":%u,\"priority\":%u}", i ? "," : "",
			a[i].selector, a[i].protocol, a[i].priority);
	fputc(']', f);
}

static void json_dev(FILE *f, const struct dd_dev *d)
{
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	uint64_t v[8];

	dd_getets(d, &ets);
	dd_getpfc(d, &pfc);
	fprintf(f, "{\"name\":\"%s\",\"trust\":\"%s\",", d->name, d->trust_dscp ? "dscp" : "pcp");
	fprintf(f,
		"\"dcbx\":{\"cap\":%u,\"mode\":\"%s\",\"host\":%s,\"lld_managed\":%s,\"cee\":%s,"
		"\"ieee\":%s,\"static\":%s},",
		d->dcbx_cap, d->dcbx_host ? "host" : "auto",
		d->dcbx_cap & DCB_CAP_DCBX_HOST ? "true" : "false",
		d->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED ? "true" : "false",
		d->dcbx_cap & DCB_CAP_DCBX_VER_CEE ? "true" : "false",
		d->dcbx_cap & DCB_CAP_DCBX_VER_IEEE ? "true" : "false",
		d->dcbx_cap & DCB_CAP_DCBX_STATIC ? "true" : "false");
	fprintf(f, "\"pfc\":{\"pfc_cap\":%u,\"pfc_en\":%u,\"prio_pfc\":[", pfc.pfc_cap, pfc.pfc_en);
	for (int i = 0; i < 8; i++)
		fprintf(f, "%s%s", i ? "," : "", pfc.pfc_en & (1u << i) ? "true" : "false");
	fprintf(f, "],\"delay\":%u,\"requests\":", pfc.delay);
	for (int i = 0; i < 8; i++)
		v[i] = pfc.requests[i];
	json_u64s(f, v, 8);
	fprintf(f, ",\"indications\":");
	for (int i = 0; i < 8; i++)
		v[i] = pfc.indications[i];
	json_u64s(f, v, 8);
	fprintf(f, "},\"ets\":{\"ets_cap\":%u,\"prio_tc\":", ets.ets_cap);
	json_u8s(f, ets.prio_tc, 8);
	fprintf(f, ",\"tc_tsa\":[");
	for (int i = 0; i < 8; i++)
		fprintf(f, "%s\"%s\"", i ? "," : "", dd_tsa_name(ets.tc_tsa[i]));
	fprintf(f, "],\"tc_bw\":");
	json_u8s(f, ets.tc_tx_bw, 8);
	fprintf(f, ",\"fw_tc_group\":");
	json_u8s(f, d->tc_group, 8);
	fprintf(f, ",\"fw_tc_bw\":");
	json_u8s(f, d->tc_bw, 8);
	fprintf(f, "},\"maxrate\":{\"tc_maxrate_kbps\":");
	json_u64s(f, d->maxrate, 8);
	fprintf(f, "},\"buffer\":{\"prio_buffer\":");
	json_u8s(f, d->prio2buffer, 8);
	for (int i = 0; i < 8; i++)
		v[i] = d->buffer_size[i];
	fprintf(f, ",\"buffer_size\":");
	json_u64s(f, v, 8);
	fprintf(f, ",\"total_size\":%u},\"app\":", d->buffer_total);
	json_apps(f, d->apps, d->napps);
	fprintf(f, ",\"dscp2prio\":");
	json_u8s(f, d->dscp2prio, 64);
	fprintf(f, ",\"rewr\":");
	json_apps(f, d->rewr, d->nrewr);
	fputc('}', f);
}

void dd_state_json(FILE *f, const struct dd_state *st, const char *only)
{
	if (only) {
		const struct dd_dev *d = dd_state_find((struct dd_state *)st, only);

		if (d)
			json_dev(f, d);
		else
			fputs("null", f);
		fputc('\n', f);
		return;
	}
	fputs("{\"devices\":{", f);
	for (int i = 0; i < st->ndevs; i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "", st->devs[i].name);
		json_dev(f, &st->devs[i]);
	}
	fprintf(f, "},\"fault\":{\"spec\":\"%s\",\"seen\":%u}}\n", st->fail_spec, st->fail_seen);
}
