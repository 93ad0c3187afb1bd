/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostns.h - is switchstat in the host's pid namespace?
 *
 * The kernel's tracepoints and BPF helpers report pids as the initial pid
 * namespace numbers them.  In another pid namespace (a container without
 * --pid=host) those numbers mean other processes or none, so the PID
 * column, -p/-t and --trace would be wrong: such runs are refused, while
 * per-cgroup rows (-G), which show no pids, still work.
 */
#ifndef SWITCHSTAT_HOSTNS_H
#define SWITCHSTAT_HOSTNS_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* the initial pid namespace's fixed inode number (PROC_PID_INIT_INO) */
#define SS_PROC_PID_INIT_INO 0xEFFFFFFCUL

/*
 * ss_in_host_pidns - the pid namespace file nsfile (/proc/self/ns/pid) is
 * the initial one.  An unreadable file counts as the host's (kernels
 * without pid namespaces).
 */
bool ss_in_host_pidns(const char *nsfile);

/*
 * ss_check_pidns - refuse options that show or take pids when not in the
 * host's pid namespace (host: whether we are).  Returns 0, or -1 with one
 * line in err.
 */
int ss_check_pidns(const struct ss_opts *o, bool host, char *err,
		   size_t errlen);

#endif
