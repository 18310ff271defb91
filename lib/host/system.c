// SPDX-License-Identifier: GPL-2.0-or-later
/* system.c - which system the models read: the live kernel, a --root bundle, a recording */
#include <stdio.h>

#include "host/system.h"
#include "seam/fs.h"
#include "seam/nl.h"

int rdc_system_open(const struct rdc_system_opts *o, struct rdc_err *err)
{
	char rec[4096];
	int rc;

	rc = rdc_fs_set_root(o->root, err);
	if (rc)
		return rc;
	if (o->replay)
		return rdc_nl_open(RDC_NL_REPLAY, o->replay, err);
	if (o->record)
		return rdc_nl_open(RDC_NL_RECORD, o->record, err);
	if (!rdc_fs_root())
		return rdc_nl_open(RDC_NL_LIVE, NULL, err);
	/* Found through the file layer: the recording is part of the rooted bundle. */
	if (!rdc_fs_exists("/%s", RDC_NL_REC_NAME))
		return rdc_nl_open(RDC_NL_OFF, NULL, err);
	snprintf(rec, sizeof(rec), "%s/%s", rdc_fs_root(), RDC_NL_REC_NAME);
	return rdc_nl_open(RDC_NL_REPLAY, rec, err);
}

void rdc_system_close(void)
{
	rdc_nl_close();
}

bool rdc_system_live(void)
{
	return !rdc_fs_root() && rdc_nl_mode() != RDC_NL_REPLAY;
}

int rdc_system_set_root(const char *root, struct rdc_err *err)
{
	return rdc_fs_set_root(root, err);
}
