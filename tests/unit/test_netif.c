// SPDX-License-Identifier: GPL-2.0-or-later
/* test_netif.c - link mode speeds, FEC names, and an interface read from a root and a recording */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include "base/util.h"
#include "host/netif.h"
#include "kernel/ethtool.h"
#include "seam/fs.h"
#include "seam/nl.h"

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' does not contain '%s'", text, part);
}

/* ---- link modes and FEC names ---- */

static void test_link_mode_speed(void **state)
{
	static const struct {
		unsigned int bit;
		uint32_t mbps;
		const char *name;
	} rows[] = {
		{0, 10, "10baseT_Half"},
		{5, 1000, "1000baseT_Full"},
		{6, 0, NULL},  /* Autoneg */
		{13, 0, NULL}, /* Pause */
		{16, 0, NULL}, /* Backplane */
		{20, 0, NULL}, /* 10000baseR_FEC: a FEC bit, no speed */
		{31, 25000, "25000baseCR_Full"},
		{33, 25000, "25000baseSR_Full"},
		{38, 100000, "100000baseCR4_Full"},
		{49, 0, NULL}, /* FEC_NONE */
		{50, 0, NULL}, /* FEC_RS */
		{51, 0, NULL}, /* FEC_BASER */
		{52, 50000, "50000baseKR_Full"},
		{66, 200000, "200000baseCR4_Full"},
		{74, 0, NULL}, /* FEC_LLRS */
		{89, 400000, "400000baseCR4_Full"},
		{92, 10, "10baseT1L_Full"},
		{93, 800000, "800000baseCR8_Full"},
		{102, 10, "10baseT1BRR_Full"},
		{103, 200000, "200000baseCR_Full"},
		{114, 400000, "400000baseVR2_Full"},
		{120, 800000, "800000baseVR4_Full"},
		{124, 1600000, "1600000baseDR8_2_Full"},
		{125, 0, NULL}, /* newer than the table */
		{4000, 0, NULL},
	};

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(rows); i++) {
		const char *name = "unset";

		assert_int_equal(rdc_ethtool_link_mode_speed(rows[i].bit, &name), rows[i].mbps);
		if (rows[i].name)
			assert_string_equal(name, rows[i].name);
		else if (rows[i].bit >= 125)
			assert_null(name);
		assert_int_equal(rdc_ethtool_link_mode_speed(rows[i].bit, NULL), rows[i].mbps);
	}
	/* The numbers the table shares with Debian 12's header. */
	assert_int_equal(rdc_ethtool_link_mode_speed(ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, NULL),
			 25000);
	assert_int_equal(
		rdc_ethtool_link_mode_speed(ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT, NULL),
		100000);
	assert_int_equal(rdc_ethtool_link_mode_speed(ETHTOOL_LINK_MODE_10baseT1L_Full_BIT, NULL),
			 10);
}

static void set_bit(uint32_t *mask, unsigned int bit)
{
	mask[bit / 32] |= 1U << (bit % 32);
}

static void test_link_modes_fastest(void **state)
{
	uint32_t sup[4] = {0}, lp[4] = {0};

	(void)state;
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, NULL, 4), -1);
	/* Autoneg, Pause and FEC bits alone are no speed. */
	set_bit(sup, 6);
	set_bit(sup, 13);
	set_bit(sup, 50);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, NULL, 4), -1);
	set_bit(sup, 43); /* 10000baseSR */
	set_bit(sup, 31); /* 25000baseCR */
	set_bit(sup, 33); /* 25000baseSR */
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, NULL, 4), 25000);
	/* The partner only says 10G: the common speed is 10G. */
	set_bit(lp, 6);
	set_bit(lp, 43);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, lp, 4), 10000);
	set_bit(lp, 33);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, lp, 4), 25000);
	/* Bits in the fourth word count (800000baseCR4 = 115), but only within nwords. */
	set_bit(sup, 115);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, NULL, 4), 800000);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, NULL, 3), 25000);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, lp, 4), 25000);
	/* Only modes both masks hold: a partner's 100G the port lacks is not common. */
	memset(lp, 0, sizeof(lp));
	set_bit(lp, 38);
	assert_int_equal(rdc_ethtool_link_modes_fastest(sup, lp, 4), -1);
}

static void test_fec_names(void **state)
{
	static const struct {
		uint32_t fec;
		const char *name;
	} rows[] = {
		{ETHTOOL_FEC_OFF, "off"},
		{ETHTOOL_FEC_RS, "rs"},
		{ETHTOOL_FEC_BASER, "baser"},
		{ETHTOOL_FEC_LLRS, "llrs"},
		{ETHTOOL_FEC_AUTO, "auto"},
		{ETHTOOL_FEC_NONE, "none"},
		/* Several bits: the concrete mode wins over auto and none. */
		{ETHTOOL_FEC_AUTO | ETHTOOL_FEC_RS, "rs"},
		{ETHTOOL_FEC_NONE | ETHTOOL_FEC_AUTO, "auto"},
		{ETHTOOL_FEC_OFF | ETHTOOL_FEC_BASER, "off"},
		{0, NULL},
		{1U << 10, NULL},
	};

	(void)state;
	for (size_t i = 0; i < RDC_ARRAY_SIZE(rows); i++) {
		if (rows[i].name)
			assert_string_equal(rdc_ethtool_fec_name(rows[i].fec), rows[i].name);
		else
			assert_null(rdc_ethtool_fec_name(rows[i].fec));
	}
}

static void test_sysctl_effective(void **state)
{
	(void)state;
	assert_int_equal(rdc_netif_sysctl_effective(0, 1), 1);
	assert_int_equal(rdc_netif_sysctl_effective(2, 1), 2);
	assert_int_equal(rdc_netif_sysctl_effective(-1, 1), -1);
	assert_int_equal(rdc_netif_sysctl_effective(1, -1), -1);
}

/* ---- a host in a temporary root ---- */

static char root[64];

static void mkpath(const char *rel)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

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

/*
 * eth9: up, a VF, four IRQs on a device local to CPUs 0-3 and 8-11: 40 on
 * CPU 1 (local), 41 on 4-7 (remote), 42 on 2-5 (touches local CPUs), 43
 * without an affinity file (counted, not judged).  eth8: down, carrier
 * unreadable, nothing else.  eth7: a CPU list too long for the field.
 */
static int setup_root(void **state)
{
	char longlist[200] = "";
	size_t len;
	struct rdc_err err = {0};

	(void)state;
	snprintf(root, sizeof(root), "/tmp/rdmactl-test-netif-XXXXXX");
	assert_non_null(mkdtemp(root));
	mkpath("sys/class/net/eth9/device/physfn");
	mkpath("sys/class/net/eth9/device/msi_irqs");
	put("sys/class/net/eth9/ifindex", "9\n");
	put("sys/class/net/eth9/flags", "0x1003\n");
	put("sys/class/net/eth9/carrier", "1\n");
	put("sys/class/net/eth9/carrier_changes", "7\n");
	put("sys/class/net/eth9/device/local_cpulist", "0-3,8-11\n");
	for (int irq = 40; irq <= 43; irq++) {
		snprintf(longlist, sizeof(longlist), "sys/class/net/eth9/device/msi_irqs/%d", irq);
		put(longlist, "msix\n");
	}
	mkpath("proc/irq/40");
	mkpath("proc/irq/41");
	mkpath("proc/irq/42");
	put("proc/irq/40/smp_affinity_list", "1\n");
	put("proc/irq/41/smp_affinity_list", "4-7\n");
	put("proc/irq/42/smp_affinity_list", "2-5\n");
	mkpath("proc/sys/net/ipv4/conf/eth9");
	put("proc/sys/net/ipv4/conf/eth9/arp_ignore", "1\n");
	put("proc/sys/net/ipv4/conf/eth9/arp_announce", "2\n");
	put("proc/sys/net/ipv4/conf/eth9/rp_filter", "0\n");

	mkpath("sys/class/net/eth8");
	put("sys/class/net/eth8/ifindex", "8\n");
	put("sys/class/net/eth8/flags", "0x1002\n");
	put("sys/class/net/eth8/carrier", ""); /* the kernel's EINVAL, as near as a file gets */

	mkpath("sys/class/net/eth7/device/msi_irqs");
	put("sys/class/net/eth7/ifindex", "7\n");
	len = 0;
	for (int c = 0; c < 60; c += 2)
		len += (size_t)snprintf(longlist + len, sizeof(longlist) - len, "%s%d",
					c ? "," : "", c);
	put("sys/class/net/eth7/device/local_cpulist", longlist);

	mkpath("proc/sys/kernel");
	put("proc/sys/kernel/osrelease", "6.1.0-test\n");
	mkpath("lib/modules/6.1.0-test");
	mkpath("proc/sys/net/ipv4/conf/all");
	put("proc/sys/net/ipv4/conf/all/arp_ignore", "0\n");
	put("proc/sys/net/ipv4/conf/all/arp_announce", "2\n");
	put("proc/sys/net/ipv4/conf/all/rp_filter", "1\n");

	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	return 0;
}

static int teardown_root(void **state)
{
	char cmd[PATH_MAX];

	(void)state;
	rdc_nl_close();
	rdc_fs_set_root(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_read_files(void **state)
{
	struct rdc_err err = {0};
	struct rdc_netif *n = calloc(1, sizeof(*n));

	(void)state;
	assert_non_null(n);
	assert_int_equal(rdc_nl_open(RDC_NL_OFF, NULL, &err), 0);

	assert_int_equal(rdc_netif_read("eth9", n, &err), 0);
	assert_string_equal(n->name, "eth9");
	assert_int_equal(n->ifindex, 9);
	assert_int_equal(n->admin_up, 1);
	assert_int_equal(n->carrier, 1);
	assert_string_equal(n->carrier_source, "/sys/class/net/eth9/carrier");
	assert_int_equal(n->carrier_changes, 7);
	assert_int_equal(n->arp_ignore, 1);
	assert_int_equal(n->arp_announce, 2);
	assert_int_equal(n->rp_filter, 0);
	assert_true(n->is_vf);
	assert_int_equal(n->irqs_total, 4);
	assert_int_equal(n->irqs_remote, 1);
	assert_string_equal(n->local_cpulist, "0-3,8-11");
	/* No kernel: every message part is unknown, with its reason. */
	assert_false(n->have_addrs);
	assert_string_equal(n->addrs_reason,
			    "IPv4: no kernel recording; IPv6: no kernel recording");
	assert_int_equal(n->naddrs, 0);
	assert_false(n->have_pause);
	assert_string_equal(n->pause_reason, "no kernel recording");
	assert_false(n->have_fec);
	assert_string_equal(n->fec_reason, "no kernel recording");
	assert_false(n->have_linkmodes);
	assert_string_equal(n->linkmodes_reason, "no kernel recording");
	assert_int_equal(n->speed_mbps, -1);
	assert_int_equal(n->max_speed_mbps, -1);
	assert_int_equal(n->common_speed_mbps, -1);
	assert_false(n->have_drvinfo);

	rdc_netif_free(n);
	assert_int_equal(rdc_netif_read("eth8", n, &err), 0);
	assert_int_equal(n->ifindex, 8);
	assert_int_equal(n->admin_up, 0);
	assert_int_equal(n->carrier, -1);
	assert_int_equal(n->carrier_changes, -1);
	assert_int_equal(n->arp_ignore, -1);
	assert_int_equal(n->arp_announce, -1);
	assert_int_equal(n->rp_filter, -1);
	assert_false(n->is_vf);
	assert_int_equal(n->irqs_total, -1);
	assert_int_equal(n->irqs_remote, -1);
	assert_null(n->local_cpulist);

	rdc_netif_free(n);
	assert_int_equal(rdc_netif_read("eth7", n, &err), 0);
	assert_int_equal(n->admin_up, -1);
	assert_int_equal(n->irqs_total, 0);
	assert_int_equal(n->irqs_remote, 0);
	/* Whole, however long (the even CPUs 0-58): diag's fix command takes it as an argument. */
	assert_true(!strncmp(n->local_cpulist, "0,2,4,", 6));
	assert_int_equal(strlen(n->local_cpulist), 84);
	assert_string_equal(n->local_cpulist + strlen(n->local_cpulist) - 9, ",54,56,58");

	rdc_netif_free(n);
	assert_int_equal(rdc_netif_read("eth6", n, &err), -ENODEV);
	assert_contains(err.msg, "eth6");
	assert_int_equal(rdc_netif_read("../eth9", n, NULL), -ENODEV);
	assert_int_equal(rdc_netif_read("", n, NULL), -ENODEV);
	rdc_netif_free(n);
	free(n);
}

static void test_host_facts(void **state)
{
	struct rdc_host_facts f;
	struct rdc_err err = {0};
	char path[PATH_MAX];

	(void)state;
	assert_int_equal(rdc_host_facts_read(&f, &err), 0);
	assert_string_equal(f.kernel_release, "6.1.0-test");
	assert_int_equal(f.modules_present, 1);
	assert_int_equal(f.arp_ignore_all, 0);
	assert_int_equal(f.arp_announce_all, 2);
	assert_int_equal(f.rp_filter_all, 1);

	snprintf(path, sizeof(path), "%s/lib/modules/6.1.0-test", root);
	assert_int_equal(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/net/ipv4/conf/all/rp_filter", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rdc_host_facts_read(&f, &err), 0);
	assert_int_equal(f.modules_present, 0);
	assert_int_equal(f.rp_filter_all, -1);

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rdc_host_facts_read(&f, &err), 0);
	assert_string_equal(f.kernel_release, "");
	assert_int_equal(f.modules_present, -1);
}

/* ---- the same host with a kernel recording ---- */

static void hexline(FILE *fp, const char *prefix, const void *data, size_t len)
{
	char *hex = malloc(2 * len + 1);

	assert_non_null(hex);
	rdc_hex_encode(data, len, hex);
	fprintf(fp, "%s%s\n", prefix, hex);
	free(hex);
}

/* One ioctl exchange: the request's bytes, then the answer's (or an errno). */
static void rec_ioctl(FILE *fp, const char *ifname, const void *req, const void *ans, size_t len,
		      int error)
{
	char prefix[48];

	snprintf(prefix, sizeof(prefix), "> ioctl ethtool %s ", ifname);
	hexline(fp, prefix, req, len);
	if (error)
		fprintf(fp, "! %d\n", error);
	else
		hexline(fp, "< ", ans, len);
}

/* The GLINKSETTINGS buffer as kernel/ethtool.c sends it. */
struct link_buf {
	struct ethtool_link_settings req;
	uint32_t maps[3 * RDC_ETHTOOL_LINK_MODE_WORDS];
};

/* An RTM_GETADDR dump request as kernel/addr.c builds it, for @family. */
static struct nlmsghdr *getaddr(char *buf, int family)
{
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = family;
	return nlh;
}

/* Append one RTM_NEWADDR to @buf at @off; returns the new length. */
static size_t newaddr(char *buf, size_t off, int family, int ifindex, const void *addr,
		      unsigned int prefix_len, const char *label)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + off);
	struct ifaddrmsg *ifa;
	size_t alen = family == AF_INET ? 4 : 16;

	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_MULTI;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = family;
	ifa->ifa_prefixlen = prefix_len;
	ifa->ifa_index = ifindex;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	mnl_attr_put(nlh, IFA_ADDRESS, alen, addr);
	if (family == AF_INET)
		mnl_attr_put(nlh, IFA_LOCAL, alen, addr);
	if (label)
		mnl_attr_put_strz(nlh, IFA_LABEL, label);
	return off + nlh->nlmsg_len;
}

static size_t done(char *buf, size_t off)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + off);

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	return off + nlh->nlmsg_len;
}

static void write_recording(const char *path)
{
	struct ethtool_pauseparam pq = {.cmd = ETHTOOL_GPAUSEPARAM}, pa = pq;
	struct ethtool_fecparam fq = {.cmd = ETHTOOL_GFECPARAM}, fa = fq;
	struct ethtool_drvinfo dq = {.cmd = ETHTOOL_GDRVINFO}, da = dq;
	struct link_buf *lq = calloc(1, sizeof(*lq)), *la = calloc(1, sizeof(*la));
	char req[256], rep[2048];
	struct nlmsghdr *nlh;
	uint8_t a4[4], a6[16];
	size_t n;
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_non_null(lq);
	assert_non_null(la);
	fprintf(fp, "# rdmactl kernel recording v1\n");
	memset(rep, 0, sizeof(rep));

	/* Addresses: eth9 has 10.10.1.5/24, an alias and a v6 pair; eth8's are not eth9's. */
	n = 0;
	inet_pton(AF_INET, "10.10.1.5", a4);
	n = newaddr(rep, n, AF_INET, 9, a4, 24, "eth9");
	inet_pton(AF_INET, "10.10.2.5", a4);
	n = newaddr(rep, n, AF_INET, 8, a4, 24, "eth8");
	inet_pton(AF_INET, "169.254.3.3", a4);
	n = newaddr(rep, n, AF_INET, 9, a4, 16, "eth9:1");
	inet_pton(AF_INET, "10.10.9.9", a4);
	n = newaddr(rep, n, AF_INET, 10, a4, 24, "eth90"); /* a longer name, not an alias */
	n = done(rep, n);
	nlh = getaddr(req, AF_INET);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	hexline(fp, "< ", rep, n);
	n = 0;
	inet_pton(AF_INET6, "fd00::5", a6);
	n = newaddr(rep, n, AF_INET6, 9, a6, 64, NULL);
	inet_pton(AF_INET6, "fe80::1", a6);
	n = newaddr(rep, n, AF_INET6, 9, a6, 64, NULL);
	inet_pton(AF_INET6, "fd00::8", a6);
	n = newaddr(rep, n, AF_INET6, 8, a6, 64, NULL);
	n = done(rep, n);
	nlh = getaddr(req, AF_INET6);
	hexline(fp, "> nl 0 ", nlh, nlh->nlmsg_len);
	hexline(fp, "< ", rep, n);

	/* eth9: pause rx/tx without autoneg, FEC RS, 25G with a 10G/25G partner, mlx5. */
	pa.rx_pause = pa.tx_pause = 1;
	rec_ioctl(fp, "eth9", &pq, &pa, sizeof(pq), 0);
	fa.active_fec = ETHTOOL_FEC_RS;
	fa.fec = ETHTOOL_FEC_AUTO;
	rec_ioctl(fp, "eth9", &fq, &fa, sizeof(fq), 0);
	lq->req.cmd = la->req.cmd = ETHTOOL_GLINKSETTINGS;
	la->req.link_mode_masks_nwords = -4;
	rec_ioctl(fp, "eth9", lq, la, sizeof(*lq), 0);
	lq->req.link_mode_masks_nwords = la->req.link_mode_masks_nwords = 4;
	la->req.speed = 25000;
	la->req.duplex = DUPLEX_FULL;
	la->req.autoneg = AUTONEG_ENABLE;
	for (unsigned int bit = 0; bit < 128; bit++) {
		/* supported: Autoneg, 10G SR, 25G CR/SR, 100G CR4 (38); partner: 10G SR, 25G SR, Pause */
		if (bit == 6 || bit == 43 || bit == 31 || bit == 33 || bit == 38)
			set_bit(la->maps, bit);
		if (bit == 6 || bit == 43 || bit == 31 || bit == 33)
			set_bit(la->maps + 4, bit);
		if (bit == 43 || bit == 33 || bit == 13)
			set_bit(la->maps + 8, bit);
	}
	rec_ioctl(fp, "eth9", lq, la, sizeof(*lq), 0);
	rdc_strlcpy(da.driver, "mlx5_core", sizeof(da.driver));
	rdc_strlcpy(da.version, "6.1.0-test", sizeof(da.version));
	rdc_strlcpy(da.fw_version, "22.36.1010 (MT_0000000359)", sizeof(da.fw_version));
	rdc_strlcpy(da.bus_info, "0000:3b:00.0", sizeof(da.bus_info));
	rec_ioctl(fp, "eth9", &dq, &da, sizeof(dq), 0);

	/* eth8: no pause or FEC in its driver, no link settings recorded, no drvinfo. */
	rec_ioctl(fp, "eth8", &pq, NULL, sizeof(pq), EOPNOTSUPP);
	rec_ioctl(fp, "eth8", &fq, NULL, sizeof(fq), EOPNOTSUPP);

	/* eth7: FEC without an active mode (link down); a kernel that skips the handshake. */
	memset(&fa, 0, sizeof(fa));
	fa.cmd = ETHTOOL_GFECPARAM;
	fa.fec = ETHTOOL_FEC_AUTO;
	rec_ioctl(fp, "eth7", &fq, &fa, sizeof(fq), 0);
	memset(lq, 0, sizeof(*lq));
	memset(la, 0, sizeof(*la));
	lq->req.cmd = la->req.cmd = ETHTOOL_GLINKSETTINGS;
	la->req.link_mode_masks_nwords = 3;
	rec_ioctl(fp, "eth7", lq, la, sizeof(*lq), 0);
	fclose(fp);
	free(lq);
	free(la);
}

static void test_read_recording(void **state)
{
	struct rdc_err err = {0};
	struct rdc_netif *n = calloc(1, sizeof(*n));
	char path[PATH_MAX];

	(void)state;
	assert_non_null(n);
	snprintf(path, sizeof(path), "%s/%s", root, RDC_NL_REC_NAME);
	write_recording(path);
	if (rdc_nl_open(RDC_NL_REPLAY, path, &err))
		fail_msg("%s", err.msg);

	assert_int_equal(rdc_netif_read("eth9", n, &err), 0);
	assert_true(n->have_addrs);
	assert_null(n->addrs_reason);
	assert_int_equal(n->naddrs, 4);
	assert_int_equal(n->addrs[0].family, AF_INET);
	assert_string_equal(n->addrs[0].ip, "10.10.1.5");
	assert_memory_equal(n->addrs[0].raw, "\x0a\x0a\x01\x05", 4);
	assert_int_equal(n->addrs[0].prefix_len, 24);
	assert_false(n->addrs[0].link_local);
	assert_string_equal(n->addrs[1].ip, "169.254.3.3");
	assert_int_equal(n->addrs[1].prefix_len, 16);
	assert_true(n->addrs[1].link_local);
	assert_int_equal(n->addrs[2].family, AF_INET6);
	assert_string_equal(n->addrs[2].ip, "fd00::5");
	assert_int_equal(n->addrs[2].prefix_len, 64);
	assert_false(n->addrs[2].link_local);
	assert_string_equal(n->addrs[3].ip, "fe80::1");
	assert_true(n->addrs[3].link_local);

	assert_true(n->have_pause);
	assert_false(n->pause_autoneg);
	assert_true(n->pause_rx);
	assert_true(n->pause_tx);
	assert_true(n->have_fec);
	assert_string_equal(n->fec_active, "rs");
	assert_true(n->have_linkmodes);
	assert_int_equal(n->speed_mbps, 25000);
	assert_int_equal(n->max_speed_mbps, 100000);
	assert_int_equal(n->common_speed_mbps, 25000);
	assert_true(n->have_drvinfo);
	assert_string_equal(n->driver, "mlx5_core");
	assert_string_equal(n->driver_version, "6.1.0-test");
	assert_string_equal(n->fw_version, "22.36.1010 (MT_0000000359)");
	assert_string_equal(n->bus_info, "0000:3b:00.0");

	rdc_netif_free(n);
	assert_int_equal(rdc_netif_read("eth8", n, &err), 0);
	assert_true(n->have_addrs);
	assert_int_equal(n->naddrs, 2);
	assert_string_equal(n->addrs[0].ip, "10.10.2.5");
	assert_string_equal(n->addrs[1].ip, "fd00::8");
	assert_false(n->have_pause);
	assert_string_equal(n->pause_reason, "the driver does not support it (EOPNOTSUPP)");
	assert_false(n->have_fec);
	assert_string_equal(n->fec_reason, "the driver does not support it (EOPNOTSUPP)");
	assert_false(n->have_linkmodes);
	assert_string_equal(n->linkmodes_reason, "no answer in the recording");
	assert_int_equal(n->speed_mbps, -1);
	assert_false(n->have_drvinfo);
	assert_string_equal(n->driver, "");

	rdc_netif_free(n);
	assert_int_equal(rdc_netif_read("eth7", n, &err), 0);
	assert_int_equal(n->naddrs, 0);
	assert_false(n->have_fec);
	assert_contains(n->fec_reason, "no active FEC mode");
	assert_false(n->have_linkmodes);
	assert_contains(n->linkmodes_reason, "handshake");
	assert_contains(n->linkmodes_reason, "eth7");
	rdc_netif_free(n);
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_mode_speed),
		cmocka_unit_test(test_link_modes_fastest),
		cmocka_unit_test(test_fec_names),
		cmocka_unit_test(test_sysctl_effective),
		cmocka_unit_test_setup_teardown(test_read_files, setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_host_facts, setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_read_recording, setup_root, teardown_root),
	};

	return cmocka_run_group_tests_name("netif", tests, NULL, NULL);
}
