/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.bpf.h - maps and helpers every probe uses.
 *
 * Host-chosen settings arrive only as numeric -D macros (never user strings):
 *   SS_MAP_ENTRIES   size of the per-interval accumulator map
 *   SS_PER_THREAD    1: key rows by thread (tid) as well as tgid
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

BPF_HASH(accum, struct ss_key, struct ss_val, SS_MAP_ENTRIES);
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

	ss_ident_key(&key, tgid, tid, cgroup_id, &leader);
	val = accum.lookup(&key);
	if (val) {
		val->cgroup_id = cgroup_id;
		if (SS_PER_THREAD || tid == tgid)
			ss_ident_cur_comm(val->comm);
		return val;
	}

	struct ss_val init = {};

	ss_ident_comm(init.comm, tgid, tid, leader);
	init.cgroup_id = cgroup_id;
	val = accum.lookup_or_try_init(&key, &init);
	if (!val)
		stat_add(SS_STAT_DROPS, 1);
	return val;
}

#endif
