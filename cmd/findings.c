// SPDX-License-Identifier: GPL-2.0-or-later
/* findings.c - findings in text, JSON and YAML, and the exit status they give */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "findings.h"
#include "term.h"

static enum rdc_color severity_color(enum rdc_severity sev)
{
	return sev == RDC_SEV_FAIL   ? RDC_COLOR_RED
	       : sev == RDC_SEV_WARN ? RDC_COLOR_YELLOW
				     : RDC_COLOR_NONE;
}

/* "" is "not about one": null (rdc_out_str says NULL as null). */
static const char *or_null(const char *name)
{
	return name && name[0] ? name : NULL;
}

void findings_emit_object(struct rdc_out *o, const char *device, unsigned int port,
			  const char *netdev, const char *bond)
{
	rdc_out_str(o, RDC_OUT_MACHINE, "device", NULL, or_null(device));
	if (or_null(device))
		rdc_out_u64(o, RDC_OUT_MACHINE, "port", NULL, port);
	else
		rdc_out_null(o, "port", NULL);
	rdc_out_str(o, RDC_OUT_MACHINE, "netdev", NULL, or_null(netdev));
	rdc_out_str(o, RDC_OUT_MACHINE, "bond", NULL, or_null(bond));
}

/*
 * An evidence's value for JSON/YAML, typed: "value" (number, boolean,
 * string, or null when it could not be read or only its movement is
 * known), "delta" and "window_s" for a counter over a window (else null),
 * "detail" (else null).  Units are in the evidence's name.
 */
static void emit_evidence_value(struct rdc_out *o, const struct rdc_evidence *e)
{
	switch (e->type) {
	case RDC_EV_TEXT: {
		/* Without " (detail)", which is a key of its own; whole, however long. */
		char *words = strndup(e->value, e->words_len);

		rdc_out_str(o, RDC_OUT_MACHINE, "value", NULL, words ? words : e->value);
		free(words);
		break;
	}
	case RDC_EV_INT:
		rdc_out_i64(o, RDC_OUT_MACHINE, "value", NULL, e->num.i);
		break;
	case RDC_EV_UINT:
		rdc_out_u64(o, RDC_OUT_MACHINE, "value", NULL, e->num.u);
		break;
	case RDC_EV_REAL:
		rdc_out_f64(o, RDC_OUT_MACHINE, "value", NULL, e->num.d);
		break;
	case RDC_EV_BOOL:
		rdc_out_bool(o, RDC_OUT_MACHINE, "value", NULL, e->num.b);
		break;
	case RDC_EV_NONE:
		rdc_out_null(o, "value", NULL);
		break;
	}
	if (e->windowed) {
		rdc_out_u64(o, RDC_OUT_MACHINE, "delta", NULL, e->delta);
		rdc_out_f64(o, RDC_OUT_MACHINE, "window_s", NULL, e->window_s);
	} else {
		rdc_out_null(o, "delta", NULL);
		rdc_out_null(o, "window_s", NULL);
	}
	rdc_out_bool(o, RDC_OUT_MACHINE, "since_reset", NULL, e->counter && !e->windowed);
	rdc_out_str(o, RDC_OUT_MACHINE, "detail", NULL, or_null(e->detail));
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
	/*
	 * What it is about: machine keys only, text shows it in the title or the
	 * group.  All four always there, null where the finding is not about one.
	 */
	findings_emit_object(o, f->device, f->device[0] ? f->port : 0, f->netdev, f->bond);
	rdc_tline_wrap_str(&l, RDC_TL_SPACE, "title", f->title);
	rdc_tline_end(&l);
	rdc_out_arr_open(o, "evidence");
	for (size_t k = 0; k < f->nevidence; k++) {
		rdc_out_obj_open(o, NULL);
		rdc_tline_begin(&l, o, 8, 10);
		rdc_tline_str(&l, RDC_TL_SPACE, "name", "%s", f->evidence[k].name, RDC_COLOR_NONE);
		rdc_tline_text(&l, RDC_TL_SPACE, RDC_COLOR_NONE, "=");
		/* Text says it in words; JSON carries it typed. */
		rdc_tline_words(&l, RDC_TL_SPACE, f->evidence[k].value);
		emit_evidence_value(o, &f->evidence[k]);
		/* "(dcbnl DCB_CMD_IEEE_GET ...)": a source of several words wraps between them. */
		rdc_out_str(o, RDC_OUT_MACHINE, "source", NULL, f->evidence[k].source);
		if (f->evidence[k].source[0] && rdc_out_is_text(o)) {
			size_t size = strlen(f->evidence[k].source) + 3;
			char *src = malloc(size);

			if (src) {
				snprintf(src, size, "(%s)", f->evidence[k].source);
				rdc_tline_words(&l, RDC_TL_SPACE, src);
			}
			free(src);
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
		char *line = rdc_finding_fix_command_dup(f);

		rdc_out_str(o, RDC_OUT_MACHINE, "fix_command", NULL, line);
		free(line);
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
