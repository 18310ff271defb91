// SPDX-License-Identifier: GPL-2.0-or-later
/* test_nlattr.c - the one attribute parser: policies, repeated and unknown types, every cut */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>

#include "base/util.h"
#include "seam/nlattr.h"

enum { T_NONE, T_U32, T_NAME, T_NEST, T_STRUCT, T_MAC, T_MAX };

struct three {
	uint8_t b[3];
};

static const struct rdc_nla_policy policy[] = {
	RDC_NLA(T_U32, RDC_NLA_U32),   RDC_NLA(T_NAME, RDC_NLA_IFNAME),
	RDC_NLA(T_NEST, RDC_NLA_NEST), RDC_NLA_STRUCT(T_STRUCT, struct three),
	RDC_NLA(T_MAC, RDC_NLA_MAC),
};

static char buf[1024] __attribute__((aligned(4)));

/* A message with a 4-byte family header: u32 7, name "eth0", a nest of two u32, a struct. */
static struct nlmsghdr *good(void)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint32_t *hdr;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	hdr = mnl_nlmsg_put_extra_header(nlh, sizeof(*hdr));
	*hdr = 0;
	mnl_attr_put_u32(nlh, T_U32, 7);
	mnl_attr_put_strz(nlh, T_NAME, "eth0");
	nest = mnl_attr_nest_start(nlh, T_NEST);
	mnl_attr_put_u32(nlh, 1, 10);
	mnl_attr_put_u32(nlh, 1, 11);
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_put(nlh, T_STRUCT, 5, "abcde"); /* longer than ours: a newer kernel's */
	mnl_attr_put_u16(nlh, 40, 1);		 /* a type we do not know: not judged */
	return nlh;
}

static int sum_cb(const struct nlattr *attr, void *data)
{
	*(uint32_t *)data += mnl_attr_get_u32(attr);
	return 0;
}

static void test_good(void **state)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct nlmsghdr *nlh = good();
	struct rdc_nla_why why;
	uint32_t sum = 0;

	(void)state;
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), 0);
	assert_int_equal(mnl_attr_get_u32(tb[T_U32]), 7);
	assert_string_equal(mnl_attr_get_str(tb[T_NAME]), "eth0");
	assert_null(tb[T_MAC]);
	assert_int_equal(rdc_nla_walk_nest(tb[T_NEST], "T_NEST", sum_cb, &sum, &why), 0);
	assert_int_equal(sum, 21);
}

static void test_policy(void **state)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct nlmsghdr *nlh = good();
	struct rdc_nla_why why;

	(void)state;
	mnl_attr_put_u16(nlh, T_U32, 1); /* repeated, and the wrong size: the last is judged */
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), -EBADMSG);
	assert_string_equal(why.text, "T_U32 has 2 bytes, expected 4 bytes");
	nlh = good();
	mnl_attr_put(nlh, T_STRUCT, 2, "ab");
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), -EBADMSG);
	assert_string_equal(why.text, "T_STRUCT has 2 bytes, expected at least 3 bytes");
	nlh = good();
	mnl_attr_put_strz(nlh, T_NAME, "a-name-of-twenty-chars");
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), -EBADMSG);
	nlh = good();
	mnl_attr_put(nlh, T_NAME, 4, "eth0"); /* no NUL */
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), -EBADMSG);
}

/* Every shorter length of the message (as a cut reply): refused, never read past the end. */
static void test_every_cut(void **state)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct nlmsghdr *nlh = good();
	uint32_t full = nlh->nlmsg_len, cut;
	struct rdc_nla_why why;

	(void)state;
	for (cut = MNL_NLMSG_HDRLEN + 4 + 1; cut < full; cut++) {
		int rc;

		nlh->nlmsg_len = cut;
		rc = rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why);
		/* A cut that falls on an attribute boundary leaves a shorter, whole message. */
		if (rc == 0)
			continue;
		assert_int_equal(rc, -EBADMSG);
		assert_true(why.text[0] != '\0');
	}
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2; /* shorter than its family header */
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), -EBADMSG);
	assert_string_equal(why.text, "the message is shorter than its header");
}

static void test_nest_cut(void **state)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct nlmsghdr *nlh = good();
	struct rdc_nla_why why;
	struct nlattr *nest;
	uint32_t sum = 0;

	(void)state;
	assert_int_equal(rdc_nla_parse_msg(nlh, 4, policy, RDC_ARRAY_SIZE(tb), tb, &why), 0);
	/* The nest says it is 5 bytes shorter: its last u32 no longer fits. */
	nest = (struct nlattr *)tb[T_NEST];
	nest->nla_len -= 5;
	assert_int_equal(rdc_nla_walk_nest(nest, "T_NEST", sum_cb, &sum, &why), -EBADMSG);
	assert_string_equal(
		why.text, "T_NEST holds 3 bytes that are not attributes (truncated or not nested)");
}

/*
 * A family header whose length is no multiple of 4 (an extended ack after a
 * 20-byte nlmsgerr and an echoed request of 33 bytes): the attributes start
 * at the next 4-byte boundary, and a message that ends before it is refused.
 */
static void test_unaligned_header(void **state)
{
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct rdc_nla_why why;
	struct nlmsghdr *nlh;

	(void)state;
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	mnl_nlmsg_put_extra_header(nlh, 40); /* 37 bytes of header, padded to 40 */
	mnl_attr_put_u32(nlh, T_U32, 9);
	assert_int_equal(rdc_nla_parse_msg(nlh, 37, policy, RDC_ARRAY_SIZE(tb), tb, &why), 0);
	assert_int_equal(mnl_attr_get_u32(tb[T_U32]), 9);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 38; /* inside the padding */
	assert_int_equal(rdc_nla_parse_msg(nlh, 37, policy, RDC_ARRAY_SIZE(tb), tb, &why),
			 -EBADMSG);
	assert_string_equal(why.text, "the message is shorter than its header");
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 40; /* the header alone: no attributes */
	assert_int_equal(rdc_nla_parse_msg(nlh, 37, policy, RDC_ARRAY_SIZE(tb), tb, &why), 0);
	assert_null(tb[T_U32]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_every_cut),
		cmocka_unit_test(test_nest_cut),
		cmocka_unit_test(test_unaligned_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
