/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu.bpf.h - off-CPU time by reason (--offcpu).  Compiles to nothing
 * unless the host (src/features/feat_offcpu.c) sets SS_OFFCPU=1.
 *   SS_OFF_IOWAIT_BYTE, SS_OFF_IOWAIT_BIT  where task_struct.in_iowait (a
 *                    bitfield) is, from the kernel's BTF; SS_OFF_IOWAIT_BTF
 *                    1 when known (else I/O waits count as D)
 *   SS_OFF_KSUM      byte offset of task_struct.se.sum_exec_runtime, from
 *                    the kernel's BTF (0: unknown), for spans whose
 *                    switch-in no program saw (ss_off_close_unseen)
 *
 * A thread's off-CPU span runs from its switch-out to its next switch-in
 * and is charged to the reason (enum ss_off_reason) of the state it left
 * the CPU in: the raw tracepoint's prev_state is the task's __state, so
 * TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE) and TASK_IDLE are
 * told apart; the I/O wait is the in_iowait bit io_schedule() sets, read
 * at switch-out.  The row it goes to (struct ss_key) and the name are
 * those of the thread at its switch-out, when it is the current task.
 *
 * Intervals: at its switch-in the span is charged to the map of the
 * interval the CPU is in (offcpu / offcpu_b, as accum), from the later of
 * its start and that interval's edge (offcpu_edge, the first CPU's edge
 * time).  What lies before that edge is the host's to charge: at each
 * edge it reads every thread's open span, and the part xfrom..xto of a
 * span that crossed the edge and ended before the host looked; so each
 * interval gets the part of each span that fell in it.
 */
#ifndef SWITCHSTAT_OFFCPU_BPF_H
#define SWITCHSTAT_OFFCPU_BPF_H

#include "common.bpf.h"
#include "hist.bpf.h"
#include "identity.bpf.h"
#include "offcpu_shared.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"
#include "task.bpf.h"

#ifndef SS_OFFCPU
#define SS_OFFCPU 0
#endif

#if SS_OFFCPU
#ifndef SS_OFF_IOWAIT_BTF
#define SS_OFF_IOWAIT_BTF 0
#endif
#ifndef SS_OFF_KSUM
#define SS_OFF_KSUM 0
#endif

BPF_HASH(offcpu, struct ss_key, struct ss_off_val, SS_MAP_ENTRIES);
BPF_HASH(offcpu_b, struct ss_key, struct ss_off_val, SS_MAP_ENTRIES);
BPF_HASH(offcpu_task, __u32, struct ss_off_task, SS_MAP_ENTRIES);
BPF_ARRAY(offcpu_edge, struct ss_off_edge, 2);
#ifndef SS_TEST_MISS_ARRIVE
#define SS_TEST_MISS_ARRIVE 0
#endif
#if SS_TEST_MISS_ARRIVE
BPF_PERCPU_ARRAY(test_miss_arrive, __u64, 1);
#endif

#include "stacks.bpf.h" /* before wakers: sched_waking takes stacks */
#include "wakers.bpf.h" /* uses offcpu_task */

/* marker: the thread's last switch (it exits), no span */
#define SS_OFF_DEAD SS_OFF_MAX

/* 1 if the current task is in io_schedule() (in_iowait), else 0 */
static __always_inline int ss_off_iowait(void)
{
#if SS_OFF_IOWAIT_BTF
	__u8 b = 0;

	bpf_probe_read_kernel(
		&b, 1, (void *)(bpf_get_current_task() + SS_OFF_IOWAIT_BYTE));
	return (b >> SS_OFF_IOWAIT_BIT) & 1;
#else
	return 0;
#endif
}

/*
 * The current task's se.sum_exec_runtime, ns: the kernel's own clock of
 * its time on a CPU, kept for every scheduling class and brought up to
 * date (update_curr) before sched_switch's tracepoint for the task
 * leaving.  0 where SS_OFF_KSUM is unknown.
 */
static __always_inline __u64 ss_off_ksum(void)
{
	__u64 sum = 0;

#if SS_OFF_KSUM
	SS_TASK_READ(sum, SS_CUR_TASK(), SS_OFF_KSUM);
#endif
	return sum;
}

/*
 * The reason of a switch-out from the raw tracepoint's @preempt and
 * @st (the task's __state; include/linux/sched.h bits, stable since 4.14:
 * 0x1 S, 0x2 D, 0x4 T, 0x8 t, 0x40 P, 0x80 TASK_DEAD, 0x100 TASK_WAKEKILL,
 * 0x400 TASK_NOLOAD; 0x1000 TASK_RTLOCK_WAIT and 0x8000 TASK_FROZEN,
 * which the tracepoint reports as D), or SS_OFF_DEAD.
 */
static __always_inline __u32 ss_off_reason_raw(__u64 preempt, __u64 st)
{
	if (preempt)
		return SS_OFF_RUNQ;
	if (st & (0x1000 | 0x8000))
		return SS_OFF_BLOCK;
	if (!(st & 0xff))
		return SS_OFF_RUNQ;
	if (st & 0x80)
		return SS_OFF_DEAD;
	if (st & 0x8)
		return SS_OFF_TRACED;
	if (st & 0x4)
		return SS_OFF_STOPPED;
	if (st & 0x2) {
		if (ss_off_iowait())
			return SS_OFF_IOWAIT;
		if (st & 0x400)
			return SS_OFF_IDLE;
		return (st & 0x100) ? SS_OFF_KILLABLE : SS_OFF_BLOCK;
	}
	if (st & 0x1)
		return SS_OFF_SLEEP;
	return SS_OFF_OTHER;
}

/*
 * The reason from the regular tracepoint's prev_state (TASK_REPORT bits:
 * 0x1 S, 0x2 D, 0x4 T, 0x8 t, 0x10 X, 0x20 Z, 0x40 P, 0x80 I, 0x100 R+):
 * no TASK_KILLABLE there, so killable waits count as D.
 */
static __always_inline __u32 ss_off_reason_tp(__u64 st)
{
	if (!(st & 0xff))
		return SS_OFF_RUNQ;
	if (st & 0x30)
		return SS_OFF_DEAD;
	if (st & 0x8)
		return SS_OFF_TRACED;
	if (st & 0x4)
		return SS_OFF_STOPPED;
	if (st & 0x80)
		return SS_OFF_IDLE;
	if (st & 0x2)
		return ss_off_iowait() ? SS_OFF_IOWAIT : SS_OFF_BLOCK;
	if (st & 0x1)
		return SS_OFF_SLEEP;
	return SS_OFF_OTHER;
}

/* Add @ns of @reason to @t's row in the accumulator map of @gen. */
static __always_inline void ss_off_charge(struct ss_off_task *t, int gen,
					  __u32 reason, __u64 ns)
{
	struct ss_off_val *v;

	if (!ns || reason >= SS_OFF_MAX)
		return;
	v = gen ? offcpu_b.lookup(&t->key) : offcpu.lookup(&t->key);
	if (!v) {
		struct ss_off_val init = {};

		__builtin_memcpy(init.comm, t->comm, SS_COMM_LEN);
		init.cgroup_id = t->cgroup_id;
		v = gen ? offcpu_b.lookup_or_try_init(&t->key, &init)
			: offcpu.lookup_or_try_init(&t->key, &init);
		if (!v) {
			stat_add(SS_STAT_DROPS, 1);
			return;
		}
	}
	__sync_fetch_and_add(&v->ns[reason], ns);
}

#if SS_TASK_CLOCK
/*
 * ss_off_gap - under SS_TASK_CLOCK, the part of the leaving task's window
 * on this CPU (its reported switch-in to @now, ns) that the kernel's clock
 * did not give it: preemptions by switches the kernel did not report
 * (both ends hidden), and steal and IRQ time where the kernel accounts
 * them.  The task was runnable then and not running, so --offcpu charges
 * it as runnable (R), and on-CPU + off-CPU add up to the wall time as on
 * the window.  0 when the switch-in was not seen.
 */
static __always_inline __u64 ss_off_gap(struct ss_cpu *cpu, __u64 now)
{
	__u64 in = cpu->off_in_ns, k = cpu->off_in_k;

	return in && now > in + k ? now - in - k : 0;
}
#define SS_OFF_GAP_START(cpu, now)        \
	do {                              \
		(cpu)->off_in_ns = (now); \
		(cpu)->off_in_k = 0;      \
	} while (0)

/*
 * ss_off_over - under SS_TASK_CLOCK, how much more the kernel's clock
 * gave the leaving task than its window on this CPU (its reported
 * switch-in to @now, ns): a wakeup that asks for a reschedule makes the
 * next __schedule() skip its clock update, so the woken task's run time
 * starts at the wakeup's clock value (docs/accuracy.md, Run-queue waits)
 * and its wait after the wakeup is run time to the kernel.  That much of
 * the off-CPU span its switch-in ended was on-CPU time, and is taken back
 * (ss_off_overlap).  0 when the switch-in was not seen.
 */
static __always_inline __u64 ss_off_over(struct ss_cpu *cpu, __u64 now)
{
	__u64 in = cpu->off_in_ns, k = cpu->off_in_k;

	return in && in + k > now ? in + k - now : 0;
}
#else
#define ss_off_gap(cpu, now) 0
#define ss_off_over(cpu, now) 0
#define SS_OFF_GAP_START(cpu, now) \
	do {                       \
	} while (0)
#endif

/*
 * @t's (thread @tid's) open span ends at @now (@cpu: this CPU's state).
 * The part before the edge of the interval this CPU is in is left in
 * xfrom..xto for the host (see the top of this file).
 */
static __always_inline void ss_off_end(struct ss_cpu *cpu,
				       struct ss_off_task *t, __u32 tid,
				       __u64 now, int seen)
{
	__u64 since = t->since, from;
	__u32 idx;
	int gen;

	gen = cpu->accum_gen & 1;
	idx = gen;

	struct ss_off_edge *e = offcpu_edge.lookup(&idx);

	from = since;
	if (e && e->gen == cpu->accum_gen && e->ts > since) {
		from = e->ts;
		t->xreason = t->reason;
		t->xfrom = since;
		t->xto = e->ts;
	}
	/* xfrom..xto before since = 0: the host reads them lock-free */
	asm volatile("" ::: "memory");
	t->since = 0;
	t->arr_ns = 0;
	if (now > from) {
		ss_off_charge(t, gen, t->reason, now - from);
		if (seen) { /* its end may be run time (ss_off_over) */
			t->arr_ns = now - from;
			t->arr_gen = cpu->accum_gen;
			t->arr_reason = t->reason;
		}
	}
	if (now > since) { /* --hist offcpu-*, --wakers: the whole span */
		SS_HIST_OFFSTATE_END(tid, t->reason, now - since);
		/* stacks first: they read the waker, which wakers forgets */
		SS_STACKS_ARRIVE(tid, t, now - since);
		SS_WAKERS_ARRIVE(tid, t, now - since);
	}
}

/*
 * ss_off_close_unseen - at the switch-out at @now of thread @tid (the
 * current task, @t its state), or at an interval edge while it runs
 * (ss_off_running), its span that is still open: the kernel
 * did not run our sched_switch program for the switch that brought it
 * back (it hides some tasks' switches; on the regular path it skips the
 * program while a BPF program or a bpf() map syscall is active on the
 * CPU, also one whose caller was preempted; on the raw path before
 * sched_exit_tp is attached).  Its time on a CPU since the span began is
 * the kernel's own (se.sum_exec_runtime now less at the span's start,
 * any class, however many unseen stints): the span is charged that much
 * short of @now, so its off-CPU length is whole and on-CPU + off-CPU stay
 * the wall time.  Where the sum is not known (SS_OFF_KSUM 0), it ends at
 * @now, the thread's last stint on the CPU in it (docs/accuracy.md, Off-CPU time),
 * rather than being lost when the new span starts.
 */
static __always_inline void ss_off_close_unseen(struct ss_cpu *cpu,
						struct ss_off_task *t,
						__u32 tid, __u64 now)
{
	__u64 since = t->since, end = now;

	if (!since) /* closed, or the thread's last switch (dead) */
		return;
#if SS_OFF_KSUM
	__u64 sum = ss_off_ksum(), ran;

	if (t->ksum && sum >= t->ksum && now > since) {
		ran = sum - t->ksum;
		end = ran < now - since ? now - ran : since;
	}
#endif
	ss_off_end(cpu, t, tid, end, 0);
}

/*
 * The current task, thread @tid, is on this CPU at @now: a span of it
 * still open began at a switch-out whose switch-in no program saw; end it
 * (ss_off_close_unseen).
 */
static __always_inline void ss_off_running(struct ss_cpu *cpu, __u64 now,
					   __u32 tid)
{
	struct ss_off_task *t = tid ? offcpu_task.lookup(&tid) : NULL;

	if (t)
		ss_off_close_unseen(cpu, t, tid, now);
}

/* Thread @tid gets the CPU at @now (@cpu: this CPU's state). */
static __always_inline void ss_off_arrive(struct ss_cpu *cpu, __u64 now,
					  __u32 tid)
{
	struct ss_off_task *t = tid ? offcpu_task.lookup(&tid) : NULL;

	if (!t)
		return;
	if (!t->since) { /* not seen leaving: its waker is not this span's */
		SS_WAKERS_FORGET(t);
		return;
	}
#if SS_TEST_MISS_ARRIVE
	/* tests: every SS_TEST_MISS_ARRIVE-th switch-in (on this CPU) of a
	 * thread with an open span goes unseen, as one the kernel did not
	 * report; a per-CPU count, no atomic fetch (Linux 5.12+) */
	__u32 z = 0;
	__u64 *n = test_miss_arrive.lookup(&z);

	if (n && ++*n % SS_TEST_MISS_ARRIVE == 0)
		return;
#endif
	ss_off_end(cpu, t, tid, now, 1);
}

/*
 * The current task's last span (@t) ended at its switch-in @over ns
 * (ss_off_over) after the kernel's clock had started its run time: take
 * that much back from the span's charge, if it is still in the interval
 * this CPU charges (after an edge it stays: at most one such part per
 * task and edge).  So on-CPU (the kernel's clock) and off-CPU never
 * overlap, and add up to the wall time.
 */
static __always_inline void ss_off_overlap(struct ss_cpu *cpu,
					   struct ss_off_task *t, __u64 over)
{
	__u64 d = t->arr_ns;
	struct ss_off_val *v;
	__u32 r = t->arr_reason;

	t->arr_ns = 0;
	if (!over || !d || t->arr_gen != cpu->accum_gen || r >= SS_OFF_MAX)
		return;
	if (over < d)
		d = over;
	/* the row holds the charge: never made here */
	v = (cpu->accum_gen & 1) ? offcpu_b.lookup(&t->key)
				 : offcpu.lookup(&t->key);
	if (v)
		__sync_fetch_and_add(&v->ns[r], -d);
}

/*
 * The current task (tgid, tid; in cgroup @cg; @task as SS_CUR_TASK()
 * gives it, or sched_switch's typed prev) leaves the CPU at @now for
 * @reason; @gap ns of its last window (ss_off_gap) go to its row as
 * runnable, in the interval @cpu charges; @over ns (ss_off_over) of the
 * span that window began with are taken back from it.
 */
static __always_inline void ss_off_leave(void *ctx, struct ss_cpu *cpu,
					 __u64 now, __u32 tgid, __u32 tid,
					 __u64 cg, __u64 task, __u32 reason,
					 __u64 gap, __u64 over)
{
	struct ss_off_task *t;

	if (!tid)
		return;
	if (reason == SS_OFF_DEAD) {
		t = offcpu_task.lookup(&tid);
		if (t) {
			ss_off_close_unseen(cpu, t, tid, now);
			t->since = 0;
			t->stk_ann = 0; /* its tid may come back as another's */
			t->dead =
				1; /* the host reads it once more, then deletes */
		}
		return;
	}
	if (!ss_task_selected(tgid, tid))
		return;
	t = offcpu_task.lookup(&tid);
	if (t) {
		ss_off_overlap(cpu, t, over);
		ss_off_close_unseen(cpu, t, tid, now);
	} else {
		struct ss_off_task zero = {};

		t = offcpu_task.lookup_or_try_init(&tid, &zero);
		if (!t) {
			stat_add(SS_STAT_DROPS, 1);
			return;
		}
	}

	__u64 leader;

	ss_ident_key(&t->key, tgid, tid, cg, &leader);
	t->cgroup_id = cg;
	/* the row's name: the leader's, else its own read in place (@task) */
	if (!SS_PER_THREAD && tid != tgid && leader)
		ss_ident_comm(t->comm, tgid, tid, leader);
	else
		ss_ident_cur_comm_of(t->comm, task);
	t->reason = reason;
	t->dead = 0;
	SS_STACKS_LEAVE(ctx, t, tgid);
	t->ksum = ss_off_ksum();
	t->since = now;
	if (gap)
		ss_off_charge(t, cpu->accum_gen & 1, SS_OFF_RUNQ, gap);
}

/*
 * At an interval edge on this CPU (ss_resync, SS_RS_EDGE) at @now: the
 * first CPU there stamps the interval that begins (accum_gen, set by the
 * host before its edges) with its time.
 */
static __always_inline void ss_off_edge(__u64 now)
{
	__u32 zero = 0, idx;
	__u64 *gen = accum_gen.lookup(&zero);

	if (!gen)
		return;
	idx = *gen & 1;

	struct ss_off_edge *e = offcpu_edge.lookup(&idx);

	if (e && e->gen != *gen) {
		e->ts = now;
		asm volatile("" ::: "memory");
		e->gen = *gen;
	}
}

/*
 * At sched_switch @sw (@ctx the program's, for --stacks; @cpu this CPU's
 * state): prev's span starts, next's ends.  prev's cgroup is the one the
 * switch read for the row cache (what bpf_get_current_cgroup_id() gives,
 * without the helper call).
 */
static __always_inline void ss_off_switch(void *ctx, struct ss_cpu *cpu,
					  const struct ss_switch_ctx *sw)
{
	__u64 now = sw->now;
	__u64 cg =
		SS_ROW_CACHE_BITS ? sw->cgroup_id : bpf_get_current_cgroup_id();
	__u64 task = SS_TP_BTF ? sw->task : SS_CUR_TASK();

#if SS_RAW_TP
	ss_off_leave(ctx, cpu, now, sw->tgid, sw->tid, cg, task,
		     ss_off_reason_raw(sw->preempt, sw->raw_state),
		     ss_off_gap(cpu, now), ss_off_over(cpu, now));
	ss_off_arrive(cpu, now, ss_arg_task_pid(sw->next));
	SS_OFF_GAP_START(cpu, now);
#else
	ss_off_leave(ctx, cpu, now, sw->tgid, sw->tid, cg, task,
		     ss_off_reason_tp(sw->prev_state), 0, 0);
	ss_off_arrive(cpu, now, sw->next_tid);
#endif
}

/* at a resync @sw: the current task arrived by a switch not reported */
static __always_inline void ss_off_unreported(struct ss_cpu *cpu,
					      const struct ss_switch_ctx *sw)
{
	ss_off_arrive(cpu, sw->now, sw->tid);
}

/*
 * at an interval edge @sw, before this CPU moves to the next interval:
 * stamp the edge, and end the span of the current task if it is still
 * open (it arrived unseen), in the interval that ends, before the host
 * charges open spans up to the edge as off-CPU
 */
static __always_inline void ss_off_edge_run(struct ss_cpu *cpu,
					    const struct ss_switch_ctx *sw)
{
	ss_off_edge(sw->now);
	ss_off_running(cpu, sw->now, sw->tid);
}
/* ss_tslice_next: the owner's switch-in unknown; @ns charged to it */
#define SS_OFF_GAP_FORGET(cpu) ((cpu)->off_in_ns = 0)
#define SS_OFF_GAP_ADD(cpu, ns) ((cpu)->off_in_k += (ns))
#else
#define SS_OFF_GAP_FORGET(cpu) ((void)0)
#define SS_OFF_GAP_ADD(cpu, ns) ((void)0)
static __always_inline void ss_off_switch(void *ctx, struct ss_cpu *cpu,
					  const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_off_unreported(struct ss_cpu *cpu,
					      const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_off_edge_run(struct ss_cpu *cpu,
					    const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_off_edge(__u64 now)
{
}
#endif

#endif
