// SPDX-License-Identifier: GPL-2.0
/*
 * prom_pairs.c - see prom_pairs.h: a dense array of series plus an
 * open-addressing index (linear probing), rebuilt when the array grows or
 * series are dropped, as prom_series.c's.
 */
#include "prom_pairs.h"

#include "prom_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t pair_hash(const struct ss_series_key *k, const char *extra,
			  size_t len)
{
	return ss_fnv1a(ss_fnv1a(SS_FNV_BASIS, k, sizeof(*k)), extra, len);
}

static uint64_t entry_hash(const void *ctx, size_t i)
{
	const struct ss_pair *p = &((const struct ss_pair_store *)ctx)->p[i];

	return pair_hash(&p->key, p->extra, p->extra_len);
}

static int reindex(struct ss_pair_store *st, size_t nslots)
{
	return ss_prom_index_build(&st->slot, &st->nslots, nslots, st->n,
				   entry_hash, st);
}

/* ss_pair_init - see prom_pairs.h */
int ss_pair_init(struct ss_pair_store *st, size_t max_series, uint64_t ttl_ns)
{
	memset(st, 0, sizeof(*st));
	st->max_series = max_series;
	st->ttl_ns = ttl_ns;
	st->other.key.other = 1;
	st->cap = 64;
	st->p = calloc(st->cap, sizeof(*st->p));
	if (!st->p)
		return -ENOMEM;
	return reindex(st, 4 * st->cap);
}

static void add_vals(struct ss_pair *p, const uint64_t *v, uint64_t now)
{
	for (int i = 0; i < SS_PAIR_VALS; i++)
		p->v[i] += v[i];
	p->last_seen_ns = now;
}

static int to_other(struct ss_pair_store *st, const uint64_t *v, uint64_t now,
		    int ret)
{
	add_vals(&st->other, v, now);
	st->have_other = true;
	st->overflow++;
	return ret;
}

/* ss_pair_add - see prom_pairs.h */
int ss_pair_add(struct ss_pair_store *st, const struct ss_series_key *key,
		const char *extra, size_t extra_len, const uint64_t *v,
		uint64_t now_ns)
{
	size_t j = pair_hash(key, extra, extra_len) & (st->nslots - 1);
	struct ss_pair *p;

	while (st->slot[j] >= 0) {
		p = &st->p[st->slot[j]];
		if (p->extra_len == extra_len &&
		    !memcmp(&p->key, key, sizeof(*key)) &&
		    !memcmp(p->extra, extra, extra_len)) {
			add_vals(p, v, now_ns);
			return 0;
		}
		j = (j + 1) & (st->nslots - 1);
	}
	if (st->n >= st->max_series)
		return to_other(st, v, now_ns, 0);
	if (st->n == st->cap) {
		struct ss_pair *np =
			realloc(st->p, 2 * st->cap * sizeof(*st->p));

		if (!np)
			return to_other(st, v, now_ns, -ENOMEM);
		st->p = np;
		st->cap *= 2;
		if (reindex(st, 4 * st->cap))
			return to_other(st, v, now_ns, -ENOMEM);
		j = pair_hash(key, extra, extra_len) & (st->nslots - 1);
		while (st->slot[j] >= 0)
			j = (j + 1) & (st->nslots - 1);
	}
	p = &st->p[st->n];
	memset(p, 0, sizeof(*p));
	p->extra = malloc(extra_len ? extra_len : 1);
	if (!p->extra)
		return to_other(st, v, now_ns, -ENOMEM);
	memcpy(p->extra, extra, extra_len);
	p->extra_len = extra_len;
	p->key = *key;
	add_vals(p, v, now_ns);
	st->slot[j] = (int32_t)st->n++;
	return 0;
}

/* ss_pair_expire - see prom_pairs.h */
size_t ss_pair_expire(struct ss_pair_store *st, uint64_t now_ns)
{
	size_t w = 0, gone = 0;

	for (size_t i = 0; i < st->n; i++) {
		struct ss_pair *p = &st->p[i];

		if (now_ns - p->last_seen_ns > st->ttl_ns &&
		    (!st->alive || !st->alive(&p->key, st->alive_ctx))) {
			free(p->extra);
			gone++;
			continue;
		}
		st->p[w++] = *p;
	}
	if (!gone)
		return 0;
	st->n = w;
	st->expired += gone;
	reindex(st, st->nslots);
	return gone;
}

/* ss_pair_extra - see prom_pairs.h */
const char *ss_pair_extra(const struct ss_pair *p, int i)
{
	size_t off = 0;

	while (i-- > 0 && off < p->extra_len)
		off += strlen(p->extra + off) + 1;
	return off < p->extra_len ? p->extra + off : "";
}

/* ss_pair_free - see prom_pairs.h */
void ss_pair_free(struct ss_pair_store *st)
{
	for (size_t i = 0; i < st->n; i++)
		free(st->p[i].extra);
	free(st->p);
	free(st->slot);
	memset(st, 0, sizeof(*st));
}
