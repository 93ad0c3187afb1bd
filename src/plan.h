/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plan.h - what one run does, decided once before the probes are
 * compiled: the tracepoint path, the clocks, which probe parts are
 * compiled in, their map sizes, and when sched_exit_tp is attached.
 *
 * ss_plan_decide makes it from the options, the kernel's facts
 * (kfacts.h) and the test seams, and nothing else: no I/O, so the unit
 * tests (tests/unit/features/) check it for a table of kernels and
 * options.  ss_plan_cflags writes the probes' -D cflags from it: the one
 * place they are written.  Then it is read-only (app->plan is const):
 * features read it; the kernel handle reads its mode.
 */
#ifndef SWITCHSTAT_PLAN_H
#define SWITCHSTAT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf_host.h"
#include "kfacts.h"
#include "memkind.h"
#include "options.h"
#include "testseam.h"

#define SS_MAX_CFLAGS 96

/* The -D cflags the probes are compiled with, in writing order. */
struct ss_cflags {
	const char *v[SS_MAX_CFLAGS];
	char buf[SS_MAX_CFLAGS][64];
	int n;
};

/* The sched tracepoint path and the clocks (feat_path.c). */
struct ss_plan_path {
	struct ss_bpf_mode mode; /* raw_sched, tp_btf, keep_btf */
	char why[256]; /* the regular path: why not raw (-v) */
	int nargs; /* raw: sched_switch's arguments the probe takes: 4
		    * (prev_state in args[3]) or 3 (prev_state from prev) */
	bool state_forced; /* 3 on a 4-argument kernel (seam) */
	bool kclock; /* raw: slices after an unreported switch are charged
		      * from the kernel's clock (SS_KCLOCK) */
	bool task_clock; /* raw, tp_btf, kclock: rows' on-CPU time is the
			  * kernel's clock, se.sum_exec_runtime */
	bool kexcl; /* ... and what it leaves out is read (--check) */
	const char *kexcl_what; /* "irq", "steal", "irq+steal"; "" none */
	bool whole_slices; /* a feature needs every slice's start:
			    * counters, faults, histograms, blame, trace,
			    * off-CPU spans */
	bool exit_tp_avail; /* raw: the kernel has sched_exit_tp, not
			     * refused by a seam */
	bool exit_tp_prog; /* ... its program compiled in (SS_EXIT_TP) */
	bool exit_tp_now; /* ... attached at start-up, else once the
			   * kernel is seen hiding a switch */
};

/* Rows: switch accounting and identity (feat_core.c, feat_identity.c). */
struct ss_plan_rows {
	uint32_t map_entries; /* accumulator map size */
	bool per_thread, per_cgroup; /* -L, -G: the row key */
	bool filter_tgid, filter_tid, filter_list; /* -p, -t, lists */
	bool cgroup_filter; /* --cgroup below the root */
	bool accum_gens; /* two accumulator maps, flipped at the interval
			  * edges (feat_checkpoints.c); not --trace */
	bool ident_btf; /* rows keyed by start time, named by the leader */
	char ident_why[192]; /* ... why not (-v) */
	bool cg_btf; /* the cgroup id read in place */
	bool task_btf_ptr; /* bpf_get_current_task_btf */
	bool row_cache; /* the per-CPU row cache (16 entries a CPU) */
	bool verifier_fail; /* seam: a program the verifier rejects */
};

/* Perf counters read at each switch (feat_counters.c). */
struct ss_plan_ctr {
	int nr; /* 0: no counter code */
	uint64_t times; /* bit i: counter i read with its times */
	bool atomic_or;
};

/* Histograms (feat_hist.c). */
struct ss_plan_hist {
	unsigned int kinds; /* enum ss_hist_kind mask; 0: off */
	int per; /* how the probes key them: 0 global, 1 process,
		  * 2 thread, 3 cgroup (SS_HIST_PER) */
	int shown_per; /* ... and how they are shown (-P, -L, -G) */
	bool by_cgroup; /* the key holds the cgroup (-G, --listen) */
	uint32_t entries; /* hist map size */
	unsigned int unit_ns; /* slot unit: 1000 (us) or 1000000 (-m) */
};

/* -M (feat_mem.c). */
struct ss_plan_mem {
	bool on; /* -M */
	bool faults; /* page-fault deltas per slice */
	bool kind[SS_MEM_NKINDS]; /* each tracepoint event compiled in */
	bool na[3]; /* columns faults, pgalloc, reclaim: n/a */
};

/* --blame (feat_blame.c). */
struct ss_plan_blame {
	bool on;
	int by; /* 0 process, 1 thread, 2 cgroup */
	uint32_t ring, entries; /* slices per CPU, pairs per interval */
	bool task_storage; /* waits in task local storage, else by tid */
	bool kq; /* waits from the kernel's sched_info.run_delay, else
		  * timed from sched_wakeup (blame.bpf.h SS_BLAME_KQ) */
};

/* --offcpu, and the spans --wakers and --stacks use (feat_offcpu.c). */
struct ss_plan_off {
	bool on;
	bool iowait; /* in_iowait read: I/O waits apart from D */
	bool ksum; /* an unseen switch-in ends the span at the arrival */
	uint64_t miss_arrive; /* seam: every Nth switch-in unseen; 0 */
};

/* --wakers, --stacks, --trace. */
struct ss_plan_extra {
	bool wakers;
	uint32_t wakers_entries;
	bool stacks;
	uint32_t stacks_entries, stack_traces;
	bool stacks_kernel, stacks_user, stacks_per_thread, stacks_wakers;
	bool trace;
};

struct ss_plan {
	struct ss_kfacts k; /* the facts it was made from */
	struct ss_plan_path path;
	struct ss_plan_rows rows;
	struct ss_plan_ctr ctr;
	struct ss_plan_hist hist;
	struct ss_plan_mem mem;
	struct ss_plan_blame blame;
	struct ss_plan_off off;
	struct ss_plan_extra x;
	bool need_exit; /* sched_process_exit's probe: hist waits,
			 * reclaim, blame by tid */
	bool need_wakeup; /* sched_wakeup(_new): hist runq, blame */
	bool need_migrate; /* sched_migrate_task: blame */
};

/*
 * ss_plan_decide - make @p from options @o, the kernel's facts @k and the
 * test seams @t (NULL: none).  Pure.  Returns 0, or 1 (this kernel cannot
 * do what @o asks: --wakers without the raw tracepoints, --blame or
 * --hist runq without their tracepoints) with one line in @err (@len
 * bytes).
 */
int ss_plan_decide(struct ss_plan *p, const struct ss_opts *o,
		   const struct ss_kfacts *k, const struct ss_seams *t,
		   char *err, size_t len);

/*
 * ss_plan_cflags - write the probes' -D cflags of @p into @c (emptied
 * first): "-DNAME=VALUE", numbers only.  The order is the compiled-BPF
 * cache's key (bpf_cache.h), so it is fixed.  Returns 0, or -1 when they
 * do not fit (SS_MAX_CFLAGS, or a value too long).
 */
int ss_plan_cflags(const struct ss_plan *p, struct ss_cflags *c);

#endif
