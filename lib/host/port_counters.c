// SPDX-License-Identifier: GPL-2.0-or-later
/* port_counters.c - IB port counters and RDMA hw_counters from sysfs */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/port_counters.h"
#include "seam/fs.h"

static int read_one(const char *dev, unsigned int port, const char *dir, const char *group,
		    const char *name, struct rdc_counter_set *set)
{
	uint64_t v;

	/* "N/A (no PMA)" and unreadable entries are not counters we can report. */
	if (rdc_fs_read_u64(&v, NULL, "/sys/class/infiniband/%s/ports/%u/%s/%s", dev, port, dir,
			    name))
		return 0;
	if (!strcmp(name, "port_xmit_data"))
		return rdc_counters_add(set, group, "port_xmit_bytes", v * 4);
	if (!strcmp(name, "port_rcv_data"))
		return rdc_counters_add(set, group, "port_rcv_bytes", v * 4);
	return rdc_counters_add(set, group, name, v);
}

/* Read a counter directory: the names in @first (in that order), then the rest. */
static int read_dir(const char *dev, unsigned int port, const char *dir, const char *group,
		    const char *const *first, size_t nfirst, struct rdc_counter_set *set,
		    struct rdc_err *err)
{
	struct rdc_names names;
	int rc;

	rc = rdc_fs_list(&names, NULL, "/sys/class/infiniband/%s/ports/%u/%s", dev, port, dir);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rdc_err_set(err, -rc, "cannot list %s of '%s/%u'", dir, dev, port);
	for (size_t f = 0; f < nfirst && !rc; f++)
		for (size_t i = 0; i < names.count && !rc; i++)
			if (!strcmp(first[f], names.names[i]))
				rc = read_one(dev, port, dir, group, names.names[i], set);
	for (size_t i = 0; i < names.count && !rc; i++) {
		bool preferred = !strcmp(names.names[i], "lifespan"); /* a setting, not a counter */

		for (size_t f = 0; f < nfirst; f++)
			preferred |= !strcmp(first[f], names.names[i]);
		if (!preferred)
			rc = read_one(dev, port, dir, group, names.names[i], set);
	}
	rdc_names_free(&names);
	return rc ? rdc_err_set(err, -rc, "cannot read %s of '%s/%u'", dir, dev, port) : 0;
}

int rdc_port_ib_counters(const char *dev, unsigned int port, struct rdc_counter_set *set,
			 struct rdc_err *err)
{
	return read_dir(dev, port, "counters", "ib", NULL, 0, set, err);
}

/*
 * The counters that tell a RoCE operator about loss, retransmission and
 * congestion control (mlx5 and rxe names), shown before the rest.
 */
static const char *const hw_roce_first[] = {
	"out_of_sequence",
	"packet_seq_err",
	"implied_nak_seq_err",
	"local_ack_timeout_err",
	"rnr_nak_retry_err",
	"out_of_buffer",
	"duplicate_request",
	"req_transport_retries_exceeded",
	"req_rnr_retries_exceeded",
	"roce_adp_retrans",
	"roce_adp_retrans_to",
	"roce_slow_restart",
	"roce_slow_restart_cnps",
	"np_ecn_marked_roce_packets",
	"np_cnp_sent",
	"rp_cnp_handled",
	"rp_cnp_ignored",
	"rx_icrc_encapsulated",
	"rcvd_seq_err",
	"out_of_seq_request",
	"retry_exceeded_err",
	"retry_rnr_exceeded_err",
	"completer_retry_err",
	"send_err",
	"link_downed",
};

int rdc_port_hw_counters(const char *dev, unsigned int port, struct rdc_counter_set *set,
			 struct rdc_err *err)
{
	return read_dir(dev, port, "hw_counters", "hw", hw_roce_first,
			RDC_ARRAY_SIZE(hw_roce_first), set, err);
}
