/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs.h - where tracefs is (as libbcc looks for it) and which
 * tracepoints it has.  Used by the environment check and attaches
 * (bpf_host.c), the compiled-BPF cache's key (the format files of the
 * probed tracepoints, bpf_cache_key.c) and the kernel facts.
 */
#ifndef SWITCHSTAT_TRACEFS_H
#define SWITCHSTAT_TRACEFS_H

#include <stdbool.h>

/*
 * tracefs as libbcc looks for it: under debugfs if that exists, else
 * tracefs's own mount point (what a container usually has, as the mount
 * namespace shows it).
 */
#define SS_TRACEFS_DEBUGFS "/sys/kernel/debug/tracing"
#define SS_TRACEFS_OWN "/sys/kernel/tracing"

/*
 * ss_tracefs - tracefs where libbcc looks: SS_TRACEFS_DEBUGFS if it
 * exists, else SS_TRACEFS_OWN.
 */
const char *ss_tracefs(void);

/* ss_tracepoint_exists - does category/name exist in tracefs? */
bool ss_tracepoint_exists(const char *category, const char *name);

#endif
