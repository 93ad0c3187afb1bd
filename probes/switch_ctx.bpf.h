/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switch_ctx.bpf.h - struct ss_switch_ctx, what one context switch is,
 * built once by the sched_switch program (switch.bpf.c) and handed to
 * every feature's switch hook; the resyncs (checkpoint, edge, a switch
 * the kernel did not report) build one too, with the running task as
 * both prev and next.  A hook reads what it needs from it and is given
 * nothing else but this CPU's state and the program's context.
 */
#ifndef SWITCHSTAT_SWITCH_CTX_BPF_H
#define SWITCHSTAT_SWITCH_CTX_BPF_H

struct ss_switch_ctx {
	__u64 now; /* the window's clock, ns (0: not read: SS_TASK_CLOCK) */
	__u64 last; /* the ending slice's start (0: not to be charged) */
	__u64 key; /* prev's slice key: task address (raw), else tid */
	__u64 next_key; /* next's */
	/* the tasks: raw path only (typed pointers under tp_btf), else 0 */
	__u64 prev;
	__u64 next;
	__u64 prev_state; /* as the regular tracepoint reports it */
	__u64 raw_state; /* raw: prev's __state; regular: prev_state */
	__u64 preempt; /* raw: prev was preempted; regular: 0 */
	/* the leaving task's identity, read once (ss_sw_ident_read) */
	__u64 task; /* prev under tp_btf, else the current task */
	__u64 cgroup_id;
	__u64 leader_task;
	/* the regular tracepoint's comms (--trace), else NULL */
	const char *prev_comm;
	const char *next_comm;
	__u32 tgid; /* prev, the current task */
	__u32 tid; /* 0: the idle task */
	__u32 next_tid; /* 0: idle, or not read (SS_RAW_NEXT_TID) */
	int kind; /* enum ss_switch_kind */
	int kind_known; /* kind is the kernel's own count (raw path) */
	int blocked; /* prev went to sleep */
	int at_switch; /* 0: a resync (checkpoint, edge, unreported) */
};

#endif
