// SPDX-License-Identifier: GPL-2.0-or-later
/* test_diag_transport.c - diag's transport checks on hosts built by hand */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "diag_fixture.h"

static struct rdc_diag_host host;
static struct rdc_diag_result res; /* 330 KB: kept off the stack */

static const char *const loss_names[] = {"out_of_sequence", "packet_seq_err", "implied_nak_seq_err",
					 "local_ack_timeout_err", "req_transport_retries_exceeded"};

/*
 * Two healthy 25G RoCE ports of one NIC: an address each with its RoCE v1
 * and v2 GIDs (and the link-local default GIDs), every transport counter
 * present and still, rdma_cm on RoCE v2 with the policy's ToS.
 */
static void healthy(struct rdc_diag_host *h)
{
	static const char *const dev[] = {"mlx5_0", "mlx5_1"};
	static const char *const nd[] = {"ens1f0np0", "ens1f1np1"};
	static const char *const pci[] = {"0000:3b:00.0", "0000:3b:00.1"};
	static const char *const ip[] = {"10.10.1.5", "10.10.2.5"};
	static const char *const ll[] = {"fe80::e42:a1ff:fe65:8a10", "fe80::e42:a1ff:fe65:8a11"};

	fx_host(h, 2);
	for (size_t i = 0; i < 2; i++) {
		struct rdc_diag_port *p = fx_port(h, i, dev[i], nd[i], pci[i]);

		fx_gid(p, ll[i], RDC_GID_ROCE_V1);
		fx_gid(p, ll[i], RDC_GID_ROCE_V2);
		fx_addr(p, ll[i], 64);
		fx_addr_gids(p, ip[i], 24);
		fx_counter(p, RDC_DIAG_HW, "hw", "out_of_buffer", 7, 7);
		fx_counter(p, RDC_DIAG_NETDEV, "driver", "rx_out_of_buffer", 0, 0);
		for (size_t k = 0; k < sizeof(loss_names) / sizeof(loss_names[0]); k++)
			fx_counter(p, RDC_DIAG_HW, "hw", loss_names[k], 3, 3);
		p->cm.have_mode = p->cm.have_tos = true;
		snprintf(p->cm.mode, sizeof(p->cm.mode), "RoCE v2");
		p->cm.tos = 106;
	}
}

/* Set counter @name of one sample (it must be there). */
static void set_counter(struct rdc_counter_set *s, const char *name, uint64_t v)
{
	bool found = false;

	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->items[i].name, name)) {
			s->items[i].value = v;
			found = true;
		}
	assert_true(found);
}

static int teardown(void **state)
{
	(void)state;
	rdc_diag_host_free(&host);
	return 0;
}

static void test_healthy(void **state)
{
	(void)state;
	healthy(&host);
	fx_run(&host, "transport", &res);
	fx_none(&res);
	fx_no_skips(&res);
	assert_int_equal(res.nran, 4);
	/* Old counts since boot are not judged with two samples: only what moved. */
	fx_run(&host, "transport.loss", &res);
	fx_none(&res);
}

/* ---- transport.host-too-slow ---- */

static void test_host_too_slow(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	healthy(&host);
	set_counter(&host.ports[1].s[1].hw, "out_of_buffer", 507); /* 7 -> 507 in the window */
	fx_run(&host, "transport.host-too-slow", &res);
	f = fx_expect(&res, "transport.host-too-slow", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_1");
	assert_string_equal(f->netdev, "ens1f1np1");
	fx_contains(f->title, "in 10 s");
	fx_contains(f->title, "out_of_buffer +500");
	e = fx_evidence(f, "out_of_buffer");
	assert_string_equal(e->source,
			    "/sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_buffer");
	/* The counter over the window: its total now, the rise, the window. */
	fx_ev_window(e, 500, 10.0, 507);
	assert_string_equal(e->value, "+500 in 10.0 s (now 507)");
	fx_contains(f->fix, "ethtool -G ens1f1np1 rx 8192");
	fx_contains(f->why, "RNR");
}

static void test_host_too_slow_ethernet(void **state)
{
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	healthy(&host);
	/* The Ethernet ring: ethtool -S rx_out_of_buffer */
	set_counter(&host.ports[0].s[1].netdev, "rx_out_of_buffer", 40);
	fx_run(&host, "transport.host-too-slow", &res);
	f = fx_expect(&res, "transport.host-too-slow", RDC_SEV_FAIL);
	e = fx_evidence(f, "rx_out_of_buffer");
	assert_string_equal(e->source, "ethtool -S ens1f0np0 (ETHTOOL_GSTATS)");
	fx_ev_window(e, 40, 10.0, 40);
}

static void test_host_too_slow_since_boot(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	healthy(&host);
	fx_one_sample(&host);
	/* One sample: out_of_buffer 7 since boot warns on both ports. */
	fx_run(&host, "transport.host-too-slow", &res);
	assert_int_equal(res.findings.count, 2);
	f = &res.findings.items[0];
	assert_string_equal(rdc_severity_name(f->severity), "warn");
	fx_contains(f->title, "since boot/counter reset");
	fx_ev_counter(fx_evidence(f, "out_of_buffer"), 7);
	assert_string_equal(fx_evidence(f, "out_of_buffer")->value,
			    "7 (since the counter's reset)");
}

static void test_host_too_slow_skip(void **state)
{
	(void)state;
	fx_host(&host, 1);
	fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	host.ports[0].s[0].hw_rc = host.ports[0].s[1].hw_rc = -EACCES;
	fx_run(&host, "transport.host-too-slow", &res);
	fx_none(&res);
	fx_skipped(&res, "transport.host-too-slow", "mlx5_0/1 ens1f0np0",
		   "no out_of_buffer or rx_out_of_buffer counter; hw_counters: Permission denied");
}

/* ---- transport.loss ---- */

static void test_loss(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	healthy(&host);
	/* A NIC whose DCB was read: the fix is the lossless profile. */
	host.ports[0].dcb.supported = true;
	set_counter(&host.ports[0].s[1].hw, "out_of_sequence", 15);
	set_counter(&host.ports[0].s[1].hw, "local_ack_timeout_err", 6);
	fx_run(&host, "transport.loss", &res);
	f = fx_expect(&res, "transport.loss", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_0");
	fx_contains(f->title,
		    "lost packets in 10 s: out_of_sequence +12, local_ack_timeout_err +3");
	/* A window: it clears when the loss stops. */
	assert_false(f->since_reset);
	assert_int_equal(f->nevidence, 2);
	assert_string_equal(
		fx_evidence(f, "local_ack_timeout_err")->source,
		"/sys/class/infiniband/mlx5_0/ports/1/hw_counters/local_ack_timeout_err");
	fx_ev_window(fx_evidence(f, "out_of_sequence"), 12, 10.0, 15);
	fx_ev_window(fx_evidence(f, "local_ack_timeout_err"), 3, 10.0, 6);
	fx_contains(f->fix, "rdmactl pfc apply dev ens1f0np0 profile roce-lossless");
	fx_contains(f->why, "go-back-N");
}

static void test_loss_rxe(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	fx_host(&host, 1);
	p = fx_port(&host, 0, "rxe0", "eth1", "0000:00:04.0");
	snprintf(p->port.driver, sizeof(p->port.driver), "rdma_rxe");
	/* rxe's names for the same events */
	fx_counter(p, RDC_DIAG_HW, "hw", "out_of_seq_request", 0, 4);
	fx_counter(p, RDC_DIAG_HW, "hw", "retry_exceeded_err", 0, 1);
	fx_counter(p, RDC_DIAG_HW, "hw", "rcvd_seq_err", 2, 2);
	fx_run(&host, "transport.loss", &res);
	f = fx_expect(&res, "transport.loss", RDC_SEV_FAIL);
	fx_contains(f->title, "out_of_seq_request +4, retry_exceeded_err +1");
	/* Soft-RoCE's netdev has no DCB: no pfc command, words saying why. */
	fx_contains(f->fix, "eth1 has no DCB, so no PFC is advised here");
	assert_false(rdc_argv_ok(&f->fix_argv));
	/* A DCB state that could not be read says so. */
	p->dcb_rc = -EIO;
	fx_run(&host, "transport.loss", &res);
	f = fx_expect(&res, "transport.loss", RDC_SEV_FAIL);
	fx_contains(f->fix, "eth1 has no DCB state that could be read");
}

static void test_loss_since_boot(void **state)
{
	const struct rdc_finding *f;

	(void)state;
	healthy(&host);
	fx_one_sample(&host);
	fx_run(&host, "transport.loss", &res);
	/* 3 of each since boot on both ports: a past event warns, it does not fail. */
	assert_int_equal(res.findings.count, 2);
	f = &res.findings.items[1];
	assert_string_equal(rdc_severity_name(f->severity), "warn");
	fx_contains(f->title, "since boot/counter reset: out_of_sequence 3, packet_seq_err 3");
	assert_true(f->since_reset);
	assert_int_equal(f->nevidence, 5);
	fx_ev_counter(fx_evidence(f, "packet_seq_err"), 3);
}

static void test_loss_skip(void **state)
{
	(void)state;
	fx_host(&host, 1);
	fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	host.ports[0].s[0].hw_rc = host.ports[0].s[1].hw_rc = -ENOENT;
	fx_run(&host, "transport.loss", &res);
	fx_none(&res);
	fx_skipped(&res, "transport.loss", "mlx5_0/1 ens1f0np0",
		   "no transport error counters (hw_counters); hw_counters: No such file");
}

/* ---- transport.gid-missing ---- */

static void test_gid_missing(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	healthy(&host);
	p = &host.ports[1];
	/* An address the table has no GID for at all, and one in IPv6. */
	fx_addr(p, "10.10.9.5", 24);
	fx_addr(p, "fd00:10::5", 64);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_FAIL);
	assert_string_equal(f->device, "mlx5_1");
	assert_int_equal(f->port, 1);
	assert_string_equal(f->netdev, "ens1f1np1");
	assert_string_equal(f->title, "no RoCE v2 GID for 10.10.9.5, fd00:10::5 on ens1f1np1");
	/* An address with its prefix is one value; the netdev and the lack in the detail. */
	e = &f->evidence[0];
	assert_string_equal(e->name, "address");
	fx_ev_text(e, "10.10.9.5/24");
	assert_string_equal(e->detail, "ens1f1np1, no RoCE v2 GID");
	assert_string_equal(e->source, "rtnetlink RTM_GETADDR");
	assert_string_equal(f->evidence[1].name, "address");
	fx_ev_text(&f->evidence[1], "fd00:10::5/64");
	e = fx_evidence(f, "gids_in_use");
	assert_string_equal(e->source, "/sys/class/infiniband/mlx5_1/ports/1/gids");
	fx_ev_uint(e, 4);
	fx_contains(f->fix, "rdmactl port gids ens1f1np1");
	fx_contains(f->why, "RoCE v2 GID not found");
}

static void test_gid_v1_only(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	healthy(&host);
	p = &host.ports[0];
	fx_addr(p, "10.10.7.5", 24);
	fx_gid(p, "10.10.7.5", RDC_GID_ROCE_V1);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_WARN);
	assert_string_equal(f->title, "only RoCE v1 GIDs for 10.10.7.5 on ens1f0np0");
	e = fx_evidence(f, "gid_type");
	assert_string_equal(e->source, "/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/4");
	fx_ev_text(e, "RoCE v1");
	assert_string_equal(e->detail, "GID 4, 10.10.7.5");
	assert_string_equal(fx_evidence(f, "address")->detail, "ens1f0np0, RoCE v1 GID only");
	fx_contains(f->fix, "rdmactl pfc set dev ens1f0np0 roce-mode v2");

	/* With an address missing too it fails, and says which is v1 only. */
	fx_addr(p, "10.10.8.5", 24);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_FAIL);
	assert_string_equal(f->title,
			    "no RoCE v2 GID for 10.10.8.5 on ens1f0np0 (RoCE v1 only: 10.10.7.5)");
}

static void test_gid_other_netdev(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	healthy(&host);
	p = &host.ports[0];
	/* The GID of that IP belongs to a VLAN on top: not the netdev's own. */
	fx_addr(p, "10.20.0.5", 24);
	fx_gid_on(p, "10.20.0.5", RDC_GID_ROCE_V2, "ens1f0np0.100");
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_FAIL);
	fx_contains(f->title, "no RoCE v2 GID for 10.20.0.5 on ens1f0np0");
}

static void test_gid_link_local_only(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;

	(void)state;
	fx_host(&host, 1);
	p = fx_port(&host, 0, "mlx5_0", "ens1f0np0", "0000:3b:00.0");
	fx_addr(p, "fe80::e42:a1ff:fe65:8a10", 64);
	fx_gid(p, "fe80::e42:a1ff:fe65:8a10", RDC_GID_ROCE_V2);
	fx_run(&host, "transport.gid-missing", &res);
	f = fx_expect(&res, "transport.gid-missing", RDC_SEV_WARN);
	assert_string_equal(f->title, "no IP address on ens1f0np0: only link-local GIDs");
	fx_ev_uint(fx_evidence(f, "addresses_count"), 1);
	assert_string_equal(fx_evidence(f, "addresses_count")->detail,
			    "all link-local, on ens1f0np0");
	assert_string_equal(fx_evidence(f, "state")->source,
			    "/sys/class/infiniband/mlx5_0/ports/1/state");
	fx_ev_text(fx_evidence(f, "state"), "ACTIVE");
	assert_string_equal(fx_evidence(f, "state")->detail, "PortState 4");
	/* A port that is down, or a bond member (its addresses are the bond's), is not judged. */
	p->port.state = 1;
	snprintf(p->port.state_name, sizeof(p->port.state_name), "DOWN");
	fx_run(&host, "transport.gid-missing", &res);
	fx_none(&res);
	p->port.state = 4;
	snprintf(p->port.netdev.master, sizeof(p->port.netdev.master), "bond0");
	fx_run(&host, "transport.gid-missing", &res);
	fx_none(&res);
}

static void test_gid_skips(void **state)
{
	struct rdc_diag_port *p;

	(void)state;
	fx_host(&host, 3);
	p = fx_port(&host, 0, "mlx5_0", "ib0", "0000:3b:00.0");
	snprintf(p->port.link_layer, sizeof(p->port.link_layer), "InfiniBand");
	p = fx_port(&host, 1, "mlx5_1", "ens1f1np1", "0000:3b:00.1");
	p->gid_rc = -ENOENT;
	snprintf(p->gid_reason, sizeof(p->gid_reason), "no recording of the GID table");
	p = fx_port(&host, 2, "mlx5_2", "ens2f0np0", "0000:af:00.0");
	p->netif.have_addrs = false;
	p->netif.addrs_reason = strdup("RTM_GETADDR: no recording"); /* rdc_diag_host_free() */
	fx_run(&host, "transport.gid-missing", &res);
	fx_none(&res);
	fx_skipped(&res, "transport.gid-missing", "mlx5_0/1 ib0",
		   "not a RoCE port (link layer InfiniBand)");
	fx_skipped(&res, "transport.gid-missing", "mlx5_1/1 ens1f1np1",
		   "GID table not read: no recording of the GID table");
	fx_skipped(&res, "transport.gid-missing", "mlx5_2/1 ens2f0np0",
		   "addresses of ens2f0np0 not read: RTM_GETADDR: no recording");
	assert_int_equal(res.nskipped, 3);
}

/* ---- transport.rdma-cm ---- */

static void test_rdma_cm(void **state)
{
	struct rdc_diag_port *p;
	const struct rdc_finding *f;
	const struct rdc_evidence *e;

	(void)state;
	healthy(&host);
	p = &host.ports[0];
	snprintf(p->cm.mode, sizeof(p->cm.mode), "IB/RoCE v1");
	p->cm.tos = 0;
	fx_run(&host, "transport.rdma-cm", &res);
	f = fx_expect(&res, "transport.rdma-cm", RDC_SEV_WARN);
	assert_string_equal(f->device, "mlx5_0");
	assert_string_equal(f->title,
			    "rdma_cm default mode IB/RoCE v1 (want RoCE v2), default ToS 0 "
			    "(policy 106: DSCP 26)");
	e = fx_evidence(f, "default_roce_tos");
	assert_string_equal(e->source,
			    "/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos");
	fx_ev_int(e, 0);
	assert_string_equal(e->detail, "DSCP 0, ECN 0");
	assert_string_equal(e->value, "0 (DSCP 0, ECN 0)");
	fx_ev_text(fx_evidence(f, "default_roce_mode"), "IB/RoCE v1");
	fx_ev_uint(fx_evidence(f, "cm-tos"), 106);
	assert_string_equal(fx_evidence(f, "cm-tos")->detail, "DSCP 26, ECN 2");
	fx_contains(f->fix, "'rdmactl pfc set dev ens1f0np0 roce-mode v2 roce-tos 106'");

	/* The ToS alone; and the policy decides what is right. */
	snprintf(p->cm.mode, sizeof(p->cm.mode), "RoCE v2");
	p->cm.tos = 104;
	fx_run(&host, "transport.rdma-cm", &res);
	f = fx_expect(&res, "transport.rdma-cm", RDC_SEV_WARN);
	assert_string_equal(f->title, "rdma_cm default ToS 104 (policy 106: DSCP 26)");
	fx_contains(f->fix, "'rdmactl pfc set dev ens1f0np0 roce-tos 106'");
	host.policy.cm_tos = 104;
	host.ports[1].cm.tos = 104;
	fx_run(&host, "transport.rdma-cm", &res);
	fx_none(&res);
}

static void test_rdma_cm_skip(void **state)
{
	(void)state;
	healthy(&host);
	host.ports[1].cm.have_mode = host.ports[1].cm.have_tos = false;
	fx_run(&host, "transport.rdma-cm", &res);
	fx_none(&res);
	fx_skipped(&res, "transport.rdma-cm", "mlx5_1/1 ens1f1np1",
		   "rdma_cm configfs has no entry for mlx5_1");
	assert_int_equal(res.nskipped, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_healthy, teardown),
		cmocka_unit_test_teardown(test_host_too_slow, teardown),
		cmocka_unit_test_teardown(test_host_too_slow_ethernet, teardown),
		cmocka_unit_test_teardown(test_host_too_slow_since_boot, teardown),
		cmocka_unit_test_teardown(test_host_too_slow_skip, teardown),
		cmocka_unit_test_teardown(test_loss, teardown),
		cmocka_unit_test_teardown(test_loss_rxe, teardown),
		cmocka_unit_test_teardown(test_loss_since_boot, teardown),
		cmocka_unit_test_teardown(test_loss_skip, teardown),
		cmocka_unit_test_teardown(test_gid_missing, teardown),
		cmocka_unit_test_teardown(test_gid_v1_only, teardown),
		cmocka_unit_test_teardown(test_gid_other_netdev, teardown),
		cmocka_unit_test_teardown(test_gid_link_local_only, teardown),
		cmocka_unit_test_teardown(test_gid_skips, teardown),
		cmocka_unit_test_teardown(test_rdma_cm, teardown),
		cmocka_unit_test_teardown(test_rdma_cm_skip, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
