// SPDX-License-Identifier: GPL-2.0-or-later
/* test_bond_procfs.c - /proc/net/bonding text into the bond record, and the bonding enum names */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bond/bond.h"
#include "bond/procfs.h"

/* Active-backup with a primary, after one failover (bond_procfs.c, 6.8). */
static const char sample_ab[] = "Ethernet Channel Bonding Driver: v6.8.0-51-generic\n"
				"\n"
				"Bonding Mode: fault-tolerance (active-backup)\n"
				"Primary Slave: ens1f0np0 (primary_reselect always)\n"
				"Currently Active Slave: ens1f1np1\n"
				"MII Status: up\n"
				"MII Polling Interval (ms): 100\n"
				"Up Delay (ms): 200\n"
				"Down Delay (ms): 0\n"
				"Peer Notification Delay (ms): 0\n"
				"\n"
				"Slave Interface: ens1f0np0\n"
				"MII Status: down\n"
				"Speed: Unknown\n"
				"Duplex: Unknown\n"
				"Link Failure Count: 3\n"
				"Permanent HW addr: b8:ce:f6:1a:2b:3c\n"
				"Slave queue ID: 0\n"
				"\n"
				"Slave Interface: ens1f1np1\n"
				"MII Status: up\n"
				"Speed: 100000 Mbps\n"
				"Duplex: full\n"
				"Link Failure Count: 0\n"
				"Permanent HW addr: b8:ce:f6:1a:2b:3d\n"
				"Slave queue ID: 0\n";

/* 802.3ad as root reads it: aggregator info and the LACPDU details blocks. */
static const char sample_lacp[] = "Ethernet Channel Bonding Driver: v6.8.0-51-generic\n"
				  "\n"
				  "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
				  "Transmit Hash Policy: layer3+4 (1)\n"
				  "MII Status: up\n"
				  "MII Polling Interval (ms): 100\n"
				  "Up Delay (ms): 0\n"
				  "Down Delay (ms): 0\n"
				  "Peer Notification Delay (ms): 0\n"
				  "\n"
				  "802.3ad info\n"
				  "LACP active: on\n"
				  "LACP rate: fast\n"
				  "Min links: 0\n"
				  "Aggregator selection policy (ad_select): stable\n"
				  "System priority: 65535\n"
				  "System MAC address: b8:ce:f6:1a:2b:3c\n"
				  "Active Aggregator Info:\n"
				  "\tAggregator ID: 1\n"
				  "\tNumber of ports: 2\n"
				  "\tActor Key: 29\n"
				  "\tPartner Key: 1001\n"
				  "\tPartner Mac Address: 44:38:39:ff:00:01\n"
				  "\n"
				  "Slave Interface: ens1f0np0\n"
				  "MII Status: up\n"
				  "Speed: 100000 Mbps\n"
				  "Duplex: full\n"
				  "Link Failure Count: 0\n"
				  "Permanent HW addr: b8:ce:f6:1a:2b:3c\n"
				  "Slave queue ID: 0\n"
				  "Aggregator ID: 1\n"
				  "Actor Churn State: none\n"
				  "Partner Churn State: none\n"
				  "Actor Churned Count: 0\n"
				  "Partner Churned Count: 0\n"
				  "details actor lacp pdu:\n"
				  "    system priority: 65535\n"
				  "    system mac address: b8:ce:f6:1a:2b:3c\n"
				  "    port key: 29\n"
				  "    port priority: 255\n"
				  "    port number: 1\n"
				  "    port state: 63\n"
				  "details partner lacp pdu:\n"
				  "    system priority: 32768\n"
				  "    system mac address: 44:38:39:ff:00:01\n"
				  "    oper key: 1001\n"
				  "    port priority: 32768\n"
				  "    port number: 17\n"
				  "    port state: 61\n"
				  "\n"
				  "Slave Interface: ens1f1np1\n"
				  "MII Status: up\n"
				  "Speed: 100000 Mbps\n"
				  "Duplex: full\n"
				  "Link Failure Count: 1\n"
				  "Permanent HW addr: b8:ce:f6:1a:2b:3d\n"
				  "Slave queue ID: 0\n"
				  "Aggregator ID: 2\n"
				  "Actor Churn State: churned\n"
				  "Partner Churn State: churned\n"
				  "Actor Churned Count: 1\n"
				  "Partner Churned Count: 1\n"
				  "details actor lacp pdu:\n"
				  "    system priority: 65535\n"
				  "    system mac address: b8:ce:f6:1a:2b:3c\n"
				  "    port key: 29\n"
				  "    port priority: 255\n"
				  "    port number: 2\n"
				  "    port state: 71\n"
				  "details partner lacp pdu:\n"
				  "    system priority: 65535\n"
				  "    system mac address: 00:00:00:00:00:00\n"
				  "    oper key: 1\n"
				  "    port priority: 255\n"
				  "    port number: 1\n"
				  "    port state: 2\n";

/* balance-xor under ARP monitoring (miimon 0), a member coming back and one at half duplex. */
static const char sample_xor[] = "Ethernet Channel Bonding Driver: v6.1.0-18-amd64\n"
				 "\n"
				 "Bonding Mode: load balancing (xor)\n"
				 "Transmit Hash Policy: layer2+3 (2)\n"
				 "MII Status: up\n"
				 "MII Polling Interval (ms): 0\n"
				 "Up Delay (ms): 0\n"
				 "Down Delay (ms): 0\n"
				 "Peer Notification Delay (ms): 0\n"
				 "ARP Polling Interval (ms): 1000\n"
				 "ARP Missed Max: 2\n"
				 "ARP IP target/s (n.n.n.n form): 10.0.0.1, 10.0.0.2\n"
				 "\n"
				 "Slave Interface: eth2\n"
				 "MII Status: up\n"
				 "Speed: 25000 Mbps\n"
				 "Duplex: full\n"
				 "Link Failure Count: 0\n"
				 "Permanent HW addr: 52:54:00:aa:bb:01\n"
				 "Slave queue ID: 0\n"
				 "\n"
				 "Slave Interface: eth3\n"
				 "MII Status: going back\n"
				 "Speed: 10000 Mbps\n"
				 "Duplex: half\n"
				 "Link Failure Count: 7\n"
				 "Permanent HW addr: 52:54:00:aa:bb:02\n"
				 "Slave queue ID: 2\n";

/*
 * A record as the model starts it (rdc_bondnl_init()), with the member slots
 * past nmembers filled with a pattern: a member the parser adds without
 * initialising every field shows up.
 */
static void bond_blank(struct rdc_bond *b)
{
	rdc_bondnl_init(b);
	memset(b->members, 0xa5, sizeof(b->members));
}

static int parse(const char *text, size_t len, struct rdc_bond *b, struct rdc_err *err)
{
	/* An exact-size heap copy: a read past the end is a sanitizer error, not luck. */
	char *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, text, len);
	rc = rdc_bond_procfs_parse(copy, len, b, err);
	free(copy);
	return rc;
}

static int parse_str(const char *text, struct rdc_bond *b, struct rdc_err *err)
{
	return parse(text, strlen(text), b, err);
}

/* The member fields procfs never speaks of stay unknown. */
static void assert_member_netlink_only_unknown(const struct rdc_bond_member *m)
{
	assert_int_equal(m->ifindex, -1);
	assert_int_equal(m->state, -1);
	assert_int_equal(m->mtu, -1);
	assert_false(m->carrier);
}

static void test_active_backup(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond b;
	const struct rdc_bond_member *m;

	(void)state;
	bond_blank(&b);
	assert_int_equal(parse_str(sample_ab, &b, &err), 0);
	assert_int_equal(b.mode, RDC_BOND_ACTIVE_BACKUP);
	assert_int_equal(b.xmit_hash_policy, -1); /* not printed in active-backup */
	assert_string_equal(b.primary, "ens1f0np0");
	assert_string_equal(b.active_member, "ens1f1np1");
	assert_true(b.carrier);
	assert_int_equal(b.miimon_ms, 100);
	assert_int_equal(b.updelay_ms, 200);
	assert_int_equal(b.downdelay_ms, 0);
	assert_int_equal(b.arp_interval_ms, -1);
	assert_int_equal(b.lacp_rate, -1);
	assert_int_equal(b.ad_select, -1);
	assert_int_equal(b.min_links, -1);
	assert_int_equal(b.ad_aggregator_id, -1);
	assert_int_equal(b.ad_num_ports, -1);
	assert_int_equal(b.ad_actor_key, -1);
	assert_int_equal(b.ad_partner_key, -1);
	assert_string_equal(b.ad_partner_mac, "");
	assert_int_equal(b.ifindex, -1);
	assert_int_equal(b.mtu, -1);
	assert_string_equal(b.name, "");
	assert_int_equal(b.nmembers, 2);

	m = &b.members[0];
	assert_string_equal(m->name, "ens1f0np0");
	assert_int_equal(m->mii_status, 2);
	assert_string_equal(rdc_bond_mii_status_name(m->mii_status), "down");
	assert_int_equal(m->speed_mbps, -1);
	assert_string_equal(m->duplex, "");
	assert_int_equal(m->link_failure_count, 3);
	assert_string_equal(m->perm_hwaddr, "b8:ce:f6:1a:2b:3c");
	assert_int_equal(m->aggregator_id, -1);
	assert_int_equal(m->actor_port_state, -1);
	assert_int_equal(m->partner_port_state, -1);
	assert_member_netlink_only_unknown(m);

	m = &b.members[1];
	assert_string_equal(m->name, "ens1f1np1");
	assert_int_equal(m->mii_status, 0);
	assert_int_equal(m->speed_mbps, 100000);
	assert_string_equal(m->duplex, "full");
	assert_int_equal(m->link_failure_count, 0);
	assert_string_equal(m->perm_hwaddr, "b8:ce:f6:1a:2b:3d");
	assert_int_equal(m->aggregator_id, -1);
	assert_int_equal(m->actor_port_state, -1);
	assert_int_equal(m->partner_port_state, -1);
	assert_member_netlink_only_unknown(m);
}

static void test_8023ad(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond b;
	const struct rdc_bond_member *m;

	(void)state;
	bond_blank(&b);
	assert_int_equal(parse_str(sample_lacp, &b, &err), 0);
	assert_int_equal(b.mode, RDC_BOND_8023AD);
	assert_int_equal(b.xmit_hash_policy, RDC_BOND_HASH_L34);
	assert_string_equal(b.primary, "");
	assert_string_equal(b.active_member, "");
	assert_true(b.carrier);
	assert_int_equal(b.miimon_ms, 100);
	assert_int_equal(b.updelay_ms, 0);
	assert_int_equal(b.downdelay_ms, 0);
	assert_int_equal(b.arp_interval_ms, -1);
	assert_int_equal(b.lacp_rate, 1);
	assert_int_equal(b.ad_select, 0);
	assert_int_equal(b.min_links, 0);
	assert_int_equal(b.ad_aggregator_id, 1);
	assert_int_equal(b.ad_num_ports, 2);
	assert_int_equal(b.ad_actor_key, 29);
	assert_int_equal(b.ad_partner_key, 1001);
	assert_string_equal(b.ad_partner_mac, "44:38:39:ff:00:01");
	assert_int_equal(b.nmembers, 2);

	m = &b.members[0];
	assert_string_equal(m->name, "ens1f0np0");
	assert_int_equal(m->mii_status, 0);
	assert_int_equal(m->speed_mbps, 100000);
	assert_string_equal(m->duplex, "full");
	assert_int_equal(m->link_failure_count, 0);
	assert_string_equal(m->perm_hwaddr, "b8:ce:f6:1a:2b:3c");
	assert_int_equal(m->aggregator_id, 1);
	assert_int_equal(m->actor_port_state, 63);
	assert_int_equal(m->partner_port_state, 61); /* healthy, slow partner */
	assert_member_netlink_only_unknown(m);

	/* Not in the active aggregator, partner defaulted: no LACPDUs from the switch. */
	m = &b.members[1];
	assert_string_equal(m->name, "ens1f1np1");
	assert_int_equal(m->mii_status, 0);
	assert_int_equal(m->speed_mbps, 100000);
	assert_string_equal(m->duplex, "full");
	assert_int_equal(m->link_failure_count, 1);
	assert_string_equal(m->perm_hwaddr, "b8:ce:f6:1a:2b:3d");
	assert_int_equal(m->aggregator_id, 2);
	assert_int_equal(m->actor_port_state, 71);
	assert_true(m->actor_port_state & RDC_LACP_DEFAULTED);
	assert_int_equal(m->partner_port_state, 2);
	assert_member_netlink_only_unknown(m);
}

static void test_balance_xor(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond b;
	const struct rdc_bond_member *m;

	(void)state;
	bond_blank(&b);
	assert_int_equal(parse_str(sample_xor, &b, &err), 0);
	assert_int_equal(b.mode, RDC_BOND_BALANCE_XOR);
	assert_int_equal(b.xmit_hash_policy, RDC_BOND_HASH_L23);
	assert_string_equal(b.primary, "");
	assert_string_equal(b.active_member, "");
	assert_true(b.carrier);
	assert_int_equal(b.miimon_ms, 0);
	assert_int_equal(b.updelay_ms, 0);
	assert_int_equal(b.downdelay_ms, 0);
	assert_int_equal(b.arp_interval_ms, 1000);
	assert_int_equal(b.lacp_rate, -1);
	assert_int_equal(b.ad_select, -1);
	assert_int_equal(b.min_links, -1);
	assert_int_equal(b.ad_aggregator_id, -1);
	assert_string_equal(b.ad_partner_mac, "");
	assert_int_equal(b.nmembers, 2);

	m = &b.members[0];
	assert_string_equal(m->name, "eth2");
	assert_int_equal(m->mii_status, 0);
	assert_int_equal(m->speed_mbps, 25000);
	assert_string_equal(m->duplex, "full");
	assert_int_equal(m->link_failure_count, 0);
	assert_string_equal(m->perm_hwaddr, "52:54:00:aa:bb:01");
	assert_int_equal(m->aggregator_id, -1);
	assert_int_equal(m->actor_port_state, -1);
	assert_int_equal(m->partner_port_state, -1);
	assert_member_netlink_only_unknown(m);

	m = &b.members[1];
	assert_string_equal(m->name, "eth3");
	assert_int_equal(m->mii_status, 3);
	assert_string_equal(rdc_bond_mii_status_name(m->mii_status), "going back");
	assert_int_equal(m->speed_mbps, 10000);
	assert_string_equal(m->duplex, "half");
	assert_int_equal(m->link_failure_count, 7);
	assert_string_equal(m->perm_hwaddr, "52:54:00:aa:bb:02");
	assert_member_netlink_only_unknown(m);
}

/* Netlink filled the record first: procfs updates its members by name and appends new ones. */
static void test_merge_by_name(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond b;
	struct rdc_bond_member *m;

	(void)state;
	bond_blank(&b);
	strcpy(b.name, "bond0");
	b.ifindex = 6;
	b.mtu = 9000;
	b.mode = RDC_BOND_ACTIVE_BACKUP;
	b.nmembers = 2;
	/* netlink's order is ifindex order, not procfs's: ens1f1np1 first */
	m = &b.members[0];
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "ens1f1np1");
	m->ifindex = 5;
	m->state = 0;
	m->mii_status = 0;
	m->link_failure_count = 0;
	m->speed_mbps = -1;
	m->mtu = 9000;
	strcpy(m->perm_hwaddr, "b8:ce:f6:1a:2b:3d");
	m->aggregator_id = m->actor_port_state = m->partner_port_state = -1;
	m->carrier = true;
	m = &b.members[1];
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "ens9");
	m->ifindex = 9;
	m->state = 1;
	m->mii_status = 0;
	m->link_failure_count = 5;
	m->speed_mbps = m->mtu = -1;
	m->aggregator_id = m->actor_port_state = m->partner_port_state = -1;

	assert_int_equal(parse_str(sample_ab, &b, &err), 0);
	assert_string_equal(b.name, "bond0");
	assert_int_equal(b.ifindex, 6);
	assert_int_equal(b.mtu, 9000);
	assert_int_equal(b.nmembers, 3);

	m = &b.members[0]; /* updated in place, netlink's values kept */
	assert_string_equal(m->name, "ens1f1np1");
	assert_int_equal(m->ifindex, 5);
	assert_int_equal(m->state, 0);
	assert_int_equal(m->mtu, 9000);
	assert_true(m->carrier);
	assert_int_equal(m->speed_mbps, 100000);
	assert_string_equal(m->duplex, "full");

	m = &b.members[1]; /* not in the text: untouched */
	assert_string_equal(m->name, "ens9");
	assert_int_equal(m->ifindex, 9);
	assert_int_equal(m->state, 1);
	assert_int_equal(m->link_failure_count, 5);
	assert_int_equal(m->speed_mbps, -1);

	m = &b.members[2]; /* new: appended with every other value unknown */
	assert_string_equal(m->name, "ens1f0np0");
	assert_int_equal(m->mii_status, 2);
	assert_int_equal(m->link_failure_count, 3);
	assert_int_equal(m->speed_mbps, -1);
	assert_string_equal(m->perm_hwaddr, "b8:ce:f6:1a:2b:3c");
	assert_int_equal(m->aggregator_id, -1);
	assert_member_netlink_only_unknown(m);

	/* Parsing again changes nothing: the same names, the same slots. */
	assert_int_equal(parse_str(sample_ab, &b, &err), 0);
	assert_int_equal(b.nmembers, 3);
	assert_string_equal(b.members[2].name, "ens1f0np0");
}

/* The non-root view of 802.3ad, a member in no aggregator, fail_over_mac, unknown names. */
static void test_variants(void **state)
{
	static const char text[] =
		"Ethernet Channel Bonding Driver: v5.14.0-427.13.1.el9_4.x86_64\r\n"
		"\r\n"
		"Bonding Mode: IEEE 802.3ad Dynamic link aggregation\r\n"
		"Transmit Hash Policy: future-hash (9)\r\n"
		"802.3ad info\r\n"
		"LACP rate: slow\r\n"
		"Aggregator selection policy (ad_select): actor_port_prio\r\n"
		"bond bond0 has no active aggregator\r\n"
		"Slave Interface: ib0\r\n"
		"MII Status: up\r\n"
		"Speed: -1 Mbps\r\n"
		"Duplex: half\r\n"
		"Permanent HW addr: "
		"00:00:10:29:fe:80:00:00:00:00:00:00:b8:59:9f:03:00:c1:2e:40\r\n"
		"Aggregator ID: N/A\r\n"
		"port state: 99\r\n";
	struct rdc_err err = {0};
	struct rdc_bond b;

	(void)state;
	bond_blank(&b);
	assert_int_equal(parse_str(text, &b, &err), 0);
	assert_int_equal(b.mode, RDC_BOND_8023AD);
	assert_int_equal(b.xmit_hash_policy, -1); /* a name of a newer kernel */
	assert_int_equal(b.lacp_rate, 0);
	assert_int_equal(b.ad_select, -1);
	assert_int_equal(b.ad_aggregator_id, -1);
	assert_int_equal(b.nmembers, 1);
	assert_int_equal(b.members[0].speed_mbps, -1);
	assert_string_equal(b.members[0].duplex, "half");
	assert_string_equal(b.members[0].perm_hwaddr, ""); /* IPoIB: 20 bytes do not fit */
	assert_int_equal(b.members[0].aggregator_id, -1);
	assert_int_equal(b.members[0].actor_port_state, -1); /* outside a details block */

	bond_blank(&b);
	assert_int_equal(
		parse_str("Ethernet Channel Bonding Driver: v6.8\n"
			  "Bonding Mode: fault-tolerance (active-backup) (fail_over_mac active)\n"
			  "Primary Slave: None\n"
			  "Currently Active Slave: None\n"
			  "MII Status: down",
			  &b, &err),
		0);
	assert_int_equal(b.mode, RDC_BOND_ACTIVE_BACKUP);
	assert_string_equal(b.primary, "");
	assert_string_equal(b.active_member, "");
	assert_false(b.carrier);
	assert_int_equal(b.nmembers, 0);

	for (int mode = 0; mode <= RDC_BOND_BALANCE_ALB; mode++) {
		static const char *const names[] = {
			"load balancing (round-robin)",
			"fault-tolerance (active-backup)",
			"load balancing (xor)",
			"fault-tolerance (broadcast)",
			"IEEE 802.3ad Dynamic link aggregation",
			"transmit load balancing",
			"adaptive load balancing",
		};
		char buf[160];

		snprintf(buf, sizeof(buf),
			 "Ethernet Channel Bonding Driver: v6.8\nBonding Mode: %s\n", names[mode]);
		bond_blank(&b);
		assert_int_equal(parse_str(buf, &b, &err), 0);
		assert_int_equal(b.mode, mode);
	}
	bond_blank(&b);
	assert_int_equal(parse_str("Ethernet Channel Bonding Driver: v6.8\n"
				   "Bonding Mode: load balancing (xor-ish)\n",
				   &b, &err),
			 0);
	assert_int_equal(b.mode, -1);
}

/* Every prefix of a good text parses or is refused with -EINVAL, and never says more than it. */
static void truncate_all(const char *text)
{
	size_t len = strlen(text);

	for (size_t n = 0; n <= len; n++) {
		struct rdc_err err = {0};
		struct rdc_bond b;
		int rc;

		bond_blank(&b);
		rc = parse(text, n, &b, &err);
		if (rc != 0 && rc != -EINVAL)
			fail_msg("prefix of %zu bytes: rc %d (%s)", n, rc, err.msg);
		assert_true(b.nmembers <= 2);
		if (rc)
			assert_int_equal(err.code, EINVAL);
	}
}

static void test_truncation(void **state)
{
	(void)state;
	truncate_all(sample_ab);
	truncate_all(sample_lacp);
	truncate_all(sample_xor);
}

static void test_garbage(void **state)
{
	struct rdc_err err = {0};
	struct rdc_bond b;
	char buf[4096];
	uint32_t x = 2463534242u;

	(void)state;
	bond_blank(&b);
	assert_int_equal(parse("", 0, &b, &err), -EINVAL);
	assert_int_equal(err.code, EINVAL);
	assert_non_null(strstr(err.msg, "Ethernet Channel Bonding Driver"));
	assert_int_equal(rdc_bond_procfs_parse(NULL, 0, &b, NULL), -EINVAL);
	assert_int_equal(parse_str("Ethernet Channel Bonding", &b, &err), -EINVAL);
	assert_int_equal(parse_str("\nEthernet Channel Bonding Driver: v6.8\n", &b, &err), -EINVAL);
	assert_int_equal(
		parse_str("eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n", &b, &err),
		-EINVAL);
	assert_int_equal(parse_str("Ethernet Channel Bonding Driver:", &b, &err), 0);

	/* Random bytes, with and without the first line: no crash, 0 or -EINVAL. */
	for (int round = 0; round < 200; round++) {
		size_t off = round % 2 ? strlen("Ethernet Channel Bonding Driver: v1\n") : 0;
		int rc;

		memcpy(buf, "Ethernet Channel Bonding Driver: v1\n", off);
		for (size_t i = off; i < sizeof(buf); i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* a fair share of newlines, colons and NULs among the bytes */
			buf[i] = (char)(x % 7 == 0    ? '\n'
					: x % 11 == 0 ? ':'
					: x % 13 == 0 ? 0
						      : x >> 8);
		}
		bond_blank(&b);
		rc = parse(buf, sizeof(buf), &b, &err);
		assert_true(rc == 0 || rc == -EINVAL);
		if (!off)
			assert_int_equal(rc, -EINVAL);
	}

	/* Known keys with broken values. */
	static const char *const bad[] = {
		"Slave Interface: \n",
		"Slave Interface: a/b\n",
		"Slave Interface: averyveryverylongname\n",
		"Slave Interface: eth0\nSpeed: 100000 Mb\n",
		"Slave Interface: eth0\nSpeed: fast\n",
		"Slave Interface: eth0\nLink Failure Count: -1\n",
		"Slave Interface: eth0\nLink Failure Count: 0x10\n",
		"Slave Interface: eth0\nLink Failure Count: 1 \x01\n",
		"Slave Interface: eth0\nPermanent HW addr: b8:ce:f6:1a:2b:3\n",
		"Slave Interface: eth0\nPermanent HW addr: b8-ce-f6-1a-2b-3c\n",
		"Slave Interface: eth0\nAggregator ID: n/a\n",
		"Primary Slave: e:th0 (primary_reselect always)\n",
		"Currently Active Slave: \n",
		"MII Polling Interval (ms): 1e3\n",
		"Partner Mac Address: 44:38:39:ff:00\n",
		"Min links: \n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "Ethernet Channel Bonding Driver: v6.8\n%s", bad[i]);
		bond_blank(&b);
		if (parse_str(text, &b, &err) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(strstr(err.msg, "line "));
	}

	/* A NUL inside a value we read is refused; inside a line we skip it does not matter. */
	static const char nul[] =
		"Ethernet Channel Bonding Driver: v6.8\nSlave Interface: eth\0zz\n";
	static const char skip[] = "Ethernet Channel Bonding Driver: v6.8\nSlave \0queue ID: 0\n";
	bond_blank(&b);
	assert_int_equal(parse(nul, sizeof(nul) - 1, &b, &err), -EINVAL);
	bond_blank(&b);
	assert_int_equal(parse(skip, sizeof(skip) - 1, &b, &err), 0);
}

static void test_long_lines(void **state)
{
	static const char head[] =
		"Ethernet Channel Bonding Driver: v6.8\nMII Polling Interval (ms): "
		"100\n";
	size_t big = 1 << 20;
	char *text = malloc(big + 256);
	struct rdc_err err = {0};
	struct rdc_bond b;
	size_t n;

	(void)state;
	assert_non_null(text);

	/* An unknown line of 1 MiB is skipped; the lines around it are read. */
	n = (size_t)sprintf(text, "%sARP IP target/s (n.n.n.n form): ", head);
	memset(text + n, '1', big);
	n += big;
	n += (size_t)sprintf(text + n, "\nSlave Interface: eth0\nSpeed: 1000 Mbps\n");
	bond_blank(&b);
	assert_int_equal(parse(text, n, &b, &err), 0);
	assert_int_equal(b.miimon_ms, 100);
	assert_int_equal(b.nmembers, 1);
	assert_int_equal(b.members[0].speed_mbps, 1000);

	/* The same, as the last line without its newline. */
	n = (size_t)sprintf(text, "%s", head);
	memset(text + n, 'x', big);
	bond_blank(&b);
	assert_int_equal(parse(text, n + big, &b, &err), 0);
	assert_int_equal(b.miimon_ms, 100);

	/* A long value of a line we read is refused, not cut. */
	n = (size_t)sprintf(text, "%sSlave Interface: ", head);
	memset(text + n, 'e', big);
	bond_blank(&b);
	assert_int_equal(parse(text, n + big, &b, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "too long"));
	assert_int_equal(b.nmembers, 0);

	/* A long key is no key of ours. */
	memset(text, 'K', big);
	memcpy(text, "Ethernet Channel Bonding Driver: v6.8\n", 38);
	text[big - 10] = ':';
	bond_blank(&b);
	assert_int_equal(parse(text, big, &b, &err), 0);
	free(text);
}

static void test_members_limit(void **state)
{
	char *text = malloc(8192);
	struct rdc_err err = {0};
	struct rdc_bond b;
	size_t n;

	(void)state;
	assert_non_null(text);
	n = (size_t)sprintf(text, "Ethernet Channel Bonding Driver: v6.8\n"
				  "Bonding Mode: load balancing (round-robin)\n");
	for (int i = 0; i < RDC_BOND_MAX_MEMBERS; i++)
		n += (size_t)sprintf(text + n, "\nSlave Interface: eth%d\nMII Status: up\n", i);
	bond_blank(&b);
	assert_int_equal(parse(text, n, &b, &err), 0);
	assert_int_equal(b.nmembers, RDC_BOND_MAX_MEMBERS);
	assert_string_equal(b.members[15].name, "eth15");

	n += (size_t)sprintf(text + n, "\nSlave Interface: eth16\nMII Status: up\n");
	bond_blank(&b);
	assert_int_equal(parse(text, n, &b, &err), -E2BIG);
	assert_int_equal(err.code, E2BIG);
	assert_non_null(strstr(err.msg, "eth16"));
	assert_int_equal(b.nmembers, RDC_BOND_MAX_MEMBERS);

	/* The 17th name is one already known: no new slot needed. */
	n = (size_t)sprintf(text, "Ethernet Channel Bonding Driver: v6.8\n");
	for (int i = 0; i < RDC_BOND_MAX_MEMBERS + 1; i++)
		n += (size_t)sprintf(text + n, "Slave Interface: eth%d\n",
				     i % RDC_BOND_MAX_MEMBERS);
	bond_blank(&b);
	assert_int_equal(parse(text, n, &b, &err), 0);
	assert_int_equal(b.nmembers, RDC_BOND_MAX_MEMBERS);
	free(text);
}

static void test_overflow(void **state)
{
	static const char *const big[] = {
		"Slave Interface: eth0\nLink Failure Count: 18446744073709551616\n",
		"Slave Interface: eth0\nLink Failure Count: 4294967296\n",
		"Slave Interface: eth0\nSpeed: 2147483648 Mbps\n",
		"Slave Interface: eth0\nAggregator ID: 65536\n",
		"Slave Interface: eth0\ndetails actor lacp pdu:\n    port state: 256\n",
		"MII Polling Interval (ms): 99999999999999999999\n",
		"Actor Key: 65536\n",
	};
	struct rdc_err err = {0};
	struct rdc_bond b;

	(void)state;
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "Ethernet Channel Bonding Driver: v6.8\n%s", big[i]);
		bond_blank(&b);
		if (parse_str(text, &b, &err) != -ERANGE)
			fail_msg("no -ERANGE: %s", big[i]);
		assert_int_equal(err.code, ERANGE);
		assert_non_null(strstr(err.msg, "out of range"));
	}
	/* The largest values fit. */
	bond_blank(&b);
	assert_int_equal(parse_str("Ethernet Channel Bonding Driver: v6.8\n"
				   "Slave Interface: eth0\n"
				   "Link Failure Count: 4294967295\n"
				   "details partner lacp pdu:\n"
				   "    port state: 255\n",
				   &b, &err),
			 0);
	assert_int_equal(b.members[0].link_failure_count, 4294967295);
	assert_int_equal(b.members[0].partner_port_state, 255);
}

static void test_names(void **state)
{
	static const char *const modes[] = {"balance-rr", "active-backup", "balance-xor",
					    "broadcast",  "802.3ad",	   "balance-tlb",
					    "balance-alb"};
	static const char *const hashes[] = {"layer2",	 "layer3+4", "layer2+3",
					     "encap2+3", "encap3+4", "vlan+srcmac"};
	int v;

	(void)state;
	for (int i = 0; i < 7; i++) {
		assert_string_equal(rdc_bond_mode_name(i), modes[i]);
		assert_int_equal(rdc_bond_mode_parse(modes[i], &v), 0);
		assert_int_equal(v, i);
	}
	for (int i = 0; i < 6; i++) {
		assert_string_equal(rdc_bond_hash_name(i), hashes[i]);
		assert_int_equal(rdc_bond_hash_parse(hashes[i], &v), 0);
		assert_int_equal(v, i);
	}
	assert_int_equal(RDC_BOND_HASH_L34, 1);
	assert_string_equal(rdc_bond_lacp_rate_name(0), "slow");
	assert_string_equal(rdc_bond_lacp_rate_name(1), "fast");
	assert_string_equal(rdc_bond_ad_select_name(0), "stable");
	assert_string_equal(rdc_bond_ad_select_name(1), "bandwidth");
	assert_string_equal(rdc_bond_ad_select_name(2), "count");
	assert_string_equal(rdc_bond_mii_status_name(0), "up");
	assert_string_equal(rdc_bond_mii_status_name(1), "going down");
	assert_string_equal(rdc_bond_mii_status_name(2), "down");
	assert_string_equal(rdc_bond_mii_status_name(3), "going back");
	assert_int_equal(rdc_bond_lacp_rate_parse("fast", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(rdc_bond_ad_select_parse("count", &v), 0);
	assert_int_equal(v, 2);

	/* Out of range: NULL, never a neighbour's string. */
	assert_null(rdc_bond_mode_name(-1));
	assert_null(rdc_bond_mode_name(7));
	assert_null(rdc_bond_hash_name(6));
	assert_null(rdc_bond_lacp_rate_name(2));
	assert_null(rdc_bond_ad_select_name(3));
	assert_null(rdc_bond_mii_status_name(4));
	assert_null(rdc_bond_mii_status_name(-1));

	/* Exact names only: no prefix, case, number or surrounding space. */
	v = 42;
	assert_int_equal(rdc_bond_mode_parse("802.3", &v), -EINVAL);
	assert_int_equal(rdc_bond_mode_parse("Active-Backup", &v), -EINVAL);
	assert_int_equal(rdc_bond_mode_parse("4", &v), -EINVAL);
	assert_int_equal(rdc_bond_mode_parse(" 802.3ad", &v), -EINVAL);
	assert_int_equal(rdc_bond_mode_parse("", &v), -EINVAL);
	assert_int_equal(rdc_bond_mode_parse(NULL, &v), -EINVAL);
	assert_int_equal(rdc_bond_hash_parse("layer3", &v), -EINVAL);
	assert_int_equal(rdc_bond_lacp_rate_parse("Fast", &v), -EINVAL);
	assert_int_equal(rdc_bond_ad_select_parse("actor_port_prio", &v), -EINVAL);
	assert_int_equal(v, 42);

	assert_false(rdc_bond_mode_roce_lag(RDC_BOND_BALANCE_RR));
	assert_true(rdc_bond_mode_roce_lag(RDC_BOND_ACTIVE_BACKUP));
	assert_true(rdc_bond_mode_roce_lag(RDC_BOND_BALANCE_XOR));
	assert_false(rdc_bond_mode_roce_lag(RDC_BOND_BROADCAST));
	assert_true(rdc_bond_mode_roce_lag(RDC_BOND_8023AD));
	assert_false(rdc_bond_mode_roce_lag(RDC_BOND_BALANCE_TLB));
	assert_false(rdc_bond_mode_roce_lag(RDC_BOND_BALANCE_ALB));
	assert_false(rdc_bond_mode_roce_lag(-1));
	assert_false(rdc_bond_mode_roce_lag(7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_active_backup), cmocka_unit_test(test_8023ad),
		cmocka_unit_test(test_balance_xor),   cmocka_unit_test(test_merge_by_name),
		cmocka_unit_test(test_variants),      cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_garbage),	      cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_members_limit), cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("bond_procfs", tests, NULL, NULL);
}
