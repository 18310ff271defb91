// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bondnl.c - bonds in an RTM_GETLINK dump replayed through the transport, and the writes */
#include <errno.h>
#include <net/if.h>
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

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "kernel/bondnl.h"
#include "seam/nl.h"

static char rec_path[64];
static FILE *rec_fp;
/* One datagram of the reply being built; the kernel packs many messages in one. */
static char dgram[65536] __attribute__((aligned(4)));
static size_t dgram_len;
static struct rdc_bond_list list; /* 80 KB: kept off the stack */

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
		struct ifinfomsg i;
	} req = {.h = {.nlmsg_len = sizeof(req),
		       .nlmsg_type = RTM_GETLINK,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP}};

	assert_int_equal(sizeof(req), 32);
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

/* A new RTM_NEWLINK at the end of the datagram; NULL @name: no IFLA_IFNAME. */
static struct nlmsghdr *link_begin(int ifindex, const char *name, unsigned int flags)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	memset(dgram + dgram_len, 0, 4096);
	nlh = mnl_nlmsg_put_header(dgram + dgram_len);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_MULTI;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = flags;
	if (name)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static void link_end(struct nlmsghdr *nlh)
{
	dgram_len += MNL_ALIGN(nlh->nlmsg_len);
	assert_true(dgram_len + 4096 < sizeof(dgram));
}

static void put_mtu_carrier(struct nlmsghdr *nlh, uint32_t mtu, bool carrier)
{
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	mnl_attr_put_u8(nlh, IFLA_CARRIER, carrier);
}

struct member_spec {
	int ifindex;
	const char *name;
	int master;
	uint8_t state, mii;
	uint32_t link_failures;
	bool carrier;
	size_t hwlen; /* PERM_HWADDR bytes, 0: none */
	int agg, actor, partner;
	size_t partner_len; /* 1 (as iproute2 reads it) or 2 (as the kernel sends it) */
};

static void put_member(const struct member_spec *s)
{
	static const uint8_t hw[20] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0xaa};
	struct nlmsghdr *nlh = link_begin(s->ifindex, s->name, IFF_UP);
	struct nlattr *li, *data;

	put_mtu_carrier(nlh, 9000, s->carrier);
	mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)s->master);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_STATE, s->state);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_MII_STATUS, s->mii);
	mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, s->link_failures);
	if (s->hwlen) {
		uint8_t addr[20];

		memcpy(addr, hw, sizeof(addr));
		addr[5] = (uint8_t)s->ifindex;
		mnl_attr_put(nlh, IFLA_BOND_SLAVE_PERM_HWADDR, s->hwlen, addr);
	}
	mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_QUEUE_ID, 0); /* not read: must be skipped */
	if (s->agg) {
		mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, (uint16_t)s->agg);
		mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, (uint8_t)s->actor);
		if (s->partner_len == 2)
			mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE,
					 (uint16_t)s->partner);
		else
			mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE,
					(uint8_t)s->partner);
	}
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	link_end(nlh);
}

/* A bond's message up to the open IFLA_INFO_DATA; bond_end() closes both nests. */
static struct nlmsghdr *bond_begin(int ifindex, const char *name, struct nlattr **li,
				   struct nlattr **data)
{
	struct nlmsghdr *nlh = link_begin(ifindex, name, IFF_UP | IFF_MASTER);

	put_mtu_carrier(nlh, 9000, true);
	*li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	*data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	return nlh;
}

static void bond_end(struct nlmsghdr *nlh, struct nlattr *li, struct nlattr *data)
{
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	link_end(nlh);
}

static int replay_dump(struct rdc_err *err)
{
	rdc_err_clear(err);
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, err), 0);
	return rdc_bondnl_dump(&list, err);
}

static const struct rdc_bond *find_bond(const char *name)
{
	for (size_t i = 0; i < list.count; i++)
		if (!strcmp(list.bonds[i].name, name))
			return &list.bonds[i];
	fail_msg("no bond '%s' in the dump", name);
	return NULL;
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(rec_path, sizeof(rec_path), "/tmp/rdmactl-test-bond-XXXXXX");
	fd = mkstemp(rec_path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (rec_fp)
		fclose(rec_fp);
	rec_fp = NULL;
	rdc_nl_close();
	unlink(rec_path);
	return 0;
}

/*
 * A host in ifindex order, as the kernel dumps it (members before their
 * bonds), over two datagrams:
 *
 *   1 lo          no LINKINFO
 *   2,3 eth0/1    members of bond0 (active-backup): eth0 active, eth1 backup and down
 *   4,5 eth2/3    members of bond1 (802.3ad), partner state as u16 and as u8
 *   6,7 eth4/5    members of bond2 (balance-xor)
 *   8 eth6        a member of ifindex 99, which the dump does not show
 *   9 veth0       another kind, with its own IFLA_INFO_DATA
 *   10-12         bond0, bond1, bond2
 */
static void write_host(void)
{
	static const uint8_t partner[6] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
	const struct member_spec members[] = {
		{2, "eth0", 10, 0, 0, 1, true, 6, 0, 0, 0, 0},
		{3, "eth1", 10, 1, 2, 4, false, 6, 0, 0, 0, 0},
		{4, "eth2", 11, 0, 0, 0, true, 6, 1, 63, 63, 2},
		{5, "eth3", 11, 0, 0, 0, true, 20, 1, 61, 61, 1},
		{6, "eth4", 12, 0, 0, 0, true, 6, 0, 0, 0, 0},
		{7, "eth5", 12, 0, 0, 0, true, 6, 0, 0, 0, 0},
		{8, "eth6", 99, 0, 0, 0, true, 6, 0, 0, 0, 0},
	};
	struct nlattr *li, *data, *ad;
	struct nlmsghdr *nlh;

	rec_start();
	nlh = link_begin(1, "lo", IFF_UP | IFF_LOOPBACK);
	put_mtu_carrier(nlh, 65536, true);
	link_end(nlh);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(members); i++) {
		put_member(&members[i]);
		if (i == 2)
			rec_flush(); /* a dump is many datagrams */
	}

	nlh = link_begin(9, "veth0", 0);
	put_mtu_carrier(nlh, 1500, false);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u32(nlh, 1, 12345);
	bond_end(nlh, li, data);

	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_ACTIVE_BACKUP);
	mnl_attr_put_u32(nlh, IFLA_BOND_ACTIVE_SLAVE, 2);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 100);
	mnl_attr_put_u32(nlh, IFLA_BOND_UPDELAY, 200);
	mnl_attr_put_u32(nlh, IFLA_BOND_DOWNDELAY, 300);
	mnl_attr_put_u8(nlh, IFLA_BOND_USE_CARRIER, 1); /* not read: skipped */
	mnl_attr_put_u32(nlh, IFLA_BOND_ARP_INTERVAL, 0);
	mnl_attr_put_u32(nlh, IFLA_BOND_PRIMARY, 3);
	mnl_attr_put_u8(nlh, IFLA_BOND_XMIT_HASH_POLICY, RDC_BOND_HASH_L2);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIN_LINKS, 0);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_LACP_RATE, 0);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_SELECT, 0);
	mnl_attr_put_u32(nlh, 200, 7); /* from a kernel newer than any table */
	bond_end(nlh, li, data);

	nlh = bond_begin(11, "bond1", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_8023AD);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 100);
	mnl_attr_put_u32(nlh, IFLA_BOND_UPDELAY, 0);
	mnl_attr_put_u32(nlh, IFLA_BOND_DOWNDELAY, 0);
	mnl_attr_put_u8(nlh, IFLA_BOND_XMIT_HASH_POLICY, RDC_BOND_HASH_L34);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIN_LINKS, 1);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_LACP_RATE, 1);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_SELECT, 2);
	ad = mnl_attr_nest_start(nlh, IFLA_BOND_AD_INFO);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_AGGREGATOR, 1);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_NUM_PORTS, 2);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_ACTOR_KEY, 15);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_PARTNER_KEY, 33);
	mnl_attr_put(nlh, IFLA_BOND_AD_INFO_PARTNER_MAC, sizeof(partner), partner);
	mnl_attr_nest_end(nlh, ad);
	bond_end(nlh, li, data);

	nlh = bond_begin(12, "bond2", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_BALANCE_XOR);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 50);
	mnl_attr_put_u8(nlh, IFLA_BOND_XMIT_HASH_POLICY, RDC_BOND_HASH_L23);
	bond_end(nlh, li, data);
	rec_finish();
}

static void test_init(void **state)
{
	struct rdc_bond b;

	(void)state;
	memset(&b, 0x5a, sizeof(b));
	rdc_bondnl_init(&b);
	assert_string_equal(b.name, "");
	assert_int_equal(b.ifindex, -1);
	assert_int_equal(b.mtu, -1);
	assert_int_equal(b.mode, -1);
	assert_int_equal(b.xmit_hash_policy, -1);
	assert_int_equal(b.lacp_rate, -1);
	assert_int_equal(b.ad_select, -1);
	assert_int_equal(b.miimon_ms, -1);
	assert_int_equal(b.updelay_ms, -1);
	assert_int_equal(b.downdelay_ms, -1);
	assert_int_equal(b.arp_interval_ms, -1);
	assert_int_equal(b.min_links, -1);
	assert_int_equal(b.ad_aggregator_id, -1);
	assert_int_equal(b.ad_num_ports, -1);
	assert_int_equal(b.ad_actor_key, -1);
	assert_int_equal(b.ad_partner_key, -1);
	assert_string_equal(b.primary, "");
	assert_string_equal(b.active_member, "");
	assert_string_equal(b.ad_partner_mac, "");
	assert_string_equal(b.rdma_device, "");
	assert_false(b.admin_up || b.carrier);
	assert_int_equal(b.nmembers, 0);
	/* A member added by hand (from procfs) starts unknown as well. */
	assert_int_equal(b.members[0].state, -1);
	assert_int_equal(b.members[0].mii_status, -1);
	assert_int_equal(b.members[0].link_failure_count, -1);
	assert_int_equal(b.members[0].speed_mbps, -1);
	assert_int_equal(b.members[0].mtu, -1);
	assert_int_equal(b.members[0].aggregator_id, -1);
	assert_int_equal(b.members[0].actor_port_state, -1);
	assert_int_equal(b.members[0].partner_port_state, -1);
	assert_int_equal(b.members[RDC_BOND_MAX_MEMBERS - 1].ifindex, -1);
	assert_string_equal(b.members[RDC_BOND_MAX_MEMBERS - 1].duplex, "");
	assert_string_equal(b.members[RDC_BOND_MAX_MEMBERS - 1].perm_hwaddr, "");
}

static void test_dump_active_backup(void **state)
{
	struct rdc_err err;
	const struct rdc_bond *b;
	const struct rdc_bond_member *m;

	(void)state;
	write_host();
	assert_int_equal(replay_dump(&err), 0);
	assert_int_equal(list.count, 3);
	b = find_bond("bond0");
	assert_int_equal(b->ifindex, 10);
	assert_true(b->admin_up && b->carrier);
	assert_int_equal(b->mtu, 9000);
	assert_int_equal(b->mode, RDC_BOND_ACTIVE_BACKUP);
	assert_int_equal(b->miimon_ms, 100);
	assert_int_equal(b->updelay_ms, 200);
	assert_int_equal(b->downdelay_ms, 300);
	assert_int_equal(b->arp_interval_ms, 0);
	assert_int_equal(b->xmit_hash_policy, RDC_BOND_HASH_L2);
	assert_int_equal(b->min_links, 0);
	assert_string_equal(b->active_member, "eth0");
	assert_string_equal(b->primary, "eth1");
	/* No AD_INFO outside 802.3ad. */
	assert_int_equal(b->ad_aggregator_id, -1);
	assert_string_equal(b->ad_partner_mac, "");
	assert_int_equal(b->nmembers, 2);
	m = &b->members[0];
	assert_string_equal(m->name, "eth0");
	assert_int_equal(m->ifindex, 2);
	assert_int_equal(m->state, 0);
	assert_int_equal(m->mii_status, 0);
	assert_int_equal(m->link_failure_count, 1);
	assert_string_equal(m->perm_hwaddr, "02:00:00:00:00:02");
	assert_int_equal(m->mtu, 9000);
	assert_true(m->carrier);
	/* Not in netlink: the model fills them. */
	assert_int_equal(m->speed_mbps, -1);
	assert_string_equal(m->duplex, "");
	assert_int_equal(m->aggregator_id, -1);
	assert_int_equal(m->actor_port_state, -1);
	assert_int_equal(m->partner_port_state, -1);
	m = &b->members[1];
	assert_string_equal(m->name, "eth1");
	assert_int_equal(m->state, 1);
	assert_int_equal(m->mii_status, 2);
	assert_int_equal(m->link_failure_count, 4);
	assert_false(m->carrier);
}

static void test_dump_8023ad(void **state)
{
	struct rdc_err err;
	const struct rdc_bond *b;

	(void)state;
	write_host();
	assert_int_equal(replay_dump(&err), 0);
	b = find_bond("bond1");
	assert_int_equal(b->mode, RDC_BOND_8023AD);
	assert_int_equal(b->xmit_hash_policy, RDC_BOND_HASH_L34);
	assert_int_equal(b->lacp_rate, 1);
	assert_int_equal(b->ad_select, 2);
	assert_int_equal(b->min_links, 1);
	assert_int_equal(b->ad_aggregator_id, 1);
	assert_int_equal(b->ad_num_ports, 2);
	assert_int_equal(b->ad_actor_key, 15);
	assert_int_equal(b->ad_partner_key, 33);
	assert_string_equal(b->ad_partner_mac, "00:11:22:33:44:55");
	assert_string_equal(b->active_member, "");
	assert_string_equal(b->primary, "");
	assert_int_equal(b->nmembers, 2);
	assert_string_equal(b->members[0].name, "eth2");
	assert_int_equal(b->members[0].aggregator_id, 1);
	assert_int_equal(b->members[0].actor_port_state, 63);
	assert_int_equal(b->members[0].partner_port_state, 63); /* sent as a u16 */
	assert_string_equal(b->members[1].name, "eth3");
	assert_int_equal(b->members[1].actor_port_state, 61);
	assert_int_equal(b->members[1].partner_port_state, 61); /* sent as a u8 */
	assert_int_equal(b->members[1].actor_port_state & RDC_LACP_TIMEOUT, 0);
	/* A 20-byte (IPoIB) address does not fit "aa:bb:..." of 18: left unknown. */
	assert_string_equal(b->members[1].perm_hwaddr, "");
}

static void test_dump_balance_xor(void **state)
{
	struct rdc_err err;
	const struct rdc_bond *b;

	(void)state;
	write_host();
	assert_int_equal(replay_dump(&err), 0);
	b = find_bond("bond2");
	assert_int_equal(b->ifindex, 12);
	assert_int_equal(b->mode, RDC_BOND_BALANCE_XOR);
	assert_int_equal(b->xmit_hash_policy, RDC_BOND_HASH_L23);
	assert_int_equal(b->miimon_ms, 50);
	/* What the kernel did not send stays unknown. */
	assert_int_equal(b->updelay_ms, -1);
	assert_int_equal(b->lacp_rate, -1);
	assert_int_equal(b->min_links, -1);
	assert_int_equal(b->nmembers, 2);
	assert_string_equal(b->members[0].name, "eth4");
	assert_string_equal(b->members[1].name, "eth5");
}

static void test_dump_leaves_out_others(void **state)
{
	struct rdc_err err;

	(void)state;
	write_host();
	assert_int_equal(replay_dump(&err), 0);
	/* lo, veth0 are no bonds; eth6's master 99 is not in the dump. */
	assert_int_equal(list.count, 3);
	for (size_t i = 0; i < list.count; i++) {
		assert_string_not_equal(list.bonds[i].name, "lo");
		assert_string_not_equal(list.bonds[i].name, "veth0");
		for (size_t j = 0; j < list.bonds[i].nmembers; j++)
			assert_string_not_equal(list.bonds[i].members[j].name, "eth6");
	}
}

static void test_dump_empty(void **state)
{
	struct rdc_err err;

	(void)state;
	rec_start();
	rec_finish();
	assert_int_equal(replay_dump(&err), 0);
	assert_int_equal(list.count, 0);
}

/* ---- hostile recordings: a clean -EBADMSG or -E2BIG, never a crash ---- */

static void expect_bad(const char *what)
{
	struct rdc_err err;

	assert_int_equal(replay_dump(&err), -EBADMSG);
	assert_int_equal(err.code, EBADMSG);
	assert_non_null(strstr(err.msg, "malformed RTM_NEWLINK"));
	if (!strstr(err.msg, what))
		fail_msg("'%s' does not say '%s'", err.msg, what);
	assert_int_equal(list.count, 0);
}

static void test_bad_truncated_attr(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *a;

	(void)state;
	rec_start();
	nlh = link_begin(3, "eth0", 0);
	a = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, IFLA_MTU, 1500);
	a->nla_len += 8; /* claims bytes past the end of the message */
	link_end(nlh);
	rec_finish();
	expect_bad("not attributes");
}

static void test_bad_truncated_nested(void **state)
{
	const struct member_spec s = {2, "eth0", 10, 0, 0, 1, true, 6, 0, 0, 0, 0};
	struct nlmsghdr *nlh;
	struct nlattr *li, *data, *a;

	(void)state;
	rec_start();
	put_member(&s);
	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, 1);
	a = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 100);
	bond_end(nlh, li, data);
	a->nla_len += 4; /* past IFLA_INFO_DATA, still inside the message */
	rec_finish();
	expect_bad("IFLA_INFO_DATA holds 8 bytes that are not attributes");
}

static void test_bad_u32_length(void **state)
{
	uint16_t mtu = 1500;
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(3, "eth0", 0);
	mnl_attr_put(nlh, IFLA_MTU, sizeof(mtu), &mtu);
	link_end(nlh);
	rec_finish();
	expect_bad("IFLA_MTU has 2 bytes, expected 4 bytes");
}

static void test_bad_u32_too_long(void **state)
{
	uint64_t miimon = 100;
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;

	(void)state;
	rec_start();
	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put(nlh, IFLA_BOND_MIIMON, sizeof(miimon), &miimon);
	bond_end(nlh, li, data);
	rec_finish();
	expect_bad("IFLA_BOND_MIIMON has 8 bytes, expected 4 bytes");
}

static void test_bad_partner_state_length(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;

	(void)state;
	rec_start();
	nlh = link_begin(2, "eth0", 0);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 10);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE, 63);
	bond_end(nlh, li, data);
	rec_finish();
	expect_bad("expected 1 or 2 bytes");
}

static void test_bad_not_a_nest(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(10, "bond0", 0);
	/* "bond\0" where a nest should be: its first bytes read as a huge nla_len. */
	mnl_attr_put_strz(nlh, IFLA_LINKINFO, "bond");
	link_end(nlh);
	rec_finish();
	expect_bad("IFLA_LINKINFO holds 5 bytes that are not attributes");
}

static void test_bad_short_nest(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;

	(void)state;
	rec_start();
	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO, 1); /* 2 bytes: not even one header */
	bond_end(nlh, li, data);
	rec_finish();
	expect_bad("IFLA_BOND_AD_INFO has 2 bytes, expected nested attributes");
}

static void test_bad_bad_mac(void **state)
{
	static const uint8_t mac[5] = {1, 2, 3, 4, 5};
	struct nlmsghdr *nlh;
	struct nlattr *li, *data, *ad;

	(void)state;
	rec_start();
	nlh = bond_begin(10, "bond0", &li, &data);
	ad = mnl_attr_nest_start(nlh, IFLA_BOND_AD_INFO);
	mnl_attr_put(nlh, IFLA_BOND_AD_INFO_PARTNER_MAC, sizeof(mac), mac);
	mnl_attr_nest_end(nlh, ad);
	bond_end(nlh, li, data);
	rec_finish();
	expect_bad("IFLA_BOND_AD_INFO_PARTNER_MAC has 5 bytes, expected 6 bytes");
}

static void test_bad_ifname_unterminated(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(3, NULL, 0);
	mnl_attr_put(nlh, IFLA_IFNAME, 4, "eth0");
	link_end(nlh);
	rec_finish();
	expect_bad("IFLA_IFNAME has 4 bytes");
}

static void test_bad_ifname_too_long(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(3, "a-name-of-20-chars!!", 0);
	link_end(nlh);
	rec_finish();
	expect_bad("IFLA_IFNAME has 21 bytes, expected a NUL-terminated name");
}

static void test_bad_short_message(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	memset(dgram, 0, 64);
	nlh = mnl_nlmsg_put_header(dgram);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, 8); /* half an ifinfomsg */
	link_end(nlh);
	rec_finish();
	expect_bad("shorter than its ifinfomsg");
}

static void test_bad_unpadded_message(void **state)
{
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(1, "lo", 0); /* 16 + 16 + 4 + "lo\0" = 39 bytes, 40 with padding */
	nlh->nlmsg_len = 39;
	/* Alone in a 39-byte datagram: its padding would lie past the end. */
	hexline(rec_fp, "< ", dgram, 39);
	rec_finish();
	expect_bad("not a multiple of 4");
}

static void test_bad_no_ifindex(void **state)
{
	(void)state;
	rec_start();
	link_end(link_begin(0, "ghost", 0));
	rec_finish();
	expect_bad("no ifindex");
}

/* The cause is kept: a recording cut short after a malformed message is still -EBADMSG. */
static void test_bad_then_cut_short(void **state)
{
	uint16_t mtu = 1500;
	struct nlmsghdr *nlh;

	(void)state;
	rec_start();
	nlh = link_begin(3, "eth0", 0);
	mnl_attr_put(nlh, IFLA_MTU, sizeof(mtu), &mtu);
	link_end(nlh);
	rec_flush(); /* and no NLMSG_DONE */
	fclose(rec_fp);
	rec_fp = NULL;
	expect_bad("IFLA_MTU has 2 bytes");
}

static void test_too_many_members(void **state)
{
	struct nlmsghdr *nlh;
	struct rdc_err err;
	struct nlattr *li, *data;
	char name[IF_NAMESIZE];

	(void)state;
	rec_start();
	for (int i = 0; i <= RDC_BOND_MAX_MEMBERS; i++) {
		struct member_spec s = {100 + i, name, 10, 0, 0, 0, true, 6, 0, 0, 0, 0};

		snprintf(name, sizeof(name), "eth%d", i);
		put_member(&s);
	}
	nlh = bond_begin(10, "bond0", &li, &data);
	bond_end(nlh, li, data);
	rec_finish();
	assert_int_equal(replay_dump(&err), -E2BIG);
	assert_int_equal(err.code, E2BIG);
	assert_string_equal(err.msg, "bond 'bond0' has more than 16 members");
	assert_int_equal(list.count, 0);
}

static void test_too_many_bonds(void **state)
{
	struct nlmsghdr *nlh;
	struct rdc_err err;
	struct nlattr *li, *data;
	char name[IF_NAMESIZE];

	(void)state;
	rec_start();
	for (int i = 0; i <= RDC_BOND_MAX; i++) {
		snprintf(name, sizeof(name), "bond%d", i);
		nlh = bond_begin(10 + i, name, &li, &data);
		bond_end(nlh, li, data);
	}
	rec_finish();
	assert_int_equal(replay_dump(&err), -E2BIG);
	assert_non_null(strstr(err.msg, "'bond32'"));
	assert_int_equal(list.count, 0);
}

/* An interrupted dump may repeat a link: the later copy replaces the earlier. */
static void test_repeated_links(void **state)
{
	const struct member_spec s = {2, "eth0", 10, 1, 0, 0, true, 6, 0, 0, 0, 0};
	const struct member_spec again = {2, "eth0", 10, 0, 0, 0, true, 6, 0, 0, 0, 0};
	struct rdc_err err;
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;

	(void)state;
	rec_start();
	put_member(&s);
	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_BALANCE_RR);
	bond_end(nlh, li, data);
	put_member(&again);
	nlh = bond_begin(10, "bond0", &li, &data);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, RDC_BOND_ACTIVE_BACKUP);
	mnl_attr_put_u32(nlh, IFLA_BOND_ACTIVE_SLAVE, 2);
	bond_end(nlh, li, data);
	rec_finish();
	assert_int_equal(replay_dump(&err), 0);
	assert_int_equal(list.count, 1);
	assert_int_equal(list.bonds[0].mode, RDC_BOND_ACTIVE_BACKUP);
	assert_string_equal(list.bonds[0].active_member, "eth0");
	assert_int_equal(list.bonds[0].nmembers, 1);
	assert_int_equal(list.bonds[0].members[0].state, 0);
}

/* ---- the write requests ------------------------------------------------ */

static struct nlmsghdr *expect_begin(char *buf, uint16_t type, uint16_t flags, int ifindex)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	memset(buf, 0, 512);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = ifindex;
	return nlh;
}

static void assert_request(const char *got, int len, const struct nlmsghdr *want)
{
	assert_int_equal(len, want->nlmsg_len);
	assert_memory_equal(got, want, want->nlmsg_len);
}

static void test_build_create(void **state)
{
	struct rdc_bond_opts o = {0};
	char got[512] __attribute__((aligned(4))), want[512] __attribute__((aligned(4)));
	struct rdc_err err = {0};
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;
	const struct nlattr *a;
	uint16_t order[8];
	size_t n = 0;
	int len;

	(void)state;
	/* ip link add bond0 type bond mode 802.3ad miimon 100 lacp_rate fast xmit_hash_policy layer3+4 */
	o.hash_given = o.miimon_given = o.lacp_rate_given = o.mode_given = true;
	o.mode = RDC_BOND_8023AD;
	o.miimon_ms = 100;
	o.lacp_rate = 1;
	o.hash = RDC_BOND_HASH_L34;
	len = rdc_bondnl_build_create(got, sizeof(got), "bond0", &o, &err);
	nlh = expect_begin(want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
			   0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "bond0");
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, 4);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIIMON, 100);
	mnl_attr_put_u8(nlh, IFLA_BOND_XMIT_HASH_POLICY, 1);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_LACP_RATE, 1);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	assert_request(got, len, nlh);

	/* The same, read back: mode first, then the options in the header's order. */
	nlh = (struct nlmsghdr *)(void *)got;
	mnl_attr_for_each (a, nlh, sizeof(struct ifinfomsg)) {
		const struct nlattr *in, *opt;

		if (mnl_attr_get_type(a) != IFLA_LINKINFO)
			continue;
		mnl_attr_for_each_nested (in, a) {
			if (mnl_attr_get_type(in) != IFLA_INFO_DATA)
				continue;
			mnl_attr_for_each_nested (opt, in)
				if (n < RDC_ARRAY_SIZE(order))
					order[n++] = mnl_attr_get_type(opt);
		}
	}
	assert_int_equal(n, 4);
	assert_int_equal(order[0], IFLA_BOND_MODE);
	assert_int_equal(order[1], IFLA_BOND_MIIMON);
	assert_int_equal(order[2], IFLA_BOND_XMIT_HASH_POLICY);
	assert_int_equal(order[3], IFLA_BOND_AD_LACP_RATE);
}

static void test_build_create_plain(void **state)
{
	char got[512] __attribute__((aligned(4))), want[512] __attribute__((aligned(4)));
	struct rdc_bond_opts none = {0};
	struct rdc_err err = {0};
	struct nlmsghdr *nlh;
	struct nlattr *li;
	int len;

	(void)state;
	/* ip link add bond0 type bond: no IFLA_INFO_DATA at all. */
	nlh = expect_begin(want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
			   0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "bond7");
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	mnl_attr_nest_end(nlh, li);
	len = rdc_bondnl_build_create(got, sizeof(got), "bond7", NULL, &err);
	assert_request(got, len, nlh);
	len = rdc_bondnl_build_create(got, sizeof(got), "bond7", &none, &err);
	assert_request(got, len, nlh);
}

static void test_build_set(void **state)
{
	char got[512] __attribute__((aligned(4))), want[512] __attribute__((aligned(4)));
	struct rdc_bond_opts o = {0};
	struct rdc_err err = {0};
	struct nlmsghdr *nlh;
	struct nlattr *li, *data;
	int len;

	(void)state;
	o.primary_given = o.min_links_given = o.downdelay_given = o.updelay_given = true;
	o.ad_select_given = true;
	o.updelay_ms = 200;
	o.downdelay_ms = 400;
	o.min_links = 1;
	o.ad_select = 1;
	o.primary_ifindex = 3;
	len = rdc_bondnl_build_set(got, sizeof(got), 10, &o, &err);
	nlh = expect_begin(want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 10);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u32(nlh, IFLA_BOND_UPDELAY, 200);
	mnl_attr_put_u32(nlh, IFLA_BOND_DOWNDELAY, 400);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_SELECT, 1);
	mnl_attr_put_u32(nlh, IFLA_BOND_MIN_LINKS, 1);
	mnl_attr_put_u32(nlh, IFLA_BOND_PRIMARY, 3);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	assert_request(got, len, nlh);
}

static void test_build_enslave_release_delete(void **state)
{
	char got[512] __attribute__((aligned(4))), want[512] __attribute__((aligned(4)));
	struct rdc_err err = {0};
	struct nlmsghdr *nlh;
	int len;

	(void)state;
	len = rdc_bondnl_build_enslave(got, sizeof(got), 3, 10, &err);
	nlh = expect_begin(want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 3);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 10);
	assert_request(got, len, nlh);

	len = rdc_bondnl_build_enslave(got, sizeof(got), 3, 0, &err);
	nlh = expect_begin(want, RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, 3);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 0);
	assert_request(got, len, nlh);

	len = rdc_bondnl_build_delete(got, sizeof(got), 10, &err);
	nlh = expect_begin(want, RTM_DELLINK, NLM_F_REQUEST | NLM_F_ACK, 10);
	assert_int_equal(nlh->nlmsg_len, 32);
	assert_request(got, len, nlh);
}

static void test_build_rejects(void **state)
{
	char buf[512] __attribute__((aligned(4)));
	struct rdc_bond_opts o = {0};
	struct rdc_err err = {0};

	(void)state;
	assert_int_equal(rdc_bondnl_build_create(buf, sizeof(buf), "", NULL, &err), -EINVAL);
	assert_int_equal(rdc_bondnl_build_create(buf, sizeof(buf), NULL, NULL, &err), -EINVAL);
	assert_int_equal(
		rdc_bondnl_build_create(buf, sizeof(buf), "bond-name-too-long", NULL, &err),
		-EINVAL);
	assert_non_null(strstr(err.msg, "too long"));
	/* An int that a u8 would carry as another value. */
	o.mode_given = true;
	o.mode = 260;
	assert_int_equal(rdc_bondnl_build_create(buf, sizeof(buf), "bond0", &o, &err), -EINVAL);
	assert_string_equal(err.msg, "bond mode 260 is out of range (0-255)");
	o.mode = 4;
	o.hash_given = true;
	o.hash = -1;
	assert_int_equal(rdc_bondnl_build_set(buf, sizeof(buf), 10, &o, &err), -EINVAL);
	o.hash_given = false;
	o.primary_given = true;
	o.primary_ifindex = -2;
	assert_int_equal(rdc_bondnl_build_set(buf, sizeof(buf), 10, &o, &err), -EINVAL);
	o.primary_given = false;
	assert_int_equal(rdc_bondnl_build_set(buf, sizeof(buf), 0, &o, &err), -EINVAL);
	assert_int_equal(rdc_bondnl_build_enslave(buf, sizeof(buf), 0, 10, &err), -EINVAL);
	assert_int_equal(rdc_bondnl_build_enslave(buf, sizeof(buf), 3, -1, &err), -EINVAL);
	assert_int_equal(rdc_bondnl_build_delete(buf, sizeof(buf), -5, &err), -EINVAL);
	/* Buffers too small for the header, or for the attributes. */
	assert_int_equal(rdc_bondnl_build_delete(buf, 16, 10, &err), -EMSGSIZE);
	assert_int_equal(rdc_bondnl_build_create(buf, 48, "bond0", &o, &err), -EMSGSIZE);
	assert_int_equal(rdc_bondnl_build_enslave(buf, 32, 3, 10, &err), -EMSGSIZE);
	assert_int_equal(rdc_bondnl_build_enslave(buf, 40, 3, 10, NULL), 40);
}

static void test_writes_refused(void **state)
{
	struct rdc_bond_opts o = {.miimon_given = true, .miimon_ms = 100};
	struct rdc_err err = {0};

	(void)state;
	/* A recording is read-only; the caller's words, the transport's reason as detail. */
	write_host();
	assert_int_equal(rdc_nl_open(RDC_NL_REPLAY, rec_path, &err), 0);
	assert_int_equal(rdc_bondnl_create("bond0", &o, &err), -EROFS);
	assert_string_equal(err.msg, "cannot create bond 'bond0'");
	assert_non_null(strstr(err.detail, "refused"));
	assert_int_equal(rdc_bondnl_set(10, "bond0", &o, &err), -EROFS);
	assert_string_equal(err.msg, "cannot change bond 'bond0'");
	assert_int_equal(rdc_bondnl_enslave(3, "eth0", 10, &err), -EROFS);
	assert_string_equal(err.msg, "cannot enslave 'eth0' to ifindex 10");
	assert_int_equal(rdc_bondnl_enslave(3, "eth0", 0, &err), -EROFS);
	assert_string_equal(err.msg, "cannot release 'eth0'");
	assert_int_equal(rdc_bondnl_delete(10, "bond0", &err), -EROFS);
	assert_string_equal(err.msg, "cannot delete 'bond0'");
	assert_int_equal(rdc_bondnl_delete(10, "bond0", NULL), -EROFS);
	/* Bad arguments are said as such, before any transport. */
	assert_int_equal(rdc_bondnl_create("bond-name-too-long", NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too long"));
	/* --root without a recording: no kernel, no dump. */
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);
	assert_int_equal(rdc_bondnl_dump(&list, &err), -ENODATA);
	assert_non_null(strstr(err.msg, "cannot read the bonds"));
	assert_int_equal(rdc_bondnl_create("bond0", NULL, &err), -EROFS);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_init),
		T(test_dump_active_backup),
		T(test_dump_8023ad),
		T(test_dump_balance_xor),
		T(test_dump_leaves_out_others),
		T(test_dump_empty),
		T(test_bad_truncated_attr),
		T(test_bad_truncated_nested),
		T(test_bad_u32_length),
		T(test_bad_u32_too_long),
		T(test_bad_partner_state_length),
		T(test_bad_not_a_nest),
		T(test_bad_short_nest),
		T(test_bad_bad_mac),
		T(test_bad_ifname_unterminated),
		T(test_bad_ifname_too_long),
		T(test_bad_short_message),
		T(test_bad_unpadded_message),
		T(test_bad_no_ifindex),
		T(test_bad_then_cut_short),
		T(test_too_many_members),
		T(test_too_many_bonds),
		T(test_repeated_links),
		T(test_build_create),
		T(test_build_create_plain),
		T(test_build_set),
		T(test_build_enslave_release_delete),
		T(test_build_rejects),
		T(test_writes_refused),
	};

	return cmocka_run_group_tests_name("bondnl", tests, NULL, NULL);
}
