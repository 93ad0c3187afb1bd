/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakers.bpf.h - who woke whom (--wakers).  Compiles to nothing unless
 * the host (src/features/feat_wakers.c) sets SS_WAKERS=1 (with the
 * --offcpu probe, whose spans it attributes; raw tracepoints only).
 *
 * The waker is whoever runs sched_waking (try_to_wake_up's start, in the
 * caller's context, before a remote wakeup is queued to the target CPU's
 * IPI, where sched_wakeup runs as whatever task the IPI interrupted).  A
 * wakeup from interrupt context is not the interrupted task's: each CPU
 * counts how deep it is in hrtimer expiry (timer:hrtimer_expire_entry /
 * exit), device interrupt handlers (irq:irq_handler_entry / exit) and
 * softirqs (irq:softirq_entry / exit, with the vector), from raw
 * tracepoints the kernel never skips, and labels such a wakeup timer, irq
 * or softirq (the timer softirqs: timer); a wakeup by the idle task
 * outside those (an IPI, irq_work) is idle.  The waker is kept in the
 * woken thread's offcpu_task entry until its switch-in ends its off-CPU
 * span (offcpu.bpf.h): then the pair (victim, waker) gets one wakeup and
 * the span's whole length.  (A map of its own, keyed by every woken
 * thread, kept the wakers of unselected threads for good and filled up.)
 */
#ifndef SWITCHSTAT_WAKERS_BPF_H
#define SWITCHSTAT_WAKERS_BPF_H

#include "common.bpf.h"
#include "offcpu_shared.h"
#include "select.bpf.h"
#include "shared.h"
#include "stacks.bpf.h" /* SS_STACKS_WAKING */
#include "task.bpf.h"
#include "wakers_shared.h"

#ifndef SS_WAKERS
#define SS_WAKERS 0
#endif

#if SS_WAKERS
#ifndef SS_WAKERS_ENTRIES
#define SS_WAKERS_ENTRIES 16384
#endif

/* the kernel's TIMER_SOFTIRQ and HRTIMER_SOFTIRQ vectors */
#define SS_TIMER_SOFTIRQ 1
#define SS_HRTIMER_SOFTIRQ 8

/* per CPU: how deep in interrupt context, by kind */
struct ss_wk_ctx {
	__u32 hrtimer;
	__u32 hardirq;
	__u32 softirq;
	__u32 soft_vec; /* vector of the innermost softirq */
};

BPF_PERCPU_ARRAY(wk_ctx, struct ss_wk_ctx, 1);
BPF_HASH(wakers, struct ss_waker_key, struct ss_waker_val, SS_WAKERS_ENTRIES);

static __always_inline struct ss_wk_ctx *ss_wk_ctx(void)
{
	__u32 zero = 0;

	return wk_ctx.lookup(&zero);
}

#define SS_WK_ENTER(field)                         \
	do {                                       \
		struct ss_wk_ctx *c = ss_wk_ctx(); \
		if (c)                             \
			c->field++;                \
	} while (0)
#define SS_WK_EXIT(field)                                \
	do {                                             \
		struct ss_wk_ctx *c = ss_wk_ctx();       \
		if (c && c->field) /* began before us */ \
			c->field--;                      \
	} while (0)

RAW_TRACEPOINT_PROBE(hrtimer_expire_entry)
{
	SS_WK_ENTER(hrtimer);
	return 0;
}

RAW_TRACEPOINT_PROBE(hrtimer_expire_exit)
{
	SS_WK_EXIT(hrtimer);
	return 0;
}

RAW_TRACEPOINT_PROBE(irq_handler_entry)
{
	SS_WK_ENTER(hardirq);
	return 0;
}

RAW_TRACEPOINT_PROBE(irq_handler_exit)
{
	SS_WK_EXIT(hardirq);
	return 0;
}

/* softirq_entry(unsigned int vec_nr) */
RAW_TRACEPOINT_PROBE(softirq_entry)
{
	struct ss_wk_ctx *c = ss_wk_ctx();

	if (c) {
		c->softirq++;
		c->soft_vec = (__u32)ctx->args[0];
	}
	return 0;
}

RAW_TRACEPOINT_PROBE(softirq_exit)
{
	SS_WK_EXIT(softirq);
	return 0;
}

/*
 * sched_waking(p): the current context wakes p.  Noted in p's --offcpu
 * state (offcpu_task), made here when p has none yet: sched_waking can
 * run on another CPU before p's own switch-out has made it.  Only threads
 * that may be selected (-p, -t) are noted.
 */
RAW_TRACEPOINT_PROBE(sched_waking)
{
	__u64 p = ctx->args[0];
	__u32 tid = ss_task_pid(p);
	struct ss_wk_ctx *c = ss_wk_ctx();
	struct ss_off_task *t;
	__u64 id = bpf_get_current_pid_tgid();
	__u32 kind;

	if (!tid || !ss_ids_selected(ss_task_tgid(p), tid))
		return 0;
	t = offcpu_task.lookup(&tid);
	if (!t) {
		struct ss_off_task zero = {};

		t = offcpu_task.lookup_or_try_init(&tid, &zero);
		if (!t)
			return 0;
	}
	if (c && c->hrtimer)
		kind = SS_WK_TIMER;
	else if (c && c->hardirq)
		kind = SS_WK_IRQ;
	else if (c && c->softirq)
		kind = (c->soft_vec == SS_TIMER_SOFTIRQ ||
			c->soft_vec == SS_HRTIMER_SOFTIRQ)
			       ? SS_WK_TIMER
			       : SS_WK_SOFTIRQ;
	else if ((__u32)id == 0)
		kind = SS_WK_IDLE;
	else
		kind = SS_WK_TASK;
	if (kind == SS_WK_TASK) {
		t->wk_tgid = id >> 32;
		t->wk_tid = (__u32)id;
		t->wk_cgroup = ss_ident_cgroup_id(); /* in place: no helper */
		/* a process row's name: its leader's (-L: the thread's) */
		ss_ident_name(t->wk_comm, t->wk_tgid, t->wk_tid, SS_PER_THREAD);
	} else {
		t->wk_tgid = 0;
		t->wk_tid = 0;
		t->wk_cgroup = 0;
		__builtin_memset(t->wk_comm, 0, sizeof(t->wk_comm));
	}
	SS_STACKS_WAKING(ctx, t, kind == SS_WK_TASK);
	t->wk_kind = kind + 1;
	return 0;
}

/*
 * Thread @tid, whose off-CPU span of @t (its row) ends now after @ns:
 * charge the span to the waker that woke it, if one did.
 */
static __always_inline void ss_wk_arrive(__u32 tid, struct ss_off_task *t,
					 __u64 ns)
{
	struct ss_waker_key key = {};
	struct ss_waker_val *v;
	__u32 kind = t->wk_kind;

	if (!kind)
		return;
	t->wk_kind = 0;
	/* a runnable task is not woken: that wakeup came before it left */
	if (t->reason == SS_OFF_RUNQ)
		return;
	key.kind = kind - 1;
	/* the cgroups always: the exporter labels series by cgroup */
	key.victim_cgroup = t->cgroup_id;
	if (key.kind == SS_WK_TASK)
		key.waker_cgroup = t->wk_cgroup;
	if (!SS_PER_CGROUP) {
		key.victim_tgid = t->key.tgid;
		key.victim_tid = SS_PER_THREAD ? tid : 0;
		if (key.kind == SS_WK_TASK) {
			key.waker_tgid = t->wk_tgid;
			key.waker_tid = SS_PER_THREAD ? t->wk_tid : 0;
		}
	}
	v = wakers.lookup(&key);
	if (!v) {
		struct ss_waker_val init = {};

		__builtin_memcpy(init.victim_comm, t->comm, SS_COMM_LEN);
		__builtin_memcpy(init.waker_comm, t->wk_comm, SS_COMM_LEN);
		v = wakers.lookup_or_try_init(&key, &init);
	}
	if (v) {
		__sync_fetch_and_add(&v->count, 1);
		__sync_fetch_and_add(&v->off_ns, ns);
	} else {
		stat_add(SS_STAT_DROPS, 1);
	}
}

#define SS_WAKERS_ARRIVE(tid, t, ns) ss_wk_arrive(tid, t, ns)
#define SS_WAKERS_FORGET(t) ((t)->wk_kind = 0)
#else
#define SS_WAKERS_FORGET(t) \
	do {                \
	} while (0)
#define SS_WAKERS_ARRIVE(tid, t, ns) \
	do {                         \
	} while (0)
#endif

#endif
