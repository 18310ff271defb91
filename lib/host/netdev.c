// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev.c - network interface facts from sysfs */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "host/link.h"
#include "host/netdev.h"
#include "host/sysval.h"
#include "seam/fs.h"

/* A name with '/' or ".." would walk out of /sys/class/net. */
static bool netdev_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

bool rdc_netdev_exists(const char *name)
{
	return netdev_name_ok(name) && rdc_fs_exists("/sys/class/net/%s", name);
}

int rdc_netdev_names(struct rdc_names *names, struct rdc_err *err)
{
	size_t kept = 0;
	int rc = rdc_fs_list(names, err, "/sys/class/net");

	/* The class directory also holds files (bonding_masters): keep interfaces only. */
	for (size_t i = 0; !rc && i < names->count; i++) {
		if (rdc_fs_exists("/sys/class/net/%s/ifindex", names->names[i]))
			names->names[kept++] = names->names[i];
		else
			free(names->names[i]);
	}
	if (!rc)
		names->count = kept;
	return rc;
}

static void netdev_read_bond(struct rdc_netdev *nd)
{
	char buf[512], *tok, *save = NULL;

	nd->is_bond = true;
	/* "802.3ad 4": the name, then the number. */
	if (rdc_fs_read(buf, sizeof(buf), NULL, "/sys/class/net/%s/bonding/mode", nd->name) >= 0) {
		tok = strtok_r(buf, " ", &save);
		rdc_strlcpy(nd->bond_mode, tok ? tok : "", sizeof(nd->bond_mode));
	}
	if (rdc_fs_read(buf, sizeof(buf), NULL, "/sys/class/net/%s/bonding/slaves", nd->name) < 0)
		return;
	save = NULL;
	for (tok = strtok_r(buf, " ", &save); tok && nd->nslaves < RDC_BOND_MAX_SLAVES;
	     tok = strtok_r(NULL, " ", &save))
		rdc_strlcpy(nd->slaves[nd->nslaves++], tok, IF_NAMESIZE);
}

/*
 * speed reads EINVAL while the link is down and "-1" on some virtual devices:
 * that is the kernel saying "unknown" (-1, nothing to report).  Anything else
 * that cannot be read or is not a number is an issue, and -1 too.
 */
static void netdev_read_speed(struct rdc_netdev *nd)
{
	char path[64 + IF_NAMESIZE], buf[64];
	int64_t v;
	int rc;

	nd->speed_mbps = -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", nd->name);
	rc = rdc_fs_read(buf, sizeof(buf), NULL, "%s", path);
	if (rc == -EINVAL || rc == -ENOENT)
		return;
	if (rc < 0) {
		rdc_issues_addf(&nd->issues, -rc, "cannot read '%s'", path);
		return;
	}
	if (rdc_parse_i64(buf, &v)) {
		rdc_sysval_bad(&nd->issues, path, buf, "a decimal speed");
		return;
	}
	if (v >= 0)
		nd->speed_mbps = v;
}

/*
 * The admin state is IFF_UP of flags, which the kernel prints "%#x"
 * ("0x1003").  A tree without the file (a hand-made bundle) leaves it
 * unknown; one that holds no number is an issue, and unknown too.
 */
static void netdev_read_flags(struct rdc_netdev *nd)
{
	char path[64 + IF_NAMESIZE], buf[64];
	uint64_t flags;

	nd->admin_up = -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", nd->name);
	if (rdc_sysval_str(&nd->issues, buf, sizeof(buf), "%s", path) <= 0)
		return;
	if (rdc_parse_u64(buf, 16, &flags)) {
		rdc_sysval_bad(&nd->issues, path, buf, "hexadecimal flags");
		return;
	}
	nd->admin_up = (flags & IFF_UP) ? 1 : 0;
}

int rdc_netdev_read(const char *name, struct rdc_netdev *nd, struct rdc_err *err)
{
	int64_t v;
	int rc;

	memset(nd, 0, sizeof(*nd));
	if (!netdev_name_ok(name))
		return rdc_err_set(err, ENODEV, "no network interface '%s'", name);
	/*
	 * The first read is the existence check where it finds the file: only a
	 * missing mtu asks whether the netdev is there at all (under a root a
	 * lookup can be a walk from the root, and a listing reads every netdev).
	 */
	rdc_fs_expect_dir("/sys/class/net/%s", name);
	rc = rdc_sysval_i64(&nd->issues, &v, "/sys/class/net/%s/mtu", name);
	if (rc == 0 && !rdc_netdev_exists(name)) /* a missing file records no issue */
		return rdc_err_set(err, ENODEV, "no network interface '%s'", name);
	rdc_strlcpy(nd->name, name, sizeof(nd->name));
	nd->mtu = rc > 0 ? v : -1;
	netdev_read_speed(nd);
	netdev_read_flags(nd);
	/* carrier reads EINVAL while the netdev is admin down: unknown, as for bond show. */
	nd->carrier = rdc_link_carrier(name);
	rdc_sysval_str(&nd->issues, nd->operstate, sizeof(nd->operstate),
		       "/sys/class/net/%s/operstate", name);
	if (rdc_fs_exists("/sys/class/net/%s/bonding", name))
		netdev_read_bond(nd);
	/* No master link: not enslaved.  One that is there and unreadable is not "none". */
	rc = rdc_fs_link_name(nd->master, sizeof(nd->master), "/sys/class/net/%s/master", name);
	if (rc < 0) {
		nd->master[0] = '\0';
		if (rc != -ENOENT)
			rdc_issues_addf(&nd->issues, -rc, "cannot read '/sys/class/net/%s/master'",
					name);
	}
	return 0;
}

void rdc_netdev_free(struct rdc_netdev *nd)
{
	rdc_issues_free(&nd->issues);
}
