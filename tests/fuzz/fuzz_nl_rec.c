// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_nl_rec.c - libFuzzer: a kernel recording loaded, then every request in it replayed */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "base/util.h"
#include "seam/nl.h"

#include "fuzz.h"

/*
 * Whatever the file holds (lib/seam/nl.c):
 *   - loading returns 0 or -errno with a message naming the file;
 *   - every request it records can be asked; the answers reach the callback
 *     as whole messages, each inside its datagram, whose attributes a consumer
 *     walks; the result is 0 or -errno with its record, errno 1..4095;
 *   - strict replay judges it without crashing; nothing leaks.
 */

static int walk_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *attr;
	size_t *n = arg;

	if (nlh->nlmsg_len < sizeof(*nlh))
		fuzz_fail("fuzz_nl_rec", "a message shorter than its header reached the callback");
	/* What a consumer does: skip a family header of 4 bytes, walk attributes. */
	mnl_attr_for_each (attr, nlh, 4)
		*n += mnl_attr_get_payload_len(attr);
	return 0;
}

static void check_rc(int rc, const struct rdc_err *err)
{
	if (rc > 0 || rc < -RDC_NL_MAX_ERRNO)
		fuzz_fail("fuzz_nl_rec", "a result that is no -errno");
	if (rc && (rc != -err->code || !err->msg[0]))
		fuzz_fail("fuzz_nl_rec", "an error without its record");
}

/* Ask what one "> " line of the input asks, if it is well-formed enough to be asked. */
static void ask(char *line)
{
	static unsigned char buf[RDC_NL_REC_MAX_LINE / 2 + 8];
	char *save = NULL, *kind = strtok_r(line, " ", &save), *a = strtok_r(NULL, " ", &save);
	char *b = strtok_r(NULL, " ", &save), *c = strtok_r(NULL, " ", &save);
	struct rdc_err err = {0};
	size_t n = 0;
	long len;
	int rc;

	if (!kind || !a || !b)
		return;
	if (!strcmp(kind, "nl")) {
		len = rdc_hex_decode(b, buf, sizeof(buf));
		if (len < (long)sizeof(struct nlmsghdr) ||
		    ((struct nlmsghdr *)buf)->nlmsg_len != (uint32_t)len)
			return;
		rc = rdc_nl_talk(atoi(a) & 31, (struct nlmsghdr *)buf, 0, walk_cb, &n, &err);
		check_rc(rc, &err);
	} else if (!strcmp(kind, "ioctl") && c) {
		len = rdc_hex_decode(c, buf, sizeof(buf));
		if (len <= 0)
			return;
		rc = rdc_nl_ethtool_ioctl(b, buf, (size_t)len, 0, &err);
		check_rc(rc, &err);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".rec");
	struct rdc_err err = {0};
	char *text, *line, *save = NULL;
	int rc;

	if (!path || size > RDC_NL_REC_MAX_LINE)
		return 0;
	rc = rdc_nl_open(RDC_NL_REPLAY, path, &err);
	if (rc) {
		if (rc != -err.code || !strstr(err.msg, path))
			fuzz_fail("fuzz_nl_rec", "a bad recording's error does not name the file");
		rdc_nl_close();
		return 0;
	}
	rdc_nl_set_strict(size % 2 ? RDC_NL_STRICT_ALL : RDC_NL_STRICT_ASKED);
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* Every request twice: the second time is a repeat (or the next recorded answer). */
	for (int pass = 0; pass < 2; pass++) {
		char *copy = strdup(text);

		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "> ", 2))
				ask(line + 2);
		free(copy);
		save = NULL;
	}
	memset(&err, 0, sizeof(err));
	rc = rdc_nl_strict_check(&err);
	if (rc && (rc != -EPROTO || !err.msg[0]))
		fuzz_fail("fuzz_nl_rec", "strict replay failed without saying what");
	free(text);
	rdc_nl_close();
	return 0;
}
