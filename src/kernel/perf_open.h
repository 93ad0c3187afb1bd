/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_open.h - per-CPU counting perf events for the counters feature:
 * the perf_event_attr we use, which CPUs are online, what an open failure
 * means.  No libbcc; unit tested.
 */
#ifndef SWITCHSTAT_PERF_OPEN_H
#define SWITCHSTAT_PERF_OPEN_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "events.h"

/*
 * ss_perf_attr - fill @attr to count @ev on one CPU for all tasks
 * (pid -1, cpu N): counting mode (no sampling), enabled from the start,
 * read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING so that a reading
 * by bpf_perf_event_read_value() carries the times needed to scale a
 * multiplexed counter (perf stat's scaling, see events.h ss_counter_scale).
 */
void ss_perf_attr(const struct ss_event *ev, struct perf_event_attr *attr);

/* What a failed perf_event_open() for one CPU means for the run. */
enum ss_open_fail {
	SS_OPEN_SKIP_CPU, /* CPU offline or absent (ENODEV): skip it */
	SS_OPEN_NO_PMU, /* the event is not supported here (no PMU) */
	SS_OPEN_FAILED, /* anything else: permissions, fd limit, ... */
};

/*
 * ss_perf_classify - classify errno @err from perf_event_open() of @ev on a
 * CPU; @cpu_online says whether the CPU was online.  ENODEV or an offline
 * CPU skip the CPU; ENOENT, EOPNOTSUPP, ENOSYS, and EINVAL for a hardware
 * event, mean no PMU (the kernel's answers when no driver claims the type).
 */
enum ss_open_fail ss_perf_classify(int err, const struct ss_event *ev,
				   bool cpu_online);

/*
 * ss_perf_why - a short reason for errno @err opening @ev, with a hint
 * (e.g. "no PMU for hardware events (common in VMs)", "too many open
 * files: raise ulimit -n").  Returns a static string.
 */
const char *ss_perf_why(int err, const struct ss_event *ev);

#endif
