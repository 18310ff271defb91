/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - what the libFuzzer targets share: the entry point, a failure, the input as a file */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_fail(const char *target, const char *what)
{
	fprintf(stderr, "%s: %s\n", target, what);
	abort();
}

/*
 * The loaders under test take a path: the input goes to one private file,
 * made once per process (mkstemp under $TMPDIR or /tmp) and rewritten for
 * every input.  Returns its path, or NULL (then the input is skipped).
 */
static char fuzz_path[256];

static inline void fuzz_file_remove(void)
{
	unlink(fuzz_path);
}

static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	char *path = fuzz_path;
	FILE *fp;

	if (!path[0]) {
		const char *tmp = getenv("TMPDIR");
		int fd;

		snprintf(path, sizeof(fuzz_path), "%s/rdmactl-fuzz-XXXXXX%s",
			 tmp && *tmp ? tmp : "/tmp", suffix);
		fd = mkstemps(path, (int)strlen(suffix));
		if (fd < 0) {
			path[0] = '\0';
			return NULL;
		}
		close(fd);
		atexit(fuzz_file_remove);
	}
	fp = fopen(path, "we");
	if (!fp)
		return NULL;
	if (size && fwrite(data, 1, size, fp) != size) {
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	return path;
}
