/* SPDX-License-Identifier: GPL-2.0 */
/* rows.h - one interval's rows on the host side: storage, sorting, totals. */
#ifndef SWITCHSTAT_ROWS_H
#define SWITCHSTAT_ROWS_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "probes/offcpu_shared.h"
#include "probes/shared.h"

/* One row: a process (tid 0), a thread (-L) or a cgroup (-G). */
struct ss_row {
	struct ss_key key;
	struct ss_val v;
	/* --offcpu: off-CPU ns per enum ss_off_reason (host side only) */
	uint64_t off_ns[SS_OFF_MAX];
};

/* One interval's data as read from the maps. */
struct ss_interval {
	struct ss_row *rows;
	size_t n, cap;
	uint64_t stats[SS_STAT_MAX]; /* summed over CPUs, this interval */
	uint64_t interval_ns; /* measured length of this interval */
	/*
	 * the CPUs' own spans between their interval edges, summed (ns;
	 * 0: not known, a CPU missed an edge): the CPU time the probes'
	 * data covers, however late an edge's IPI ran on a CPU
	 */
	uint64_t edge_span_ns;
	uint64_t end_realtime_ns; /* wall clock at the end, for `time` */
	int ncpus; /* online CPUs, for the closure */
	int ncpus_possible; /* size of idle_ns */
	uint64_t *idle_ns; /* per possible CPU: idle task on-CPU ns */
};

/* ss_rows_push - append a row; returns 0 or -ENOMEM. */
int ss_rows_push(struct ss_interval *iv, const struct ss_key *key,
		 const struct ss_val *val);

/* ss_rows_reset - forget the rows and stats, keep the allocation. */
void ss_rows_reset(struct ss_interval *iv);

/* ss_rows_free - release the row storage. */
void ss_rows_free(struct ss_interval *iv);

/*
 * ss_rows_scale_counters - turn each row's counter sums into its counts
 * over the interval, once all rows that are summed have been (after
 * ss_rows_merge_by_cgroup): counter i in @timed, read with its times, gets
 * ss_counter_estimate() of its raw sum and summed enabled/running times,
 * bit i of counter_scaled set iff that is an estimate (SS_CTR_SCALED), 0
 * if it never ran (SS_CTR_NOT_COUNTED: ctr_running_ns[i] stays 0, which
 * is how the output tells it); the times are kept for the running
 * fraction. Counters not in @timed are left as they are.
 */
void ss_rows_scale_counters(struct ss_interval *iv, int nr_counters,
			    uint64_t timed);

/*
 * ss_rows_coalesce - rows from index @first_extra on were added for
 * the same interval from another map (--offcpu): merge every group of
 * rows with equal keys into one, sums added; the name and cgroup are
 * those of a row that ran (on-CPU time or switches) if any.  Row order is
 * not kept (sort afterwards).
 */
void ss_rows_coalesce(struct ss_interval *iv, size_t first_extra);

/* ss_row_offcpu - the row's off-CPU ns, all reasons. */
static inline uint64_t ss_row_offcpu(const struct ss_row *r)
{
	uint64_t s = 0;

	for (int i = 0; i < SS_OFF_MAX; i++)
		s += r->off_ns[i];
	return s;
}

/*
 * ss_rows_merge_by_cgroup - collapse rows into one row per cgroup id (-G):
 * all numeric fields summed, key.tgid = key.tid = 0, comm cleared.
 */
void ss_rows_merge_by_cgroup(struct ss_interval *iv);

/*
 * ss_rows_merge_by_process - collapse thread rows (-L) into one row per
 * tgid: numeric fields summed, key.tid = 0; comm, cgroup and start time
 * are the leader's (tid == tgid) when it has a row, else the lowest tid's.
 * The --top view's "threads off" on a run started with -L.
 */
void ss_rows_merge_by_process(struct ss_interval *iv);

/*
 * ss_rows_sort - sort rows by key, descending for counts and times (ties:
 * on-CPU time, then switches, then ascending tgid/tid), ascending for pid.
 */
void ss_rows_sort(struct ss_interval *iv, enum ss_sort_key key);

/* ss_row_switches - voluntary + involuntary switches of a row. */
static inline uint64_t ss_row_switches(const struct ss_row *r)
{
	return r->v.voluntary + r->v.involuntary;
}

/*
 * ss_cpu_pct - on-CPU time as a percentage of one CPU over the interval
 * (like top and pidstat: a process on 4 CPUs shows 400).  0 if interval is 0.
 */
double ss_cpu_pct(uint64_t oncpu_ns, uint64_t interval_ns);

/*
 * ss_per_second - @count events over @interval_ns as a rate per second
 * (pidstat -w's cswch/s and nvcswch/s).  0 if interval is 0.
 */
double ss_per_second(uint64_t count, uint64_t interval_ns);

/* ss_rows_oncpu_total - sum of on-CPU ns over all rows (for --check). */
uint64_t ss_rows_oncpu_total(const struct ss_interval *iv);

#endif
