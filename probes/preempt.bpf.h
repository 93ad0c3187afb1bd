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
 * interval's end is counted in a later interval.
 */
#ifndef SWITCHSTAT_PREEMPT_BPF_H
#define SWITCHSTAT_PREEMPT_BPF_H

#include "blame_shared.h"
#include "common.bpf.h"
#include "preempt_shared.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"

#if SS_BLAME
struct ss_preempt_pend {
	struct ss_blame_key key; /* the victim's half */
	char victim_comm[SS_COMM_LEN];
	__u32 preemptor_tid; /* 0: nothing pending */
	__u32 pad;
};

BPF_PERCPU_ARRAY(preempt_pend, struct ss_preempt_pend, 1);
BPF_HASH(preempt, struct ss_blame_key, struct ss_preempt_val, SS_BLAME_ENTRIES);

/* Count one preemption of p's victim by the current task, or @kind. */
static __always_inline void ss_preempt_add(struct ss_preempt_pend *p,
					   __u32 kind, __u32 tgid, __u32 tid)
{
	struct ss_preempt_val zero = {}, *v;

	p->key.culprit_kind = kind;
	if (kind == SS_BLAME_TASK) {
		if (SS_BLAME_BY == 2) {
			p->key.culprit_cgroup = bpf_get_current_cgroup_id();
		} else {
			p->key.culprit_tgid = tgid;
			p->key.culprit_tid = SS_BLAME_BY == 1 ? tid : 0;
		}
	}
	v = preempt.lookup_or_try_init(&p->key, &zero);
	if (!v)
		return;
	__sync_fetch_and_add(&v->count, 1);
	__builtin_memcpy(v->victim_comm, p->victim_comm, SS_COMM_LEN);
	if (kind == SS_BLAME_TASK)
		bpf_get_current_comm(v->culprit_comm, SS_COMM_LEN);
}

/*
 * ss_preempt_switch - at a switch-out of the current task (tgid, tid) to
 * @next_tid: count the preemption pending on this CPU (this task is its
 * preemptor, or else (unknown)); then, when this switch is involuntary
 * (@invol) and the task passes the filters (@selected), make it pending
 * with @next_tid as its preemptor ((idle) at once for the idle task).
 */
static __always_inline void ss_preempt_switch(__u32 tgid, __u32 tid, int invol,
					      int selected, __u32 next_tid)
{
	__u32 zero = 0;
	struct ss_preempt_pend *p = preempt_pend.lookup(&zero);

	if (!p)
		return;
	if (p->preemptor_tid) {
		ss_preempt_add(p,
			       p->preemptor_tid == tid ? SS_BLAME_TASK
						       : SS_BLAME_UNKNOWN,
			       tgid, tid);
		p->preemptor_tid = 0;
	}
	if (!invol || !selected || !tid)
		return;
	__builtin_memset(&p->key, 0, sizeof(p->key));
	if (SS_BLAME_BY == 2) {
		p->key.victim_cgroup = bpf_get_current_cgroup_id();
	} else {
		p->key.victim_tgid = tgid;
		p->key.victim_tid = SS_BLAME_BY == 1 ? tid : 0;
	}
	bpf_get_current_comm(p->victim_comm, SS_COMM_LEN);
	if (next_tid)
		p->preemptor_tid = next_tid;
	else
		ss_preempt_add(p, SS_BLAME_IDLE, 0, 0);
}

/* at sched_switch @sw: its preemption, if involuntary, by the next task */
static __always_inline void ss_preempt_hook(const struct ss_switch_ctx *sw)
{
	ss_preempt_switch(sw->tgid, sw->tid, sw->kind == SS_SW_INVOL,
			  ss_task_selected(sw->tgid, sw->tid), sw->next_tid);
}
#else
static __always_inline void ss_preempt_hook(const struct ss_switch_ctx *sw)
{
}
#endif

#endif
