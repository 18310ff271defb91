// SPDX-License-Identifier: GPL-2.0-or-later
/* counters.c - a growable set of named 64-bit counters, grouped by source */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/util.h"

int rdc_counters_add(struct rdc_counter_set *set, const char *group, const char *name,
		     uint64_t value)
{
	struct rdc_counter *grown;

	if (set->count == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 32;

		grown = realloc(set->items, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		set->items = grown;
		set->cap = cap;
	}
	rdc_strlcpy(set->items[set->count].group, group, sizeof(set->items[0].group));
	rdc_strlcpy(set->items[set->count].name, name, sizeof(set->items[0].name));
	set->items[set->count].value = value;
	set->count++;
	return 0;
}

void rdc_counters_free(struct rdc_counter_set *set)
{
	free(set->items);
	set->items = NULL;
	set->count = set->cap = 0;
}

const struct rdc_counter *rdc_counters_find(const struct rdc_counter_set *set, const char *group,
					    const char *name)
{
	for (size_t i = 0; i < set->count; i++)
		if (!strcmp(set->items[i].group, group) && !strcmp(set->items[i].name, name))
			return &set->items[i];
	return NULL;
}

/* Words in a counter's name that mean a fault, lower case. */
static const char *const fault_words[] = {
	"err",	     /* *_errors, *_err, FrameCheckSequenceErrors, req_cqe_error */
	"discard",   /* rx_discards_phy, port_xmit_discards */
	"drop",	     /* rx_dropped, tx_queue_dropped, VL15_dropped */
	"missed",    /* rx_missed_errors */
	"crc",	     /* rx_crc_errors_phy */
	"out_of_",   /* out_of_buffer, out_of_sequence */
	"timeout",   /* local_ack_timeout_err */
	"exceeded",  /* req_transport_retries_exceeded */
	"retrans",   /* roce_adp_retrans */
	"duplicate", /* duplicate_request: the peer retransmitted */
	"nak",	     /* implied_nak_seq_err, rnr_nak_retry_err */
	"link_down", /* link_downed, link_down_events_phy */
	"recovery",  /* link_error_recovery */
	"storm",     /* tx_pause_storm_*_events */
	"jabber",    /* etherStatsJabbers */
	"fragment",  /* etherStatsFragments, rx_fragments_phy */
	"undersize", /* rx_undersize_pkts_phy */
	"oversize",  /* rx_oversize_pkts_phy */
	"overrun",   /* excessive_buffer_overrun_errors */
	"stuck",     /* module_bus_stuck */
	"unplug",    /* module_unplug */
	"high_temp", /* module_high_temp */
	"flush",     /* *_cqe_flush_error */
};

bool rdc_counter_is_fault(const char *group, const char *name)
{
	char lower[sizeof(((struct rdc_counter *)0)->name)];
	size_t i;

	(void)group; /* the name says it in every group we read */
	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	for (i = 0; i < RDC_ARRAY_SIZE(fault_words); i++)
		if (strstr(lower, fault_words[i]))
			return true;
	return false;
}
