/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pci.h - PCIe link, NUMA node and driver of a device */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/issues.h"

struct rdc_pci {
	char address[16];     /* "0000:3b:00.0" */
	char driver[64];      /* "mlx5_core", "" when unbound */
	int64_t numa_node;    /* -1 when the platform does not say or unreadable */
	double cur_speed_gts; /* 0 when unknown ("Unknown") or unreadable */
	double max_speed_gts;
	int64_t cur_width; /* lanes; -1 when absent or unreadable */
	int64_t max_width;
	bool has_link;		  /* the speed/width files exist */
	bool degraded;		  /* running below its capability */
	struct rdc_issues issues; /* files that exist but could not be read or parsed */
};

/*
 * Read the PCI function @address ("0000:3b:00.0") at kernel path @devpath:
 * its directory, or a link to it ("/sys/class/infiniband/mlx5_0/device").
 * A value that cannot be read stays unknown and is recorded in pci->issues.
 * @pci is overwritten, not freed: rdc_pci_free() it after.
 */
int rdc_pci_read(const char *devpath, const char *address, struct rdc_pci *pci,
		 struct rdc_err *err);
/* Free what rdc_pci_read() left in @pci (its issues), whatever it returned. */
void rdc_pci_free(struct rdc_pci *pci);

/*
 * Whether @s is a PCI function address as sysfs names devices:
 *   "0000:3b:00.0" "10000:01:00.1" -> true      "virtio0" "0000:3b:00" -> false
 */
bool rdc_pci_address_valid(const char *s);

/*
 * Parse a link speed file:
 *   "16.0 GT/s PCIe" -> 16.0     (kernel >= 5.x)
 *   "8 GT/s"         -> 8.0      (older kernels)
 *   "2.5 GT/s PCIe"  -> 2.5
 *   "Unknown"        -> -EINVAL
 */
int rdc_pci_parse_speed(const char *text, double *gts);
