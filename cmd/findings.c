// SPDX-License-Identifier: GPL-2.0-or-later
/* findings.c - findings in text, JSON and YAML, and the exit status they give */
#include <inttypes.h>
#include <stdio.h>

#include "findings.h"
#include "term.h"

static enum rdc_color severity_color(enum rdc_severity sev)
{
	return sev == RDC_SEV_FAIL   ? RDC_COLOR_RED
	       : sev == RDC_SEV_WARN ? RDC_COLOR_YELLOW
				     : RDC_COLOR_NONE;
}

void findings_emit_one(struct rdc_out *o, const struct rdc_finding *f)
{
	struct rdc_tline l;

	rdc_out_obj_open(o, NULL);
	/* "  warn bond.none: TITLE", the title wrapped under itself. */
	rdc_tline_begin(&l, o, 2, 8);
	rdc_tline_str(&l, RDC_TL_GAP, "severity", "%-4s", rdc_severity_name(f->severity),
		      severity_color(f->severity));
	rdc_tline_str(&l, RDC_TL_SPACE, "id", "%s:", f->id, RDC_COLOR_NONE);
	/* What it is about: machine keys only, text shows it in the title or the group. */
	if (f->device[0]) {
		rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, f->device);
		rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, f->port);
	}
	if (f->netdev[0])
		rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL, f->netdev);
	if (f->bond[0])
		rdc_out_str(o, RDC_OUT_MACHINE, "bond", NULL, f->bond);
	rdc_tline_wrap_str(&l, RDC_TL_SPACE, "title", f->title);
	rdc_tline_end(&l);
	rdc_out_arr_open(o, "evidence");
	for (size_t k = 0; k < f->nevidence; k++) {
		rdc_out_obj_open(o, NULL);
		rdc_tline_begin(&l, o, 8, 10);
		rdc_tline_str(&l, RDC_TL_SPACE, "name", "%s", f->evidence[k].name, RDC_COLOR_NONE);
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "=");
		rdc_tline_wrap_str(&l, RDC_TL_SPACE, "value", f->evidence[k].value);
		/* "(dcbnl DCB_CMD_IEEE_GET ...)": a source of several words wraps between them. */
		rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, f->evidence[k].source);
		if (f->evidence[k].source[0]) {
			char src[sizeof(f->evidence[k].source) + 2];

			snprintf(src, sizeof(src), "(%s)", f->evidence[k].source);
			rdc_tline_words(&l, RDC_TL_SPACE, src);
		}
		rdc_tline_end(&l);
		rdc_out_obj_close(o);
	}
	rdc_out_arr_close(o);
	rdc_tline_begin(&l, o, 8, 13);
	rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "why:");
	rdc_tline_wrap_str(&l, RDC_TL_SPACE, "why", f->why[0] ? f->why : NULL);
	rdc_tline_end(&l);
	rdc_tline_begin(&l, o, 8, 13);
	rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "fix:");
	rdc_tline_wrap_str(&l, RDC_TL_SPACE, "fix", f->fix[0] ? f->fix : NULL);
	rdc_tline_end(&l);
	/* The command again, whole and as words, for scripts: null when the fix is words. */
	if (rdc_argv_ok(&f->fix_argv)) {
		char line[sizeof(f->fix)];

		rdc_finding_fix_command(f, line, sizeof(line));
		rdc_out_str(o, RDC_OUT_MACHINE, "fix_command", NULL, line);
		rdc_out_arr_open(o, "fix_argv");
		for (size_t i = 0; i < f->fix_argv.argc; i++)
			rdc_out_str(o, RDC_OUT_MACHINE, NULL, NULL, f->fix_argv.argv[i]);
		rdc_out_arr_close(o);
	} else {
		rdc_out_null(o, "fix_command", NULL);
		rdc_out_null(o, "fix_argv", NULL);
	}
	/* Text says it in the title ("since boot/counter reset"); scripts and metrics read this. */
	rdc_out_bool(o, RDC_OUT_MACHINE, "since_reset", NULL, f->since_reset);
	rdc_out_obj_close(o);
}

void findings_emit_brief(struct rdc_out *o, const struct rdc_finding *f)
{
	char object[sizeof(f->device) + 16]; /* "DEV/PORT:", the longest of the four */
	struct rdc_tline l;

	if (f->bond[0])
		snprintf(object, sizeof(object), "%s:", f->bond);
	else if (f->netdev[0])
		snprintf(object, sizeof(object), "%s:", f->netdev);
	else if (f->device[0])
		snprintf(object, sizeof(object), "%s/%u:", f->device, f->port);
	else
		snprintf(object, sizeof(object), "host:");
	rdc_tline_begin(&l, o, 0, 6);
	rdc_tline_str(&l, RDC_TL_GAP, "severity", "%-4s", rdc_severity_name(f->severity),
		      severity_color(f->severity));
	rdc_tline_str(&l, RDC_TL_SPACE, "id", "%s", f->id, RDC_COLOR_NONE);
	rdc_tline_str(&l, RDC_TL_SPACE, "object", "%s", object, RDC_COLOR_NONE);
	rdc_tline_wrap_str(&l, RDC_TL_SPACE, "title", f->title);
	rdc_tline_end(&l);
}

void findings_emit(struct rdc_out *o, const struct rdc_findings *list)
{
	rdc_out_arr_open(o, "findings");
	for (size_t i = 0; i < list->count; i++)
		findings_emit_one(o, &list->items[i]);
	rdc_out_arr_close(o);
}

void findings_summary(struct rdc_out *o, const struct rdc_findings *list)
{
	rdc_out_obj_open(o, "summary");
	rdc_out_u64(o, RDC_OUT_ANY, "fail", "%" PRIu64 " failed, ",
		    rdc_findings_count(list, RDC_SEV_FAIL));
	rdc_out_u64(o, RDC_OUT_ANY, "warn", "%" PRIu64 " warnings, ",
		    rdc_findings_count(list, RDC_SEV_WARN));
	rdc_out_u64(o, RDC_OUT_ANY, "info", "%" PRIu64 " notes\n",
		    rdc_findings_count(list, RDC_SEV_INFO));
	rdc_out_u64(o, RDC_OUT_MACHINE, "dropped", NULL, list->dropped);
	rdc_out_obj_close(o);
}

int findings_exit(const struct rdc_findings *list)
{
	if (!list->count && !list->dropped)
		return RDC_EXIT_OK;
	switch (rdc_findings_worst(list)) {
	case RDC_SEV_FAIL:
		return RDC_EXIT_FAIL;
	case RDC_SEV_WARN:
		return RDC_EXIT_WARN;
	case RDC_SEV_INFO:
		break;
	}
	return RDC_EXIT_OK;
}
