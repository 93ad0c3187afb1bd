/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memkind.h - the tracepoint memory events of -M, one table: the -D macro
 * that compiles each in (probes/mem.bpf.h), the column it feeds, its
 * tracepoint (or begin/end pair) and their probe functions.  The page
 * faults are perf events (feat_mem.c), not in it.
 */
#ifndef SWITCHSTAT_MEMKIND_H
#define SWITCHSTAT_MEMKIND_H

enum ss_mem_kind {
	SS_MEM_K_PGALLOC, /* kmem:mm_page_alloc */
	SS_MEM_K_RECLAIM, /* vmscan: direct reclaim begin/end */
	SS_MEM_K_MEMCG_RECLAIM, /* vmscan: memcg reclaim begin/end */
	SS_MEM_NKINDS
};

struct ss_mem_kind_def {
	const char *macro; /* -D`macro`=1 compiles it in */
	int col; /* column: 1 page allocations, 2 reclaim (0 is faults) */
	const char *cat; /* tracepoint category */
	const char *tp[2]; /* the tracepoint, or begin and end */
	const char *fn[2]; /* their TRACEPOINT_PROBE function names */
};

/* The table, in enum ss_mem_kind order. */
extern const struct ss_mem_kind_def ss_mem_kinds[SS_MEM_NKINDS];

#endif
