// SPDX-License-Identifier: GPL-2.0
/* memkind.c - see memkind.h */
#include "memkind.h"

#define RECLAIM_FN "tracepoint__vmscan__mm_vmscan_"

/* ss_mem_kinds - see memkind.h */
const struct ss_mem_kind_def ss_mem_kinds[SS_MEM_NKINDS] = {
	[SS_MEM_K_PGALLOC] = {
		.macro = "SS_MEM_PGALLOC",
		.col = 1,
		.cat = "kmem",
		.tp = { "mm_page_alloc" },
		.fn = { "tracepoint__kmem__mm_page_alloc" },
	},
	[SS_MEM_K_RECLAIM] = {
		.macro = "SS_MEM_RECLAIM",
		.col = 2,
		.cat = "vmscan",
		.tp = { "mm_vmscan_direct_reclaim_begin",
			"mm_vmscan_direct_reclaim_end" },
		.fn = { RECLAIM_FN "direct_reclaim_begin",
			RECLAIM_FN "direct_reclaim_end" },
	},
	[SS_MEM_K_MEMCG_RECLAIM] = {
		.macro = "SS_MEM_MEMCG_RECLAIM",
		.col = 2,
		.cat = "vmscan",
		.tp = { "mm_vmscan_memcg_reclaim_begin",
			"mm_vmscan_memcg_reclaim_end" },
		.fn = { RECLAIM_FN "memcg_reclaim_begin",
			RECLAIM_FN "memcg_reclaim_end" },
	},
};
