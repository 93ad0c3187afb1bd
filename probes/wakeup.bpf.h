/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakeup.bpf.h - sched_wakeup and sched_wakeup_new, shared by the features
 * that time run-queue waits (SS_HIST_WAKEUP for --hist runq,
 * SS_BLAME_WAKEUP for --blame).  The host sets SS_NEED_WAKEUP=1 when any of
 * them is on and attaches these programs once.  The woken task starts
 * waiting now, on the run queue of target_cpu.  sched_migrate_task
 * (SS_NEED_MIGRATE, --blame) follows a waiting task to another CPU.
 */
#ifndef SWITCHSTAT_WAKEUP_BPF_H
#define SWITCHSTAT_WAKEUP_BPF_H

#include "blame.bpf.h"
#include "hist.bpf.h"
#include "task.bpf.h"

#ifndef SS_NEED_WAKEUP
#define SS_NEED_WAKEUP 0
#endif

#if SS_NEED_WAKEUP && SS_RAW_TP
/*
 * Raw sched_wakeup(p) and sched_wakeup_new(p): the woken task's pid and
 * run queue (task_cpu(p), the tracepoint's target_cpu) at their BTF
 * offsets, read only by the features compiled in: in place under tp_btf
 * (the host loads every sched program as tp_btf when sched_switch is),
 * else by bpf_probe_read_kernel.
 */
RAW_TRACEPOINT_PROBE(sched_wakeup)
{
	__u64 p = ctx->args[0];

	SS_HIST_WAKEUP(ss_arg_task_pid(p), ss_arg_task_tgid(p));
	SS_BLAME_WAKEUP(ss_arg_task_pid(p), ss_arg_task_cpu(p),
			SS_TP_BTF ? p : 0);
	return 0;
}

RAW_TRACEPOINT_PROBE(sched_wakeup_new)
{
	__u64 p = ctx->args[0];

	SS_HIST_WAKEUP(ss_arg_task_pid(p), ss_arg_task_tgid(p));
	SS_BLAME_WAKEUP(ss_arg_task_pid(p), ss_arg_task_cpu(p),
			SS_TP_BTF ? p : 0);
	return 0;
}
#elif SS_NEED_WAKEUP
TRACEPOINT_PROBE(sched, sched_wakeup)
{
	SS_HIST_WAKEUP(args->pid, 0);
	SS_BLAME_WAKEUP(args->pid, args->target_cpu, 0);
	return 0;
}

TRACEPOINT_PROBE(sched, sched_wakeup_new)
{
	SS_HIST_WAKEUP(args->pid, 0);
	SS_BLAME_WAKEUP(args->pid, args->target_cpu, 0);
	return 0;
}
#endif

#ifndef SS_NEED_MIGRATE
#define SS_NEED_MIGRATE 0
#endif

#if SS_NEED_MIGRATE && SS_RAW_TP
/*
 * A task moves to another CPU: a wait it is in goes on over there.  raw:
 * (struct task_struct *p, int dest_cpu), before p's CPU is changed.
 */
RAW_TRACEPOINT_PROBE(sched_migrate_task)
{
	__u64 p = ctx->args[0];

	SS_BLAME_MIGRATE(ss_arg_task_pid(p), ss_arg_task_cpu(p),
			 (__u32)ctx->args[1], SS_TP_BTF ? p : 0);
	return 0;
}
#elif SS_NEED_MIGRATE
/* A task moves to another CPU: a wait it is in goes on over there. */
TRACEPOINT_PROBE(sched, sched_migrate_task)
{
	SS_BLAME_MIGRATE(args->pid, args->orig_cpu, args->dest_cpu, 0);
	return 0;
}
#endif

#endif
