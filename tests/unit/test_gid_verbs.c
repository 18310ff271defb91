// SPDX-License-Identifier: GPL-2.0-or-later
/* test_gid_verbs.c - the live GID table from ibv_query_gid_table(), as the sysfs path reads it (host/gid_verbs.h) */
#include <arpa/inet.h>
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

#include "base/util.h"
#include "host/gid.h"
#include "host/gid_verbs.h"
#include "seam/fs.h"
#include "seam/nl.h"

#define DEV "fake0"
#define PORT_DIR "sys/class/infiniband/" DEV "/ports/1"

static char root[64];

/* What the fakes answer, set by each test. */
static struct {
	const struct ibv_gid_entry *entries;
	size_t count;
	int query_rc; /* < 0: query fails so */
	unsigned int queries;
	const struct rdc_addr4 *v4;
	size_t nv4;
	const struct rdc_addr6 *v6;
	size_t nv6;
	int addrs_rc;
} fake;

static ssize_t fake_query_cb(const char *dev, struct ibv_gid_entry **entries)
{
	(void)dev;
	fake.queries++;
	*entries = NULL;
	if (fake.query_rc < 0)
		return fake.query_rc;
	*entries = calloc(fake.count + 1, sizeof(**entries));
	assert_non_null(*entries);
	memcpy(*entries, fake.entries, fake.count * sizeof(**entries));
	return (ssize_t)fake.count;
}

/* This namespace: lo 1, eth0 2, eth0.100 7; ifindex 9 is another namespace's. */
static int fake_ifname_cb(unsigned int ifindex, char name[IF_NAMESIZE])
{
	static const char *const here[] = {[1] = "lo", [2] = "eth0", [7] = "eth0.100"};

	if (ifindex >= RDC_ARRAY_SIZE(here) || !here[ifindex])
		return -ENXIO;
	rdc_strlcpy(name, here[ifindex], IF_NAMESIZE);
	return 0;
}

static int fake_addrs_cb(struct rdc_addr4_list *v4, struct rdc_addr6_list *v6)
{
	memset(v4, 0, sizeof(*v4));
	memset(v6, 0, sizeof(*v6));
	if (fake.addrs_rc)
		return fake.addrs_rc;
	v4->items = calloc(fake.nv4 + 1, sizeof(*v4->items));
	v6->items = calloc(fake.nv6 + 1, sizeof(*v6->items));
	assert_non_null(v4->items);
	assert_non_null(v6->items);
	/* memcpy's source must not be NULL even for 0 bytes (UBSan says so). */
	if (fake.nv4)
		memcpy(v4->items, fake.v4, fake.nv4 * sizeof(*fake.v4));
	if (fake.nv6)
		memcpy(v6->items, fake.v6, fake.nv6 * sizeof(*fake.v6));
	v4->count = fake.nv4;
	v6->count = fake.nv6;
	return 0;
}

static const struct rdc_gid_verbs_ops fake_ops = {
	.query = fake_query_cb,
	.ifname = fake_ifname_cb,
	.addrs = fake_addrs_cb,
};

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void mkdirs(const char *rel)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static void rm(const char *rel)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	snprintf(root, sizeof(root), "/tmp/rdmactl-test-gid-XXXXXX");
	assert_non_null(mkdtemp(root));
	mkdirs(PORT_DIR "/gids");
	mkdirs(PORT_DIR "/gid_attrs/types");
	mkdirs(PORT_DIR "/gid_attrs/ndevs");
	rdc_gid_verbs_set_ops(&fake_ops);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX];

	(void)state;
	rdc_gid_verbs_set_ops(NULL);
	rdc_fs_set_root(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void use_root(void)
{
	struct rdc_err err = {0};

	assert_int_equal(rdc_fs_set_root(root, &err), 0);
}

/* An entry from a GID's sysfs text. */
static struct ibv_gid_entry entry(unsigned int port, unsigned int index, const char *text,
				  uint32_t type, unsigned int ifindex)
{
	struct ibv_gid_entry e = {
		.gid_index = index, .port_num = port, .gid_type = type, .ndev_ifindex = ifindex};

	assert_int_equal(rdc_gid_parse(text, e.gid.raw), 0);
	return e;
}

static void assert_same_gid(const struct rdc_gid *a, const struct rdc_gid *b)
{
	assert_int_equal(a->index, b->index);
	assert_memory_equal(a->raw, b->raw, 16);
	assert_string_equal(a->text, b->text);
	assert_int_equal(a->type, b->type);
	assert_string_equal(a->netdev, b->netdev);
	assert_int_equal(a->family, b->family);
	assert_string_equal(a->ip, b->ip);
	assert_int_equal(a->link_local, b->link_local);
	assert_int_equal(a->recommended, b->recommended);
	assert_int_equal(a->unreadable, b->unreadable);
	assert_int_equal(a->type_unreadable, b->type_unreadable);
}

#define LL0 "fe80:0000:0000:0000:5054:00ff:fe12:3401"
#define V4_ETH0 "0000:0000:0000:0000:0000:ffff:c612:0101" /* 198.18.1.1 on eth0 */
#define V4_POD                                                                                     \
	"0000:0000:0000:0000:0000:ffff:0a00:0005" /* 10.0.0.5: a pod's macvlan, its ifindex 2 too */
#define V4_VLAN                                                                                    \
	"0000:0000:0000:0000:0000:ffff:c612:0107" /* 198.18.1.7 on eth0.100 (an alias label) */
#define LL_AWAY                                                                                    \
	"fe80:0000:0000:0000:5054:00ff:fe12:3499" /* a netdev of another namespace, ifindex 9 */
#define ZERO "0000:0000:0000:0000:0000:0000:0000:0000"

/*
 * One RoCE port in sysfs and the same table as verbs gives it (shuffled, with
 * another port's entries mixed in): both paths read the same entries.  The
 * files verbs must not need are removed before it reads, so an entry that
 * went to sysfs for what verbs says would read differently.
 *
 *   slot  gid          type        ndev      ifindex  its name from
 *   0     fe80::..01   IB/RoCE v1  eth0      2        the file (no address: a default GID)
 *   1     fe80::..01   RoCE v2     eth0      2        the file
 *   2     198.18.1.1   IB/RoCE v1  eth0      2        verbs: eth0 holds it
 *   3     198.18.1.1   RoCE v2     eth0      2        verbs
 *   4     10.0.0.5     RoCE v2     mv0       2        the file: eth0 here does not hold it
 *   5     zero                                        skipped by both
 *   10    198.18.1.7   RoCE v2     eth0.100  7        verbs (label "eth0.100:a")
 *   11    fe80::..99   RoCE v2     podeth    9        the file: 9 is no netdev here
 */
static void test_same_as_sysfs(void **state)
{
	static const struct {
		unsigned int slot;
		const char *gid, *type, *ndev;
	} slots[] = {
		{0, LL0, "IB/RoCE v1", "eth0"},	      {1, LL0, "RoCE v2", "eth0"},
		{2, V4_ETH0, "IB/RoCE v1", "eth0"},   {3, V4_ETH0, "RoCE v2", "eth0"},
		{4, V4_POD, "RoCE v2", "mv0"},	      {5, ZERO, NULL, NULL},
		{10, V4_VLAN, "RoCE v2", "eth0.100"}, {11, LL_AWAY, "RoCE v2", "podeth"},
	};
	static const unsigned int verbs_needs[] = {2, 3, 10};
	static const struct rdc_addr4 v4[] = {
		{.ifname = "eth0", .addr = 0xc6120101, .prefix_len = 24},
		{.ifname = "eth0.100:a", .addr = 0xc6120107, .prefix_len = 24},
		{.ifname = "lo", .addr = 0x7f000001, .prefix_len = 8},
	};
	struct ibv_gid_entry e[] = {
		entry(1, 11, LL_AWAY, IBV_GID_TYPE_ROCE_V2, 9),
		entry(2, 0, LL0, IBV_GID_TYPE_ROCE_V1, 3),
		entry(1, 3, V4_ETH0, IBV_GID_TYPE_ROCE_V2, 2),
		entry(1, 0, LL0, IBV_GID_TYPE_ROCE_V1, 2),
		entry(1, 1, LL0, IBV_GID_TYPE_ROCE_V2, 2),
		entry(1, 10, V4_VLAN, IBV_GID_TYPE_ROCE_V2, 7),
		entry(1, 4, V4_POD, IBV_GID_TYPE_ROCE_V2, 2),
		entry(1, 2, V4_ETH0, IBV_GID_TYPE_ROCE_V1, 2),
	};
	struct rdc_issues issues = {0};
	struct rdc_err err = {0};
	struct rdc_gid *sys = NULL, *vb = NULL;
	size_t nsys = 0, nvb = 0;
	char rel[128];

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(slots); i++) {
		snprintf(rel, sizeof(rel), PORT_DIR "/gids/%u", slots[i].slot);
		put(rel, slots[i].gid);
		if (!slots[i].type)
			continue;
		snprintf(rel, sizeof(rel), PORT_DIR "/gid_attrs/types/%u", slots[i].slot);
		put(rel, slots[i].type);
		snprintf(rel, sizeof(rel), PORT_DIR "/gid_attrs/ndevs/%u", slots[i].slot);
		put(rel, slots[i].ndev);
	}
	fake.entries = e;
	fake.count = RDC_ARRAY_SIZE(e);
	fake.v4 = v4;
	fake.nv4 = RDC_ARRAY_SIZE(v4);
	use_root();
	/* Under a root, sysfs: verbs is not asked. */
	assert_int_equal(rdc_gid_table_read_all(DEV, 1, true, &sys, &nsys, &issues, &err), 0);
	assert_int_equal(fake.queries, 0);
	assert_int_equal(issues.count, 0);
	assert_int_equal(nsys, 7);

	rm(PORT_DIR "/gids");
	rm(PORT_DIR "/gid_attrs/types");
	for (size_t i = 0; i < RDC_ARRAY_SIZE(verbs_needs); i++) {
		snprintf(rel, sizeof(rel), PORT_DIR "/gid_attrs/ndevs/%u", verbs_needs[i]);
		rm(rel);
	}
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, true, &vb, &nvb), 0);
	assert_int_equal(fake.queries, 1);
	assert_int_equal(nvb, nsys);
	for (size_t i = 0; i < nsys; i++)
		assert_same_gid(&vb[i], &sys[i]);
	/* The spot checks: what each slot should say. */
	assert_string_equal(vb[4].netdev, "mv0");
	assert_string_equal(vb[5].netdev, "eth0.100");
	assert_string_equal(vb[6].netdev, "podeth");
	assert_true(vb[3].recommended);
	assert_string_equal(vb[3].ip, "198.18.1.1");
	free(sys);
	free(vb);
}

/*
 * gid_type x link layer -> type, as sysfs' "IB/RoCE v1" / "RoCE v2" read:
 *   IB, Ethernet        RoCE v1      IB, InfiniBand        IB
 *   ROCE_V1, Ethernet   RoCE v1      ROCE_V2, Ethernet     RoCE v2
 *   7 (a future type)   unknown
 * InfiniBand entries carry no netdev and no IP, whatever the ifindex.
 */
static void test_types(void **state)
{
	static const struct {
		uint32_t type;
		bool ethernet;
		enum rdc_gid_type want;
	} rows[] = {
		{IBV_GID_TYPE_IB, true, RDC_GID_ROCE_V1},
		{IBV_GID_TYPE_IB, false, RDC_GID_IB},
		{IBV_GID_TYPE_ROCE_V1, true, RDC_GID_ROCE_V1},
		{IBV_GID_TYPE_ROCE_V1, false, RDC_GID_IB},
		{IBV_GID_TYPE_ROCE_V2, true, RDC_GID_ROCE_V2},
		{7, true, RDC_GID_UNKNOWN},
	};

	(void)state;
	use_root();
	for (size_t i = 0; i < RDC_ARRAY_SIZE(rows); i++) {
		struct ibv_gid_entry e = entry(1, 0, V4_ETH0, rows[i].type, 2);
		static const struct rdc_addr4 v4 = {.ifname = "eth0", .addr = 0xc6120101};
		struct rdc_gid *g = NULL;
		size_t n = 0;

		fake.entries = &e;
		fake.count = 1;
		fake.v4 = &v4;
		fake.nv4 = 1;
		rdc_gid_verbs_set_ops(&fake_ops); /* a new snapshot for each row */
		assert_int_equal(rdc_gid_verbs_read(DEV, 1, rows[i].ethernet, &g, &n), 0);
		assert_int_equal(n, 1);
		assert_int_equal(g[0].type, rows[i].want);
		assert_string_equal(g[0].netdev, rows[i].ethernet ? "eth0" : "");
		assert_int_equal(g[0].family, rows[i].ethernet ? AF_INET : 0);
		free(g);
	}
}

/*
 * ifindex -> netdev:
 *   0 on InfiniBand                      none (no file to read)
 *   0 on Ethernet, ndevs file "eth0"     eth0 (rdma-core's own sysfs fallback gives 0
 *                                        for a netdev of another namespace)
 *   0 on Ethernet, no ndevs file         none, as the sysfs path says
 *   2, addresses cannot be listed        the file
 *   2, ndevs file a directory            the read fails: the whole table is sysfs'
 */
static void test_ifindex(void **state)
{
	struct ibv_gid_entry e = entry(1, 3, V4_ETH0, IBV_GID_TYPE_ROCE_V2, 0);
	struct rdc_gid *g = NULL;
	size_t n = 0;

	(void)state;
	use_root();
	fake.entries = &e;
	fake.count = 1;
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, false, &g, &n), 0);
	assert_string_equal(g[0].netdev, "");
	free(g);

	put(PORT_DIR "/gid_attrs/ndevs/3", "eth0\n");
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, true, &g, &n), 0);
	assert_string_equal(g[0].netdev, "eth0");
	free(g);

	rm(PORT_DIR "/gid_attrs/ndevs/3");
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, true, &g, &n), 0);
	assert_string_equal(g[0].netdev, "");
	free(g);

	e.ndev_ifindex = 2;
	fake.addrs_rc = -EPERM;
	put(PORT_DIR "/gid_attrs/ndevs/3", "eth0-from-file\n");
	rdc_gid_verbs_set_ops(&fake_ops);
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, true, &g, &n), 0);
	assert_string_equal(g[0].netdev, "eth0-from-file");
	free(g);

	rm(PORT_DIR "/gid_attrs/ndevs/3");
	mkdirs(PORT_DIR "/gid_attrs/ndevs/3");
	g = (struct rdc_gid *)&e; /* must come back NULL */
	assert_true(rdc_gid_verbs_read(DEV, 1, true, &g, &n) < 0);
	assert_null(g);
	assert_int_equal(n, 0);
}

/* Index order whatever the kernel's; other ports, zero and bare fe80:: entries left out. */
static void test_order(void **state)
{
	struct ibv_gid_entry e[] = {
		entry(1, 9, V4_ETH0, IBV_GID_TYPE_IB, 0),
		entry(1, 4, ZERO, IBV_GID_TYPE_IB, 0),
		entry(2, 1, LL0, IBV_GID_TYPE_IB, 0),
		entry(1, 0, LL0, IBV_GID_TYPE_IB, 0),
		entry(1, 6, "fe80:0000:0000:0000:0000:0000:0000:0000", IBV_GID_TYPE_IB, 0),
		entry(1, 2, LL_AWAY, IBV_GID_TYPE_IB, 0),
	};
	static const unsigned int want[] = {0, 2, 9};
	struct rdc_gid *g = NULL;
	size_t n = 0;

	(void)state;
	use_root();
	fake.entries = e;
	fake.count = RDC_ARRAY_SIZE(e);
	assert_int_equal(rdc_gid_verbs_read(DEV, 1, false, &g, &n), 0);
	assert_int_equal(n, RDC_ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(g[i].index, want[i]);
	free(g);
	/* Port 2, then 3 (none): the same snapshot. */
	assert_int_equal(rdc_gid_verbs_read(DEV, 2, false, &g, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].index, 1);
	free(g);
	assert_int_equal(rdc_gid_verbs_read(DEV, 3, false, &g, &n), 0);
	assert_int_equal(n, 0);
	assert_null(g);
	assert_int_equal(fake.queries, 1);
}

/*
 * One call per device: its ports asked in rising order share a snapshot;
 * a port asked again, a lower one or another device takes a new one.
 */
static void test_snapshot(void **state)
{
	struct ibv_gid_entry e[] = {
		entry(1, 0, LL0, IBV_GID_TYPE_IB, 0),
		entry(2, 0, LL0, IBV_GID_TYPE_IB, 0),
	};
	static const struct {
		const char *dev;
		unsigned int port, queries;
	} steps[] = {
		{DEV, 1, 1}, {DEV, 2, 1}, {DEV, 2, 2}, {DEV, 1, 3}, {"fake1", 2, 4}, {DEV, 2, 5},
	};
	struct rdc_gid *g;
	size_t n;

	(void)state;
	use_root();
	fake.entries = e;
	fake.count = RDC_ARRAY_SIZE(e);
	for (size_t i = 0; i < RDC_ARRAY_SIZE(steps); i++) {
		assert_int_equal(rdc_gid_verbs_read(steps[i].dev, steps[i].port, false, &g, &n), 0);
		assert_int_equal(n, 1);
		free(g);
		assert_int_equal(fake.queries, steps[i].queries);
	}
}

/*
 * Which path rdc_gid_table_read_all() takes:
 *   live, verbs answers                  verbs' entries
 *   live, verbs fails (EOPNOTSUPP)       sysfs, silently (here: no such device)
 *   --record                             sysfs, verbs not asked
 *   --root                               sysfs, verbs not asked (test_same_as_sysfs)
 */
static void test_fallback(void **state)
{
	struct ibv_gid_entry e = entry(1, 0, LL0, IBV_GID_TYPE_IB, 0);
	struct rdc_issues issues = {0};
	struct rdc_err err = {0};
	char rec[] = "/tmp/rdmactl-test-gid-rec-XXXXXX";
	struct rdc_gid *g = NULL;
	size_t n = 0;
	int fd;

	(void)state;
	fake.entries = &e;
	fake.count = 1;
	assert_int_equal(rdc_nl_mode(), RDC_NL_LIVE);
	assert_int_equal(
		rdc_gid_table_read_all("rdmactl-no-such-dev", 1, false, &g, &n, &issues, &err), 0);
	assert_int_equal(fake.queries, 1);
	assert_int_equal(n, 1);
	assert_string_equal(g[0].text, LL0);
	free(g);

	fake.query_rc = -EOPNOTSUPP;
	assert_int_equal(
		rdc_gid_table_read_all("rdmactl-no-such-dev", 1, false, &g, &n, &issues, &err),
		-ENOENT);
	assert_int_equal(fake.queries, 2);
	assert_non_null(strstr(err.msg, "rdmactl-no-such-dev"));
	assert_null(g);

	fd = mkstemp(rec);
	assert_true(fd >= 0);
	close(fd);
	fake.query_rc = 0;
	assert_int_equal(rdc_nl_open(RDC_NL_RECORD, rec, &err), 0);
	assert_int_equal(
		rdc_gid_table_read_all("rdmactl-no-such-dev", 1, false, &g, &n, &issues, &err),
		-ENOENT);
	assert_int_equal(fake.queries, 2);
	rdc_nl_close();
	rdc_nl_open(RDC_NL_LIVE, NULL, NULL);
	unlink(rec);
	rdc_issues_free(&issues);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same_as_sysfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ifindex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
