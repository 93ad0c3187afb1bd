/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_stats.h - this interval's probe statistics (enum ss_stat) from the
 * cumulative per-CPU counts in struct ss_cpu (the cpu_state map).
 */
#ifndef SWITCHSTAT_CPU_STATS_H
#define SWITCHSTAT_CPU_STATS_H

#include <linux/types.h>
#include <stdint.h>

#include "probes/shared.h"

/*
 * ss_cpu_stats_delta - for each stat s, out[s] = the sum over the @ncpus
 * CPUs of cpus[cpu].stats[s] - prev[s * ncpus + cpu]; idle_ns[cpu] (for
 * cpu < nidle) = that CPU's SS_STAT_IDLE_NS delta.  Then prev (laid out
 * [SS_STAT_MAX][ncpus]) takes the current counts.  out and idle_ns may be
 * NULL (only prev is set: the baseline).  Counts wrap modulo 2^64.
 */
void ss_cpu_stats_delta(const struct ss_cpu *cpus, int ncpus, uint64_t *prev,
			uint64_t out[SS_STAT_MAX], uint64_t *idle_ns,
			int nidle);

#endif
