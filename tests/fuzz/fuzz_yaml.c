// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_yaml.c - libFuzzer: the YAML files rdmactl reads (pfc apply, bond netplan, diag policy) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "bond/netplan.h"
#include "diag/diag.h"

#include "fuzz.h"

/*
 * Built three times from this file, one loader each (FUZZ_YAML_*), so that
 * each has its own corpus.  Any file: 0, or -errno with a message; a
 * refused policy file leaves the policy as it was; nothing leaks.
 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".yaml");
	struct rdc_err err = {0};
	int rc;

	if (!path)
		return 0;
#if defined(FUZZ_YAML_PFC) || defined(FUZZ_YAML_NETPLAN)
	struct rdc_cfg cfg;

#ifdef FUZZ_YAML_PFC
	rc = rdc_cfg_load(path, &cfg, &err);
#else
	rc = rdc_bond_netplan_load(path, &cfg, &err);
#endif
	rdc_cfg_free(&cfg); /* also after an error, as cmd/ does: it holds what was read */
#else
	struct rdc_diag_policy p, before;

	rdc_diag_policy_init(&p);
	before = p;
	rc = rdc_diag_policy_load(path, &p, &err);
	if (rc && memcmp(&p, &before, sizeof(p)))
		fuzz_fail("fuzz_yaml", "a refused policy file changed the policy");
#endif
	if (rc && (rc > 0 || rc != -err.code || !err.msg[0]))
		fuzz_fail("fuzz_yaml", "an error without its record");
	return 0;
}
