// SPDX-License-Identifier: GPL-2.0
/*
 * test_lib_pages.c - src/kernel/lib_pages.c on real mappings of a temporary file:
 * clean read-only pages leave the resident set and read back the same;
 * mappings holding written (copy-on-write) pages, or writable ones, keep
 * their contents.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib_pages.h"

#define LEN (64 * 4096)

static char path[64];
static const char *names[1];

/* A LEN-byte file of 'x', mapped private with @prot. */
static char *map_file(int prot)
{
	char buf[4096];
	int fd;
	char *p;

	snprintf(path, sizeof(path), "/tmp/ss-libpages.XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < LEN / 4096; i++)
		cr_assert_eq(write(fd, buf, sizeof(buf)), sizeof(buf));
	p = mmap(NULL, LEN, prot, MAP_PRIVATE, fd, 0);
	cr_assert(p != MAP_FAILED);
	close(fd);
	names[0] = path;
	return p;
}

/* Touch every page; returns the sum of their first bytes. */
static long touch(const char *p)
{
	long sum = 0;

	for (int i = 0; i < LEN; i += 4096)
		sum += ((volatile const char *)p)[i];
	return sum;
}

Test(lib_pages, clean_read_only_pages_dropped_and_read_back)
{
	char *p = map_file(PROT_READ);

	touch(p);
	cr_assert_geq(ss_drop_lib_pages("/proc/self/smaps", names, 1),
		      LEN / 1024);
	/* nothing left resident to drop */
	cr_assert_eq(ss_drop_lib_pages("/proc/self/smaps", names, 1), 0);
	cr_assert_eq(touch(p), 'x' * (long)(LEN / 4096));
	munmap(p, LEN);
	unlink(path);
}

Test(lib_pages, written_pages_kept)
{
	/* relocated data: written, then made read-only (like RELRO) */
	char *p = map_file(PROT_READ | PROT_WRITE);

	touch(p);
	p[0] = 'y';
	cr_assert_eq(mprotect(p, LEN, PROT_READ), 0);
	cr_assert_eq(ss_drop_lib_pages("/proc/self/smaps", names, 1), 0);
	cr_assert_eq(p[0], 'y');
	munmap(p, LEN);
	unlink(path);
}

Test(lib_pages, writable_mapping_kept)
{
	char *p = map_file(PROT_READ | PROT_WRITE);

	touch(p);
	cr_assert_eq(ss_drop_lib_pages("/proc/self/smaps", names, 1), 0);
	munmap(p, LEN);
	unlink(path);
}

Test(lib_pages, other_files_and_bad_path)
{
	const char *none[] = { "/no/such/library.so" };
	char *p = map_file(PROT_READ);

	touch(p);
	cr_assert_eq(ss_drop_lib_pages("/proc/self/smaps", none, 1), 0);
	cr_assert_eq(ss_drop_lib_pages("/no/such/smaps", names, 1), -1);
	munmap(p, LEN);
	unlink(path);
}
