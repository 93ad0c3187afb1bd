/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.bpf.h - --trace: one perf-buffer record (struct ss_trace_event,
 * probes/trace_event.h) per context switch, read by src/features/feat_trace.c.
 *
 * SS_TRACE (-D from trace_configure): 0 compiles nothing into the
 * sched_switch handler, so the default path pays nothing.  With 1 the
 * handler returns right after the record is sent: trace mode prints events
 * instead of intervals, so the accumulator is not updated.
 *
 * Everything comes from the tracepoint record and helpers:
 * prev's tgid from bpf_get_current_pid_tgid() (the current task at
 * sched_switch is still prev); next's tgid is not in the record, so only
 * its thread id (next_pid) is reported.  With -p/-t/--cgroup a record is
 * sent when a selected task leaves the CPU (the end of its slice).
 */
#ifndef SWITCHSTAT_TRACE_BPF_H
#define SWITCHSTAT_TRACE_BPF_H

#include "common.bpf.h"
#include "counters.bpf.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"
#include "trace_event.h"

#ifndef SS_TRACE
#define SS_TRACE 0
#endif

#if SS_TRACE
BPF_PERF_OUTPUT(trace_events);
/*
 * Records this CPU could not send (bpf_perf_event_output failed: buffer
 * full, or no buffer for the CPU while it is reopened after hotplug):
 * cumulative, read by the host.  The one count of lost records: the
 * kernel's own lost records reach the reader only when a later record
 * fits, so drops while the buffer stays full are never reported there.
 */
BPF_PERCPU_ARRAY(trace_lost, __u64, 1);
/*
 * trace_on[0]: 1 while the trace runs; the host clears it at the end,
 * before its last read of the buffers and of trace_lost, so every switch
 * of the trace is a line or lost, and none after it is either.
 */
BPF_ARRAY(trace_on, __u32, 1);

/* 1 while the trace runs (trace_on), else 0 */
static __always_inline int ss_trace_on(void)
{
	__u32 zero = 0;
	__u32 *on = trace_on.lookup(&zero);

	return on && *on;
}

/* Send ev with the counters that are read (SS_NR_COUNTERS of them). */
static __always_inline void ss_trace_submit(void *ctx,
					    struct ss_trace_event *ev)
{
	if (trace_events.perf_submit(ctx, ev,
				     SS_TRACE_EVENT_SIZE(SS_NR_COUNTERS)) < 0) {
		__u32 zero = 0;
		__u64 *n = trace_lost.lookup(&zero);

		if (n)
			(*n)++; /* per-CPU, and switches do not nest */
	}
}

/*
 * Counter deltas of the slice that just ended: ss_feature_switch_counters()
 * (probes/counters.bpf.h) left them in the per-CPU state just before.
 * A counter without a valid delta (first slice, read error, went
 * backwards) has its counter_valid bit clear and prints as n/a.
 */
#if SS_NR_COUNTERS > 0
#define SS_TRACE_COUNTERS(ev, cpu)                                      \
	do {                                                            \
		(ev)->counter_valid = (cpu)->ctr_delta_valid;           \
		(ev)->counter_scaled = (cpu)->ctr_delta_scaled;         \
		_Pragma("unroll") for (int i_ = 0; i_ < SS_NR_COUNTERS; \
				       i_++)(ev)                        \
			->counters[i_] = (cpu)->ctr_delta[i_];          \
	} while (0)
#else
#define SS_TRACE_COUNTERS(ev, cpu) \
	do {                       \
	} while (0)
#endif

/* the two comms of a --trace record of switch @sw */
static __always_inline void ss_trace_comms(struct ss_trace_event *ev,
					   const struct ss_switch_ctx *sw)
{
#if SS_RAW_TP
	bpf_get_current_comm(ev->prev_comm, SS_COMM_LEN);
	ss_task_comm(sw->next, ev->next_comm);
#else
	/* a copy from the context would be loads through a moved ctx
	 * pointer, which the verifier rejects */
	bpf_probe_read_kernel(ev->prev_comm, SS_COMM_LEN, sw->prev_comm);
	bpf_probe_read_kernel(ev->next_comm, SS_COMM_LEN, sw->next_comm);
#endif
}

/*
 * At sched_switch @sw (@ctx the program's, @cpu this CPU's state): the
 * record, when the trace runs and prev is selected.  Returns 1: trace
 * mode prints events instead of intervals, so the switch ends here.
 */
static __always_inline int ss_trace_switch(void *ctx, struct ss_cpu *cpu,
					   const struct ss_switch_ctx *sw)
{
	__u64 now = sw->now, last = sw->last;

	if (ss_trace_on() && ss_task_selected(sw->tgid, sw->tid)) {
		struct ss_trace_event ev = {};

		ev.ts_ns = now;
		if (last && now >= last) {
			ev.slice_ns = now - last;
			ev.flags = SS_TRACE_SLICE_KNOWN;
		}
		if (sw->kind_known)
			ev.flags |= SS_TRACE_KIND_KNOWN;
		if (sw->kind == SS_SW_VOL)
			ev.flags |= SS_TRACE_VOLUNTARY;
		if (sw->kind == SS_SW_EXIT)
			ev.flags |= SS_TRACE_EXIT;
		ev.prev_state = sw->prev_state;
		ev.cpu = bpf_get_smp_processor_id();
		ev.prev_tgid = sw->tgid;
		ev.prev_tid = sw->tid;
		ev.next_tid = sw->next_tid;
		ss_trace_comms(&ev, sw);
		SS_TRACE_COUNTERS(&ev, cpu);
		ss_trace_submit(ctx, &ev);
	}
	return 1;
}
#else
static __always_inline int ss_trace_switch(void *ctx, struct ss_cpu *cpu,
					   const struct ss_switch_ctx *sw)
{
	return 0;
}
#endif

#endif
