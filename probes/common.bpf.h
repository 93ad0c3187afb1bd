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

#endif
