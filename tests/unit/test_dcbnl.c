// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dcbnl.c - dcbnl replies as the kernel sends them, replayed through the transport */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "host/dcb.h"
#include "kernel/dcbnl.h"
#include "seam/nl.h"

static char rec_path[64];

static void hexline(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

static struct nlmsghdr *dcb_msg(char *buf, uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh;
	struct dcbmsg *d;

	memset(buf, 0, 1024);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "eth9");
	return nlh;
}

static size_t ack(char *buf, int error)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	return nlh->nlmsg_len;
}

/* Set by setup_cut: the APP table nest says 4 bytes fewer, cutting its last entry. */
static bool cut_table;

static int setup(void **state)
{
	char req[1024], rep[1024], big[256];
	struct ieee_pfc pfc = {.pfc_cap = 8, .pfc_en = 0x08, .delay = 32};
	struct ieee_ets ets = {.ets_cap = 8, .prio_tc = {0, 0, 0, 3}};
	/* Two real entries, then two no driver can hold (a corrupt reply): DSCP 115, prio 9. */
	struct dcb_app apps[] = {{IEEE_8021QAZ_APP_SEL_DSCP, 3, 26},
				 {IEEE_8021QAZ_APP_SEL_DSCP, 6, 48},
				 {IEEE_8021QAZ_APP_SEL_DSCP, 3, 115},
				 {IEEE_8021QAZ_APP_SEL_DSCP, 9, 10}};
	struct nlmsghdr *nlh;
	struct nlattr *ieee, *table;
	FILE *fp;
	int fd;

	(void)state;
	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-dcb-XXXXXX");
	fd = mkstemp(rec_path);
	fp = fdopen(fd, "w");
	fprintf(fp, "# rdmactl kernel recording v1\n");
	/* GET: a newer kernel's structs are longer than ours; they must still be read. */
	nlh = dcb_msg(req, RTM_GETDCB, DCB_CMD_IEEE_GET, NLM_F_REQUEST | NLM_F_ACK);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	nlh = dcb_msg(rep, RTM_GETDCB, DCB_CMD_IEEE_GET, 0);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	memset(big, 0xee, sizeof(big));
	memcpy(big, &ets, sizeof(ets));
	mnl_attr_put(nlh, DCB_ATTR_IEEE_ETS, sizeof(ets) + 5, big);
	memset(big, 0xee, sizeof(big));
	memcpy(big, &pfc, sizeof(pfc));
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc) + 8, big);
	table = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (size_t i = 0; i < 4; i++)
		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]);
	mnl_attr_nest_end(nlh, table);
	mnl_attr_nest_end(nlh, ieee);
	if (cut_table)
		table->nla_len -= 4;
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	hexline(fp, "< ", rep, nlh->nlmsg_len);
	hexline(fp, "< ", rep, ack(rep, 0));
	/* SET of PFC: the status attribute carries -EIO as an i8. */
	nlh = dcb_msg(req, RTM_SETDCB, DCB_CMD_IEEE_SET, NLM_F_REQUEST | NLM_F_ACK);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	mnl_attr_nest_end(nlh, ieee);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	nlh = dcb_msg(rep, RTM_SETDCB, DCB_CMD_IEEE_SET, 0);
	mnl_attr_put_u8(nlh, DCB_ATTR_IEEE, (uint8_t)(int8_t)-EIO);
	hexline(fp, "< ", rep, nlh->nlmsg_len);
	hexline(fp, "< ", rep, ack(rep, 0));
	fclose(fp);
	return 0;
}

static int setup_cut(void **state)
{
	cut_table = true;
	setup(state);
	cut_table = false;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rdc_nl_close();
	unlink(rec_path);
	return 0;
}

static void test_get_longer_payloads(void **state)
{
	struct rdc_dcb dcb;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, &err), 0);
	assert_int_equal(rdc_dcbnl_get("eth9", &dcb, &err), 0);
	assert_true(dcb.have_pfc && dcb.have_ets && dcb.have_dcbx);
	assert_false(dcb.have_buffer);
	assert_int_equal(dcb.pfc.pfc_en, 0x08);
	assert_int_equal(dcb.pfc.delay, 32);
	assert_int_equal(dcb.ets.prio_tc[3], 3);
	assert_int_equal(dcb.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	assert_int_equal(dcb.napps, 2);
	assert_int_equal(dcb.napps_invalid, 2);
	assert_int_equal(rdc_dcb_dscp_prio(&dcb, 48), 6);
	assert_int_equal(rdc_dcb_dscp_prio(&dcb, 10), -1);
	assert_int_equal(rdc_dcb_dscp_count(&dcb), 2);
}

/* libmnl's walk stopped quietly at the cut entry; the shared parser names it. */
static void test_get_cut_table(void **state)
{
	struct rdc_dcb dcb;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, &err), 0);
	assert_int_equal(rdc_dcbnl_get("eth9", &dcb, &err), -EBADMSG);
	assert_string_equal(err.msg,
			    "the DCB answer for 'eth9' is malformed: "
			    "DCB_ATTR_IEEE_APP_TABLE holds 4 bytes that are not attributes "
			    "(truncated or not nested)");
	assert_false(dcb.have_pfc);
	assert_int_equal(dcb.napps, 0);
}

static void test_replay_refuses_set(void **state)
{
	struct ieee_pfc pfc = {.pfc_cap = 8, .pfc_en = 0x08, .delay = 32};
	struct rdc_err err = {0};

	(void)state;
	/* A recording is read-only: a SET is refused before anything is matched. */
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, &err), 0);
	assert_int_equal(rdc_dcbnl_set_pfc("eth9", &pfc, &err), -EROFS);
}

static void test_name_checks(void **state)
{
	struct rdc_dcb dcb;
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_dcbnl_get("a-name-longer-than-ifnamsiz", &dcb, &err), -EINVAL);
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);
	assert_int_equal(rdc_dcbnl_get("eth9", &dcb, &err), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_longer_payloads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_cut_table, setup_cut, teardown),
		cmocka_unit_test_setup_teardown(test_replay_refuses_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_checks, setup, teardown),
	};

	return cmocka_run_group_tests_name("dcbnl", tests, NULL, NULL);
}
