// SPDX-License-Identifier: GPL-2.0-or-later
/* netns.c - enter a network namespace and see its sysfs */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/names.h"
#include "base/netns.h"

/* Where `ip netns add NAME` bind-mounts the namespace. */
#define NETNS_RUN_DIR "/run/netns"

int rdc_netns_enter(const char *name, struct rdc_err *err)
{
	char path[4096];
	unsigned long flags = 0;
	struct statvfs st;
	int fd;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return rdc_err_set_plain(err, EINVAL, "'%s' is not a network namespace name", name);
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else if ((size_t)snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, name) >= sizeof(path))
		return rdc_err_set_plain(err, ENAMETOOLONG, "network namespace name too long");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rdc_err_set(err, errno, "cannot open network namespace '%s'", path);
	if (setns(fd, CLONE_NEWNET)) {
		int e = errno;

		close(fd);
		return rdc_err_set(err, e, "cannot enter network namespace '%s'", path);
	}
	close(fd);
	/*
	 * sysfs shows the network namespace of whoever mounted it: a private
	 * mount namespace, not propagating back to the host's, gets a fresh one.
	 */
	if (unshare(CLONE_NEWNS))
		return rdc_err_set(err, errno, "cannot make a private mount namespace");
	if (mount("", "/", "none", MS_SLAVE | MS_REC, NULL))
		return rdc_err_set(err, errno, "cannot make / a slave mount");
	/* A read-only /sys (a container's) stays read-only. */
	if (!statvfs("/sys", &st) && (st.f_flag & ST_RDONLY))
		flags = MS_RDONLY;
	if (umount2("/sys", MNT_DETACH) && errno != EINVAL)
		return rdc_err_set(err, errno, "cannot unmount the host's /sys");
	if (mount(name, "/sys", "sysfs", flags, NULL))
		return rdc_err_set(err, errno, "cannot mount the sysfs of network namespace '%s'",
				   name);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rdc_netns_names(struct rdc_names *names, struct rdc_err *err)
{
	struct dirent *de;
	DIR *dir;

	names->names = NULL;
	names->count = 0;
	/* `ip netns add` makes the directory: without it there are no named namespaces. */
	dir = opendir(NETNS_RUN_DIR);
	if (!dir)
		return errno == ENOENT ? 0 : rdc_err_set(err, errno, "cannot list " NETNS_RUN_DIR);
	while ((de = readdir(dir))) {
		char **grown;

		if (de->d_name[0] == '.')
			continue;
		grown = realloc(names->names, (names->count + 1) * sizeof(*grown));
		if (!grown || !(grown[names->count] = strdup(de->d_name))) {
			if (grown)
				names->names = grown;
			closedir(dir);
			rdc_names_free(names);
			return rdc_err_set(err, ENOMEM, "cannot list " NETNS_RUN_DIR);
		}
		names->names = grown;
		names->count++;
	}
	closedir(dir);
	if (names->count > 1)
		qsort(names->names, names->count, sizeof(*names->names), name_cmp);
	return 0;
}
