// SPDX-License-Identifier: GPL-2.0
/*
 * plan_cflags.c - the probes' -D cflags, written from the plan (plan.h):
 * the only place they are written.  The probes read the names; each
 * section's comment names the probe header.  The order is part of the
 * compiled-BPF cache's key, so it never changes without reason: one
 * section per feature, in the features' table order (features.c), and
 * sched_exit_tp's last.  A name two sections want with one value is
 * written once, where first.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "histkind.h"

/* the -D names of the fields of enum ss_ident_field, ss_cg_field */
static const char *const ident_macro[SS_IDENT_F_COUNT] = {
	[SS_IDENT_F_LEADER] = "SS_IDENT_LEADER",
	[SS_IDENT_F_START] = "SS_IDENT_START",
	[SS_IDENT_F_COMM] = "SS_IDENT_COMM",
};

static const char *const cg_macro[SS_CG_F_COUNT] = {
	[SS_CG_F_TASK_CGROUPS] = "SS_CG_TASK_CGROUPS",
	[SS_CG_F_CSS_DFL] = "SS_CG_CSS_DFL",
	[SS_CG_F_CGROUP_KN] = "SS_CG_CGROUP_KN",
	[SS_CG_F_KN_ID] = "SS_CG_KN_ID",
};

/* The writer: the table, and whether anything did not fit. */
struct out {
	struct ss_cflags *c;
	bool full;
};

/* "-D@name=@value", unless that exact definition is there already */
static void def(struct out *w, const char *name, unsigned long long value)
{
	struct ss_cflags *c = w->c;
	char s[sizeof(c->buf[0])];
	int n = snprintf(s, sizeof(s), "-D%s=%llu", name, value);

	if (n < 0 || (size_t)n >= sizeof(s)) {
		w->full = true;
		return;
	}
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], s))
			return;
	if (c->n >= SS_MAX_CFLAGS) {
		w->full = true;
		return;
	}
	memcpy(c->buf[c->n], s, n + 1);
	c->v[c->n] = c->buf[c->n];
	c->n++;
}

/* the raw path: probes/switch.bpf.c, task.bpf.h */
static void path_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_path *pa = &p->path;
	const struct ss_kfacts *k = &p->k;

	if (!pa->mode.raw_sched)
		return;
	def(w, "SS_SWITCH_NARGS", pa->nargs);
	if (pa->nargs == 3) {
		def(w, "SS_TASK_STATE", k->state_off);
		def(w, "SS_TASK_STATE_SIZE", k->state_size);
	}
	if (pa->kclock) {
		def(w, "SS_KCLOCK", 1);
		def(w, "SS_TASK_POLICY", k->policy);
		def(w, "SS_TASK_SUM_EXEC", k->sum_exec);
		def(w, "SS_TASK_PREV_SUM_EXEC", k->prev_sum_exec);
	}
	if (pa->kexcl) {
		def(w, "SS_SE_CFS_RQ", k->se_cfs_rq);
		def(w, "SS_CFS_RQ_RQ", k->cfs_rq_rq);
		def(w, "SS_RQ_STEAL", k->rq_steal);
		def(w, "SS_RQ_IRQ", k->rq_irq);
	}
	def(w, "SS_TASK_CLOCK", pa->task_clock);
	def(w, "SS_TP_BTF", pa->mode.tp_btf);
	def(w, "SS_RAW_TP", 1);
	def(w, "SS_TASK_PID", k->task.pid);
	def(w, "SS_TASK_TGID", k->task.tgid);
	def(w, "SS_TASK_NVCSW", k->task.nvcsw);
	def(w, "SS_TASK_NIVCSW", k->task.nivcsw);
	def(w, "SS_TASK_COMM", k->comm);
	def(w, "SS_TASK_CPU", k->cpu);
	def(w, "SS_TASK_EXIT_STATE", k->exit_state);
	if (k->run_delay_ok)
		def(w, "SS_TASK_RUN_DELAY", k->run_delay);
	if (k->flags_ok)
		def(w, "SS_TASK_FLAGS", k->flags);
}

/* rows: probes/common.bpf.h, select.bpf.h, identity.bpf.h */
static void rows_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_rows *r = &p->rows;
	const struct ss_kfacts *k = &p->k;

	def(w, "SS_MAP_ENTRIES", r->map_entries);
	def(w, "SS_PER_THREAD", r->per_thread);
	def(w, "SS_FILTER_TGID", r->filter_tgid);
	def(w, "SS_FILTER_TID", r->filter_tid);
	def(w, "SS_FILTER_LIST", r->filter_list);
	if (r->verifier_fail)
		def(w, "SS_TEST_VERIFIER_FAIL", 1);
	/* CPU hotplug (feat_hotplug.c) */
	def(w, "SS_HP_CPUS", k->ncpus_possible);
	def(w, "SS_PER_CGROUP", r->per_cgroup);
	def(w, "SS_IDENT_BTF", r->ident_btf);
	for (int i = 0; r->ident_btf && i < SS_IDENT_F_COUNT; i++)
		def(w, ident_macro[i], k->ident[i]);
	def(w, "SS_CG_BTF", r->cg_btf);
	for (int i = 0; r->cg_btf && i < SS_CG_F_COUNT; i++)
		def(w, cg_macro[i], k->cg[i]);
	def(w, "SS_TASK_BTF_PTR", r->task_btf_ptr);
	if (r->row_cache)
		def(w, "SS_ROW_CACHE_BITS", 4);
}

/* counters and histograms: probes/counters.bpf.h, hist.bpf.h */
static void ctr_hist_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_hist *h = &p->hist;
	const struct ss_hist_kind_def *kd;
	size_t nk = ss_hist_kinds(&kd);

	def(w, "SS_NR_COUNTERS", p->ctr.nr);
	if (p->ctr.nr) {
		def(w, "SS_NR_CPUS", p->k.ncpus_possible);
		def(w, "SS_CTR_TIMES", p->ctr.times);
		def(w, "SS_ATOMIC_OR", p->ctr.atomic_or);
	}
	if (!h->kinds)
		return;
	for (size_t i = 0; i < nk; i++)
		def(w, kd[i].define, !!(h->kinds & kd[i].bit));
	def(w, "SS_HIST_PER", h->per);
	def(w, "SS_HIST_CGROUP", h->by_cgroup);
	def(w, "SS_HIST_UNIT_NS", h->unit_ns);
	def(w, "SS_HIST_ENTRIES", h->entries);
	if (h->kinds & (SS_HIST_OFFCPU | SS_HIST_RUNQ))
		def(w, "SS_NEED_EXIT", 1);
	if (h->kinds & SS_HIST_RUNQ)
		def(w, "SS_NEED_WAKEUP", 1);
}

/* checkpoints, --cgroup, -M: probes/common.bpf.h, select.bpf.h, mem.bpf.h */
static void mem_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_mem *m = &p->mem;
	bool reclaim = false;

	if (p->rows.accum_gens)
		def(w, "SS_ACCUM_GENS", 1);
	if (p->rows.cgroup_filter)
		def(w, "SS_FILTER_CGROUP", 1);
	if (!m->on)
		return;
	if (m->faults) {
		def(w, "SS_MEM_FAULTS", 1);
		def(w, "SS_MEM_NR_CPUS", p->k.ncpus_possible);
	}
	for (int i = 0; i < SS_MEM_NKINDS; i++) {
		if (!m->kind[i])
			continue;
		def(w, ss_mem_kinds[i].macro, 1);
		reclaim |= ss_mem_kinds[i].col == 2;
	}
	if (reclaim)
		def(w, "SS_NEED_EXIT", 1);
}

/* --blame, --offcpu: probes/blame.bpf.h, offcpu.bpf.h */
static void blame_off_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_blame *b = &p->blame;
	const struct ss_plan_off *off = &p->off;

	if (b->on) {
		def(w, "SS_BLAME", 1);
		def(w, "SS_BLAME_BY", b->by);
		def(w, "SS_BLAME_RING", b->ring);
		def(w, "SS_BLAME_ENTRIES", b->entries);
		def(w, "SS_NR_CPUS", p->k.ncpus_possible);
		if (b->kq) {
			def(w, "SS_BLAME_KQ", 1);
		} else {
			def(w, "SS_NEED_MIGRATE", 1);
			def(w, "SS_NEED_WAKEUP", 1);
		}
		if (b->task_storage)
			def(w, "SS_BLAME_TASK_STORAGE", 1);
		else
			def(w, "SS_NEED_EXIT", 1);
	}
	if (!off->on)
		return;
	def(w, "SS_OFFCPU", 1);
	if (off->iowait) {
		def(w, "SS_OFF_IOWAIT_BYTE", p->k.iowait_bit / 8);
		def(w, "SS_OFF_IOWAIT_BIT", p->k.iowait_bit % 8);
		def(w, "SS_OFF_IOWAIT_BTF", 1);
	}
	if (off->miss_arrive)
		def(w, "SS_TEST_MISS_ARRIVE", off->miss_arrive);
	if (off->ksum)
		def(w, "SS_OFF_KSUM", p->k.sum_exec);
}

/* --wakers, --stacks, --trace: probes/wakers.bpf.h, stacks.bpf.h, trace */
static void extra_cflags(struct out *w, const struct ss_plan *p)
{
	const struct ss_plan_extra *x = &p->x;

	if (x->wakers) {
		def(w, "SS_WAKERS", 1);
		def(w, "SS_WAKERS_ENTRIES", x->wakers_entries);
	}
	if (x->stacks) {
		def(w, "SS_STACKS", 1);
		def(w, "SS_STACKS_WAKERS", x->stacks_wakers);
		def(w, "SS_STACKS_ENTRIES", x->stacks_entries);
		def(w, "SS_STACK_TRACES", x->stack_traces);
		def(w, "SS_STACKS_KERNEL", x->stacks_kernel);
		def(w, "SS_STACKS_USER", x->stacks_user);
		def(w, "SS_STACKS_PER_THREAD", x->stacks_per_thread);
	}
	if (x->trace)
		def(w, "SS_TRACE", 1);
	/* sched_exit_tp's program (switch.bpf.c) */
	if (p->path.mode.raw_sched)
		def(w, "SS_EXIT_TP", p->path.exit_tp_prog);
}

/* ss_plan_cflags - see plan.h */
int ss_plan_cflags(const struct ss_plan *p, struct ss_cflags *c)
{
	struct out w = { .c = c };

	c->n = 0;
	path_cflags(&w, p);
	rows_cflags(&w, p);
	ctr_hist_cflags(&w, p);
	mem_cflags(&w, p);
	blame_off_cflags(&w, p);
	extra_cflags(&w, p);
	return w.full ? -1 : 0;
}
