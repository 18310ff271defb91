// SPDX-License-Identifier: GPL-2.0-or-later
/* cpu_times.c - host-wide CPU time from /proc/stat (read through the file layer) */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpu_times.h"
#include "seam/fs.h"

int rdc_cpu_times_parse(const char *text, struct rdc_cpu_times *t)
{
	const char *s = text + 4;
	uint64_t v[8];

	if (strncmp(text, "cpu ", 4))
		return -EINVAL;
	for (size_t i = 0; i < 8; i++) {
		char *end;

		while (*s == ' ')
			s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno)
			return -EINVAL;
		s = end;
	}
	/* user nice system idle iowait irq softirq steal [guest guest_nice] */
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	t->total = t->busy + v[3] + v[4];
	return 0;
}

int rdc_cpu_times_read(struct rdc_cpu_times *t, struct rdc_err *err)
{
	char buf[4096];
	int rc = rdc_fs_read_head(buf, sizeof(buf), err, "/proc/stat"); /* the first line */

	if (rc < 0)
		return rc;
	if (rdc_cpu_times_parse(buf, t))
		return rdc_err_set(err, EINVAL, "cannot parse the 'cpu' line of /proc/stat");
	return 0;
}

double rdc_cpu_busy_percent(const struct rdc_cpu_times *a, const struct rdc_cpu_times *b)
{
	if (b->total <= a->total || b->busy < a->busy)
		return 0;
	return 100.0 * (double)(b->busy - a->busy) / (double)(b->total - a->total);
}
