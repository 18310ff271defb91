// SPDX-License-Identifier: GPL-2.0-or-later
/* cpulist.c - the kernel's CPU list format ("0-3,8,10-11") */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"

int rdc_cpulist_parse(const char *text, unsigned char *cpus, size_t ncpus)
{
	const char *s = text;

	memset(cpus, 0, ncpus);
	while (*s && *s != '\n') {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		a = b = strtoul(s, &end, 10);
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1]))
				return -EINVAL;
			b = strtoul(s + 1, &end, 10);
			s = end;
			if (b < a)
				return -EINVAL;
		}
		for (unsigned long c = a; c <= b && c < ncpus; c++)
			cpus[c] = 1;
		if (*s == ',' && isdigit((unsigned char)s[1]))
			s++;
		else if (*s && *s != '\n')
			return -EINVAL; /* "0,", "0;1", "0-" */
	}
	return 0;
}
