// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_bond_procfs.c - libFuzzer: /proc/net/bonding/<bond> text into a bond record */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bond/procfs.h"

#include "fuzz.h"

/* Any text, not NUL-terminated where it ends: 0, or -errno with a message. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_err err = {0};
	struct rdc_bond *b = calloc(1, sizeof(*b));
	char *text = malloc(size ? size : 1);
	int rc;

	if (!b || !text)
		goto out;
	if (size)
		memcpy(text, data, size);
	rc = rdc_bond_procfs_parse(text, size, b, &err);
	if (rc && (rc > 0 || rc != -err.code || !err.msg[0]))
		fuzz_fail("fuzz_bond_procfs", "an error without its record");
out:
	free(text);
	free(b);
	return 0;
}
