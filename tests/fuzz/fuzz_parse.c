// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_parse.c - libFuzzer: sysfs and procfs value parsers (meminfo too), counters read from files */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cpulist.h"
#include "base/counters.h"
#include "base/ipv4.h"
#include "base/util.h"
#include "bench/hugepages.h"
#include "host/bundle.h"
#include "host/cpu_times.h"
#include "host/gid.h"
#include "host/port_counters.h"
#include "seam/fs.h"

#include "fuzz.h"

/*
 * Every parser of a value the kernel (or a bundle) hands us, on any text:
 * 0 or -errno, never a crash; a value accepted is within what was asked
 * for; a parsed GID prints back to a form that parses to the same bytes.
 * Then the same text as a port counter file of a rooted tree.
 */

static char root[128];

static void put(const char *rel, const uint8_t *data, size_t size)
{
	char p[512];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	fp = fopen(p, "we");
	if (!fp)
		return;
	fwrite(data, 1, size, fp);
	fclose(fp);
}

static void remove_root(void)
{
	rdc_fs_set_root(NULL, NULL);
	rdc_bundle_remove(root);
}

static int make_root(void)
{
	static const char *const dirs[] = {
		"sys",
		"sys/class",
		"sys/class/infiniband",
		"sys/class/infiniband/mlx5_0",
		"sys/class/infiniband/mlx5_0/ports",
		"sys/class/infiniband/mlx5_0/ports/1",
		"sys/class/infiniband/mlx5_0/ports/1/counters",
		"sys/class/infiniband/mlx5_0/ports/1/hw_counters",
	};
	const char *tmp = getenv("TMPDIR");
	char p[512];

	snprintf(root, sizeof(root), "%s/rdmactl-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return -1;
	atexit(remove_root);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		mkdir(p, 0700);
	}
	return rdc_fs_set_root(root, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready = -2;
	struct rdc_counter_set set = {0};
	struct rdc_cpu_times t;
	struct rdc_bench_huge huge;
	unsigned char cpus[64], bytes[64];
	uint8_t gid[16], gid2[16];
	char *s, text[64];
	uint64_t u;
	int64_t i;
	uint32_t u32, net, prefix;
	double d;

	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!rdc_parse_u64(s, 0, &u) + !rdc_parse_u64(s, 10, &u) + !rdc_parse_u64(s, 16, &u))
		(void)u;
	rdc_parse_i64(s, &i);
	if (!rdc_parse_u32_range(s, 68, 9000, &u32) && (u32 < 68 || u32 > 9000))
		fuzz_fail("fuzz_parse", "u32 accepted out of range");
	rdc_parse_seconds(s, &d);
	if (!rdc_parse_size(s, 1ull << 30, &u) && u > 1ull << 30)
		fuzz_fail("fuzz_parse", "size accepted over its maximum");
	rdc_hex_decode(s, bytes, sizeof(bytes));
	rdc_cpulist_parse(s, cpus, sizeof(cpus));
	rdc_ipv4_cidr_parse(s, &net, &prefix);
	rdc_cpu_times_parse(s, &t);
	/* /proc/meminfo's huge page pool: a page size accepted is a power of two over 4 KiB. */
	if (!rdc_bench_huge_parse(s, &huge) &&
	    (huge.page_bytes < 8192 || (huge.page_bytes & (huge.page_bytes - 1))))
		fuzz_fail("fuzz_parse", "a huge page size that is none accepted");
	rdc_gid_type_parse(s, true);
	rdc_gid_type_parse(s, false);
	if (!rdc_gid_parse(s, gid)) {
		rdc_gid_format(gid, text);
		if (rdc_gid_parse(text, gid2) || memcmp(gid, gid2, sizeof(gid)))
			fuzz_fail("fuzz_parse", "a GID does not survive its round trip");
	}
	free(s);

	if (ready == -2)
		ready = make_root();
	if (ready)
		return 0;
	put("sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", data, size);
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence", data, size);
	rdc_port_counters_read("mlx5_0", 1, &set, NULL, NULL);
	rdc_counters_free(&set);
	return 0;
}
