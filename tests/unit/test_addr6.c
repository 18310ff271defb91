// SPDX-License-Identifier: GPL-2.0-or-later
/* test_addr6.c - IPv6 addresses in an RTM_GETADDR dump replayed through the transport, and the add */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "kernel/addr.h"
#include "seam/nl.h"

static char rec_path[64];
static FILE *rec_fp;
/* One datagram of the reply being built; the kernel packs many messages in one. */
static char dgram[16384] __attribute__((aligned(4)));
static size_t dgram_len;
static struct rdc_addr6_list list;

/* ---- writing a recording ---------------------------------------------- */

static void hexline(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	assert_non_null(hex);
	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

/* The dump request, spelled out rather than built by the code under test. */
static void rec_start(void)
{
	struct {
		struct nlmsghdr h;
		struct ifaddrmsg a;
	} req = {.h = {.nlmsg_len = sizeof(req),
		       .nlmsg_type = RTM_GETADDR,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP},
		 .a = {.ifa_family = AF_INET6}};

	assert_int_equal(sizeof(req), 24);
	rec_fp = fopen(rec_path, "w");
	assert_non_null(rec_fp);
	fprintf(rec_fp, "# rdmactl kernel recording v1\n");
	hexline(rec_fp, "> nl 0 ", &req, sizeof(req));
	dgram_len = 0;
}

static void rec_flush(void)
{
	if (dgram_len)
		hexline(rec_fp, "< ", dgram, dgram_len);
	dgram_len = 0;
}

static void rec_finish(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(dgram + dgram_len);
	int *status;

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	status = mnl_nlmsg_put_extra_header(nlh, sizeof(*status));
	*status = 0;
	dgram_len += nlh->nlmsg_len;
	rec_flush();
	fclose(rec_fp);
	rec_fp = NULL;
}

static void in6(const char *text, uint8_t out[16])
{
	assert_int_equal(inet_pton(AF_INET6, text, out), 1);
}

/* A new RTM_NEWADDR at the end of the datagram, without attributes. */
static struct nlmsghdr *addr_begin(unsigned char family, unsigned int ifindex, unsigned char prefix,
				   unsigned char flags, unsigned char scope)
{
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;

	memset(dgram + dgram_len, 0, 1024);
	nlh = mnl_nlmsg_put_header(dgram + dgram_len);
	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_MULTI;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = family;
	ifa->ifa_prefixlen = prefix;
	ifa->ifa_flags = flags;
	ifa->ifa_scope = scope;
	ifa->ifa_index = ifindex;
	return nlh;
}

static void addr_end(struct nlmsghdr *nlh)
{
	dgram_len += MNL_ALIGN(nlh->nlmsg_len);
	assert_true(dgram_len + 1024 < sizeof(dgram));
}

static void put_in6(struct nlmsghdr *nlh, uint16_t type, const char *text)
{
	uint8_t a[16];

	in6(text, a);
	mnl_attr_put(nlh, type, sizeof(a), a);
}

/* What the kernel says after `ip -6 address add ADDR dev IF`: IFA_ADDRESS, cache info, flags. */
static void put_static(unsigned int ifindex, const char *text, unsigned char prefix, uint32_t flags,
		       unsigned char scope)
{
	struct ifa_cacheinfo ci = {.ifa_prefered = 0xffffffffu, .ifa_valid = 0xffffffffu};
	struct nlmsghdr *nlh = addr_begin(AF_INET6, ifindex, prefix, (unsigned char)flags, scope);

	put_in6(nlh, IFA_ADDRESS, text);
	mnl_attr_put(nlh, IFA_CACHEINFO, sizeof(ci), &ci);
	mnl_attr_put_u32(nlh, IFA_FLAGS, flags);
	addr_end(nlh);
}

static int replay_list(struct rdc_err *err)
{
	rdc_err_clear(err);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, err), 0);
	return rdc_addr6_list(&list, err);
}

static void assert_addr(const struct rdc_addr6 *a, int ifindex, const char *text,
			unsigned int prefix, uint32_t flags, unsigned char scope)
{
	uint8_t want[16];

	in6(text, want);
	assert_int_equal(a->ifindex, ifindex);
	assert_memory_equal(a->addr, want, sizeof(want));
	assert_int_equal(a->prefix_len, prefix);
	assert_int_equal(a->flags, flags);
	assert_int_equal(a->scope, scope);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-addr6-XXXXXX");
	fd = mkstemp(rec_path);
	if (fd < 0)
		return -1;
	close(fd);
	memset(&list, 0, sizeof(list));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (rec_fp)
		fclose(rec_fp);
	rec_fp = NULL;
	rdc_addr6_list_free(&list);
	rdc_nl_close();
	unlink(rec_path);
	return 0;
}

/* ---- the dump ------------------------------------------------------------ */

/*
 * A host over two datagrams, as the kernel dumps it:
 *
 *   1 lo    ::1/128            permanent, host scope, flags in ifa_flags only (an old kernel)
 *   3 eth1  fd00:9::1/64       permanent, nodad + noprefixroute (IFA_FLAGS beyond the u8)
 *   3 eth1  fe80::...:1/64     permanent, link scope
 *   3 eth1  2001:db8::5/64     from SLAAC: not permanent, lifetimes
 *   4 eth2  an IPv4 address    (a kernel without IPv6 dumps every family): left out
 *   5 tun0  2001:db8:1::1/128  with a peer: IFA_LOCAL is ours, IFA_ADDRESS the peer's
 *   5 tun0  an attribute from a newer kernel (type 200) and IFA_PROTO: skipped
 */
static void write_host(void)
{
	struct nlmsghdr *nlh;
	uint32_t v4 = htonl(0xc6120201);

	rec_start();
	nlh = addr_begin(AF_INET6, 1, 128, IFA_F_PERMANENT, RT_SCOPE_HOST);
	put_in6(nlh, IFA_ADDRESS, "::1");
	addr_end(nlh);
	put_static(3, "fd00:9::1", 64, IFA_F_PERMANENT | IFA_F_NODAD | IFA_F_NOPREFIXROUTE,
		   RT_SCOPE_UNIVERSE);
	put_static(3, "fe80::5054:ff:fe0a:2", 64, IFA_F_PERMANENT, RT_SCOPE_LINK);
	rec_flush(); /* a dump is many datagrams */
	put_static(3, "2001:db8::5", 64, IFA_F_MANAGETEMPADDR, RT_SCOPE_UNIVERSE);
	nlh = addr_begin(AF_INET, 4, 24, IFA_F_PERMANENT, RT_SCOPE_UNIVERSE);
	mnl_attr_put(nlh, IFA_ADDRESS, sizeof(v4), &v4);
	mnl_attr_put(nlh, IFA_LOCAL, sizeof(v4), &v4);
	mnl_attr_put_strz(nlh, IFA_LABEL, "eth2");
	addr_end(nlh);
	nlh = addr_begin(AF_INET6, 5, 128, IFA_F_PERMANENT, RT_SCOPE_UNIVERSE);
	put_in6(nlh, IFA_LOCAL, "2001:db8:1::1");
	put_in6(nlh, IFA_ADDRESS, "2001:db8:1::2");
	mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_PERMANENT);
	mnl_attr_put_u32(nlh, 200, 7);
	mnl_attr_put_u8(nlh, IFA_PROTO, 0);
	addr_end(nlh);
	rec_finish();
}

static void test_dump(void **state)
{
	struct rdc_err err;

	(void)state;
	write_host();
	assert_int_equal(replay_list(&err), 0);
	assert_int_equal(list.count, 5);
	assert_addr(&list.items[0], 1, "::1", 128, IFA_F_PERMANENT, RT_SCOPE_HOST);
	assert_addr(&list.items[1], 3, "fd00:9::1", 64,
		    IFA_F_PERMANENT | IFA_F_NODAD | IFA_F_NOPREFIXROUTE, RT_SCOPE_UNIVERSE);
	assert_addr(&list.items[2], 3, "fe80::5054:ff:fe0a:2", 64, IFA_F_PERMANENT, RT_SCOPE_LINK);
	/* IFA_FLAGS wins over the u8 (which cannot hold 0x100). */
	assert_addr(&list.items[3], 3, "2001:db8::5", 64, IFA_F_MANAGETEMPADDR, RT_SCOPE_UNIVERSE);
	assert_addr(&list.items[4], 5, "2001:db8:1::1", 128, IFA_F_PERMANENT, RT_SCOPE_UNIVERSE);
}

static void test_dump_empty(void **state)
{
	struct rdc_err err;

	(void)state;
	rec_start();
	rec_finish();
	assert_int_equal(replay_list(&err), 0);
	assert_int_equal(list.count, 0);
	assert_null(list.items);
}

static void test_find_and_format(void **state)
{
	struct rdc_addr6 a = {.ifindex = 3, .prefix_len = 64};
	struct rdc_err err;
	char text[INET6_ADDRSTRLEN + 8];

	(void)state;
	write_host();
	assert_int_equal(replay_list(&err), 0);
	in6("fd00:9::1", a.addr);
	assert_ptr_equal(rdc_addr6_find(&list, &a), &list.items[1]);
	rdc_addr6_format(rdc_addr6_find(&list, &a), text, sizeof(text));
	assert_string_equal(text, "fd00:9::1/64");
	/* Another prefix length or interface is another address. */
	a.prefix_len = 48;
	assert_null(rdc_addr6_find(&list, &a));
	a.prefix_len = 64;
	a.ifindex = 4;
	assert_null(rdc_addr6_find(&list, &a));
	/* Cut, never overrun. */
	rdc_addr6_format(&list.items[1], text, 6);
	assert_string_equal(text, "fd00:");
}

/* ---- hostile recordings: a clean -EBADMSG that says why, never a crash ---- */

static void expect_bad(const char *what)
{
	struct rdc_err err;

	assert_int_equal(replay_list(&err), -EBADMSG);
	assert_int_equal(err.code, EBADMSG);
	assert_non_null(strstr(err.msg, "malformed RTM_NEWADDR"));
	if (!strstr(err.msg, what))
		fail_msg("'%s' does not say '%s'", err.msg, what);
	assert_int_equal(list.count, 0);
	assert_null(list.items);
}

static void test_bad_address_length(void **state)
{
	struct nlmsghdr *nlh;
	uint32_t v4 = 0;

	(void)state;
	rec_start();
	put_static(3, "fd00:9::1", 64, IFA_F_PERMANENT, 0); /* a good one first: freed too */
	nlh = addr_begin(AF_INET6, 3, 64, IFA_F_PERMANENT, 0);
	mnl_attr_put(nlh, IFA_ADDRESS, sizeof(v4), &v4);
	addr_end(nlh);
	rec_finish();
	expect_bad("(ifindex 3): IFA_ADDRESS has 4 bytes, expected 16 bytes");
}

static void test_bad_local_length(void **state)
{
	uint8_t a[17] = {0};
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 5, 128, 0, 0);
	mnl_attr_put(nlh, IFA_LOCAL, sizeof(a), a);
	addr_end(nlh);
	rec_finish();
	expect_bad("IFA_LOCAL has 17 bytes, expected 16 bytes");
}

static void test_bad_flags_length(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 3, 64, 0, 0);
	put_in6(nlh, IFA_ADDRESS, "fd00::1");
	mnl_attr_put_u8(nlh, IFA_FLAGS, IFA_F_PERMANENT);
	addr_end(nlh);
	rec_finish();
	expect_bad("IFA_FLAGS has 1 bytes, expected 4 bytes");
}

static void test_bad_truncated_attr(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *a;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 3, 64, 0, 0);
	a = mnl_nlmsg_get_payload_tail(nlh);
	put_in6(nlh, IFA_ADDRESS, "fd00::1");
	a->nla_len += 8; /* claims bytes past the end of the message */
	addr_end(nlh);
	rec_finish();
	expect_bad("20 bytes that are not attributes");
}

static void test_bad_short_message(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	memset(dgram, 0, 64);
	nlh = mnl_nlmsg_put_header(dgram);
	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, 4); /* half an ifaddrmsg */
	addr_end(nlh);
	rec_finish();
	expect_bad("20 bytes, shorter than its ifaddrmsg");
}

static void test_bad_prefix(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 3, 129, 0, 0);
	put_in6(nlh, IFA_ADDRESS, "fd00::1");
	addr_end(nlh);
	rec_finish();
	expect_bad("prefix length 129");
}

static void test_bad_no_address(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 3, 64, 0, 0);
	mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_PERMANENT);
	addr_end(nlh);
	rec_finish();
	expect_bad("no IFA_ADDRESS");
}

static void test_bad_no_ifindex(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = addr_begin(AF_INET6, 0, 64, 0, 0);
	put_in6(nlh, IFA_ADDRESS, "fd00::1");
	addr_end(nlh);
	rec_finish();
	expect_bad("no ifindex");
}

/* What the transport says (no recording of the request) stays: the caller reports unknown. */
static void test_not_recorded(void **state)
{
	struct rdc_err err = {0};

	(void)state;
	rec_fp = fopen(rec_path, "w");
	assert_non_null(rec_fp);
	fprintf(rec_fp, "# rdmactl kernel recording v1\n");
	fclose(rec_fp);
	rec_fp = NULL;
	assert_int_equal(replay_list(&err), -ENODATA);
	assert_int_equal(err.code, ENODATA);
	assert_int_equal(list.count, 0);
}

/* ---- the add request ---------------------------------------------------- */

static void test_build_add(void **state)
{
	char got[128] __attribute__((aligned(4))), want[128] __attribute__((aligned(4)));
	struct rdc_addr6 a = {.ifindex = 3, .prefix_len = 64, .scope = RT_SCOPE_UNIVERSE};
	struct rdc_err err = {0};
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	int len;

	(void)state;
	in6("fd00:9::1", a.addr);
	/* As the dump read it: permanent and tentative are the kernel's, not ours to send. */
	a.flags = IFA_F_PERMANENT | IFA_F_TENTATIVE | IFA_F_NODAD | IFA_F_NOPREFIXROUTE;
	len = rdc_addr6_build_add(got, sizeof(got), &a, &err);

	/* ip -6 address add fd00:9::1/64 dev eth1 nodad noprefixroute */
	memset(want, 0, sizeof(want));
	nlh = mnl_nlmsg_put_header(want);
	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET6;
	ifa->ifa_prefixlen = 64;
	ifa->ifa_flags = IFA_F_NODAD;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = 3;
	put_in6(nlh, IFA_ADDRESS, "fd00:9::1");
	mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_NODAD | IFA_F_NOPREFIXROUTE);
	assert_int_equal(len, nlh->nlmsg_len);
	assert_int_equal(len, 16 + 8 + 20 + 8);
	assert_memory_equal(got, want, (size_t)len);
}

static void test_build_add_from_dump(void **state)
{
	char got[128] __attribute__((aligned(4)));
	const struct nlattr *attr;
	const struct nlmsghdr *nlh = (const void *)got;
	const struct ifaddrmsg *ifa;
	struct rdc_err err;
	bool seen_addr = false, seen_flags = false;

	(void)state;
	/* What the list says is what the request carries: a round trip through the decoder's output. */
	write_host();
	assert_int_equal(replay_list(&err), 0);
	assert_true(rdc_addr6_build_add(got, sizeof(got), &list.items[1], &err) > 0);
	ifa = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(ifa->ifa_index, 3);
	assert_int_equal(ifa->ifa_prefixlen, 64);
	mnl_attr_for_each (attr, nlh, sizeof(*ifa)) {
		if (mnl_attr_get_type(attr) == IFA_ADDRESS) {
			assert_int_equal(mnl_attr_get_payload_len(attr), 16);
			assert_memory_equal(mnl_attr_get_payload(attr), list.items[1].addr, 16);
			seen_addr = true;
		} else if (mnl_attr_get_type(attr) == IFA_FLAGS) {
			assert_int_equal(mnl_attr_get_u32(attr), IFA_F_NODAD | IFA_F_NOPREFIXROUTE);
			seen_flags = true;
		} else {
			fail_msg("unexpected attribute %u", mnl_attr_get_type(attr));
		}
	}
	assert_true(seen_addr && seen_flags);
}

static void test_build_rejects(void **state)
{
	char buf[128] __attribute__((aligned(4)));
	struct rdc_addr6 a = {.ifindex = 3, .prefix_len = 64};
	struct rdc_err err = {0};

	(void)state;
	a.ifindex = 0;
	assert_int_equal(rdc_addr6_build_add(buf, sizeof(buf), &a, &err), -EINVAL);
	assert_string_equal(err.msg, "bad ifindex 0");
	a.ifindex = 3;
	a.prefix_len = 129;
	assert_int_equal(rdc_addr6_build_add(buf, sizeof(buf), &a, &err), -EINVAL);
	assert_string_equal(err.msg, "bad IPv6 prefix length 129");
	a.prefix_len = 64;
	assert_int_equal(rdc_addr6_build_add(buf, 20, &a, &err), -EMSGSIZE);
	/* Room for the header but not the attributes. */
	assert_int_equal(rdc_addr6_build_add(buf, 40, &a, &err), -EMSGSIZE);
	assert_non_null(strstr(err.msg, "does not fit in 40 bytes"));
	assert_int_equal(rdc_addr6_build_add(buf, 52, &a, &err), 52);
}

/* A write through a recording or without a kernel is refused, in words that name the address. */
static void test_add_refused(void **state)
{
	struct rdc_addr6 a = {.ifindex = 3, .prefix_len = 64};
	struct rdc_err err = {0};

	(void)state;
	in6("fd00:9::1", a.addr);
	rec_start();
	rec_finish();
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, &err), 0);
	assert_int_equal(rdc_addr6_add(&a, &err), -EROFS);
	assert_string_equal(err.msg, "cannot add fd00:9::1/64 to ifindex 3");
	assert_non_null(strstr(err.detail, "writes are refused"));
	rdc_nl_close();
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);
	assert_int_equal(rdc_addr6_add(&a, &err), -EROFS);
	assert_int_equal(rdc_addr6_add(&a, NULL), -EROFS);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_dump),
		T(test_dump_empty),
		T(test_find_and_format),
		T(test_bad_address_length),
		T(test_bad_local_length),
		T(test_bad_flags_length),
		T(test_bad_truncated_attr),
		T(test_bad_short_message),
		T(test_bad_prefix),
		T(test_bad_no_address),
		T(test_bad_no_ifindex),
		T(test_not_recorded),
		T(test_build_add),
		T(test_build_add_from_dump),
		T(test_build_rejects),
		T(test_add_refused),
	};

	return cmocka_run_group_tests_name("addr6", tests, NULL, NULL);
}
