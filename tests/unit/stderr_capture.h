/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stderr_capture.h - unit tests: what a call writes on stderr, as text */
#pragma once

#include <stdio.h>
#include <unistd.h>

/* Include after <cmocka.h>.  Run @fn(@ctx) with stderr sent to a temporary file; its text in @buf. */
static inline void stderr_capture(void (*fn)(const void *ctx), const void *ctx, char *buf,
				  size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	fn(ctx);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, size - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}
