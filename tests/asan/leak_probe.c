// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leak_probe.c - make asan's proof that LeakSanitizer still reports leaks in a
 * binary built with the sanitizer build's flags and linked with what it adds to
 * rdmactl (bss_hugepages.o, -no-pie): it leaks 64 blocks on purpose and must exit
 * with LeakSanitizer's report.
 */
#include <stdlib.h>
#include <string.h>

static char *volatile last;

/* Many blocks, so that a stale copy of a pointer in a register or a dead stack slot
 * (LeakSanitizer scans both, conservatively) cannot hide them all. */
static __attribute__((noinline)) void leak(void)
{
	for (size_t i = 0; i < 64; i++) {
		last = malloc(4096 + i);
		if (last)
			memset(last, 1, 4096 + i);
	}
	last = NULL;
}

int main(void)
{
	leak();
	return 0;
}
