// SPDX-License-Identifier: GPL-2.0-or-later
/* test_nl_load.c - a kernel recording is outside input: checked whole at load, strict replay */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "seam/nl.h"

#define MAGIC "# rdmactl kernel recording v1\n"

static char dir[64];
static char path[128];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rdmactl-test-nl-load-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/k.rec", dir);
	return 0;
}

static int teardown_dir(void **state)
{
	char fifo[160];

	(void)state;
	rdc_nl_close();
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	unlink(fifo);
	unlink(path);
	rmdir(dir);
	return 0;
}

static void put_hex(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	assert_non_null(hex);
	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

/* RTM_GETLINK for @ifindex, as rdc_nl_talk() sends it (it adds REQUEST and ACK). */
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

static size_t nlerr(char *buf, int type, int32_t error)
{
	struct nlmsghdr *nlh;
	int32_t *e;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (uint16_t)type;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	e = mnl_nlmsg_put_extra_header(nlh, type == NLMSG_ERROR ? sizeof(struct nlmsgerr) : 4);
	*e = error;
	return nlh->nlmsg_len;
}

/* A recording: the magic line, GETLINK @ifindex, then @reply as its one answer. */
static void write_rec(int ifindex, const void *reply, size_t len)
{
	char req[256];
	FILE *fp = fopen(path, "w");
	struct nlmsghdr *nlh = getlink(req, ifindex);

	assert_non_null(fp);
	fputs(MAGIC, fp);
	put_hex(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	put_hex(fp, "< ", reply, len);
	fclose(fp);
}

static void write_text(const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* Loading fails with -EINVAL, naming the file and @line. */
static void assert_bad_at(int line)
{
	struct rdc_err err = {0};
	char want[64];

	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), -EINVAL);
	snprintf(want, sizeof(want), "line %d", line);
	assert_non_null(strstr(err.msg, want));
	assert_non_null(strstr(err.msg, path));
	/* Nothing of it is answered afterwards. */
	assert_int_not_equal(rdc_nl_mode(), RDC_NL_REPLAY);
	rdc_nl_close();
}

/* Was: loaded, then every verb crashed in the sequence rewrite (mnl_nlmsg_ok() is int). */
static void test_huge_nlmsg_len_refused_at_load(void **state)
{
	char rep[256];
	size_t n = nlerr(rep, NLMSG_ERROR, 0);

	(void)state;
	((struct nlmsghdr *)rep)->nlmsg_len = 0x90000000u;
	write_rec(2, rep, n);
	assert_bad_at(3);
	((struct nlmsghdr *)rep)->nlmsg_len = UINT32_MAX;
	write_rec(2, rep, n);
	assert_bad_at(3);
}

static void test_bad_datagrams_refused_at_load(void **state)
{
	char rep[256];
	size_t n = nlerr(rep, NLMSG_ERROR, 0);

	(void)state;
	/* Shorter than a header. */
	((struct nlmsghdr *)rep)->nlmsg_len = 8;
	write_rec(2, rep, n);
	assert_bad_at(3);
	/* A whole message, then 8 bytes of a second header. */
	n = nlerr(rep, NLMSG_ERROR, 0);
	write_rec(2, rep, n + 8);
	assert_bad_at(3);
	/* Two messages, the second claiming more than is left. */
	n = nlerr(rep, NLMSG_ERROR, 0);
	memcpy(rep + n, rep, n);
	((struct nlmsghdr *)(rep + n))->nlmsg_len = (uint32_t)n + 4;
	write_rec(2, rep, 2 * n);
	assert_bad_at(3);
	/* Empty answer. */
	write_text(MAGIC "> nl 0 1400000012000500000000000000000000000000\n< \n");
	assert_bad_at(3);
}

static void test_bad_lines_refused_at_load(void **state)
{
	const char *getlink_hex =
		"> nl 0 2000000012000500000000000000000000000000020000000000000000000000\n";
	char text[512];

	(void)state;
	/* The request's nlmsg_len is not its length. */
	write_text(MAGIC "> nl 0 2000000012000500000000000000000000000000\n");
	assert_bad_at(2);
	snprintf(text, sizeof(text), MAGIC "%s! 0\n", getlink_hex);
	write_text(text);
	assert_bad_at(3);
	snprintf(text, sizeof(text), MAGIC "%s! 4096\n", getlink_hex);
	write_text(text);
	assert_bad_at(3);
	snprintf(text, sizeof(text), MAGIC "%s! 2147483648\n", getlink_hex);
	write_text(text);
	assert_bad_at(3);
	/* An errno after an answer, an answer after an errno. */
	snprintf(text, sizeof(text), MAGIC "%s< 14000000020000000000000000000000%s\n! 5\n",
		 getlink_hex, "00000000");
	write_text(text);
	assert_bad_at(4);
	snprintf(text, sizeof(text), MAGIC "%s! 5\n< 1400000002000000000000000000000000000000\n",
		 getlink_hex);
	write_text(text);
	assert_bad_at(4);
	/* An answer before any request; an ethtool request without its answer. */
	write_text(MAGIC "< 00\n");
	assert_bad_at(2);
	write_text(MAGIC
		   "> ioctl ethtool eth0 01000000\n> ioctl ethtool eth0 01000000\n< 01000000\n");
	assert_bad_at(3);
	write_text(MAGIC "> ioctl ethtool eth0 01000000\n");
	assert_bad_at(2);
	write_text(MAGIC "> ioctl ethtool eth0 01\n< 01\n");
	assert_bad_at(2);
	/* Was: loaded, and failed only when a verb asked (the answer overwrites the request). */
	write_text(MAGIC "> ioctl ethtool eth0 01000000\n< 0100\n");
	assert_bad_at(3);
	write_text(MAGIC "> ioctl ethtool eth0 01000000\n< 0100000000\n> ioctl ethtool eth1 "
			 "01000000\n! 95\n");
	assert_bad_at(4); /* found when the next request begins */
	/* Was: a file cut inside its last line loaded what was left of it. */
	write_text(MAGIC "> ioctl ethtool eth0 01000000\n< 01000000");
	assert_bad_at(3);
	write_text(MAGIC "# a comment without its newline");
	assert_bad_at(2);
}

static void test_nul_byte_refused(void **state)
{
	FILE *fp;

	(void)state;
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(MAGIC "# a comment", fp);
	fputc(0, fp);
	fputs("with a NUL\n", fp);
	fclose(fp);
	assert_bad_at(2);
}

/* Was: getline() grew one line without bound. */
static void test_long_line_refused(void **state)
{
	FILE *fp = fopen(path, "w");

	(void)state;
	assert_non_null(fp);
	fputs(MAGIC "# ", fp);
	for (unsigned int i = 0; i < RDC_NL_REC_MAX_LINE; i++)
		fputc('x', fp);
	fputc('\n', fp);
	fclose(fp);
	assert_bad_at(2);
}

static void test_big_file_refused(void **state)
{
	struct rdc_err err = {0};
	FILE *fp = fopen(path, "w");

	(void)state;
	assert_non_null(fp);
	fputs(MAGIC, fp);
	fclose(fp);
	/* Sparse: the size is what counts, before a byte is read. */
	assert_int_equal(truncate(path, (off_t)RDC_NL_REC_MAX_BYTES + 1), 0);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), -EFBIG);
	assert_non_null(strstr(err.msg, path));
	rdc_nl_close();
}

/* Was: /dev/zero grew memory without bound; a FIFO blocked forever. */
static void test_non_regular_refused(void **state)
{
	struct rdc_err err = {0};
	char fifo[160];

	(void)state;
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, "/dev/zero", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'/dev/zero' is not a regular file"));
	rdc_nl_close();
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, fifo, &err), -EINVAL);
	rdc_nl_close();
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, dir, &err), -EINVAL);
	rdc_nl_close();
}

/* Was: INT_MIN was negated (UBSan) and came back as -INT_MIN. */
static void test_errno_clamped(void **state)
{
	static const int32_t bad[] = {INT_MIN, -4096, 1, INT_MAX};
	struct rdc_err err = {0};
	char req[256], rep[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int type = NLMSG_ERROR; type <= NLMSG_DONE; type++) {
			if (type == NLMSG_DONE && bad[i] > 0)
				continue; /* a positive DONE status is a count, not an error */
			write_rec(2, rep, nlerr(rep, type, bad[i]));
			assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), 0);
			assert_int_equal(
				rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err),
				-EPROTO);
			assert_int_equal(err.code, EPROTO);
			rdc_nl_close();
		}
	}
	/* In range, it is what it says. */
	write_rec(2, rep, nlerr(rep, NLMSG_ERROR, -4095));
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), 0);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err), -4095);
	rdc_nl_close();
}

/* Three requests: ifindex 2 answered twice, 3 once. */
static void write_three(void)
{
	char req[256], rep[256];
	FILE *fp = fopen(path, "w");
	struct nlmsghdr *nlh;

	assert_non_null(fp);
	fputs(MAGIC, fp);
	for (int i = 0; i < 3; i++) {
		nlh = getlink(req, i < 2 ? 2 : 3);
		put_hex(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
		put_hex(fp, "< ", rep, nlerr(rep, NLMSG_ERROR, 0));
	}
	fclose(fp);
}

static void test_strict_all_and_asked(void **state)
{
	struct rdc_err err = {0};
	char req[256];

	(void)state;
	write_three();
	/* Not strict: the repeat is answered again and nothing is judged. */
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err),
				 0);
	assert_int_equal(rdc_nl_strict_check(&err), 0);
	rdc_nl_close();

	/* all: ifindex 2 once leaves its second answer (line 4) and ifindex 3's (line 6). */
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), 0);
	rdc_nl_set_strict(RDC_NL_STRICT_ALL);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err), 0);
	assert_int_equal(rdc_nl_strict_check(&err), -EPROTO);
	assert_non_null(strstr(err.msg, "recorded answer not used: line 4: > nl 0 20000000"));
	assert_string_equal(err.detail, "2 requests broke strict replay");
	rdc_nl_close();

	/* asked: ifindex 3 was never asked, so only line 4 counts. */
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, path, &err), 0);
	rdc_nl_set_strict(RDC_NL_STRICT_ASKED);
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_nl_strict_check(&err), -EPROTO);
	assert_non_null(strstr(err.msg, "line 4"));
	assert_string_equal(err.detail, "");
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err), 0);
	assert_int_equal(rdc_nl_strict_check(&err), 0);
	/* A third time is a repeat; ifindex 9 is not recorded at all. */
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 2), 0, NULL, NULL, &err), 0);
	assert_int_equal(rdc_nl_strict_check(&err), -EPROTO);
	assert_non_null(strstr(err.msg, "recorded answer used again: line 4"));
	assert_int_equal(rdc_nl_talk(NETLINK_ROUTE, getlink(req, 9), 0, NULL, NULL, &err),
			 -ENODATA);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_nl_strict_check(&err), -EPROTO);
	assert_string_equal(err.detail, "2 requests broke strict replay");
	rdc_nl_close();
}

static void test_fixtures_load(void **state)
{
	static const char *const hosts[] = {"ab-2nic",	 "clean-2port", "cx6dx",
					    "cx6dx-lag", "degraded",	"seed-gateway"};
	struct rdc_err err = {0};
	char p[256];

	(void)state;
	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		snprintf(p, sizeof(p), "testdata/hosts/%s/kernel.rec", hosts[i]);
		if (rdc_nl_open(RDC_NL_REPLAY, p, &err))
			fail_msg("%s: %s", p, err.msg);
		rdc_nl_close();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_huge_nlmsg_len_refused_at_load),
		cmocka_unit_test(test_bad_datagrams_refused_at_load),
		cmocka_unit_test(test_bad_lines_refused_at_load),
		cmocka_unit_test(test_nul_byte_refused),
		cmocka_unit_test(test_long_line_refused),
		cmocka_unit_test(test_big_file_refused),
		cmocka_unit_test(test_non_regular_refused),
		cmocka_unit_test(test_errno_clamped),
		cmocka_unit_test(test_strict_all_and_asked),
		cmocka_unit_test(test_fixtures_load),
	};

	return cmocka_run_group_tests_name("nl_load", tests, setup_dir, teardown_dir);
}
