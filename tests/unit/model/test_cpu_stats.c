// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/model/cpu_stats.c: one interval's probe statistics from
 * the cumulative per-CPU counts of the cpu_state map.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cpu_stats.h"

#define NCPU 3

static struct ss_cpu cpus[NCPU];
static uint64_t prev[SS_STAT_MAX * NCPU];

static void setup(void)
{
	memset(cpus, 0, sizeof(cpus));
	memset(prev, 0, sizeof(prev));
}

TestSuite(cpu_stats, .init = setup);

Test(cpu_stats, baseline_sets_prev_only)
{
	cpus[0].stats[SS_STAT_SWITCHES] = 10;
	cpus[2].stats[SS_STAT_IDLE_NS] = 7;
	ss_cpu_stats_delta(cpus, NCPU, prev, NULL, NULL, 0);
	cr_assert_eq(prev[SS_STAT_SWITCHES * NCPU + 0], 10);
	cr_assert_eq(prev[SS_STAT_IDLE_NS * NCPU + 2], 7);
	cr_assert_eq(prev[SS_STAT_SWITCHES * NCPU + 1], 0);
}

Test(cpu_stats, sums_deltas_over_cpus_per_stat)
{
	uint64_t out[SS_STAT_MAX];

	for (int c = 0; c < NCPU; c++)
		cpus[c].stats[SS_STAT_SWITCHES] = 100 * (c + 1);
	ss_cpu_stats_delta(cpus, NCPU, prev, NULL, NULL, 0);
	/* this interval: +1, +2, +3 switches; 5 drops on CPU 1 only */
	for (int c = 0; c < NCPU; c++)
		cpus[c].stats[SS_STAT_SWITCHES] += c + 1;
	cpus[1].stats[SS_STAT_DROPS] = 5;
	memset(out, 0xff, sizeof(out));
	ss_cpu_stats_delta(cpus, NCPU, prev, out, NULL, 0);
	cr_assert_eq(out[SS_STAT_SWITCHES], 6);
	cr_assert_eq(out[SS_STAT_DROPS], 5);
	cr_assert_eq(out[SS_STAT_MISSED], 0, "untouched stat must be 0");
	/* prev advanced: nothing new means all zero */
	ss_cpu_stats_delta(cpus, NCPU, prev, out, NULL, 0);
	for (int s = 0; s < SS_STAT_MAX; s++)
		cr_assert_eq(out[s], 0, "stat %d: %llu", s,
			     (unsigned long long)out[s]);
}

Test(cpu_stats, idle_per_cpu_within_nidle)
{
	uint64_t out[SS_STAT_MAX], idle[NCPU] = { 99, 99, 99 };

	ss_cpu_stats_delta(cpus, NCPU, prev, NULL, NULL, 0);
	cpus[0].stats[SS_STAT_IDLE_NS] = 1000;
	cpus[1].stats[SS_STAT_IDLE_NS] = 0;
	cpus[2].stats[SS_STAT_IDLE_NS] = 3000;
	ss_cpu_stats_delta(cpus, NCPU, prev, out, idle, 2);
	cr_assert_eq(idle[0], 1000);
	cr_assert_eq(idle[1], 0, "idle CPU 1 set to its delta, 0");
	cr_assert_eq(idle[2], 99, "beyond nidle: not written");
	cr_assert_eq(out[SS_STAT_IDLE_NS], 4000);
}

Test(cpu_stats, counts_wrap_modulo_2_64)
{
	uint64_t out[SS_STAT_MAX];

	cpus[0].stats[SS_STAT_SWITCHES] = UINT64_MAX - 1;
	ss_cpu_stats_delta(cpus, 1, prev, NULL, NULL, 0);
	cpus[0].stats[SS_STAT_SWITCHES] = 2; /* wrapped: +4 */
	ss_cpu_stats_delta(cpus, 1, prev, out, NULL, 0);
	cr_assert_eq(out[SS_STAT_SWITCHES], 4);
}
