/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rdma_cm.h - RDMA-CM defaults per RDMA port in configfs: default RoCE mode and ToS */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* What configfs says for one port; the device's directory exists once created. */
struct rdc_rdma_cm_port {
	bool have_mode, have_tos;
	char mode[32]; /* "RoCE v2", "IB/RoCE v1" */
	int64_t tos;
};

/* configfs is mounted and rdma_cm is loaded: its directory exists. */
bool rdc_rdma_cm_available(void);
void rdc_rdma_cm_read(const char *dev, unsigned int port, struct rdc_rdma_cm_port *p);
/* The file of @attr ("default_roce_mode", "default_roce_tos") for a port. */
int rdc_rdma_cm_path(char *buf, size_t size, const char *dev, unsigned int port, const char *attr);
/* What configfs calls RoCE mode 1 and 2 ("IB/RoCE v1", "RoCE v2"); NULL otherwise. */
const char *rdc_rdma_cm_mode_name(int mode);
/*
 * Create the device's configfs object (mkdir): a write, for the write phase
 * only.  Creating it changes no setting; an existing one is fine.
 */
int rdc_rdma_cm_create(const char *dev, struct rdc_err *err);
