/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port_counters.h - named 64-bit counters: IB port, hw_counters, ethtool */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base/counters.h"
#include "base/err.h"
#include "base/issues.h"

/*
 * Counters that exist but could not be read, could not be parsed, or do not
 * fit 64 bits in bytes (port_*_data counts 4-byte words): named so the
 * output can say null for each, with one record each in @issues.
 */
struct rdc_counter_unread {
	struct rdc_counter_set names; /* every one, by group and name; value 0, the caller's */
	struct rdc_issues issues;     /* the first records, the rest counted as lost */
};

void rdc_counter_unread_free(struct rdc_counter_unread *u);

/*
 * Both sets of a port, telling what could not be read in @unread (may be
 * NULL only where the caller has nowhere to say it):
 *
 *   group "ib"  IB PortCounters from ports/N/counters.  Entries that read
 *               "N/A (no PMA)" are left out.
 *   group "hw"  ports/N/hw_counters, the RoCE-relevant ones (loss, retries,
 *               congestion) first.
 *
 * A port without either directory (rxe, irdma) gives no counters of it.
 *
 * rdc_port_counters_read_kernel() keeps the kernel's names and values
 * (port_xmit_data and port_rcv_data count 4-byte words: see
 * rdc_port_counter_unit_bytes()); what `port stats` prints.
 * rdc_port_counters_read() reports those two as port_xmit_bytes and
 * port_rcv_bytes, in bytes (a count of words whose bytes overflow 64 bits is
 * unread, with a record); what diag's checks read.
 */
int rdc_port_counters_read(const char *dev, unsigned int port, struct rdc_counter_set *set,
			   struct rdc_counter_unread *unread, struct rdc_err *err);
int rdc_port_counters_read_kernel(const char *dev, unsigned int port, struct rdc_counter_set *set,
				  struct rdc_counter_unread *unread, struct rdc_err *err);

/*
 * How many bytes one unit of a counter of rdc_port_counters_read_kernel() is
 * when it counts data in units other than bytes or packets: 4 for the IB
 * port_xmit_data and port_rcv_data (4-byte words, "octets divided by 4" in
 * the IBTA PortCounters); 0 for every other counter.
 */
unsigned int rdc_port_counter_unit_bytes(const char *group, const char *name);
