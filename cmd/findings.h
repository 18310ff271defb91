/* SPDX-License-Identifier: GPL-2.0-or-later */
/* findings.h - findings in text, JSON and YAML (bond check, diag), and their exit status */
#pragma once

#include "base/finding.h"
#include "cmd.h"

/* "findings": every finding with its evidence, why and fix; text coloured by severity. */
void findings_emit(struct rdc_out *o, const struct rdc_findings *list);
/* One finding as an element of an open "findings" array. */
void findings_emit_one(struct rdc_out *o, const struct rdc_finding *f);
/*
 * What a finding or a skipped check is about, for JSON/YAML: "device",
 * "port", "netdev", "bond", each null where it is not about one.
 */
void findings_emit_object(struct rdc_out *o, const char *device, unsigned int port,
			  const char *netdev, const char *bond);
/*
 * -b, text only: "warn  link.mtu  eth0: TITLE", one line per finding (what
 * it is about: the bond, netdev or DEV/PORT; "host" for neither), the title
 * wrapped under itself, never cut.  Evidence, why and fix are left to the
 * full form; JSON and YAML print the full form with and without -b.
 */
void findings_emit_brief(struct rdc_out *o, const struct rdc_finding *f);
/* "summary": how many of each severity. */
void findings_summary(struct rdc_out *o, const struct rdc_findings *list);
/* 0 nothing (or notes only), 1 a failure, 3 warnings only. */
int findings_exit(const struct rdc_findings *list);
