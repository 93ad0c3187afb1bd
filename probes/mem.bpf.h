/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.bpf.h - the memory events of -M.
 *
 * Settings (numeric -D macros from src/features/feat_mem.c):
 *   SS_MEM_FAULTS         1: count page faults per slice from the
 *                         page-faults-min and page-faults-maj software
 *                         perf events of each CPU (maps flt_min, flt_maj)
 *   SS_MEM_NR_CPUS        possible CPUs: size of flt_min and flt_maj
 *   SS_MEM_PGALLOC        1: count pages from kmem:mm_page_alloc (1 << order)
 *   SS_MEM_RECLAIM        1: time vmscan:mm_vmscan_direct_reclaim_begin/_end
 *   SS_MEM_MEMCG_RECLAIM  1: time vmscan:mm_vmscan_memcg_reclaim_begin/_end
 *                         (reclaim a task does itself when its memory cgroup
 *                         is at its limit: direct reclaim scoped to a cgroup)
 * Each memory tracepoint is compiled in only when the running kernel has it.
 * Events are charged to the current task (bpf_get_current_pid_tgid), in the
 * same accumulator entry as its switches, honoring -p/-t/--cgroup; events on
 * a CPU's idle task (pid 0, e.g. allocations in interrupts) are not counted.
 *
 * Page faults are counted like the perf counters (counters.bpf.h): the
 * kernel's mm_account_fault() adds each successful fault to the task's
 * min_flt or maj_flt (what /proc/PID/stat and getrusage show) and emits the
 * page-faults-min or -maj software event on the CPU, for faults taken in
 * user mode and in kernel mode on user memory (copy_to_user into fresh
 * pages) alike, on every architecture.  The sum of both events on this CPU
 * is read at each switch and checkpoint; the difference since the previous
 * reading is the slice's faults, charged with its on-CPU time.  The one
 * exception: faults made by get_user_pages() with no user context (mlock,
 * MAP_POPULATE, process_vm_readv, ptrace) count in min_flt but emit no
 * event, so they are not counted here.
 */
#ifndef SWITCHSTAT_MEM_BPF_H
#define SWITCHSTAT_MEM_BPF_H

#include "common.bpf.h"
#include "select.bpf.h"
#include "shared.h"

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

#if SS_MEM_PGALLOC || SS_MEM_RECLAIM || SS_MEM_MEMCG_RECLAIM
/* The current task's accumulator if it passes the filters, else NULL. */
static __always_inline struct ss_val *ss_mem_val(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = id >> 32;

	if (tid == 0 || !ss_task_selected(tgid, tid))
		return NULL;
	return ss_current_val(tgid, tid);
}
#endif

#ifndef SS_MEM_NR_CPUS
#define SS_MEM_NR_CPUS 1
#endif

#if SS_MEM_FAULTS
BPF_PERF_ARRAY(flt_min, SS_MEM_NR_CPUS);
BPF_PERF_ARRAY(flt_maj, SS_MEM_NR_CPUS);

/*
 * Read this CPU's fault events and leave the faults since the previous
 * reading in cpu->flt_delta (0 when there is no previous reading, a read
 * failed or a value went back: then the next reading is a new baseline).
 */
static __always_inline void ss_mem_switch(struct ss_cpu *cpu)
{
	__s64 min = flt_min.perf_read(CUR_CPU_IDENTIFIER);
	__s64 maj = flt_maj.perf_read(CUR_CPU_IDENTIFIER);
	__u64 sum = (__u64)min + (__u64)maj;

	cpu->flt_delta = 0;
	cpu->flt_lost = 0;
	if (cpu->ctr_off) {
		/* off since the CPU went down (hotplug.bpf.h): not counted */
		cpu->flt_lost = 1;
		cpu->flt_have_prev = 0;
		cpu->flt_rebase = 1;
		return;
	}
	if (min < 0 || maj < 0) {
		cpu->flt_have_prev = 0;
		ss_cpu_stat_add(cpu, SS_STAT_FLT_SKIPPED, 1);
		return;
	}
	if (cpu->flt_have_prev && sum >= cpu->flt_prev) {
		cpu->flt_delta = sum - cpu->flt_prev;
	} else {
		ss_cpu_stat_add(cpu, SS_STAT_FLT_SKIPPED, 1);
		/* after a reopening: the slice ran on the old, off events */
		cpu->flt_lost = cpu->flt_rebase;
	}
	cpu->flt_rebase = 0;
	cpu->flt_prev = sum;
	cpu->flt_have_prev = 1;
}

/* Charge the slice's faults (ss_mem_switch) to its row. */
static __always_inline void ss_mem_charge(struct ss_cpu *cpu,
					  struct ss_val *val)
{
	if (cpu->flt_delta)
		__sync_fetch_and_add(&val->faults, cpu->flt_delta);
	if (cpu->flt_lost && !(val->counter_lost & SS_LOST_FAULTS)) {
#if SS_ATOMIC_OR
		__sync_fetch_and_or(&val->counter_lost, SS_LOST_FAULTS);
#else
		val->counter_lost |= SS_LOST_FAULTS;
#endif
	}
}

#define SS_MEM_SWITCH(cpu) ss_mem_switch(cpu)
#define SS_MEM_CHARGE(cpu, val) ss_mem_charge(cpu, val)
#else
/* SS_MEM_SWITCH(cpu), SS_MEM_CHARGE(cpu, val): faults per slice (above) */
#define SS_MEM_SWITCH(cpu) \
	do {               \
	} while (0)
#define SS_MEM_CHARGE(cpu, val) \
	do {                    \
	} while (0)
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

	if (tid == 0 || !ss_task_selected(tgid, tid))
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

#endif
