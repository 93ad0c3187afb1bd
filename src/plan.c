// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c - the decide phase (plan.h): the options, the kernel's facts and
 * the test seams in, the plan out.  Pure: no I/O, no globals.  Each rule
 * says why in the feature file it configures (named at each function).
 */
#include "plan.h"

#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include "probes/shared.h"
#include "probes/hist_shared.h"

#define MAP_ENTRIES_MIN 8192 /* accumulator map, sized from pid_max */
#define MAP_ENTRIES_MAX 65536
#define HIST_MAX_KEYS 65536 /* hist map size cap (-P/-L): 15 MB */
#define BLAME_RING 32 /* slices kept per CPU (power of two) */
#define BLAME_ENTRIES 16384 /* victim/culprit pairs per interval */
#define WAKERS_ENTRIES 16384 /* (victim, waker) pairs per interval */
#define STACKS_ENTRIES 16384 /* (thread, stacks) pairs per print */
#define STACK_TRACES 16384 /* stack map buckets (offcputime's default) */

static bool seam(const struct ss_seams *t, enum ss_seam s)
{
	return t && t->on[s];
}

/*
 * The raw path's preconditions (feat_path.c): BTF, a raw sched_switch of
 * 4 arguments or of 3 with the task's state in BTF, the other raw sched
 * tracepoints, the task_struct fields.  Sets p->path.nargs; false with
 * why not in p->path.why.
 */
static bool raw_ok(struct ss_plan *p, const struct ss_kfacts *k,
		   const struct ss_seams *t)
{
	struct ss_plan_path *pa = &p->path;
	size_t len = sizeof(pa->why);
	int n = k->switch_nargs;

	if (seam(t, SS_SEAM_NO_RAW)) {
		snprintf(pa->why, len, "%s=%s", SS_SEAM_ENV,
			 ss_seam_name(SS_SEAM_NO_RAW));
		return false;
	}
	if (!k->btf) {
		snprintf(pa->why, len, "no kernel BTF: %s",
			 strerror(k->btf_errno));
		return false;
	}
	if (n == 4 && seam(t, SS_SEAM_RAW_STATE_FROM_TASK)) {
		n = 3; /* test: as if it were 3 (prev_state from prev) */
		pa->state_forced = true;
	}
	pa->nargs = n;
	if (n == 3 && k->state_err) {
		snprintf(pa->why, len,
			 "raw sched_switch has 3 arguments and task_struct has "
			 "no __state or state in BTF: %s",
			 strerror(-k->state_err));
		return false;
	}
	if (n != 3 && n != 4) {
		snprintf(pa->why, len,
			 "raw sched_switch has %d arguments, not 4 (Linux "
			 "5.18+) or 3 (5.5-5.17)",
			 n);
		return false;
	}
	if (k->raw_missing) {
		snprintf(pa->why, len, "no raw tracepoint %s in BTF",
			 k->raw_missing);
		return false;
	}
	if (k->task_err) {
		snprintf(pa->why, len, "task_struct fields not in BTF: %s",
			 strerror(-k->task_err));
		return false;
	}
	return true;
}

/* The path and its clocks (feat_path.c's top comment says why). */
static void decide_path(struct ss_plan *p, const struct ss_kfacts *k,
			const struct ss_seams *t)
{
	struct ss_plan_path *pa = &p->path;

	pa->kexcl_what = "";
	pa->mode.raw_sched = raw_ok(p, k, t);
	if (!pa->mode.raw_sched) {
		pa->nargs = 0;
		pa->state_forced = false;
		return;
	}
	pa->mode.tp_btf = k->tp_btf;
	pa->exit_tp_avail = k->exit_tp && !seam(t, SS_SEAM_NO_EXIT_TP);
	pa->kclock = k->kclock && !seam(t, SS_SEAM_NO_KCLOCK);
	pa->task_clock =
		pa->kclock && pa->mode.tp_btf && !seam(t, SS_SEAM_WINDOW_CLOCK);
	pa->kexcl = pa->task_clock && k->kexcl;
	if (pa->kexcl)
		pa->kexcl_what = k->rq_steal && k->rq_irq ? "irq+steal"
				 : k->rq_steal		  ? "steal"
							  : "irq";
}

/* Row keys, filters and identity (feat_core.c, feat_identity.c). */
static void decide_rows(struct ss_plan *p, const struct ss_opts *o,
			const struct ss_kfacts *k, const struct ss_seams *t)
{
	struct ss_plan_rows *r = &p->rows;
	size_t len = sizeof(r->ident_why);

	if (o->map_entries) {
		r->map_entries = o->map_entries;
	} else {
		r->map_entries = k->pid_max;
		if (r->map_entries < MAP_ENTRIES_MIN)
			r->map_entries = MAP_ENTRIES_MIN;
		if (r->map_entries > MAP_ENTRIES_MAX)
			r->map_entries = MAP_ENTRIES_MAX;
	}
	r->per_thread = o->per_thread;
	r->per_cgroup = o->per_cgroup;
	/* whether to look: the ids go into maps at attach */
	r->filter_tgid = o->pid != 0;
	r->filter_tid = o->tid != 0;
	r->filter_list = o->npids > 1 || o->ntids > 1;
	r->cgroup_filter = k->opened.cgroup_filter;
	r->accum_gens = !o->trace;
	r->verifier_fail = seam(t, SS_SEAM_VERIFIER_FAIL);
	if (seam(t, SS_SEAM_NO_BTF)) {
		snprintf(r->ident_why, len, "BTF not used (test seam)");
		return;
	}
	if (!k->btf) {
		snprintf(r->ident_why, len, "no kernel BTF: %s",
			 strerror(k->btf_errno));
		return;
	}
	r->ident_btf = k->ident_ok;
	if (!k->ident_ok)
		snprintf(r->ident_why, len, "%s", k->ident_why);
	r->cg_btf = r->ident_btf && k->cg_ok;
	r->task_btf_ptr = r->ident_btf && k->current_task_btf;
	r->row_cache = r->ident_btf && !seam(t, SS_SEAM_NO_ROW_CACHE);
}

/* Counters (feat_counters.c): what opened is read at each switch. */
static void decide_ctr(struct ss_plan *p, const struct ss_kfacts *k,
		       const struct ss_seams *t)
{
	struct ss_plan_ctr *c = &p->ctr;
	uint64_t all;

	c->nr = k->opened.counters;
	if (!c->nr)
		return;
	/*
	 * PMU events can be multiplexed: read them with their times; the
	 * seam counter_times reads every event so (no PMU here)
	 */
	all = c->nr >= 64 ? ~0ULL : (1ULL << c->nr) - 1;
	c->times =
		seam(t, SS_SEAM_COUNTER_TIMES) ? all : k->opened.ctr_hw & all;
	c->atomic_or = k->atomic_or;
}

/* Histograms (feat_hist.c).  Returns 0 or 1 with @err. */
static int decide_hist(struct ss_plan *p, const struct ss_opts *o,
		       const struct ss_kfacts *k, char *err, size_t len)
{
	struct ss_plan_hist *h = &p->hist;

	if (!o->hist)
		return 0;
	if ((o->hist & SS_HIST_RUNQ) && (!k->tp_wakeup || !k->tp_wakeup_new)) {
		snprintf(err, len,
			 "--hist runq needs the sched:sched_wakeup and "
			 "sched_wakeup_new tracepoints, not found in tracefs");
		return 1;
	}
	h->kinds = o->hist;
	h->shown_per = o->per_thread	     ? 2
		       : o->hist_per_process ? 1
		       : o->per_cgroup	     ? 3
					     : 0;
	/*
	 * --listen without -P/-L keeps one per cgroup, for the exporter's
	 * cgroup label, and the table shows their sum
	 */
	h->by_cgroup = o->per_cgroup || o->listen;
	h->per = h->shown_per || !h->by_cgroup ? h->shown_per : 3;
	/* -P/-L: one key per task and kind; capped, a value is 232 bytes */
	h->entries = h->per ? p->rows.map_entries : SS_HK_MAX;
	if (h->entries > HIST_MAX_KEYS)
		h->entries = HIST_MAX_KEYS;
	h->unit_ns = o->milliseconds ? 1000000 : 1000;
	if (o->hist & (SS_HIST_OFFCPU | SS_HIST_RUNQ))
		p->need_exit = true;
	if (o->hist & SS_HIST_RUNQ)
		p->need_wakeup = true;
	return 0;
}

/* -M (feat_mem.c): the events the kernel has; the others print n/a. */
static void decide_mem(struct ss_plan *p, const struct ss_opts *o,
		       const struct ss_kfacts *k)
{
	struct ss_plan_mem *m = &p->mem;
	bool col_on[3] = { false };

	if (!o->memory)
		return;
	m->on = true;
	m->faults = k->opened.faults;
	col_on[0] = m->faults;
	for (int i = 0; i < SS_MEM_NKINDS; i++) {
		m->kind[i] = k->tp_mem[i];
		if (!m->kind[i])
			continue;
		col_on[ss_mem_kinds[i].col] = true;
		/* reclaim starts to drop at thread exit */
		if (ss_mem_kinds[i].col == 2)
			p->need_exit = true;
	}
	for (int c = 0; c < 3; c++)
		m->na[c] = !col_on[c];
}

/* --blame (feat_blame.c).  Returns 0 or 1 with @err. */
static int decide_blame(struct ss_plan *p, const struct ss_opts *o,
			const struct ss_kfacts *k, const struct ss_seams *t,
			char *err, size_t len)
{
	struct ss_plan_blame *b = &p->blame;

	if (!o->blame)
		return 0;
	if (!k->tp_wakeup || !k->tp_wakeup_new || !k->tp_migrate) {
		snprintf(err, len,
			 "--blame needs the sched:sched_wakeup, "
			 "sched_wakeup_new and sched_migrate_task "
			 "tracepoints, not found in tracefs");
		return 1;
	}
	b->on = true;
	b->by = o->per_cgroup ? 2 : o->per_thread ? 1 : 0;
	b->ring = BLAME_RING;
	b->entries = BLAME_ENTRIES;
	/*
	 * each wait's length from the kernel's run_delay, read in place from
	 * sched_switch's typed tasks, where the kernel keeps it: no program
	 * at wakeups and moves.  Else timed from sched_wakeup, followed
	 * across CPUs by sched_migrate_task.
	 */
	b->kq = p->path.mode.tp_btf && k->run_delay_ok && k->run_delay_live;
	if (!b->kq)
		p->need_migrate = p->need_wakeup = true;
	/*
	 * each thread's wait in its task storage where every program that
	 * touches it has the task as a typed pointer (tp_btf) and the kernel
	 * allows that (5.11+); its map needs BTF: debug info kept.  Else a
	 * hash by tid, whose entries sched_process_exit drops.
	 */
	b->task_storage = p->path.mode.tp_btf && k->task_storage &&
			  !seam(t, SS_SEAM_NO_TASK_STORAGE);
	p->path.mode.keep_btf = b->task_storage;
	if (!b->task_storage)
		p->need_exit = true;
	return 0;
}

/* --wakers, --stacks, --trace.  Returns 0 or 1 with @err. */
static int decide_extra(struct ss_plan *p, const struct ss_opts *o,
			const struct ss_kfacts *k, char *err, size_t len)
{
	struct ss_plan_extra *x = &p->x;

	if (o->wakers && !p->path.mode.raw_sched) {
		snprintf(err, len,
			 "--wakers needs the raw tracepoints (kernel BTF, "
			 "Linux 5.5+), not used here: %s",
			 p->path.why);
		return 1;
	}
	if (o->wakers && k->wakers_missing) {
		snprintf(err, len,
			 "--wakers: no raw tracepoint %s in this kernel",
			 k->wakers_missing);
		return 1;
	}
	x->wakers = o->wakers;
	x->wakers_entries = o->wakers ? WAKERS_ENTRIES : 0;
	if (o->stacks) {
		x->stacks = true;
		x->stacks_entries = STACKS_ENTRIES;
		x->stack_traces = STACK_TRACES;
		x->stacks_kernel = !o->user_stacks_only;
		x->stacks_user = !o->kernel_stacks_only;
		x->stacks_per_thread = o->per_thread;
		x->stacks_wakers = o->wakers;
	}
	x->trace = o->trace;
	return 0;
}

/*
 * sched_exit_tp (feat_path.c): compiled where the kernel has it and a
 * feature needs every slice's start, or the kernel's clock is not there
 * to fill in; attached at once with --trace (no interval loop) and the
 * seams exit_tp (any mode: the bench) and exit_tp_now, else once the
 * kernel is seen hiding a switch.
 */
static void decide_exit_tp(struct ss_plan *p, const struct ss_opts *o,
			   const struct ss_seams *t)
{
	struct ss_plan_path *pa = &p->path;
	bool forced = seam(t, SS_SEAM_EXIT_TP);

	/* --blame on the kernel's run_delay fills in from its clock */
	pa->whole_slices = p->ctr.nr || p->hist.kinds || p->x.trace ||
			   (p->blame.on && !p->blame.kq) || p->mem.faults ||
			   p->off.on;
	pa->exit_tp_prog = pa->mode.raw_sched && pa->exit_tp_avail &&
			   (pa->whole_slices || !pa->kclock || forced);
	pa->exit_tp_now = pa->exit_tp_prog &&
			  (forced || o->trace || seam(t, SS_SEAM_EXIT_TP_NOW));
}

/* ss_plan_decide - see plan.h */
int ss_plan_decide(struct ss_plan *p, const struct ss_opts *o,
		   const struct ss_kfacts *k, const struct ss_seams *t,
		   char *err, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->k = *k;
	decide_path(p, k, t);
	decide_rows(p, o, k, t);
	decide_ctr(p, k, t);
	if (decide_hist(p, o, k, err, len))
		return 1;
	decide_mem(p, o, k);
	if (decide_blame(p, o, k, t, err, len))
		return 1;
	/* --wakers and --stacks attribute the spans of the --offcpu probe */
	p->off.on = o->offcpu || o->wakers || o->stacks;
	p->off.iowait = p->off.on && k->iowait;
	p->off.ksum = p->off.on && k->ksum;
	p->off.miss_arrive = p->off.on && seam(t, SS_SEAM_MISS_ARRIVE)
				     ? t->val[SS_SEAM_MISS_ARRIVE]
				     : 0;
	if (decide_extra(p, o, k, err, len))
		return 1;
	decide_exit_tp(p, o, t);
	return 0;
}
