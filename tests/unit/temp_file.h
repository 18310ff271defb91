/* SPDX-License-Identifier: GPL-2.0-or-later */
/* temp_file.h - unit tests: some text as a private file for the loaders that take a path */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Include after <cmocka.h>. Write @text to a new file from @tmpl ("/tmp/NAME-XXXXXX", rewritten) and return @tmpl. */
static inline const char *temp_file_with(char *tmpl, const char *text)
{
	int fd = mkstemp(tmpl);
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return tmpl;
}
