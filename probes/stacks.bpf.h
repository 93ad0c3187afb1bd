/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks.bpf.h - off-CPU stacks (--stacks, offcputime's layout).
 * Compiles to nothing unless the host (src/features/feat_stacks.c) sets
 * SS_STACKS=1 (with the --offcpu probe, whose spans it attributes):
 *   SS_STACKS_KERNEL, SS_STACKS_USER  1: take that stack (-K / -U: one)
 *   SS_STACKS_PER_THREAD             1: key by thread (-L), else tid 0
 *   SS_STACKS_WAKERS                 1: --wakers too: key by the waker
 *                                       and its stacks (offwaketime)
 *   SS_STACKS_ENTRIES, SS_STACK_TRACES  map sizes
 *
 * At a thread's switch-out (the off-CPU span's start, offcpu.bpf.h) its
 * kernel and user stack ids are kept in its offcpu_task entry; at its
 * switch-in the span's whole length is added to (tgid, tid, kernel id,
 * user id, comm) in the stacks map.  Lost stacks are counted (stack_err).
 * With SS_STACKS_WAKERS, sched_waking (wakers.bpf.h) takes the waker's
 * stacks into the woken thread's entry (SS_STACKS_WAKING) and its
 * switch-in adds the waker, as wakers.bpf.h names it, to the key.
 * A process whose user stack is taken is announced to the host once
 * (stk_new), and again after an exec, and the host reads its image while
 * it runs.
 */
#ifndef SWITCHSTAT_STACKS_BPF_H
#define SWITCHSTAT_STACKS_BPF_H

#include "common.bpf.h"
#include "offcpu_shared.h"
#include "shared.h"
#include "stacks_shared.h"

#ifndef SS_STACKS
#define SS_STACKS 0
#endif

#if SS_STACKS
#ifndef EEXIST
#define EEXIST 17
#endif
#ifndef EFAULT
#define EFAULT 14
#endif
#ifndef SS_STACKS_ENTRIES
#define SS_STACKS_ENTRIES 16384
#endif
#ifndef SS_STACK_TRACES
#define SS_STACK_TRACES 16384
#endif
#ifndef SS_STACKS_KERNEL
#define SS_STACKS_KERNEL 1
#endif
#ifndef SS_STACKS_USER
#define SS_STACKS_USER 1
#endif
#ifndef SS_STACKS_PER_THREAD
#define SS_STACKS_PER_THREAD 0
#endif
#ifndef SS_STACKS_WAKERS
#define SS_STACKS_WAKERS 0
#endif

BPF_STACK_TRACE(stack_traces, SS_STACK_TRACES);
BPF_HASH(stacks, struct ss_stack_key, __u64, SS_STACKS_ENTRIES);
BPF_PERCPU_ARRAY(stack_err, __u64, SS_STKE_MAX);
#if SS_STACKS_USER
/*
 * Processes whose user stacks were taken, each announced once to the
 * host (stk_new) while it runs, so that it reads the process's mappings
 * before the process can exit (its frames are named at print time).  The
 * host deletes a process from stk_seen once it has exited and its stacks
 * are printed.
 */
BPF_HASH(stk_seen, __u32, __u8, SS_STK_SEEN);
BPF_PERF_OUTPUT(stk_new);

/*
 * Announce the current process (@tgid; @ctx the tracepoint's), once.
 * 1 when it is announced (here or before), 0 when not yet.
 */
static __always_inline int ss_stk_announce(void *ctx, __u32 tgid)
{
	__u8 one = 1;

	if (stk_seen.lookup(&tgid))
		return 1;
	if (stk_seen.insert(&tgid, &one))
		return 0;
	if (stk_new.perf_submit(ctx, &tgid, sizeof(tgid))) {
		stk_seen.delete(&tgid); /* not sent: again next time */
		return 0;
	}
	return 1;
}

/*
 * A process that execs has a new image: announced again at its next
 * stack.  The exec'ing thread (its tid the process's now) forgets it had
 * announced it; the process's other threads are gone.
 */
TRACEPOINT_PROBE(sched, sched_process_exec)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct ss_off_task *t = offcpu_task.lookup(&tid);

	stk_seen.delete(&tgid);
	if (t)
		t->stk_ann = 0;
	return 0;
}
#endif

static __always_inline void ss_stk_err(__u32 i)
{
	__u64 *c = stack_err.lookup(&i);

	if (c)
		*c += 1;
}

/* The current context's kernel stack id (@ctx the tracepoint's). */
static __always_inline int ss_stk_kernel(void *ctx)
{
	int k = SS_STK_NONE;

#if SS_STACKS_KERNEL
	k = stack_traces.get_stackid(ctx, 0);
	if (k < 0)
		ss_stk_err(k == -EEXIST ? SS_STKE_K_EEXIST : SS_STKE_K_OTHER);
#endif
	return k;
}

/*
 * The current task's user stack id (@ctx the tracepoint's); its process
 * (@tgid) announced unless *@ann (the thread's stk_ann, or NULL) says it
 * was, and noted there once it is.
 */
static __always_inline int ss_stk_user(void *ctx, __u32 tgid, __u32 *ann)
{
	int u = SS_STK_NONE;

#if SS_STACKS_USER
	u = stack_traces.get_stackid(ctx, BPF_F_USER_STACK);
	if (u >= 0 && (!ann || *ann != tgid) && ss_stk_announce(ctx, tgid) &&
	    ann)
		*ann = tgid;
	if (u < 0)
		ss_stk_err(u == -EEXIST	  ? SS_STKE_U_EEXIST
			   : u == -EFAULT ? SS_STKE_U_EFAULT
					  : SS_STKE_U_OTHER);
#endif
	return u;
}

/* ss_stk_user for the current task, its process looked up */
static __always_inline int ss_stk_cur_user(void *ctx)
{
	return ss_stk_user(ctx, bpf_get_current_pid_tgid() >> 32, NULL);
}

/*
 * At @t's switch-out (current task, @ctx the tracepoint's): its stacks.
 * t->comm is its row's name, just read (offcpu.bpf.h ss_off_leave).
 */
static __always_inline void ss_stk_leave(void *ctx, struct ss_off_task *t,
					 __u32 tgid)
{
	t->kstack = ss_stk_kernel(ctx);
	t->ustack = ss_stk_user(ctx, tgid, &t->stk_ann);
	t->stk_tgid = tgid;
	/* a process's stacks carry its name, its leader's (-L: the thread's):
	 * the row's, whose -L is the same */
	if (SS_STACKS_PER_THREAD == SS_PER_THREAD)
		__builtin_memcpy(t->stk_comm, t->comm, SS_COMM_LEN);
	else
		ss_ident_name(t->stk_comm, tgid,
			      (__u32)bpf_get_current_pid_tgid(),
			      SS_STACKS_PER_THREAD);
}

/* At thread @tid's switch-in: add the span's @ns to its stacks. */
static __always_inline void ss_stk_arrive(__u32 tid, struct ss_off_task *t,
					  __u64 ns)
{
	struct ss_stack_key key = {};
	__u64 zero = 0, *v;

	key.cgroup_id = t->cgroup_id;
	key.tgid = t->stk_tgid;
	key.tid = SS_STACKS_PER_THREAD ? tid : 0;
	key.kstack = t->kstack;
	key.ustack = t->ustack;
	__builtin_memcpy(key.comm, t->stk_comm, SS_COMM_LEN);
	key.wk_kstack = SS_STK_NONE;
	key.wk_ustack = SS_STK_NONE;
#if SS_STACKS_WAKERS
	/* the waker --wakers charges (wakers.bpf.h: not for a runnable) */
	if (t->wk_kind && t->reason != SS_OFF_RUNQ) {
		key.wk_kind = t->wk_kind;
		key.wk_tgid = t->wk_tgid;
		key.wk_tid = SS_STACKS_PER_THREAD ? t->wk_tid : 0;
		key.wk_kstack = t->wk_kstack;
		key.wk_ustack = t->wk_ustack;
		__builtin_memcpy(key.wk_comm, t->wk_comm, SS_COMM_LEN);
	}
#endif
	v = stacks.lookup_or_try_init(&key, &zero);
	if (!v) {
		ss_stk_err(SS_STKE_FULL);
		return;
	}
	__sync_fetch_and_add(v, ns);
}

#define SS_STACKS_LEAVE(ctx, t, tgid) ss_stk_leave(ctx, t, tgid)
#define SS_STACKS_ARRIVE(tid, t, ns) ss_stk_arrive(tid, t, ns)
#endif

#if SS_STACKS && SS_STACKS_WAKERS
/*
 * At sched_waking of @t (@ctx its raw tracepoint's): the waker's kernel
 * stack, and its user stack when a task (@task) woke it (an interrupt's
 * wakeup is not the interrupted task's).
 */
#define SS_STACKS_WAKING(ctx, t, task)                                        \
	do {                                                                  \
		(t)->wk_kstack = ss_stk_kernel(ctx);                          \
		(t)->wk_ustack = (task) ? ss_stk_cur_user(ctx) : SS_STK_NONE; \
	} while (0)
#else
#define SS_STACKS_WAKING(ctx, t, task) \
	do {                           \
	} while (0)
#endif

#if !SS_STACKS
#define SS_STACKS_LEAVE(ctx, t, tgid) \
	do {                          \
	} while (0)
#define SS_STACKS_ARRIVE(tid, t, ns) \
	do {                         \
	} while (0)
#endif

#endif
