/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preempt.bpf.h - preemptions by preemptor (--blame): for every
 * involuntary switch-out (the INVOL column's), the task switched in next
 * is the preemptor.  Compiled with SS_BLAME; SS_BLAME_BY names victims and
 * preemptors as blame does (process, thread, cgroup).
 *
 * The victim is the current task at its switch-out.  The preemptor's
 * tgid, cgroup and name are known only once it is current, so the
 * preemption waits on its CPU (preempt_pend) until that task's own
 * switch-out there, and is counted then; if another task leaves that CPU
 * first (a switch not seen), it is counted with the (unknown) preemptor,
 * and a switch to the idle task with (idle).  So each victim's sum is its
 * INVOL count; a preemption whose preemptor is still on the CPU at an
 * interval's end is counted in a later interval.  Counts gather in a
 * per-CPU cache of pairs, in the map by the CPU's interval edge.
 */
#ifndef SWITCHSTAT_PREEMPT_BPF_H
#define SWITCHSTAT_PREEMPT_BPF_H

#include "blame.bpf.h"
#include "blame_shared.h"
#include "common.bpf.h"
#include "identity.bpf.h"
#include "preempt_shared.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"
#include "task.bpf.h"

#if SS_BLAME
#ifndef SS_PREEMPT_CACHE
#define SS_PREEMPT_CACHE 2 /* pairs cached per CPU (a power of two) */
#endif

/* A pair's preemptions not yet in the preempt map (count 0: empty). */
struct ss_preempt_cached {
	struct ss_blame_key key;
	__u64 count;
	char victim_comm[SS_COMM_LEN];
	char culprit_comm[SS_COMM_LEN];
};

struct ss_preempt_pend {
	struct ss_blame_key key; /* the victim's half */
	char victim_comm[SS_COMM_LEN];
	__u32 preemptor_tid; /* 0: nothing pending */
	__u32 cache_next;
	/*
	 * The pairs of this CPU's last preemptions, added up here with plain
	 * adds and moved to the preempt map when evicted (round robin) and
	 * at this CPU's interval edge (ss_preempt_edge), before the host
	 * reads the map: a hash update and two comm copies at every
	 * preemption cost the switch program about 100 ns a run where half
	 * the switches are preemptions (perf bench sched pipe on one CPU).
	 * Only the switch program and the edge touch it, and no switch
	 * happens on this CPU while the edge runs.
	 */
	struct ss_preempt_cached cache[SS_PREEMPT_CACHE];
};

BPF_PERCPU_ARRAY(preempt_pend, struct ss_preempt_pend, 1);
BPF_HASH(preempt, struct ss_blame_key, struct ss_preempt_val, SS_BLAME_ENTRIES);

/* Add the cached pair @c to the preempt map (made with its names). */
static __always_inline void ss_preempt_uncache(struct ss_preempt_cached *c)
{
	struct ss_preempt_val zero = {}, *v;

	if (!c->count)
		return;
	v = preempt.lookup(&c->key);
	if (!v) {
		__builtin_memcpy(zero.victim_comm, c->victim_comm, SS_COMM_LEN);
		__builtin_memcpy(zero.culprit_comm, c->culprit_comm,
				 SS_COMM_LEN);
		v = preempt.lookup_or_try_init(&c->key, &zero);
	}
	if (v)
		__sync_fetch_and_add(&v->count, c->count);
	else
		stat_add(SS_STAT_DROPS, 1);
	c->count = 0;
}

/* Every pair cached in @p (this CPU's) to the preempt map. */
static __always_inline void ss_preempt_flush(struct ss_preempt_pend *p)
{
	for (__u32 i = 0; i < SS_PREEMPT_CACHE; i++)
		ss_preempt_uncache(&p->cache[i]);
}

/* ... at this CPU's interval edge */
static __always_inline void ss_preempt_edge(void)
{
	__u32 zero = 0;
	struct ss_preempt_pend *p = preempt_pend.lookup(&zero);

	if (p)
		ss_preempt_flush(p);
}

/*
 * Count one preemption of p's victim by the current task (@task, as
 * identity.bpf.h's comm reader takes it: its name on a cache miss), or
 * @kind: in this CPU's cache, a miss moving the oldest slot's pair to the
 * map.
 */
static __always_inline void ss_preempt_add(struct ss_preempt_pend *p,
					   __u32 kind, __u32 tgid, __u32 tid,
					   __u64 task)
{
	struct ss_preempt_cached *c;

	p->key.culprit_kind = kind;
	if (kind == SS_BLAME_TASK) {
		if (SS_BLAME_BY == 2) {
			p->key.culprit_cgroup = ss_ident_cgroup_id_of(task);
		} else {
			p->key.culprit_tgid = tgid;
			p->key.culprit_tid = SS_BLAME_BY == 1 ? tid : 0;
		}
	}
	for (__u32 i = 0; i < SS_PREEMPT_CACHE; i++) {
		c = &p->cache[i];
		if (c->count && ss_blame_key_eq(&c->key, &p->key)) {
			c->count++;
			return;
		}
	}
	c = &p->cache[p->cache_next++ & (SS_PREEMPT_CACHE - 1)];
	ss_preempt_uncache(c);
	c->key = p->key;
	c->count = 1;
	__builtin_memcpy(c->victim_comm, p->victim_comm, SS_COMM_LEN);
	if (kind == SS_BLAME_TASK)
		ss_ident_cur_comm_of(c->culprit_comm, task);
	else
		__builtin_memset(c->culprit_comm, 0, SS_COMM_LEN);
}

/*
 * ss_preempt_switch - at a switch-out of the current task (tgid, tid;
 * @task, as ss_preempt_add takes it) to @next_tid: count the preemption
 * pending on this CPU (this task is its preemptor, or else (unknown));
 * then, when this switch is involuntary (@invol) and the task passes the
 * filters (@selected), make it pending with @next_tid as its preemptor
 * ((idle) at once for the idle task).
 */
static __always_inline void ss_preempt_switch(__u32 tgid, __u32 tid, __u64 task,
					      int invol, int selected,
					      __u32 next_tid)
{
	__u32 zero = 0;
	struct ss_preempt_pend *p = preempt_pend.lookup(&zero);

	if (!p)
		return;
	if (p->preemptor_tid) {
		ss_preempt_add(p,
			       p->preemptor_tid == tid ? SS_BLAME_TASK
						       : SS_BLAME_UNKNOWN,
			       tgid, tid, task);
		p->preemptor_tid = 0;
	}
	if (invol && selected && tid) {
		__builtin_memset(&p->key, 0, sizeof(p->key));
		if (SS_BLAME_BY == 2) {
			p->key.victim_cgroup = ss_ident_cgroup_id_of(task);
		} else {
			p->key.victim_tgid = tgid;
			p->key.victim_tid = SS_BLAME_BY == 1 ? tid : 0;
		}
		ss_ident_cur_comm_of(p->victim_comm, task);
		if (next_tid)
			p->preemptor_tid = next_tid;
		else
			ss_preempt_add(p, SS_BLAME_IDLE, 0, 0, task);
	}
	/*
	 * A switch to idle from a kernel thread, as a CPU's last before it
	 * goes offline (task.bpf.h ss_current_kthread), where the edge does
	 * not run: the cached pairs go to the map now
	 */
	if (!next_tid && ss_current_kthread())
		ss_preempt_flush(p);
}

/* at sched_switch @sw: its preemption, if involuntary, by the next task */
static __always_inline void ss_preempt_hook(const struct ss_switch_ctx *sw)
{
	ss_preempt_switch(sw->tgid, sw->tid, sw->task, sw->kind == SS_SW_INVOL,
			  ss_task_selected(sw->tgid, sw->tid), sw->next_tid);
}
#else
static __always_inline void ss_preempt_hook(const struct ss_switch_ctx *sw)
{
}

static __always_inline void ss_preempt_edge(void)
{
}
#endif

#endif
