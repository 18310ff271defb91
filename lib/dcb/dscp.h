/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dscp.h - DSCP code points by number or by name, as dcb(8) and rt_dsfield spell them */
#pragma once

#include <stdbool.h>

/*
 * @word as a DSCP code point (0-63) into @dscp: a decimal number, or a name
 * of RFC 2474/2597/3246/5865, any case: CS0-CS7, AF11-AF43, EF, VA, and
 * "default" (0).  dcb(8) takes the names of /etc/iproute2/rt_dsfield, whose
 * stock entries are these (less CS0 and VA).  false when @word is neither.
 */
bool rdc_dscp_parse(const char *word, unsigned int *dscp);
