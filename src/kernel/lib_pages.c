// SPDX-License-Identifier: GPL-2.0
/*
 * lib_pages.c - drop clean shared-library pages from the resident set
 * (see lib_pages.h).
 */
#include "lib_pages.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* One mapping of /proc/PID/smaps: its header line and the counts we use. */
struct vma {
	unsigned long start, end;
	bool candidate; /* not writable, file named in the list */
	long rss_kb, anon_kb;
};

static void drop(const struct vma *v, long *dropped)
{
	if (!v->candidate || v->anon_kb != 0 || v->rss_kb <= 0)
		return;
	if (madvise((void *)v->start, v->end - v->start, MADV_DONTNEED) == 0)
		*dropped += v->rss_kb;
}

static bool named(const char *path, const char *const *names, size_t nnames)
{
	for (size_t i = 0; i < nnames; i++)
		if (strstr(path, names[i]))
			return true;
	return false;
}

/* ss_drop_lib_pages - see lib_pages.h */
long ss_drop_lib_pages(const char *smaps_path, const char *const *names,
		       size_t nnames)
{
	FILE *f = fopen(smaps_path, "r");
	struct vma v = { 0 };
	char line[4096];
	long dropped = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char perms[8], path[4096] = "";
		long kb;

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &start, &end,
			   perms, path) >= 3) {
			drop(&v, &dropped);
			v = (struct vma){ .start = start, .end = end };
			/* anonymous until the counts say otherwise */
			v.anon_kb = -1;
			v.candidate = perms[1] != 'w' && path[0] == '/' &&
				      named(path, names, nnames);
		} else if (sscanf(line, "Rss: %ld kB", &kb) == 1) {
			v.rss_kb = kb;
		} else if (sscanf(line, "Anonymous: %ld kB", &kb) == 1) {
			v.anon_kb = kb;
		}
	}
	drop(&v, &dropped);
	fclose(f);
	return dropped;
}
