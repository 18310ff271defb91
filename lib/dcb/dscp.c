// SPDX-License-Identifier: GPL-2.0-or-later
/* dscp.c - DSCP code points by number or by name, as dcb(8) and rt_dsfield spell them */
#include <strings.h>

#include "base/util.h"
#include "dcb/dscp.h"

/* The code point, not the TOS byte rt_dsfield lists (that is this << 2). */
static const struct {
	const char *name;
	unsigned int dscp;
} dscp_names[] = {
	{"CS0", 0},   {"CS1", 8},   {"AF11", 10}, {"AF12", 12}, {"AF13", 14},	{"CS2", 16},
	{"AF21", 18}, {"AF22", 20}, {"AF23", 22}, {"CS3", 24},	{"AF31", 26},	{"AF32", 28},
	{"AF33", 30}, {"CS4", 32},  {"AF41", 34}, {"AF42", 36}, {"AF43", 38},	{"CS5", 40},
	{"VA", 44},   {"EF", 46},   {"CS6", 48},  {"CS7", 56},	{"default", 0},
};

bool rdc_dscp_parse(const char *word, unsigned int *dscp)
{
	uint32_t v;

	if (!rdc_parse_u32_range(word, 0, 63, &v)) {
		*dscp = v;
		return true;
	}
	for (size_t i = 0; i < RDC_ARRAY_SIZE(dscp_names); i++) {
		if (!strcasecmp(word, dscp_names[i].name)) {
			*dscp = dscp_names[i].dscp;
			return true;
		}
	}
	return false;
}
