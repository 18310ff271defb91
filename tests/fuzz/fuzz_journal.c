// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_journal.c - libFuzzer: undo journals (base/journal.h) and the plans they keep */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/journal.h"
#include "base/util.h"
#include "bond/plan.h"
#include "dcb/plan.h"
#include "host/link.h"

#include "fuzz.h"

static const struct rdc_change_ops *const kinds[] = {&rdc_link_change_ops, &rdc_dcb_change_ops,
						     &rdc_bond_change_ops, NULL};

/*
 * Any bytes: parsed or refused with a record; a journal accepted has only
 * names that can be netdevs and a printable command; each plan kept is
 * loaded by its kind's checks or refused, never used half-checked.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdc_change *plans = calloc(RDC_JOURNAL_MAX_CHANGES, sizeof(*plans));
	struct rdc_journal *j = calloc(1, sizeof(*j));
	struct rdc_err err = {0};
	int rc;

	if (!plans || !j)
		goto out;
	rc = rdc_journal_parse(data, size, j, &err);
	if (rc) {
		if (rc > 0 || rc != -err.code || !err.msg[0])
			fuzz_fail("fuzz_journal", "a refusal without its record");
		goto out;
	}
	for (size_t i = 0; i < j->nnetdevs; i++)
		if (!rdc_ifname_valid(j->netdevs[i]))
			fuzz_fail("fuzz_journal", "a netdev that cannot be one");
	for (const char *c = j->command; *c; c++)
		if (*c < 0x20 || *c >= 0x7f)
			fuzz_fail("fuzz_journal", "a command with a control byte");
	memset(&err, 0, sizeof(err));
	rc = rdc_journal_plans(j, kinds, plans, &err);
	if (!rc) {
		for (size_t i = 0; i < j->nchanges; i++)
			if (strcmp(plans[i].ops->name(plans[i].plan), j->changes[i].name))
				fuzz_fail("fuzz_journal", "a plan loaded under another name");
		rdc_journal_plans_free(plans, j->nchanges);
	} else if (rc > 0 || !err.msg[0]) {
		fuzz_fail("fuzz_journal", "a plan refused without its record");
	}
	rdc_journal_free(j);
out:
	free(plans);
	free(j);
	return 0;
}
