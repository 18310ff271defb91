// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_bundle.c - libFuzzer: a support bundle given to --root, unpacked and opened */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "host/bundle.h"
#include "host/system.h"
#include "seam/fs.h"
#include "seam/nl.h"

#include "fuzz.h"

/*
 * The bytes as a file given to --root (rdc_system_open): a tarball is
 * unpacked by tar into a private directory and its kernel.rec loaded; any
 * input opens or fails with a message, and closing removes what was
 * unpacked.  tar runs once per input: slow (hundreds of inputs a second),
 * so the corpus holds small bundles.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".tar.gz");
	struct rdc_system_opts o = {0};
	struct rdc_err err = {0};
	char buf[64];
	int rc;

	if (!path || size < 2 || data[0] != 0x1f || data[1] != 0x8b)
		return 0;
	o.root = path;
	rc = rdc_system_open(&o, &err);
	if (rc && (rc > 0 || rc != -err.code || !err.msg[0]))
		fuzz_fail("fuzz_bundle", "an error without its record");
	if (!rc) {
		/* Read through the jail, as a verb would: what a link out of the root names never shows. */
		static const char *const paths[] = {
			"/sys/class/net/lo/mtu",
			"/sys/x",
			"/sys/a",
			"/sys/class/infiniband/mlx5_0/fw_ver",
			"/sys/class/infiniband/mlx5_0/board_id",
			"/sys/class/infiniband/mlx5_0/node_desc",
		};

		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			if (rdc_fs_read(buf, sizeof(buf), NULL, "%s", paths[i]) > 0 &&
			    (!strncmp(buf, "root:", 5) || strstr(buf, "PATH=")))
				fuzz_fail("fuzz_bundle", "read through a link out of the root");
		rdc_fs_exists("/%s", RDC_NL_REC_NAME);
	}
	rdc_system_close();
	return 0;
}
