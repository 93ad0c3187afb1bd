/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switch.bpf.c - sched_switch accounting, compiled by libbcc at start-up.
 *
 * Rules: only tracepoint fields and helpers, never a kernel struct at a
 * header's offset; the layout of args comes from the running kernel's
 * format file through TRACEPOINT_PROBE; the slice start is kept per CPU, so
 * each CPU's idle task is separate and nothing wraps; the first slice on
 * each CPU began before we started and is skipped.
 * At sched_switch the current task is still the one leaving the CPU, so
 * bpf_get_current_pid_tgid() names prev.
 *
 * Feature hooks (SS_*_SWITCH macros, from the feature .bpf.h files) run
 * inside the handler and may use its locals: args, cpu, now, last, tgid, tid.
 */
#include "blame.bpf.h"
#include "common.bpf.h"
#include "counters.bpf.h"
#include "hist.bpf.h"
#include "hotplug.bpf.h"
#include "mem.bpf.h"
#include "select.bpf.h"
#include "shared.h"
#include "trace.bpf.h"
#include "wakeup.bpf.h"

#ifndef SS_NEED_EXIT
#define SS_NEED_EXIT 0
#endif
#ifndef SS_TEST_VERIFIER_FAIL
#define SS_TEST_VERIFIER_FAIL 0
#endif

/*
 * ss_charge_slice - charge the on-CPU slice [last, now) of this CPU to the
 * current task (tgid, tid): its row's on-CPU ns and counter deltas, or the
 * idle / filtered stats.  Used at every switch and at every checkpoint.
 * Returns the row, or NULL when no row was charged: first slice (began
 * before we started), clock went backwards, idle, filtered, map full.
 */
static __always_inline struct ss_val *ss_charge_slice(struct ss_cpu *cpu,
						      __u64 now, __u64 last,
						      __u32 tgid, __u32 tid)
{
	if (last == 0) /* counted by the caller: first or missed */
		return NULL;
	if (now < last) {
		ss_cpu_stat_add(cpu, SS_STAT_ANOMALY, 1);
		return NULL;
	}
	if (tid == 0) {
		ss_cpu_stat_add(cpu, SS_STAT_IDLE_NS, now - last);
		return NULL;
	}
	if (!ss_task_selected(tgid, tid)) {
		ss_cpu_stat_add(cpu, SS_STAT_FILTERED_NS, now - last);
		return NULL;
	}

	struct ss_val *val = ss_current_val(tgid, tid);

	if (!val)
		return NULL;
	__sync_fetch_and_add(&val->oncpu_ns, now - last);
	ss_feature_switch_charge(cpu, val);
	SS_MEM_CHARGE(cpu, val);
	return val;
}

/*
 * ss_slice_next - end this CPU's current slice at now and start the next
 * one, owned by next_tid.  Returns the ended slice's start (ns), or 0 when
 * it must not be charged: the first slice on this CPU (began before we
 * started), or one whose owner is unknown because a switch on this CPU
 * was missed (the task leaving is not the one we saw arrive): never guess.
 */
static __always_inline __u64 ss_slice_next(struct ss_cpu *cpu, __u64 now,
					   __u32 tid, __u32 next_tid)
{
	__u64 last = cpu->last_switch_ns;

	if (!last) {
		ss_cpu_stat_add(cpu, SS_STAT_FIRST_SLICE, 1);
	} else if (cpu->curr_tid != tid) {
		ss_cpu_stat_add(cpu, SS_STAT_MISSED, 1);
		last = 0;
	}
	cpu->curr_tid = next_tid;
	cpu->last_switch_ns = now;
	return last;
}

TRACEPOINT_PROBE(sched, sched_switch)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (!cpu)
		return 0;

	__u64 now = bpf_ktime_get_ns(), last;
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;

#if SS_TEST_VERIFIER_FAIL
	/* test hook: a load the verifier must reject */
	now += *(volatile __u64 *)(long)bpf_get_prandom_u32();
#endif
	ss_hotplug_check(cpu, tid, 0);
	last = ss_slice_next(cpu, now, tid, args->next_pid);
	ss_cpu_stat_add(cpu, SS_STAT_SWITCHES, 1);
	ss_feature_switch_counters(cpu, tgid, tid);
	SS_MEM_SWITCH(cpu);
	SS_HIST_SWITCH();
	SS_BLAME_SWITCH();
	SS_TRACE_SWITCH();

	struct ss_val *val = ss_charge_slice(cpu, now, last, tgid, tid);

	if (!val)
		return 0;
	if (args->prev_state & SS_PREV_STATE_SLEEP_MASK)
		__sync_fetch_and_add(&val->voluntary, 1);
	else
		__sync_fetch_and_add(&val->involuntary, 1);
	return 0;
}

/*
 * The context is only passed on, never read: a declaration is enough, and
 * spares the compile uapi/linux/bpf_perf_event.h and the few hundred kernel
 * headers behind it (asm/ptrace.h and on).
 */
struct bpf_perf_event_data;

/*
 * Interval checkpoint: a per-CPU cpu-clock perf event (opened by
 * src/feat_hist.c, period interval/200) charges the slice so far to the task
 * running now, without counting a switch, and restarts the slice here.  So
 * a task that never switches still shows its time in every interval; the
 * error at an interval boundary is at most one period per CPU.
 */
int ss_checkpoint(struct bpf_perf_event_data *ctx)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (!cpu)
		return 0;

	__u64 now = bpf_ktime_get_ns(), last;
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;

	ss_hotplug_check(cpu, tid, 1);
	last = ss_slice_next(cpu, now, tid, tid);
	ss_feature_switch_counters(cpu, tgid, tid);
	SS_MEM_SWITCH(cpu);
	SS_HIST_CHECKPOINT();
	SS_BLAME_CHECKPOINT();
	ss_charge_slice(cpu, now, last, tgid, tid);
	return 0;
}

#if SS_NEED_EXIT
/* Per-thread state of features (hist, mem) must not outlive the thread. */
TRACEPOINT_PROBE(sched, sched_process_exit)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	SS_HIST_EXIT(tid);
	SS_MEM_EXIT(tid);
	SS_BLAME_EXIT(tid);
	return 0;
}
#endif
