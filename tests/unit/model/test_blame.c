// SPDX-License-Identifier: GPL-2.0
/* test_blame.c - run-queue blame rows: totals, order, per-culprit view. */
#include <criterion/criterion.h>
#include <string.h>

#include "blame.h"

static struct ss_blame_row row(uint32_t victim, uint32_t culprit, uint32_t kind,
			       uint64_t ns)
{
	struct ss_blame_row r = { .v.delay_ns = ns };

	r.key.victim_tgid = victim;
	r.key.culprit_tgid = culprit;
	r.key.culprit_kind = kind;
	return r;
}

Test(blame, totals_per_victim_and_order)
{
	struct ss_blame_row r[] = {
		row(10, 20, SS_BLAME_TASK, 300),
		row(11, 20, SS_BLAME_TASK, 50),
		row(10, 0, SS_BLAME_IDLE, 100),
		row(10, 21, SS_BLAME_TASK, 600),
		row(11, 0, SS_BLAME_UNKNOWN, 50),
	};

	ss_blame_finish(r, 5);
	/* by delay, descending; ties by victim then culprit */
	cr_assert_eq(r[0].v.delay_ns, 600);
	cr_assert_eq(r[1].v.delay_ns, 300);
	cr_assert_eq(r[2].v.delay_ns, 100);
	cr_assert_eq(r[3].key.culprit_kind, SS_BLAME_TASK); /* 20 < unknown */
	cr_assert_eq(r[4].key.culprit_kind, SS_BLAME_UNKNOWN);
	cr_assert_eq(r[0].victim_total_ns, 1000);
	cr_assert_eq(r[2].victim_total_ns, 1000);
	cr_assert_eq(r[3].victim_total_ns, 100);
	cr_assert_float_eq(ss_blame_pct(&r[0]), 60.0, 1e-9);
	cr_assert_float_eq(ss_blame_pct(&r[4]), 50.0, 1e-9);
}

Test(blame, pct_of_zero_total_is_zero)
{
	struct ss_blame_row r = row(1, 2, SS_BLAME_TASK, 0);

	cr_assert_float_eq(ss_blame_pct(&r), 0.0, 1e-12);
}

Test(blame, per_culprit_view_sums_victims)
{
	struct ss_blame_row r[] = {
		row(10, 20, SS_BLAME_TASK, 300),
		row(11, 20, SS_BLAME_TASK, 50),
		row(12, 20, SS_BLAME_TASK, 5),
		row(10, 21, SS_BLAME_TASK, 600),
		row(10, 0, SS_BLAME_IDLE, 7),
		row(11, 0, SS_BLAME_IDLE, 8),
	};
	struct ss_blame_row out[6];
	size_t n;

	ss_blame_finish(r, 6);
	n = ss_blame_by_culprit(r, 6, out);
	cr_assert_eq(n, 3);
	cr_assert_eq(out[0].key.culprit_tgid, 21);
	cr_assert_eq(out[0].v.delay_ns, 600);
	cr_assert_eq(out[0].victims, 1);
	cr_assert_eq(out[1].key.culprit_tgid, 20);
	cr_assert_eq(out[1].v.delay_ns, 355);
	cr_assert_eq(out[1].victims, 3);
	cr_assert_eq(out[1].key.victim_tgid, 0);
	cr_assert_eq(out[2].key.culprit_kind, SS_BLAME_IDLE);
	cr_assert_eq(out[2].v.delay_ns, 15);
	cr_assert_eq(out[2].victims, 2);
}

Test(blame, cgroup_keys_group_by_cgroup_id)
{
	struct ss_blame_row r[3] = { 0 };
	struct ss_blame_row out[3];

	r[0].key.victim_cgroup = 100;
	r[0].key.culprit_cgroup = 200;
	r[0].v.delay_ns = 10;
	r[1].key.victim_cgroup = 101;
	r[1].key.culprit_cgroup = 200;
	r[1].v.delay_ns = 20;
	r[2].key.victim_cgroup = 100;
	r[2].key.culprit_cgroup = 201;
	r[2].v.delay_ns = 40;
	ss_blame_finish(r, 3);
	cr_assert_eq(r[0].key.culprit_cgroup, 201);
	cr_assert_eq(r[0].victim_total_ns, 50);
	cr_assert_eq(ss_blame_by_culprit(r, 3, out), 2);
	cr_assert_eq(out[0].key.culprit_cgroup, 201);
	cr_assert_eq(out[1].v.delay_ns, 30);
}

Test(blame, labels)
{
	struct ss_blame_key k = { .culprit_kind = SS_BLAME_IDLE };

	cr_assert_str_eq(ss_blame_culprit_label(&k), "(idle)");
	k.culprit_kind = SS_BLAME_UNKNOWN;
	cr_assert_str_eq(ss_blame_culprit_label(&k), "(unknown)");
	k.culprit_kind = SS_BLAME_TASK;
	cr_assert_null(ss_blame_culprit_label(&k));
}

Test(blame, preemptions_by_count_then_victim_then_preemptor)
{
	struct ss_preempt_row r[4];

	memset(r, 0, sizeof(r));

	r[0].key.victim_tgid = 2, r[0].v.count = 5;
	r[1].key.victim_tgid = 1, r[1].v.count = 5;
	r[1].key.culprit_tgid = 9;
	r[2].key.victim_tgid = 1, r[2].v.count = 5;
	r[2].key.culprit_tgid = 3;
	r[3].key.victim_tgid = 3, r[3].v.count = 7;
	ss_preempt_sort(r, 4);
	cr_assert_eq(r[0].v.count, 7);
	cr_assert_eq(r[1].key.victim_tgid, 1);
	cr_assert_eq(r[1].key.culprit_tgid, 3);
	cr_assert_eq(r[2].key.culprit_tgid, 9);
	cr_assert_eq(r[3].key.victim_tgid, 2);
}

Test(blame, noisy_view_others_only_worst_victim_first)
{
	struct ss_blame_row r[] = {
		row(10, 10, SS_BLAME_TASK, 900), /* itself: left out */
		row(10, 20, SS_BLAME_TASK, 100),
		row(11, 20, SS_BLAME_TASK, 300),
		row(10, 21, SS_BLAME_TASK, 50),
		row(11, 0, SS_BLAME_IDLE, 999), /* not a neighbour */
		row(11, 0, SS_BLAME_UNKNOWN, 999),
		row(10, 22, SS_BLAME_TASK, 200),
	};
	struct ss_blame_row out[7];
	size_t m = ss_blame_noisy(r, 7, out);

	cr_assert_eq(m, 4);
	/* victim 10: 350 by others, above victim 11's 300 */
	cr_assert_eq(out[0].key.victim_tgid, 10);
	cr_assert_eq(out[0].victim_total_ns, 350);
	cr_assert_eq(out[0].key.culprit_tgid, 22);
	cr_assert_eq(out[1].key.culprit_tgid, 20);
	cr_assert_eq(out[2].key.culprit_tgid, 21);
	cr_assert_eq(out[3].key.victim_tgid, 11);
	cr_assert_eq(out[3].victim_total_ns, 300);
	cr_assert_eq(ss_blame_noisy(r, 1, out), 0);
}
