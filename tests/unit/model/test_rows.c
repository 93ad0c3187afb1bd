// SPDX-License-Identifier: GPL-2.0
/*
 * test_rows.c - src/model/rows.c: row storage growth, sorting by every key with
 * the documented tie-breaks, the per-cgroup merge (-G), %CPU and the on-CPU
 * total used by --check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"

static struct ss_row mk(uint32_t tgid, uint32_t tid, uint64_t oncpu,
			uint64_t vol, uint64_t invol, uint64_t cgid)
{
	struct ss_row r;

	memset(&r, 0, sizeof(r));
	r.key.tgid = tgid;
	r.key.tid = tid;
	r.v.oncpu_ns = oncpu;
	r.v.voluntary = vol;
	r.v.involuntary = invol;
	r.v.cgroup_id = cgid;
	snprintf(r.v.comm, sizeof(r.v.comm), "c%u.%u", tgid, tid);
	return r;
}

static void push_all(struct ss_interval *iv, const struct ss_row *rows,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(ss_rows_push(iv, &rows[i].key, &rows[i].v), 0);
}

/* ---- storage -------------------------------------------------------------- */

Test(rows, push_grows_past_256_and_keeps_rows)
{
	struct ss_interval iv = { 0 };
	const size_t n = 1000;

	for (size_t i = 0; i < n; i++) {
		struct ss_row r = mk(i + 1, i + 2, i * 3, i * 5, i * 7, i);

		cr_assert_eq(ss_rows_push(&iv, &r.key, &r.v), 0);
		if (i == 0)
			cr_expect_eq(iv.cap, 256);
		cr_assert_eq(iv.n, i + 1);
		cr_assert_geq(iv.cap, iv.n);
	}
	for (size_t i = 0; i < n; i++) {
		struct ss_row want = mk(i + 1, i + 2, i * 3, i * 5, i * 7, i);

		cr_assert(!memcmp(&iv.rows[i], &want, sizeof(want)),
			  "row %zu changed after growth", i);
	}
	ss_rows_free(&iv);
	cr_expect_null(iv.rows);
	cr_expect_eq(iv.n, 0);
	cr_expect_eq(iv.cap, 0);
}

Test(rows, reset_keeps_allocation_and_clears_stats)
{
	struct ss_interval iv = { 0 };
	struct ss_row r = mk(1, 0, 10, 1, 1, 0);
	struct ss_row *mem;
	size_t cap;

	push_all(&iv, &r, 1);
	for (int i = 0; i < SS_STAT_MAX; i++)
		iv.stats[i] = i + 1;
	mem = iv.rows;
	cap = iv.cap;
	ss_rows_reset(&iv);
	cr_expect_eq(iv.n, 0);
	cr_expect_eq(iv.rows, mem);
	cr_expect_eq(iv.cap, cap);
	for (int i = 0; i < SS_STAT_MAX; i++)
		cr_expect_eq(iv.stats[i], 0, "stats[%d] kept", i);
	/* usable after reset and after free */
	push_all(&iv, &r, 1);
	cr_expect_eq(iv.n, 1);
	ss_rows_free(&iv);
	push_all(&iv, &r, 1);
	cr_expect_eq(iv.n, 1);
	cr_expect_eq(iv.rows[0].key.tgid, 1);
	ss_rows_free(&iv);
}

/* ---- sorting ------------------------------------------------------------ */

/*
 * Sort rows[] under every permutation-ish shuffle and check the order of
 * tgid.tid pairs equals want[] (the comparators must be a total order).
 */
static void check_sort(const struct ss_row *rows, size_t n,
		       enum ss_sort_key key, const uint32_t (*want)[2],
		       const char *what)
{
	for (unsigned int seed = 0; seed < 20; seed++) {
		struct ss_interval iv = { 0 };
		struct ss_row tmp[16];

		cr_assert_leq(n, 16);
		memcpy(tmp, rows, n * sizeof(*rows));
		srand(seed);
		for (size_t i = n - 1; seed && i > 0; i--) {
			size_t j = rand() % (i + 1);
			struct ss_row t = tmp[i];

			tmp[i] = tmp[j];
			tmp[j] = t;
		}
		push_all(&iv, tmp, n);
		ss_rows_sort(&iv, key);
		for (size_t i = 0; i < n; i++)
			cr_expect(iv.rows[i].key.tgid == want[i][0] &&
					  iv.rows[i].key.tid == want[i][1],
				  "%s seed %u: position %zu is %u.%u, want "
				  "%u.%u",
				  what, seed, i, iv.rows[i].key.tgid,
				  iv.rows[i].key.tid, want[i][0], want[i][1]);
		ss_rows_free(&iv);
	}
}

/* Extremes catch comparators written as a subtraction. */
#define BIG (UINT64_MAX - 1)

static const struct ss_row *sort_rows(size_t *n)
{
	static struct ss_row r[9];

	/*           tgid tid oncpu       vol  invol cgid */
	r[0] = mk(10, 0, 500, 1, 1, 0);
	r[1] = mk(11, 0, 500, 3, 0, 0); /* oncpu tie with 10: more switches */
	r[2] = mk(12, 0, BIG, 0, 0, 0);
	r[3] = mk(13, 0, 0, BIG, 0, 0);
	r[4] = mk(14, 0, 0, 0, BIG, 0);
	r[5] = mk(5, 2, 500, 2, 0, 0); /* full tie with 5.1: tid decides */
	r[6] = mk(5, 1, 500, 2, 0, 0);
	r[7] = mk(1, 0, 1, 0, 0, 0);
	r[8] = mk(20, 0, 500, 0, 3, 0); /* switches tie with 11 */
	*n = 9;
	return r;
}

Test(rows_sort, by_oncpu_ties_switches_then_tgid_tid)
{
	size_t n;
	const struct ss_row *r = sort_rows(&n);
	/*
	 * oncpu desc: 12 (BIG); then 500 x5: switches desc 11 (3) = 20 (3)
	 * -> tgid asc 11, 20; then 5.1, 5.2, 10 (2 each) -> tgid, tid asc;
	 * then 1 (1 ns); then 0 ns: 13 and 14 (BIG switches each) -> tgid.
	 */
	static const uint32_t want[][2] = { { 12, 0 }, { 11, 0 }, { 20, 0 },
					    { 5, 1 },  { 5, 2 },  { 10, 0 },
					    { 1, 0 },  { 13, 0 }, { 14, 0 } };

	check_sort(r, n, SS_SORT_ONCPU, want, "oncpu");
}

Test(rows_sort, by_switches_ties_oncpu)
{
	size_t n;
	const struct ss_row *r = sort_rows(&n);
	/*
	 * switches desc: 13, 14 (BIG; tie, oncpu 0 both -> tgid);
	 * then 3: 11, 20 (oncpu tie -> tgid); then 2: 5.1, 5.2, 10;
	 * then 0 switches: 12 (BIG oncpu) before 1 (1 ns).
	 */
	static const uint32_t want[][2] = { { 13, 0 }, { 14, 0 }, { 11, 0 },
					    { 20, 0 }, { 5, 1 },  { 5, 2 },
					    { 10, 0 }, { 12, 0 }, { 1, 0 } };

	check_sort(r, n, SS_SORT_SWITCHES, want, "switch");
}

Test(rows_sort, by_voluntary_ties_oncpu)
{
	size_t n;
	const struct ss_row *r = sort_rows(&n);
	/*
	 * vol desc: 13 (BIG), 11 (3), 5.1 5.2 (2), 10 (1); vol 0: 12 (BIG
	 * oncpu), 20 (500), 1 (1 ns), 14 (0 ns).
	 */
	static const uint32_t want[][2] = { { 13, 0 }, { 11, 0 }, { 5, 1 },
					    { 5, 2 },  { 10, 0 }, { 12, 0 },
					    { 20, 0 }, { 1, 0 },  { 14, 0 } };

	check_sort(r, n, SS_SORT_VOLUNTARY, want, "vol");
}

Test(rows_sort, by_involuntary_ties_oncpu)
{
	size_t n;
	const struct ss_row *r = sort_rows(&n);
	/*
	 * invol desc: 14 (BIG), 20 (3), 10 (1); invol 0: 12 (BIG oncpu), then
	 * oncpu 500: 11 (3 switches), 5.1, 5.2 (2); 1 (1 ns); 13 (0 ns).
	 */
	static const uint32_t want[][2] = { { 14, 0 }, { 20, 0 }, { 10, 0 },
					    { 12, 0 }, { 11, 0 }, { 5, 1 },
					    { 5, 2 },  { 1, 0 },  { 13, 0 } };

	check_sort(r, n, SS_SORT_INVOLUNTARY, want, "invol");
}

Test(rows_sort, by_pid_ascending_tgid_then_tid)
{
	size_t n;
	const struct ss_row *r = sort_rows(&n);
	static const uint32_t want[][2] = { { 1, 0 },  { 5, 1 },  { 5, 2 },
					    { 10, 0 }, { 11, 0 }, { 12, 0 },
					    { 13, 0 }, { 14, 0 }, { 20, 0 } };

	check_sort(r, n, SS_SORT_PID, want, "pid");
}

/* -G rows have tgid = tid = 0: the cgroup id is the last tie-break. */
Test(rows_sort, cgroup_rows_tie_on_cgroup_id)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[3] = { mk(0, 0, 7, 1, 0, 300), mk(0, 0, 7, 1, 0, 100),
			       mk(0, 0, 7, 1, 0, 200) };

	for (int key = SS_SORT_ONCPU; key <= SS_SORT_PID; key++) {
		push_all(&iv, r, 3);
		ss_rows_sort(&iv, key);
		cr_expect(iv.rows[0].v.cgroup_id == 100 &&
				  iv.rows[1].v.cgroup_id == 200 &&
				  iv.rows[2].v.cgroup_id == 300,
			  "key %d: %llu %llu %llu", key,
			  (unsigned long long)iv.rows[0].v.cgroup_id,
			  (unsigned long long)iv.rows[1].v.cgroup_id,
			  (unsigned long long)iv.rows[2].v.cgroup_id);
		ss_rows_reset(&iv);
	}
	ss_rows_free(&iv);
}

Test(rows_sort, empty_and_single)
{
	struct ss_interval iv = { 0 };
	struct ss_row r = mk(3, 0, 1, 1, 1, 1);

	ss_rows_sort(&iv, SS_SORT_ONCPU);
	cr_expect_eq(iv.n, 0);
	push_all(&iv, &r, 1);
	ss_rows_sort(&iv, SS_SORT_PID);
	cr_expect_eq(iv.n, 1);
	cr_expect(!memcmp(&iv.rows[0], &r, sizeof(r)));
	ss_rows_free(&iv);
}

/* A reused pid: two rows with one tgid, the earlier process first. */
Test(rows_sort, reused_pid_rows_by_start_time)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[2] = { mk(9, 0, 5, 1, 1, 1), mk(9, 0, 5, 1, 1, 1) };

	r[0].key.start_ns = 2000;
	r[1].key.start_ns = 1000;
	push_all(&iv, r, 2);
	ss_rows_sort(&iv, SS_SORT_ONCPU);
	cr_expect_eq(iv.rows[0].key.start_ns, 1000);
	cr_expect_eq(iv.rows[1].key.start_ns, 2000);
	ss_rows_sort(&iv, SS_SORT_PID);
	cr_expect_eq(iv.rows[0].key.start_ns, 1000);
	ss_rows_free(&iv);
}

/*
 * --offcpu: rows of the off-CPU map join the accumulator's rows of the
 * same key (name and cgroup of the row that ran), or stay rows of their
 * own; merging by cgroup then sums their off-CPU times too.
 */
Test(rows_merge, coalesce_offcpu_rows)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[4] = { mk(9, 0, 5, 1, 1, 7), mk(10, 0, 6, 1, 0, 7),
			       mk(9, 0, 0, 0, 0, 8), mk(11, 0, 0, 0, 0, 7) };

	push_all(&iv, r, 4);
	snprintf(iv.rows[2].v.comm, sizeof(iv.rows[2].v.comm), "old");
	iv.rows[2].off_ns[SS_OFF_SLEEP] = 100;
	iv.rows[2].off_ns[SS_OFF_RUNQ] = 3;
	iv.rows[3].off_ns[SS_OFF_IOWAIT] = 50;
	ss_rows_coalesce(&iv, 2);
	cr_assert_eq(iv.n, 3);
	ss_rows_sort(&iv, SS_SORT_PID);
	cr_expect_eq(iv.rows[0].key.tgid, 9);
	cr_expect_eq(iv.rows[0].v.oncpu_ns, 5);
	cr_expect_eq(iv.rows[0].off_ns[SS_OFF_SLEEP], 100);
	cr_expect_eq(ss_row_offcpu(&iv.rows[0]), 103);
	cr_expect_str_eq(iv.rows[0].v.comm, "c9.0",
			 "the name of the row that ran");
	cr_expect_eq(iv.rows[0].v.cgroup_id, 7);
	cr_expect_eq(ss_row_offcpu(&iv.rows[1]), 0);
	cr_expect_eq(iv.rows[2].key.tgid, 11);
	cr_expect_eq(iv.rows[2].off_ns[SS_OFF_IOWAIT], 50);
	ss_rows_merge_by_cgroup(&iv);
	cr_assert_eq(iv.n, 1);
	cr_expect_eq(ss_row_offcpu(&iv.rows[0]), 153);
	cr_expect_eq(iv.rows[0].v.oncpu_ns, 11);
	ss_rows_free(&iv);
}

/* -G: a cgroup row's key is its cgroup, never a process's start time. */
Test(rows_merge, key_is_the_cgroup)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[2] = { mk(9, 0, 5, 1, 1, 7), mk(10, 0, 5, 1, 1, 7) };

	r[0].key.start_ns = 123;
	r[0].key.cgroup_id = 7;
	r[1].key.start_ns = 456;
	r[1].key.cgroup_id = 7;
	push_all(&iv, r, 2);
	ss_rows_merge_by_cgroup(&iv);
	cr_assert_eq(iv.n, 1);
	cr_expect_eq(iv.rows[0].key.start_ns, 0);
	cr_expect_eq(iv.rows[0].key.cgroup_id, 7);
	cr_expect_eq(iv.rows[0].v.oncpu_ns, 10);
	ss_rows_free(&iv);
}

/* ---- merge by cgroup ------------------------------------------------------- */

/*
 * struct ss_val after comm is all __u64; every one of them but cgroup_id
 * (the merge key), counter_scaled and counter_lost (bit masks: OR-ed) and cgroup_ns (a
 * time: the latest) must be summed.
 * Walking the struct as u64 slots makes a newly added field that the merge
 * forgets fail here.
 */
#define VAL_SLOTS ((sizeof(struct ss_val) - SS_COMM_LEN) / sizeof(__u64))
#define SLOT_CGID (offsetof(struct ss_val, cgroup_id) - SS_COMM_LEN) / 8
#define SLOT_SCALED (offsetof(struct ss_val, counter_scaled) - SS_COMM_LEN) / 8
#define SLOT_LOST (offsetof(struct ss_val, counter_lost) - SS_COMM_LEN) / 8
/* when the cgroup was read: merged as the latest, not summed */
#define SLOT_CGNS (offsetof(struct ss_val, cgroup_ns) - SS_COMM_LEN) / 8

/* __u64, the fields' own type: a uint64_t view would break strict aliasing */
static __u64 *slots(struct ss_val *v)
{
	return (__u64 *)((char *)v + SS_COMM_LEN);
}

Test(rows_merge, sums_every_field_and_clears_identity)
{
	struct ss_interval iv = { 0 };
	/* cgroup of row i: interleaved, so the merge must sort first */
	static const uint64_t cg[] = { 30, 10, 30, 20, 10, 30, 10 };
	const size_t n = sizeof(cg) / sizeof(cg[0]);
	struct ss_val sum[3], rowv;
	uint64_t scaled_or[3] = { 0 }, lost_or[3] = { 0 }, latest[3] = { 0 };

	cr_assert_eq(SS_COMM_LEN % 8, 0);
	cr_assert_eq((sizeof(struct ss_val) - SS_COMM_LEN) % 8, 0);
	memset(sum, 0, sizeof(sum));
	for (size_t i = 0; i < n; i++) {
		struct ss_key k = { .tgid = 100 + i, .tid = 200 + i };
		int g = cg[i] / 10 - 1;

		memset(&rowv, 0, sizeof(rowv));
		snprintf(rowv.comm, sizeof(rowv.comm), "task%zu", i);
		for (size_t s = 0; s < VAL_SLOTS; s++)
			slots(&rowv)[s] = (i + 1) * 1000 + s;
		rowv.cgroup_id = cg[i];
		/* bit 0 in every row: a sum would carry, an OR does not */
		rowv.counter_scaled = 1 | 1ULL << (i + 1);
		rowv.counter_lost = 1 | 1ULL << (i + 2);
		cr_assert_eq(ss_rows_push(&iv, &k, &rowv), 0);
		for (size_t s = 0; s < VAL_SLOTS; s++)
			slots(&sum[g])[s] += slots(&rowv)[s];
		scaled_or[g] |= rowv.counter_scaled;
		lost_or[g] |= rowv.counter_lost;
		if (slots(&rowv)[SLOT_CGNS] > latest[g])
			latest[g] = slots(&rowv)[SLOT_CGNS];
	}
	ss_rows_merge_by_cgroup(&iv);
	cr_assert_eq(iv.n, 3);
	for (size_t i = 0; i < iv.n; i++) {
		struct ss_row *r = &iv.rows[i];
		char zero[SS_COMM_LEN] = { 0 };
		int g;

		cr_assert(r->v.cgroup_id == 10 || r->v.cgroup_id == 20 ||
			  r->v.cgroup_id == 30);
		g = r->v.cgroup_id / 10 - 1;
		cr_expect_eq(r->key.tgid, 0);
		cr_expect_eq(r->key.tid, 0);
		cr_expect(!memcmp(r->v.comm, zero, sizeof(zero)),
			  "comm not cleared: '%.16s'", r->v.comm);
		for (size_t s = 0; s < VAL_SLOTS; s++) {
			if (s == SLOT_CGID)
				continue;
			if (s == SLOT_CGNS) {
				cr_expect_eq(slots(&r->v)[s], latest[g],
					     "cgroup_ns not the latest");
				continue;
			}
			if (s == SLOT_SCALED) {
				cr_expect_eq(
					slots(&r->v)[s], scaled_or[g],
					"cgroup %llu: scaled mask %#llx",
					(unsigned long long)r->v.cgroup_id,
					(unsigned long long)slots(&r->v)[s]);
				continue;
			}
			if (s == SLOT_LOST) {
				cr_expect_eq(
					slots(&r->v)[s], lost_or[g],
					"cgroup %llu: lost mask %#llx",
					(unsigned long long)r->v.cgroup_id,
					(unsigned long long)slots(&r->v)[s]);
				continue;
			}
			cr_expect_eq(slots(&r->v)[s], slots(&sum[g])[s],
				     "cgroup %llu: u64 field %zu (byte %zu of "
				     "ss_val) is %llu, want the sum %llu",
				     (unsigned long long)r->v.cgroup_id, s,
				     SS_COMM_LEN + s * 8,
				     (unsigned long long)slots(&r->v)[s],
				     (unsigned long long)slots(&sum[g])[s]);
		}
	}
	/* the named fields, spelled out once */
	for (size_t i = 0; i < iv.n; i++) {
		int g = iv.rows[i].v.cgroup_id / 10 - 1;

		cr_expect_eq(iv.rows[i].v.oncpu_ns, sum[g].oncpu_ns);
		cr_expect_eq(iv.rows[i].v.voluntary, sum[g].voluntary);
		cr_expect_eq(iv.rows[i].v.involuntary, sum[g].involuntary);
		cr_expect_eq(iv.rows[i].v.counters[SS_MAX_COUNTERS - 1],
			     sum[g].counters[SS_MAX_COUNTERS - 1]);
		cr_expect_eq(iv.rows[i].v.faults, sum[g].faults);
		cr_expect_eq(iv.rows[i].v.pgalloc, sum[g].pgalloc);
		cr_expect_eq(iv.rows[i].v.reclaim_count, sum[g].reclaim_count);
		cr_expect_eq(iv.rows[i].v.reclaim_ns, sum[g].reclaim_ns);
	}
	ss_rows_free(&iv);
}

Test(rows_merge, single_rows_idle_cgroup_and_empty)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[3] = { mk(7, 8, 100, 1, 2, 0), mk(9, 0, 5, 0, 1, 0),
			       mk(4, 0, 3, 3, 3, 55) };

	ss_rows_merge_by_cgroup(&iv);
	cr_expect_eq(iv.n, 0);
	push_all(&iv, r, 3);
	ss_rows_merge_by_cgroup(&iv);
	cr_assert_eq(iv.n, 2);
	ss_rows_sort(&iv, SS_SORT_ONCPU);
	/* cgroup 0 (idle/no cgroup) rows merge like any other id */
	cr_expect_eq(iv.rows[0].v.cgroup_id, 0);
	cr_expect_eq(iv.rows[0].v.oncpu_ns, 105);
	cr_expect_eq(ss_row_switches(&iv.rows[0]), 4);
	cr_expect_eq(iv.rows[1].v.cgroup_id, 55);
	cr_expect_eq(iv.rows[1].key.tgid, 0, "a lone row keeps its tgid");
	cr_expect_eq(iv.rows[1].key.tid, 0, "a lone row keeps its tid");
	cr_expect_eq(iv.rows[1].v.comm[0], '\0', "a lone row keeps its comm");
	cr_expect_eq(iv.rows[1].v.oncpu_ns, 3);
	ss_rows_free(&iv);
}

/* ---- derived numbers ------------------------------------------------------- */

Test(rows, cpu_pct)
{
	cr_expect_float_eq(ss_cpu_pct(500000000, 1000000000), 50.0, 1e-9);
	cr_expect_float_eq(ss_cpu_pct(4000000000ULL, 1000000000), 400.0, 1e-9);
	cr_expect_float_eq(ss_cpu_pct(0, 1000000000), 0.0, 1e-12);
	cr_expect_float_eq(ss_cpu_pct(123, 0), 0.0, 1e-12);
	cr_expect_float_eq(ss_cpu_pct(UINT64_MAX, UINT64_MAX), 100.0, 1e-9);
	cr_expect_float_eq(ss_cpu_pct(1, 3), 100.0 / 3, 1e-9);
}

Test(rows, switches_and_oncpu_total)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[4] = { mk(1, 0, 10, 1, 2, 0), mk(2, 0, 20, 0, 0, 0),
			       mk(3, 0, 0, 4, 0, 0),
			       mk(4, 0, 1ULL << 40, 0, 9, 0) };

	cr_expect_eq(ss_rows_oncpu_total(&iv), 0);
	push_all(&iv, r, 4);
	cr_expect_eq(ss_rows_oncpu_total(&iv), 30 + (1ULL << 40));
	cr_expect_eq(ss_row_switches(&r[0]), 3);
	cr_expect_eq(ss_row_switches(&r[3]), 9);
	ss_rows_reset(&iv);
	cr_expect_eq(ss_rows_oncpu_total(&iv), 0);
	ss_rows_free(&iv);
}

/* ---- multiplexed counters: one estimate per row (H27) -------------------- */

Test(rows_counters, scaled_once_after_the_cgroup_merge)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[3] = { mk(1, 1, 10, 1, 0, 9), mk(2, 2, 10, 1, 0, 9),
			       mk(3, 3, 10, 1, 0, 8) };

	/* counter 0 timed; rows 1 and 2 share cgroup 9 */
	r[0].v.counters[0] = 1000; /* fully on the PMU, 1 ms */
	r[0].v.ctr_enabled_ns[0] = 1000000;
	r[0].v.ctr_running_ns[0] = 1000000;
	r[1].v.counters[0] = 0; /* never on the PMU, 3 ms */
	r[1].v.ctr_enabled_ns[0] = 3000000;
	r[2].v.counters[0] = 0; /* cgroup 8: never on it */
	r[2].v.ctr_enabled_ns[0] = 5000000;
	r[2].v.counter_scaled = 1; /* the probe's per-slice bit */
	/* counter 1 untimed (software): left as it is */
	r[0].v.counters[1] = 5;
	push_all(&iv, r, 3);
	ss_rows_merge_by_cgroup(&iv);
	ss_rows_scale_counters(&iv, 2, 1);
	cr_assert_eq(iv.n, 2);
	for (size_t i = 0; i < iv.n; i++) {
		const struct ss_val *v = &iv.rows[i].v;

		if (v->cgroup_id == 9) {
			cr_expect_eq(v->counters[0], 4000, "1000 * 4 / 1");
			cr_expect_eq(v->counter_scaled & 1, 1);
			cr_expect_eq(v->ctr_enabled_ns[0], 4000000);
			cr_expect_eq(v->ctr_running_ns[0], 1000000);
			cr_expect_eq(v->counters[1], 5);
		} else {
			cr_expect_eq(v->counters[0], 0);
			cr_expect_eq(v->ctr_running_ns[0], 0, "not counted");
			cr_expect_eq(v->counter_scaled & 1, 0,
				     "not counted is not an estimate");
		}
	}
	ss_rows_free(&iv);
}

/* ---- merge by process (--top's threads off) ------------------------------- */

/*
 * Thread rows of two processes, interleaved, the leader of 10 not first:
 * one row per tgid, every numeric field summed (the slots walk catches a
 * field the merge forgets), tid 0, the leader's comm and cgroup.
 */
Test(rows_merge_process, sums_threads_keeps_the_leader)
{
	struct ss_interval iv = { 0 };
	struct ss_row r[] = {
		mk(10, 12, 5, 1, 2, 7),
		mk(20, 21, 100, 3, 0, 9),
		mk(10, 10, 7, 4, 0, 8),
		mk(10, 11, 11, 0, 5, 7),
	};
	struct ss_val sum10 = { 0 };

	for (size_t i = 0; i < 4; i++) {
		for (size_t s = 0; s < VAL_SLOTS; s++)
			if (s != SLOT_CGID && s != SLOT_SCALED &&
			    s != SLOT_LOST && s != SLOT_CGNS)
				slots(&r[i].v)[s] += i + 1; /* every field */
		if (r[i].key.tgid == 10)
			for (size_t s = 0; s < VAL_SLOTS; s++)
				slots(&sum10)[s] += slots(&r[i].v)[s];
	}
	push_all(&iv, r, 4);
	ss_rows_merge_by_process(&iv);
	cr_assert_eq(iv.n, 2);
	cr_expect_eq(iv.rows[0].key.tgid, 10);
	cr_expect_eq(iv.rows[0].key.tid, 0);
	cr_expect_str_eq(iv.rows[0].v.comm, "c10.10");
	cr_expect_eq(iv.rows[0].v.cgroup_id, 8);
	for (size_t s = 0; s < VAL_SLOTS; s++)
		if (s != SLOT_CGID && s != SLOT_SCALED && s != SLOT_LOST &&
		    s != SLOT_CGNS)
			cr_expect_eq(slots(&iv.rows[0].v)[s], slots(&sum10)[s],
				     "slot %zu", s);
	cr_expect_eq(iv.rows[1].key.tgid, 20);
	cr_expect_eq(iv.rows[1].v.oncpu_ns, 100 + 2);
	ss_rows_free(&iv);
}

Test(rows_merge_process, empty_is_fine)
{
	struct ss_interval iv = { 0 };

	ss_rows_merge_by_process(&iv);
	cr_expect_eq(iv.n, 0);
}
