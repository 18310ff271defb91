/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcbnl_ext.h - dcbnl constants newer than Debian 12's <linux/dcbnl.h> (6.1).
 * Values from include/uapi/linux/dcbnl.h as of Linux v6.5; they are ABI and
 * never change.  Our own names, so a newer system header cannot clash.
 */
#pragma once

/* enum ieee_attrs_app: the non-IEEE PCP selector's entries (v6.4). */
#define RDC_DCB_ATTR_DCB_APP 2
