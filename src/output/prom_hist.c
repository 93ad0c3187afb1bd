// SPDX-License-Identifier: GPL-2.0
/* prom_hist.c - the exporter's per-cgroup histogram series (prom_hist.h) */
#include "prom_hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ss_hist_store_init - see prom_hist.h */
void ss_hist_store_init(struct ss_hist_store *st, size_t max_series,
			uint64_t ttl_ns)
{
	memset(st, 0, sizeof(*st));
	st->max_series = max_series;
	st->ttl_ns = ttl_ns;
	st->other.other = true;
}

static long find(const struct ss_hist_store *st, uint64_t cgroup_id)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->s[i].cgroup_id == cgroup_id)
			return (long)i;
	return -1;
}

static void add_to(struct ss_hist_series *s, unsigned int kind,
		   const uint64_t *slots, uint64_t now_ns)
{
	for (int i = 0; i < SS_HIST_SLOTS; i++)
		s->slots[kind][i] += slots[i];
	s->kinds |= 1U << kind;
	s->last_seen_ns = now_ns;
}

/* ss_hist_store_add - see prom_hist.h */
int ss_hist_store_add(struct ss_hist_store *st, uint64_t cgroup_id,
		      unsigned int kind, const uint64_t *slots, uint64_t now_ns)
{
	long i;

	if (kind >= SS_HK_MAX)
		return -EINVAL;
	i = find(st, cgroup_id);
	if (i < 0 && st->n < st->max_series) {
		if (st->n == st->cap) {
			size_t cap = st->cap ? 2 * st->cap : 16;
			struct ss_hist_series *s =
				realloc(st->s, cap * sizeof(*s));

			if (!s)
				goto other;
			st->s = s;
			st->cap = cap;
		}
		i = (long)st->n++;
		memset(&st->s[i], 0, sizeof(st->s[i]));
		st->s[i].cgroup_id = cgroup_id;
	}
	if (i >= 0) {
		add_to(&st->s[i], kind, slots, now_ns);
		return 0;
	}
other:
	add_to(&st->other, kind, slots, now_ns);
	st->have_other = true;
	st->overflow++;
	return i < 0 && st->n < st->max_series ? -ENOMEM : 0;
}

/* ss_hist_store_expire - see prom_hist.h */
size_t ss_hist_store_expire(struct ss_hist_store *st, uint64_t now_ns)
{
	size_t out = 0, dropped = 0;

	for (size_t i = 0; i < st->n; i++) {
		struct ss_hist_series *s = &st->s[i];

		if (now_ns - s->last_seen_ns > st->ttl_ns &&
		    !(st->alive && st->alive(s->cgroup_id, st->alive_ctx))) {
			dropped++;
			continue;
		}
		if (out != i)
			st->s[out] = *s;
		out++;
	}
	st->n = out;
	st->expired += dropped;
	return dropped;
}

/* ss_hist_store_find - see prom_hist.h */
const struct ss_hist_series *ss_hist_store_find(const struct ss_hist_store *st,
						uint64_t cgroup_id)
{
	long i = find(st, cgroup_id);

	return i < 0 ? NULL : &st->s[i];
}

/* ss_hist_store_free - see prom_hist.h */
void ss_hist_store_free(struct ss_hist_store *st)
{
	free(st->s);
	st->s = NULL;
	st->n = st->cap = 0;
}
