/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpulist.h - the kernel's CPU list format */
#pragma once

#include <stddef.h>

/*
 * A sysfs CPU list ("0-3,8,10-11") into flags: @cpus[i] = 1 for each CPU i
 * below @ncpus (higher ones are ignored).  -EINVAL when malformed.
 */
int rdc_cpulist_parse(const char *text, unsigned char *cpus, size_t ncpus);
