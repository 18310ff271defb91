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
	[ETHTOOL_STATS_ETH_PHY] = {"eth-phy", std_phy_names, RDC_ARRAY_SIZE(std_phy_names)},
	[ETHTOOL_STATS_ETH_MAC] = {"eth-mac", std_mac_names, RDC_ARRAY_SIZE(std_mac_names)},
	[ETHTOOL_STATS_ETH_CTRL] = {"eth-ctrl", std_ctrl_names, RDC_ARRAY_SIZE(std_ctrl_names)},
	[ETHTOOL_STATS_RMON] = {"rmon", std_rmon_names, RDC_ARRAY_SIZE(std_rmon_names)},
};

struct std_parse {
	struct rdc_counter_set *set;
	int rc;
};

/* One ETHTOOL_A_STATS_GRP nest: its id, then STAT nests of one u64 attribute each. */
static void std_parse_group(const struct nlattr *grp, struct std_parse *sp)
{
	const struct nlattr *a, *stat;
	int64_t id = -1;

	mnl_attr_for_each_nested (a, grp) {
		if (mnl_attr_get_type(a) == ETHTOOL_A_STATS_GRP_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			id = mnl_attr_get_u32(a);
	}
	if (id < 0 || (size_t)id >= RDC_ARRAY_SIZE(std_groups) || !std_groups[id].group)
		return;
	mnl_attr_for_each_nested (a, grp) {
		if (mnl_attr_get_type(a) != ETHTOOL_A_STATS_GRP_STAT)
			continue;
		mnl_attr_for_each_nested (stat, a) {
			uint16_t idx = mnl_attr_get_type(stat);

			if (mnl_attr_validate(stat, MNL_TYPE_U64) < 0 ||
			    idx >= std_groups[id].count)
				continue;
			if (!sp->rc)
				sp->rc = rdc_counters_add(sp->set, std_groups[id].group,
							  std_groups[id].names[idx],
							  mnl_attr_get_u64(stat));
		}
	}
}

static int std_stats_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct std_parse *sp = arg;
	const struct nlattr *attr;

	mnl_attr_for_each (attr, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(attr) == ETHTOOL_A_STATS_GRP)
			std_parse_group(attr, sp);
	}
	return sp->rc;
}

static int pause_stats_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct std_parse *sp = arg;
	const struct nlattr *attr, *s;

	mnl_attr_for_each (attr, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(attr) != ETHTOOL_A_PAUSE_STATS)
			continue;
		mnl_attr_for_each_nested (s, attr) {
			const char *name = NULL;

			if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_TX_FRAMES)
				name = "tx_frames";
			else if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_RX_FRAMES)
				name = "rx_frames";
			if (name && mnl_attr_validate(s, MNL_TYPE_U64) == 0 && !sp->rc)
				sp->rc = rdc_counters_add(sp->set, "pause", name,
							  mnl_attr_get_u64(s));
		}
	}
	return sp->rc;
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
	struct std_parse sp = {.set = set};
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
	if (rc)
		return rc == -ENOMEM ? rdc_err_set(err, ENOMEM, "cannot read statistics") : rc;

	nlh = ethnl_request(buf, family, ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER, ifname,
			    ETHTOOL_FLAG_STATS);
	rc = rdc_nl_talk(NETLINK_GENERIC, nlh, 0, pause_stats_cb, &sp, err);
	/* Drivers without pause support answer EOPNOTSUPP: that is "no pause counters". */
	if (rc == -EOPNOTSUPP) {
		rdc_err_clear(err);
		rc = 0;
	}
	return rc;
}
