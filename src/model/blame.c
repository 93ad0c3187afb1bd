// SPDX-License-Identifier: GPL-2.0
/* blame.c - run-queue blame rows: totals, order, per-culprit view. */
#include "blame.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_victim(const struct ss_blame_key *a,
		      const struct ss_blame_key *b)
{
	int c = cmp_u64(a->victim_cgroup, b->victim_cgroup);

	if (!c)
		c = cmp_u64(a->victim_tgid, b->victim_tgid);
	if (!c)
		c = cmp_u64(a->victim_tid, b->victim_tid);
	return c;
}

static int cmp_culprit(const struct ss_blame_key *a,
		       const struct ss_blame_key *b)
{
	int c = cmp_u64(a->culprit_kind, b->culprit_kind);

	if (!c)
		c = cmp_u64(a->culprit_cgroup, b->culprit_cgroup);
	if (!c)
		c = cmp_u64(a->culprit_tgid, b->culprit_tgid);
	if (!c)
		c = cmp_u64(a->culprit_tid, b->culprit_tid);
	return c;
}

static int by_victim(const void *pa, const void *pb)
{
	const struct ss_blame_row *a = pa, *b = pb;
	int c = cmp_victim(&a->key, &b->key);

	return c ? c : cmp_culprit(&a->key, &b->key);
}

static int by_culprit(const void *pa, const void *pb)
{
	const struct ss_blame_row *a = pa, *b = pb;
	int c = cmp_culprit(&a->key, &b->key);

	return c ? c : cmp_victim(&a->key, &b->key);
}

static int by_delay(const void *pa, const void *pb)
{
	const struct ss_blame_row *a = pa, *b = pb;
	int c = cmp_u64(b->v.delay_ns, a->v.delay_ns);

	return c ? c : by_victim(pa, pb);
}

/* ss_blame_finish - see blame.h */
void ss_blame_finish(struct ss_blame_row *rows, size_t n)
{
	size_t i = 0;

	qsort(rows, n, sizeof(*rows), by_victim);
	while (i < n) {
		size_t j = i;
		uint64_t sum = 0;

		while (j < n && !cmp_victim(&rows[i].key, &rows[j].key))
			sum += rows[j++].v.delay_ns;
		for (; i < j; i++)
			rows[i].victim_total_ns = sum;
	}
	qsort(rows, n, sizeof(*rows), by_delay);
}

/* ss_blame_by_culprit - see blame.h */
size_t ss_blame_by_culprit(const struct ss_blame_row *rows, size_t n,
			   struct ss_blame_row *out)
{
	size_t i = 0, m = 0;

	memcpy(out, rows, n * sizeof(*rows));
	qsort(out, n, sizeof(*out), by_culprit);
	while (i < n) {
		struct ss_blame_row c = out[i];
		size_t j = i + 1;

		c.victims = 1;
		for (; j < n && !cmp_culprit(&out[i].key, &out[j].key); j++) {
			c.v.delay_ns += out[j].v.delay_ns;
			c.victims++; /* rows are unique per (victim, culprit) */
		}
		c.key.victim_cgroup = 0;
		c.key.victim_tgid = 0;
		c.key.victim_tid = 0;
		c.victim_total_ns = c.v.delay_ns;
		out[m++] = c;
		i = j;
	}
	qsort(out, m, sizeof(*out), by_delay);
	return m;
}

/* ss_blame_pct - see blame.h */
double ss_blame_pct(const struct ss_blame_row *r)
{
	return r->victim_total_ns ? 100.0 * r->v.delay_ns / r->victim_total_ns
				  : 0.0;
}

/* ss_blame_culprit_label - see blame.h */
const char *ss_blame_culprit_label(const struct ss_blame_key *k)
{
	switch (k->culprit_kind) {
	case SS_BLAME_IDLE:
		return "(idle)";
	case SS_BLAME_UNKNOWN:
		return "(unknown)";
	default:
		return NULL;
	}
}

static int by_count(const void *pa, const void *pb)
{
	const struct ss_preempt_row *a = pa, *b = pb;
	int c = cmp_u64(b->v.count, a->v.count);

	if (!c)
		c = cmp_victim(&a->key, &b->key);
	return c ? c : cmp_culprit(&a->key, &b->key);
}

/* ss_preempt_sort - see blame.h */
void ss_preempt_sort(struct ss_preempt_row *rows, size_t n)
{
	if (n > 1)
		qsort(rows, n, sizeof(*rows), by_count);
}

/* the culprit is another task or cgroup than the victim */
static bool other_culprit(const struct ss_blame_key *k)
{
	if (k->culprit_kind != SS_BLAME_TASK)
		return false;
	return k->culprit_cgroup != k->victim_cgroup ||
	       k->culprit_tgid != k->victim_tgid ||
	       k->culprit_tid != k->victim_tid;
}

static int by_noisy(const void *pa, const void *pb)
{
	const struct ss_blame_row *a = pa, *b = pb;
	int c = cmp_u64(b->victim_total_ns, a->victim_total_ns);

	if (!c)
		c = cmp_victim(&a->key, &b->key);
	if (!c)
		c = cmp_u64(b->v.delay_ns, a->v.delay_ns);
	return c ? c : cmp_culprit(&a->key, &b->key);
}

/* ss_blame_noisy - see blame.h */
size_t ss_blame_noisy(const struct ss_blame_row *rows, size_t n,
		      struct ss_blame_row *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (other_culprit(&rows[i].key))
			out[m++] = rows[i];
	if (!m)
		return 0;
	qsort(out, m, sizeof(*out), by_victim);
	for (size_t i = 0, j; i < m; i = j) {
		uint64_t sum = 0;

		for (j = i; j < m && !cmp_victim(&out[i].key, &out[j].key); j++)
			sum += out[j].v.delay_ns;
		for (size_t k = i; k < j; k++)
			out[k].victim_total_ns = sum;
	}
	qsort(out, m, sizeof(*out), by_noisy);
	return m;
}
