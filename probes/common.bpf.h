/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.bpf.h - maps and helpers every probe uses.
 *
 * Host-chosen settings arrive only as numeric -D macros (never user strings):
 *   SS_MAP_ENTRIES   size of the per-interval accumulator map
 *   SS_PER_THREAD    1: key rows by thread (tid) as well as tgid
 *   SS_ACCUM_GENS    1: two accumulator maps, one per interval parity
 *                    (see ss_accum_gen)
 */
#ifndef SWITCHSTAT_COMMON_BPF_H
#define SWITCHSTAT_COMMON_BPF_H

/*
 * No kernel headers beyond those libbcc always includes: the probes use
 * tracepoint fields and helpers only, and each header costs the compile
 * (uapi/linux/ptrace.h alone pulls in several hundred).
 */
#include "identity.bpf.h"
#include "shared.h"
#include "task.bpf.h"

#ifndef SS_MAP_ENTRIES
#define SS_MAP_ENTRIES 32768
#endif
#ifndef SS_PER_THREAD
#define SS_PER_THREAD 0
#endif

#ifndef SS_ACCUM_GENS
#define SS_ACCUM_GENS 0
#endif

BPF_HASH(accum, struct ss_key, struct ss_val, SS_MAP_ENTRIES);
#if SS_ACCUM_GENS
BPF_HASH(accum_b, struct ss_key, struct ss_val, SS_MAP_ENTRIES);
/* the interval number the host is starting: [0], set before its edges */
BPF_ARRAY(accum_gen, __u64, 1);
#endif
BPF_PERCPU_ARRAY(cpu_state, struct ss_cpu, 1);
/*
 * The enum ss_stat counts live in struct ss_cpu (cpu_state), so the switch
 * handler, which has its CPU's state already, bumps them without another
 * map lookup.  Programs on one CPU never nest, so a plain add is safe.
 */
static __always_inline void ss_cpu_stat_add(struct ss_cpu *cpu, __u32 idx,
					    __u64 v)
{
	if (idx < SS_STAT_MAX)
		cpu->stats[idx] += v;
}

/* stat_add - add v to this CPU's stat idx (one lookup of cpu_state) */
static __always_inline void stat_add(__u32 idx, __u64 v)
{
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	if (cpu)
		ss_cpu_stat_add(cpu, idx, v);
}

/*
 * Which accumulator map this CPU charges (1: accum_b): the parity of the
 * interval it is in, which its interval edge sets (ss_edge in
 * switch.bpf.c, from accum_gen) right after ending its slices there.  So
 * while the host drains the map of the interval that just ended, what the
 * CPUs charge after their edges goes to the other one: each interval's
 * rows hold exactly its time, however long the drain takes.
 */
static __always_inline int ss_accum_gen(void)
{
#if SS_ACCUM_GENS
	__u32 zero = 0;
	struct ss_cpu *cpu = cpu_state.lookup(&zero);

	return cpu ? cpu->accum_gen & 1 : 0;
#else
	return 0;
#endif
}

/*
 * The current task's accumulator, created on first use this interval: the
 * row of the process (thread with -L) and cgroup the task is in now
 * (identity.bpf.h).  The plain lookup first: a new entry's name is read
 * only when it is missing.  lookup_or_try_init inserts only if absent, so
 * when another CPU inserts first its entry is the one returned.  An
 * existing row follows its task: the cgroup it is in, and the name when
 * the task is the one the row is named after (the leader, or the thread
 * with -L), so both are as at the end of the interval.
 */
static __always_inline struct ss_val *ss_current_val(__u32 tgid, __u32 tid)
{
	__u64 cgroup_id = ss_ident_cgroup_id(), leader;
	struct ss_key key;
	struct ss_val *val;

#if SS_ACCUM_GENS
	int gen = ss_accum_gen();
#endif

	ss_ident_key(&key, tgid, tid, cgroup_id, &leader);
#if SS_ACCUM_GENS
	val = gen ? accum_b.lookup(&key) : accum.lookup(&key);
#else
	val = accum.lookup(&key);
#endif
	if (val) {
		val->cgroup_id = cgroup_id;
#if SS_ROW_CACHE_BITS
		val->cgroup_ns = bpf_ktime_get_ns();
#endif
		if (SS_PER_THREAD || tid == tgid)
			ss_ident_cur_comm(val->comm);
		return val;
	}

	struct ss_val init = {};

	ss_ident_comm(init.comm, tgid, tid, leader);
	init.cgroup_id = cgroup_id;
#if SS_ACCUM_GENS
	val = gen ? accum_b.lookup_or_try_init(&key, &init)
		  : accum.lookup_or_try_init(&key, &init);
#else
	val = accum.lookup_or_try_init(&key, &init);
#endif
	if (!val)
		stat_add(SS_STAT_DROPS, 1);
	return val;
}

#ifndef SS_ROW_CACHE_BITS
#define SS_ROW_CACHE_BITS 0 /* 0: no row cache (feat_identity.c) */
#endif

#if SS_ROW_CACHE_BITS
/*
 * The row cache: what the switches on this CPU charge, per thread, kept in
 * a small direct-mapped per-CPU table and added to the row maps only when
 * the entry is taken by another thread, when the CPU goes idle (also its
 * last switch before it goes offline) and at the CPU's interval edge
 * (ss_row_cache_flush, from ss_switch and ss_resync), before the host
 * reads the maps.
 * So a switch costs no hash lookup, no identity reads (key, name, cgroup:
 * once per entry) and no atomics while its thread keeps its entry.  Only
 * sched_switch and ss_resync use it; they never interrupt one another
 * (resync_busy), and only this CPU touches its table.  Other programs
 * (memory tracepoints) charge the maps directly.
 */
struct ss_rc_ent {
	__u64 task; /* tag: the thread id + 1; 0: empty */
	__u64 start; /* tag: the thread's start_time (an id reused) */
	__u64 gen; /* the interval (accum_gen) it charges */
	__u64 seen_ns; /* its last charge (its cgroup read then); under
			* SS_TASK_CLOCK since when it has had that cgroup */
	/* raw path: the thread's nvcsw and nivcsw after its last switch
	 * here (sw_ok 1), the kind of its next one when its switch-in was
	 * not seen (switch.bpf.c) */
	__u64 nvcsw, nivcsw, sw_ok;
	struct ss_key key; /* its row */
	struct ss_val v; /* charged so far (comm, cgroup: at fill) */
};

BPF_PERCPU_ARRAY(row_cache, struct ss_rc_ent, 1 << SS_ROW_CACHE_BITS);

/* Add entry @e to its row (created when missing) and empty it. */
static __always_inline void ss_rc_flush(struct ss_rc_ent *e)
{
	struct ss_val *val;
	__u64 tid = e->task - 1;

	if (!e->task)
		return;
	e->task = 0;
#if SS_ACCUM_GENS
	val = (e->gen & 1) ? accum_b.lookup(&e->key) : accum.lookup(&e->key);
#else
	val = accum.lookup(&e->key);
#endif
	if (!val) {
		struct ss_val init = {};

		__builtin_memcpy(init.comm, e->v.comm, SS_COMM_LEN);
		init.cgroup_id = e->v.cgroup_id;
		init.cgroup_ns = e->seen_ns;
#if SS_ACCUM_GENS
		val = (e->gen & 1) ? accum_b.lookup_or_try_init(&e->key, &init)
				   : accum.lookup_or_try_init(&e->key, &init);
#else
		val = accum.lookup_or_try_init(&e->key, &init);
#endif
		if (!val) {
			stat_add(SS_STAT_DROPS, 1);
			return;
		}
	}
	if (e->seen_ns >= val->cgroup_ns) { /* the latest names the cgroup */
		val->cgroup_id = e->v.cgroup_id;
		val->cgroup_ns = e->seen_ns;
	}
	/* a process row is named by its leader (a thread's entry has the
	 * leader's name as it was when the entry was filled) */
	if (SS_PER_THREAD || tid == e->key.tgid)
		__builtin_memcpy(val->comm, e->v.comm, SS_COMM_LEN);
	if (e->v.oncpu_ns)
		__sync_fetch_and_add(&val->oncpu_ns, e->v.oncpu_ns);
	if (e->v.voluntary)
		__sync_fetch_and_add(&val->voluntary, e->v.voluntary);
	if (e->v.involuntary)
		__sync_fetch_and_add(&val->involuntary, e->v.involuntary);
	if (e->v.faults)
		__sync_fetch_and_add(&val->faults, e->v.faults);
#if SS_NR_COUNTERS > 0
#pragma unroll
	for (int i = 0; i < SS_NR_COUNTERS; i++) {
		if (e->v.counters[i])
			__sync_fetch_and_add(&val->counters[i],
					     e->v.counters[i]);
		if (e->v.ctr_enabled_ns[i])
			__sync_fetch_and_add(&val->ctr_enabled_ns[i],
					     e->v.ctr_enabled_ns[i]);
		if (e->v.ctr_running_ns[i])
			__sync_fetch_and_add(&val->ctr_running_ns[i],
					     e->v.ctr_running_ns[i]);
	}
	if (e->v.counter_scaled & ~val->counter_scaled) {
#if SS_ATOMIC_OR
		__sync_fetch_and_or(&val->counter_scaled, e->v.counter_scaled);
#else
		val->counter_scaled |= e->v.counter_scaled;
#endif
	}
#endif
	if (e->v.counter_lost & ~val->counter_lost) {
#if SS_ATOMIC_OR
		__sync_fetch_and_or(&val->counter_lost, e->v.counter_lost);
#else
		val->counter_lost |= e->v.counter_lost;
#endif
	}
}

/* ss_row_cache_flush - every used entry of this CPU's table to its row. */
static __always_inline void ss_row_cache_flush(struct ss_cpu *cpu)
{
	__u64 used = cpu->rc_used;

	cpu->rc_used = 0;
	/* a bounded loop, not unrolled: 16 copies of the flush would double
	 * the start-up compile */
#pragma clang loop unroll(disable)
	for (__u32 i = 0; i < (1 << SS_ROW_CACHE_BITS); i++) {
		__u32 idx = i;
		struct ss_rc_ent *e;

		if (!(used & (1ULL << i)))
			continue;
		e = row_cache.lookup(&idx);
		if (e)
			ss_rc_flush(e);
	}
}

/* the thread's switch counts now (at a switch: after the kernel's add) */
static __always_inline void ss_rc_note_switch(struct ss_rc_ent *e, __u64 task)
{
#if SS_RAW_TP
	e->nvcsw = ss_prev_nvcsw(task);
	e->nivcsw = ss_prev_nivcsw(task);
	e->sw_ok = 1;
#endif
}

/*
 * ss_rc_slot - the current thread's slot in this CPU's table: the entry at
 * its index, with the thread's tag (@tag: tid + 1) and start time
 * (@start) for the caller to compare; NULL when the table is missing.
 * @task: the current task (struct ss_sw_ident in switch.bpf.c).
 */
static __always_inline struct ss_rc_ent *
ss_rc_slot(__u32 tid, __u64 *tag, __u64 *start, __u32 *idx, __u64 task)
{
	*tag = (__u64)tid + 1;
	*start = 0;
	SS_TASK_READ(*start, task, SS_IDENT_START);
	*idx = (__u32)((*tag * 0x9E3779B97F4A7C15ULL) >>
		       (64 - SS_ROW_CACHE_BITS));
	return row_cache.lookup(idx);
}

/*
 * ss_rc_kind - raw path: how the current thread's switch counts when its
 * switch-in was not seen (after a switch the kernel did not report): from
 * its nvcsw and nivcsw against their values at its last switch on this
 * CPU, kept in its row cache entry; exactly one of them moved by one.
 * Returns SS_SW_VOL or SS_SW_INVOL, or -1 when that cannot be told.
 */
static __always_inline int ss_rc_kind(__u32 tid, __u64 task)
{
#if SS_RAW_TP
	__u64 tag, start;
	__u32 idx;
	struct ss_rc_ent *e = ss_rc_slot(tid, &tag, &start, &idx, task);

	if (!e || e->task != tag || e->start != start || !e->sw_ok)
		return -1;
	__u64 dv = ss_prev_nvcsw(task) - e->nvcsw;
	__u64 di = ss_prev_nivcsw(task) - e->nivcsw;

	if (dv == 1 && di == 0)
		return SS_SW_VOL;
	if (di == 1 && dv == 0)
		return SS_SW_INVOL;
#endif
	return -1;
}

/*
 * ss_rc_val - the row cache entry of the current thread (tgid, tid) on
 * this CPU at @now (ns), charging @cpu's interval (@cgroup_id and
 * @group_leader: the thread's, from ss_ident_cgroup_id and
 * ss_ident_group_leader; @task: the current task, as ss_rc_slot): its own when it has one, else a new
 * one (the entry's last thread's charges go to their row first).  NULL
 * only if the table's lookup fails, which it cannot (a fallback to the row
 * itself was a second copy of ss_current_val in sched_switch).
 */
static __always_inline struct ss_val *ss_rc_val(struct ss_cpu *cpu, __u32 tgid,
						__u32 tid, __u64 now,
						__u64 cgroup_id,
						__u64 group_leader, __u64 task)
{
	__u64 tag, start, leader;
	__u32 idx;
	struct ss_rc_ent *e = ss_rc_slot(tid, &tag, &start, &idx, task);

	if (!e) /* never: the index is below the table's size */
		return NULL;
	/* -G: a thread moved to another cgroup charges that one's row now */
	if (e->task == tag && e->start == start && e->gen == cpu->accum_gen &&
	    (!SS_PER_CGROUP || e->key.cgroup_id == cgroup_id)) {
		if (SS_PER_THREAD || tid == tgid) /* renamed since */
			ss_ident_cur_comm_of(e->v.comm, task);
#if SS_TASK_CLOCK
		/* no clock read at every switch: seen_ns says since when
		 * the entry has had its cgroup (the latest wins at flush) */
		if (e->v.cgroup_id != cgroup_id) {
			e->v.cgroup_id = cgroup_id;
			e->seen_ns = bpf_ktime_get_ns();
		}
#else
		e->v.cgroup_id = cgroup_id; /* the row shows the latest */
		e->seen_ns = now;
#endif
		ss_rc_note_switch(e, task);
		return &e->v;
	}
	ss_rc_flush(e);
	cpu->rc_used |= 1ULL << (idx & 63);
	ss_ident_key_at(&e->key, tgid, tid, cgroup_id, group_leader, &leader);
	__builtin_memset(&e->v, 0, sizeof(e->v));
	ss_ident_comm(e->v.comm, tgid, tid, leader);
	e->v.cgroup_id = cgroup_id;
	e->start = start;
	e->gen = cpu->accum_gen;
	e->seen_ns = SS_TASK_CLOCK && !now ? bpf_ktime_get_ns() : now;
	e->task = tag;
	ss_rc_note_switch(e, task);
	return &e->v;
}
#endif

#endif
