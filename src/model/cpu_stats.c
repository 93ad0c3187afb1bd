// SPDX-License-Identifier: GPL-2.0
/* cpu_stats.c - per-interval deltas of the probes' per-CPU counts. */
#include "cpu_stats.h"

#include <stddef.h>
#include <string.h>

/* ss_cpu_stats_delta - see cpu_stats.h */
void ss_cpu_stats_delta(const struct ss_cpu *cpus, int ncpus, uint64_t *prev,
			uint64_t out[SS_STAT_MAX], uint64_t *idle_ns, int nidle)
{
	if (out)
		memset(out, 0, sizeof(uint64_t) * SS_STAT_MAX);
	for (int s = 0; s < SS_STAT_MAX; s++) {
		for (int cpu = 0; cpu < ncpus; cpu++) {
			size_t i = (size_t)s * ncpus + cpu;
			uint64_t cur = cpus[cpu].stats[s];
			uint64_t d = cur - prev[i];

			prev[i] = cur;
			if (out)
				out[s] += d;
			if (s == SS_STAT_IDLE_NS && idle_ns && cpu < nidle)
				idle_ns[cpu] = d;
		}
	}
}
