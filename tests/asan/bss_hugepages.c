// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bss_hugepages.c - linked into the sanitizer build's rdmactl only (make asan): at
 * start-up, the zero-filled (.bss) part of every loaded module's writable segment is
 * marked for transparent huge pages and its page tables filled in one call each.
 *
 * Why: at each exit LeakSanitizer reads every word of every module's writable
 * segments, looking for pointers into the heap.  Those include the sanitizer
 * runtime's own .bss, megabytes that a short run never touches (libasan.so's is
 * 5.4 MiB; libubsan.so's 5.8 MiB too while it was linked, before the build's UBSan
 * checks trapped: Makefile), so the scan took one page fault per 4 KiB page,
 * each a trap into the kernel: `perf record -e page-faults` put 2600 of an ASan
 * rdmactl's 4570 faults in the scan, and the tests start rdmactl some ten thousand
 * times.  Now a read of untouched memory in a range marked MADV_HUGEPAGE maps the
 * kernel's huge zero page (one fault per 2 MiB), and MADV_POPULATE_READ (Linux
 * 5.14) maps the zero page under the rest in one system call.  Measured on a 2-CPU
 * VM of CI's kind: `rdmactl --version` 71 to 43 ms, with the link without -pie
 * (Makefile).  The memory read is the same (zeros), so no leak is missed (make
 * asan's leak_probe checks that leaks are still reported); a kernel without either
 * advice returns EINVAL, ignored here.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; glibc headers from 2.35 have it */
#endif

static int advise_module_bss(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start, end;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz <= ph->p_filesz)
			continue;
		/* The anonymous mapping after the file's last page: whole pages only. */
		start = (info->dlpi_addr + ph->p_vaddr + ph->p_filesz + page - 1) & ~(page - 1);
		end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
		if (end <= start)
			continue;
		/* Advice only: where the kernel refuses it, the scan faults as before. */
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
		(void)madvise((void *)start, end - start, MADV_POPULATE_READ);
	}
	return 0;
}

__attribute__((constructor)) static void bss_hugepages(void)
{
	dl_iterate_phdr(advise_module_bss, NULL);
}
