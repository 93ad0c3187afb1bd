/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib_pages.h - unmap the clean pages of shared libraries that the process
 * no longer runs (clang and LLVM after the compile), so they leave its
 * resident set.  They stay in the page cache, shared and reclaimable, and
 * fault back in if the code runs again.
 */
#ifndef SWITCHSTAT_LIB_PAGES_H
#define SWITCHSTAT_LIB_PAGES_H

#include <stddef.h>

/*
 * ss_drop_lib_pages - madvise(MADV_DONTNEED) every mapping, listed in the
 * smaps file at @smaps_path (normally /proc/self/smaps), of a file whose
 * name contains one of @names[0 .. @nnames - 1], that is not writable and
 * holds no private (copy-on-write) page: dropping such a mapping's pages
 * loses nothing, they read back identical from the file.  Mappings with
 * written pages (relocated data) are left alone.  Returns the kB of
 * resident pages dropped (as smaps counted them), or -1 if @smaps_path
 * cannot be read.
 */
long ss_drop_lib_pages(const char *smaps_path, const char *const *names,
		       size_t nnames);

#endif
