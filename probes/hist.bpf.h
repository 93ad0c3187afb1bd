/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.bpf.h - log2 histograms of on-CPU slices, off-CPU (blocked) time and
 * run-queue latency.  Everything here compiles to nothing unless the host
 * (src/features/feat_hist.c) turns a kind on:
 *   SS_HIST_ONCPU, SS_HIST_OFFCPU, SS_HIST_RUNQ   0/1 each
 *   SS_HIST_PER      0: one histogram, 1: per process (-P), 2: per thread (-L),
 *                    3: per cgroup (-G, or --listen's cgroup label)
 *   SS_HIST_CGROUP   1: the cgroup is part of the hist map key
 *   SS_HIST_UNIT_NS  1000 (usecs) or 1000000 (msecs, -m)
 *   SS_HIST_ENTRIES  size of the hist map (-P/-L)
 *
 * One histogram per kind: cumulative counts in the per-CPU hist_cpu entry
 * (the host sums CPUs and diffs intervals).  Per process or thread (-P/-L):
 * the hist map, keyed by tgid/tid and kind, drained each interval.
 * The tgid, cgroup and comm of a task are
 * known only while it is the current task, so with -P/-L, -p or --cgroup
 * off-CPU and run-queue times, measured when a task is switched in, wait
 * in hist_cpu and are recorded at the task's next switch-out or checkpoint
 * (at most one checkpoint period later), when bpf_get_current_*() names
 * it and the filters can be tested on it.  A wait starts at a wakeup (run
 * by the waker: the wakee's tgid is read from its task_struct on the raw
 * path, its cgroup is not known there) or at a switch-out, so a wait is
 * timed for every thread that may be selected, and counted if it is.
 * Waits are timed only from events seen after start; idle (tid 0) is
 * never recorded; per-thread state is deleted at sched_process_exit.
 */
#ifndef SWITCHSTAT_HIST_BPF_H
#define SWITCHSTAT_HIST_BPF_H

#include "common.bpf.h"
#include "hist_shared.h"
#include "offcpu_shared.h"
#include "identity.bpf.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"
#include "task.bpf.h"

#ifndef SS_HIST_ONCPU
#define SS_HIST_ONCPU 0
#endif
#ifndef SS_HIST_OFFCPU
#define SS_HIST_OFFCPU 0
#endif
#ifndef SS_HIST_RUNQ
#define SS_HIST_RUNQ 0
#endif
#ifndef SS_HIST_PER
#define SS_HIST_PER 0
#endif
#ifndef SS_HIST_CGROUP
#define SS_HIST_CGROUP 0
#endif
#ifndef SS_HIST_UNIT_NS
#define SS_HIST_UNIT_NS 1000
#endif
#ifndef SS_HIST_ENTRIES
#define SS_HIST_ENTRIES 16
#endif
/* --offcpu spans by state (SS_HK_OFF_*), recorded by offcpu.bpf.h */
#ifndef SS_HIST_OFF_S
#define SS_HIST_OFF_S 0
#endif
#ifndef SS_HIST_OFF_D
#define SS_HIST_OFF_D 0
#endif
#ifndef SS_HIST_OFF_IO
#define SS_HIST_OFF_IO 0
#endif
#ifndef SS_HIST_OFF_T
#define SS_HIST_OFF_T 0
#endif
#ifndef SS_HIST_OFF_R
#define SS_HIST_OFF_R 0
#endif
#define SS_HIST_OFFSTATE                                                      \
	(SS_HIST_OFF_S || SS_HIST_OFF_D || SS_HIST_OFF_IO || SS_HIST_OFF_T || \
	 SS_HIST_OFF_R)
/* 1 if histograms of kind id k (a constant) are compiled in */
#define SS_HIST_KIND_ON(k)                      \
	((k) == SS_HK_OFFCPU   ? SS_HIST_OFFCPU \
	 : (k) == SS_HK_RUNQ   ? SS_HIST_RUNQ   \
	 : (k) == SS_HK_OFF_S  ? SS_HIST_OFF_S  \
	 : (k) == SS_HK_OFF_D  ? SS_HIST_OFF_D  \
	 : (k) == SS_HK_OFF_IO ? SS_HIST_OFF_IO \
	 : (k) == SS_HK_OFF_T  ? SS_HIST_OFF_T  \
	 : (k) == SS_HK_OFF_R  ? SS_HIST_OFF_R  \
			       : 0)

#define SS_HIST_WAITS (SS_HIST_OFFCPU || SS_HIST_RUNQ)
/*
 * 1: whether a woken thread is selected is known only when it is the
 * current task (--cgroup; -p on the regular path, whose wakeup has no
 * tgid), so its waits are kept until then (ss_hist_flush) and the state
 * made at a wakeup is dropped when the wait ends.
 */
#define SS_HIST_DEFER (SS_FILTER_CGROUP || (SS_FILTER_TGID && !SS_RAW_TP))
#define SS_HIST_PEND (SS_HIST_PER || SS_HIST_DEFER)
/*
 * 1: a run-queue wait whose wakeup the kernel did not report is timed from
 * the thread's schedstat run_delay (raw path, with its BTF offset).  The
 * kernel runs no tracepoint programs while a task it hides from tracing is
 * current, sched_wakeup's neither: a wakeup in an interrupt on a CPU
 * running such a task (a timer's, measured) is not seen.  A thread seen
 * blocking and then switched in with no wakeup seen waited that way; its
 * run_delay grows by exactly that wait when it is switched in, so at its
 * next switch-out or checkpoint the growth since it blocked is the wait,
 * on the run queue's clock.
 */
#if SS_HIST_RUNQ && SS_RAW_TP && defined(SS_TASK_RUN_DELAY)
#define SS_HIST_LATE 1
#else
#define SS_HIST_LATE 0
#endif

#if SS_HIST_ONCPU || SS_HIST_WAITS || SS_HIST_OFFSTATE
BPF_PERCPU_ARRAY(hist_cpu, struct ss_hist_cpu, 1);
#if SS_HIST_PER
BPF_HASH(hist, struct ss_hist_key, struct ss_hist_val, SS_HIST_ENTRIES);
#endif

/*
 * Count a duration of @ns in the current task's histogram of @kind: in
 * this CPU's slots (one histogram per kind) or in the hist map (-P/-L).
 */
static __always_inline void ss_hist_add(struct ss_hist_cpu *hc, __u32 kind,
					__u32 tgid, __u32 tid, __u64 ns)
{
	__u32 slot = ss_hist_slot(ns, SS_HIST_UNIT_NS);

	if (kind >= SS_HK_MAX)
		return;
#if SS_HIST_PER == 0
	hc->slots[kind][slot]++; /* per-CPU, and switches do not nest */
#else
	struct ss_hist_key key = { .kind = kind };

	if (SS_HIST_PER != 3) {
		key.tgid = tgid;
		if (SS_HIST_PER == 2)
			key.tid = tid;
		key.start_ns = ss_ident_start(tgid, tid, SS_HIST_PER == 2);
	}
	if (SS_HIST_CGROUP || SS_HIST_PER == 3)
		key.cgroup_id = ss_ident_cgroup_id(); /* the task is current */

	struct ss_hist_val *v = hist.lookup(&key);

	if (!v) {
		/* named as interval rows are (identity.bpf.h) */
		struct ss_hist_val init = {};

		if (SS_HIST_PER != 3)
			ss_ident_name(init.comm, tgid, tid, SS_HIST_PER == 2);
		v = hist.lookup_or_try_init(&key, &init);
		if (!v) {
			stat_add(SS_STAT_DROPS, 1);
			return;
		}
	} else if (SS_HIST_PER != 3 && (SS_HIST_PER == 2 || tid == tgid)) {
		/* the name as at the end of the interval */
		bpf_get_current_comm(&v->comm, sizeof(v->comm));
	}
	__sync_fetch_and_add(&v->slots[slot], 1);
#endif
}

/*
 * -P/-L, -p, --cgroup: record the waits measured when the current task was
 * switched in, if it is @selected.
 */
static __always_inline void ss_hist_flush(struct ss_hist_cpu *hc, __u32 tgid,
					  __u32 tid, int selected)
{
	if (!SS_HIST_PEND || !hc->pend)
		return;
	if (selected && hc->tid == tid) {
#pragma unroll
		for (__u32 k = SS_HK_OFFCPU; k < SS_HK_MAX; k++)
			if (SS_HIST_KIND_ON(k) && (hc->pend & (1 << k)))
				ss_hist_add(hc, k, tgid, tid, hc->pend_ns[k]);
	}
	hc->pend = 0;
}

/*
 * A wait of @kind by the task switched in ends now.  Without -P/-L, -p and
 * --cgroup it is counted at once; with them it waits in hc for the task's
 * tgid, comm and cgroup.
 */
static __always_inline void ss_hist_wait_end(struct ss_hist_cpu *hc, __u32 kind,
					     __u64 ns)
{
	if (kind >= SS_HK_MAX)
		return;
	if (!SS_HIST_PEND) {
		ss_hist_add(hc, kind, 0, 0, ns);
		return;
	}
	hc->pend_ns[kind] = ns;
	hc->pend |= 1 << kind;
}
#endif

#if SS_HIST_WAITS
/* Per thread: when its current wait began (0: not waiting / unknown). */
struct ss_hist_task {
	__u64 off_ns; /* blocked at this time (voluntary switch-out) */
	__u64 wait_ns; /* runnable since: wakeup or preemption */
	__u64 rd0; /* SS_HIST_LATE: its run_delay when it blocked */
};

BPF_HASH(hist_task, __u32, struct ss_hist_task, SS_MAP_ENTRIES);

/* The thread's wait state, created empty on first use; NULL if map full. */
static __always_inline struct ss_hist_task *ss_hist_task_get(__u32 tid)
{
	struct ss_hist_task zero = {};
	struct ss_hist_task *t = hist_task.lookup_or_try_init(&tid, &zero);

	if (!t)
		stat_add(SS_STAT_DROPS, 1);
	return t;
}

/* prev (tid) leaves the CPU: its off-CPU or run-queue wait starts now. */
static __always_inline void ss_hist_leave(__u32 tid, __u64 prev_state,
					  __u64 now)
{
	int blocked = (prev_state & SS_PREV_STATE_SLEEP_MASK) != 0;

	/*
	 * Its last switch.  sched_process_exit deleted the state already, but
	 * a wakeup during the rest of do_exit may have made it again: this
	 * switch is the task's last event, so delete here too.
	 */
	if (prev_state & SS_PREV_STATE_EXIT_MASK) {
		hist_task.delete(&tid);
		return;
	}
	if (blocked && !SS_HIST_OFFCPU && !SS_HIST_LATE) {
		struct ss_hist_task *t = hist_task.lookup(&tid);

		if (t) /* forget a stale wakeup seen while it ran */
			t->wait_ns = 0;
		return;
	}

	struct ss_hist_task *t = ss_hist_task_get(tid);

	if (!t)
		return;
	/* without SS_HIST_OFFCPU, off_ns only says that it blocked */
	t->off_ns = blocked ? now : 0;
	t->wait_ns = blocked ? 0 : now; /* preempted: still runnable */
#if SS_HIST_LATE
	if (blocked)
		t->rd0 = ss_current_run_delay(); /* prev is current */
#endif
}

/* next (tid) gets the CPU: its waits end now; keep them in hc. */
static __always_inline void ss_hist_arrive(struct ss_hist_cpu *hc, __u32 tid,
					   __u64 now)
{
	struct ss_hist_task *t = hist_task.lookup(&tid);

	if (!t)
		return;
	/*
	 * entries are made for tasks that pass the filters known where they
	 * are made (leave: all; wakeup: -t, and -p on the raw path); the
	 * others are tested at the flush (SS_HIST_DEFER)
	 */
	if (SS_HIST_OFFCPU && t->off_ns && now >= t->off_ns)
		ss_hist_wait_end(hc, SS_HK_OFFCPU, now - t->off_ns);
	if (SS_HIST_RUNQ && t->wait_ns && now >= t->wait_ns)
		ss_hist_wait_end(hc, SS_HK_RUNQ, now - t->wait_ns);
#if SS_HIST_LATE
	/* blocked, and no wakeup seen: timed by ss_hist_late */
	if (t->off_ns && !t->wait_ns) {
		hc->late = 1;
		hc->late_rd0 = t->rd0;
	}
#endif
	if (SS_HIST_DEFER) { /* made again at its next wait */
		hist_task.delete(&tid);
		return;
	}
	t->off_ns = 0;
	t->wait_ns = 0;
}
#endif

#if SS_HIST_ONCPU || SS_HIST_WAITS || SS_HIST_OFFSTATE
/*
 * The current task (tgid, tid) leaves the CPU or reaches a checkpoint: if
 * it was switched in here after a wakeup the kernel did not report
 * (SS_HIST_LATE), that wait is what its run_delay grew by since it
 * blocked (the kernel adds it at the switch-in), counted if @selected.
 */
static __always_inline void ss_hist_late(struct ss_hist_cpu *hc, __u32 tgid,
					 __u32 tid, int selected)
{
#if SS_HIST_LATE
	__u64 rd;

	if (!hc->late)
		return;
	hc->late = 0;
	if (!selected || hc->tid != tid)
		return;
	rd = ss_current_run_delay();
	if (rd < hc->late_rd0)
		return;
	ss_hist_add(hc, SS_HK_RUNQ, tgid, tid, rd - hc->late_rd0);
	stat_add(SS_STAT_RUNQ_LATE, 1);
#endif
}

/*
 * At sched_switch @sw: prev (tgid, tid: the current task) leaves,
 * next_tid arrives.
 */
static __always_inline void ss_hist_switch(const struct ss_switch_ctx *sw)
{
	__u32 zero = 0, tgid = sw->tgid, tid = sw->tid, next_tid = sw->next_tid;
	__u64 now = sw->now;
	struct ss_hist_cpu *hc = hist_cpu.lookup(&zero);
	/* prev is not idle and passes the -p/-t/--cgroup filters */
	int selected = tid != 0 && ss_task_selected(tgid, tid);

	if (!hc)
		return;
	ss_hist_flush(hc, tgid, tid, selected);
	ss_hist_late(hc, tgid, tid, selected);
	if (selected) {
		if (SS_HIST_ONCPU && hc->tid == tid && hc->oncpu_start_ns &&
		    now >= hc->oncpu_start_ns)
			ss_hist_add(hc, SS_HK_ONCPU, tgid, tid,
				    now - hc->oncpu_start_ns);
#if SS_HIST_WAITS
		ss_hist_leave(tid, sw->prev_state, now);
#endif
	}
	hc->tid = next_tid;
	hc->oncpu_start_ns = now;
#if SS_HIST_WAITS
	if (next_tid)
		ss_hist_arrive(hc, next_tid, now);
#endif
}
#else
static __always_inline void ss_hist_switch(const struct ss_switch_ctx *sw)
{
}
#endif

#if SS_HIST_ONCPU || SS_HIST_WAITS || SS_HIST_OFFSTATE
/*
 * sched_exit_tp found that the current task (tid; 0: idle) arrived by a
 * switch the kernel did not report: as at a reported switch-in, its waits
 * end now (counted as ss_hist_switch counts them) and its slice starts now.
 * Without this its run-queue wait was dropped at its next switch-out, while
 * --blame and schedstat's run_delay count it.
 */
static __always_inline void ss_hist_unreported(const struct ss_switch_ctx *sw)
{
	__u32 zero = 0, tid = sw->tid;
	__u64 now = sw->now;
	struct ss_hist_cpu *hc = hist_cpu.lookup(&zero);

	if (!hc)
		return;
	hc->tid = tid;
	hc->oncpu_start_ns = now;
	hc->late = 0;
#if SS_HIST_WAITS
	if (tid)
		ss_hist_arrive(hc, tid, now);
#endif
}
#else
static __always_inline void ss_hist_unreported(const struct ss_switch_ctx *sw)
{
}
#endif

#if SS_HIST_WAITS || SS_HIST_OFFSTATE
/*
 * At a resync @sw (checkpoint, edge, unreported switch): record the
 * running task's waits now, not at its switch.
 */
static __always_inline void ss_hist_checkpoint(const struct ss_switch_ctx *sw)
{
	__u32 zero = 0, tgid = sw->tgid, tid = sw->tid;
	struct ss_hist_cpu *hc = hist_cpu.lookup(&zero);
	int selected = tid != 0 && ss_task_selected(tgid, tid);

	if (!hc)
		return;
	ss_hist_flush(hc, tgid, tid, selected);
	ss_hist_late(hc, tgid, tid, selected);
}
#else
static __always_inline void ss_hist_checkpoint(const struct ss_switch_ctx *sw)
{
}
#endif

#if SS_HIST_WAITS
/* a thread exited: drop its wait state */
static __always_inline void ss_hist_exit(__u32 tid)
{
	hist_task.delete(&tid);
}

#define SS_HIST_EXIT(tid) ss_hist_exit(tid)
#else
#define SS_HIST_EXIT(tid) \
	do {              \
	} while (0)
#endif

#if SS_HIST_OFFSTATE
/*
 * An --offcpu span of @ns of @reason (enum ss_off_reason) ended as thread
 * @tid switched in on this CPU: into its state's histogram, if on.  The
 * switch's hist hook ran already; it knows next's tid only when other
 * kinds need it (switch.bpf.c SS_RAW_NEXT_TID), so it is set here.
 */
static __always_inline void ss_hist_offstate(__u32 tid, __u32 reason, __u64 ns)
{
	__u32 zero = 0, kind;
	struct ss_hist_cpu *hc = hist_cpu.lookup(&zero);

	if (!hc)
		return;
	hc->tid = tid;
	switch (reason) {
	case SS_OFF_SLEEP:
		kind = SS_HK_OFF_S;
		break;
	case SS_OFF_BLOCK:
	case SS_OFF_KILLABLE:
	case SS_OFF_IDLE:
		kind = SS_HK_OFF_D;
		break;
	case SS_OFF_IOWAIT:
		kind = SS_HK_OFF_IO;
		break;
	case SS_OFF_STOPPED:
	case SS_OFF_TRACED:
		kind = SS_HK_OFF_T;
		break;
	case SS_OFF_RUNQ:
		kind = SS_HK_OFF_R;
		break;
	default:
		return;
	}
	if ((kind == SS_HK_OFF_S && SS_HIST_OFF_S) ||
	    (kind == SS_HK_OFF_D && SS_HIST_OFF_D) ||
	    (kind == SS_HK_OFF_IO && SS_HIST_OFF_IO) ||
	    (kind == SS_HK_OFF_T && SS_HIST_OFF_T) ||
	    (kind == SS_HK_OFF_R && SS_HIST_OFF_R))
		ss_hist_wait_end(hc, kind, ns);
}

#define SS_HIST_OFFSTATE_END(tid, reason, ns) ss_hist_offstate(tid, reason, ns)
#else
#define SS_HIST_OFFSTATE_END(tid, reason, ns) \
	do {                                  \
	} while (0)
#endif

#if SS_HIST_RUNQ
/*
 * Run-queue wait from a wakeup of thread tid of process tgid (0: not
 * known, the regular tracepoint has no tgid).  We run as the waker, so
 * the wakee's cgroup is not known: with -p on the regular path and with
 * --cgroup every wakee is timed and its wait counted at the flush if the
 * task is selected (SS_HIST_DEFER), whoever woke it and whether or not
 * it was seen before.
 */
static __always_inline void ss_hist_wakeup(__u32 tid, __u32 tgid)
{
	struct ss_hist_task *t;

	if (!tid || !ss_ids_selected(tgid, tid))
		return;
	t = ss_hist_task_get(tid);
	if (t)
		t->wait_ns = bpf_ktime_get_ns();
}

#define SS_HIST_WAKEUP(pid, tgid) ss_hist_wakeup(pid, tgid)
#else
#define SS_HIST_WAKEUP(pid, tgid) \
	do {                      \
	} while (0)
#endif

#endif
