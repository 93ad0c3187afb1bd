// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/output/prom_pairs.c: cumulative values per (label
 * set, extra label values), the cap with `other`, the growth past the
 * first allocation, the TTL of gone series and the extra values' lookup.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include "prom_pairs.h"

static struct ss_series_key key(uint32_t tgid, uint64_t cg)
{
	struct ss_series_key k;

	memset(&k, 0, sizeof(k));
	k.tgid = tgid;
	k.cgroup_id = cg;
	snprintf(k.comm, sizeof(k.comm), "p%u", tgid);
	return k;
}

static const struct ss_pair *find(const struct ss_pair_store *st, uint32_t tgid,
				  const char *extra, size_t len)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->p[i].key.tgid == tgid && st->p[i].extra_len == len &&
		    !memcmp(st->p[i].extra, extra, len))
			return &st->p[i];
	return NULL;
}

Test(prom_pairs, cumulative_per_extra)
{
	struct ss_pair_store st;
	struct ss_series_key a = key(10, 5), b = key(11, 5);
	const uint64_t v[2] = { 3, 100 };
	const struct ss_pair *p;

	cr_assert_eq(ss_pair_init(&st, 100, 1000), 0);
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(ss_pair_add(&st, &a,
					 "task\0"
					 "11",
					 8, v, i),
			     0);
		cr_assert_eq(ss_pair_add(&st, &a, "timer\0", 7, v, i), 0);
		cr_assert_eq(ss_pair_add(&st, &b,
					 "task\0"
					 "10",
					 8, v, i),
			     0);
	}
	cr_expect_eq(st.n, 3);
	p = find(&st, 10,
		 "task\0"
		 "11",
		 8);
	cr_assert_not_null(p);
	cr_expect_eq(p->v[0], 12);
	cr_expect_eq(p->v[1], 400);
	cr_expect_str_eq(ss_pair_extra(p, 0), "task");
	cr_expect_str_eq(ss_pair_extra(p, 1), "11");
	cr_expect_str_eq(ss_pair_extra(p, 2), "");
	cr_expect_not(st.have_other);
	ss_pair_free(&st);
}

Test(prom_pairs, cap_sums_into_other_and_grows)
{
	struct ss_pair_store st;
	const uint64_t v[2] = { 1, 7 };
	char extra[32];

	cr_assert_eq(ss_pair_init(&st, 300, 1000), 0);
	for (int i = 0; i < 500; i++) {
		struct ss_series_key k = key(1, 0);
		int len = snprintf(extra, sizeof(extra), "stack;%d", i);

		cr_assert_eq(ss_pair_add(&st, &k, extra, len + 1, v, 0), 0);
	}
	cr_expect_eq(st.n, 300);
	cr_expect(st.have_other);
	cr_expect_eq(st.overflow, 200);
	cr_expect_eq(st.other.v[0], 200);
	cr_expect_eq(st.other.v[1], 1400);
	/* a series past the first 64 is still found after the growth */
	{
		struct ss_series_key k = key(1, 0);
		int len = snprintf(extra, sizeof(extra), "stack;%d", 250);

		cr_assert_eq(ss_pair_add(&st, &k, extra, len + 1, v, 0), 0);
		cr_expect_eq(st.n, 300);
		cr_expect_eq(find(&st, 1, extra, len + 1)->v[0], 2);
	}
	ss_pair_free(&st);
}

static bool alive_even(const struct ss_series_key *k, void *ctx)
{
	(void)ctx;
	return k->tgid % 2 == 0;
}

Test(prom_pairs, gone_series_expire_after_ttl)
{
	struct ss_pair_store st;
	struct ss_series_key a = key(2, 0), b = key(3, 0);
	const uint64_t v[2] = { 1, 1 };

	cr_assert_eq(ss_pair_init(&st, 10, 100), 0);
	st.alive = alive_even;
	ss_pair_add(&st, &a, "x", 2, v, 0);
	ss_pair_add(&st, &b, "x", 2, v, 0);
	cr_expect_eq(ss_pair_expire(&st, 100), 0); /* not past the TTL */
	cr_expect_eq(ss_pair_expire(&st, 101), 1); /* 3 is gone, 2 lives */
	cr_expect_eq(st.n, 1);
	cr_expect_eq(st.expired, 1);
	cr_expect_eq(st.p[0].key.tgid, 2);
	/* the index was rebuilt: 2's series is found, 3's made anew */
	ss_pair_add(&st, &a, "x", 2, v, 200);
	ss_pair_add(&st, &b, "x", 2, v, 200);
	cr_expect_eq(st.n, 2);
	cr_expect_eq(find(&st, 2, "x", 2)->v[0], 2);
	cr_expect_eq(find(&st, 3, "x", 2)->v[0], 1);
	ss_pair_free(&st);
}
