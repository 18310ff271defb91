// SPDX-License-Identifier: GPL-2.0-or-later
/* test_args.c - the keyword walk: a table of argument lists and the exit code each gets */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/config.h"
#include "base/util.h"
#include "dcb/profile.h"
#include "host/system.h"
#include "base/counters.h"
#include "base/names.h"
#include "cmd.h"
#include "pfc.h"
#include "port.h"

static const struct rdc_action *action(const char *name)
{
	for (const struct rdc_action *a = port_actions; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	fail_msg("no action %s", name);
	return NULL;
}

static void test_keyword_table(void **state)
{
	static const struct {
		int rc;
		const char *action;
		const char *args;
	} cases[] = {
		{0, "show", ""},
		{0, "show", "mlx5_0"},
		{2, "show", "mlx5_0 mlx5_1"},
		{2, "show", "--bogus"},
		{0, "stats", "mlx5_0/1 interval 1 count 3"},
		{0, "stats", "interval 1 mlx5_0"},
		{2, "stats", "interval"},
		{2, "stats", "interval 1 interval 2"},
		{2, "stats", "intervall 1"},
		{0, "set", "eth0 mtu 9000 up"},
		{0, "set", "mtu 9000 eth0 --dry-run"},
		{2, "set", "mtu 9000"},
		{2, "set", "eth0 mtu"},
		{2, "set", "eth0 up up"},
		{2, "set", "eth0 up down"},
		{2, "set", "eth0 down mtu 1500 up"},
		{2, "set", "eth0 eth1 up"},
		{2, "set", "eth0 Up"},
		{0, "gids", "ens1f0np0"},
	};
	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "port"};
		char copy[128], *argv[16], *tok, *save = NULL;
		struct rdc_args args;
		int argc = 0;

		snprintf(copy, sizeof(copy), "%s", cases[i].args);
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			argv[argc++] = tok;
		if (rdc_args_parse(&ctx, action(cases[i].action), argc, argv, &args) != cases[i].rc)
			fail_msg("'%s %s' did not give %d", cases[i].action, cases[i].args,
				 cases[i].rc);
	}
}

static void test_values_land_by_index(void **state)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "port"};
	const struct rdc_action *set = action("set");
	char w0[] = "up", w1[] = "eth0", w2[] = "mtu", w3[] = "4200", w4[] = "--dry-run";
	char *argv[] = {w0, w1, w2, w3, w4};
	struct rdc_args args;

	(void)state;
	assert_int_equal(rdc_args_parse(&ctx, set, 5, argv, &args), 0);
	assert_string_equal(args.object, "eth0");
	assert_true(rdc_arg_given(set, &args, "up"));
	assert_false(rdc_arg_given(set, &args, "down"));
	assert_string_equal(rdc_arg_value(set, &args, "mtu"), "4200");
	assert_int_equal(rdc_param_find(set, "nosuch"), -1);
	assert_true(ctx.dry_run);
}

/* Split @line at blanks into @argv (pointing into @buf); returns argc. */
static int split(char *buf, size_t size, const char *line, char **argv, int max)
{
	char *tok, *save = NULL;
	int argc = 0;

	snprintf(buf, size, "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < max; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return argc;
}

/* Walk and convert @line with @act's table into @opts (initialised as the dispatcher does). */
static int convert(const struct rdc_action *act, const char *line, void *opts)
{
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "test"};
	char buf[512], *argv[64];
	struct rdc_args args;
	int argc = split(buf, sizeof(buf), line, argv, 64), rc;

	memset(opts, 0, act->opts_size);
	if (act->opts_init)
		act->opts_init(opts);
	rc = rdc_args_parse(&ctx, act, argc, argv, &args);
	return rc ? rc : rdc_args_convert(&ctx, act, &args, opts);
}

static void test_typed_values(void **state)
{
	const struct rdc_action *set = action("set"), *stats = action("stats");
	struct port_stats_opts so;
	struct port_set_opts po;

	(void)state;
	assert_int_equal(convert(set, "eth0 mtu 9000", &po), 0);
	assert_int_equal(po.mtu, 9000);
	assert_true(po.mtu_given);
	assert_int_equal(po.admin_up, -1);
	assert_int_equal(convert(set, "eth0 down", &po), 0);
	assert_false(po.mtu_given);
	assert_int_equal(po.admin_up, 0);
	assert_int_equal(convert(set, "eth0 up", &po), 0);
	assert_int_equal(po.admin_up, 1);
	assert_int_equal(convert(set, "eth0 mtu 65536", &po), RDC_EXIT_USAGE);
	assert_int_equal(convert(set, "eth0 mtu 67", &po), RDC_EXIT_USAGE);
	assert_int_equal(convert(set, "eth0 mtu nine", &po), RDC_EXIT_USAGE);
	assert_int_equal(convert(set, "eth0 mtu 010", &po), RDC_EXIT_USAGE); /* decimal only */
	assert_int_equal(convert(stats, "interval 0.25 count 3", &so), 0);
	assert_true(so.interval_s == 0.25);
	assert_int_equal(so.count, 3);
	assert_int_equal(convert(stats, "interval 0", &so), RDC_EXIT_USAGE);
	assert_int_equal(convert(stats, "interval 86401", &so), RDC_EXIT_USAGE);
	assert_int_equal(convert(stats, "count 0", &so), RDC_EXIT_USAGE);
}

/* Every table of every verb: what the walk and the converters rely on. */
static void test_every_table(void **state)
{
	(void)state;
	for (size_t v = 0; rdc_cmds[v]; v++) {
		const struct rdc_cmd *cmd = rdc_cmds[v];

		for (size_t w = v + 1; rdc_cmds[w]; w++)
			if (!strcmp(cmd->name, rdc_cmds[w]->name))
				fail_msg("verb '%s' twice", cmd->name);
		assert_non_null(cmd->actions[0].name); /* the default action */
		for (const struct rdc_action *a = cmd->actions; a->name; a++) {
			int n = 0, repeats = 0;
			bool converts = false;

			assert_non_null(a->run);
			assert_non_null(a->synopsis);
			assert_non_null(a->help);
			for (const struct rdc_action *b = a + 1; b->name; b++)
				if (!strcmp(a->name, b->name))
					fail_msg("%s: action '%s' twice", cmd->name, a->name);
			for (const struct rdc_param *p = a->params; p && p->name; p++, n++) {
				repeats += p->repeat;
				converts |= p->parse != NULL;
				if (p->multi && !p->metavar)
					fail_msg("%s %s %s: multi without metavar", cmd->name,
						 a->name, p->name);
				if (p->excludes && rdc_param_find(a, p->excludes) < 0)
					fail_msg("%s %s %s: excludes '%s', not a keyword",
						 cmd->name, a->name, p->name, p->excludes);
				if (p->parse &&
				    (p->parse == rdc_val_uint || p->parse == rdc_val_enum ||
				     p->parse == rdc_val_map) &&
				    !p->spec)
					fail_msg("%s %s %s: converter without its spec", cmd->name,
						 a->name, p->name);
				if (p->parse && p->dest >= a->opts_size && p->dest)
					fail_msg("%s %s %s: destination outside the options",
						 cmd->name, a->name, p->name);
				if (rdc_param_find(a, p->name) != n)
					fail_msg("%s %s: keyword '%s' twice", cmd->name, a->name,
						 p->name);
			}
			if (n >= RDC_MAX_PARAMS)
				fail_msg("%s %s: %d keywords, RDC_MAX_PARAMS is %d", cmd->name,
					 a->name, n, RDC_MAX_PARAMS);
			if (repeats > 1)
				fail_msg("%s %s: more than one repeatable keyword", cmd->name,
					 a->name);
			if (converts && !a->opts_size)
				fail_msg("%s %s: converters but no options struct", cmd->name,
					 a->name);
			assert_ptr_equal(rdc_action_find(cmd, a->name), a);
		}
	}
}

/* pfc set's keywords, through its table, into the desired state. */
static void test_pfc_set_table(void **state)
{
	const struct rdc_action *set = rdc_action_find(&rdc_cmd_pfc, "set");
	struct pfc_set_opts so;

	(void)state;
	assert_int_equal(convert(set,
				 "dev eth9 prio-pfc all:off 3:on delay 32 trust dscp dscp-prio "
				 "26:3 48:6 tc-maxrate 1:25gbit buffer-size 0:64K roce-tos 106 "
				 "roce-mode v2 ecn 3:on",
				 &so),
			 0);
	assert_string_equal(so.dev, "eth9");
	for (int p = 0; p < 8; p++) {
		assert_true(so.want.pfc_given[p]);
		assert_int_equal(so.want.pfc_on[p], p == 3);
		assert_int_equal(so.want.ecn_given[p], p == 3);
	}
	assert_true(so.want.delay_given);
	assert_int_equal(so.want.delay, 32);
	assert_int_equal(so.want.trust, 1);
	assert_int_equal(so.want.dscp_prio[26], 3);
	assert_int_equal(so.want.dscp_prio[48], 6);
	assert_int_equal(so.want.dscp_prio[0], -1);
	assert_true(so.want.maxrate_given[1]);
	assert_false(so.want.maxrate_given[0]);
	assert_int_equal(so.want.maxrate_kbps[1], 25000000);
	assert_int_equal(so.want.buffer_size[0], 65536);
	assert_int_equal(so.want.roce_tos, 106);
	assert_int_equal(so.want.roce_mode, 2);
	assert_int_equal(so.want.cnp_dscp, -1);
	static const char *const bad[] = {
		"dev eth9 prio-pfc 8:on",   "dev eth9 prio-pfc 3:maybe",
		"dev eth9 dscp-prio all:3", "dev eth9 dscp-prio 64:3",
		"dev eth9 tc-tsa 0:fast",   "dev eth9 tc-bw 0:101",
		"dev eth9 delay 70000",	    "dev eth9 trust maybe",
		"dev eth9 roce-tos 256",    "dev eth9 roce-mode v3",
		"dev eth9 tc-maxrate 0:10", "dev eth9 buffer-size 0:12Q",
	};
	for (size_t i = 0; i < RDC_ARRAY_SIZE(bad); i++)
		if (convert(set, bad[i], &so) != RDC_EXIT_USAGE)
			fail_msg("'%s' converted", bad[i]);
}

/* The profile is data: the same desired state as the pfc set keywords that spell it out. */
static void test_profile_is_set_keywords(void **state)
{
	const struct rdc_action *set = rdc_action_find(&rdc_cmd_pfc, "set");
	struct rdc_dcb_target t = {.netdev = "eth9"};
	struct rdc_dcb_profile prof;
	struct rdc_dcb_want want;
	struct pfc_set_opts so;
	char root[] = "/tmp/rdc-test-XXXXXX";

	(void)state;
	/* An empty root: no ECN files, no rdma_cm configfs, whatever this host has. */
	assert_non_null(mkdtemp(root));
	assert_int_equal(rdc_system_set_root(root, NULL), 0);
	assert_int_equal(rdc_dcb_profile_init(&prof, "roce-lossless"), 0);
	assert_int_equal(rdc_dcb_profile_init(&prof, "roce-lossy"), -ENOENT);
	assert_int_equal(rdc_dcb_profile_init(&prof, "roce-lossless"), 0);
	rdc_dcb_profile_want(&prof, &t, &want);
	assert_int_equal(convert(set,
				 "dev eth9 trust dscp dscp-prio 26:3 48:6 prio-pfc all:off 3:on "
				 "prio-tc all:0 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 "
				 "0:50 3:50",
				 &so),
			 0);
	so.want.cnp_dscp = 48; /* written only where the driver has the files */
	so.want.cnp_prio = 6;
	assert_memory_equal(&want, &so.want, sizeof(want));
	/* Priority 0: TC 0 alone gets the ETS share. */
	prof.prio = 0;
	prof.cnp_prio = 6;
	rdc_dcb_profile_want(&prof, &t, &want);
	assert_int_equal(want.bw[0], 100);
	assert_int_equal(want.tsa[0], IEEE_8021QAZ_TSA_ETS);
	prof.cnp_prio = 0;
	assert_int_equal(rdc_dcb_profile_check(&prof, NULL), -EINVAL);
	assert_int_equal(rdc_system_set_root(NULL, NULL), 0);
	rmdir(root);
}

/* Where the driver has ECN files and the netdev RDMA ports with rdma_cm: those too. */
static void test_profile_ecn_and_rdma_cm(void **state)
{
	const struct rdc_action *set = rdc_action_find(&rdc_cmd_pfc, "set");
	struct rdc_dcb_target t = {.netdev = "eth9", .nports = 1, .ports = {{"mlx5_0", 1}}};
	struct rdc_dcb_profile prof;
	struct rdc_dcb_want want;
	struct pfc_set_opts so;
	char root[] = "/tmp/rdc-test-XXXXXX", cmd[256];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/sys/class/net/eth9/ecn %s/sys/kernel/config/rdma_cm", root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rdc_system_set_root(root, NULL), 0);
	assert_int_equal(rdc_dcb_profile_init(&prof, "roce-lossless"), 0);
	rdc_dcb_profile_want(&prof, &t, &want);
	assert_int_equal(convert(set,
				 "dev eth9 trust dscp dscp-prio 26:3 48:6 prio-pfc all:off 3:on "
				 "prio-tc all:0 3:3 6:6 tc-tsa all:strict 0:ets 3:ets tc-bw all:0 "
				 "0:50 3:50 ecn 3:on roce-tos 106 roce-mode v2",
				 &so),
			 0);
	so.want.cnp_dscp = 48;
	so.want.cnp_prio = 6;
	assert_memory_equal(&want, &so.want, sizeof(want));
	assert_int_equal(rdc_system_set_root(NULL, NULL), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* A YAML device goes through the same table as the command line. */
static void test_cfg_device_through_table(void **state)
{
	const struct rdc_action *set = rdc_action_find(&rdc_cmd_pfc, "set");
	struct rdc_ctx ctx = {.prog = "rdmactl", .verb = "pfc"};
	struct rdc_cfg_device d = {.line = 2};
	char k0[] = "dev", v0[] = "eth9", k1[] = "prio-pfc", v1a[] = "all:off", v1b[] = "3:on";
	char k2[] = "prio-fc", k3[] = "dev";
	struct pfc_set_opts so;
	struct rdc_args args;

	(void)state;
	d.nkeys = 2;
	d.keys[0].key = k0;
	d.keys[0].line = 2;
	d.keys[0].nwords = 1;
	d.keys[0].words[0] = v0;
	d.keys[1].key = k1;
	d.keys[1].line = 3;
	d.keys[1].nwords = 2;
	d.keys[1].words[0] = v1a;
	d.keys[1].words[1] = v1b;
	pfc_set_defaults(&so);
	assert_int_equal(rdc_args_from_cfg(&ctx, set, "p.yaml", &d, NULL, NULL, &args), 0);
	assert_int_equal(rdc_args_convert(&ctx, set, &args, &so), 0);
	assert_string_equal(so.dev, "eth9");
	assert_true(so.want.pfc_on[3]);
	assert_false(so.want.pfc_on[2]);
	assert_true(so.want.pfc_given[0]);
	/* a keyword that is not one, and one given twice */
	d.keys[1].key = k2;
	assert_int_equal(rdc_args_from_cfg(&ctx, set, "p.yaml", &d, NULL, NULL, &args),
			 RDC_EXIT_USAGE);
	d.keys[1].key = k3;
	d.keys[1].nwords = 1;
	assert_int_equal(rdc_args_from_cfg(&ctx, set, "p.yaml", &d, NULL, NULL, &args),
			 RDC_EXIT_USAGE);
	/* a key the caller does not allow here */
	static const char *const only_dev[] = {"prio-pfc", NULL};
	d.nkeys = 1;
	assert_int_equal(rdc_args_from_cfg(&ctx, set, "p.yaml", &d, only_dev, NULL, &args),
			 RDC_EXIT_USAGE);
}

static void test_closest(void **state)
{
	const char *names[] = {"show", "gids", "stats", "set"};

	(void)state;
	assert_string_equal(rdc_closest("shwo", names, 4), "show");
	assert_string_equal(rdc_closest("stat", names, 4), "stats");
	assert_string_equal(rdc_closest("gid", names, 4), "gids");
	assert_null(rdc_closest("frobnicate", names, 4));
	/* As many edits as the candidate has letters is another word, not a typo. */
	static const char *const nets[] = {"lo", "mlx5_0", "ens1f0np0"};
	assert_null(rdc_closest("foo", nets, 3));
	assert_string_equal(rdc_closest("mlx5_O", nets, 3), "mlx5_0");
	assert_string_equal(rdc_closest("ens1f0np", nets, 3), "ens1f0np0");
}

/* port stats errors: which counters count faults, by name. */
static void test_counter_is_fault(void **state)
{
	static const char *const faults[] = {
		"rx_discards_phy",
		"out_of_sequence",
		"local_ack_timeout_err",
		"VL15_dropped",
		"FrameCheckSequenceErrors",
		"link_downed",
		"rx_crc_errors_phy",
		"etherStatsJabbers",
		"tx_pause_storm_error_events",
		"req_transport_retries_exceeded",
		"roce_adp_retrans",
	};
	static const char *const traffic[] = {
		"port_rcv_bytes",
		"rx_prio3_pause",
		"np_cnp_sent",
		"rp_cnp_handled",
		"FramesReceivedOK",
		"tx_packets",
		"rx_vport_rdma_unicast_bytes",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		assert_true(rdc_counter_is_fault("hw", faults[i]));
	for (size_t i = 0; i < sizeof(traffic) / sizeof(traffic[0]); i++)
		assert_false(rdc_counter_is_fault("hw", traffic[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyword_table),
		cmocka_unit_test(test_values_land_by_index),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_every_table),
		cmocka_unit_test(test_pfc_set_table),
		cmocka_unit_test(test_profile_is_set_keywords),
		cmocka_unit_test(test_profile_ecn_and_rdma_cm),
		cmocka_unit_test(test_cfg_device_through_table),
		cmocka_unit_test(test_closest),
		cmocka_unit_test(test_counter_is_fault),
	};

	return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
