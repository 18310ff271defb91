// SPDX-License-Identifier: GPL-2.0-or-later
/* port_counters.c - IB port counters and RDMA hw_counters from sysfs */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/port_counters.h"
#include "host/sysval.h"
#include "seam/fs.h"

/* Every unreadable counter is named (its key is null in the output), not only the first few. */
static int unread_add(struct rdc_counter_unread *u, const char *group, const char *name)
{
	return u ? rdc_counters_add(&u->names, group, name, 0) : 0;
}

void rdc_counter_unread_free(struct rdc_counter_unread *u)
{
	rdc_counters_free(&u->names);
	rdc_issues_free(&u->issues);
	memset(u, 0, sizeof(*u));
}

/*
 * One counter file.  @bytes: port_xmit_data and port_rcv_data (4-byte words)
 * become port_xmit_bytes and port_rcv_bytes, times 4; else the kernel's name
 * and value.
 */
static int read_one(const char *dev, unsigned int port, const char *dir, const char *group,
		    const char *name, bool bytes, struct rdc_counter_set *set,
		    struct rdc_counter_unread *u)
{
	struct rdc_issues *is = u ? &u->issues : NULL;
	const char *key = name;
	char buf[64], path[512];
	uint64_t v;
	int rc;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s/%s", dev, port, dir,
		 name);
	if (bytes && !strcmp(name, "port_xmit_data"))
		key = "port_xmit_bytes";
	else if (bytes && !strcmp(name, "port_rcv_data"))
		key = "port_rcv_bytes";
	rc = rdc_sysval_str(is, buf, sizeof(buf), "%s", path);
	if (rc == 0)
		return 0;
	/* "N/A (no PMA)": the device has no performance management agent, no counter. */
	if (rc > 0 && !strncmp(buf, "N/A", 3))
		return 0;
	if (rc > 0 && rdc_parse_u64(buf, 10, &v)) {
		rdc_sysval_bad(is, path, buf, "a decimal counter");
		rc = -EINVAL;
	}
	if (rc > 0 && key != name) {
		/* Words of 4 bytes: a count above 2^62 words has no 64-bit byte count. */
		if (v > UINT64_MAX / 4) {
			rdc_issues_addf(is, ERANGE,
					"'%s' holds %" PRIu64 " words: bytes (x4) overflow 64 bits",
					path, v);
			rc = -ERANGE;
		} else {
			v *= 4;
		}
	}
	if (rc < 0)
		return unread_add(u, group, key);
	return rdc_counters_add(set, group, key, v);
}

/* Read a counter directory: the names in @first (in that order), then the rest. */
static int read_dir(const char *dev, unsigned int port, const char *dir, const char *group,
		    const char *const *first, size_t nfirst, bool bytes,
		    struct rdc_counter_set *set, struct rdc_counter_unread *u, struct rdc_err *err)
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
				rc = read_one(dev, port, dir, group, names.names[i], bytes, set, u);
	for (size_t i = 0; i < names.count && !rc; i++) {
		bool preferred = !strcmp(names.names[i], "lifespan"); /* a setting, not a counter */

		for (size_t f = 0; f < nfirst; f++)
			preferred |= !strcmp(first[f], names.names[i]);
		if (!preferred)
			rc = read_one(dev, port, dir, group, names.names[i], bytes, set, u);
	}
	rdc_names_free(&names);
	return rc ? rdc_err_set(err, -rc, "cannot read %s of '%s/%u'", dir, dev, port) : 0;
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

static int counters_read(const char *dev, unsigned int port, bool bytes,
			 struct rdc_counter_set *set, struct rdc_counter_unread *unread,
			 struct rdc_err *err)
{
	int rc = read_dir(dev, port, "counters", "ib", NULL, 0, bytes, set, unread, err);

	if (!rc)
		rc = read_dir(dev, port, "hw_counters", "hw", hw_roce_first,
			      RDC_ARRAY_SIZE(hw_roce_first), bytes, set, unread, err);
	return rc;
}

int rdc_port_counters_read(const char *dev, unsigned int port, struct rdc_counter_set *set,
			   struct rdc_counter_unread *unread, struct rdc_err *err)
{
	return counters_read(dev, port, true, set, unread, err);
}

int rdc_port_counters_read_kernel(const char *dev, unsigned int port, struct rdc_counter_set *set,
				  struct rdc_counter_unread *unread, struct rdc_err *err)
{
	return counters_read(dev, port, false, set, unread, err);
}

unsigned int rdc_port_counter_unit_bytes(const char *group, const char *name)
{
	if (strcmp(group, "ib"))
		return 0;
	return !strcmp(name, "port_xmit_data") || !strcmp(name, "port_rcv_data") ? 4 : 0;
}
