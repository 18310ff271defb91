// SPDX-License-Identifier: GPL-2.0-or-later
/* test_rdmanl.c - the RDMA netns mode from nldev replies, replayed through the transport */
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
#include <rdma/rdma_netlink.h>

#include "base/util.h"
#include "host/rdma_netns.h"
#include "kernel/rdmanl.h"
#include "seam/nl.h"

#define SYS_GET RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_SYS_GET)

static char rec_path[64];

static void hexline(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

static struct nlmsghdr *msg(char *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	return nlh;
}

static size_t ack(char *buf, int error)
{
	struct nlmsghdr *nlh = msg(buf, NLMSG_ERROR, NLM_F_CAPPED);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	e->error = error;
	return nlh->nlmsg_len;
}

/*
 * A recording of one SYS_GET.  @attr_len: the NETNS_MODE attribute's payload
 * length (1 as the kernel sends it; 0: left out; other: a broken reply);
 * @error: answer with this kernel error instead.
 */
static void record(uint8_t value, size_t attr_len, int error)
{
	char req[256], rep[256];
	struct nlmsghdr *nlh;
	uint32_t wide = value;
	FILE *fp;
	int fd;

	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-rdmanl-XXXXXX");
	fd = mkstemp(rec_path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "# rdmactl kernel recording v1\n");
	nlh = msg(req, SYS_GET, NLM_F_REQUEST | NLM_F_ACK);
	fprintf(fp, "> nl %d ", NETLINK_RDMA);
	hexline(fp, "", nlh, nlh->nlmsg_len);
	if (error) {
		hexline(fp, "< ", rep, ack(rep, error));
	} else {
		nlh = msg(rep, SYS_GET, 0);
		/* Another attribute first, as newer kernels send (copy-on-fork). */
		mnl_attr_put_u8(nlh, RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
		if (attr_len)
			mnl_attr_put(nlh, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, attr_len, &wide);
		hexline(fp, "< ", rep, nlh->nlmsg_len);
		hexline(fp, "< ", rep, ack(rep, 0));
	}
	fclose(fp);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, NULL), 0);
}

static int teardown(void **state)
{
	(void)state;
	rdc_nl_close();
	unlink(rec_path);
	return 0;
}

static void test_shared(void **state)
{
	enum rdc_rdma_netns_mode mode = RDC_RDMA_NETNS_EXCLUSIVE;
	struct rdc_err err = {0};

	(void)state;
	record(1, 1, 0);
	assert_int_equal(rdc_rdma_netns_mode(&mode, &err), 0);
	assert_int_equal(mode, RDC_RDMA_NETNS_SHARED);
	assert_string_equal(rdc_rdma_netns_mode_name(mode), "shared");
}

static void test_exclusive(void **state)
{
	enum rdc_rdma_netns_mode mode = RDC_RDMA_NETNS_UNKNOWN;
	struct rdc_err err = {0};

	(void)state;
	record(0, 1, 0);
	assert_int_equal(rdc_rdma_netns_mode(&mode, &err), 0);
	assert_int_equal(mode, RDC_RDMA_NETNS_EXCLUSIVE);
	assert_string_equal(rdc_rdma_netns_mode_name(mode), "exclusive");
}

/* A kernel that answers without the attribute: unknown, said so. */
static void test_attribute_missing(void **state)
{
	enum rdc_rdma_netns_mode mode = RDC_RDMA_NETNS_SHARED;
	struct rdc_err err = {0};

	(void)state;
	record(0, 0, 0);
	assert_int_equal(rdc_rdma_netns_mode(&mode, &err), -EOPNOTSUPP);
	assert_int_equal(mode, RDC_RDMA_NETNS_UNKNOWN);
	assert_non_null(strstr(err.msg, "namespace mode"));
	assert_null(rdc_rdma_netns_mode_name(mode));
}

/* A u8 sent as four bytes breaks the policy: a malformed reply, not a mode. */
static void test_attribute_wrong_size(void **state)
{
	enum rdc_rdma_netns_mode mode;
	struct rdc_err err = {0};

	(void)state;
	record(1, 4, 0);
	assert_int_equal(rdc_rdma_netns_mode(&mode, &err), -EBADMSG);
	assert_int_equal(mode, RDC_RDMA_NETNS_UNKNOWN);
	assert_non_null(strstr(err.msg, "malformed"));
}

/* A kernel without the nldev command answers EINVAL: not supported, not a usage error. */
static void test_old_kernel(void **state)
{
	enum rdc_rdma_netns_mode mode;
	struct rdc_err err = {0};

	(void)state;
	record(0, 0, -EINVAL);
	assert_int_equal(rdc_rdma_netns_mode(&mode, &err), -EOPNOTSUPP);
	assert_int_equal(mode, RDC_RDMA_NETNS_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_shared, teardown),
		cmocka_unit_test_teardown(test_exclusive, teardown),
		cmocka_unit_test_teardown(test_attribute_missing, teardown),
		cmocka_unit_test_teardown(test_attribute_wrong_size, teardown),
		cmocka_unit_test_teardown(test_old_kernel, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
