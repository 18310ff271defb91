/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dcbnl.h - IEEE DCB state of a netdev over dcbnl (RTM_GETDCB/RTM_SETDCB) */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/dcbnl.h>

#include "base/err.h"

#define RDC_DCB_MAX_APPS 256 /* 64 DSCP entries and room for other selectors */

/* What one DCB_CMD_IEEE_GET answered; have_* says whether the driver sent it. */
struct rdc_dcb {
	bool supported; /* the netdev answered dcbnl at all */
	bool have_pfc, have_ets, have_maxrate, have_buffer, have_dcbx;
	struct ieee_pfc pfc;
	struct ieee_ets ets;
	struct ieee_maxrate maxrate; /* kbit/s per TC, 0 = unlimited */
	struct dcbnl_buffer buffer;  /* sizes in bytes */
	uint8_t dcbx;		     /* DCB_CAP_DCBX_* bits */
	size_t napps;
	struct dcb_app apps[RDC_DCB_MAX_APPS];
	/* APP entries no driver can hold (DSCP past 63, priority past 7): left out, counted. */
	size_t napps_invalid;
	/*
	 * Sections whose values the kernel refuses on SET (a TC or buffer past 7, a
	 * share past 100%): a corrupt reply, left out (have_* false) and named here.
	 */
	bool ets_invalid, buffer_invalid;
};

/*
 * Read everything in one DCB_CMD_IEEE_GET.  A netdev whose driver has no
 * dcbnl operations gets -EOPNOTSUPP with a message that says so and why.
 */
int rdc_dcbnl_get(const char *ifname, struct rdc_dcb *dcb, struct rdc_err *err);

/* One DCB_CMD_IEEE_SET of one attribute; the dcbnl status byte is checked. */
int rdc_dcbnl_set_pfc(const char *ifname, const struct ieee_pfc *pfc, struct rdc_err *err);
int rdc_dcbnl_set_ets(const char *ifname, const struct ieee_ets *ets, struct rdc_err *err);
int rdc_dcbnl_set_maxrate(const char *ifname, const struct ieee_maxrate *rate, struct rdc_err *err);
int rdc_dcbnl_set_buffer(const char *ifname, const struct dcbnl_buffer *buf, struct rdc_err *err);
/* Add (DCB_CMD_IEEE_SET) or delete (DCB_CMD_IEEE_DEL) APP table entries. */
int rdc_dcbnl_apps(const char *ifname, bool add, const struct dcb_app *apps, size_t n,
		   struct rdc_err *err);
