// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/output/prom_series.c: cumulative counters per label set, the
 * series cap with `other`, and the TTL of gone series.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "prom_series.h"

static struct ss_row row(uint32_t tgid, const char *comm, uint64_t cg,
			 uint64_t oncpu, uint64_t vol)
{
	struct ss_row r;

	memset(&r, 0, sizeof(r));
	r.key.tgid = tgid;
	snprintf(r.v.comm, sizeof(r.v.comm), "%s", comm);
	r.v.cgroup_id = cg;
	r.v.oncpu_ns = oncpu;
	r.v.voluntary = vol;
	r.v.involuntary = 1;
	r.v.counters[2] = 7;
	r.v.faults = 3;
	return r;
}

static const struct ss_series *find_proc(struct ss_series_store *st,
					 uint32_t tgid, const char *comm,
					 uint64_t cg)
{
	struct ss_series_key k;

	memset(&k, 0, sizeof(k));
	k.tgid = tgid;
	k.cgroup_id = cg;
	snprintf(k.comm, sizeof(k.comm), "%s", comm);
	return ss_series_find(st, &k);
}

Test(prom_series, cumulative_across_intervals)
{
	struct ss_series_store st;
	struct ss_row a = row(10, "a", 5, 100, 2), b = row(11, "b", 5, 50, 1);
	const struct ss_series *s;

	cr_assert_eq(ss_series_init(&st, true, 100, 1000), 0);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(ss_series_add(&st, &a, i), 0);
		cr_assert_eq(ss_series_add(&st, &b, i), 0);
	}
	cr_expect_eq(st.n, 2);
	s = find_proc(&st, 10, "a", 5);
	cr_assert_not_null(s);
	cr_expect_eq(s->v.oncpu_ns, 300);
	cr_expect_eq(s->v.voluntary, 6);
	cr_expect_eq(s->v.involuntary, 3);
	cr_expect_eq(s->v.counters[2], 21);
	cr_expect_eq(s->v.faults, 9);
	/* a comm change (exec) is another label set */
	struct ss_row a2 = row(10, "a2", 5, 1, 1);

	ss_series_add(&st, &a2, 3);
	cr_expect_eq(st.n, 3);
	cr_expect_eq(find_proc(&st, 10, "a", 5)->v.oncpu_ns, 300);
	ss_series_free(&st);
}

Test(prom_series, per_cgroup_sums_processes)
{
	struct ss_series_store st;
	struct ss_row a = row(10, "a", 5, 100, 2), b = row(11, "b", 5, 50, 1),
		      c = row(12, "c", 6, 1, 1);
	struct ss_series_key k = { .cgroup_id = 5 };

	cr_assert_eq(ss_series_init(&st, false, 100, 1000), 0);
	ss_series_add(&st, &a, 0);
	ss_series_add(&st, &b, 0);
	ss_series_add(&st, &c, 0);
	cr_expect_eq(st.n, 2);
	cr_assert_not_null(ss_series_find(&st, &k));
	cr_expect_eq(ss_series_find(&st, &k)->v.oncpu_ns, 150);
	ss_series_free(&st);
}

Test(prom_series, cap_sums_into_other)
{
	struct ss_series_store st;
	struct ss_series_key ok = { .other = 1 };

	cr_assert_eq(ss_series_init(&st, true, 1000, 1000), 0);
	for (uint32_t i = 1; i <= 1500; i++) {
		struct ss_row r = row(i, "w", 1, 10, 1);

		cr_assert_eq(ss_series_add(&st, &r, 0), 0);
	}
	cr_expect_eq(st.n, 1000);
	cr_expect_eq(st.overflow_rows, 500);
	cr_assert_not_null(ss_series_find(&st, &ok));
	cr_expect_eq(ss_series_find(&st, &ok)->v.oncpu_ns, 5000);
	/* existing series keep counting after the cap is reached */
	struct ss_row r = row(7, "w", 1, 10, 1);

	ss_series_add(&st, &r, 1);
	cr_expect_eq(find_proc(&st, 7, "w", 1)->v.oncpu_ns, 20);
	cr_expect_eq(st.overflow_rows, 500);
	/* every row's time is somewhere: nothing lost */
	uint64_t sum = ss_series_find(&st, &ok)->v.oncpu_ns;

	for (size_t i = 0; i < st.n; i++)
		sum += st.s[i].v.oncpu_ns;
	cr_expect_eq(sum, 1501 * 10);
	ss_series_free(&st);
}

static bool odd_alive(const struct ss_series_key *k, void *ctx)
{
	(*(int *)ctx)++;
	return k->tgid % 2;
}

Test(prom_series, ttl_drops_only_gone_series)
{
	struct ss_series_store st;
	int calls = 0;

	cr_assert_eq(ss_series_init(&st, true, 3, 100), 0);
	st.alive = odd_alive;
	st.alive_ctx = &calls;
	for (uint32_t i = 1; i <= 3; i++) {
		struct ss_row r = row(i, "p", 1, 10, 1);

		ss_series_add(&st, &r, 0);
	}
	cr_expect_eq(ss_series_expire(&st, 100), 0, "not older than TTL");
	cr_expect_eq(calls, 0);
	cr_expect_eq(ss_series_expire(&st, 101), 1, "pid 2 is gone");
	cr_expect_eq(st.n, 2);
	cr_expect_eq(st.expired, 1);
	cr_expect_null(find_proc(&st, 2, "p", 1));
	cr_assert_not_null(find_proc(&st, 1, "p", 1));
	cr_assert_not_null(find_proc(&st, 3, "p", 1));
	cr_expect_eq(find_proc(&st, 3, "p", 1)->v.oncpu_ns, 10);
	/* the freed place takes a new series instead of `other` */
	struct ss_row r = row(4, "p", 1, 10, 1);

	ss_series_add(&st, &r, 200);
	cr_expect_eq(st.n, 3);
	cr_expect_eq(st.overflow_rows, 0);
	cr_assert_not_null(find_proc(&st, 4, "p", 1));
	/* a series seen recently is kept even if its owner is gone */
	st.alive = NULL;
	cr_expect_eq(ss_series_expire(&st, 250), 2);
	cr_assert_not_null(find_proc(&st, 4, "p", 1));
	ss_series_free(&st);
}

Test(prom_series, many_series_grow_and_reindex)
{
	struct ss_series_store st;

	cr_assert_eq(ss_series_init(&st, true, 100000, 10), 0);
	for (int round = 0; round < 2; round++)
		for (uint32_t i = 1; i <= 5000; i++) {
			struct ss_row r = row(i, "x", i % 7, i, 1);

			cr_assert_eq(ss_series_add(&st, &r, round), 0);
		}
	cr_expect_eq(st.n, 5000);
	for (uint32_t i = 1; i <= 5000; i += 499)
		cr_expect_eq(find_proc(&st, i, "x", i % 7)->v.oncpu_ns, 2 * i);
	ss_series_free(&st);
}

/* An event that never ran adds no 0 to a series and leaves it unsampled. */
Test(prom_series, not_counted_adds_nothing)
{
	struct ss_series_store st;
	struct ss_row a = row(10, "a", 5, 100, 2);
	const struct ss_series *s;

	cr_assert_eq(ss_series_init(&st, true, 100, 1000), 0);
	st.ctr_timed = 1 << 2; /* counter 2 read with its times */
	a.v.counters[2] = 0;
	a.v.ctr_enabled_ns[2] = 1000000; /* never on the PMU */
	cr_assert_eq(ss_series_add(&st, &a, 0), 0);
	s = find_proc(&st, 10, "a", 5);
	cr_assert_not_null(s);
	cr_expect_eq(s->v.counted & (1 << 2), 0, "a 0 from never ran");
	cr_expect_eq(s->v.counted & 1, 1, "untimed counter 0 is counted");
	a.v.counters[2] = 40; /* the next interval: half the time */
	a.v.ctr_running_ns[2] = 500000;
	cr_assert_eq(ss_series_add(&st, &a, 1), 0);
	cr_expect_eq(s->v.counted & (1 << 2), 1 << 2);
	cr_expect_eq(s->v.counters[2], 40);
	ss_series_free(&st);
}
