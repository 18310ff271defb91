// SPDX-License-Identifier: GPL-2.0-or-later
/* hugepages.c - the huge page pool from /proc/meminfo, and the run's share of it */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "bench/hugepages.h"
#include "seam/fs.h"

/*
 * The lines read, as the kernel writes them (mm/hugetlb.c):
 *
 *   "HugePages_Total:       4"    -> total 4
 *   "HugePages_Free:        4"    -> free 4
 *   "HugePages_Rsvd:        0"    -> rsvd 0
 *   "Hugepagesize:       2048 kB" -> page_bytes 2097152
 *
 * Any other line is skipped.  A number that is not all digits is -EINVAL.
 */
static int huge_value(const char *line, const char *key, uint64_t *v, bool kb)
{
	size_t klen = strlen(key);
	const char *s = line + klen;
	char num[24];
	size_t n = 0;

	if (strncmp(line, key, klen))
		return 1;
	while (*s == ' ' || *s == '\t')
		s++;
	while (s[n] >= '0' && s[n] <= '9' && n < sizeof(num) - 1) {
		num[n] = s[n];
		n++;
	}
	num[n] = '\0';
	s += n;
	if (!n || rdc_parse_u64(num, 10, v))
		return -EINVAL;
	if (kb) {
		if (strncmp(s, " kB", 3) || *v > UINT64_MAX / 1024)
			return -EINVAL;
		*v *= 1024;
		s += 3;
	}
	return *s == '\0' || *s == '\n' ? 0 : -EINVAL;
}

int rdc_bench_huge_parse(const char *meminfo, struct rdc_bench_huge *h)
{
	static const struct {
		const char *key;
		size_t off;
		bool kb;
	} keys[] = {
		{"HugePages_Total:", offsetof(struct rdc_bench_huge, total), false},
		{"HugePages_Free:", offsetof(struct rdc_bench_huge, free), false},
		{"HugePages_Rsvd:", offsetof(struct rdc_bench_huge, rsvd), false},
		{"Hugepagesize:", offsetof(struct rdc_bench_huge, page_bytes), true},
	};

	memset(h, 0, sizeof(*h));
	for (const char *line = meminfo; line && *line;) {
		for (size_t i = 0; i < RDC_ARRAY_SIZE(keys); i++) {
			int rc = huge_value(line, keys[i].key,
					    (uint64_t *)((char *)h + keys[i].off), keys[i].kb);

			if (rc < 0)
				return rc;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	/* A page size that is not a power of two above 4 KiB is no huge page. */
	if (!h->page_bytes)
		return -ENOENT;
	if (h->page_bytes < 8192 || (h->page_bytes & (h->page_bytes - 1)))
		return -EINVAL;
	return 0;
}

int rdc_bench_huge_read(struct rdc_bench_huge *h, struct rdc_err *err)
{
	char buf[8192];
	int rc = rdc_fs_read(buf, sizeof(buf), err, "/proc/meminfo");

	if (rc < 0)
		return rc;
	rc = rdc_bench_huge_parse(buf, h);
	if (rc == -ENOENT)
		return rdc_err_set_plain(err, EOPNOTSUPP,
					 "this kernel has no huge pages (no Hugepagesize in "
					 "/proc/meminfo)");
	if (rc)
		return rdc_err_set_plain(err, EINVAL,
					 "cannot parse the huge page lines of "
					 "/proc/meminfo");
	return 0;
}

uint64_t rdc_bench_huge_round(uint64_t len, uint64_t page_bytes)
{
	return page_bytes ? (len + page_bytes - 1) / page_bytes * page_bytes : len;
}

uint64_t rdc_bench_huge_pages(const struct rdc_bench_params *p, uint32_t nlinks,
			      uint64_t page_bytes)
{
	uint64_t buf = rdc_bench_slot_bytes(p) * p->qps;

	return page_bytes ? (uint64_t)nlinks * (rdc_bench_huge_round(buf, page_bytes) / page_bytes)
			  : 0;
}

/* 4194304 -> "4 MiB", 6144 -> "6 KiB", 1000 -> "1000 B". */
static void huge_size(char *buf, size_t size, uint64_t b)
{
	if (b && !(b % (1u << 30)))
		snprintf(buf, size, "%" PRIu64 " GiB", b >> 30);
	else if (b && !(b % (1u << 20)))
		snprintf(buf, size, "%" PRIu64 " MiB", b >> 20);
	else if (b && !(b % 1024))
		snprintf(buf, size, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, size, "%" PRIu64 " B", b);
}

int rdc_bench_huge_check(const struct rdc_bench_huge *h, const struct rdc_bench_params *p,
			 uint32_t nlinks, bool server, struct rdc_err *err)
{
	uint64_t need = rdc_bench_huge_pages(p, nlinks, h->page_bytes);
	uint64_t avail = h->free > h->rsvd ? h->free - h->rsvd : 0;
	char what[32];

	if (need <= avail)
		return 0;
	huge_size(what, sizeof(what), (uint64_t)nlinks * rdc_bench_slot_bytes(p) * p->qps);
	if (!avail)
		return rdc_err_set_plain(err, ENOMEM,
					 "no free %" PRIu64
					 " kB huge pages%s for %s: reserve some%s "
					 "with sysctl vm.nr_hugepages=%" PRIu64,
					 h->page_bytes >> 10, server ? " on the server" : "", what,
					 server ? " there" : "", h->total + need);
	return rdc_err_set_plain(err, ENOMEM,
				 "%" PRIu64 " free %" PRIu64 " kB huge pages%s, %s needs %" PRIu64
				 ": reserve more%s with sysctl vm.nr_hugepages=%" PRIu64,
				 avail, h->page_bytes >> 10, server ? " on the server" : "", what,
				 need, server ? " there" : "", h->total + need - avail);
}
