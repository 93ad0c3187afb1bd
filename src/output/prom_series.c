// SPDX-License-Identifier: GPL-2.0
/*
 * prom_series.c - cumulative counters per label set for the exporter: a
 * dense array of series plus an open-addressing index (linear probing),
 * rebuilt when the array grows or series are dropped.
 */
#include "prom_series.h"

#include "events.h"
#include "prom_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(const struct ss_series_key *k)
{
	return ss_fnv1a(SS_FNV_BASIS, k, sizeof(*k));
}

static void make_key(const struct ss_series_store *st, const struct ss_row *r,
		     struct ss_series_key *k)
{
	memset(k, 0, sizeof(*k));
	k->cgroup_id = r->v.cgroup_id;
	if (st->per_process) {
		k->tgid = r->key.tgid;
		memcpy(k->comm, r->v.comm, strnlen(r->v.comm, SS_COMM_LEN - 1));
	}
}

static uint64_t entry_hash(const void *ctx, size_t i)
{
	const struct ss_series_store *st = ctx;

	return key_hash(&st->s[i].key);
}

static int reindex(struct ss_series_store *st, size_t nslots)
{
	return ss_prom_index_build(&st->slot, &st->nslots, nslots, st->n,
				   entry_hash, st);
}

/* ss_series_init - see prom_series.h */
int ss_series_init(struct ss_series_store *st, bool per_process,
		   size_t max_series, uint64_t ttl_ns)
{
	memset(st, 0, sizeof(*st));
	st->per_process = per_process;
	st->max_series = max_series;
	st->ttl_ns = ttl_ns;
	st->other.key.other = 1;
	st->cap = 64;
	st->s = calloc(st->cap, sizeof(*st->s));
	if (!st->s)
		return -ENOMEM;
	return reindex(st, 4 * st->cap);
}

static long lookup(const struct ss_series_store *st,
		   const struct ss_series_key *k, size_t *free_slot)
{
	size_t j = key_hash(k) & (st->nslots - 1);

	while (st->slot[j] >= 0) {
		if (!memcmp(&st->s[st->slot[j]].key, k, sizeof(*k)))
			return st->slot[j];
		j = (j + 1) & (st->nslots - 1);
	}
	*free_slot = j;
	return -1;
}

/* ss_series_find - see prom_series.h */
const struct ss_series *ss_series_find(const struct ss_series_store *st,
				       const struct ss_series_key *key)
{
	size_t fs;
	long i;

	if (key->other)
		return st->have_other ? &st->other : NULL;
	i = lookup(st, key, &fs);
	return i < 0 ? NULL : &st->s[i];
}

static void add_val(struct ss_series_val *v, const struct ss_row *r,
		    uint64_t timed)
{
	const struct ss_val *d = &r->v;

	for (int i = 0; i < SS_OFF_MAX; i++)
		v->off_ns[i] += r->off_ns[i];
	v->oncpu_ns += d->oncpu_ns;
	v->voluntary += d->voluntary;
	v->involuntary += d->involuntary;
	for (int i = 0; i < SS_MAX_COUNTERS; i++) {
		if (ss_counter_state(timed & (1ULL << i), d->ctr_enabled_ns[i],
				     d->ctr_running_ns[i]) ==
		    SS_CTR_NOT_COUNTED)
			continue; /* <not counted>: adds no 0 */
		v->counters[i] += d->counters[i];
		v->counted |= 1ULL << i;
	}
	v->faults += d->faults;
	v->pgalloc += d->pgalloc;
	v->reclaim_count += d->reclaim_count;
	v->reclaim_ns += d->reclaim_ns;
}

static int grow(struct ss_series_store *st)
{
	size_t cap = st->cap * 2;
	struct ss_series *s = realloc(st->s, cap * sizeof(*s));

	if (!s)
		return -ENOMEM;
	st->s = s;
	st->cap = cap;
	return reindex(st, 4 * cap);
}

static void to_other(struct ss_series_store *st, const struct ss_row *r,
		     uint64_t now_ns)
{
	add_val(&st->other.v, r, st->ctr_timed);
	st->other.last_seen_ns = now_ns;
	st->have_other = true;
	st->overflow_rows++;
}

/* ss_series_add - see prom_series.h */
int ss_series_add(struct ss_series_store *st, const struct ss_row *r,
		  uint64_t now_ns)
{
	struct ss_series_key k;
	size_t fs;
	long i;

	make_key(st, r, &k);
	i = lookup(st, &k, &fs);
	if (i < 0) {
		if (st->n >= st->max_series) {
			to_other(st, r, now_ns);
			return 0;
		}
		if (st->n == st->cap) {
			if (grow(st)) {
				to_other(st, r, now_ns);
				return -ENOMEM;
			}
			lookup(st, &k, &fs);
		}
		i = st->n++;
		memset(&st->s[i], 0, sizeof(st->s[i]));
		st->s[i].key = k;
		st->slot[fs] = (int32_t)i;
	}
	add_val(&st->s[i].v, r, st->ctr_timed);
	st->s[i].last_seen_ns = now_ns;
	return 0;
}

/* ss_series_expire - see prom_series.h */
size_t ss_series_expire(struct ss_series_store *st, uint64_t now_ns)
{
	size_t kept = 0, dropped;

	for (size_t i = 0; i < st->n; i++) {
		struct ss_series *s = &st->s[i];
		bool old = now_ns - s->last_seen_ns > st->ttl_ns;

		if (old && !(st->alive && st->alive(&s->key, st->alive_ctx)))
			continue;
		if (kept != i)
			st->s[kept] = *s;
		kept++;
	}
	dropped = st->n - kept;
	if (dropped) {
		st->n = kept;
		st->expired += dropped;
		reindex(st, st->nslots); /* same size: in place, no malloc */
	}
	return dropped;
}

/* ss_series_free - see prom_series.h */
void ss_series_free(struct ss_series_store *st)
{
	free(st->s);
	free(st->slot);
	memset(st, 0, sizeof(*st));
}
