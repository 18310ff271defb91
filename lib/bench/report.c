// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - a run's report: what it owns */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bench/report.h"

void rdc_bench_report_free(struct rdc_bench_report *r)
{
	for (uint32_t i = 0; i < r->nlinks; i++) {
		free(r->links[i].res.interval_bytes);
		free(r->links[i].res.lat_ns);
		rdc_counters_free(&r->links[i].counters);
	}
	memset(r, 0, sizeof(*r));
}

uint64_t rdc_bench_report_origin_ns(const struct rdc_bench_report *r)
{
	return r->start_ns + r->params.warmup_ns;
}

double rdc_bench_report_clock_s(const struct rdc_bench_report *r, uint64_t t)
{
	return (double)(int64_t)(t - rdc_bench_report_origin_ns(r)) / 1e9;
}

void rdc_bench_carrier_note(struct rdc_bench_link_report *lr, bool active, uint64_t now)
{
	bool down = lr->carrier_lost && !lr->carrier_back;

	if (!active && !down) {
		lr->carrier_lost = true;
		lr->carrier_lost_ns = now;
		lr->carrier_back = false;
		lr->carrier_back_ns = 0;
		lr->carrier_losses++;
	} else if (active && down) {
		lr->carrier_back = true;
		lr->carrier_back_ns = now;
	}
}

/*
 * Names from rdma_rxe's and mlx5's hw_counters, the IB port counters and
 * ethtool's pause statistics: what each says happened on the wire.
 */
static const struct {
	const char *name, *meaning;
} counter_meanings[] = {
	/* A packet sequence gap: the responder NAKed, the requester resent. */
	{"rcvd_seq_err", "retransmissions"},
	{"completer_retry_err", "retransmissions"},
	{"out_of_sequence", "retransmissions"},
	{"out_of_seq_request", "retransmissions"},
	{"packet_seq_err", "retransmissions"},
	{"implied_nak_seq_err", "retransmissions"},
	{"duplicate_request", "retransmissions"},
	{"roce_adp_retrans", "retransmissions"},
	/* No ACK in time: the requester resent after its timeout. */
	{"local_ack_timeout_err", "timeouts"},
	{"roce_slow_restart", "timeouts"},
	{"retry_exceeded_err", "retries exhausted"},
	{"rcvd_rnr_err", "receiver not ready"},
	{"send_rnr_err", "receiver not ready"},
	{"rnr_nak_retry_err", "receiver not ready"},
	{"retry_rnr_exceeded_err", "retries exhausted"},
	{"out_of_buffer", "drops"},
	{"rx_out_of_buffer", "drops"},
	{"rx_discards_phy", "drops"},
	{"port_rcv_errors", "receive errors"},
	{"port_xmit_discards", "drops"},
	{"link_downed", "link down"},
	{"np_ecn_marked_roce_packets", "congestion (ECN marked)"},
	{"np_cnp_sent", "congestion (CNPs sent)"},
	{"rp_cnp_handled", "congestion (CNPs received)"},
	{"rp_cnp_ignored", "congestion (CNPs ignored)"},
};

const char *rdc_bench_counter_meaning(const char *group, const char *name)
{
	if (!strcmp(group, "pause"))
		return "pause frames";
	for (size_t i = 0; i < RDC_ARRAY_SIZE(counter_meanings); i++)
		if (!strcmp(name, counter_meanings[i].name))
			return counter_meanings[i].meaning;
	return NULL;
}
