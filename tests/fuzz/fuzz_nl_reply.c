// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_nl_reply.c - libFuzzer: kernel replies, replayed, through every reply parser end to end */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "base/counters.h"
#include "base/util.h"
#include "kernel/addr.h"
#include "kernel/bondnl.h"
#include "kernel/dcbnl.h"
#include "kernel/ethtool.h"
#include "seam/nl.h"

#include "fuzz.h"

/*
 * A recording (seam/nl.c) is outside input, and its answers reach the
 * parsers of kernel/ (and the transport's own: extended acks, the genetlink
 * family id) as the kernel's would.  fuzz_nl_rec fuzzes the file; this one
 * fuzzes what is inside the answers: it writes a recording whose requests are
 * the ones the readers send, answered with messages taken from the input,
 * replays it, and calls the public readers:
 *
 *   slot  request (what the reader sends)           reader
 *   0     RTM_GETDCB DCB_CMD_IEEE_GET "eth0"        rdc_dcbnl_get
 *   1     CTRL_CMD_GETFAMILY "ethtool"              rdc_ethtool_std_stats
 *   2     ETHTOOL_MSG_STATS_GET "eth0" (family 20)    (the same)
 *   3     ETHTOOL_MSG_PAUSE_GET "eth0", stats         (the same)
 *   4     RTM_GETLINK dump                          rdc_bondnl_dump
 *   5     RTM_GETADDR dump, AF_INET                 rdc_addr4_list
 *   6     RTM_GETADDR dump, AF_INET6                rdc_addr6_list
 *
 * (The SIOCETHTOOL answers of rdc_ethtool_driver_stats are not here: each of
 * its requests is sized by the answer before, which no fixed template is.)
 *
 * The input is records, to its end (a short last one is dropped):
 *
 *   u8 ctl     bits 0-2: the slot (7: none, skipped); bit 3: the message
 *              starts a new datagram of that slot's answer; bit 4: the
 *              request fails ("! ERRNO", ERRNO 1 + type % 4095) when it has
 *              no answer yet
 *   u16 type, u16 flags, u16 len   (little-endian) the message's header
 *   len bytes  its payload (fewer when the input ends)
 *
 * Each message is whole (nlmsg_len is written here), so the recording always
 * loads; what the message holds is the fuzzer's.  What must hold for any
 * input: every reader returns 0 or -errno with its record (errno 1..4095);
 * what it returns obeys its header's promises (counts within their arrays,
 * names terminated, prefixes in range, ETS shares valid); nothing leaks.
 *
 * The request templates must stay byte for byte what the readers send: at
 * start each slot gets a minimal answer under strict replay, and an answer
 * left unused (a request the reader no longer sends) aborts the run.
 */

#define IFNAME "eth0"
#define ETHTOOL_ID 20 /* the family id of every recording in testdata/hosts */
#define MAX_DATAGRAMS 32
#define MAX_DATAGRAM 65536

enum { S_DCB, S_CTRL, S_STATS, S_PAUSE, S_LINKS, S_ADDR4, S_ADDR6, S_COUNT };

struct slot {
	unsigned char *dgram[MAX_DATAGRAMS];
	size_t len[MAX_DATAGRAMS];
	size_t n;
	int proto;
	int error; /* "! ERRNO" instead of answers */
	char req[256] __attribute__((aligned(4)));
};

static struct slot slots[S_COUNT];

static struct nlmsghdr *req_start(struct slot *s, int proto, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(s->req, 0, sizeof(s->req));
	s->proto = proto;
	nlh = mnl_nlmsg_put_header(s->req);
	nlh->nlmsg_type = type;
	/* As rdc_nl_talk() sends it: REQUEST, and ACK unless a dump. */
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nlh;
}

static void req_dcb(struct slot *s)
{
	struct nlmsghdr *nlh = req_start(s, NETLINK_ROUTE, RTM_GETDCB, NLM_F_ACK);
	struct dcbmsg *d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));

	d->dcb_family = AF_UNSPEC;
	d->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, IFNAME);
}

static void req_ctrl(struct slot *s)
{
	struct nlmsghdr *nlh = req_start(s, NETLINK_GENERIC, GENL_ID_CTRL, NLM_F_ACK);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
}

static struct nlmsghdr *req_ethtool(struct slot *s, uint8_t cmd, uint16_t hdr, uint32_t flags)
{
	struct nlmsghdr *nlh = req_start(s, NETLINK_GENERIC, ETHTOOL_ID, NLM_F_ACK);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *nest;

	g->cmd = cmd;
	g->version = ETHTOOL_GENL_VERSION;
	nest = mnl_attr_nest_start(nlh, hdr);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, IFNAME);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static void req_stats(struct slot *s)
{
	struct nlmsghdr *nlh = req_ethtool(s, ETHTOOL_MSG_STATS_GET, ETHTOOL_A_STATS_HEADER, 0);
	struct nlattr *nest = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GROUPS);

	/* The four groups every kernel >= 5.13 knows, as a compact bitset. */
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 4);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_VALUE, 0xf);
	mnl_attr_nest_end(nlh, nest);
}

static void req_dump(struct slot *s, uint16_t type, const void *hdr, size_t len)
{
	struct nlmsghdr *nlh = req_start(s, NETLINK_ROUTE, type, NLM_F_DUMP);

	memcpy(mnl_nlmsg_put_extra_header(nlh, len), hdr, len);
}

static void requests(void)
{
	const struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	const struct ifaddrmsg ifa4 = {.ifa_family = AF_INET}, ifa6 = {.ifa_family = AF_INET6};

	req_dcb(&slots[S_DCB]);
	req_ctrl(&slots[S_CTRL]);
	req_stats(&slots[S_STATS]);
	req_ethtool(&slots[S_PAUSE], ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER,
		    ETHTOOL_FLAG_STATS);
	req_dump(&slots[S_LINKS], RTM_GETLINK, &ifi, sizeof(ifi));
	req_dump(&slots[S_ADDR4], RTM_GETADDR, &ifa4, sizeof(ifa4));
	req_dump(&slots[S_ADDR6], RTM_GETADDR, &ifa6, sizeof(ifa6));
}

static void slots_clear(void)
{
	for (int i = 0; i < S_COUNT; i++) {
		for (size_t d = 0; d < slots[i].n; d++)
			free(slots[i].dgram[d]);
		slots[i].n = 0;
		slots[i].error = 0;
	}
}

/*
 * Append one whole message to @s's answer: to its last datagram (after that
 * one's padding), or to a new one.  The padding after the last message of a
 * datagram is left off, as the kernel may.
 */
static void slot_put(struct slot *s, bool fresh, uint16_t type, uint16_t flags, const void *payload,
		     size_t plen)
{
	struct nlmsghdr nlh = {.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + plen),
			       .nlmsg_type = type,
			       .nlmsg_flags = flags};
	size_t at = s->n ? NLMSG_ALIGN(s->len[s->n - 1]) : 0;

	if (NLMSG_HDRLEN + plen > MAX_DATAGRAM)
		return;
	if (fresh || !s->n || at + NLMSG_HDRLEN + plen > MAX_DATAGRAM) {
		if (s->n == MAX_DATAGRAMS)
			return;
		/* Zeroed: the padding between messages. */
		s->dgram[s->n] = calloc(1, MAX_DATAGRAM);
		if (!s->dgram[s->n])
			return;
		s->len[s->n++] = 0;
		at = 0;
	}
	memcpy(s->dgram[s->n - 1] + at, &nlh, sizeof(nlh));
	if (plen)
		memcpy(s->dgram[s->n - 1] + at + NLMSG_HDRLEN, payload, plen);
	s->len[s->n - 1] = at + NLMSG_HDRLEN + plen;
}

/* Split the input into the slots' answers. */
static void slots_fill(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (size - off >= 7) {
		uint8_t ctl = data[off];
		uint16_t type = (uint16_t)(data[off + 1] | data[off + 2] << 8);
		uint16_t flags = (uint16_t)(data[off + 3] | data[off + 4] << 8);
		size_t plen = (size_t)(data[off + 5] | data[off + 6] << 8);
		struct slot *s = (ctl & 7) < S_COUNT ? &slots[ctl & 7] : NULL;

		off += 7;
		if (plen > size - off)
			plen = size - off;
		if (s && (ctl & 0x10) && !s->n)
			s->error = 1 + type % RDC_NL_MAX_ERRNO;
		else if (s && !s->error)
			slot_put(s, ctl & 0x08, type, flags, data + off, plen);
		off += plen;
	}
}

static void put_hex(FILE *fp, const char *prefix, const void *data, size_t len)
{
	static char hex[2 * MAX_DATAGRAM + 1];

	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
}

/* The slots as a recording, replayed: 0, or the loader's error (a bug of either). */
static int slots_open(struct rdc_err *err)
{
	int fd = memfd_create("fuzz_nl_reply.rec", MFD_CLOEXEC);
	FILE *fp;

	if (fd < 0)
		return -errno;
	fp = fdopen(dup(fd), "w");
	if (!fp) {
		close(fd);
		return -ENOMEM;
	}
	fprintf(fp, "# rdmactl kernel recording v1\n");
	for (int i = 0; i < S_COUNT; i++) {
		const struct slot *s = &slots[i];
		char prefix[16];

		if (!s->n && !s->error)
			continue;
		snprintf(prefix, sizeof(prefix), "> nl %d ", s->proto);
		put_hex(fp, prefix, s->req, ((const struct nlmsghdr *)s->req)->nlmsg_len);
		if (s->error)
			fprintf(fp, "! %d\n", s->error);
		for (size_t d = 0; d < s->n; d++)
			put_hex(fp, "< ", s->dgram[d], s->len[d]);
	}
	fclose(fp);
	lseek(fd, 0, SEEK_SET);
	return rdc_nl_open_replay_fd(fd, "fuzz_nl_reply.rec", err);
}

static void check_rc(const char *reader, int rc, const struct rdc_err *err)
{
	char what[128];

	snprintf(what, sizeof(what), "%s: a result that is no -errno (%d)", reader, rc);
	if (rc > 0 || rc < -RDC_NL_MAX_ERRNO)
		fuzz_fail("fuzz_nl_reply", what);
	snprintf(what, sizeof(what), "%s: error %d without its record (code %d, '%s')", reader, rc,
		 err->code, err->msg);
	if (rc && (rc != -err->code || !err->msg[0]))
		fuzz_fail("fuzz_nl_reply", what);
}

static void terminated(const char *reader, const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		fuzz_fail(reader, "a name without its NUL");
}

static void read_dcb(void)
{
	static struct rdc_dcb dcb;
	struct rdc_err err = {0};
	int rc = rdc_dcbnl_get(IFNAME, &dcb, &err);

	check_rc("rdc_dcbnl_get", rc, &err);
	if (rc)
		return;
	if (dcb.napps > RDC_DCB_MAX_APPS)
		fuzz_fail("rdc_dcbnl_get", "more APP entries than the array holds");
	for (size_t i = 0; i < dcb.napps; i++)
		if (dcb.apps[i].priority > 7)
			fuzz_fail("rdc_dcbnl_get", "an APP entry past priority 7 kept");
	for (int i = 0; dcb.have_ets && i < IEEE_8021QAZ_MAX_TCS; i++)
		if (dcb.ets.prio_tc[i] >= IEEE_8021QAZ_MAX_TCS || dcb.ets.tc_tx_bw[i] > 100)
			fuzz_fail("rdc_dcbnl_get", "an ETS section the kernel would refuse kept");
}

static void read_stats(void)
{
	struct rdc_counter_set set = {0};
	struct rdc_err err = {0};
	int rc = rdc_ethtool_std_stats(IFNAME, &set, &err);

	check_rc("rdc_ethtool_std_stats", rc, &err);
	if (set.count > set.cap)
		fuzz_fail("rdc_ethtool_std_stats", "more counters than room");
	rdc_counters_free(&set);
}

static void read_bonds(void)
{
	static struct rdc_bond_list list;
	struct rdc_err err = {0};
	int rc = rdc_bondnl_dump(&list, &err);

	check_rc("rdc_bondnl_dump", rc, &err);
	if (list.count > RDC_BOND_MAX)
		fuzz_fail("rdc_bondnl_dump", "more bonds than the list holds");
	for (size_t i = 0; i < list.count; i++) {
		const struct rdc_bond *b = &list.bonds[i];

		if (b->nmembers > RDC_BOND_MAX_MEMBERS)
			fuzz_fail("rdc_bondnl_dump", "more members than the bond holds");
		terminated("rdc_bondnl_dump", b->name, sizeof(b->name));
		terminated("rdc_bondnl_dump", b->primary, sizeof(b->primary));
		terminated("rdc_bondnl_dump", b->active_member, sizeof(b->active_member));
		terminated("rdc_bondnl_dump", b->ad_partner_mac, sizeof(b->ad_partner_mac));
		for (size_t m = 0; m < b->nmembers; m++) {
			terminated("rdc_bondnl_dump", b->members[m].name,
				   sizeof(b->members[m].name));
			terminated("rdc_bondnl_dump", b->members[m].duplex,
				   sizeof(b->members[m].duplex));
			terminated("rdc_bondnl_dump", b->members[m].perm_hwaddr,
				   sizeof(b->members[m].perm_hwaddr));
		}
	}
}

static void read_addrs(void)
{
	struct rdc_addr4_list l4;
	struct rdc_addr6_list l6;
	struct rdc_err err = {0};
	int rc = rdc_addr4_list(&l4, &err);

	check_rc("rdc_addr4_list", rc, &err);
	for (size_t i = 0; !rc && i < l4.count; i++) {
		if (l4.items[i].prefix_len > 32)
			fuzz_fail("rdc_addr4_list", "a prefix longer than 32");
		terminated("rdc_addr4_list", l4.items[i].ifname, sizeof(l4.items[i].ifname));
	}
	rdc_addr4_list_free(&l4);
	memset(&err, 0, sizeof(err));
	rc = rdc_addr6_list(&l6, &err);
	check_rc("rdc_addr6_list", rc, &err);
	for (size_t i = 0; !rc && i < l6.count; i++)
		if (l6.items[i].prefix_len > 128 || l6.items[i].ifindex <= 0)
			fuzz_fail("rdc_addr6_list", "a prefix longer than 128, or no ifindex");
	rdc_addr6_list_free(&l6);
}

static void read_all(void)
{
	read_dcb();
	read_stats();
	read_bonds();
	read_addrs();
}

/* An ACK (NLMSG_ERROR 0) or a dump's DONE (status 0): the least answer a request can have. */
static void put_end(struct slot *s, bool dump)
{
	struct nlmsgerr e = {0};
	int32_t status = 0;

	if (dump)
		slot_put(s, false, NLMSG_DONE, NLM_F_MULTI, &status, sizeof(status));
	else
		slot_put(s, false, NLMSG_ERROR, NLM_F_CAPPED, &e, sizeof(e));
}

/*
 * Every template asked: each slot a minimal answer (the controller's with
 * family ETHTOOL_ID), replayed strictly; an answer left unused is a request
 * the readers no longer send as written here.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char ctrl[64] __attribute__((aligned(4))) = {0};
	struct nlmsghdr *nlh = (struct nlmsghdr *)ctrl;
	struct genlmsghdr *g;
	struct rdc_err err = {0};
	int rc;

	(void)argc;
	(void)argv;
	requests();
	nlh->nlmsg_len = NLMSG_HDRLEN;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, ETHTOOL_ID);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	slot_put(&slots[S_CTRL], true, GENL_ID_CTRL, 0, ctrl + NLMSG_HDRLEN,
		 nlh->nlmsg_len - NLMSG_HDRLEN);
	for (int i = 0; i < S_COUNT; i++)
		put_end(&slots[i], i >= S_LINKS);
	rc = slots_open(&err);
	if (rc)
		fuzz_fail("fuzz_nl_reply", err.msg);
	rdc_nl_set_strict(RDC_NL_STRICT_ALL);
	read_all();
	rc = rdc_nl_strict_check(&err);
	if (rc) {
		fprintf(stderr, "fuzz_nl_reply: %s (%s)\n", err.msg, err.detail);
		fuzz_fail("fuzz_nl_reply", "the request templates are out of step with lib/kernel");
	}
	rdc_nl_close();
	slots_clear();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_err err = {0};
	int rc;

	slots_fill(data, size);
	rc = slots_open(&err);
	if (rc) {
		/* Every message is whole: a recording of them always loads. */
		fprintf(stderr, "fuzz_nl_reply: %s\n", err.msg);
		fuzz_fail("fuzz_nl_reply", "a recording of whole messages did not load");
	}
	read_all();
	rdc_nl_close();
	slots_clear();
	return 0;
}
