// SPDX-License-Identifier: GPL-2.0
/* collect.c - drain the accumulator map, diff the per-CPU stats. */
#include "collect.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

#include "cpu_stats.h"

/*
 * The stats are the stats[] of struct ss_cpu in the per-CPU cpu_state map
 * (stats_fd): one lookup returns every possible CPU's struct.  Returns 0
 * or -errno.
 */
static int read_cpus(struct ss_collector *c)
{
	__u32 zero = 0;

	return bpf_lookup_elem(c->stats_fd, &zero, c->cpus) ? -errno : 0;
}

/*
 * The CPUs' spans between their last two interval edges (ss_cpu.edge_ns),
 * summed; 0 unless every possible CPU ran exactly this edge since the
 * last collect, and an edge before that collect too (not so for a CPU
 * that was offline at one, or got an extra one when it came back).
 */
static uint64_t edge_spans(struct ss_collector *c)
{
	uint64_t sum = 0;
	bool whole = true;

	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		const struct ss_cpu *s = &c->cpus[cpu];
		uint64_t ran = s->edge_count - c->edge_count_prev[cpu];

		if (ran != 1 || !c->edge_ran_prev[cpu] ||
		    s->edge_ns <= c->edge_prev[cpu])
			whole = false;
		else
			sum += s->edge_ns - c->edge_prev[cpu];
		c->edge_ran_prev[cpu] = ran != 0;
		c->edge_count_prev[cpu] = s->edge_count;
		c->edge_prev[cpu] = s->edge_ns;
	}
	return whole ? sum : 0;
}

/* ss_collect_init - see collect.h */
int ss_collect_init(struct ss_collector *c, int accum_fd, int stats_fd,
		    int ncpus, uint32_t max_entries)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->stats_fd = stats_fd;
	c->ncpus = ncpus;
	c->accum.fd = accum_fd;
	c->accum_fd[0] = accum_fd;
	c->accum_fd[1] = -1;
	c->accum.key_size = sizeof(struct ss_key);
	c->accum.val_size = sizeof(struct ss_val);
	c->accum.cap = max_entries;
	c->prev = calloc((size_t)SS_STAT_MAX * ncpus, sizeof(uint64_t));
	c->cpus = calloc(ncpus, sizeof(*c->cpus));
	c->edge_prev = calloc(ncpus, sizeof(*c->edge_prev));
	c->edge_count_prev = calloc(ncpus, sizeof(*c->edge_count_prev));
	c->edge_ran_prev = calloc(ncpus, sizeof(*c->edge_ran_prev));
	c->accum.keys = calloc(max_entries, sizeof(struct ss_key));
	c->accum.vals = calloc(max_entries, sizeof(struct ss_val));
	if (!c->prev || !c->cpus || !c->edge_prev || !c->edge_count_prev ||
	    !c->edge_ran_prev || !c->accum.keys || !c->accum.vals)
		return -ENOMEM;
	err = read_cpus(c);
	if (err)
		return err;
	ss_cpu_stats_delta(c->cpus, ncpus, c->prev, NULL, NULL, 0);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		c->edge_count_prev[cpu] = c->cpus[cpu].edge_count;
		c->edge_prev[cpu] = c->cpus[cpu].edge_ns;
	}
	return 0;
}

/* ss_collect_second - see collect.h */
void ss_collect_second(struct ss_collector *c, int fd)
{
	c->accum_fd[1] = fd;
}

/* ss_collect_flipped - see collect.h */
void ss_collect_flipped(struct ss_collector *c, bool flipped)
{
	if (c->accum_fd[1] < 0)
		return;
	if (flipped) { /* drain the one the probes left */
		c->accum.fd = c->accum_fd[c->cur];
		c->cur ^= 1;
	} else { /* they stay: the one they charge */
		c->accum.fd = c->accum_fd[c->cur];
	}
}

/* ss_collect - see collect.h */
int ss_collect(struct ss_collector *c, struct ss_interval *iv)
{
	const struct ss_key *keys = c->accum.keys;
	const struct ss_val *vals = c->accum.vals;
	int total = 0, n, err;

	/*
	 * The per-CPU stats (idle time...) first, just after the interval's
	 * edge (app->edge): one read, where the drain below takes longer and
	 * the probes go on meanwhile.
	 */
	err = read_cpus(c);
	if (err)
		return err;
	ss_cpu_stats_delta(c->cpus, c->ncpus, c->prev, iv->stats, iv->idle_ns,
			   iv->ncpus_possible);
	iv->edge_span_ns = edge_spans(c);
	/* a full buffer may leave entries behind: drain until it is not */
	do {
		n = ss_map_drain(&c->accum);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++)
			if (ss_rows_push(iv, &keys[i], &vals[i]))
				return -ENOMEM;
		total += n;
	} while ((uint32_t)n == c->accum.cap);
	return total;
}

/* ss_collect_free - see collect.h */
void ss_collect_free(struct ss_collector *c)
{
	free(c->prev);
	free(c->cpus);
	free(c->edge_prev);
	free(c->edge_count_prev);
	free(c->edge_ran_prev);
	free(c->accum.keys);
	free(c->accum.vals);
	memset(c, 0, sizeof(*c));
}
