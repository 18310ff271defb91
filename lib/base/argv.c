// SPDX-License-Identifier: GPL-2.0-or-later
/* argv.c - a command as words, and as the one line a shell runs */
#include <string.h>

#include "base/argv.h"
#include "base/util.h"

void rdc_argv_add(struct rdc_argv *a, const char *word)
{
	if (a->argc >= RDC_ARGV_MAX || strlen(word) >= RDC_ARGV_WORD) {
		a->argc = RDC_ARGV_MAX + 1;
		return;
	}
	rdc_strlcpy(a->argv[a->argc++], word, RDC_ARGV_WORD);
}

int rdc_argv_ok(const struct rdc_argv *a)
{
	return a->argc > 0 && a->argc <= RDC_ARGV_MAX;
}

static int word_plain(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    "_@%+=:,./-",
			    *w))
			return 0;
	return 1;
}

size_t rdc_argv_join(const struct rdc_argv *a, char *buf, size_t size)
{
	size_t len = 0;

#define PUT(c)                                                                                     \
	do {                                                                                       \
		if (len + 1 < size)                                                                \
			buf[len] = (c);                                                            \
		len++;                                                                             \
	} while (0)
	for (size_t i = 0; rdc_argv_ok(a) && i < a->argc; i++) {
		const char *w = a->argv[i];

		if (i)
			PUT(' ');
		if (word_plain(w)) {
			for (; *w; w++)
				PUT(*w);
			continue;
		}
		PUT('\'');
		for (; *w; w++) {
			if (*w != '\'') {
				PUT(*w);
				continue;
			}
			PUT('\'');
			PUT('\\');
			PUT('\'');
			PUT('\'');
		}
		PUT('\'');
	}
#undef PUT
	if (size)
		buf[len < size ? len : 0] = '\0';
	return len;
}
