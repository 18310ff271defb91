// SPDX-License-Identifier: GPL-2.0-or-later
/* test_nl.c - the kernel transport in replay mode: matching, replies, errors */
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
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "seam/nl.h"

static char rec_path[64];

static void hexline(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	assert_non_null(hex);
	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

/* A GETLINK request for ifindex @ifindex, as rdc_nl_talk() would send it. */
static struct nlmsghdr *getlink(char *buf, int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_index = ifindex;
	return nlh;
}

static size_t newlink_reply(char *buf, int ifindex, uint32_t mtu)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_seq = 777; /* rewritten on replay */
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_index = ifindex;
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return nlh->nlmsg_len;
}

static size_t ack(char *buf, int error, const char *extack)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | (extack ? NLM_F_ACK_TLVS : 0);
	nlh->nlmsg_seq = 777;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	if (extack)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, extack);
	return nlh->nlmsg_len;
}

struct seen {
	int calls;
	uint32_t mtu;
	uint32_t seq;
};

static int mtu_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct seen *s = arg;
	const struct nlattr *a;

	s->calls++;
	s->seq = nlh->nlmsg_seq;
	mnl_attr_for_each (a, nlh, sizeof(struct ifinfomsg))
		if (mnl_attr_get_type(a) == IFLA_MTU)
			s->mtu = mnl_attr_get_u32(a);
	return 0;
}

static int setup_rec(void **state)
{
	char req[256], rep[256];
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	FILE *fp;
	int fd;
	size_t n;

	(void)state;
	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-nl-XXXXXX");
	fd = mkstemp(rec_path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "# rdmactl kernel recording v1\n");
	/* ifindex 2: two recorded answers, MTU 1500 then 9000. */
	for (uint32_t mtu = 1500; mtu <= 9000; mtu += 7500) {
		nlh = getlink(req, 2);
		nlh->nlmsg_seq = 1234; /* any seq and pid in the recording */
		nlh->nlmsg_pid = 99;
		hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
		hexline(fp, "< ", rep, newlink_reply(rep, 2, mtu));
		hexline(fp, "< ", rep, ack(rep, 0, NULL));
	}
	/* ifindex 3: refused with an extack message. */
	nlh = getlink(req, 3);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	hexline(fp, "< ", rep, ack(rep, -EPERM, "no permission here"));
	/* ifindex 4: the recording stops before the ACK. */
	nlh = getlink(req, 4);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	hexline(fp, "< ", rep, newlink_reply(rep, 4, 1500));
	/* ifindex 5: the send itself failed. */
	nlh = getlink(req, 5);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	fprintf(fp, "! %d\n", ENOBUFS);
	/* genl family "ethtool" -> 20 */
	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
	hexline(fp, "> nl 16 ", nlh, nlh->nlmsg_len);
	memset(rep, 0, sizeof(rep));
	nlh = mnl_nlmsg_put_header(rep);
	nlh->nlmsg_type = GENL_ID_CTRL;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 20);
	n = nlh->nlmsg_len;
	n += ack(rep + n, 0, NULL); /* data and ACK in one datagram */
	hexline(fp, "< ", rep, n);
	fprintf(fp,
		"> ioctl ethtool eth1 02000000\n< 02000000\n> ioctl ethtool eth2 03000000\n! 95\n");
	fclose(fp);
	return rdc_nl_open(RDC_NL_REPLAY, rec_path, NULL);
}

static int teardown_rec(void **state)
{
	(void)state;
	rdc_nl_close();
	unlink(rec_path);
	return 0;
}

static void test_replay_in_order_then_last(void **state)
{
	char req[256];
	struct seen s = {0};
	struct rdc_err err = {0};

	(void)state;
	for (uint32_t want = 1500, i = 0; i < 3; i++, want = 9000) {
		s.calls = 0;
		assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, mtu_cb, &s, &err),
				 0);
		assert_int_equal(s.calls, 1);
		assert_int_equal(s.mtu, want);
		/* The recorded seq 777 became the request's own. */
		assert_int_equal(s.seq, ((struct nlmsghdr *)req)->nlmsg_seq);
	}
}

static void test_replay_kernel_error_with_extack(void **state)
{
	char req[256];
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 3), 0, NULL, NULL, &err), -EPERM);
	assert_string_equal(err.detail, "kernel: no permission here");
}

static void test_replay_missing_and_truncated(void **state)
{
	char req[256];
	struct rdc_err err = {0};
	struct seen s = {0};

	(void)state;
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 42), 0, NULL, NULL, &err),
			 -ENODATA);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 4), 0, mtu_cb, &s, &err), -EPROTO);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 5), 0, NULL, NULL, &err),
			 -ENOBUFS);
	/* Same bytes on another protocol is another request. */
	assert_int_equal(rdc_nl_talk(NETLINK_GENERIC, getlink(req, 2), 0, NULL, NULL, &err),
			 -ENODATA);
}

static void test_replay_refuses_writes(void **state)
{
	char req[256];
	struct rdc_err err = {0};
	unsigned char buf[4] = {1};

	(void)state;
	assert_int_equal(
		rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), RDC_NL_WRITE, NULL, NULL, &err),
		-EROFS);
	assert_int_equal(rdc_nl_ethtool_ioctl("eth0", buf, sizeof(buf), RDC_NL_WRITE, &err),
			 -EROFS);
}

static void test_replay_genl_family(void **state)
{
	struct rdc_err err = {0};
	uint16_t id = 0;

	(void)state;
	assert_int_equal(rdc_nl_genl_family("ethtool", &id, &err), 0);
	assert_int_equal(id, 20);
	id = 0;
	/* Cached: a second lookup sends nothing (and would find nothing new). */
	assert_int_equal(rdc_nl_genl_family("ethtool", &id, &err), 0);
	assert_int_equal(id, 20);
	assert_int_equal(rdc_nl_genl_family("nosuch", &id, &err), -ENODATA);
}

static void test_replay_ioctl(void **state)
{
	unsigned char buf[4] = {1, 0, 0, 0};
	struct rdc_err err = {0};

	(void)state;
	/* An answer of another length is refused when the file loads (test_nl_load.c). */
	buf[0] = 2;
	assert_int_equal(rdc_nl_ethtool_ioctl("eth1", buf, sizeof(buf), 0, &err), 0);
	buf[0] = 3;
	assert_int_equal(rdc_nl_ethtool_ioctl("eth2", buf, sizeof(buf), 0, &err), -EOPNOTSUPP);
	assert_int_equal(rdc_nl_ethtool_ioctl("eth9", buf, sizeof(buf), 0, &err), -ENODATA);
	assert_int_equal(
		rdc_nl_ethtool_ioctl("a very long interface name", buf, sizeof(buf), 0, &err),
		-EINVAL);
}

static void test_off_mode(void **state)
{
	char req[256];
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err),
			 -ENODATA);
	assert_int_equal(
		rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), RDC_NL_WRITE, NULL, NULL, &err),
		-EROFS);
	rdc_nl_close();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replay_in_order_then_last, setup_rec,
						teardown_rec),
		cmocka_unit_test_setup_teardown(test_replay_kernel_error_with_extack, setup_rec,
						teardown_rec),
		cmocka_unit_test_setup_teardown(test_replay_missing_and_truncated, setup_rec,
						teardown_rec),
		cmocka_unit_test_setup_teardown(test_replay_refuses_writes, setup_rec,
						teardown_rec),
		cmocka_unit_test_setup_teardown(test_replay_genl_family, setup_rec, teardown_rec),
		cmocka_unit_test_setup_teardown(test_replay_ioctl, setup_rec, teardown_rec),
		cmocka_unit_test(test_off_mode),
	};

	return cmocka_run_group_tests_name("nl", tests, NULL, NULL);
}
