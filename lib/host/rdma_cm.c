// SPDX-License-Identifier: GPL-2.0-or-later
/* rdma_cm.c - RDMA-CM defaults per RDMA port in configfs: default RoCE mode and ToS */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/rdma_cm.h"
#include "seam/fs.h"

#define RDMA_CM_CONFIGFS "/sys/kernel/config/rdma_cm"

bool rdc_rdma_cm_available(void)
{
	return rdc_fs_exists(RDMA_CM_CONFIGFS);
}

int rdc_rdma_cm_path(char *buf, size_t size, const char *dev, unsigned int port, const char *attr)
{
	int n = snprintf(buf, size, RDMA_CM_CONFIGFS "/%s/ports/%u/%s", dev, port, attr);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void rdc_rdma_cm_read(const char *dev, unsigned int port, struct rdc_rdma_cm_port *p)
{
	char path[256];

	memset(p, 0, sizeof(*p));
	if (!rdc_rdma_cm_path(path, sizeof(path), dev, port, "default_roce_mode"))
		p->have_mode = rdc_fs_read(p->mode, sizeof(p->mode), NULL, "%s", path) > 0;
	if (!rdc_rdma_cm_path(path, sizeof(path), dev, port, "default_roce_tos"))
		p->have_tos = !rdc_fs_read_i64(&p->tos, NULL, "%s", path);
}

const char *rdc_rdma_cm_mode_name(int mode)
{
	return mode == 1 ? "IB/RoCE v1" : mode == 2 ? "RoCE v2" : NULL;
}

int rdc_rdma_cm_create(const char *dev, struct rdc_err *err)
{
	return rdc_fs_mkdir(err, RDMA_CM_CONFIGFS "/%s", dev);
}
