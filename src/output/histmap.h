/* SPDX-License-Identifier: GPL-2.0 */
/*
 * histmap.h - one interval's histograms as drained from the BPF `hist` map
 * (key: kind and process/thread, value: comm and log2 slot counts), sorted
 * and printed through the emitter: text (bcc's print_log2_hist layout) in
 * the table format, one record per non-empty slot in the others.
 */
#ifndef SWITCHSTAT_HISTMAP_H
#define SWITCHSTAT_HISTMAP_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "probes/shared.h"
#include "probes/hist_shared.h"

/* One histogram as read from the map. */
struct ss_hist_rec {
	struct ss_hist_key key;
	struct ss_hist_val val;
};

struct ss_cgroup_cache;

/* How to print: matches the BPF -D settings of feat_hist.c. */
struct ss_hist_fmt {
	/*
	 * 0: one histogram, 1: per process (-P), 2: per thread (-L), 3: per
	 * cgroup (-G)
	 */
	int per;
	struct ss_cgroup_cache *cg; /* per cgroup: names; NULL: ids */
	bool ms; /* slots count msecs (-m), else usecs */
	unsigned int top; /* at most this many histograms per kind; 0: all */
	double time_s; /* CSV/JSON `time`: wall clock at the interval's end, s */
	uint64_t realtime_ns; /* the same in ns, for the table's HH:MM:SS */
	bool timestamp; /* table: HH:MM:SS line first (-T with -H) */
	bool alone; /* histograms are the whole output (-H) */
};

/*
 * ss_hist_cpu_delta - one histogram per kind from the per-CPU hist_cpu
 * values (@ncpus of them, cumulative since start): for each kind k whose
 * bit (1 << k) is in @kinds, sum the slots over CPUs, subtract @prev[k]
 * (the sums last time, then updated) and append a record with key.kind = k
 * to @out.  Returns the number of records written (at most SS_HK_MAX).
 */
int ss_hist_cpu_delta(const struct ss_hist_cpu *cpus, int ncpus,
		      uint64_t prev[SS_HK_MAX][SS_HIST_SLOTS],
		      unsigned int kinds, struct ss_hist_rec *out);

/* ss_hist_kind_name - CSV/JSON name of a kind: oncpu, offcpu, runq ("?"). */
const char *ss_hist_kind_name(unsigned int kind);

/* ss_hist_total - sum of the slot counts of one histogram. */
uint64_t ss_hist_total(const struct ss_hist_val *v);

/*
 * ss_hist_slot_bounds - low and high value (in the histogram's unit) of
 * slot i, as print_log2_hist prints them: slot 0 is 0..1, slot k is
 * 2^k..2^(k+1)-1.  i must be < 64.
 */
void ss_hist_slot_bounds(unsigned int i, uint64_t *low, uint64_t *high);

/*
 * ss_histmap_sort - order records by kind (oncpu, offcpu, runq), then
 * total count descending, then tgid, tid and cgroup id ascending.
 */
void ss_histmap_sort(struct ss_hist_rec *r, size_t n);

/*
 * ss_histmap_merge - sum the records that are one histogram when shown
 * @per (ss_hist_fmt.per) ways: 0, one per kind; 1, per kind and process
 * (tgid, start_ns); 2, per kind and thread (tid too); 3, per kind and
 * cgroup id.  The probes may keep finer keys (the cgroup for the
 * exporter, -P's process for -G).  @r is reordered; the merged records are
 * r[0 .. returned count), sorted as ss_histmap_sort sorts.
 */
size_t ss_histmap_merge(struct ss_hist_rec *r, size_t n, int per);

/*
 * ss_histmap_text - the table format: sorted records as text: per kind a
 * title line ("on-CPU time:", "off-CPU time:", "run-queue latency:"), then
 * for each histogram (at most fmt->top per kind) an optional "pid = N
 * comm" / "tid = N comm" / "cgroup = PATH" line (a container's short id
 * for the runtimes' layouts, as the -G table shows it; the id when the
 * cgroup is gone) and ss_print_log2_hist() with "usecs" or
 * "msecs", and a blank line after each kind.  Empty histograms are skipped.
 */
void ss_histmap_text(struct ss_emit *e, const struct ss_hist_rec *r, size_t n,
		     const struct ss_hist_fmt *fmt);

/*
 * ss_histmap_header - the header record of the slot records (CSV:
 * time,kind,unit,pid,tid,comm,low,high,count; per cgroup
 * time,kind,unit,cgroup_id,cgroup,low,high,count) when the format wants
 * one.
 */
void ss_histmap_header(struct ss_emit *e, const struct ss_hist_fmt *fmt);

/*
 * ss_histmap_records - one record (type "hist") per non-empty slot: time,
 * kind, unit ("usecs" or "msecs"), pid (null for the one-histogram mode),
 * tid (null unless per thread), comm (null when neither), low, high (in
 * the unit), count; per cgroup cgroup_id and cgroup (its path, the id when
 * gone) instead of pid, tid and comm.  No header.  Returns the records
 * written.
 */
size_t ss_histmap_records(struct ss_emit *e, const struct ss_hist_rec *r,
			  size_t n, const struct ss_hist_fmt *fmt);

/*
 * ss_histmap_print - one interval's histograms on @e: in the table format
 * ss_histmap_text (after an HH:MM:SS line with fmt->timestamp); else the
 * slot records, with their header once when they are the whole output
 * (fmt->alone), else each interval as a block: a blank line, the header,
 * the records, a blank line (nothing when there are none).
 */
void ss_histmap_print(struct ss_emit *e, const struct ss_hist_rec *r, size_t n,
		      const struct ss_hist_fmt *fmt);

#endif
