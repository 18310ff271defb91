// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ub_probe.c - make asan's proof that undefined behaviour is still caught and
 * reported in a binary built with the sanitizer build's flags: UBSan's checks
 * trap there (-fsanitize-undefined-trap-on-error, no libubsan: Makefile says
 * why), and AddressSanitizer's SIGILL handler (asan_options.c) must turn the
 * trap into a report that names this file's line.
 */
#include <limits.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int big = INT_MAX;

	(void)argv;
	/* Signed overflow: argc is 1, and the compiler cannot know it. */
	printf("%d\n", big + argc);
	return 0;
}
