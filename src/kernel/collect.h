/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - read one interval out of the BPF maps: drain the accumulator
 * map (read and delete, so the next interval starts empty) and turn the
 * cumulative per-CPU stats into this interval's deltas.
 */
#ifndef SWITCHSTAT_COLLECT_H
#define SWITCHSTAT_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

#include "map_drain.h"
#include "rows.h"

struct ss_collector {
	int stats_fd;
	int ncpus; /* possible CPUs: per-CPU map value count */
	uint64_t *prev; /* [SS_STAT_MAX][ncpus] cumulative stats */
	struct ss_cpu *cpus; /* one cpu_state lookup: ncpus values */
	struct ss_map_drain accum; /* the accumulator map */
	int accum_fd[2]; /* accum, accum_b (-1: one map only) */
	int cur; /* index of the map the probes charge now */
	uint64_t *edge_prev; /* per CPU: ss_cpu.edge_ns at the last collect */
	uint64_t *edge_count_prev; /* ... and ss_cpu.edge_count */
	bool *edge_ran_prev; /* ... which had moved since the one before */
};

/* ss_collect_init - allocate buffers and read the starting stats; 0/-errno */
int ss_collect_init(struct ss_collector *c, int accum_fd, int stats_fd,
		    int ncpus, uint32_t max_entries);

/*
 * ss_collect_second - the probes have a second accumulator map, @fd
 * (accum_b), and switch between the two at interval edges.
 */
void ss_collect_second(struct ss_collector *c, int fd);

/*
 * ss_collect_flipped - after an interval edge: when @flipped, the probes
 * have just moved to the other map and the next ss_collect drains the one
 * they left; else they stay, and it drains the one they charge.
 */
void ss_collect_flipped(struct ss_collector *c, bool flipped);

/*
 * ss_collect - move everything accumulated since the last call into iv
 * (rows appended, stats and idle_ns set to this interval's deltas).
 * Returns the number of rows read, or -errno.
 */
int ss_collect(struct ss_collector *c, struct ss_interval *iv);

/* ss_collect_free - release buffers. */
void ss_collect_free(struct ss_collector *c);

#endif
