/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks_shared.h - off-CPU stacks (--stacks): the key and the error
 * counters shared by the probe (probes/stacks.bpf.h) and the host
 * (src/features/feat_stacks.c).  Fixed-size types only.
 */
#ifndef SWITCHSTAT_STACKS_SHARED_H
#define SWITCHSTAT_STACKS_SHARED_H

#include "shared.h"

/*
 * Key of the stacks map (value: __u64 off-CPU ns, whole spans): the thread
 * that blocked (tid 0 unless -L), its cgroup (bpf_get_current_cgroup_id at
 * its switch-out) and the stack ids where it blocked, taken at its
 * switch-out: ids of the stack_traces map, or a negative errno (-EFAULT:
 * no user stack, as for kernel threads; -EEXIST: a hash collision in the
 * stack map), SS_STK_NONE when not asked for (-K / -U).  With --wakers
 * (SS_STACKS_WAKERS) also who woke it (wk_kind: enum ss_waker_kind + 1, 0:
 * no wakeup, as a preempted task's), its tgid, tid (-L), comm and stacks
 * taken at sched_waking (a user stack for a task's wakeups only); else
 * these are 0 and SS_STK_NONE.
 */
struct ss_stack_key {
	__u64 cgroup_id;
	__u32 tgid;
	__u32 tid;
	__s32 kstack;
	__s32 ustack;
	char comm[SS_COMM_LEN];
	__u32 wk_kind;
	__u32 wk_tgid;
	__u32 wk_tid;
	__s32 wk_kstack;
	__s32 wk_ustack;
	__u32 pad;
	char wk_comm[SS_COMM_LEN];
};

#define SS_STK_NONE (-1000) /* that stack not taken (-K, -U) */
#define SS_STK_SEEN 8192 /* processes announced (map stk_seen) */

/* per-CPU counters (map stack_err) */
enum ss_stack_err {
	SS_STKE_K_EEXIST = 0, /* kernel stack lost: stack map bucket taken */
	SS_STKE_K_OTHER = 1, /* kernel stack lost: another error */
	SS_STKE_U_EEXIST = 2, /* user stack lost: stack map bucket taken */
	SS_STKE_U_EFAULT = 3, /* no user stack (kernel thread, fault) */
	SS_STKE_U_OTHER = 4, /* user stack lost: another error */
	SS_STKE_FULL = 5, /* a span not counted: the stacks map was full */
	SS_STKE_MAX = 6,
};

#endif
