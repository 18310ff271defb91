// SPDX-License-Identifier: GPL-2.0-or-later
/* pci.c - PCIe link, NUMA node and driver of a device */
#define _GNU_SOURCE /* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/pci.h"
#include "host/sysval.h"
#include "seam/fs.h"

int rdc_pci_parse_speed(const char *text, double *gts)
{
	char *end;
	double v;

	v = strtod(text, &end);
	if (end == text || v <= 0 || strncmp(end, " GT/s", 5))
		return -EINVAL;
	end += 5;
	if (*end && strcmp(end, " PCIe"))
		return -EINVAL;
	*gts = v;
	return 0;
}

/*
 * "Unknown" is the kernel saying so (link down, a VF): unknown without a word.
 * Returns whether the file exists.
 */
static bool pci_read_speed(struct rdc_pci *pci, const char *devpath, const char *file, double *gts)
{
	char buf[64];
	int rc = rdc_sysval_str(&pci->issues, buf, sizeof(buf), "%s/%s", devpath, file);
	char *path;

	/* @devpath may be long (where a link leads, up to PATH_MAX): the message names it whole. */
	if (rc > 0 && rdc_pci_parse_speed(buf, gts) && strcmp(buf, "Unknown")) {
		if (asprintf(&path, "%s/%s", devpath, file) < 0)
			path = NULL;
		rdc_sysval_bad(&pci->issues, path ? path : devpath, buf, "a PCIe link speed");
		free(path);
	}
	return rc != 0;
}

int rdc_pci_read(const char *devpath, const char *address, struct rdc_pci *pci, struct rdc_err *err)
{
	int64_t v;

	memset(pci, 0, sizeof(*pci));
	pci->numa_node = -1;
	pci->cur_width = pci->max_width = -1;
	if (!*address || rdc_strlcpy(pci->address, address, sizeof(pci->address)))
		return rdc_err_set(err, EINVAL, "'%s' is not a PCI device name", address);
	if (rdc_fs_link_name(pci->driver, sizeof(pci->driver), "%s/driver", devpath) < 0)
		pci->driver[0] = '\0';
	if (rdc_sysval_i64(&pci->issues, &v, "%s/numa_node", devpath) > 0)
		pci->numa_node = v < 0 ? -1 : v;
	pci->has_link = pci_read_speed(pci, devpath, "current_link_speed", &pci->cur_speed_gts);
	pci_read_speed(pci, devpath, "max_link_speed", &pci->max_speed_gts);
	/* Width 0 is what a function without a link of its own (a VF) reads: unknown too. */
	if (rdc_sysval_i64(&pci->issues, &v, "%s/current_link_width", devpath) > 0 && v > 0)
		pci->cur_width = v;
	if (rdc_sysval_i64(&pci->issues, &v, "%s/max_link_width", devpath) > 0 && v > 0)
		pci->max_width = v;
	pci->degraded =
		pci->has_link && pci->cur_speed_gts > 0 &&
		((pci->max_speed_gts > 0 && pci->cur_speed_gts < pci->max_speed_gts) ||
		 (pci->max_width > 0 && pci->cur_width >= 0 && pci->cur_width < pci->max_width));
	return 0;
}

void rdc_pci_free(struct rdc_pci *pci)
{
	rdc_issues_free(&pci->issues);
}

/* @n hex digits, then @sep (or the end when @sep is 0); the position after it or NULL. */
static const char *pci_hex_field(const char *s, size_t min, size_t max, char sep)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]))
		n++;
	if (n < min || n > max || s[n] != sep)
		return NULL;
	return sep ? s + n + 1 : s + n;
}

bool rdc_pci_address_valid(const char *s)
{
	/* domain (4, or 8 behind a VMD bridge), bus, device, function */
	s = pci_hex_field(s, 4, 8, ':');
	s = s ? pci_hex_field(s, 2, 2, ':') : NULL;
	s = s ? pci_hex_field(s, 2, 2, '.') : NULL;
	return s && pci_hex_field(s, 1, 1, '\0');
}
