/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hugepages.h - bench's buffers from huge pages (hugepages): the pool, and what a run needs of it */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "bench/bench.h"

/* The default huge page pool, from /proc/meminfo. */
struct rdc_bench_huge {
	uint64_t page_bytes; /* Hugepagesize: what MAP_HUGETLB maps without a size flag */
	uint64_t total;	     /* HugePages_Total: vm.nr_hugepages */
	uint64_t free;	     /* HugePages_Free */
	uint64_t rsvd;	     /* HugePages_Rsvd: promised to mappings, not faulted in yet */
};

/*
 * Parse /proc/meminfo's text.  -ENOENT when it has no Hugepagesize (a
 * kernel without hugetlbfs), -EINVAL when a huge page line is malformed.
 */
int rdc_bench_huge_parse(const char *meminfo, struct rdc_bench_huge *h);
/* Read /proc/meminfo through the file layer and parse it; -errno with the reason. */
int rdc_bench_huge_read(struct rdc_bench_huge *h, struct rdc_err *err);
/* @len rounded up to whole pages of @page_bytes. */
uint64_t rdc_bench_huge_round(uint64_t len, uint64_t page_bytes);
/* Huge pages a run's @nlinks link buffers take on one side (each rounded up on its own). */
uint64_t rdc_bench_huge_pages(const struct rdc_bench_params *p, uint32_t nlinks,
			      uint64_t page_bytes);
/*
 * Whether the pool has the pages for the run's buffers free (less those
 * reserved); -ENOMEM naming the fix otherwise: "no free 2048 kB huge pages
 * for 4 MiB: reserve some with sysctl vm.nr_hugepages=2" (on the server:
 * "on the server", "there").
 */
int rdc_bench_huge_check(const struct rdc_bench_huge *h, const struct rdc_bench_params *p,
			 uint32_t nlinks, bool server, struct rdc_err *err);
