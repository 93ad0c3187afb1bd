/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timens.h - the time namespace's clock offset.
 *
 * bpf_ktime_get_ns() reads the host's CLOCK_MONOTONIC; inside a time
 * namespace (unshare --time, containers) the user's CLOCK_MONOTONIC is the
 * host's plus the namespace's offset, which /proc/self/timens_offsets
 * shows.  Adding it turns a BPF timestamp into the user's clock.
 */
#ifndef SWITCHSTAT_TIMENS_H
#define SWITCHSTAT_TIMENS_H

#include <stdint.h>

/*
 * ss_timens_parse - the monotonic offset (ns) in the text of a
 * timens_offsets file ("monotonic SECS NSECS" lines).  Returns 0 with
 * *mono_ns set (0 if the line is absent), or -1 if that line is malformed.
 */
int ss_timens_parse(const char *text, int64_t *mono_ns);

/*
 * ss_timens_mono_offset - the user's CLOCK_MONOTONIC minus the host's
 * (= bpf_ktime_get_ns()), ns: 0 outside a time namespace, or when the
 * kernel has none (no /proc/self/timens_offsets).
 */
int64_t ss_timens_mono_offset(void);

#endif
