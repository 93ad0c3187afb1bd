/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_series.h - the exporter's series: cumulative counters per label set
 * (a cgroup, or a process with its comm and cgroup), fed with each
 * interval's rows and never reset by the interval.  At most max_series
 * label sets; rows of new label sets past that are summed into one
 * `other` series (and counted).  A series whose owner is gone (exited
 * process, removed cgroup) keeps its last values for ttl_ns after it was
 * last seen, then is dropped.  Pure: no BPF, no I/O.
 */
#ifndef SWITCHSTAT_PROM_SERIES_H
#define SWITCHSTAT_PROM_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rows.h"

/* Label set of a series: per cgroup (tgid 0, comm "") or per process. */
struct ss_series_key {
	uint32_t tgid;
	uint32_t other; /* 1: the `other` series, nothing else set */
	uint64_t cgroup_id;
	char comm[SS_COMM_LEN];
};

/* Cumulative counters of one series since it was created. */
struct ss_series_val {
	uint64_t oncpu_ns;
	uint64_t voluntary;
	uint64_t involuntary;
	uint64_t counters[SS_MAX_COUNTERS];
	uint64_t counted; /* bit i: counter i was measured in some interval */
	uint64_t faults;
	uint64_t pgalloc;
	uint64_t reclaim_count;
	uint64_t reclaim_ns;
	uint64_t off_ns[SS_OFF_MAX]; /* --offcpu: per enum ss_off_reason */
};

struct ss_series {
	struct ss_series_key key;
	struct ss_series_val v;
	uint64_t last_seen_ns; /* time of the last interval with a row */
};

/*
 * Whether the owner of a series still exists (process or cgroup); a live
 * series is never dropped, however long it is idle.
 */
typedef bool (*ss_series_alive_fn)(const struct ss_series_key *key, void *ctx);

struct ss_series_store {
	bool per_process; /* key: tgid, comm, cgroup; else cgroup only */
	uint64_t ctr_timed; /* bit i: counter i is read with its times */
	size_t max_series; /* cap, without the `other` series */
	uint64_t ttl_ns; /* keep a gone series this long after last seen */
	ss_series_alive_fn alive; /* NULL: everything is gone when idle */
	void *alive_ctx;
	struct ss_series *s; /* the series, in creation order (dense) */
	size_t n, cap;
	int32_t *slot; /* open-addressing index into s, -1 empty */
	size_t nslots; /* power of two, > 2 * cap */
	struct ss_series other;
	bool have_other;
	uint64_t overflow_rows; /* rows summed into `other` */
	uint64_t expired; /* series dropped after the TTL */
};

/*
 * ss_series_init - empty store: per process or per cgroup, at most
 * @max_series label sets plus `other`, @ttl_ns after last seen for gone
 * series.  Returns 0 or -ENOMEM.
 */
int ss_series_init(struct ss_series_store *st, bool per_process,
		   size_t max_series, uint64_t ttl_ns);

/*
 * ss_series_add - add one interval row's counts to its series (created if
 * new and the cap allows, else the row goes into `other`); @now_ns marks
 * the series as seen.  The row's counters are its interval counts
 * (ss_rows_scale_counters); one that was not counted (timed, never ran:
 * st->ctr_timed) adds nothing and does not set its `counted` bit.
 * Returns 0, or -ENOMEM (the row is then in `other`).
 */
int ss_series_add(struct ss_series_store *st, const struct ss_row *r,
		  uint64_t now_ns);

/*
 * ss_series_expire - drop series not seen for more than ttl_ns whose owner
 * is gone (st->alive returns false, or is NULL).  Returns how many.
 */
size_t ss_series_expire(struct ss_series_store *st, uint64_t now_ns);

/* ss_series_find - the series of @key, or NULL. */
const struct ss_series *ss_series_find(const struct ss_series_store *st,
				       const struct ss_series_key *key);

/* ss_series_free - release the store's memory. */
void ss_series_free(struct ss_series_store *st);

#endif
