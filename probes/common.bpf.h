/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.bpf.h - maps and helpers every probe uses.  Embedded after shared.h.
 *
 * Host-chosen settings arrive only as numeric -D macros (never user strings):
 *   SS_MAP_ENTRIES   size of the per-interval accumulator map
 *   SS_PER_THREAD    1: key rows by thread (tid) as well as tgid
 *   SS_FILTER_TGID   >0: only this process (all its threads)
 *   SS_FILTER_TID    >0: only this thread
 */
#include <uapi/linux/ptrace.h>

#ifndef SS_MAP_ENTRIES
#define SS_MAP_ENTRIES 32768
#endif
#ifndef SS_PER_THREAD
#define SS_PER_THREAD 0
#endif
#ifndef SS_FILTER_TGID
#define SS_FILTER_TGID 0
#endif
#ifndef SS_FILTER_TID
#define SS_FILTER_TID 0
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

/* Does the current task pass the -p / -t filter? */
static __always_inline int ss_selected(__u32 tgid, __u32 tid)
{
	if (SS_FILTER_TGID && tgid != SS_FILTER_TGID)
		return 0;
	if (SS_FILTER_TID && tid != SS_FILTER_TID)
		return 0;
	return 1;
}

/* The current task's accumulator, created on first use this interval. */
static __always_inline struct ss_val *ss_current_val(__u32 tgid, __u32 tid)
{
	struct ss_key key = { .tgid = tgid, .tid = SS_PER_THREAD ? tid : 0 };
	struct ss_val *val = accum.lookup(&key);

	if (val)
		return val;

	struct ss_val zero = {};

	bpf_get_current_comm(&zero.comm, sizeof(zero.comm));
	zero.cgroup_id = bpf_get_current_cgroup_id();
	/* Another CPU may insert first: then the lookup still finds it. */
	accum.insert(&key, &zero);
	val = accum.lookup(&key);
	if (!val)
		stat_add(SS_STAT_DROPS, 1);
	return val;
}
