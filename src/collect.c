// SPDX-License-Identifier: GPL-2.0
/* collect.c - drain the accumulator map, diff the per-CPU stats. */
#include "collect.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bcc/libbpf.h>

/*
 * The stats are the stats[] of struct ss_cpu in the per-CPU cpu_state map
 * (stats_fd): one lookup returns every possible CPU's struct.  dst is laid
 * out [SS_STAT_MAX][ncpus].  Returns 0 or -errno.
 */
static int read_stats(struct ss_collector *c, uint64_t *dst)
{
	struct ss_cpu *cpus = calloc(c->ncpus, sizeof(*cpus));
	__u32 zero = 0;
	int err = 0;

	if (!cpus)
		return -ENOMEM;
	if (bpf_lookup_elem(c->stats_fd, &zero, cpus)) {
		err = -errno;
		goto out;
	}
	for (int i = 0; i < SS_STAT_MAX; i++)
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			dst[i * c->ncpus + cpu] = cpus[cpu].stats[i];
out:
	free(cpus);
	return err;
}

/* ss_collect_init - see collect.h */
int ss_collect_init(struct ss_collector *c, int accum_fd, int stats_fd,
		    int ncpus, uint32_t max_entries)
{
	memset(c, 0, sizeof(*c));
	c->accum_fd = accum_fd;
	c->stats_fd = stats_fd;
	c->ncpus = ncpus;
	c->max_entries = max_entries;
	c->prev = calloc((size_t)SS_STAT_MAX * ncpus, sizeof(uint64_t));
	c->cur = calloc((size_t)SS_STAT_MAX * ncpus, sizeof(uint64_t));
	c->keys = calloc(max_entries, sizeof(*c->keys));
	c->vals = calloc(max_entries, sizeof(*c->vals));
	if (!c->prev || !c->cur || !c->keys || !c->vals)
		return -ENOMEM;
	return read_stats(c, c->prev);
}

/* Batch read-and-delete: each entry leaves the map as it is copied out. */
static int drain_batch(struct ss_collector *c, struct ss_interval *iv)
{
	__u32 token = 0, count;
	bool first = true;
	int total = 0, err;

	for (;;) {
		count = c->max_entries;
		err = bpf_lookup_and_delete_batch(c->accum_fd,
						  first ? NULL : &token, &token,
						  c->keys, c->vals, &count);
		if (err && errno != ENOENT)
			return -errno;
		for (__u32 i = 0; i < count; i++)
			if (ss_rows_push(iv, &c->keys[i], &c->vals[i]))
				return -ENOMEM;
		total += count;
		if (err) /* ENOENT: that was the last batch */
			return total;
		first = false;
	}
}

/* Fallback for kernels without batch ops: iterate, copy, delete. */
static int drain_iter(struct ss_collector *c, struct ss_interval *iv)
{
	struct ss_key key, next;
	struct ss_val val;
	int total = 0;
	uint32_t n = 0;

	/* collect keys first: deleting while walking restarts the walk */
	if (bpf_get_next_key(c->accum_fd, NULL, &next) == 0) {
		do {
			c->keys[n++] = next;
			key = next;
		} while (n < c->max_entries &&
			 bpf_get_next_key(c->accum_fd, &key, &next) == 0);
	}
	for (uint32_t i = 0; i < n; i++) {
		if (bpf_lookup_elem(c->accum_fd, &c->keys[i], &val))
			continue;
		bpf_delete_elem(c->accum_fd, &c->keys[i]);
		if (ss_rows_push(iv, &c->keys[i], &val))
			return -ENOMEM;
		total++;
	}
	return total;
}

/* ss_collect - see collect.h */
int ss_collect(struct ss_collector *c, struct ss_interval *iv)
{
	int n = -EINVAL, err;

	if (!c->no_batch) {
		n = drain_batch(c, iv);
		if (n == -EINVAL || n == -ENOTSUP || n == -EOPNOTSUPP ||
		    n == -ENOSYS) {
			c->no_batch = true;
			n = -EINVAL;
		}
	}
	if (c->no_batch)
		n = drain_iter(c, iv);
	if (n < 0)
		return n;

	err = read_stats(c, c->cur);
	if (err)
		return err;
	memset(iv->stats, 0, sizeof(iv->stats));
	for (int s = 0; s < SS_STAT_MAX; s++) {
		for (int cpu = 0; cpu < c->ncpus; cpu++) {
			size_t i = (size_t)s * c->ncpus + cpu;
			uint64_t d = c->cur[i] - c->prev[i];

			iv->stats[s] += d;
			if (s == SS_STAT_IDLE_NS && iv->idle_ns &&
			    cpu < iv->ncpus_possible)
				iv->idle_ns[cpu] = d;
		}
	}
	memcpy(c->prev, c->cur,
	       (size_t)SS_STAT_MAX * c->ncpus * sizeof(uint64_t));
	return n;
}

/* ss_collect_free - see collect.h */
void ss_collect_free(struct ss_collector *c)
{
	free(c->prev);
	free(c->cur);
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}
