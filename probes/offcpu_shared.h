/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu_shared.h - off-CPU time by reason (--offcpu): the reasons and the
 * layouts shared by the probe (probes/offcpu.bpf.h) and the host
 * (src/features/feat_offcpu.c).  Fixed-size types only.
 */
#ifndef SWITCHSTAT_OFFCPU_SHARED_H
#define SWITCHSTAT_OFFCPU_SHARED_H

#include "shared.h"

/*
 * Why a task was off the CPU: the state it left the CPU in.  The whole
 * span, switch-out to switch-in, is charged to it (as offcputime --state
 * counts), the wait for a CPU after its wakeup included.  Disjoint, so a
 * row's reasons add up to its off-CPU time.
 */
enum ss_off_reason {
	SS_OFF_SLEEP = 0, /* S: TASK_INTERRUPTIBLE */
	SS_OFF_BLOCK = 1, /* D: TASK_UNINTERRUPTIBLE, not killable, no I/O */
	SS_OFF_KILLABLE = 2, /* D: TASK_KILLABLE (raw path only) */
	SS_OFF_IOWAIT = 3, /* D (any) with in_iowait set: io_schedule() */
	SS_OFF_IDLE = 4, /* I: TASK_IDLE (kernel threads waiting for work) */
	SS_OFF_STOPPED = 5, /* T: __TASK_STOPPED (SIGSTOP, job control) */
	SS_OFF_TRACED = 6, /* t: __TASK_TRACED (ptrace stop) */
	SS_OFF_RUNQ = 7, /* R: preempted or runnable: waits for a CPU */
	SS_OFF_OTHER = 8, /* P (parked) and anything else */
	SS_OFF_MAX = 9,
};

/*
 * One off-CPU accumulator (maps offcpu / offcpu_b, keyed by struct
 * ss_key, one per interval parity like accum): ns per reason.
 */
struct ss_off_val {
	char comm[SS_COMM_LEN];
	__u64 cgroup_id;
	__u64 ns[SS_OFF_MAX];
};

/*
 * Per thread (map offcpu_task, keyed by tid): the open span and the row
 * it goes to, set at its switch-out; since 0: on a CPU, or not known.
 * xfrom..xto: the part of the last span that crossed an interval edge
 * and that the probe did not charge (it began before the edge xto, the
 * time of the edge of the interval the charging CPU was in); the host
 * charges that part to the intervals it fell in.
 */
struct ss_off_task {
	struct ss_key key;
	char comm[SS_COMM_LEN];
	__u64 cgroup_id;
	__u64 since;
	/*
	 * the thread's se.sum_exec_runtime at since (its switch-out), ns, for
	 * a span whose switch-in went unseen (offcpu.bpf.h); 0: not read
	 */
	__u64 ksum;
	__u64 xfrom;
	__u64 xto;
	/*
	 * the part of the last span charged at its (seen) switch-in, ns (0:
	 * none), the interval (accum_gen) and reason it went to: what of it
	 * the kernel's clock gave the task's run time is taken back at its
	 * switch-out (offcpu.bpf.h ss_off_overlap)
	 */
	__u64 arr_ns;
	__u64 arr_gen;
	__u32 arr_reason;
	__u32 arr_pad;
	__u32 reason; /* enum ss_off_reason of the open span */
	__u32 xreason; /* ... of the xfrom..xto part */
	__u32 dead; /* 1: its last switch was seen: the host deletes it */
	/*
	 * --wakers: who woke it last (wk_kind + 1; 0: no wakeup noted since
	 * its last span ended), set at sched_waking, used at its switch-in
	 */
	__u32 wk_kind;
	__u64 wk_cgroup;
	__u32 wk_tgid;
	__u32 wk_tid;
	char wk_comm[SS_COMM_LEN];
	/*
	 * --stacks: where it blocked, taken at its switch-out (struct
	 * ss_stack_key's ids), its tgid and row name (identity.bpf.h);
	 * stk_ann: the process it last found announced to the host (map
	 * stk_seen; 0: none), so its next stacks skip the lookup
	 */
	__s32 kstack;
	__s32 ustack;
	__u32 stk_tgid;
	__u32 stk_ann;
	char stk_comm[SS_COMM_LEN];
	/* --wakers --stacks: the waker's stacks, taken at sched_waking */
	__s32 wk_kstack;
	__s32 wk_ustack;
};

/* The time of each interval's edge (map offcpu_edge, [gen & 1]). */
struct ss_off_edge {
	__u64 gen; /* the interval that begins at ts */
	__u64 ts; /* bpf_ktime_get_ns() of the first CPU's edge */
};

#endif
