// SPDX-License-Identifier: GPL-2.0-or-later
/* ofed_qos.c - MLNX_OFED's per-netdev QoS sysfs: trust, ECN per priority, the CNP's DSCP/priority */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "host/ofed_qos.h"
#include "seam/fs.h"

#define NET_CLASS "/sys/class/net"

bool rdc_ofed_ecn_present(const char *netdev)
{
	return rdc_fs_exists(NET_CLASS "/%s/ecn", netdev);
}

/* snprintf into @buf; -ENAMETOOLONG when it did not fit. */
static int path_fits(int n, size_t size)
{
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int rdc_ofed_ecn_path(char *buf, size_t size, const char *netdev, bool reaction_point,
		      unsigned int prio)
{
	return path_fits(snprintf(buf, size, NET_CLASS "/%s/ecn/roce_%s/enable/%u", netdev,
				  reaction_point ? "rp" : "np", prio),
			 size);
}

int rdc_ofed_cnp_path(char *buf, size_t size, const char *netdev, const char *attr)
{
	return path_fits(snprintf(buf, size, NET_CLASS "/%s/ecn/roce_np/%s", netdev, attr), size);
}

static int read_flag(const char *path)
{
	int64_t v;

	return rdc_fs_read_i64(&v, NULL, "%s", path) ? -1 : v != 0;
}

void rdc_ofed_qos_read(const char *netdev, struct rdc_ofed_qos *q)
{
	char path[256];

	memset(q, 0, sizeof(*q));
	q->cnp_dscp = q->cnp_prio = -1;
	if (rdc_fs_read(q->trust, sizeof(q->trust), NULL, NET_CLASS "/%s/qos/trust", netdev) <= 0)
		q->trust[0] = '\0';
	q->have_ecn = rdc_ofed_ecn_present(netdev);
	for (unsigned int p = 0; p < RDC_OFED_PRIOS; p++) {
		q->ecn_np[p] = q->ecn_rp[p] = -1;
		if (!q->have_ecn)
			continue;
		if (!rdc_ofed_ecn_path(path, sizeof(path), netdev, false, p))
			q->ecn_np[p] = read_flag(path);
		if (!rdc_ofed_ecn_path(path, sizeof(path), netdev, true, p))
			q->ecn_rp[p] = read_flag(path);
	}
	if (!q->have_ecn)
		return;
	if (!rdc_ofed_cnp_path(path, sizeof(path), netdev, "cnp_dscp") &&
	    rdc_fs_read_i64(&q->cnp_dscp, NULL, "%s", path))
		q->cnp_dscp = -1;
	if (!rdc_ofed_cnp_path(path, sizeof(path), netdev, "cnp_802p_prio") &&
	    rdc_fs_read_i64(&q->cnp_prio, NULL, "%s", path))
		q->cnp_prio = -1;
}
