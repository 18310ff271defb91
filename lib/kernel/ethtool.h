/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ethtool.h - netdev statistics (ioctl and netlink); link settings, pause, FEC, driver (ioctl) */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/counters.h"
#include "base/err.h"

/*
 * The driver's own statistics, what `ethtool -S` prints (group "driver"):
 * names such as rx_prio3_pause or rx_discards_phy exist only here.
 */
int rdc_ethtool_driver_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err);

/*
 * IEEE 802.3 / RMON standard statistics over ethtool netlink (groups
 * "eth_phy", "eth_mac", "eth_ctrl", "rmon"; ethtool spells them with "-") and the pause frame counters
 * (group "pause": tx_frames, rx_frames).  Drivers that implement none give
 * an empty set.
 */
int rdc_ethtool_std_stats(const char *ifname, struct rdc_counter_set *set, struct rdc_err *err);

/*
 * Link settings, pause, FEC and driver facts through the SIOCETHTOOL ioctl,
 * one fixed-size buffer per request so that recordings match by bytes.  A
 * driver without the operation answers -EOPNOTSUPP; under a root without the
 * answer in the recording the transport says -ENODATA.
 */

/* ETHTOOL_GDRVINFO: what `ethtool -i` prints. */
struct rdc_ethtool_drvinfo {
	char driver[32];     /* "mlx5_core" */
	char version[32];    /* the driver's version, often the kernel release */
	char fw_version[32]; /* "22.36.1010 (MT_0000000359)" */
	char bus_info[32];   /* "0000:3b:00.0" */
};

int rdc_ethtool_drvinfo_get(const char *ifname, struct rdc_ethtool_drvinfo *d, struct rdc_err *err);

/* ETHTOOL_GPAUSEPARAM: link-level (global) pause, not PFC. */
struct rdc_ethtool_pause {
	bool autoneg, rx, tx;
};

int rdc_ethtool_pause_get(const char *ifname, struct rdc_ethtool_pause *p, struct rdc_err *err);

/* ETHTOOL_GFECPARAM: @active and @configured are ETHTOOL_FEC_* bit masks. */
int rdc_ethtool_fec_get(const char *ifname, uint32_t *active, uint32_t *configured,
			struct rdc_err *err);

/*
 * The name of an ETHTOOL_FEC_* mask, lowercase as `ethtool --show-fec`
 * prints it: "off", "rs", "baser", "llrs", "auto", "none".  A mask with
 * several bits names the first of that list (a concrete mode before "auto");
 * 0 or unknown bits only give NULL.
 */
const char *rdc_ethtool_fec_name(uint32_t fec);

/* The most 32-bit words a link mode mask can have (link_mode_masks_nwords is an s8). */
#define RDC_ETHTOOL_LINK_MODE_WORDS 127

/* ETHTOOL_GLINKSETTINGS, after the nwords handshake. */
struct rdc_ethtool_link {
	int64_t speed_mbps;  /* current; -1 unknown (no link, SPEED_UNKNOWN) */
	int duplex;	     /* DUPLEX_HALF, DUPLEX_FULL, DUPLEX_UNKNOWN (0xff) */
	int autoneg;	     /* AUTONEG_DISABLE, AUTONEG_ENABLE */
	unsigned int nwords; /* words per mask, as the kernel answered */
	uint32_t supported[RDC_ETHTOOL_LINK_MODE_WORDS];
	uint32_t advertising[RDC_ETHTOOL_LINK_MODE_WORDS];
	uint32_t lp_advertising[RDC_ETHTOOL_LINK_MODE_WORDS]; /* the link partner's; 0 unknown */
};

int rdc_ethtool_link_get(const char *ifname, struct rdc_ethtool_link *l, struct rdc_err *err);

/*
 * Speed in Mb/s of link mode bit @bit (ETHTOOL_LINK_MODE_*_BIT numbers), 0
 * for bits that name no speed (Autoneg, TP, Pause, FEC_*) and bits newer
 * than the table.  @name, when not NULL, gets "25000baseCR_Full" or NULL.
 */
uint32_t rdc_ethtool_link_mode_speed(unsigned int bit, const char **name);

/*
 * The fastest speed (Mb/s) of a mode set in @a and, when @b is not NULL,
 * also in @b; masks of @nwords words.  -1 when there is none.
 */
int64_t rdc_ethtool_link_modes_fastest(const uint32_t *a, const uint32_t *b, unsigned int nwords);
