// SPDX-License-Identifier: GPL-2.0-or-later
/* gid.c - GID table entries */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/gid.h"
#include "host/gid_verbs.h"
#include "host/system.h"
#include "host/sysval.h"
#include "seam/fs.h"
#include "seam/nl.h"

/*
 * sysfs GID text -> bytes
 *   "fe80:0000:0000:0000:0e42:a1ff:fe65:8a10"  -> fe 80 00 .. 0e 42 a1 ff fe 65 8a 10
 *   "0000:0000:0000:0000:0000:ffff:c0a8:0a0b"  -> IPv4-mapped 192.168.10.11
 *   "fe80::1" (compressed), "0000:0000" (short)  -> -EINVAL: sysfs never prints those
 */
int rdc_gid_parse(const char *text, uint8_t raw[16])
{
	char hex[33];
	size_t n = 0;

	for (int group = 0; group < 8; group++) {
		for (int i = 0; i < 4; i++, text++) {
			if (!*text) /* rdc_hex_decode() takes only hex digits */
				return -EINVAL;
			hex[n++] = *text;
		}
		if (group < 7 && *text++ != ':')
			return -EINVAL;
	}
	if (*text)
		return -EINVAL;
	hex[n] = '\0';
	return rdc_hex_decode(hex, raw, 16) == 16 ? 0 : -EINVAL;
}

void rdc_gid_format(const uint8_t raw[16], char text[40])
{
	for (size_t g = 0; g < 8; g++)
		snprintf(text + 5 * g, 6, "%02x%02x%s", raw[2 * g], raw[2 * g + 1],
			 g < 7 ? ":" : "");
}

bool rdc_gid_is_zero(const uint8_t raw[16])
{
	static const uint8_t zero[16];

	return !memcmp(raw, zero, 16);
}

bool rdc_gid_is_bare_link_local(const uint8_t raw[16])
{
	static const uint8_t bare[16] = {0xfe, 0x80};

	return !memcmp(raw, bare, 16);
}

void rdc_gid_derive_ip(struct rdc_gid *gid)
{
	static const uint8_t v4mapped[12] = {[10] = 0xff, [11] = 0xff};

	gid->link_local = gid->raw[0] == 0xfe && (gid->raw[1] & 0xc0) == 0x80;
	if (!memcmp(gid->raw, v4mapped, sizeof(v4mapped))) {
		gid->family = AF_INET;
		inet_ntop(AF_INET, gid->raw + 12, gid->ip, sizeof(gid->ip));
	} else {
		gid->family = AF_INET6;
		inet_ntop(AF_INET6, gid->raw, gid->ip, sizeof(gid->ip));
	}
}

enum rdc_gid_type rdc_gid_type_parse(const char *sysfs_text, bool ethernet)
{
	/* The kernel names the v1 type "IB/RoCE v1" because both share one format. */
	if (!strcmp(sysfs_text, "IB/RoCE v1"))
		return ethernet ? RDC_GID_ROCE_V1 : RDC_GID_IB;
	if (!strcmp(sysfs_text, "RoCE v2"))
		return RDC_GID_ROCE_V2;
	return RDC_GID_UNKNOWN;
}

const char *rdc_gid_type_name(enum rdc_gid_type type)
{
	switch (type) {
	case RDC_GID_IB:
		return "IB";
	case RDC_GID_ROCE_V1:
		return "RoCE v1";
	case RDC_GID_ROCE_V2:
		return "RoCE v2";
	case RDC_GID_UNKNOWN:
		break;
	}
	return "unknown";
}

void rdc_gid_mark_recommended(struct rdc_gid *gids, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		bool taken = false;

		if (gids[i].type != RDC_GID_ROCE_V2 || gids[i].link_local || !gids[i].family)
			continue;
		for (size_t j = 0; j < i; j++)
			if (gids[j].recommended && !strcmp(gids[j].ip, gids[i].ip))
				taken = true;
		gids[i].recommended = !taken;
	}
}

#define GID_DIR "/sys/class/infiniband/%s/ports/%u"

/*
 * @dir (PATH_MAX bytes) holds the port's GID_DIR, @len bytes: append @sub
 * ("/gids/") and the slot's name, for the one path of the three files of a
 * slot, without formatting it again for each (a table is 256 slots or more).
 */
static const char *gid_path(char *dir, size_t len, const char *sub, const char *slot)
{
	size_t sn = strlen(sub), n = strlen(slot);

	if (len + sn + n >= PATH_MAX)
		return NULL;
	memcpy(dir + len, sub, sn + 1);
	memcpy(dir + len + sn, slot, n + 1);
	return dir;
}

/*
 * One slot of the port whose GID_DIR @dir holds (@len bytes; the path is
 * built on its end).  Returns 1 (an entry in @gid), 0 (an unused slot) or -1
 * (a slot that exists but cannot be read or parsed: recorded, gid->unreadable
 * set).
 */
static int gid_read_slot(char *dir, size_t len, const char *slot, bool ethernet,
			 struct rdc_gid *gid, struct rdc_issues *issues)
{
	struct rdc_err err = {0};
	const char *path;
	char buf[64] = "";
	int rc;

	/* What rdc_sysval_str() does, the path built here. */
	path = gid_path(dir, len, "/gids/", slot);
	rc = path ? rdc_fs_read(buf, sizeof(buf), &err, "%s", path)
		  : rdc_err_set(&err, ENAMETOOLONG, "path too long");
	if (rc == -ENOENT) /* listed, then gone: the table changed under us */
		return 0;
	if (rc < 0 || rdc_gid_parse(buf, gid->raw) < 0) {
		if (rc < 0)
			rdc_issues_add(issues, &err);
		else
			rdc_sysval_bad(issues, path, buf, "a GID");
		gid->unreadable = true;
		return -1;
	}
	if (rdc_gid_is_zero(gid->raw) || rdc_gid_is_bare_link_local(gid->raw))
		return 0;
	rdc_gid_format(gid->raw, gid->text);
	/*
	 * The kernel fails attribute reads of unused entries (EINVAL): an entry
	 * freed between the two reads.  Anything else is a failure to report.
	 */
	path = gid_path(dir, len, "/gid_attrs/types/", slot);
	rc = path ? rdc_fs_read(buf, sizeof(buf), &err, "%s", path)
		  : rdc_err_set(&err, ENAMETOOLONG, "path too long");
	if (rc == -EINVAL)
		return 0;
	if (rc < 0 && rc != -ENOENT) {
		rdc_issues_add(issues, &err);
		gid->type_unreadable = true;
	}
	if (rc >= 0)
		gid->type = rdc_gid_type_parse(buf, ethernet);
	/* No netdev (InfiniBand) reads EINVAL; a missing file is an older kernel. */
	path = gid_path(dir, len, "/gid_attrs/ndevs/", slot);
	rc = path ? rdc_fs_read(gid->netdev, sizeof(gid->netdev), &err, "%s", path)
		  : rdc_err_set(&err, ENAMETOOLONG, "path too long");
	if (rc < 0) {
		gid->netdev[0] = '\0';
		if (rc != -EINVAL && rc != -ENOENT)
			rdc_issues_add(issues, &err);
	}
	if (ethernet)
		rdc_gid_derive_ip(gid);
	return 1;
}

static int gid_table_read(const char *dev, unsigned int port, bool ethernet, struct rdc_gid **gids,
			  size_t *count, struct rdc_issues *issues, struct rdc_err *err)
{
	struct rdc_names slots;
	struct rdc_gid *out = NULL, *grown;
	char dir[PATH_MAX];
	size_t n = 0, cap = 0, len;
	int rc;

	*gids = NULL;
	*count = 0;
	rc = snprintf(dir, sizeof(dir), GID_DIR, dev, port);
	if (rc < 0 || rc >= (int)sizeof(dir))
		return rdc_err_set(err, ENAMETOOLONG, "cannot read GIDs of '%s/%u'", dev, port);
	len = (size_t)rc;
	/* The slots and their attributes are read below it: from its fd under a root. */
	rdc_fs_expect_dir("%s", dir);
	rc = rdc_fs_list(&slots, err, "%s/gids", dir);
	if (rc)
		return rc;
	for (size_t i = 0; i < slots.count; i++) {
		struct rdc_gid gid = {0};
		uint64_t index;

		if (rdc_parse_u64(slots.names[i], 10, &index) || index > UINT32_MAX)
			continue;
		gid.index = (unsigned int)index;
		rc = gid_read_slot(dir, len, slots.names[i], ethernet, &gid, issues);
		if (rc == 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(out, cap * sizeof(*out));
			if (!grown) {
				rc = rdc_err_set(err, ENOMEM, "cannot read GIDs of '%s/%u'", dev,
						 port);
				goto err_free;
			}
			out = grown;
		}
		out[n++] = gid;
	}
	rdc_names_free(&slots);
	rdc_gid_mark_recommended(out, n);
	*gids = out;
	*count = n;
	return 0;

err_free:
	free(out);
	rdc_names_free(&slots);
	return rc;
}

/*
 * Where a table comes from:
 *
 *   live, no --record        ibv_query_gid_table(), one per device (gid_verbs.h);
 *                            on any failure, sysfs, silently
 *   --root DIR (a bundle)    sysfs under DIR
 *   --replay FILE            sysfs (the files are the host's, the messages the recording's)
 *   --record FILE            sysfs: verbs are not part of a recording, and `diag
 *                            collect` records while it copies what is read into
 *                            its bundle, which must hold the GID files
 *
 * Both give the same entries for the same kernel state (the lab compares
 * `port gids` with and without --record, tests/lab/15-gid-table.bats).
 */
static bool gid_from_verbs(void)
{
	return rdc_system_live() && rdc_nl_mode() == RDC_NL_LIVE;
}

int rdc_gid_table_read_all(const char *dev, unsigned int port, bool ethernet, struct rdc_gid **gids,
			   size_t *count, struct rdc_issues *issues, struct rdc_err *err)
{
	if (gid_from_verbs() && !rdc_gid_verbs_read(dev, port, ethernet, gids, count))
		return 0;
	return gid_table_read(dev, port, ethernet, gids, count, issues, err);
}

int rdc_gid_table_match(const char *dev, unsigned int port, bool ethernet, const uint8_t *raw,
			const char *netdev, char *found, size_t size, bool *match,
			struct rdc_err *err)
{
	struct rdc_issues ignored = {0};
	struct rdc_gid *gids = NULL;
	size_t n = 0;
	int rc;

	*match = false;
	rc = rdc_gid_table_read_all(dev, port, ethernet, &gids, &n, &ignored, err);
	rdc_issues_free(&ignored);
	if (rc)
		return rc == -ENOMEM ? rc : 0;
	for (size_t i = 0; i < n && !*match; i++) {
		const struct rdc_gid *g = &gids[i];

		if (g->unreadable)
			continue;
		if (raw ? !memcmp(g->raw, raw, 16) : (g->netdev[0] && !strcmp(g->netdev, netdev))) {
			*match = true;
			if (found)
				rdc_strlcpy(found, g->netdev, size);
		}
	}
	free(gids);
	return 0;
}
