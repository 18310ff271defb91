// SPDX-License-Identifier: GPL-2.0-or-later
/* prom.c - Prometheus text exposition (0.0.4): families, escaping, sorted output, files */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safefile.h"
#include "base/util.h"
#include "out/prom.h"

struct prom_sample {
	char *labels; /* rendered: "{a=\"b\",c=\"d\"}", or "" */
	char value[32];
};

struct prom_family {
	char *name, *help;
	enum rdc_prom_type type;
	struct prom_sample *samples;
	size_t count, cap;
};

struct rdc_prom {
	struct prom_family *families;
	size_t count, cap;
	struct rdc_err err; /* the first error; err.code 0 while there is none */
};

struct rdc_prom *rdc_prom_new(void)
{
	return calloc(1, sizeof(struct rdc_prom));
}

void rdc_prom_free(struct rdc_prom *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->count; i++) {
		struct prom_family *f = &p->families[i];

		for (size_t k = 0; k < f->count; k++)
			free(f->samples[k].labels);
		free(f->samples);
		free(f->name);
		free(f->help);
	}
	free(p->families);
	free(p);
}

/* Keep the first error only: later calls are no-ops (see prom.h). */
static int prom_fail(struct rdc_prom *p, int code, const char *what, const char *name)
{
	if (!p->err.code)
		rdc_err_set(&p->err, code, "metrics: %s '%s'", what, name);
	return -code;
}

/*
 *   "rdmactl_up"      valid      "9lives"    invalid (digit first)
 *   "a:b"             invalid (colons are for recording rules)
 *   "__name__"        invalid as a label (reserved), valid as a metric name
 */
bool rdc_prom_name_valid(const char *name, bool label)
{
	if (!name || !name[0] || (name[0] >= '0' && name[0] <= '9'))
		return false;
	if (label && name[0] == '_' && name[1] == '_')
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_'))
			return false;
	return true;
}

/*
 * Families are kept sorted by name and each family's samples by their
 * labels, so writing is one walk.  Where @name is, or would go: the index,
 * and whether it is there.
 */
static size_t family_slot(const struct rdc_prom *p, const char *name, bool *found)
{
	size_t lo = 0, hi = p->count;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->families[mid].name, name);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t sample_slot(const struct prom_family *f, const char *labels, bool *found)
{
	size_t lo = 0, hi = f->count;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->samples[mid].labels, labels);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int rdc_prom_family(struct rdc_prom *p, const char *name, enum rdc_prom_type type, const char *help)
{
	struct prom_family *f;
	bool found;
	size_t at;

	if (p->err.code)
		return -p->err.code;
	if (!rdc_prom_name_valid(name, false))
		return prom_fail(p, EINVAL, "invalid metric name", name ? name : "(null)");
	if (type == RDC_PROM_COUNTER && !ends_with(name, "_total"))
		return prom_fail(p, EINVAL, "a counter's name must end in _total:", name);
	if (!help)
		help = "";
	at = family_slot(p, name, &found);
	if (found) {
		f = &p->families[at];
		if (f->type != type || strcmp(f->help, help))
			return prom_fail(p, EINVAL, "declared twice, differently:", name);
		return 0;
	}
	if (p->count == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct prom_family *n = realloc(p->families, cap * sizeof(*n));

		if (!n)
			return prom_fail(p, ENOMEM, "no memory for", name);
		p->families = n;
		p->cap = cap;
	}
	f = &p->families[at];
	memmove(f + 1, f, (p->count - at) * sizeof(*f));
	memset(f, 0, sizeof(*f));
	p->count++;
	f->name = strdup(name);
	f->help = strdup(help);
	f->type = type;
	if (!f->name || !f->help) /* the slot stays, valid and empty; the set is in error */
		return prom_fail(p, ENOMEM, "no memory for", name);
	return 0;
}

/*
 * Append @s to @fp escaped: backslash and newline always, the double quote
 * in label values (@quote); bytes that are not valid UTF-8 as U+FFFD, since
 * the format is UTF-8.  Other control characters (C0, DEL, C1), bidi
 * controls and zero-width characters become the text \uXXXX (the format has
 * no escape of its own for them, so the backslash is escaped): a driver's
 * name holding ESC must not reach a terminal that cats the file, nor one
 * holding U+202E read backwards in a dashboard.
 *   a"b\c<LF>   ->  a\"b\\c\n        "\xff" -> "\xef\xbf\xbd"    "\x1b" -> "\\u001b"
 */
static void prom_escape(FILE *fp, const char *s, bool quote)
{
	while (*s) {
		size_t n = rdc_utf8_len(s);
		enum rdc_esc kind = rdc_esc_kind(s, n, false);

		if (*s == '\n') {
			fputs("\\n", fp);
			s++;
		} else if (!n) {
			fputs("\xef\xbf\xbd", fp);
			s++;
		} else if (kind != RDC_ESC_NONE) {
			fprintf(fp, "\\\\u%04x", (unsigned int)rdc_utf8_cp(s, n));
			s += n;
		} else if (*s == '\\') {
			fputs("\\\\", fp);
			s++;
		} else if (*s == '"' && quote) {
			fputs("\\\"", fp);
			s++;
		} else {
			fwrite(s, 1, n, fp);
			s += n;
		}
	}
}

/* Render @labels as {name="value",...} into a new string; "" when none has a value. */
static int prom_labels(struct rdc_prom *p, const char *family, const struct rdc_prom_label *labels,
		       size_t nlabels, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	bool any = false;

	if (!fp)
		return prom_fail(p, ENOMEM, "no memory for", family);
	for (size_t i = 0; i < nlabels; i++) {
		if (!rdc_prom_name_valid(labels[i].name, true)) {
			fclose(fp);
			free(buf);
			return prom_fail(p, EINVAL, "invalid label name in",
					 family); /* the name may be NULL */
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(labels[k].name, labels[i].name)) {
				fclose(fp);
				free(buf);
				return prom_fail(p, EINVAL, "a label given twice in", family);
			}
		if (!labels[i].value || !labels[i].value[0])
			continue;
		fputs(any ? "," : "{", fp);
		fprintf(fp, "%s=\"", labels[i].name);
		prom_escape(fp, labels[i].value, true);
		fputc('"', fp);
		any = true;
	}
	if (any)
		fputc('}', fp);
	if (fclose(fp)) {
		free(buf);
		return prom_fail(p, ENOMEM, "no memory for", family);
	}
	*out = buf;
	return 0;
}

static int prom_add(struct rdc_prom *p, const char *name, const struct rdc_prom_label *labels,
		    size_t nlabels, const char *value)
{
	struct prom_family *f;
	char *ls = NULL;
	bool found;
	size_t at;
	int rc;

	if (p->err.code)
		return -p->err.code;
	at = family_slot(p, name, &found);
	if (!found)
		return prom_fail(p, EINVAL, "a sample of an undeclared family", name);
	f = &p->families[at];
	rc = prom_labels(p, name, labels, nlabels, &ls);
	if (rc)
		return rc;
	/*
	 * Label values come from the kernel: a driver may name two statistics
	 * alike, and U+FFFD may make two names one.  The first stays; the set
	 * is not put in error for it.
	 */
	at = sample_slot(f, ls, &found);
	if (found) {
		free(ls);
		return -EEXIST;
	}
	if (f->count == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct prom_sample *n = realloc(f->samples, cap * sizeof(*n));

		if (!n) {
			free(ls);
			return prom_fail(p, ENOMEM, "no memory for", name);
		}
		f->samples = n;
		f->cap = cap;
	}
	memmove(&f->samples[at + 1], &f->samples[at], (f->count - at) * sizeof(f->samples[0]));
	f->samples[at].labels = ls;
	rdc_strlcpy(f->samples[at].value, value, sizeof(f->samples[at].value));
	f->count++;
	return 0;
}

int rdc_prom_u64(struct rdc_prom *p, const char *name, const struct rdc_prom_label *labels,
		 size_t nlabels, uint64_t v)
{
	char value[32];

	/* Exact digits: Prometheus parses them into a float64, we need not round first. */
	snprintf(value, sizeof(value), "%" PRIu64, v);
	return prom_add(p, name, labels, nlabels, value);
}

/*
 * The shortest %g that reads back as the same double ("0.1", not
 * "0.10000000000000001"); the format's spellings of the special values.
 */
static void prom_format_f64(double v, char *buf, size_t size)
{
	if (isnan(v)) {
		snprintf(buf, size, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, "%s", v > 0 ? "+Inf" : "-Inf");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int rdc_prom_f64(struct rdc_prom *p, const char *name, const struct rdc_prom_label *labels,
		 size_t nlabels, double v)
{
	char value[32];

	prom_format_f64(v, value, sizeof(value));
	return prom_add(p, name, labels, nlabels, value);
}

int rdc_prom_status(const struct rdc_prom *p, struct rdc_err *err)
{
	if (!p->err.code)
		return 0;
	if (err)
		*err = p->err;
	return -p->err.code;
}

size_t rdc_prom_count(const struct rdc_prom *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->count; i++)
		n += p->families[i].count;
	return n;
}

/* The exposition into @fp: the set is sorted already. */
static void prom_emit(const struct rdc_prom *p, FILE *fp)
{
	for (size_t i = 0; i < p->count; i++) {
		const struct prom_family *f = &p->families[i];

		if (!f->count)
			continue;
		fprintf(fp, "# HELP %s ", f->name);
		prom_escape(fp, f->help, false);
		fprintf(fp, "\n# TYPE %s %s\n", f->name,
			f->type == RDC_PROM_COUNTER ? "counter" : "gauge");
		for (size_t k = 0; k < f->count; k++)
			fprintf(fp, "%s%s %s\n", f->name, f->samples[k].labels,
				f->samples[k].value);
	}
}

int rdc_prom_render(const struct rdc_prom *p, char **buf, size_t *len, struct rdc_err *err)
{
	FILE *fp;
	int rc = rdc_prom_status(p, err);

	*buf = NULL;
	*len = 0;
	if (rc)
		return rc;
	fp = open_memstream(buf, len);
	if (!fp)
		return rdc_err_set(err, ENOMEM, "metrics: cannot render");
	prom_emit(p, fp);
	if (fclose(fp))
		rc = -ENOMEM;
	if (rc) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		return rdc_err_set(err, -rc, "metrics: cannot render");
	}
	return 0;
}

int rdc_prom_write(const struct rdc_prom *p, FILE *fp, struct rdc_err *err)
{
	char *buf;
	size_t len;
	int rc = rdc_prom_render(p, &buf, &len, err);

	if (rc)
		return rc;
	errno = 0;
	if (fwrite(buf, 1, len, fp) != len || fflush(fp) || ferror(fp))
		rc = rdc_err_set(err, errno > 0 ? errno : EIO, "metrics: cannot write the output");
	free(buf);
	return rc;
}

int rdc_prom_write_file(const struct rdc_prom *p, const char *path, struct rdc_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	/* Everything that can fail without touching the file system comes first. */
	rc = rdc_prom_render(p, &buf, &len, err);
	if (rc)
		return rc;
	/* node_exporter runs as its own user and must read it: 0644. */
	rc = rdc_file_replace(path, buf, len, 0644, err);
	free(buf);
	return rc;
}
