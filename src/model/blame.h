/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame.h - run-queue blame rows on the host side (--blame): one
 * (victim, culprit, delay) per blame map entry, the victims' totals, the
 * sort and the per-culprit view.  Pure logic, unit-tested.
 */
#ifndef SWITCHSTAT_BLAME_H
#define SWITCHSTAT_BLAME_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/shared.h"
#include "probes/blame_shared.h"
#include "probes/preempt_shared.h"

/* One victim/culprit pair of an interval. */
struct ss_blame_row {
	struct ss_blame_key key;
	/*
	 * the map's value: delay_ns, the victim's wait while the culprit
	 * ran; the names the probe saw (victim_comm, culprit_comm)
	 */
	struct ss_blame_val v;
	uint64_t victim_total_ns; /* all of the victim's wait (every culprit) */
	uint32_t victims; /* per-culprit view: distinct victims */
};

/*
 * ss_blame_finish - fill victim_total_ns of every row (the sum of v.delay_ns
 * over rows with the same victim), then sort by delay_ns descending (ties:
 * victim, then culprit ascending, so the order is stable across runs).
 */
void ss_blame_finish(struct ss_blame_row *rows, size_t n);

/*
 * ss_blame_by_culprit - the per-culprit view: rows summed over victims into
 * out (victim fields zero, victims = distinct victims, victim_total_ns =
 * delay_ns), sorted by delay_ns descending.  out holds at least n rows.
 * Returns the number of culprits.
 */
size_t ss_blame_by_culprit(const struct ss_blame_row *rows, size_t n,
			   struct ss_blame_row *out);

/*
 * ss_blame_pct - delay as a percentage of the victim's whole wait;
 * 0 when the total is 0.
 */
double ss_blame_pct(const struct ss_blame_row *r);

/*
 * ss_blame_noisy - the noisy-neighbours view: the rows whose culprit is
 * another task or cgroup (not the victim itself, (idle) or (unknown))
 * copied into @out (at least @n rows), victim_total_ns set to what all
 * others caused the victim; ordered by that descending, then victim, then
 * delay descending, so each victim's culprits follow it, the worst first.
 * Returns the number of rows in @out.
 */
size_t ss_blame_noisy(const struct ss_blame_row *rows, size_t n,
		      struct ss_blame_row *out);

/* One (victim, preemptor) pair of an interval: the preempt map's entry. */
struct ss_preempt_row {
	struct ss_blame_key key; /* culprit_*: the preemptor */
	struct ss_preempt_val v;
};

/*
 * ss_preempt_sort - order by count descending (ties: victim, then
 * preemptor ascending, as ss_blame_finish).
 */
void ss_preempt_sort(struct ss_preempt_row *rows, size_t n);

/* ss_blame_culprit_label - "(idle)" or "(unknown)"; NULL for a task. */
const char *ss_blame_culprit_label(const struct ss_blame_key *k);

#endif
