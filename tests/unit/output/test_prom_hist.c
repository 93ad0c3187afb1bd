// SPDX-License-Identifier: GPL-2.0
/*
 * test_prom_hist.c - src/output/prom_hist.c: the exporter's per-cgroup
 * histogram series: cumulative, at most max_series cgroups (the rest in
 * `other`, counted), gone cgroups dropped after the TTL, live ones kept.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "prom_hist.h"

static uint64_t slots[SS_HIST_SLOTS];

Test(prom_hist, cumulative_per_cgroup_and_kind)
{
	struct ss_hist_store st;
	const struct ss_hist_series *s;

	ss_hist_store_init(&st, 10, 1000);
	memset(slots, 0, sizeof(slots));
	slots[3] = 2;
	cr_expect_eq(ss_hist_store_add(&st, 7, SS_HK_RUNQ, slots, 1), 0);
	cr_expect_eq(ss_hist_store_add(&st, 7, SS_HK_RUNQ, slots, 2), 0);
	cr_expect_eq(ss_hist_store_add(&st, 7, SS_HK_ONCPU, slots, 2), 0);
	cr_expect_eq(ss_hist_store_add(&st, 8, SS_HK_RUNQ, slots, 2), 0);
	cr_expect_eq(ss_hist_store_add(&st, 8, SS_HK_MAX, slots, 2), -EINVAL);
	cr_expect_eq(st.n, 2);
	s = ss_hist_store_find(&st, 7);
	cr_assert_not_null(s);
	cr_expect_eq(s->slots[SS_HK_RUNQ][3], 4);
	cr_expect_eq(s->slots[SS_HK_ONCPU][3], 2);
	cr_expect_eq(s->kinds, (1U << SS_HK_RUNQ) | (1U << SS_HK_ONCPU));
	cr_expect(!st.have_other);
	ss_hist_store_free(&st);
}

/* --max-series: new cgroups past the cap are summed into `other` */
Test(prom_hist, cap_goes_to_other)
{
	struct ss_hist_store st;

	ss_hist_store_init(&st, 2, 1000);
	memset(slots, 0, sizeof(slots));
	slots[0] = 1;
	for (uint64_t cg = 1; cg <= 5; cg++)
		ss_hist_store_add(&st, cg, SS_HK_RUNQ, slots, 1);
	ss_hist_store_add(&st, 1, SS_HK_RUNQ, slots, 1); /* known: its own */
	cr_expect_eq(st.n, 2);
	cr_expect(st.have_other);
	cr_expect(st.other.other);
	cr_expect_eq(st.other.slots[SS_HK_RUNQ][0], 3);
	cr_expect_eq(st.overflow, 3);
	cr_expect_eq(ss_hist_store_find(&st, 1)->slots[SS_HK_RUNQ][0], 2);
	cr_expect_null(ss_hist_store_find(&st, 3));
	ss_hist_store_free(&st);
}

static bool alive_7(uint64_t cg, void *ctx)
{
	(void)ctx;
	return cg == 7;
}

/* a gone cgroup's series stays ttl_ns after last seen, a live one always */
Test(prom_hist, expire_gone_after_ttl)
{
	struct ss_hist_store st;

	ss_hist_store_init(&st, 10, 100);
	st.alive = alive_7;
	memset(slots, 0, sizeof(slots));
	slots[0] = 1;
	ss_hist_store_add(&st, 7, SS_HK_RUNQ, slots, 0);
	ss_hist_store_add(&st, 8, SS_HK_RUNQ, slots, 0);
	ss_hist_store_add(&st, 9, SS_HK_RUNQ, slots, 50);
	cr_expect_eq(ss_hist_store_expire(&st, 100), 0);
	cr_expect_eq(ss_hist_store_expire(&st, 101), 1);
	cr_expect_null(ss_hist_store_find(&st, 8));
	cr_expect_not_null(ss_hist_store_find(&st, 9));
	cr_expect_eq(ss_hist_store_expire(&st, 1000), 1);
	cr_expect_not_null(ss_hist_store_find(&st, 7));
	cr_expect_eq(st.n, 1);
	cr_expect_eq(st.expired, 2);
	ss_hist_store_free(&st);
}
