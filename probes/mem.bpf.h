/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.bpf.h - the --cgroup filter and the memory events of -M.
 *
 * Settings (numeric -D macros from src/feat_mem.c):
 *   SS_FILTER_CGROUP      1: only tasks whose cgroup v2 id is in cgroup_allow
 *   SS_CGROUP_IDS         size of cgroup_allow (the ids of --cgroup PATH and
 *                         its descendants, filled by the host before attach)
 *   SS_MEM_FAULTS         1: count exceptions:page_fault_user
 *   SS_MEM_PGALLOC        1: count pages from kmem:mm_page_alloc (1 << order)
 *   SS_MEM_RECLAIM        1: time vmscan:mm_vmscan_direct_reclaim_begin/_end
 *   SS_MEM_MEMCG_RECLAIM  1: time vmscan:mm_vmscan_memcg_reclaim_begin/_end
 *                         (reclaim a task does itself when its memory cgroup
 *                         is at its limit: direct reclaim scoped to a cgroup)
 * Each memory tracepoint is compiled in only when the running kernel has it.
 * Events are charged to the current task (bpf_get_current_pid_tgid), in the
 * same accumulator entry as its switches, honoring -p/-t/--cgroup; events on
 * a CPU's idle task (pid 0, e.g. allocations in interrupts) are not counted.
 */
#ifndef SS_FILTER_CGROUP
#define SS_FILTER_CGROUP 0
#endif
#ifndef SS_CGROUP_IDS
#define SS_CGROUP_IDS 1
#endif
#ifndef SS_MEM_FAULTS
#define SS_MEM_FAULTS 0
#endif
#ifndef SS_MEM_PGALLOC
#define SS_MEM_PGALLOC 0
#endif
#ifndef SS_MEM_RECLAIM
#define SS_MEM_RECLAIM 0
#endif
#ifndef SS_MEM_MEMCG_RECLAIM
#define SS_MEM_MEMCG_RECLAIM 0
#endif

#if SS_FILTER_CGROUP
/* cgroup v2 ids selected by --cgroup; the value is unused */
BPF_HASH(cgroup_allow, __u64, __u8, SS_CGROUP_IDS);

/* per CPU: the last cgroup id looked up and its answer */
struct ss_cgroup_last {
	__u64 id;
	__u64 selected;
};
BPF_PERCPU_ARRAY(cgroup_last, struct ss_cgroup_last, 1);

/*
 * 0 if the current task is outside the --cgroup filter, else 1.  The set of
 * ids is fixed before the probes attach and cgroup ids are not reused, so
 * the last answer on this CPU stays right for the same id: consecutive
 * tasks of one cgroup skip the hash lookup.
 */
static __always_inline int ss_cgroup_selected(void)
{
	__u64 id = bpf_get_current_cgroup_id();
	__u32 zero = 0;
	struct ss_cgroup_last *last = cgroup_last.lookup(&zero);
	int selected;

	if (last && last->id == id)
		return last->selected;
	selected = cgroup_allow.lookup(&id) != NULL;
	if (last) {
		last->id = id;
		last->selected = selected;
	}
	return selected;
}
#else
static __always_inline int ss_cgroup_selected(void)
{
	return 1;
}
#endif

#if SS_MEM_FAULTS || SS_MEM_PGALLOC || SS_MEM_RECLAIM || SS_MEM_MEMCG_RECLAIM
/* The current task's accumulator if it passes the filters, else NULL. */
static __always_inline struct ss_val *ss_mem_val(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;

	if (tid == 0 || !ss_selected(tgid, tid) || !ss_cgroup_selected())
		return NULL;
	return ss_current_val(tgid, tid);
}
#endif

#if SS_MEM_FAULTS
/* One user-mode page fault (x86): what the kernel counts as a min/maj flt. */
TRACEPOINT_PROBE(exceptions, page_fault_user)
{
	struct ss_val *val = ss_mem_val();

	if (val)
		__sync_fetch_and_add(&val->faults, 1);
	return 0;
}
#endif

#if SS_MEM_PGALLOC
/* One allocation of 2^order pages (format: kmem/mm_page_alloc "order"). */
TRACEPOINT_PROBE(kmem, mm_page_alloc)
{
	struct ss_val *val = ss_mem_val();

	if (val)
		__sync_fetch_and_add(&val->pgalloc, 1ULL << (args->order & 31));
	return 0;
}
#endif

#if SS_MEM_RECLAIM || SS_MEM_MEMCG_RECLAIM
/*
 * Start of a reclaim in progress, keyed by tid | kind << 32 (kind 0: global
 * direct reclaim, 1: memory cgroup limit reclaim), deleted at its end and
 * when the thread exits.
 */
BPF_HASH(reclaim_start, __u64, __u64, SS_MAP_ENTRIES);

static __always_inline void ss_reclaim_begin(__u64 kind)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;
	__u64 key = tid | kind << 32, now;

	if (tid == 0 || !ss_selected(tgid, tid) || !ss_cgroup_selected())
		return;
	now = bpf_ktime_get_ns();
	if (reclaim_start.update(&key, &now))
		stat_add(SS_STAT_DROPS, 1);
}

/* End of a reclaim: one more, and its length in ns, if its start was seen. */
static __always_inline void ss_reclaim_end(__u64 kind)
{
	__u64 key = (__u32)bpf_get_current_pid_tgid() | kind << 32;
	__u64 *start = reclaim_start.lookup(&key);
	__u64 now = bpf_ktime_get_ns(), begin;
	struct ss_val *val;

	if (!start)
		return;
	begin = *start;
	reclaim_start.delete(&key);
	val = ss_mem_val();
	if (!val || now < begin)
		return;
	__sync_fetch_and_add(&val->reclaim_count, 1);
	__sync_fetch_and_add(&val->reclaim_ns, now - begin);
}

/* A thread exited: drop the starts it left (both kinds). */
static __always_inline void ss_mem_exit(__u32 tid)
{
	__u64 k0 = tid, k1 = k0 | 1ULL << 32;

	reclaim_start.delete(&k0);
	reclaim_start.delete(&k1);
}

#define SS_MEM_EXIT(tid) ss_mem_exit(tid)
#else
/* SS_MEM_EXIT(tid): a thread exited, drop its per-thread state. */
#define SS_MEM_EXIT(tid) \
	do {             \
	} while (0)
#endif

#if SS_MEM_RECLAIM
TRACEPOINT_PROBE(vmscan, mm_vmscan_direct_reclaim_begin)
{
	ss_reclaim_begin(0);
	return 0;
}

TRACEPOINT_PROBE(vmscan, mm_vmscan_direct_reclaim_end)
{
	ss_reclaim_end(0);
	return 0;
}
#endif

#if SS_MEM_MEMCG_RECLAIM
TRACEPOINT_PROBE(vmscan, mm_vmscan_memcg_reclaim_begin)
{
	ss_reclaim_begin(1);
	return 0;
}

TRACEPOINT_PROBE(vmscan, mm_vmscan_memcg_reclaim_end)
{
	ss_reclaim_end(1);
	return 0;
}
#endif
