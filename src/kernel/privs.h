/* SPDX-License-Identifier: GPL-2.0 */
/*
 * privs.h - the capabilities switchstat needs, checked instead of uid 0.
 *
 * Measured with libbcc 0.26 on kernel 6.18 (setpriv, non-root uid): loading
 * tracepoint programs needs CAP_BPF and CAP_PERFMON (reading kernel memory
 * and opening perf events); libbcc reads tracepoint formats under
 * /sys/kernel/debug (mode 0700), which needs CAP_DAC_READ_SEARCH unless the
 * user may read it anyway.  CAP_SYS_ADMIN stands in for CAP_BPF and
 * CAP_PERFMON (and is the only way before Linux 5.8).  --self-stats also
 * needs CAP_SYS_ADMIN (BPF_ENABLE_STATS).
 */
#ifndef SWITCHSTAT_PRIVS_H
#define SWITCHSTAT_PRIVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_CAP_DAC_READ_SEARCH 2
#define SS_CAP_SYS_ADMIN 21
#define SS_CAP_PERFMON 38
#define SS_CAP_BPF 39

/*
 * ss_caps_missing - which of the needed capabilities the effective set
 * eff (bit n: capability n) lacks.  last_cap is the kernel's highest
 * capability (/proc/sys/kernel/cap_last_cap); below CAP_BPF only
 * CAP_SYS_ADMIN will do.  tracefs_readable: the tracepoint formats can be
 * read without CAP_DAC_READ_SEARCH.  Writes the missing names, joined by
 * " and ", to buf ("" if none).  Returns the number missing.
 */
int ss_caps_missing(uint64_t eff, int last_cap, bool tracefs_readable,
		    char *buf, size_t len);

/*
 * ss_check_privs - ss_caps_missing for this process (capget(2)).  tracefs
 * is a tracepoint format file to try to read.  Returns 0, or -1 with one
 * line in err naming what is missing.
 */
int ss_check_privs(const char *tracefs_file, char *err, size_t errlen);

/* ss_have_cap - the effective set holds capability cap. */
bool ss_have_cap(int cap);

#endif
