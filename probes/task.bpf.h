/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task.bpf.h - the raw tracepoint path: reading task_struct fields at
 * offsets the host computed from the running kernel's BTF (never from
 * kernel headers, which may belong to another kernel version).
 *
 * Settings (numeric -D macros from src/features/feat_path.c):
 *   SS_RAW_TP       1: sched_switch, sched_wakeup(_new) and
 *                   sched_process_exit are raw tracepoint programs (the
 *                   kernel runs them even while another BPF program or a
 *                   bpf() map syscall is active on the CPU, where it skips
 *                   regular tracepoint programs); 0: regular tracepoints
 *   SS_TASK_PID     byte offset of task_struct.pid (thread id)
 *   SS_TASK_TGID    byte offset of task_struct.tgid (process id)
 *   SS_TASK_NVCSW   byte offset of task_struct.nvcsw (unsigned long)
 *   SS_TASK_COMM    byte offset of task_struct.comm (char[16])
 *   SS_TASK_CPU     byte offset of task_struct.cpu (task_cpu(), u32)
 *   SS_TASK_EXIT_STATE  byte offset of task_struct.exit_state (int)
 *   SS_SWITCH_NARGS 4: the raw sched_switch passes prev_state (args[3],
 *                   Linux 5.18+); 3: it does not (5.5-5.17), the probe
 *                   reads prev's state from SS_TASK_STATE
 *   SS_TASK_STATE   byte offset of task_struct.__state (5.14+) or .state
 *   SS_TASK_STATE_SIZE  its size: 4 (__state, unsigned int) or 8 (long)
 */
#ifndef SWITCHSTAT_TASK_BPF_H
#define SWITCHSTAT_TASK_BPF_H

#include "shared.h"

#ifndef SS_RAW_TP
#define SS_RAW_TP 0
#endif
#ifndef SS_TP_BTF
#define SS_TP_BTF 0 /* 1: sched_switch loaded as tp_btf (src/kernel/tp_btf.c) */
#endif
#ifndef SS_TASK_BTF_PTR
#define SS_TASK_BTF_PTR 0 /* 1: bpf_get_current_task_btf() (identity.bpf.h) */
#endif
#ifndef SS_TASK_CLOCK
#define SS_TASK_CLOCK 0 /* 1: rows' on-CPU time on the kernel's clock */
#endif
/*
 * What the kernel's task clock leaves out (switch.bpf.c ss_kexcl_step),
 * byte offsets from BTF, 0 where the kernel has no such field:
 * task_struct.se.cfs_rq, cfs_rq.rq, rq.prev_steal_time_rq (steal), and
 * rq.prev_irq_time (IRQ time, CONFIG_IRQ_TIME_ACCOUNTING)
 */
#ifndef SS_SE_CFS_RQ
#define SS_SE_CFS_RQ 0
#endif
#ifndef SS_CFS_RQ_RQ
#define SS_CFS_RQ_RQ 0
#endif
#ifndef SS_RQ_STEAL
#define SS_RQ_STEAL 0
#endif
#ifndef SS_RQ_IRQ
#define SS_RQ_IRQ 0
#endif

#if SS_RAW_TP
/*
 * The raw sched_switch prev_state is the task's __state: TASK_DEAD
 * (0x80 since Linux 4.14) on a thread's last switch.
 */
#define SS_TASK_DEAD 0x80ULL

/* task->pid (a thread id); 0 if the read fails */
static __always_inline __u32 ss_task_pid(__u64 task)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(task + SS_TASK_PID));
	return v;
}

/* task->tgid (a process id); 0 if the read fails */
static __always_inline __u32 ss_task_tgid(__u64 task)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(task + SS_TASK_TGID));
	return v;
}

/* task->cpu: the CPU whose run queue holds it; 0 if the read fails */
static __always_inline __u32 ss_task_cpu(__u64 task)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(task + SS_TASK_CPU));
	return v;
}

/* task->nvcsw: the task's voluntary switches so far; 0 if the read fails */
static __always_inline __u64 ss_task_nvcsw(__u64 task)
{
	unsigned long v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(task + SS_TASK_NVCSW));
	return v;
}

/*
 * 1 if the current task's pid and tgid, read at their BTF offsets, equal
 * what the helper says (tgid, tid); 0 if the offsets are wrong.
 */
static __always_inline int ss_task_offsets_ok(__u32 tgid, __u32 tid)
{
	__u64 task = bpf_get_current_task();

	return ss_task_pid(task) == tid && ss_task_tgid(task) == tgid;
}

/*
 * The current task's nvcsw: a plain load through the BTF-typed pointer
 * when the kernel has bpf_get_current_task_btf() (a few ns instead of a
 * bpf_probe_read_kernel call).
 */
static __always_inline __u64 ss_current_nvcsw(void)
{
#if SS_TASK_BTF_PTR
	return *(unsigned long *)((__u64)bpf_get_current_task_btf() +
				  SS_TASK_NVCSW);
#else
	return ss_task_nvcsw(bpf_get_current_task());
#endif
}

#ifdef SS_TASK_RUN_DELAY
/*
 * The current task's sched_info.run_delay: ns it has waited on a run
 * queue in all (schedstat's second field, the run queue's clock; each wait
 * is added as the task is switched in, after sched_switch's tracepoint).
 */
static __always_inline __u64 ss_current_run_delay(void)
{
	__u64 rd = 0;
#if SS_TASK_BTF_PTR
	rd = *(__u64 *)((__u64)bpf_get_current_task_btf() + SS_TASK_RUN_DELAY);
#else
	bpf_probe_read_kernel(
		&rd, sizeof(rd),
		(void *)(bpf_get_current_task() + SS_TASK_RUN_DELAY));
#endif
	return rd;
}
#endif

/*
 * The kernel's EXIT_DEAD (include/linux/sched.h, the same value since
 * 2.6): in exit_state once a thread is released (its counts folded into
 * its process's) or its process reaped by the parent (wait_task_zombie).
 */
/* the current task's nivcsw (the row cache's baseline, common.bpf.h) */
static __always_inline __u64 ss_current_nivcsw(void)
{
#if SS_TASK_BTF_PTR
	return *(unsigned long *)((__u64)bpf_get_current_task_btf() +
				  SS_TASK_NIVCSW);
#else
	unsigned long v = 0;

	bpf_probe_read_kernel(
		&v, sizeof(v),
		(void *)(bpf_get_current_task() + SS_TASK_NIVCSW));
	return v;
#endif
}

#define SS_EXIT_DEAD 0x10

/* 1 if the current task's exit_state is EXIT_DEAD (see above), else 0 */
static __always_inline int ss_current_released(void)
{
	int v = 0;

#if SS_TASK_BTF_PTR
	v = *(int *)((__u64)bpf_get_current_task_btf() + SS_TASK_EXIT_STATE);
#else
	bpf_probe_read_kernel(
		&v, sizeof(v),
		(void *)(bpf_get_current_task() + SS_TASK_EXIT_STATE));
#endif
	return v == SS_EXIT_DEAD;
}

/*
 * The task leaving at a raw sched_switch (@prev: its ctx->args[1]), which
 * is the current task: read in place from the tp_btf argument (no
 * bpf_get_current_task_btf() call per read: there were about 8 on a
 * switch's usual path), else as the ss_current_* readers above.
 */
static __always_inline __u64 ss_prev_nvcsw(__u64 prev)
{
#if SS_TP_BTF
	return *(unsigned long *)(prev + SS_TASK_NVCSW);
#else
	return ss_current_nvcsw();
#endif
}

static __always_inline __u64 ss_prev_nivcsw(__u64 prev)
{
#if SS_TP_BTF
	return *(unsigned long *)(prev + SS_TASK_NIVCSW);
#else
	return ss_current_nivcsw();
#endif
}

/* prev's exit_state (EXIT_ZOMBIE 0x20, EXIT_DEAD 0x10; 0 while alive) */
static __always_inline __u64 ss_prev_exit_state(__u64 prev)
{
	int v = 0;

#if SS_TP_BTF
	v = *(int *)(prev + SS_TASK_EXIT_STATE);
#elif SS_TASK_BTF_PTR
	v = *(int *)((__u64)bpf_get_current_task_btf() + SS_TASK_EXIT_STATE);
#else
	bpf_probe_read_kernel(
		&v, sizeof(v),
		(void *)(bpf_get_current_task() + SS_TASK_EXIT_STATE));
#endif
	return (__u32)v;
}

static __always_inline int ss_prev_released(__u64 prev)
{
	return ss_prev_exit_state(prev) == SS_EXIT_DEAD;
}

#ifndef SS_SWITCH_NARGS
#define SS_SWITCH_NARGS 4
#endif
#if SS_SWITCH_NARGS == 3
/*
 * prev's state at a raw sched_switch without a prev_state argument
 * (before 5.18: @prev is ctx->args[1], the current task).  The kernel has
 * counted the switch (++*switch_count) and not yet switched, so this is
 * what the regular tracepoint reads there (__trace_sched_switch_state):
 * TASK_DEAD on a last switch, running again after a sleep abandoned for a
 * pending signal.  0 if the read fails.
 */
static __always_inline __u64 ss_prev_state(__u64 prev)
{
#if SS_TP_BTF
#if SS_TASK_STATE_SIZE == 8
	return *(long *)(prev + SS_TASK_STATE);
#else
	return *(unsigned int *)(prev + SS_TASK_STATE);
#endif
#else
#if SS_TASK_STATE_SIZE == 8
	long v = 0;
#else
	unsigned int v = 0;
#endif

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(prev + SS_TASK_STATE));
	return v;
#endif
}
#endif

/*
 * Reads of a task the raw sched_switch passes (ctx->args[]).  With
 * SS_TP_BTF the program is a BTF raw tracepoint (tp_btf): its arguments
 * are typed task pointers the verifier lets it read in place, a plain load
 * instead of a bpf_probe_read_kernel() call (30-45 ns each per
 * sched_switch run, measured).
 */
#ifndef SS_KCLOCK
#define SS_KCLOCK 0 /* 1: the SS_TASK_SUM_EXEC... offsets below are set */
#endif

#if SS_KCLOCK
/*
 * ss_current_kslice - the kernel's own clock of the current task's time
 * on this CPU since it was last picked, ns: se.sum_exec_runtime minus
 * se.prev_sum_exec_runtime, which the fair class sets when it picks the
 * task (set_next_entity) and update_curr advances (run before
 * sched_switch's tracepoint, so fresh for the task leaving).  0 for a task
 * of another class (policy not SCHED_NORMAL, SCHED_BATCH or SCHED_IDLE):
 * their classes keep no prev_sum_exec_runtime.  The clock is rq_clock_task,
 * which leaves out IRQ time where the kernel accounts it.
 */
static __always_inline __u64 ss_current_kslice(void)
{
	__u64 sum = 0, prev = 0;
	unsigned int policy = 99;
#if SS_TASK_BTF_PTR
	__u64 t = (__u64)bpf_get_current_task_btf();

	policy = *(unsigned int *)(t + SS_TASK_POLICY);
	sum = *(__u64 *)(t + SS_TASK_SUM_EXEC);
	prev = *(__u64 *)(t + SS_TASK_PREV_SUM_EXEC);
#else
	__u64 t = bpf_get_current_task();

	bpf_probe_read_kernel(&policy, sizeof(policy),
			      (void *)(t + SS_TASK_POLICY));
	bpf_probe_read_kernel(&sum, sizeof(sum),
			      (void *)(t + SS_TASK_SUM_EXEC));
	bpf_probe_read_kernel(&prev, sizeof(prev),
			      (void *)(t + SS_TASK_PREV_SUM_EXEC));
#endif
	if (policy != 0 && policy != 3 && policy != 5)
		return 0;
	return sum > prev ? sum - prev : 0;
}
#endif

#if SS_TASK_CLOCK && !(SS_KCLOCK && SS_TP_BTF && SS_RAW_TP)
#error "SS_TASK_CLOCK needs SS_KCLOCK, SS_TP_BTF and SS_RAW_TP"
#endif

#if SS_TASK_CLOCK
/*
 * ss_arg_task_sum_exec - @task->se.sum_exec_runtime, ns: the kernel's own
 * clock of the task's time on CPU (rq_clock_task: steal and, where the
 * kernel accounts it, IRQ time left out), as schedstat, getrusage and
 * cgroup cpu.stat report it.  @task: a typed sched_switch argument, read
 * in place.  At sched_switch it is fresh for prev (update_curr ran when
 * prev was put) and settled for next (not running since).
 */
static __always_inline __u64 ss_arg_task_sum_exec(__u64 task)
{
	return *(__u64 *)(task + SS_TASK_SUM_EXEC);
}

/*
 * ss_arg_task_kslice - @task's time since the fair class last picked it,
 * ns (sum_exec_runtime - prev_sum_exec_runtime), or 0 for a task of
 * another class (they keep no prev_sum_exec_runtime); in place, as above.
 */
static __always_inline __u64 ss_arg_task_kslice(__u64 task)
{
	unsigned int policy = *(unsigned int *)(task + SS_TASK_POLICY);
	__u64 sum = *(__u64 *)(task + SS_TASK_SUM_EXEC);
	__u64 prev = *(__u64 *)(task + SS_TASK_PREV_SUM_EXEC);

	if (policy != 0 && policy != 3 && policy != 5)
		return 0;
	return sum > prev ? sum - prev : 0;
}

/*
 * ss_current_sum_exec - the current task's se.sum_exec_runtime, ns, as of
 * the kernel's last update of it (update_curr: at the tick, a wakeup, a
 * switch), so up to a tick behind while it runs.
 */
static __always_inline __u64 ss_current_sum_exec(void)
{
	__u64 sum = 0;
#if SS_TASK_BTF_PTR
	sum = *(__u64 *)((__u64)bpf_get_current_task_btf() + SS_TASK_SUM_EXEC);
#else
	bpf_probe_read_kernel(
		&sum, sizeof(sum),
		(void *)(bpf_get_current_task() + SS_TASK_SUM_EXEC));
#endif
	return sum;
}
#endif

static __always_inline __u32 ss_arg_task_pid(__u64 task)
{
#if SS_TP_BTF
	return *(__u32 *)(task + SS_TASK_PID);
#else
	return ss_task_pid(task);
#endif
}

static __always_inline __u32 ss_arg_task_tgid(__u64 task)
{
#if SS_TP_BTF
	return *(__u32 *)(task + SS_TASK_TGID);
#else
	return ss_task_tgid(task);
#endif
}

/* task->cpu (task_cpu(): the CPU whose run queue holds it), in place
 * under tp_btf */
static __always_inline __u32 ss_arg_task_cpu(__u64 task)
{
#if SS_TP_BTF
	return *(__u32 *)(task + SS_TASK_CPU);
#else
	return ss_task_cpu(task);
#endif
}

static __always_inline __u64 ss_arg_task_nvcsw(__u64 task)
{
#if SS_TP_BTF
	return *(unsigned long *)(task + SS_TASK_NVCSW);
#else
	return ss_task_nvcsw(task);
#endif
}

/* the current task's address: the raw path's slice key */
static __always_inline __u64 ss_current_task_key(void)
{
	return bpf_get_current_task();
}

/* task->comm into dst (SS_COMM_LEN bytes) */
static __always_inline void ss_task_comm(__u64 task, char *dst)
{
	bpf_probe_read_kernel(dst, SS_COMM_LEN, (void *)(task + SS_TASK_COMM));
}
#endif

/*
 * ss_current_kthread - 1 if the current task is a kernel thread
 * (PF_KTHREAD, the same bit since Linux 2.6.27) or that cannot be told
 * (no SS_TASK_FLAGS offset from BTF, or the regular path).  Once a CPU
 * going offline is inactive, only its per-CPU kernel threads run there
 * (the scheduler pushes every other task away): its last switches to the
 * idle task are from its stopper (migration/N) and hotplug thread (cpuhp/N).
 */
#define SS_PF_KTHREAD 0x00200000U

static __always_inline int ss_current_kthread(void)
{
#if SS_RAW_TP && defined(SS_TASK_FLAGS)
	unsigned int flags = SS_PF_KTHREAD;
#if SS_TASK_BTF_PTR
	flags = *(unsigned int *)((__u64)bpf_get_current_task_btf() +
				  SS_TASK_FLAGS);
#else
	bpf_probe_read_kernel(&flags, sizeof(flags),
			      (void *)(bpf_get_current_task() + SS_TASK_FLAGS));
#endif
	return (flags & SS_PF_KTHREAD) != 0;
#else
	return 1;
#endif
}

#endif
