// SPDX-License-Identifier: GPL-2.0-or-later
/* ethtool.c - netdev statistics through the transport (ioctl and ethtool netlink) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "base/util.h"
#include "kernel/ethtool.h"
#include "kernel/nlattr.h"
#include "seam/nl.h"

/* A driver reporting more than this is broken or hostile; refuse before allocating. */
#define ETHTOOL_MAX_STATS 65536

int rdc_ethtool_driver_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} sset = {.hdr = {.cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS}};
	struct ethtool_gstrings *strings = NULL;
	struct ethtool_stats *stats = NULL;
	uint32_t n;
	int rc;

	rc = rdc_nl_ethtool_ioctl(ifname, &sset, sizeof(sset), 0, err);
	if (rc)
		return rc;
	/* The kernel clears the mask bit of a string set the driver lacks. */
	if (!(sset.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || sset.len == 0)
		return 0;
	n = sset.len;
	if (n > ETHTOOL_MAX_STATS)
		return rdc_err_set(err, EOVERFLOW, "'%s' reports %u statistics", ifname, n);

	strings = calloc(1, sizeof(*strings) + (size_t)n * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + (size_t)n * sizeof(uint64_t));
	if (!strings || !stats) {
		rc = rdc_err_set(err, ENOMEM, "cannot read statistics of '%s'", ifname);
		goto out;
	}
	strings->cmd = ETHTOOL_GSTRINGS;
	strings->string_set = ETH_SS_STATS;
	strings->len = n;
	rc = rdc_nl_ethtool_ioctl(ifname, strings, sizeof(*strings) + (size_t)n * ETH_GSTRING_LEN,
				  0, err);
	if (rc)
		goto out;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	rc = rdc_nl_ethtool_ioctl(ifname, stats, sizeof(*stats) + (size_t)n * sizeof(uint64_t), 0,
				  err);
	if (rc)
		goto out;
	/* The count can change between calls (a driver reconfigured); use the smaller. */
	if (strings->len < n)
		n = strings->len;
	if (stats->n_stats < n)
		n = stats->n_stats;
	for (uint32_t i = 0; i < n && !rc; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, strings->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		/* Some drivers pad names with spaces; keep the name, not the padding. */
		for (size_t l = strlen(name); l > 0 && name[l - 1] == ' '; l--)
			name[l - 1] = '\0';
		if (!name[0])
			continue;
		rc = rdc_counters_add(set, "driver", name, stats->data[i]);
		if (rc)
			rc = rdc_err_set(err, ENOMEM, "cannot read statistics of '%s'", ifname);
	}
out:
	free(strings);
	free(stats);
	return rc;
}

/*
 * Names of the standard statistics, indexed by the uapi attribute numbers
 * (ETHTOOL_A_STATS_ETH_MAC_2_TX_PKT = 0, ...): the IEEE 802.3 managed object
 * names that `ethtool -S --groups` prints.
 */
static const char *const std_phy_names[] = {"SymbolErrorDuringCarrier"};
static const char *const std_mac_names[] = {
	"FramesTransmittedOK",
	"SingleCollisionFrames",
	"MultipleCollisionFrames",
	"FramesReceivedOK",
	"FrameCheckSequenceErrors",
	"AlignmentErrors",
	"OctetsTransmittedOK",
	"FramesWithDeferredXmissions",
	"LateCollisions",
	"FramesAbortedDueToXSColls",
	"FramesLostDueToIntMACXmitError",
	"CarrierSenseErrors",
	"OctetsReceivedOK",
	"FramesLostDueToIntMACRcvError",
	"MulticastFramesXmittedOK",
	"BroadcastFramesXmittedOK",
	"FramesWithExcessiveDeferral",
	"MulticastFramesReceivedOK",
	"BroadcastFramesReceivedOK",
	"InRangeLengthErrors",
	"OutOfRangeLengthField",
	"FrameTooLongErrors",
};
static const char *const std_ctrl_names[] = {
	"MACControlFramesTransmitted",
	"MACControlFramesReceived",
	"UnsupportedOpcodesReceived",
};
static const char *const std_rmon_names[] = {
	"etherStatsUndersizePkts",
	"etherStatsOversizePkts",
	"etherStatsFragments",
	"etherStatsJabbers",
};

static const struct {
	const char *group;
	const char *const *names;
	size_t count;
} std_groups[] = {
	[ETHTOOL_STATS_ETH_PHY] = {"eth_phy", std_phy_names, RDC_ARRAY_SIZE(std_phy_names)},
	[ETHTOOL_STATS_ETH_MAC] = {"eth_mac", std_mac_names, RDC_ARRAY_SIZE(std_mac_names)},
	[ETHTOOL_STATS_ETH_CTRL] = {"eth_ctrl", std_ctrl_names, RDC_ARRAY_SIZE(std_ctrl_names)},
	[ETHTOOL_STATS_RMON] = {"rmon", std_rmon_names, RDC_ARRAY_SIZE(std_rmon_names)},
};

struct std_parse {
	struct rdc_counter_set *set;
	int rc;
	int64_t group; /* the ETHTOOL_STATS_* id of the group being read, -1 none */
	struct rdc_nla_why why;
};

static int std_parse_stat(const struct nlattr *stat, void *data)
{
	static const struct rdc_nla_policy u64 = {.kind = RDC_NLA_U64};
	struct std_parse *sp = data;
	uint16_t idx = mnl_attr_get_type(stat);

	if (!rdc_nla_ok(stat, &u64) || idx >= std_groups[sp->group].count || sp->rc)
		return 0;
	sp->rc = rdc_counters_add(sp->set, std_groups[sp->group].group,
				  std_groups[sp->group].names[idx], mnl_attr_get_u64(stat));
	return 0;
}

static int std_parse_group_stat(const struct nlattr *a, void *data)
{
	struct std_parse *sp = data;

	if (mnl_attr_get_type(a) != ETHTOOL_A_STATS_GRP_STAT)
		return 0;
	return rdc_nla_walk_nest(a, "ETHTOOL_A_STATS_GRP_STAT", std_parse_stat, sp, &sp->why);
}

/* One ETHTOOL_A_STATS_GRP nest: its id, then STAT nests of one u64 attribute each. */
static int std_parse_group(const struct nlattr *grp, struct std_parse *sp)
{
	static const struct rdc_nla_policy policy[] = {
		RDC_NLA(ETHTOOL_A_STATS_GRP_ID, RDC_NLA_ANY),
	};
	static const struct rdc_nla_policy u32 = {.kind = RDC_NLA_U32};
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	int rc = rdc_nla_parse_nest(grp, "ETHTOOL_A_STATS_GRP", policy, RDC_ARRAY_SIZE(tb), tb,
				    &sp->why);

	if (rc)
		return rc;
	sp->group = tb[ETHTOOL_A_STATS_GRP_ID] && rdc_nla_ok(tb[ETHTOOL_A_STATS_GRP_ID], &u32)
			    ? (int64_t)mnl_attr_get_u32(tb[ETHTOOL_A_STATS_GRP_ID])
			    : -1;
	if (sp->group < 0 || (size_t)sp->group >= RDC_ARRAY_SIZE(std_groups) ||
	    !std_groups[sp->group].group)
		return 0;
	return rdc_nla_walk_nest(grp, "ETHTOOL_A_STATS_GRP", std_parse_group_stat, sp, &sp->why);
}

static int std_stats_attr(const struct nlattr *attr, void *data)
{
	return mnl_attr_get_type(attr) == ETHTOOL_A_STATS_GRP ? std_parse_group(attr, data) : 0;
}

static int std_stats_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct std_parse *sp = arg;
	int rc = rdc_nla_walk_msg(nlh, GENL_HDRLEN, std_stats_attr, sp, &sp->why);

	return rc ? rc : sp->rc;
}

static int pause_stat(const struct nlattr *s, void *data)
{
	static const struct rdc_nla_policy u64 = {.kind = RDC_NLA_U64};
	struct std_parse *sp = data;
	const char *name = NULL;

	if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_TX_FRAMES)
		name = "tx_frames";
	else if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_RX_FRAMES)
		name = "rx_frames";
	if (name && rdc_nla_ok(s, &u64) && !sp->rc)
		sp->rc = rdc_counters_add(sp->set, "pause", name, mnl_attr_get_u64(s));
	return 0;
}

static int pause_stats_cb(const struct nlmsghdr *nlh, void *arg)
{
	static const struct rdc_nla_policy policy[] = {
		RDC_NLA(ETHTOOL_A_PAUSE_STATS, RDC_NLA_NEST),
	};
	const struct nlattr *tb[RDC_ARRAY_SIZE(policy)];
	struct std_parse *sp = arg;
	int rc = rdc_nla_parse_msg(nlh, GENL_HDRLEN, policy, RDC_ARRAY_SIZE(tb), tb, &sp->why);

	if (!rc && tb[ETHTOOL_A_PAUSE_STATS])
		rc = rdc_nla_walk_nest(tb[ETHTOOL_A_PAUSE_STATS], "ETHTOOL_A_PAUSE_STATS",
				       pause_stat, sp, &sp->why);
	return rc ? rc : sp->rc;
}

static struct nlmsghdr *ethnl_request(char buf[static 512], uint16_t family, uint8_t cmd,
				      uint16_t hdr_attr, const char *ifname, uint32_t flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	struct nlattr *nest;

	/* Zeroed, so attribute padding is deterministic: recordings match by bytes. */
	memset(buf, 0, 512);
	nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = ETHTOOL_GENL_VERSION;
	nest = mnl_attr_nest_start(nlh, hdr_attr);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

int rdc_ethtool_std_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err)
{
	struct std_parse sp = {.set = set, .group = -1};
	char buf[512];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint16_t family;
	int rc;

	rc = rdc_nl_genl_family(ETHTOOL_GENL_NAME, &family, err);
	if (rc)
		return rc;
	nlh = ethnl_request(buf, family, ETHTOOL_MSG_STATS_GET, ETHTOOL_A_STATS_HEADER, ifname, 0);
	/* The groups as a compact bitset: size 4 (the groups every kernel >= 5.13 knows). */
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GROUPS);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, RDC_ARRAY_SIZE(std_groups));
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_VALUE, (1U << RDC_ARRAY_SIZE(std_groups)) - 1);
	mnl_attr_nest_end(nlh, nest);
	rc = rdc_nl_talk(NETLINK_GENERIC, nlh, 0, std_stats_cb, &sp, err);
	if (rc == -EBADMSG && sp.why.text[0])
		return rdc_err_set(err, EBADMSG, "the ethtool statistics of '%s' are malformed: %s",
				   ifname, sp.why.text);
	if (rc)
		return rc == -ENOMEM ? rdc_err_set(err, ENOMEM, "cannot read statistics") : rc;

	nlh = ethnl_request(buf, family, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER, ifname,
			    ETHTOOL_FLAG_STATS);
	rc = rdc_nl_talk(NETLINK_GENERIC, nlh, 0, pause_stats_cb, &sp, err);
	if (rc == -EBADMSG && sp.why.text[0])
		return rdc_err_set(err, EBADMSG, "the pause statistics of '%s' are malformed: %s",
				   ifname, sp.why.text);
	/* Drivers without pause support answer EOPNOTSUPP: that is "no pause counters". */
	if (rc == -EOPNOTSUPP) {
		rdc_err_clear(err);
		rc = 0;
	}
	return rc;
}

/* ---- link settings, pause, FEC, driver (SIOCETHTOOL) -------------------- */

/*
 * The speed of each link mode bit, indexed by ETHTOOL_LINK_MODE_*_BIT.  The
 * numbers are the kernel's uAPI (include/uapi/linux/ethtool.h, the newest
 * here 1600000baseDR8_2 = 124) and never change; they are written out
 * because Debian 12's headers stop at 92.  Bits that are no speed (6-11
 * Autoneg..BNC, 13-14 Pause, 16 Backplane, 20 10000baseR_FEC, 49-51 and 74
 * FEC_*) are absent and read as 0, as in the kernel's link_mode_params.
 */
static const struct {
	uint32_t mbps;
	const char *name;
} link_modes[] = {
	[0] = {10, "10baseT_Half"},
	[1] = {10, "10baseT_Full"},
	[2] = {100, "100baseT_Half"},
	[3] = {100, "100baseT_Full"},
	[4] = {1000, "1000baseT_Half"},
	[5] = {1000, "1000baseT_Full"},
	[12] = {10000, "10000baseT_Full"},
	[15] = {2500, "2500baseX_Full"},
	[17] = {1000, "1000baseKX_Full"},
	[18] = {10000, "10000baseKX4_Full"},
	[19] = {10000, "10000baseKR_Full"},
	[21] = {20000, "20000baseMLD2_Full"},
	[22] = {20000, "20000baseKR2_Full"},
	[23] = {40000, "40000baseKR4_Full"},
	[24] = {40000, "40000baseCR4_Full"},
	[25] = {40000, "40000baseSR4_Full"},
	[26] = {40000, "40000baseLR4_Full"},
	[27] = {56000, "56000baseKR4_Full"},
	[28] = {56000, "56000baseCR4_Full"},
	[29] = {56000, "56000baseSR4_Full"},
	[30] = {56000, "56000baseLR4_Full"},
	[31] = {25000, "25000baseCR_Full"},
	[32] = {25000, "25000baseKR_Full"},
	[33] = {25000, "25000baseSR_Full"},
	[34] = {50000, "50000baseCR2_Full"},
	[35] = {50000, "50000baseKR2_Full"},
	[36] = {100000, "100000baseKR4_Full"},
	[37] = {100000, "100000baseSR4_Full"},
	[38] = {100000, "100000baseCR4_Full"},
	[39] = {100000, "100000baseLR4_ER4_Full"},
	[40] = {50000, "50000baseSR2_Full"},
	[41] = {1000, "1000baseX_Full"},
	[42] = {10000, "10000baseCR_Full"},
	[43] = {10000, "10000baseSR_Full"},
	[44] = {10000, "10000baseLR_Full"},
	[45] = {10000, "10000baseLRM_Full"},
	[46] = {10000, "10000baseER_Full"},
	[47] = {2500, "2500baseT_Full"},
	[48] = {5000, "5000baseT_Full"},
	[52] = {50000, "50000baseKR_Full"},
	[53] = {50000, "50000baseSR_Full"},
	[54] = {50000, "50000baseCR_Full"},
	[55] = {50000, "50000baseLR_ER_FR_Full"},
	[56] = {50000, "50000baseDR_Full"},
	[57] = {100000, "100000baseKR2_Full"},
	[58] = {100000, "100000baseSR2_Full"},
	[59] = {100000, "100000baseCR2_Full"},
	[60] = {100000, "100000baseLR2_ER2_FR2_Full"},
	[61] = {100000, "100000baseDR2_Full"},
	[62] = {200000, "200000baseKR4_Full"},
	[63] = {200000, "200000baseSR4_Full"},
	[64] = {200000, "200000baseLR4_ER4_FR4_Full"},
	[65] = {200000, "200000baseDR4_Full"},
	[66] = {200000, "200000baseCR4_Full"},
	[67] = {100, "100baseT1_Full"},
	[68] = {1000, "1000baseT1_Full"},
	[69] = {400000, "400000baseKR8_Full"},
	[70] = {400000, "400000baseSR8_Full"},
	[71] = {400000, "400000baseLR8_ER8_FR8_Full"},
	[72] = {400000, "400000baseDR8_Full"},
	[73] = {400000, "400000baseCR8_Full"},
	[75] = {100000, "100000baseKR_Full"},
	[76] = {100000, "100000baseSR_Full"},
	[77] = {100000, "100000baseLR_ER_FR_Full"},
	[78] = {100000, "100000baseCR_Full"},
	[79] = {100000, "100000baseDR_Full"},
	[80] = {200000, "200000baseKR2_Full"},
	[81] = {200000, "200000baseSR2_Full"},
	[82] = {200000, "200000baseLR2_ER2_FR2_Full"},
	[83] = {200000, "200000baseDR2_Full"},
	[84] = {200000, "200000baseCR2_Full"},
	[85] = {400000, "400000baseKR4_Full"},
	[86] = {400000, "400000baseSR4_Full"},
	[87] = {400000, "400000baseLR4_ER4_FR4_Full"},
	[88] = {400000, "400000baseDR4_Full"},
	[89] = {400000, "400000baseCR4_Full"},
	[90] = {100, "100baseFX_Half"},
	[91] = {100, "100baseFX_Full"},
	[92] = {10, "10baseT1L_Full"},
	[93] = {800000, "800000baseCR8_Full"},
	[94] = {800000, "800000baseKR8_Full"},
	[95] = {800000, "800000baseDR8_Full"},
	[96] = {800000, "800000baseDR8_2_Full"},
	[97] = {800000, "800000baseSR8_Full"},
	[98] = {800000, "800000baseVR8_Full"},
	[99] = {10, "10baseT1S_Full"},
	[100] = {10, "10baseT1S_Half"},
	[101] = {10, "10baseT1S_P2MP_Half"},
	[102] = {10, "10baseT1BRR_Full"},
	[103] = {200000, "200000baseCR_Full"},
	[104] = {200000, "200000baseKR_Full"},
	[105] = {200000, "200000baseDR_Full"},
	[106] = {200000, "200000baseDR_2_Full"},
	[107] = {200000, "200000baseSR_Full"},
	[108] = {200000, "200000baseVR_Full"},
	[109] = {400000, "400000baseCR2_Full"},
	[110] = {400000, "400000baseKR2_Full"},
	[111] = {400000, "400000baseDR2_Full"},
	[112] = {400000, "400000baseDR2_2_Full"},
	[113] = {400000, "400000baseSR2_Full"},
	[114] = {400000, "400000baseVR2_Full"},
	[115] = {800000, "800000baseCR4_Full"},
	[116] = {800000, "800000baseKR4_Full"},
	[117] = {800000, "800000baseDR4_Full"},
	[118] = {800000, "800000baseDR4_2_Full"},
	[119] = {800000, "800000baseSR4_Full"},
	[120] = {800000, "800000baseVR4_Full"},
	[121] = {1600000, "1600000baseCR8_Full"},
	[122] = {1600000, "1600000baseKR8_Full"},
	[123] = {1600000, "1600000baseDR8_Full"},
	[124] = {1600000, "1600000baseDR8_2_Full"},
};

uint32_t rdc_ethtool_link_mode_speed(unsigned int bit, const char **name)
{
	if (name)
		*name = bit < RDC_ARRAY_SIZE(link_modes) ? link_modes[bit].name : NULL;
	return bit < RDC_ARRAY_SIZE(link_modes) ? link_modes[bit].mbps : 0;
}

int64_t rdc_ethtool_link_modes_fastest(const uint32_t *a, const uint32_t *b, unsigned int nwords)
{
	int64_t best = -1;

	for (unsigned int w = 0; w < nwords; w++) {
		uint32_t bits = a[w] & (b ? b[w] : UINT32_MAX);

		for (unsigned int i = 0; bits && i < 32; i++) {
			uint32_t mbps;

			if (!(bits & (1U << i)))
				continue;
			mbps = rdc_ethtool_link_mode_speed(w * 32 + i, NULL);
			if (mbps && (int64_t)mbps > best)
				best = mbps;
		}
	}
	return best;
}

/*
 * The order names are chosen in when a mask has several bits: a concrete
 * mode first, then "auto", then "none" (the driver cannot configure FEC).
 */
static const struct {
	uint32_t bit;
	const char *name;
} fec_names[] = {
	{ETHTOOL_FEC_OFF, "off"},   {ETHTOOL_FEC_RS, "rs"},	{ETHTOOL_FEC_BASER, "baser"},
	{ETHTOOL_FEC_LLRS, "llrs"}, {ETHTOOL_FEC_AUTO, "auto"}, {ETHTOOL_FEC_NONE, "none"},
};

const char *rdc_ethtool_fec_name(uint32_t fec)
{
	for (size_t i = 0; i < RDC_ARRAY_SIZE(fec_names); i++)
		if (fec & fec_names[i].bit)
			return fec_names[i].name;
	return NULL;
}

/* Copy a fixed-size kernel string that may lack its NUL. */
static void ethtool_copy_str(char *dst, size_t size, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int rdc_ethtool_drvinfo_get(const char *ifname, struct rdc_ethtool_drvinfo *d, struct rdc_err *err)
{
	/* The whole struct, cmd set and the rest zero: the bytes a recording holds. */
	struct ethtool_drvinfo info;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(&info, 0, sizeof(info));
	info.cmd = ETHTOOL_GDRVINFO;
	rc = rdc_nl_ethtool_ioctl(ifname, &info, sizeof(info), 0, err);
	if (rc)
		return rc;
	ethtool_copy_str(d->driver, sizeof(d->driver), info.driver, sizeof(info.driver));
	ethtool_copy_str(d->version, sizeof(d->version), info.version, sizeof(info.version));
	ethtool_copy_str(d->fw_version, sizeof(d->fw_version), info.fw_version,
			 sizeof(info.fw_version));
	ethtool_copy_str(d->bus_info, sizeof(d->bus_info), info.bus_info, sizeof(info.bus_info));
	return 0;
}

int rdc_ethtool_pause_get(const char *ifname, struct rdc_ethtool_pause *p, struct rdc_err *err)
{
	struct ethtool_pauseparam pp;
	int rc;

	memset(p, 0, sizeof(*p));
	memset(&pp, 0, sizeof(pp));
	pp.cmd = ETHTOOL_GPAUSEPARAM;
	rc = rdc_nl_ethtool_ioctl(ifname, &pp, sizeof(pp), 0, err);
	if (rc)
		return rc;
	p->autoneg = pp.autoneg != 0;
	p->rx = pp.rx_pause != 0;
	p->tx = pp.tx_pause != 0;
	return 0;
}

int rdc_ethtool_fec_get(const char *ifname, uint32_t *active, uint32_t *configured,
			struct rdc_err *err)
{
	struct ethtool_fecparam fp;
	int rc;

	*active = *configured = 0;
	memset(&fp, 0, sizeof(fp));
	fp.cmd = ETHTOOL_GFECPARAM;
	rc = rdc_nl_ethtool_ioctl(ifname, &fp, sizeof(fp), 0, err);
	if (rc)
		return rc;
	*active = fp.active_fec;
	*configured = fp.fec;
	return 0;
}

/*
 * ETHTOOL_GLINKSETTINGS takes a handshake: asked with nwords 0, the kernel
 * answers success with only cmd and nwords = -N set (N words per mask:
 * 3 while the kernel knows at most 96 modes, as 6.1 does, 4 once the 800G
 * modes passed that); asked again with N, it
 * fills the settings and the three masks supported, advertising,
 * lp_advertising of N words each.  Both requests use the same buffer size,
 * large enough for any N an s8 can say, so each has one fixed byte string
 * for the recording.
 */
struct ethtool_link_req {
	struct ethtool_link_settings req;
	uint32_t maps[3 * RDC_ETHTOOL_LINK_MODE_WORDS];
};

int rdc_ethtool_link_get(const char *ifname, struct rdc_ethtool_link *l, struct rdc_err *err)
{
	struct ethtool_link_req lr;
	unsigned int n;
	int rc;

	memset(l, 0, sizeof(*l));
	l->speed_mbps = -1;
	memset(&lr, 0, sizeof(lr));
	lr.req.cmd = ETHTOOL_GLINKSETTINGS;
	rc = rdc_nl_ethtool_ioctl(ifname, &lr, sizeof(lr), 0, err);
	if (rc)
		return rc;
	if (lr.req.link_mode_masks_nwords >= 0 || lr.req.cmd != ETHTOOL_GLINKSETTINGS)
		return rdc_err_set(err, EPROTO,
				   "link settings of '%s': the kernel skipped the handshake",
				   ifname);
	n = (unsigned int)-lr.req.link_mode_masks_nwords;
	if (n > RDC_ETHTOOL_LINK_MODE_WORDS) /* -128 */
		return rdc_err_set(err, EPROTO, "link settings of '%s': the kernel wants %u words",
				   ifname, n);

	memset(&lr, 0, sizeof(lr));
	lr.req.cmd = ETHTOOL_GLINKSETTINGS;
	lr.req.link_mode_masks_nwords = (int8_t)n;
	rc = rdc_nl_ethtool_ioctl(ifname, &lr, sizeof(lr), 0, err);
	if (rc)
		return rc;
	if (lr.req.link_mode_masks_nwords != (int8_t)n)
		return rdc_err_set(err, EPROTO, "link settings of '%s': the kernel wants %d words",
				   ifname, lr.req.link_mode_masks_nwords);
	l->nwords = n;
	memcpy(l->supported, lr.maps, n * sizeof(uint32_t));
	memcpy(l->advertising, lr.maps + n, n * sizeof(uint32_t));
	memcpy(l->lp_advertising, lr.maps + 2 * (size_t)n, n * sizeof(uint32_t));
	/* SPEED_UNKNOWN is (u32)-1; 0 and anything past INT_MAX are no speed either. */
	l->speed_mbps = lr.req.speed == 0 || lr.req.speed > INT32_MAX ? -1 : (int64_t)lr.req.speed;
	l->duplex = lr.req.duplex;
	l->autoneg = lr.req.autoneg;
	return 0;
}
