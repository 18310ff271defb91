/* SPDX-License-Identifier: GPL-2.0-or-later */
/* argv.h - a command as words, and as the one line a shell runs */
#pragma once

#include <stddef.h>

/*
 * Words of a command a finding or verdict prints: the longest, pfc apply with
 * every profile parameter, has 15; a word is a name, a number or a list of
 * two netdevs.  A finding holds one, so the bounds stay small.
 */
#define RDC_ARGV_MAX 16
#define RDC_ARGV_WORD 48

struct rdc_argv {
	size_t argc;
	char argv[RDC_ARGV_MAX][RDC_ARGV_WORD];
};

/*
 * Append a word; a word that does not fit (too many, too long) marks the
 * command cut (argc = RDC_ARGV_MAX + 1), which rdc_argv_ok() refuses: a
 * command is printed whole or not at all.
 */
void rdc_argv_add(struct rdc_argv *a, const char *word);

/* Words as a NULL-terminated array, for the calls below: RDC_WORDS("rdmactl", "port", dev). */
#define RDC_WORDS(...) ((const char *const[]){__VA_ARGS__, NULL})
int rdc_argv_ok(const struct rdc_argv *a);

/*
 * The words as one POSIX shell line: a word of [A-Za-z0-9_@%+=:,./-] only is
 * as it is, any other (empty, blanks, quotes, $, *, ...) in single quotes,
 * a ' inside as '\''.  Returns the length it needed; a @buf too small holds
 * "" then.
 */
size_t rdc_argv_join(const struct rdc_argv *a, char *buf, size_t size);
