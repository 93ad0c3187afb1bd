/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switch.bpf.c - sched_switch accounting, compiled by libbcc at start-up.
 *
 * Rules: only tracepoint fields, helpers and task_struct fields at offsets
 * from the running kernel's BTF (task.bpf.h), never a kernel struct at a
 * header's offset; the layout of args comes from the running kernel's
 * format file through TRACEPOINT_PROBE; the slice start is kept per CPU, so
 * each CPU's idle task is separate and nothing wraps; the first slice on
 * each CPU began before we started and is skipped.
 * At sched_switch the current task is still the one leaving the CPU, so
 * bpf_get_current_pid_tgid() names prev.
 *
 * The programs build one struct ss_switch_ctx per switch (switch_ctx.bpf.h)
 * and each feature's hook (from the feature .bpf.h files) takes it.
 */
#include "blame.bpf.h"
#include "common.bpf.h"
#include "counters.bpf.h"
#include "hist.bpf.h"
#include "hotplug.bpf.h"
#include "mem.bpf.h"
#include "offcpu.bpf.h"
#include "preempt.bpf.h"
#include "select.bpf.h"
#include "shared.h"
#include "switch_ctx.bpf.h"
#include "task.bpf.h"
#include "trace.bpf.h"
#include "wakeup.bpf.h"

#ifndef SS_NEED_EXIT
#define SS_NEED_EXIT 0
#endif
#ifndef SS_TEST_VERIFIER_FAIL
#define SS_TEST_VERIFIER_FAIL 0
#endif

/*
 * The features whose sched_switch hooks time each slice or wait on the
 * sched_switch window (histograms, blame unless its ring is on the kernel's
 * clock, trace lines, off-CPU time): with
 * them the clock is read at every switch.  Without them, under
 * SS_TASK_CLOCK, a task's on-CPU time comes from the kernel's clock and
 * the clock is read only at the switches that start or end an idle slice.
 */
#if SS_TRACE || (SS_BLAME && !SS_BLAME_KCLOCK) || SS_HIST_ONCPU || \
	SS_HIST_WAITS || SS_HIST_OFFSTATE || SS_OFFCPU || !SS_TASK_CLOCK
#define SS_NOW_EVERY_SWITCH 1
#else
#define SS_NOW_EVERY_SWITCH 0
#endif

/*
 * The features whose switch work runs in stages of its own (below), when
 * two or more of them are on: one alone stays inline, without a context
 * copy and a tail call per switch, and is verified as one feature.
 * --stacks with --wakers keeps its stage: inline, the switch program's
 * frame would pass the 512 bytes of BPF stack (clang refuses it).
 */
#define SS_STAGE_HIST_ON (SS_HIST_ONCPU || SS_HIST_WAITS || SS_HIST_OFFSTATE)
#if !SS_TRACE && (!!SS_STAGE_HIST_ON + !!SS_BLAME + !!SS_OFFCPU >= 2 || \
		  SS_STACKS_WAKERS)
#define SS_SW_STAGES 1
#else
#define SS_SW_STAGES 0
#endif

/*
 * What the row cache needs of the task leaving, read once at the start of
 * sched_switch, on the one path every switch takes: the verifier checks a
 * load of a pointer field from a trusted task pointer (group_leader,
 * cgroups) against the kernel's whole BTF, four linear scans of its
 * ~127k types, for each path that reaches the load (45 in sched_switch,
 * about 57 % of its verification time, when they were read where used).
 */
static __always_inline void ss_sw_ident_read(struct ss_switch_ctx *who,
					     __u32 tid, __u64 task)
{
	who->task = task;
	who->cgroup_id = 0;
	who->leader_task = 0;
#if SS_ROW_CACHE_BITS
	/*
	 * The idle task is never charged to a row: its cgroup chain (four
	 * dependent loads) is skipped.  Its group_leader is read all the
	 * same: a pointer where other paths have 0 would keep the verifier
	 * from merging the two paths' states (50 against 20 ms).
	 */
	if (tid)
		who->cgroup_id = ss_ident_cgroup_id_of(task);
	who->leader_task = ss_ident_group_leader(task);
#endif
}

/*
 * ss_charge_slice - charge the on-CPU slice [last, now) of this CPU to the
 * current task (tgid, tid) of @sw: its row's on-CPU ns and counter deltas, or the
 * idle / filtered stats.  Under SS_TASK_CLOCK a task's slice is cpu->k_ns
 * ns of the kernel's clock instead, charged when cpu->k_charge
 * (ss_tslice_next); the idle task's stays [last, now).  Used at every switch (@at_switch 1) and at every
 * checkpoint.  Returns the row, or NULL when no row was charged: clock went
 * backwards, idle, filtered, map full.  A slice that is not charged (last
 * 0: first on this CPU, or its owner unknown) still returns the row at a
 * switch: the switch itself was seen and is counted.  @who: the leaving
 * task's cgroup and group leader, read at the switch's start (NULL when
 * not @at_switch).  All of it from @sw: now, last, tgid, tid, at_switch.
 */
static __always_inline struct ss_val *
ss_charge_slice(struct ss_cpu *cpu, const struct ss_switch_ctx *sw)
{
	struct ss_val *val;
	__u64 now = sw->now, last = sw->last;
	__u32 tgid = sw->tgid, tid = sw->tid;
	int at_switch = sw->at_switch;
	const struct ss_switch_ctx *who = sw;
	__u64 ns = now - last;
	int have = last != 0;

#if SS_TASK_CLOCK
	/* a task's time on the kernel's clock; the idle task's (which
	 * keeps none) on the window */
	if (tid) {
		ns = cpu->k_ns;
		have = cpu->k_charge != 0;
	}
#endif
	if (!have) { /* counted by the caller: first or missed */
		if (!at_switch || tid == 0 || !ss_task_selected(tgid, tid))
			return NULL;
	} else if ((!SS_TASK_CLOCK || tid == 0) && now < last) {
		ss_cpu_stat_add(cpu, SS_STAT_ANOMALY, 1);
		return NULL;
	} else if (tid == 0) {
		ss_cpu_stat_add(cpu, SS_STAT_IDLE_NS, ns);
		return NULL;
	} else if (!ss_task_selected(tgid, tid)) {
		ss_cpu_stat_add(cpu, SS_STAT_FILTERED_NS, ns);
		return NULL;
	}

	/* one place each finds the row: one inlined copy per program */
#if SS_ROW_CACHE_BITS
	/* at a switch: this CPU's entry (plain adds); else the row */
	val = at_switch ? ss_rc_val(cpu, tgid, tid, now, who->cgroup_id,
				    who->leader_task, who->task)
			: ss_current_val(tgid, tid);
#else
	val = ss_current_val(tgid, tid);
#endif
	if (!val || !have)
		return val;
	if (SS_ROW_CACHE_BITS && at_switch) /* this CPU's own entry */
		val->oncpu_ns += ns;
	else
		__sync_fetch_and_add(&val->oncpu_ns, ns);
	ss_feature_switch_charge(cpu, val);
	SS_MEM_CHARGE(cpu, val);
	return val;
}

/*
 * ss_slice_next - end this CPU's current slice at now and start the next
 * one, owned by next_key.  Returns the ended slice's start (ns), or 0 when
 * it must not be charged: the first slice on this CPU (began before we
 * started), or one whose owner is unknown because a switch on this CPU
 * was missed (the task leaving, @key, is not the one we saw arrive):
 * never guess.  On the raw path, whose programs the kernel never skips,
 * such a switch is one the kernel did not report (SS_STAT_UNREPORTED); on
 * the regular path it may also be one whose program was skipped
 * (SS_STAT_MISSED).  Keys are tids on the regular path, task_struct
 * addresses on the raw one (no read needed: the tracepoint passes them).
 * @unknown: set to the ns of a slice skipped that way (its owner unknown),
 * else 0.
 */
static __always_inline __u64 ss_slice_next(struct ss_cpu *cpu, __u64 now,
					   __u64 key, __u64 next_key,
					   __u64 *unknown)
{
	__u64 last = cpu->last_switch_ns;

	*unknown = 0;
	if (!last) {
		ss_cpu_stat_add(cpu, SS_STAT_FIRST_SLICE, 1);
	} else if (cpu->curr_key != key) {
		ss_cpu_stat_add(cpu,
				SS_RAW_TP ? SS_STAT_UNREPORTED : SS_STAT_MISSED,
				1);
		if (now >= last) {
			ss_cpu_stat_add(cpu, SS_STAT_MISSED_NS, now - last);
			*unknown = now - last;
		}
		last = 0;
	}
	cpu->curr_key = next_key;
	cpu->last_switch_ns = now;
	return last;
}

#if SS_TASK_CLOCK
/*
 * ss_tslice_next - SS_TASK_CLOCK's ss_slice_next: end this CPU's slice and
 * start the next one, owned by @next_key, on both clocks.  A task's time
 * is the kernel's own (se.sum_exec_runtime, what schedstat, getrusage and
 * cgroup cpu.stat report): its sum now less its sum when the slice began
 * (cpu->k_sum), so no clock read is needed for it; @now (the window: 0
 * when not read) is only needed where an idle slice begins or ends, or a
 * feature times slices.  Returns the window start of the slice ended (0:
 * unknown, as ss_slice_next), and sets cpu->k_ns to the task's ns and
 * cpu->k_charge to 1 when they are to be charged (in the map value, not
 * returned: the verifier then merges this function's paths instead of
 * carrying each into the features' code after it): not for the first slice here (began before
 * we started), nor after a hotplug.  After a switch the kernel did not
 * report (@key is not the task seen arriving), a task of the fair class is
 * charged its time since it was picked (prev_sum_exec_runtime; no event
 * here has come since, or it would have adopted the task, so none of it
 * was charged or belongs to an earlier interval); another class's is not
 * (SS_STAT_UNREPORTED, SS_STAT_RECOVERED).  The span whose owner is
 * unknown goes to SS_STAT_MISSED_NS (cpu->known_ns, since_known_ns), less
 * what was recovered.  @at_switch: at sched_switch,
 * @key and @next_key are its typed task pointers; else (a resync) the
 * current task is both.  @tid: the task leaving (0: idle).
 */
static __always_inline __u64 ss_tslice_next(struct ss_cpu *cpu, __u64 now,
					    __u64 key, __u64 next_key,
					    __u32 tid, int at_switch)
{
	__u64 last = cpu->last_switch_ns, ksum, d, unknown = 0, t = now;

	/* each sum read where it is used: few values live at once (the
	 * program's stack is 512 bytes, near full with --stacks --wakers) */
	cpu->k_ns = 0;
	cpu->k_charge = 0;
	if (!cpu->k_ok) {
		ss_cpu_stat_add(cpu, SS_STAT_FIRST_SLICE, 1);
		last = 0;
		SS_OFF_GAP_FORGET(cpu);
	} else if (cpu->curr_key != key) {
		ss_cpu_stat_add(cpu, SS_STAT_UNREPORTED, 1);
		SS_OFF_GAP_FORGET(cpu);
		/*
		 * The span of unknown owner: since the last clock read here,
		 * less what the slices since then were charged (each began
		 * there or later); on the kernel's clock, so steal in the
		 * span counts as unknown.  A few a second: the clock is read
		 * for it.
		 */
		if (!SS_NOW_EVERY_SWITCH && !t)
			t = bpf_ktime_get_ns();
		if (cpu->known_ok && t >= cpu->known_ns + cpu->since_known_ns) {
			unknown = t - cpu->known_ns - cpu->since_known_ns;
			ss_cpu_stat_add(cpu, SS_STAT_MISSED_NS, unknown);
		}
		last = 0;
		d = 0;
		if (tid)
			d = at_switch ? ss_arg_task_kslice(key)
				      : ss_current_kslice();
		if (d) {
			cpu->k_ns = d;
			cpu->k_charge = 1;
			ss_cpu_stat_add(cpu, SS_STAT_RECOVERED, 1);
			ss_cpu_stat_add(cpu, SS_STAT_RECOVERED_NS, d);
			/* that part of the unknown span has its owner */
			cpu->stats[SS_STAT_MISSED_NS] -=
				d < unknown ? d : unknown;
		}
	} else {
		ksum = at_switch ? ss_arg_task_sum_exec(key)
				 : ss_current_sum_exec();
		if (ksum >= cpu->k_sum) {
			cpu->k_ns = ksum - cpu->k_sum;
			cpu->k_charge = 1;
		} else { /* the key's task is another one (address reused) */
			ss_cpu_stat_add(cpu, SS_STAT_ANOMALY, 1);
		}
	}
	if (cpu->k_charge)
		SS_OFF_GAP_ADD(cpu, cpu->k_ns);
	cpu->curr_key = next_key;
	cpu->k_sum = at_switch ? ss_arg_task_sum_exec(next_key)
			       : ss_current_sum_exec();
	cpu->k_ok = 1;
	cpu->last_switch_ns = t;
	if (SS_NOW_EVERY_SWITCH || t) { /* the next unknown span: from here */
		cpu->known_ns = t;
		cpu->since_known_ns = 0;
		cpu->known_ok = 1;
	} else if (cpu->k_charge) {
		cpu->since_known_ns += cpu->k_ns;
	}
	return last;
}
#endif

/*
 * SS_SLICE_KNOWN - whether this CPU's current slice began at a switch or
 * resync seen here, so its owner's nvcsw then is cpu->curr_nvcsw.  Under
 * SS_TASK_CLOCK the window's start (last_switch_ns) stays 0 where the
 * clock is not read (a switch between two tasks): cpu->k_ok says it there
 * (test_sigstorm's nocache window: a sleep abandoned for a signal counted
 * involuntary when its row cache entry was gone).
 */
#if SS_TASK_CLOCK
#define SS_SLICE_KNOWN(cpu) ((cpu)->k_ok != 0)
#else
#define SS_SLICE_KNOWN(cpu) ((cpu)->last_switch_ns != 0)
#endif

/* __state bits above TASK_REPORT (include/linux/sched.h) */
#define SS_TASK_IDLE 0x402 /* TASK_UNINTERRUPTIBLE | TASK_NOLOAD */
#define SS_TASK_RTLOCK_WAIT 0x1000 /* 5.15+; TASK_STATE_MAX before */
#define SS_TASK_FROZEN 0x8000 /* 6.1+; above TASK_STATE_MAX before */
/* a raw __state that blocks: the kernel counts its switch voluntary */
#define SS_RAW_SLEEP_MASK \
	(SS_PREV_STATE_SLEEP_MASK | SS_TASK_RTLOCK_WAIT | SS_TASK_FROZEN)

/*
 * The prev_state the regular tracepoint reports, from the raw one
 * (__trace_sched_switch_state() and __task_state_index(), 5.10 to 6.18):
 * R+ (TASK_REPORT_MAX) when preempted; else the highest TASK_REPORT bit
 * of __state | exit_state (@exit: prev's exit_state, X or Z on a last
 * switch), I for TASK_IDLE, D for a task frozen by the freezer (6.1+:
 * cgroup v1 freezer, suspend) or waiting for an RT lock.  Before 6.1 the
 * freezer sleeps in TASK_UNINTERRUPTIBLE and the two high bits are never
 * set; 5.10 tests TASK_IDLE for equality, the same for every state the
 * kernel sets.
 */
static __always_inline __u64 ss_report_state(__u64 preempt, __u64 raw,
					     __u64 exit)
{
	__u64 s = (raw | exit) & 0x7f;

	if (preempt)
		return 0x100;
	if ((raw & SS_TASK_IDLE) == SS_TASK_IDLE)
		return 0x80;
	if (raw & (SS_TASK_RTLOCK_WAIT | SS_TASK_FROZEN))
		return 0x2;
	for (int b = 6; b >= 0; b--)
		if (s & (1ULL << b))
			return 1ULL << b;
	return 0;
}

#if SS_KCLOCK && !SS_TASK_CLOCK
/*
 * ss_kclock_recover - without sched_exit_tp (SS_KCLOCK is only set then),
 * the time of the task leaving that the window could not give, ns, else
 * 0.  After a switch the kernel did not report, the slice's start was
 * unknown: either the task leaving now arrived unseen (@unknown, from
 * ss_slice_next, is the whole span since the last switch seen here), or a
 * checkpoint adopted it as the owner later (cpu->adopt_*): the window
 * since then is charged as usual, the time before it here.  Its time since
 * it was picked comes from the kernel's own clock (ss_current_kslice);
 * what of it the window does not cover is charged, if it fits in the
 * unknown span (else nothing: never guess) and no interval edge came
 * between (that time was another interval's).  The rest of the span stays
 * in SS_STAT_MISSED_NS.  Called at every switch: it ends any adoption.
 */
static __always_inline __u64 ss_kclock_recover(struct ss_cpu *cpu, __u64 now,
					       __u64 last, __u64 unknown,
					       __u32 tid)
{
	__u64 d, room, since = 0;

	if (unknown) {
		room = unknown;
	} else if (cpu->adopt_unknown_ns && last &&
		   cpu->adopt_edge == cpu->edge_count && now >= cpu->adopt_ns) {
		room = cpu->adopt_unknown_ns;
		since = now - cpu->adopt_ns;
	} else {
		cpu->adopt_unknown_ns = 0;
		return 0;
	}
	cpu->adopt_unknown_ns = 0;
	if (!tid) /* the idle task: its class keeps no clock */
		return 0;
	d = ss_current_kslice();
	if (d <= since)
		return 0;
	d -= since;
	return d <= room ? d : 0;
}

/* Charge ss_kclock_recover's @ns to @val, or to the filtered time. */
static __always_inline void ss_kclock_charge(struct ss_cpu *cpu,
					     struct ss_val *val, __u64 ns,
					     __u32 tgid, __u32 tid)
{
	if (!ns || cpu->stats[SS_STAT_MISSED_NS] < ns)
		return;
	if (val)
		__sync_fetch_and_add(&val->oncpu_ns, ns);
	else if (!ss_task_selected(tgid, tid))
		ss_cpu_stat_add(cpu, SS_STAT_FILTERED_NS, ns);
	else /* no row (map full): the time stays unknown */
		return;
	cpu->stats[SS_STAT_MISSED_NS] -= ns;
	ss_cpu_stat_add(cpu, SS_STAT_RECOVERED, 1);
	ss_cpu_stat_add(cpu, SS_STAT_RECOVERED_NS, ns);
}
#endif

/*
 * ss_switch - one context switch @sw on this CPU (@cpu its state, @ctx the
 * program's), either path: the current task (tgid, tid; slice key
 * sw->key) leaves, next_tid (sw->next_key) arrives.  Sets sw->last, the
 * ending slice's start, for the features' hooks.  Under --trace it ends
 * after the record: trace mode does not accumulate.
 */
static __always_inline void ss_switch(void *ctx, struct ss_cpu *cpu,
				      struct ss_switch_ctx *sw)
{
	__u64 last, now = sw->now;
	__u32 tgid = sw->tgid, tid = sw->tid;
	int kind = sw->kind;

	ss_hotplug_check(cpu, tid, 0);
#if SS_TASK_CLOCK
	last = ss_tslice_next(cpu, now, sw->key, sw->next_key, tid, 1);
#else
	__u64 unknown;

	last = ss_slice_next(cpu, now, sw->key, sw->next_key, &unknown);
#endif
	sw->last = last;
#if SS_KCLOCK && !SS_TASK_CLOCK
	__u64 kx = ss_kclock_recover(cpu, now, last, unknown, tid);
#endif
	ss_cpu_stat_add(cpu, SS_STAT_SWITCHES, 1);
	ss_feature_switch_counters(cpu, tgid, tid);
	SS_MEM_SWITCH(cpu);
	if (!SS_SW_STAGES) { /* else in their stages, after this */
		ss_hist_switch(sw);
		ss_blame_switch(sw);
	}
	ss_preempt_hook(sw);
	if (ss_trace_switch(ctx, cpu, sw))
		return;

	struct ss_val *val = ss_charge_slice(cpu, sw);

#if SS_KCLOCK && !SS_TASK_CLOCK
	ss_kclock_charge(cpu, val, kx, tgid, tid);
#endif
#if SS_ROW_CACHE_BITS
	if (val) {
		if (kind == SS_SW_VOL)
			val->voluntary++;
		else if (kind == SS_SW_INVOL)
			val->involuntary++;
		else
			ss_cpu_stat_add(cpu, SS_STAT_EXIT_SWITCHES, 1);
	}
	/*
	 * A CPU going offline: its last switches, from its per-CPU kernel
	 * threads to the idle task (ss_current_kthread); the edge cannot run
	 * there, so its entries go to their rows then.  A switch to idle from
	 * any other task keeps them (the edge flushes them, on idle CPUs too):
	 * flushing there, and refilling the entry at the task's next
	 * switch-in, cost a task that sleeps between slices a hash lookup,
	 * atomics and its identity reads every time.
	 */
	if (sw->next_tid == 0 && ss_current_kthread())
		ss_row_cache_flush(cpu);
#else
	if (!val)
		return;
	if (kind == SS_SW_VOL)
		__sync_fetch_and_add(&val->voluntary, 1);
	else if (kind == SS_SW_INVOL)
		__sync_fetch_and_add(&val->involuntary, 1);
	else
		ss_cpu_stat_add(cpu, SS_STAT_EXIT_SWITCHES, 1);
#endif
}

#if SS_TASK_CLOCK && SS_SE_CFS_RQ && SS_CFS_RQ_RQ && (SS_RQ_STEAL || SS_RQ_IRQ)
#define SS_KEXCL 1
/*
 * ss_kexcl_read - what the kernel's task clock (rq_clock_task) has left
 * out on this CPU so far, ns: its run queue's prev_steal_time_rq plus
 * prev_irq_time (each where the kernel has it; offsets from BTF), reached
 * from @task (se.cfs_rq->rq: every task's, the idle task's too, is its
 * CPU's run queue).  @typed: @task is a typed sched_switch argument (plain
 * loads); else @task is ignored and the current task's is read.  Returns
 * SS_KEXCL_NONE when a pointer on the way is NULL.
 */
#define SS_KEXCL_NONE (~0ULL) /* ss_kexcl_read: a pointer on the way NULL */
static __always_inline __u64 ss_kexcl_read(__u64 task, int typed)
{
	__u64 cfs = 0, rq = 0, x = 0, v = 0;

#if SS_TASK_BTF_PTR
	if (!typed) /* the current task, typed too */
		task = (__u64)bpf_get_current_task_btf();
	typed = 1;
#endif
	if (typed) {
		cfs = *(__u64 *)(task + SS_SE_CFS_RQ);
		if (!cfs)
			return SS_KEXCL_NONE;
		rq = *(__u64 *)(cfs + SS_CFS_RQ_RQ);
		if (!rq)
			return SS_KEXCL_NONE;
		if (SS_RQ_STEAL)
			x += *(__u64 *)(rq + SS_RQ_STEAL);
		if (SS_RQ_IRQ)
			x += *(__u64 *)(rq + SS_RQ_IRQ);
		return x;
	}
	bpf_probe_read_kernel(&cfs, sizeof(cfs),
			      (void *)(bpf_get_current_task() + SS_SE_CFS_RQ));
	if (!cfs ||
	    bpf_probe_read_kernel(&rq, sizeof(rq),
				  (void *)(cfs + SS_CFS_RQ_RQ)) ||
	    !rq)
		return SS_KEXCL_NONE;
	if (SS_RQ_STEAL) {
		bpf_probe_read_kernel(&v, sizeof(v),
				      (void *)(rq + SS_RQ_STEAL));
		x += v;
	}
	if (SS_RQ_IRQ) {
		v = 0;
		bpf_probe_read_kernel(&v, sizeof(v), (void *)(rq + SS_RQ_IRQ));
		x += v;
	}
	return x;
}

/*
 * ss_kexcl_step - at a checkpoint or edge: SS_STAT_KEXCL_NS gets what the
 * task clock left out on this CPU since the last reading (--check adds
 * it); when the idle task runs, the part of it in the idle slice so far
 * goes to SS_STAT_KEXCL_IDLE_NS too (ss_kexcl_idle).
 */
static __always_inline void ss_kexcl_step(struct ss_cpu *cpu, __u32 tid)
{
	__u64 x = ss_kexcl_read(0, 0);

	if (x == SS_KEXCL_NONE)
		return;
	if (cpu->kexcl_have && x >= cpu->kexcl_prev)
		ss_cpu_stat_add(cpu, SS_STAT_KEXCL_NS, x - cpu->kexcl_prev);
	cpu->kexcl_prev = x;
	cpu->kexcl_have = 1;
	if (tid == 0) { /* the idle slice goes on from here */
		if (cpu->kexcl_idle_ok && x >= cpu->kexcl_idle0)
			ss_cpu_stat_add(cpu, SS_STAT_KEXCL_IDLE_NS,
					x - cpu->kexcl_idle0);
		cpu->kexcl_idle0 = x;
		cpu->kexcl_idle_ok = 1;
	}
}

/*
 * ss_kexcl_idle - at a switch from or to the idle task (@prev_idle,
 * @next_idle; @prev and @next typed): the steal (and IRQ time) of the
 * idle slice ending goes to SS_STAT_KEXCL_IDLE_NS, for --check: the idle
 * slices are on the window, which has it, so it is not added again.
 */
static __always_inline void ss_kexcl_idle(struct ss_cpu *cpu, __u64 prev,
					  __u64 next, int prev_idle,
					  int next_idle)
{
	__u64 x;
	int ok;

	if (!prev_idle && !next_idle)
		return;
	x = ss_kexcl_read(prev_idle ? prev : next, 1);
	ok = x != SS_KEXCL_NONE;
	if (prev_idle && ok && cpu->kexcl_idle_ok && x >= cpu->kexcl_idle0)
		ss_cpu_stat_add(cpu, SS_STAT_KEXCL_IDLE_NS,
				x - cpu->kexcl_idle0);
	cpu->kexcl_idle0 = x;
	cpu->kexcl_idle_ok = ok && next_idle;
}
#define SS_KEXCL_STEP(cpu, tid) ss_kexcl_step(cpu, tid)
#define SS_KEXCL_IDLE(cpu, prev, next, pi, ni) \
	ss_kexcl_idle(cpu, prev, next, pi, ni)
#else
#define SS_KEXCL 0
#define SS_KEXCL_STEP(cpu, tid) \
	do {                    \
	} while (0)
#define SS_KEXCL_IDLE(cpu, prev, next, pi, ni) \
	do {                                   \
	} while (0)
#endif

/*
 * The stages: the switch work of --hist, --blame and --offcpu (with
 * --stacks, --wakers) runs in programs of their own, tail-called in this
 * order after the switch program (the host puts each one compiled in at
 * its index of sw_stages before sched_switch is attached).  The verifier
 * checks each program apart, so its work grows with the sum of the
 * features, not with the product of their branches (all of them inlined
 * in one program passed its 1M-instruction limit).  The switch program
 * leaves its struct ss_switch_ctx in sw_ctx for them.  --trace ends the
 * switch itself and keeps its hooks inline.
 */

#if SS_SW_STAGES
enum ss_stage {
	SS_STAGE_HIST = 0, /* ss_stage_hist */
	SS_STAGE_BLAME = 1, /* ss_stage_blame */
	SS_STAGE_OFFCPU = 2, /* ss_stage_offcpu */
	SS_STAGE_MAX,
};

BPF_PERCPU_ARRAY(sw_ctx, struct ss_switch_ctx, 1);
BPF_PROG_ARRAY(sw_stages, SS_STAGE_MAX);

/*
 * @sw into sw_ctx for the stages: its numbers only.  The tasks are
 * pointers the verifier types under tp_btf; the stages take them from
 * their own context (ss_stage_ctx), and the comms are --trace's.
 */
static __always_inline void ss_stage_put(const struct ss_switch_ctx *sw)
{
	__u32 zero = 0;
	struct ss_switch_ctx *m = sw_ctx.lookup(&zero);

	if (!m)
		return;
	m->now = sw->now;
	m->last = sw->last;
	m->key = SS_TP_BTF ? 0 : sw->key;
	m->next_key = SS_TP_BTF ? 0 : sw->next_key;
	m->prev = SS_TP_BTF ? 0 : sw->prev;
	m->next = SS_TP_BTF ? 0 : sw->next;
	m->prev_state = sw->prev_state;
	m->raw_state = sw->raw_state;
	m->preempt = sw->preempt;
	m->task = 0;
	m->cgroup_id = sw->cgroup_id;
	m->leader_task = 0;
	m->prev_comm = NULL;
	m->next_comm = NULL;
	m->tgid = sw->tgid;
	m->tid = sw->tid;
	m->next_tid = sw->next_tid;
	m->kind = sw->kind;
	m->kind_known = sw->kind_known;
	m->blocked = sw->blocked;
	m->at_switch = 1;
}

/*
 * In a stage (@ctx its context): the switch's context into *@sw, with
 * the tasks typed again under tp_btf (sched_switch's prev and next).
 * 0, or -1 when sw_ctx is missing.
 */
static __always_inline int ss_stage_ctx(struct bpf_raw_tracepoint_args *ctx,
					struct ss_switch_ctx *sw)
{
	__u32 zero = 0;
	struct ss_switch_ctx *m = sw_ctx.lookup(&zero);

	if (!m)
		return -1;
	*sw = *m;
#if SS_TP_BTF
	sw->prev = ctx->args[1];
	sw->next = ctx->args[2];
	sw->key = sw->prev;
	sw->next_key = sw->next;
	sw->task = sw->prev;
#endif
	return 0;
}

/*
 * After stage @from (-1: the switch program itself): the next stage
 * compiled in, else the blame flush (ss_blame_tail).  A tail call only
 * returns when its program is missing: that stage's work is dropped.
 */
static __always_inline void ss_stage_next(void *ctx, int from)
{
	if (SS_STAGE_HIST_ON && from < SS_STAGE_HIST) {
		sw_stages.call(ctx, SS_STAGE_HIST);
		stat_add(SS_STAT_DROPS, 1);
	}
	if (SS_BLAME && from < SS_STAGE_BLAME) {
		sw_stages.call(ctx, SS_STAGE_BLAME);
		stat_add(SS_STAT_DROPS, 1);
	}
	if (SS_OFFCPU && from < SS_STAGE_OFFCPU) {
		sw_stages.call(ctx, SS_STAGE_OFFCPU);
		stat_add(SS_STAT_DROPS, 1);
	}
	SS_BLAME_TAIL(ctx, 0);
}

#if SS_STAGE_HIST_ON
/* --hist: the switch's histograms (ss_hist_switch) */
int ss_stage_hist(struct bpf_raw_tracepoint_args *ctx)
{
	struct ss_switch_ctx sw;

	if (!ss_stage_ctx(ctx, &sw))
		ss_hist_switch(&sw);
	ss_stage_next(ctx, SS_STAGE_HIST);
	return 0;
}
#endif

#if SS_BLAME
/* --blame: the ring and the waits (ss_blame_switch) */
int ss_stage_blame(struct bpf_raw_tracepoint_args *ctx)
{
	struct ss_switch_ctx sw;

	if (!ss_stage_ctx(ctx, &sw))
		ss_blame_switch(&sw);
	ss_stage_next(ctx, SS_STAGE_BLAME);
	return 0;
}
#endif

#if SS_OFFCPU
/* --offcpu (--stacks, --wakers, --hist offcpu-*): the spans */
int ss_stage_offcpu(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);
	struct ss_switch_ctx sw;

	if (cpu && !ss_stage_ctx(ctx, &sw))
		ss_off_switch(ctx, cpu, &sw);
	ss_stage_next(ctx, SS_STAGE_OFFCPU);
	return 0;
}
#endif

/* the end of the switch program: the stages */
static __always_inline void ss_switch_end(void *ctx, struct ss_cpu *cpu,
					  const struct ss_switch_ctx *sw)
{
	ss_stage_put(sw);
	ss_stage_next(ctx, -1);
}
#else
/* the end of the switch program: --offcpu and the blame flush inline */
static __always_inline void ss_switch_end(void *ctx, struct ss_cpu *cpu,
					  const struct ss_switch_ctx *sw)
{
	ss_off_switch(ctx, cpu, sw);
	SS_BLAME_TAIL(ctx, 0);
}
#endif

#if SS_RAW_TP
/* next's thread id is read only for the features that use it (the row
 * cache: is it the idle task) */
#if SS_TRACE || SS_BLAME || SS_HIST_ONCPU || SS_HIST_WAITS || \
	SS_ROW_CACHE_BITS || SS_TASK_CLOCK
#define SS_RAW_NEXT_TID(next) ss_arg_task_pid(next)
#else
#define SS_RAW_NEXT_TID(next) 0
#endif

/*
 * Raw sched_switch(preempt, prev, next, prev_state), or (preempt, prev,
 * next) before 5.18, prev_state then read from prev (ss_prev_state).  The
 * kernel adds one to prev->nvcsw or prev->nivcsw just before this
 * tracepoint (5.10 too), so the kind is exact: involuntary when preempted;
 * otherwise voluntary iff prev's nvcsw moved since it switched in (kept in
 * cpu->curr_nvcsw).  This counts a sleep abandoned for a pending signal as
 * voluntary, as the kernel does, although the tracepoint reports its state
 * as R since Linux 6.16 (and before 5.18, where prev->state is read back
 * after __schedule set it running).  A
 * switch of a released thread (exit_state EXIT_DEAD) is not counted, a
 * last switch (TASK_DEAD) before the release is (enum ss_switch_kind).
 */
RAW_TRACEPOINT_PROBE(sched_switch)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (!cpu)
		return 0;

	/* the window's clock: under SS_TASK_CLOCK read below, only where
	 * an idle slice begins or ends (SS_NOW_EVERY_SWITCH) */
	__u64 now = SS_NOW_EVERY_SWITCH ? bpf_ktime_get_ns() : 0;

	ss_feature_counters_read(cpu); /* next to the clock */
	__u64 preempt = ctx->args[0], prev = ctx->args[1], next = ctx->args[2];
#if SS_SWITCH_NARGS == 3
	/* no args[3] before 5.18 (the attach rejects a read past the
	 * arguments): the state the kernel would pass, from prev */
	__u64 raw_state = ss_prev_state(prev);
#else
	__u64 raw_state = ctx->args[3];
#endif
#if SS_TP_BTF
	/* prev is the current task: its ids in place, no helper call (the
	 * offsets are checked against the helper at every checkpoint) */
	__u32 tid = ss_arg_task_pid(prev), tgid = ss_arg_task_tgid(prev);
#else
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;
#endif
	int kind, blocked = 0;
	struct ss_switch_ctx sw, *who = &sw;
	__u32 next_tid = SS_RAW_NEXT_TID(next);

	if (!SS_NOW_EVERY_SWITCH && (!tid || !next_tid))
		now = bpf_ktime_get_ns();
	/* here, where the verifier has few paths to walk it with */
	SS_KEXCL_IDLE(cpu, prev, next, tid == 0, next_tid == 0);
#if SS_TP_BTF
	/* the current task is prev: under tp_btf, read in place from it */
	ss_sw_ident_read(&sw, tid, prev);
#else
	ss_sw_ident_read(&sw, tid, SS_CUR_TASK());
#endif

#if SS_TEST_VERIFIER_FAIL
	/* test hook: a load the verifier must reject */
	now += *(volatile __u64 *)(long)bpf_get_prandom_u32();
#endif
	if (ss_prev_released(who->task)) {
		/* its counts are in its process's already (shared.h) */
		kind = SS_SW_EXIT;
		blocked = !preempt && !(raw_state & SS_TASK_DEAD) &&
			  (raw_state & SS_RAW_SLEEP_MASK) != 0;
		/* a leader's last switch after its parent reaped it: wait4
		 * read its nvcsw concurrently, mostly before this switch's
		 * add (shared.h); counted for the test's allowance */
		if ((raw_state & SS_TASK_DEAD) && tid == tgid)
			ss_cpu_stat_add(cpu, SS_STAT_REAP_RACE, 1);
	} else if (raw_state & SS_TASK_DEAD) {
		/* a last switch before the release: the kernel counts it */
		kind = SS_SW_VOL;
	} else if (preempt) {
		kind = SS_SW_INVOL;
	} else if (cpu->curr_key == prev && SS_SLICE_KNOWN(cpu)) {
		kind = ss_prev_nvcsw(who->task) != cpu->curr_nvcsw
			       ? SS_SW_VOL
			       : SS_SW_INVOL;
		blocked = (raw_state & SS_RAW_SLEEP_MASK) != 0;
	} else { /* nvcsw at switch-in unknown (first or missed slice) */
		blocked = (raw_state & SS_RAW_SLEEP_MASK) != 0;
		kind = blocked ? SS_SW_VOL : SS_SW_INVOL;
#if SS_ROW_CACHE_BITS
		/* its counts at its last switch here: the kernel's own kind */
		int k = ss_rc_kind(tid, who->task);

		if (k >= 0)
			kind = k;
#endif
	}
	sw.now = now;
	sw.last = 0;
	sw.key = prev;
	sw.next_key = next;
	sw.prev = prev;
	sw.next = next;
	/* the hooks (histograms, blame, trace) read it as the tracepoint's */
	sw.prev_state = ss_report_state(
		preempt, raw_state,
		(raw_state & SS_TASK_DEAD) ? ss_prev_exit_state(prev) : 0);
	sw.raw_state = raw_state;
	sw.preempt = preempt;
	sw.prev_comm = NULL;
	sw.next_comm = NULL;
	sw.tgid = tgid;
	sw.tid = tid;
	sw.next_tid = next_tid;
	sw.kind = kind;
	sw.kind_known = 1;
	sw.blocked = blocked;
	sw.at_switch = 1;
	ss_switch(ctx, cpu, &sw);
	cpu->curr_nvcsw = ss_arg_task_nvcsw(next);
	ss_switch_end(ctx, cpu, &sw);
	return 0;
}
#else
/*
 * Regular sched_switch: args laid out from the running kernel's format
 * file.  The kind comes from prev_state (any sleep bit: voluntary), which
 * misses the kernel's count for a sleep abandoned for a pending signal
 * (reported as R since Linux 6.16), and a switch of a thread released
 * before its last switch (a preemption in the rest of do_exit); the raw
 * path has no such gaps.
 */
TRACEPOINT_PROBE(sched, sched_switch)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (!cpu)
		return 0;

	__u64 now = bpf_ktime_get_ns();

	ss_feature_counters_read(cpu); /* next to the clock */
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;
	__u64 prev_state = args->prev_state;
	int blocked = (prev_state & SS_PREV_STATE_SLEEP_MASK) != 0;
	int dead = (prev_state & SS_PREV_STATE_EXIT_MASK) != 0;
	/*
	 * No exit_state here: a last switch counts for the thread-group
	 * leader (reaped after it), not for another thread (released
	 * before it); see enum ss_switch_kind
	 */
	int kind = dead ? (tid == tgid ? SS_SW_VOL : SS_SW_EXIT)
		   : blocked ? SS_SW_VOL
			     : SS_SW_INVOL;

#if SS_TEST_VERIFIER_FAIL
	/* test hook: a load the verifier must reject */
	now += *(volatile __u64 *)(long)bpf_get_prandom_u32();
#endif
	struct ss_switch_ctx sw;

	ss_sw_ident_read(&sw, tid, SS_CUR_TASK());
	sw.now = now;
	sw.last = 0;
	sw.key = tid;
	sw.next_key = args->next_pid;
	sw.prev = 0;
	sw.next = 0;
	sw.prev_state = prev_state;
	sw.raw_state = prev_state;
	sw.preempt = 0;
	sw.prev_comm = args->prev_comm;
	sw.next_comm = args->next_comm;
	sw.tgid = tgid;
	sw.tid = tid;
	sw.next_tid = args->next_pid;
	sw.kind = kind;
	sw.kind_known = 0;
	sw.blocked = blocked && !dead;
	sw.at_switch = 1;
	ss_switch(args, cpu, &sw);
	ss_switch_end(args, cpu, &sw);
	return 0;
}
#endif

/*
 * At this CPU's interval edge @now: charge the interval the host starts
 * now, and say when this CPU's part of it began (the host's --check adds
 * up the CPUs' spans between edges).
 */
static __always_inline void ss_edge_gen(struct ss_cpu *cpu, __u64 now)
{
	cpu->edge_ns = now;
	cpu->edge_count++;
#if SS_ACCUM_GENS
	__u32 zero = 0;
	__u64 *gen = accum_gen.lookup(&zero);

	if (gen)
		cpu->accum_gen = *gen;
#endif
}

/* How ss_resync is run (@ck) */
enum ss_resync_kind {
	SS_RS_UNREPORTED = 0, /* sched_exit_tp: a switch the kernel hid */
	SS_RS_CHECKPOINT = 1, /* the periodic cpu-clock checkpoint */
	SS_RS_EDGE = 2, /* the host's interval edge (ss_edge) */
};

/*
 * ss_resync - the slice so far on this CPU ends now: charge it to the task
 * running now (when it owned it) and start the next slice here, owned by
 * it.  @ck (enum ss_resync_kind) SS_RS_CHECKPOINT: an interval checkpoint
 * (below); SS_RS_EDGE: the same at an interval edge, run by the host, in a
 * program type that cannot make the blame tail call (the slice is pushed to
 * the blame ring, a staged wait is charged at the task's next event);
 * SS_RS_UNREPORTED: sched_exit_tp found a
 * switch the kernel did not report (the running task is not the one seen
 * arriving), so the slice ending here was the unreported task's and is
 * not charged, and the running task's wait ends here (--hist runq,
 * --blame); only the checkpoint may end in the blame tail call (the
 * program types differ: the wait is charged at the task's next event).
 * The three can interrupt one another on a CPU (sched_exit_tp runs with
 * interrupts on; the edge runs inline when the host is on this CPU): the
 * one that interrupts does nothing (cpu->resync_busy), so a slice is never
 * charged twice; it is charged whole by the next one.
 */
static __always_inline void ss_resync(void *ctx, struct ss_cpu *cpu, int ck)
{
	__u64 now = bpf_ktime_get_ns(), last, unknown;
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;

	if (cpu->resync_busy) {
		if (ck ==
		    SS_RS_EDGE) { /* the rest of that one is this side's */
			ss_off_edge(now);
			ss_edge_gen(cpu, bpf_ktime_get_ns());
		}
		return;
	}
	cpu->resync_busy = 1;
	/* next to the clock (an interrupting resync returned above) */
	ss_feature_counters_read(cpu);
#if SS_RAW_TP
	/*
	 * The slice's owner was unknown (a switch the kernel did not report):
	 * from here on it is the running task, so its nvcsw now is the
	 * baseline for the kind of its next switch.
	 */
	__u64 key = ss_current_task_key();

	if (cpu->curr_key != key)
		cpu->curr_nvcsw = ss_current_nvcsw();
#else
	__u64 key = tid;
#endif
	ss_hotplug_check(cpu, tid, 1);
#if SS_TASK_CLOCK
	last = ss_tslice_next(cpu, now, key, key, tid, 0);
#else
	last = ss_slice_next(cpu, now, key, key, &unknown);
#endif
#if SS_KCLOCK && !SS_TASK_CLOCK
	/* the running task's time before now: at its switch (above) */
	if (unknown && ck == SS_RS_CHECKPOINT) {
		cpu->adopt_ns = now;
		cpu->adopt_unknown_ns = unknown;
		cpu->adopt_edge = cpu->edge_count;
	}
#endif
#if SS_RAW_TP
	if (ck == SS_RS_CHECKPOINT &&
	    tid) /* the BTF offsets, checked on the running task */
		ss_cpu_stat_add(cpu,
				ss_task_offsets_ok(tgid, tid) ? SS_STAT_BTF_OK
							      : SS_STAT_BTF_BAD,
				1);
#endif
	/* the running task is both prev and next: no switch */
	struct ss_switch_ctx rs = {
		.now = now,
		.last = last,
		.key = key,
		.next_key = key,
		.tgid = tgid,
		.tid = tid,
		.next_tid = tid,
		.at_switch = 0,
	};

	ss_feature_switch_counters(cpu, tgid, tid);
	SS_MEM_SWITCH(cpu);
	ss_hist_checkpoint(&rs);
	if (ck == SS_RS_CHECKPOINT) {
		ss_blame_switch(&rs);
	} else if (ck == SS_RS_EDGE) {
		ss_blame_edge(&rs);
		ss_preempt_edge();
		ss_off_edge_run(cpu, &rs);
	} else {
		ss_hist_unreported(&rs);
		ss_blame_unreported(&rs);
		ss_off_unreported(cpu, &rs);
	}
	ss_charge_slice(cpu, &rs);
	if (ck != SS_RS_UNREPORTED)
		SS_KEXCL_STEP(cpu, tid);
#if SS_ROW_CACHE_BITS
	if (ck == SS_RS_EDGE) /* this interval's rows whole for the host */
		ss_row_cache_flush(cpu);
#endif
	if (ck == SS_RS_EDGE) /* from here on: the next interval's map */
		ss_edge_gen(cpu, now);
	cpu->resync_busy = 0;
	if (ck == SS_RS_CHECKPOINT)
		SS_BLAME_TAIL(ctx, 1);
}

/*
 * The context is only passed on, never read: a declaration is enough, and
 * spares the compile uapi/linux/bpf_perf_event.h and the few hundred kernel
 * headers behind it (asm/ptrace.h and on).
 */
struct bpf_perf_event_data;

/*
 * Interval checkpoint: a per-CPU cpu-clock perf event (opened by
 * src/features/feat_hist.c, period interval/200) charges the slice so far to the task
 * running now, without counting a switch, and restarts the slice here.  So
 * a task that never switches still shows its time in every interval; the
 * error at an interval boundary is at most one period per CPU.
 */
int ss_checkpoint(struct bpf_perf_event_data *ctx)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (cpu)
		ss_resync(ctx, cpu, SS_RS_CHECKPOINT);
	return 0;
}

/*
 * Interval edge: the host runs this on every online CPU just before it
 * collects an interval (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU: an
 * IPI, src/feat_checkpoints.c), so each CPU's slice so far, the idle
 * task's too, is charged to the interval it was spent in.  The periodic
 * checkpoint cannot do that for an idle CPU: with its tick stopped, the
 * kernel never resets the event's interrupt count (perf_event_task_tick),
 * throttles it after max_samples_per_tick periods and unthrottles it only
 * at the CPU's next tick, so a CPU idle across an edge had one slice
 * spanning intervals.  Never attached; the context is not read.
 */
int ss_edge(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (cpu)
		ss_resync(ctx, cpu, SS_RS_EDGE);
	return 0;
}

#if SS_RAW_TP && SS_EXIT_TP
/*
 * sched_exit_tp(is_switch, ...): the end of __schedule, run by the task
 * that now has the CPU.  The kernel does not run sched_switch's programs
 * for some switches (here: those of tasks it hides from tracing); the
 * task arriving then is not the one the last sched_switch named.  Its
 * slice starts now, not at the next checkpoint up to a period later, so
 * its on-CPU time, counter deltas and faults are whole.  The usual case
 * is one array lookup and a compare.
 */
RAW_TRACEPOINT_PROBE(sched_exit_tp)
{
	__u32 zero = 0;
	struct ss_cpu *cpu;

	if (!ctx->args[0]) /* no switch: prev ran on */
		return 0;
	cpu = cpu_state.lookup(&zero);
	if (cpu && cpu->curr_key != ss_current_task_key())
		ss_resync(ctx, cpu, SS_RS_UNREPORTED);
	return 0;
}
#endif

#if SS_NEED_EXIT
/* Per-thread state of features (hist, mem, blame) must not outlive it. */
static __always_inline void ss_exit(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	SS_HIST_EXIT(tid);
	SS_MEM_EXIT(tid);
	SS_BLAME_EXIT(tid);
}

#if SS_RAW_TP
/* the exiting thread is the current task */
RAW_TRACEPOINT_PROBE(sched_process_exit)
{
	ss_exit();
	return 0;
}
#else
TRACEPOINT_PROBE(sched, sched_process_exit)
{
	ss_exit();
	return 0;
}
#endif
#endif
