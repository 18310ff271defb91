// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * asan_options.c - linked into the sanitizer build's rdmactl only (make asan):
 * AddressSanitizer's built-in defaults, which ASAN_OPTIONS adds to.
 *
 * handle_sigill=1: that build's UBSan checks trap (ud2, SIGILL) instead of
 * calling libubsan (Makefile, ASAN_MAKE, says why), and with this a trap is
 * reported like a memory error: "AddressSanitizer: ILL", the stack, and the
 * file and line of the check that failed, not a bare "Illegal instruction".
 */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "handle_sigill=1";
}
