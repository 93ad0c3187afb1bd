// SPDX-License-Identifier: GPL-2.0
/* rows.c - interval rows: storage, cgroup merge, sorting, totals. */
#include "rows.h"

#include "events.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ss_rows_push - see rows.h */
int ss_rows_push(struct ss_interval *iv, const struct ss_key *key,
		 const struct ss_val *val)
{
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? iv->cap * 2 : 256;
		struct ss_row *r = realloc(iv->rows, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		iv->rows = r;
		iv->cap = cap;
	}
	iv->rows[iv->n].key = *key;
	iv->rows[iv->n].v = *val;
	memset(iv->rows[iv->n].off_ns, 0, sizeof(iv->rows[iv->n].off_ns));
	iv->n++;
	return 0;
}

/* ss_rows_reset - see rows.h */
void ss_rows_reset(struct ss_interval *iv)
{
	iv->n = 0;
	memset(iv->stats, 0, sizeof(iv->stats));
}

/* ss_rows_free - see rows.h */
void ss_rows_free(struct ss_interval *iv)
{
	free(iv->rows);
	iv->rows = NULL;
	iv->n = iv->cap = 0;
}

static void val_add(struct ss_val *d, const struct ss_val *s)
{
	d->oncpu_ns += s->oncpu_ns;
	d->voluntary += s->voluntary;
	d->involuntary += s->involuntary;
	for (int i = 0; i < SS_MAX_COUNTERS; i++) {
		d->counters[i] += s->counters[i];
		d->ctr_enabled_ns[i] += s->ctr_enabled_ns[i];
		d->ctr_running_ns[i] += s->ctr_running_ns[i];
	}
	d->counter_scaled |= s->counter_scaled;
	d->counter_lost |= s->counter_lost;
	d->faults += s->faults;
	d->pgalloc += s->pgalloc;
	d->reclaim_count += s->reclaim_count;
	d->reclaim_ns += s->reclaim_ns;
	/* a time, not a sum: the latest of the two */
	if (s->cgroup_ns > d->cgroup_ns)
		d->cgroup_ns = s->cgroup_ns;
}

/* a row's sums into another's: its ss_val and its off-CPU times */
static void row_add(struct ss_row *d, const struct ss_row *s)
{
	val_add(&d->v, &s->v);
	for (int i = 0; i < SS_OFF_MAX; i++)
		d->off_ns[i] += s->off_ns[i];
}

static int cmp_cgroup(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;

	return (x->v.cgroup_id > y->v.cgroup_id) -
	       (x->v.cgroup_id < y->v.cgroup_id);
}

/* ss_rows_scale_counters - see rows.h */
void ss_rows_scale_counters(struct ss_interval *iv, int nr_counters,
			    uint64_t timed)
{
	if (nr_counters > SS_MAX_COUNTERS)
		nr_counters = SS_MAX_COUNTERS;
	for (size_t r = 0; r < iv->n; r++) {
		struct ss_val *v = &iv->rows[r].v;

		for (int i = 0; i < nr_counters; i++) {
			uint64_t bit = 1ULL << i;
			enum ss_ctr_state st;

			if (!(timed & bit))
				continue;
			v->counters[i] = ss_counter_estimate(
				true, v->counters[i], v->ctr_enabled_ns[i],
				v->ctr_running_ns[i], &st);
			if (st == SS_CTR_SCALED)
				v->counter_scaled |= bit;
			else
				v->counter_scaled &= ~bit;
		}
	}
}

static int cmp_key(const void *a, const void *b)
{
	const struct ss_key *x = &((const struct ss_row *)a)->key,
			    *y = &((const struct ss_row *)b)->key;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->cgroup_id > y->cgroup_id) - (x->cgroup_id < y->cgroup_id);
}

/* ss_rows_coalesce - see rows.h */
void ss_rows_coalesce(struct ss_interval *iv, size_t first_extra)
{
	size_t out = 0;

	if (first_extra >= iv->n)
		return;
	if (iv->n > 1)
		qsort(iv->rows, iv->n, sizeof(*iv->rows), cmp_key);
	for (size_t i = 0; i < iv->n; i++) {
		struct ss_row *r = &iv->rows[i];

		if (out && !cmp_key(&iv->rows[out - 1], r)) {
			struct ss_row *d = &iv->rows[out - 1];
			bool d_ran = d->v.oncpu_ns || ss_row_switches(d);
			bool r_ran = r->v.oncpu_ns || ss_row_switches(r);

			/* the name and cgroup of the row that ran (the
			 * accumulator's, as at the end of the interval) */
			if (r_ran && !d_ran) {
				memcpy(d->v.comm, r->v.comm, sizeof(d->v.comm));
				d->v.cgroup_id = r->v.cgroup_id;
			}
			row_add(d, r);
			continue;
		}
		iv->rows[out++] = *r;
	}
	iv->n = out;
}

/* ss_rows_merge_by_cgroup - see rows.h */
void ss_rows_merge_by_cgroup(struct ss_interval *iv)
{
	size_t out = 0;

	if (iv->n > 1) /* rows is NULL before the first push: no qsort(NULL) */
		qsort(iv->rows, iv->n, sizeof(*iv->rows), cmp_cgroup);
	for (size_t i = 0; i < iv->n; i++) {
		struct ss_row *r = &iv->rows[i];

		if (out && iv->rows[out - 1].v.cgroup_id == r->v.cgroup_id) {
			row_add(&iv->rows[out - 1], r);
			continue;
		}
		iv->rows[out] = *r;
		iv->rows[out].key.tgid = 0;
		iv->rows[out].key.tid = 0;
		iv->rows[out].key.start_ns = 0;
		iv->rows[out].key.cgroup_id = r->v.cgroup_id;
		memset(iv->rows[out].v.comm, 0, sizeof(r->v.comm));
		out++;
	}
	iv->n = out;
}

/* by tgid, the leader (tid == tgid) first, then by tid */
static int cmp_process(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;
	bool xl = x->key.tid == x->key.tgid, yl = y->key.tid == y->key.tgid;

	if (x->key.tgid != y->key.tgid)
		return x->key.tgid < y->key.tgid ? -1 : 1;
	if (xl != yl)
		return xl ? -1 : 1;
	return (x->key.tid > y->key.tid) - (x->key.tid < y->key.tid);
}

/* ss_rows_merge_by_process - see rows.h */
void ss_rows_merge_by_process(struct ss_interval *iv)
{
	size_t out = 0;

	if (iv->n > 1) /* rows is NULL before the first push: no qsort(NULL) */
		qsort(iv->rows, iv->n, sizeof(*iv->rows), cmp_process);
	for (size_t i = 0; i < iv->n; i++) {
		struct ss_row *r = &iv->rows[i];

		if (out && iv->rows[out - 1].key.tgid == r->key.tgid) {
			row_add(&iv->rows[out - 1], r);
			continue;
		}
		iv->rows[out] = *r;
		iv->rows[out].key.tid = 0;
		out++;
	}
	iv->n = out;
}

#define CMP_DESC(a, b)                             \
	do {                                       \
		if ((a) != (b))                    \
			return (a) < (b) ? 1 : -1; \
	} while (0)

static int cmp_tail(const struct ss_row *x, const struct ss_row *y)
{
	CMP_DESC(x->v.oncpu_ns, y->v.oncpu_ns);
	CMP_DESC(ss_row_switches(x), ss_row_switches(y));
	if (x->key.tgid != y->key.tgid)
		return x->key.tgid < y->key.tgid ? -1 : 1;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	/* a reused pid: the earlier process first */
	if (x->key.start_ns != y->key.start_ns)
		return x->key.start_ns < y->key.start_ns ? -1 : 1;
	return (x->v.cgroup_id > y->v.cgroup_id) -
	       (x->v.cgroup_id < y->v.cgroup_id);
}

static int cmp_oncpu(const void *a, const void *b)
{
	return cmp_tail(a, b);
}

static int cmp_switches(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;

	CMP_DESC(ss_row_switches(x), ss_row_switches(y));
	return cmp_tail(x, y);
}

static int cmp_vol(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;

	CMP_DESC(x->v.voluntary, y->v.voluntary);
	return cmp_tail(x, y);
}

static int cmp_invol(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;

	CMP_DESC(x->v.involuntary, y->v.involuntary);
	return cmp_tail(x, y);
}

static int cmp_pid(const void *a, const void *b)
{
	const struct ss_row *x = a, *y = b;

	if (x->key.tgid != y->key.tgid)
		return x->key.tgid < y->key.tgid ? -1 : 1;
	if (x->key.tid != y->key.tid)
		return x->key.tid < y->key.tid ? -1 : 1;
	return cmp_tail(x, y);
}

/* ss_rows_sort - see rows.h */
void ss_rows_sort(struct ss_interval *iv, enum ss_sort_key key)
{
	int (*cmp)(const void *, const void *) = cmp_oncpu;

	switch (key) {
	case SS_SORT_ONCPU:
		cmp = cmp_oncpu;
		break;
	case SS_SORT_SWITCHES:
		cmp = cmp_switches;
		break;
	case SS_SORT_VOLUNTARY:
		cmp = cmp_vol;
		break;
	case SS_SORT_INVOLUNTARY:
		cmp = cmp_invol;
		break;
	case SS_SORT_PID:
		cmp = cmp_pid;
		break;
	}
	if (iv->n > 1) /* rows is NULL before the first push: no qsort(NULL) */
		qsort(iv->rows, iv->n, sizeof(*iv->rows), cmp);
}

/* ss_cpu_pct - see rows.h */
double ss_cpu_pct(uint64_t oncpu_ns, uint64_t interval_ns)
{
	if (!interval_ns)
		return 0.0;
	return 100.0 * (double)oncpu_ns / (double)interval_ns;
}

/* ss_per_second - see rows.h */
double ss_per_second(uint64_t count, uint64_t interval_ns)
{
	if (!interval_ns)
		return 0.0;
	return (double)count * 1e9 / (double)interval_ns;
}

/* ss_rows_oncpu_total - see rows.h */
uint64_t ss_rows_oncpu_total(const struct ss_interval *iv)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < iv->n; i++)
		sum += iv->rows[i].v.oncpu_ns;
	return sum;
}
