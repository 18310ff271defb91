// SPDX-License-Identifier: GPL-2.0-or-later
/* test_fs.c - the file seam: the --root jail (openat2 and the walk), live reads, capture */
#define _GNU_SOURCE /* strverscmp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "seam/fs.h"

#define FIXTURE "testdata/hosts/cx6dx" /* tests/run and make run from the top */

static char root[] = "/tmp/test_fs_root.XXXXXX";
static char outside[] = "/tmp/test_fs_out.XXXXXX";
static char capdir[] = "/tmp/test_fs_cap.XXXXXX";

static void at(char *buf, size_t size, const char *base, const char *rel)
{
	assert_true(snprintf(buf, size, "%s/%s", base, rel) < (int)size);
}

/* mkdir -p BASE/REL */
static void mkpath(const char *base, const char *rel)
{
	char path[PATH_MAX];

	at(path, sizeof(path), base, rel);
	for (char *p = path + strlen(base) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
}

static void put(const char *base, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;

	at(path, sizeof(path), base, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void ln(const char *target, const char *base, const char *rel)
{
	char path[PATH_MAX];

	at(path, sizeof(path), base, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void rmtree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A hostile bundle: sysfs-like relative links that must work, and links out
 * of the root, a FIFO, a loop and a big file that must not hurt.
 */
static int setup_jail(void **state)
{
	char path[PATH_MAX], big[4096];
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_non_null(mkdtemp(outside));
	put(outside, "secret", "HOSTSECRET\n");

	mkpath(root, "sys/devices/pci0/dev0/net/eth0");
	mkpath(root, "sys/bus/pci/drivers/mlx5_core");
	mkpath(root, "sys/class/net");
	mkpath(root, "sys/class/ib");
	mkpath(root, "sys/x/dir");
	put(root, "sys/devices/pci0/dev0/fw_ver", "22.1\n");
	put(root, "sys/devices/pci0/dev0/net/eth0/mtu", "9000\n");
	ln("../../devices/pci0/dev0/net/eth0", root, "sys/class/net/eth0");
	ln("../../devices/pci0/dev0", root, "sys/class/ib/mlx5_0");
	ln("../../../bus/pci/drivers/mlx5_core", root, "sys/devices/pci0/dev0/driver");
	ln("/sys/devices/pci0/dev0/fw_ver", root, "sys/devices/pci0/dev0/abs_fw");

	snprintf(path, sizeof(path), "%s/secret", outside);
	ln(path, root, "sys/x/escape_abs");
	snprintf(path, sizeof(path), "../../../../../../../../../../../..%s/secret", outside);
	ln(path, root, "sys/x/escape_rel");
	ln(outside, root, "sys/x/escape_dir");
	ln("/proc/self/environ", root, "sys/x/environ");
	ln("/proc/self/fd/0", root, "sys/x/magic");
	ln("loop", root, "sys/x/loop");
	at(path, sizeof(path), root, "sys/x/fifo");
	assert_int_equal(mkfifo(path, 0644), 0);
	{
		/* A socket: open() itself says ENXIO; the error still names it. */
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		at(sa.sun_path, sizeof(sa.sun_path), root, "sys/x/sock");
		assert_true(sock >= 0);
		assert_int_equal(bind(sock, (struct sockaddr *)&sa, sizeof(sa)), 0);
		close(sock);
	}
	/* Sizes the one open knows: read to the size fstat() gave, no further. */
	put(root, "sys/x/exact", "abcdefg");
	put(root, "sys/x/exact_nl", "abcdefg\n");
	put(root, "sys/x/empty", "");

	at(path, sizeof(path), root, "sys/x/big");
	fp = fopen(path, "w");
	assert_non_null(fp);
	memset(big, 'a', sizeof(big));
	for (size_t n = 0; n < 2 * RDC_FS_READ_MAX + 1; n += sizeof(big))
		fwrite(big, 1, sizeof(big), fp);
	fclose(fp);
	return 0;
}

static int teardown_jail(void **state)
{
	(void)state;
	rdc_fs_set_root(NULL, NULL);
	rdc_fs_force_walk(false);
	rmtree(root);
	rmtree(outside);
	return 0;
}

/* Every case of the jail, with openat2() or with the walk. */
static void jail_cases(bool walk)
{
	struct rdc_err err = {0};
	struct rdc_names names;
	char buf[256], *large;
	uint64_t u;
	double t0;

	rdc_fs_force_walk(walk);
	assert_int_equal(rdc_fs_set_root(root, &err), 0);

	/* Relative and in-root absolute links work as on the host. */
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/devices/pci0/dev0/fw_ver"), 4);
	assert_string_equal(buf, "22.1");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/class/ib/mlx5_0/fw_ver"), 4);
	assert_string_equal(buf, "22.1");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/devices/pci0/dev0/abs_fw"), 4);
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/class/net/eth0/mtu"), 0);
	assert_int_equal(u, 9000);
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/class/net/eth0/../eth0/mtu"), 0);
	assert_int_equal(
		rdc_fs_read(buf, sizeof(buf), &err, "/../../../sys/devices/pci0/dev0/fw_ver"), 4);

	/* Out of the root: resolved inside it, where nothing is. */
	buf[0] = '\0';
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/escape_abs"), -ENOENT);
	assert_null(strstr(buf, "HOSTSECRET"));
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/escape_rel"), -ENOENT);
	assert_null(strstr(buf, "HOSTSECRET"));
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/escape_dir/secret"), -ENOENT);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/environ"), -ENOENT);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/magic") < 0);
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/x/escape_dir"), -ENOENT);
	assert_false(rdc_fs_exists("/sys/x/escape_abs"));
	assert_false(rdc_fs_exists("/sys/x/escape_dir"));
	assert_true(rdc_fs_resolve(buf, sizeof(buf), "/sys/x/escape_dir") < 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s/secret", outside), -ENOENT);

	/* A FIFO is refused at once and named. */
	t0 = now_s();
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/fifo"), -ENXIO);
	assert_true(now_s() - t0 < 2);
	assert_string_equal(err.msg, "cannot read '/sys/x/fifo'");
	assert_string_equal(err.detail, "a FIFO, not a regular file");
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/x/fifo"), -ENXIO);
	assert_string_equal(err.detail, "a FIFO, not a directory");
	assert_true(rdc_fs_exists("/sys/x/fifo"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/sock"), -ENXIO);
	assert_string_equal(err.detail, "a socket, not a regular file");

	/* Exactly the buffer, with or without its newline; one byte more is too long. */
	assert_int_equal(rdc_fs_read(buf, 8, &err, "/sys/x/exact"), 7);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(rdc_fs_read(buf, 8, &err, "/sys/x/exact_nl"), 7);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(rdc_fs_read(buf, 7, &err, "/sys/x/exact"), -EFBIG);
	assert_int_equal(rdc_fs_read(buf, 7, &err, "/sys/x/exact_nl"), -EFBIG);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/empty"), 0);
	assert_string_equal(buf, "");
	assert_int_equal(rdc_fs_read_head(buf, 4, &err, "/sys/x/exact"), 3);
	assert_string_equal(buf, "abc");

	/* Wrong types, loops, the cap. */
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/dir"), -EISDIR);
	memset(&err, 0, sizeof(err));
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/devices/pci0/dev0/fw_ver"), -ENOTDIR);
	assert_string_equal(err.detail, "a regular file, not a directory");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/loop"), -ELOOP);
	large = malloc(4 * RDC_FS_READ_MAX);
	assert_non_null(large);
	/* Past the cap, or past what the caller sized for, is an error, never a cut. */
	assert_int_equal(rdc_fs_read(large, 4 * RDC_FS_READ_MAX, &err, "/sys/x/big"), -EFBIG);
	free(large);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/big"), -EFBIG);

	/* Listing, existence, resolution and links through the same jail. */
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/class/ib/mlx5_0/net"), 0);
	assert_int_equal(names.count, 1);
	assert_string_equal(names.names[0], "eth0");
	rdc_names_free(&names);
	assert_int_equal(rdc_fs_list(&names, &err, "/"), 0);
	assert_int_equal(names.count, 1);
	assert_string_equal(names.names[0], "sys");
	rdc_names_free(&names);
	assert_true(rdc_fs_exists("/sys/class/net/eth0/mtu"));
	assert_false(rdc_fs_exists("/sys/class/net/eth1"));
	assert_int_equal(rdc_fs_resolve(buf, sizeof(buf), "/sys/class/net/eth0"), 0);
	assert_string_equal(buf, "/sys/devices/pci0/dev0/net/eth0");
	assert_int_equal(rdc_fs_resolve(buf, sizeof(buf), "/sys/class/ib/mlx5_0/.."), 0);
	assert_string_equal(buf, "/sys/devices/pci0");
	assert_int_equal(rdc_fs_resolve(buf, sizeof(buf), "/../.."), 0);
	assert_string_equal(buf, "/");
	/* An absolute link inside the root, resolved to the root's path of its target. */
	assert_int_equal(rdc_fs_resolve(buf, sizeof(buf), "/sys/devices/pci0/dev0/abs_fw"), 0);
	assert_string_equal(buf, "/sys/devices/pci0/dev0/fw_ver");
	assert_int_equal(rdc_fs_resolve(buf, sizeof(buf), "/sys/class/net/eth1"), -ENOENT);
	assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/class/ib/mlx5_0/driver"), 0);
	assert_string_equal(buf, "mlx5_core");
	assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/x/escape_abs"), 0);
	assert_string_equal(buf, "secret"); /* the link's own text, nothing read */
	assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/devices/pci0/dev0/fw_ver"),
			 -EINVAL);

	assert_int_equal(rdc_fs_write("1", &err, "/sys/devices/pci0/dev0/fw_ver"), -EROFS);
	rdc_fs_set_root(NULL, NULL);
	rdc_fs_force_walk(false);
}

static void test_jail_openat2(void **state)
{
	(void)state;
	jail_cases(false);
}

static void test_jail_walk(void **state)
{
	(void)state;
	jail_cases(true);
}

/* Live: a FIFO is not read, a big file is capped, ordinary files read as before. */
static void test_live(void **state)
{
	struct rdc_err err = {0};
	struct rdc_names names;
	char path[PATH_MAX], buf[64], *large;
	double t0;

	(void)state;
	assert_int_equal(rdc_fs_set_root(NULL, &err), 0);
	assert_null(rdc_fs_root());
	at(path, sizeof(path), outside, "live_fifo");
	assert_int_equal(mkfifo(path, 0644), 0);
	t0 = now_s();
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s", path), -ENXIO);
	assert_true(now_s() - t0 < 2);
	assert_string_equal(err.detail, "a FIFO, not a regular file");
	assert_true(rdc_fs_list(&names, &err, "%s", path) < 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s/secret", outside), 10);
	assert_string_equal(buf, "HOSTSECRET");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s", outside), -EISDIR);
	large = malloc(4 * RDC_FS_READ_MAX);
	assert_non_null(large);
	assert_int_equal(rdc_fs_read(large, 4 * RDC_FS_READ_MAX, &err, "%s/sys/x/big", root),
			 -EFBIG);
	free(large);
	/* Live links are the host's: followed as before. */
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s/sys/x/escape_abs", root), 10);
	assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "%s/sys/class/ib/mlx5_0", root), 0);
	assert_string_equal(buf, "dev0");
	/* A directory through a link, a file, nothing; a hint changes nothing live. */
	assert_int_equal(rdc_fs_is_dir("%s/sys/class/ib/mlx5_0", root), 0);
	assert_int_equal(rdc_fs_is_dir("%s/sys/class/ib/mlx5_0/fw_ver", root), -ENOTDIR);
	assert_int_equal(rdc_fs_is_dir("%s/sys/class/ib/mlx5_9", root), -ENOENT);
	rdc_fs_expect_dir("%s/sys/class/ib/mlx5_0", root);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "%s/sys/class/ib/mlx5_0/fw_ver", root),
			 4);
	assert_int_equal(rdc_fs_list(&names, &err, "%s", outside), 0);
	assert_int_equal(names.count, 2);
	rdc_names_free(&names);
}

/* Read a file of the capture directory as it is on disk. */
static void slurp(const char *rel, char *buf, size_t size)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	at(path, sizeof(path), capdir, rel);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
}

static bool cap_has(const char *rel, mode_t type)
{
	char path[PATH_MAX];
	struct stat st;

	at(path, sizeof(path), capdir, rel);
	return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

/* What the reads below return: the same from the fixture and from its capture. */
struct cap_view {
	char fw_ver[64], osrelease[64], driver[64], pci[PATH_MAX], gid0[64];
	int64_t mtu;
	bool ifindex, parent;
	size_t nports;
};

static void cap_reads(struct cap_view *v)
{
	struct rdc_err err = {0};
	struct rdc_names names;

	memset(v, 0, sizeof(*v));
	assert_true(rdc_fs_read(v->fw_ver, sizeof(v->fw_ver), &err,
				"/sys/class/infiniband/mlx5_0/fw_ver") > 0);
	assert_int_equal(rdc_fs_read_i64(&v->mtu, &err, "/sys/class/net/ens1f0np0/mtu"), 0);
	assert_true(rdc_fs_read(v->osrelease, sizeof(v->osrelease), &err,
				"/proc/sys/kernel/osrelease") > 0);
	assert_int_equal(rdc_fs_link_name(v->driver, sizeof(v->driver),
					  "/sys/class/net/ens1f0np0/device/driver"),
			 0);
	assert_int_equal(
		rdc_fs_resolve(v->pci, sizeof(v->pci), "/sys/class/infiniband/mlx5_0/device"), 0);
	v->ifindex = rdc_fs_exists("/sys/class/net/ens1f0np0/ifindex");
	v->parent = rdc_fs_exists("/sys/class/infiniband/mlx5_0/parent");
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/class/infiniband/mlx5_0/ports"), 0);
	v->nports = names.count;
	rdc_names_free(&names);
	assert_true(rdc_fs_read(v->gid0, sizeof(v->gid0), &err,
				"/sys/class/infiniband/mlx5_0/ports/1/gids/0") > 0);
}

/* Capture from a fixture root, then read the capture as a root: the same answers. */
static void test_capture_fixture(void **state)
{
	struct rdc_err err = {0};
	struct cap_view a, b;
	char buf[PATH_MAX], want[PATH_MAX], path[PATH_MAX];
	int64_t v;
	ssize_t n;

	(void)state;
	if (access(FIXTURE "/sys", R_OK) < 0)
		fail_msg("run from the top of the tree: no %s", FIXTURE);
	assert_non_null(mkdtemp(capdir));
	assert_int_equal(rdc_fs_set_root(FIXTURE, &err), 0);
	assert_int_equal(rdc_fs_capture_start(capdir, &err), 0);
	assert_int_equal(rdc_fs_capture_start(capdir, &err), -EBUSY);
	cap_reads(&a);
	cap_reads(&a);							/* twice: copied once */
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/HOST") >= 0); /* not in the list */
	/* Tested first, read later: the empty file gets its contents. */
	assert_true(rdc_fs_exists("/sys/class/net/ens1f1np1/ifindex"));
	assert_int_equal(rdc_fs_read_i64(&v, &err, "/sys/class/net/ens1f1np1/ifindex"), 0);
	rdc_fs_capture_stop();
	assert_null(rdc_fs_capture_error());
	assert_string_equal(a.driver, "mlx5_core");
	assert_true(a.ifindex);
	assert_false(a.parent);

	/* The tree: the links as on the host, the files at their resolved paths. */
	assert_true(cap_has("sys/class/infiniband/mlx5_0", S_IFLNK));
	at(path, sizeof(path), capdir, "sys/class/infiniband/mlx5_0");
	n = readlink(path, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	at(path, sizeof(path), FIXTURE, "sys/class/infiniband/mlx5_0");
	n = readlink(path, want, sizeof(want) - 1);
	assert_true(n > 0);
	want[n] = '\0';
	assert_string_equal(buf, want);
	assert_true(cap_has("sys/class/net/ens1f0np0", S_IFLNK));
	assert_true(cap_has("sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/driver", S_IFLNK));
	assert_true(cap_has("sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0/"
			    "fw_ver",
			    S_IFREG));
	slurp("sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0/fw_ver", buf,
	      sizeof(buf));
	snprintf(want, sizeof(want), "%s\n", a.fw_ver);
	assert_string_equal(buf, want); /* the bytes read, newline included */
	assert_true(cap_has("proc/sys/kernel/osrelease", S_IFREG));
	assert_true(cap_has("sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.0/infiniband/mlx5_0/"
			    "ports",
			    S_IFDIR));
	slurp("sys/devices/pci0000:00/0000:00:02.0/0000:3b:00.1/net/ens1f1np1/ifindex", buf,
	      sizeof(buf));
	assert_true(buf[0] >= '0' && buf[0] <= '9');
	assert_false(cap_has("HOST", S_IFREG));
	assert_false(cap_has("kernel.rec", S_IFREG));

	/* Read back through the jail: the same answers. */
	assert_int_equal(rdc_fs_set_root(capdir, &err), 0);
	cap_reads(&b);
	assert_string_equal(a.fw_ver, b.fw_ver);
	assert_string_equal(a.osrelease, b.osrelease);
	assert_string_equal(a.driver, b.driver);
	assert_string_equal(a.pci, b.pci);
	assert_string_equal(a.gid0, b.gid0);
	assert_int_equal(a.mtu, b.mtu);
	assert_int_equal(a.ifindex, b.ifindex);
	assert_int_equal(a.parent, b.parent);
	assert_int_equal(a.nports, b.nports);
	assert_false(rdc_fs_exists("/HOST"));

	rdc_fs_set_root(NULL, NULL);
	rmtree(capdir);
	snprintf(capdir, sizeof(capdir), "/tmp/test_fs_cap.XXXXXX"); /* for the next mkdtemp() */
}

/* Capture never copies what is outside its list, whatever the links say. */
static void test_capture_refuses(void **state)
{
	struct rdc_err err = {0};
	char buf[256];

	(void)state;
	mkpath(root, "proc/self");
	mkpath(root, "etc");
	mkpath(root, "lib/modules/6.1.0");
	put(root, "proc/self/environ", "SECRET=1");
	put(root, "proc/stat", "cpu 1 2 3\n");
	put(root, "proc/cpuinfo", "model name: x\n");
	put(root, "etc/passwd", "root:x:0:0\n");
	put(root, "lib/modules/6.1.0/modules.dep", "kernel/x.ko:\n");
	ln("/etc/passwd", root, "sys/x/passwd");
	ln("../../proc/self/environ", root, "sys/x/env_rel");

	assert_non_null(mkdtemp(capdir));
	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	assert_int_equal(rdc_fs_capture_start(capdir, &err), 0);
	/* In the root these are the bundle's files, so they read; none is captured. */
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/passwd") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/env_rel") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/self/environ") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/cpuinfo") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/etc/passwd") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/../etc/passwd") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/stat") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/lib/modules/6.1.0/modules.dep") > 0);
	assert_true(rdc_fs_exists("/lib/modules/6.1.0"));
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/fifo") < 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/sys/x/escape_abs") < 0);
	rdc_fs_capture_stop();
	assert_null(rdc_fs_capture_error());

	assert_false(cap_has("etc", S_IFDIR));
	assert_false(cap_has("proc/self", S_IFDIR));
	assert_false(cap_has("proc/cpuinfo", S_IFREG));
	assert_false(cap_has("sys/x/fifo", S_IFIFO));
	assert_true(cap_has("sys/x/passwd", S_IFLNK)); /* the link's text only */
	assert_true(cap_has("proc/stat", S_IFREG));
	slurp("proc/stat", buf, sizeof(buf));
	assert_string_equal(buf, "cpu 1 2 3\n");
	assert_true(cap_has("lib/modules/6.1.0", S_IFDIR));
	assert_true(cap_has("lib/modules/6.1.0/modules.dep", S_IFREG));
	slurp("lib/modules/6.1.0/modules.dep", buf, sizeof(buf));
	assert_string_equal(buf, ""); /* existence only */

	rdc_fs_set_root(NULL, NULL);
	rmtree(capdir);
	snprintf(capdir, sizeof(capdir), "/tmp/test_fs_cap.XXXXXX"); /* for the next mkdtemp() */
}

/* Capture on the live system: /sys links kept, /proc/net stored where it was asked. */
static void test_capture_live(void **state)
{
	struct rdc_err err = {0};
	char buf[4096], path[PATH_MAX];
	int64_t mtu, mtu0;

	(void)state;
	if (access("/sys/class/net/lo/mtu", R_OK) < 0 || access("/proc/net/dev", R_OK) < 0)
		skip();
	assert_non_null(mkdtemp(capdir));
	assert_int_equal(rdc_fs_capture_start(capdir, &err), 0);
	assert_int_equal(rdc_fs_read_i64(&mtu0, &err, "/sys/class/net/lo/mtu"), 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/net/dev") > 0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/self/status") > 0);
	assert_true(rdc_fs_exists("/proc/self/environ"));
	rdc_fs_capture_stop();
	assert_null(rdc_fs_capture_error());

	assert_true(cap_has("sys/class/net/lo", S_IFLNK));
	assert_true(cap_has("proc/net/dev", S_IFREG));
	assert_false(cap_has("proc/self", S_IFDIR));
	assert_false(cap_has("proc/self", S_IFLNK));
	snprintf(path, sizeof(path), "proc/%d", (int)getpid());
	assert_false(cap_has(path, S_IFDIR));

	assert_int_equal(rdc_fs_set_root(capdir, &err), 0);
	assert_int_equal(rdc_fs_read_i64(&mtu, &err, "/sys/class/net/lo/mtu"), 0);
	assert_int_equal(mtu, mtu0);
	assert_true(rdc_fs_read(buf, sizeof(buf), &err, "/proc/net/dev") > 0);
	assert_false(rdc_fs_exists("/proc/self/status"));
	rdc_fs_set_root(NULL, NULL);
	rmtree(capdir);
	snprintf(capdir, sizeof(capdir), "/tmp/test_fs_cap.XXXXXX"); /* for the next mkdtemp() */
}

/* A later sample's files are read first; the rest, links and listings stay the root's. */
static void overlay_cases(bool walk)
{
	struct rdc_err err = {0};
	static bool made;
	char buf[64];

	rdc_fs_force_walk(walk);
	if (!made) {
		mkpath(root, "samples/2/sys/devices/pci0/dev0/net/eth0");
		mkpath(root, "samples/2/sys/class/net");
		put(root, "samples/2/sys/devices/pci0/dev0/net/eth0/mtu", "1500\n");
		ln("../../devices/pci0/dev0/net/eth0", root, "samples/2/sys/class/net/eth0");
		/* A bundle whose overlay leads out of the root is not followed there. */
		mkpath(root, "evil");
		ln(outside, root, "evil/2");
		made = true;
	}
	assert_int_equal(rdc_fs_set_root(root, &err), 0);

	assert_int_equal(rdc_fs_set_overlay("samples/2", &err), 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/class/net/eth0/mtu"), 4);
	assert_string_equal(buf, "1500");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/class/ib/mlx5_0/fw_ver"), 4);
	assert_string_equal(buf, "22.1"); /* not in the overlay: the root's */
	assert_int_equal(rdc_fs_set_overlay(NULL, &err), 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/class/net/eth0/mtu"), 4);
	assert_string_equal(buf, "9000");

	assert_int_equal(rdc_fs_set_overlay("samples/9", &err), 0); /* none: the root alone */
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/class/net/eth0/mtu"), 4);
	assert_string_equal(buf, "9000");
	if (rdc_fs_set_overlay("evil/2", &err) == 0)
		assert_false(rdc_fs_exists("/secret") ||
			     rdc_fs_read(buf, sizeof(buf), NULL, "/secret") > 0);
	rdc_fs_set_overlay(NULL, NULL);
	rdc_fs_set_root(NULL, NULL);
	rdc_fs_force_walk(false);
}

static void test_overlay_openat2(void **state)
{
	(void)state;
	overlay_cases(false);
}

static void test_overlay_walk(void **state)
{
	(void)state;
	overlay_cases(true);
}

/* A directory of more entries than any sysfs class has is refused, not listed into memory. */
static void test_list_cap(void **state)
{
	struct rdc_names names;
	struct rdc_err err = {0};
	char dir[PATH_MAX];

	(void)state;
	mkpath(root, "sys/many");
	snprintf(dir, sizeof(dir), "%s/sys/many", root);
	for (unsigned int i = 0; i < RDC_FS_LIST_MAX; i++) {
		char path[PATH_MAX + 16];
		int fd;

		snprintf(path, sizeof(path), "%s/%u", dir, i);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/many"), 0);
	assert_int_equal(names.count, RDC_FS_LIST_MAX);
	rdc_names_free(&names);
	put(root, "sys/many/one-more", "");
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/many"), -EFBIG);
	assert_null(names.names);
	assert_string_equal(err.detail, "more than 65536 entries");
	rdc_fs_set_root(NULL, NULL);
}

/* Numbers: decimal where the kernel writes decimal, hex only where asked for and prefixed. */
static void test_numbers(void **state)
{
	struct rdc_err err = {0};
	uint64_t u = 7;
	int64_t i;

	(void)state;
	mkpath(root, "sys/n");
	put(root, "sys/n/dec", "010\n");
	put(root, "sys/n/hex", "0x10\n");
	put(root, "sys/n/hexbare", "1003\n");
	put(root, "sys/n/max", "18446744073709551615\n");
	put(root, "sys/n/over", "18446744073709551616\n");
	put(root, "sys/n/hexover", "0x10000000000000000\n");
	put(root, "sys/n/neg", "-1\n");
	put(root, "sys/n/ineg", "-010\n");
	put(root, "sys/n/iover", "9223372036854775808\n");
	/* Longer than any number's buffer: was read as its first 63 bytes, 0. */
	put(root, "sys/n/long",
	    "00000000000000000000000000000000000000000000000000000000000000000000009000\n");
	assert_int_equal(rdc_fs_set_root(root, &err), 0);

	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/dec"), 0);
	assert_int_equal(u, 10); /* not octal 8 */
	u = 7;
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/hex"), -EINVAL);
	assert_int_equal(u, 7);
	assert_non_null(strstr(err.msg, "/sys/n/hex"));
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/max"), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/over"), -ERANGE);
	assert_non_null(strstr(err.msg, "/sys/n/over"));
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/neg"), -EINVAL);

	assert_int_equal(rdc_fs_read_x64(&u, &err, "/sys/n/hex"), 0);
	assert_int_equal(u, 16);
	assert_int_equal(rdc_fs_read_x64(&u, &err, "/sys/n/hexbare"), -EINVAL);
	assert_int_equal(rdc_fs_read_x64(&u, &err, "/sys/n/dec"), -EINVAL);
	assert_int_equal(rdc_fs_read_x64(&u, &err, "/sys/n/hexover"), -ERANGE);

	assert_int_equal(rdc_fs_read_i64(&i, &err, "/sys/n/ineg"), 0);
	assert_int_equal(i, -10);
	assert_int_equal(rdc_fs_read_i64(&i, &err, "/sys/n/iover"), -ERANGE);
	assert_int_equal(rdc_fs_read_i64(&i, &err, "/sys/n/hex"), -EINVAL);

	u = 7;
	assert_int_equal(rdc_fs_read_u64(&u, &err, "/sys/n/long"), -EFBIG);
	assert_int_equal(u, 7);
	assert_string_equal(err.msg, "cannot read '/sys/n/long'");
	/* A buffer that holds it all reads it (the number itself is then checked). */
	{
		char buf[128];

		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/n/long"), 74);
		/* Its newline may stay unread; one byte of the number may not. */
		assert_int_equal(rdc_fs_read(buf, 75, &err, "/sys/n/long"), 74);
		assert_int_equal(rdc_fs_read(buf, 74, &err, "/sys/n/long"), -EFBIG);
	}
	rdc_fs_set_root(NULL, NULL);
}

/* The fds this process holds, but the one that lists them. */
static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n - 3; /* ".", ".." and the listing's own */
}

/*
 * Directories kept open under a root (fs.c): files read through a warm
 * directory are the jail's own, links in it still cannot leave the root,
 * another root or overlay starts afresh (its fd may well have the number the
 * last one had), and nothing stays open once the root is dropped.
 */
static void dir_cache_cases(bool walk)
{
	char other[] = "/tmp/test_fs_other.XXXXXX", path[PATH_MAX], buf[64];
	struct rdc_err err = {0};
	struct rdc_names names;
	int fds0;

	rdc_fs_force_walk(walk);
	fds0 = open_fds();
	assert_non_null(mkdtemp(other));
	mkpath(other, "sys/warm");
	put(other, "sys/warm/a", "OTHER\n");
	if (!rdc_fs_exists("%s/sys/warm", root)) {
		mkpath(root, "sys/warm");
		mkpath(root, "ov/sys/warm");
		put(root, "sys/warm/a", "A\n");
		put(root, "sys/warm/b", "B\n");
		put(root, "ov/sys/warm/a", "OV\n");
		ln("a", root, "sys/warm/same");
		ln("../devices/pci0/dev0/fw_ver", root, "sys/warm/up");
		ln("/sys/devices/pci0/dev0/fw_ver", root, "sys/warm/abs");
		snprintf(path, sizeof(path), "%s/secret", outside);
		ln(path, root, "sys/warm/escape_abs");
		snprintf(path, sizeof(path), "../../../../../../../../../../..%s/secret", outside);
		ln(path, root, "sys/warm/escape_rel");
		ln(outside, root, "sys/warm/escape_dir");
		ln("secret", outside, "lnk"); /* a link out there: never read from in here */
		mkpath(root, "sys/linkdir");
		ln("../t", root, "sys/linkdir/l");
		ln("/proc/self/cmdline", root, "sys/warm/cmdline"); /* not in the root */
		ln("../devices/pci0/dev0", root, "sys/warm/updir");
		mkpath(root, "sys/anc/d/sub");
		put(root, "sys/anc/own", "O\n");
		put(root, "sys/anc/d/sub/f", "F\n");
		ln("../../devices/pci0/dev0", root, "sys/anc/d/up");
		ln("/sys/devices/pci0/dev0", root, "sys/anc/d/abs");
		ln(outside, root, "sys/anc/d/esc");
		ln("f", root, "sys/anc/d/sub/l");
		ln("../../../devices/pci0/dev0", root, "sys/anc/d/sub/up");
	}

	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	/*
	 * A link is read by name from its directory, which is opened for it at
	 * the first read and kept (one more fd, with openat2(); a file's
	 * directory waits for the second); the walk keeps none.
	 */
	{
		int before = open_fds();

		for (int round = 0; round < 3; round++) {
			assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/linkdir/l"), 0);
			assert_string_equal(buf, "t");
			assert_int_equal(open_fds(), before + (walk ? 0 : 1));
		}
	}
	/*
	 * A directory entered by its path (a device's "device" link): kept at the
	 * first time (one more fd with openat2(), none more after), its files
	 * read through it; a file, a name not there, a link that leads nowhere or
	 * out of the root: not a directory.
	 */
	{
		int before = open_fds();

		for (int round = 0; round < 3; round++) {
			assert_int_equal(rdc_fs_is_dir("/sys/warm/updir"), 0);
			assert_int_equal(open_fds(), before + (walk ? 0 : 1));
			assert_int_equal(
				rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/updir/fw_ver"), 4);
			assert_string_equal(buf, "22.1");
		}
		assert_int_equal(rdc_fs_is_dir("/sys/warm"), 0);
		assert_int_equal(rdc_fs_is_dir("/sys/warm/a"), -ENOTDIR);
		assert_int_equal(rdc_fs_is_dir("/sys/warm/up"), -ENOTDIR);
		assert_int_equal(rdc_fs_is_dir("/sys/warm/none"), -ENOENT);
		assert_int_equal(rdc_fs_is_dir("/sys/warm/escape_dir"), -ENOENT);
		assert_int_equal(rdc_fs_is_dir("/sys/linkdir/l"), -ENOENT);
		/* A hint changes no answer, whatever it names. */
		rdc_fs_expect_dir("/sys/warm/none");
		rdc_fs_expect_dir("/sys/warm/escape_dir");
		rdc_fs_expect_dir("/sys/warm/a");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/escape_dir/secret"),
				 -ENOENT);
	}
	/*
	 * Below a kept directory (a listing's, or one expected): a path of several
	 * names is opened from the nearest one; where a link on the way leads up
	 * or is absolute it is opened whole and means what it means from the
	 * root, out of the root it finds nothing, and the directory's own names
	 * still read after that.
	 */
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/anc"), 0);
	assert_int_equal(names.count, 2);
	rdc_names_free(&names);
	rdc_fs_expect_dir("/sys/anc/d");
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/sub/f"), 1);
		assert_string_equal(buf, "F");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/up/fw_ver"), 4);
		assert_string_equal(buf, "22.1");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/abs/fw_ver"), 4);
		assert_string_equal(buf, "22.1");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/sub/up/fw_ver"),
				 4);
		assert_string_equal(buf, "22.1");
		buf[0] = '\0';
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/esc/secret"),
				 -ENOENT);
		assert_null(strstr(buf, "HOSTSECRET"));
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/../../warm/a"), 1);
		assert_string_equal(buf, "A");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/d/sub/none"),
				 -ENOENT);
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/none/f"), -ENOENT);
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/anc/own"), 1);
		assert_string_equal(buf, "O");
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/anc/d/sub/l"), 0);
		assert_string_equal(buf, "f");
		assert_int_equal(rdc_fs_is_dir("/sys/anc/d/up"), 0);
		assert_int_equal(rdc_fs_is_dir("/sys/anc/d/esc"), -ENOENT);
	}

	/* Asked once, twice (the directory opened), then warm: the same answers. */
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/a"), 1);
		assert_string_equal(buf, "A");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/same"), 1);
		assert_string_equal(buf, "A");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/../warm/b"), 1);
		assert_string_equal(buf, "B");
		/* Links up and absolute ones mean what they mean from the root. */
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/up"), 4);
		assert_string_equal(buf, "22.1");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/abs"), 4);
		assert_string_equal(buf, "22.1");
		/* Out of the root: nothing, however warm the directory is. */
		buf[0] = '\0';
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/escape_abs"),
				 -ENOENT);
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/escape_rel"),
				 -ENOENT);
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/escape_dir/secret"),
				 -ENOENT);
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/cmdline"), -ENOENT);
		assert_null(strstr(buf, "HOSTSECRET"));
		assert_false(rdc_fs_exists("/sys/warm/escape_dir/secret"));
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/none"), -ENOENT);
		assert_true(rdc_fs_exists("/sys/warm/b"));
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/up"), 0);
		assert_string_equal(buf, "fw_ver");
		/* Read by name from the warm directory: a link's own text, nothing else. */
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/escape_dir"), 0);
		assert_string_equal(buf, strrchr(outside, '/') + 1);
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/nolink"), -ENOENT);
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/a"), -EINVAL);
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/.."), -EINVAL);
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/warm/escape_dir/lnk"),
				 -ENOENT);
		assert_int_equal(rdc_fs_list(&names, &err, "/sys/warm"), 0);
		assert_int_equal(names.count, 10);
		rdc_names_free(&names);
	}
	/* An overlay's files first, then the root's; none again after it ends. */
	assert_int_equal(rdc_fs_set_overlay("ov", &err), 0);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/a"), 2);
		assert_string_equal(buf, "OV");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/b"), 1);
		assert_string_equal(buf, "B");
	}
	assert_int_equal(rdc_fs_set_overlay(NULL, &err), 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/a"), 1);
	assert_string_equal(buf, "A");

	/*
	 * A root that changes under one command (a container's /host): a directory
	 * or a file that was missing, however often asked for, is found once it is
	 * there, and a directory removed and made again is read anew, not through
	 * the kept fd of the old one, once that fd is older than
	 * RDC_FS_DIR_FRESH_MS (until then its "no such file" stands: fs.c).
	 */
	for (int round = 0; round < 3; round++)
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/later/x"), -ENOENT);
	mkpath(root, "sys/later");
	put(root, "sys/later/x", "X\n");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/later/x"), 1);
	assert_string_equal(buf, "X");
	for (int round = 0; round < 3; round++)
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/later/y"), -ENOENT);
	put(root, "sys/later/y", "Y\n");
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/later/y"), 1);
	assert_string_equal(buf, "Y");
	snprintf(path, sizeof(path), "%s/sys/later/x", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/later/y", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/later", root);
	assert_int_equal(rmdir(path), 0);
	mkpath(root, "sys/later");
	put(root, "sys/later/x", "NEW\n");
	/* Past the window by more than CLOCK_MONOTONIC_COARSE's tick. */
	assert_int_equal(usleep((RDC_FS_DIR_FRESH_MS + 30) * 1000), 0);
	assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/later/x"), 3);
	assert_string_equal(buf, "NEW");
	/* A link too: the one in the directory made again, once the old fd is stale. */
	ln("first", root, "sys/later/link");
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/later/link"), 0);
		assert_string_equal(buf, "first");
	}
	snprintf(path, sizeof(path), "%s/sys/later/x", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/later/link", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/later", root);
	assert_int_equal(rmdir(path), 0);
	mkpath(root, "sys/later");
	ln("second", root, "sys/later/link");
	assert_int_equal(usleep((RDC_FS_DIR_FRESH_MS + 30) * 1000), 0);
	assert_int_equal(rdc_fs_link_name(buf, sizeof(buf), "/sys/later/link"), 0);
	assert_string_equal(buf, "second");
	snprintf(path, sizeof(path), "%s/sys/later/link", root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/sys/later", root);
	assert_int_equal(rmdir(path), 0); /* the next run of these cases starts without it */

	/* Another root: its own files, never the last root's directories. */
	assert_int_equal(rdc_fs_set_root(other, &err), 0);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/a"), 5);
		assert_string_equal(buf, "OTHER");
		assert_int_equal(rdc_fs_read(buf, sizeof(buf), &err, "/sys/warm/b"), -ENOENT);
	}
	rdc_fs_set_root(NULL, NULL);
	rdc_fs_force_walk(false);
	assert_int_equal(open_fds(), fds0);
	rmtree(other);
}

static void test_dir_cache_openat2(void **state)
{
	(void)state;
	dir_cache_cases(false);
}

static void test_dir_cache_walk(void **state)
{
	(void)state;
	dir_cache_cases(true);
}

/* Listings in version order: GID slots 9 before 10, and names that are no plain number too. */
static void test_list_order(void **state)
{
	static const char *const numbers[] = {"10", "9", "0", "100", "2", "1", "255", "11"};
	static const char *const mixed[] = {"10", "9", "017", "0", "a10", "a2", "1", "01"};
	static const char *const want[] = {"0", "1", "2", "9", "10", "11", "100", "255"};
	struct rdc_err err = {0};
	struct rdc_names names;
	char rel[64];

	(void)state;
	for (size_t i = 0; i < 8; i++) {
		snprintf(rel, sizeof(rel), "sys/order/n/%s", numbers[i]);
		mkpath(root, "sys/order/n");
		put(root, rel, "");
		snprintf(rel, sizeof(rel), "sys/order/m/%s", mixed[i]);
		mkpath(root, "sys/order/m");
		put(root, rel, "");
	}
	assert_int_equal(rdc_fs_set_root(root, &err), 0);
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/order/n"), 0);
	assert_int_equal(names.count, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(names.names[i], want[i]);
	rdc_names_free(&names);
	/* "017" and "01" are no such numbers: strverscmp() orders them all. */
	assert_int_equal(rdc_fs_list(&names, &err, "/sys/order/m"), 0);
	assert_int_equal(names.count, 8);
	for (size_t i = 1; i < 8; i++)
		assert_true(strverscmp(names.names[i - 1], names.names[i]) < 0);
	rdc_names_free(&names);
	rdc_fs_set_root(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jail_openat2),
		cmocka_unit_test(test_jail_walk),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_capture_fixture),
		cmocka_unit_test(test_capture_refuses),
		cmocka_unit_test(test_capture_live),
		cmocka_unit_test(test_overlay_openat2),
		cmocka_unit_test(test_overlay_walk),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_list_cap),
		cmocka_unit_test(test_dir_cache_openat2),
		cmocka_unit_test(test_dir_cache_walk),
		cmocka_unit_test(test_list_order),
	};

	return cmocka_run_group_tests(tests, setup_jail, teardown_jail);
}
