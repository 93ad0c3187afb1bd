/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_event.h - the record --trace sends through the perf buffer, one per
 * context switch.  Shared by the BPF side and the
 * host (src/output/trace_fmt.h); fixed-size integer types only.
 *
 * The BPF side submits only the first
 * SS_TRACE_EVENT_SIZE(nr_counters) bytes: the counters array is cut to the
 * counters actually read.
 */
#ifndef SWITCHSTAT_TRACE_EVENT_H
#define SWITCHSTAT_TRACE_EVENT_H

#include "shared.h"

/* ss_trace_event.flags */
#define SS_TRACE_SLICE_KNOWN 0x1 /* slice_ns is valid */
#define SS_TRACE_KIND_KNOWN 0x2 /* SS_TRACE_VOLUNTARY is the kernel's own */
#define SS_TRACE_VOLUNTARY 0x4 /* a voluntary switch (nvcsw moved) */
#define SS_TRACE_EXIT 0x8 /* a switch of a released thread (not counted) */

struct ss_trace_event {
	__u64 ts_ns; /* bpf_ktime_get_ns() at the switch (CLOCK_MONOTONIC) */
	__u64 slice_ns; /* prev's on-CPU slice that just ended */
	__u64 prev_state; /* raw tracepoint prev_state (TASK_REPORT bits) */
	__u32 cpu; /* CPU the switch happened on */
	__u32 prev_tgid; /* process id of the task leaving the CPU */
	__u32 prev_tid; /* its thread id (0: the CPU's idle task) */
	__u32 next_tid; /* thread id of the task coming on (tgid unknown) */
	char prev_comm[SS_COMM_LEN];
	char next_comm[SS_COMM_LEN];
	__u32 flags; /* SS_TRACE_* */
	__u32 pad;
	__u64 counter_valid; /* bit i: counters[i] is this slice's delta */
	__u64 counter_scaled; /* bit i: counters[i] was multiplex-scaled */
	__u64 counters[SS_MAX_COUNTERS]; /* perf counter deltas of the slice */
};

/* bytes of an event carrying n counter deltas */
#define SS_TRACE_EVENT_SIZE(n)                                 \
	(__builtin_offsetof(struct ss_trace_event, counters) + \
	 (n) * sizeof(__u64))

#endif
