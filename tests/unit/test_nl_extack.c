// SPDX-License-Identifier: GPL-2.0-or-later
/* test_nl_extack.c - the transport's own attribute reads: the extended ack, genetlink family ids */
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
static char req[256];
static char rep[512] __attribute__((aligned(4)));

static void put_hex(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	assert_non_null(hex);
	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

/* A recording of one request @rq on @proto answered by the one datagram @answer. */
static void replay_one(int proto, const struct nlmsghdr *rq, const void *answer, size_t len)
{
	FILE *fp;
	int fd;

	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-extack-XXXXXX");
	fd = mkstemp(rec_path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fprintf(fp, "# rdmactl kernel recording v1\n");
	fprintf(fp, "> nl %d ", proto);
	put_hex(fp, "", rq, rq->nlmsg_len);
	put_hex(fp, "< ", answer, len);
	fclose(fp);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, NULL), 0);
}

static void replay_end(void)
{
	rdc_nl_close();
	unlink(rec_path);
}

/* RTM_GETLINK for ifindex 2, as rdc_nl_talk() sends it (it adds REQUEST and ACK). */
static struct nlmsghdr *getlink(void)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;

	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_index = 2;
	return nlh;
}

/*
 * An NLMSG_ERROR of -EPERM with @flags; @echo bytes of the request follow the
 * nlmsgerr when not capped (its msg.nlmsg_len says @echo_len), then the
 * caller's attributes.
 */
static struct nlmsghdr *error_msg(uint16_t flags, uint32_t echo_len)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(rep, 0, sizeof(rep));
	nlh = mnl_nlmsg_put_header(rep);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = flags;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EPERM;
	e->msg = *getlink();
	if (!(flags & NLM_F_CAPPED)) {
		/* The echoed request's payload: its ifinfomsg. */
		mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
		e = mnl_nlmsg_get_payload(nlh);
		e->msg.nlmsg_len = echo_len;
	}
	return nlh;
}

static int talk(struct rdc_err *err)
{
	memset(err, 0, sizeof(*err));
	return rdc_nl_talk(NETLINK_ROUTE, getlink(), 0, NULL, NULL, err);
}

static void test_extack_read(void **state)
{
	struct nlmsghdr *nlh = error_msg(NLM_F_CAPPED | NLM_F_ACK_TLVS, 0);
	struct rdc_err err;

	(void)state;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no permission here");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	mnl_attr_put_u16(nlh, 99, 1); /* a type of a newer kernel: not judged */
	replay_one(NETLINK_ROUTE, getlink(), nlh, nlh->nlmsg_len);
	assert_int_equal(talk(&err), -EPERM);
	assert_string_equal(err.msg, "kernel refused the request");
	assert_string_equal(err.detail, "kernel: no permission here");
	replay_end();

	/* Not capped: the attributes follow the echoed request. */
	nlh = error_msg(NLM_F_ACK_TLVS, getlink()->nlmsg_len);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "after the echo");
	replay_one(NETLINK_ROUTE, getlink(), nlh, nlh->nlmsg_len);
	assert_int_equal(talk(&err), -EPERM);
	assert_string_equal(err.detail, "kernel: after the echo");
	replay_end();

	/* Without NLM_F_ACK_TLVS nothing after the nlmsgerr is read, whatever it is. */
	nlh = error_msg(NLM_F_CAPPED, 0);
	mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, 3, "abc");
	nlh->nlmsg_len -= 1;
	replay_one(NETLINK_ROUTE, getlink(), nlh, nlh->nlmsg_len);
	assert_int_equal(talk(&err), -EPERM);
	assert_string_equal(err.detail, "");
	replay_end();
}

/* Each malformed extended ack: -EBADMSG, the record naming it and keeping the kernel's errno. */
static void test_extack_malformed(void **state)
{
	static const struct {
		uint16_t flags;
		uint32_t echo_len; /* uncapped: what the echoed header claims */
		int what;	   /* the attributes put */
		int cut;	   /* bytes taken off the end */
		const char *detail;
	} cases[] = {
		{NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, 0, 0,
		 "NLMSGERR_ATTR_MSG has 3 bytes, expected a NUL-terminated string"},
		{NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, 1, 0,
		 "NLMSGERR_ATTR_OFFS has 2 bytes, expected 4 bytes"},
		{NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, 2, 3,
		 "the message holds 17 bytes that are not attributes (truncated or not nested)"},
		{NLM_F_CAPPED | NLM_F_ACK_TLVS, 0, 2, 14,
		 "the message holds 6 bytes that are not attributes (truncated or not nested)"},
		{NLM_F_ACK_TLVS, 64, 2, 0,
		 "the request it echoes runs past the message's 72 bytes"},
		{NLM_F_ACK_TLVS, 8, 2, 0, "the request it echoes is shorter than a netlink header"},
	};

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct nlmsghdr *nlh = error_msg(cases[i].flags, cases[i].echo_len);
		struct rdc_err err;
		char want[256];

		if (cases[i].what == 0)
			mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, 3, "abc"); /* no NUL */
		else if (cases[i].what == 1)
			mnl_attr_put_u16(nlh, NLMSGERR_ATTR_OFFS, 20);
		else
			mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "cut short here");
		nlh->nlmsg_len -= cases[i].cut;
		replay_one(NETLINK_ROUTE, getlink(), nlh, nlh->nlmsg_len);
		assert_int_equal(talk(&err), -EBADMSG);
		assert_int_equal(err.code, EBADMSG);
		assert_string_equal(err.msg, "malformed extended ack in the kernel's answer");
		snprintf(want, sizeof(want), "extended ack: %s; the kernel's error: %s",
			 cases[i].detail, strerror(EPERM));
		assert_string_equal(err.detail, want);
		replay_end();
	}
}

/* A dump that ends with an error carries its extended ack after the status. */
static void test_extack_done(void **state)
{
	struct nlmsghdr *nlh;
	struct rdc_err err;
	int32_t *status;

	(void)state;
	/* Cut by 2, only the padding after the last attribute is gone: still whole. */
	for (int cut = 0; cut <= 4; cut += 2) {
		memset(rep, 0, sizeof(rep));
		nlh = mnl_nlmsg_put_header(rep);
		nlh->nlmsg_type = NLMSG_DONE;
		nlh->nlmsg_flags = NLM_F_MULTI | NLM_F_ACK_TLVS;
		status = mnl_nlmsg_put_extra_header(nlh, sizeof(*status));
		*status = -EOPNOTSUPP;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no dump here");
		nlh->nlmsg_len -= cut;
		replay_one(NETLINK_ROUTE, getlink(), nlh, nlh->nlmsg_len);
		if (cut < 4) {
			assert_int_equal(talk(&err), -EOPNOTSUPP);
			assert_string_equal(err.detail, "kernel: no dump here");
		} else {
			assert_int_equal(talk(&err), -EBADMSG);
			assert_string_equal(err.msg,
					    "malformed extended ack in the kernel's answer");
			assert_non_null(
				strstr(err.detail, "the message holds 16 bytes that are not"));
		}
		replay_end();
	}
}

/* CTRL_CMD_GETFAMILY for @name, as rdc_nl_genl_family() sends it. */
static struct nlmsghdr *getfamily(const char *name)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return nlh;
}

/* The controller's answer (attributes put by the caller), then its ACK, in one datagram. */
static struct nlmsghdr *newfamily(void)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	memset(rep, 0, sizeof(rep));
	nlh = mnl_nlmsg_put_header(rep);
	nlh->nlmsg_type = GENL_ID_CTRL;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_NEWFAMILY;
	genl->version = 2;
	return nlh;
}

static size_t with_ack(struct nlmsghdr *nlh)
{
	size_t n = NLMSG_ALIGN(nlh->nlmsg_len);
	struct nlmsghdr *ack = mnl_nlmsg_put_header(rep + n);
	struct nlmsgerr *e;

	ack->nlmsg_type = NLMSG_ERROR;
	ack->nlmsg_flags = NLM_F_CAPPED;
	e = mnl_nlmsg_put_extra_header(ack, sizeof(*e));
	e->error = 0;
	return n + ack->nlmsg_len;
}

static void test_genl_family_read(void **state)
{
	struct nlmsghdr *nlh = newfamily();
	struct rdc_err err = {0};
	struct nlattr *ops;
	uint16_t id = 0;

	(void)state;
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 21);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION, 1);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MAXATTR, 12);
	ops = mnl_attr_nest_start(nlh, CTRL_ATTR_OPS);
	mnl_attr_put_u32(nlh, 1, 7);
	mnl_attr_nest_end(nlh, ops);
	replay_one(NETLINK_GENERIC, getfamily("ethtool"), nlh, with_ack(nlh));
	assert_int_equal(rdc_nl_genl_family("ethtool", &id, &err), 0);
	assert_int_equal(id, 21);
	replay_end();

	/* Only an ACK, no answer: no id, which is no family (not a malformed answer). */
	nlh = newfamily();
	nlh->nlmsg_len = 0;
	replay_one(NETLINK_GENERIC, getfamily("nosuch"), rep, with_ack(nlh));
	assert_int_equal(rdc_nl_genl_family("nosuch", &id, &err), -ENOENT);
	assert_string_equal(err.msg, "no generic netlink family 'nosuch'");
	replay_end();
}

/* Each malformed answer: -EBADMSG naming the family asked for and what is wrong. */
static void test_genl_family_malformed(void **state)
{
	static const struct {
		int what;
		int cut;
		const char *why;
	} cases[] = {
		{0, 0, "CTRL_ATTR_FAMILY_ID has 4 bytes, expected 2 bytes"},
		{1, 0, "CTRL_ATTR_FAMILY_ID has 1 bytes, expected 2 bytes"},
		{2, 3,
		 "the message holds 5 bytes that are not attributes (truncated or not nested)"},
		{2, 10,
		 "the message holds 10 bytes that are not attributes (truncated or not nested)"},
		{3, 0, "no CTRL_ATTR_FAMILY_ID"},
		{4, 0, "CTRL_ATTR_FAMILY_ID 0 is below the first family id 16"},
		{5, 0, "it names another family, 'nl80211'"},
		{6, 0, "CTRL_ATTR_FAMILY_NAME has 7 bytes, expected a NUL-terminated string"},
	};

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(cases); i++) {
		struct nlmsghdr *nlh = newfamily();
		struct rdc_err err = {0};
		uint16_t id = 0;
		char want[256];

		switch (cases[i].what) {
		case 0:
			mnl_attr_put_u32(nlh, CTRL_ATTR_FAMILY_ID, 21);
			break;
		case 1:
			mnl_attr_put_u8(nlh, CTRL_ATTR_FAMILY_ID, 21);
			break;
		case 2:
			mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
			mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 21);
			break;
		case 3:
			mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "ethtool");
			break;
		case 4:
			mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0);
			break;
		case 5:
			mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 21);
			mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "nl80211");
			break;
		case 6:
			mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 21);
			mnl_attr_put(nlh, CTRL_ATTR_FAMILY_NAME, 7, "ethtool");
			break;
		}
		nlh->nlmsg_len -= cases[i].cut;
		replay_one(NETLINK_GENERIC, getfamily("ethtool"), nlh, with_ack(nlh));
		assert_int_equal(rdc_nl_genl_family("ethtool", &id, &err), -EBADMSG);
		assert_int_equal(err.code, EBADMSG);
		snprintf(want, sizeof(want),
			 "the generic netlink controller's answer for 'ethtool' is malformed: %s",
			 cases[i].why);
		assert_string_equal(err.msg, want);
		assert_int_equal(id, 0);
		replay_end();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extack_read),
		cmocka_unit_test(test_extack_malformed),
		cmocka_unit_test(test_extack_done),
		cmocka_unit_test(test_genl_family_read),
		cmocka_unit_test(test_genl_family_malformed),
	};

	return cmocka_run_group_tests_name("nl_extack", tests, NULL, NULL);
}
