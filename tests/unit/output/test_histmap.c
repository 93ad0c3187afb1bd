// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for probes/hist_shared.h (the slot function the BPF program
 * runs, compiled here for the host) and src/output/histmap.c (sorting and text,
 * CSV and JSON printing of one interval's histograms).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cgroup.h"
#include "hist.h"
#include "histmap.h"

/* Output of fn(e, ...) in format fmt as a malloc'ed string. */
#define CAPTURE(fmt, call)                              \
	({                                              \
		char *buf_ = NULL;                      \
		size_t len_ = 0;                        \
		FILE *f = open_memstream(&buf_, &len_); \
		struct ss_emit em_, *e = &em_;          \
		cr_assert_not_null(f);                  \
		ss_emit_init(e, f, fmt);                \
		call;                                   \
		cr_assert_eq(fclose(f), 0);             \
		buf_;                                   \
	})

/* ---- slot function: BPF (ss_hist_slot) agrees with the host ------------ */

Test(hist_slot, agrees_with_log2_slot_everywhere)
{
	static const unsigned long long units[] = { 1, 1000, 1000000 };

	for (int u = 0; u < 3; u++) {
		for (int k = 0; k < 64; k++) {
			for (int d = -1; d <= 1; d++) {
				unsigned long long ns = (1ULL << k) + d;

				cr_expect_eq(ss_hist_slot(ns, units[u]),
					     ss_log2_slot(ns / units[u],
							  SS_HIST_SLOTS),
					     "ns=%llu unit=%llu", ns, units[u]);
			}
		}
		cr_expect_eq(
			ss_hist_slot(ULLONG_MAX, units[u]),
			ss_log2_slot(ULLONG_MAX / units[u], SS_HIST_SLOTS));
	}
}

Test(hist_slot, log2_matches_floor_log2)
{
	cr_expect_eq(ss_log2_u64(0), 0);
	cr_expect_eq(ss_log2_u64(1), 0);
	for (int k = 1; k < 64; k++) {
		cr_expect_eq(ss_log2_u64(1ULL << k), (unsigned int)k);
		cr_expect_eq(ss_log2_u64((1ULL << k) - 1), (unsigned int)k - 1);
	}
	cr_expect_eq(ss_log2_u64(ULLONG_MAX), 63);
}

/* 0 ns, 1 ns and 2^40 ns land in the first or last slot (clamped) */
Test(hist_slot, h10_extremes_are_clamped)
{
	cr_expect_eq(ss_hist_slot(0, 1000), 0);
	cr_expect_eq(ss_hist_slot(1, 1000), 0);
	cr_expect_eq(ss_hist_slot(0, 1), 0);
	cr_expect_eq(ss_hist_slot(1, 1), 0);
	cr_expect_eq(ss_hist_slot(1ULL << 40, 1000), SS_HIST_SLOTS - 1);
	cr_expect_eq(ss_hist_slot(1ULL << 40, 1), SS_HIST_SLOTS - 1);
	cr_expect_eq(ss_hist_slot(1ULL << 40, 1000000), 20); /* 1099 s */
	cr_expect_eq(ss_hist_slot(ULLONG_MAX, 1000), SS_HIST_SLOTS - 1);
}

Test(hist_slot, usecs_and_msecs_units)
{
	/* a 1.05 ms nanosleep: 1050 us -> slot 10 (1024..2047); 1 ms -> 0 */
	cr_expect_eq(ss_hist_slot(1050000, 1000), 10);
	cr_expect_eq(ss_hist_slot(1050000, 1000000), 0);
	cr_expect_eq(ss_hist_slot(999, 1000), 0); /* below 1 us */
	cr_expect_eq(ss_hist_slot(2000000000ULL, 1000000), 10); /* 2 s */
	cr_expect_eq(ss_hist_slot(2000000000ULL, 1000), 20);
}

/* ---- histmap ------------------------------------------------------------ */

static struct ss_hist_rec rec(unsigned int kind, __u32 tgid, __u32 tid,
			      const char *comm)
{
	struct ss_hist_rec r;

	memset(&r, 0, sizeof(r));
	r.key.kind = kind;
	r.key.tgid = tgid;
	r.key.tid = tid;
	strncpy(r.val.comm, comm, sizeof(r.val.comm));
	return r;
}

Test(histmap, kind_names)
{
	cr_expect_str_eq(ss_hist_kind_name(SS_HK_ONCPU), "oncpu");
	cr_expect_str_eq(ss_hist_kind_name(SS_HK_OFFCPU), "offcpu");
	cr_expect_str_eq(ss_hist_kind_name(SS_HK_RUNQ), "runq");
	cr_expect_str_eq(ss_hist_kind_name(SS_HK_MAX), "?");
}

Test(histmap, slot_bounds_match_print_log2_hist)
{
	uint64_t lo, hi;

	ss_hist_slot_bounds(0, &lo, &hi);
	cr_expect(lo == 0 && hi == 1);
	ss_hist_slot_bounds(10, &lo, &hi);
	cr_expect(lo == 1024 && hi == 2047);
	ss_hist_slot_bounds(63, &lo, &hi);
	cr_expect(lo == 1ULL << 63 && hi == UINT64_MAX);
}

Test(histmap, sort_kind_then_total_then_id)
{
	struct ss_hist_rec r[4] = {
		rec(SS_HK_RUNQ, 5, 0, "a"),
		rec(SS_HK_ONCPU, 9, 0, "b"),
		rec(SS_HK_ONCPU, 3, 0, "c"),
		rec(SS_HK_ONCPU, 7, 0, "d"),
	};

	r[0].val.slots[0] = 100;
	r[1].val.slots[2] = 5;
	r[2].val.slots[1] = 5;
	r[3].val.slots[4] = 6;
	ss_histmap_sort(r, 4);
	cr_expect_eq(r[0].key.tgid, 7); /* oncpu, total 6 */
	cr_expect_eq(r[1].key.tgid, 3); /* oncpu, total 5, lower pid */
	cr_expect_eq(r[2].key.tgid, 9);
	cr_expect_eq(r[3].key.kind, SS_HK_RUNQ);
}

Test(histmap, text_one_histogram_per_kind)
{
	struct ss_hist_rec r[2] = { rec(SS_HK_ONCPU, 0, 0, ""),
				    rec(SS_HK_OFFCPU, 0, 0, "") };
	struct ss_hist_fmt fmt = { 0 };
	char *out;

	r[0].val.slots[1] = 2;
	r[1].val.slots[0] = 1;
	r[1].val.slots[2] = 4;
	out = CAPTURE(SS_FMT_TABLE, ss_histmap_text(e, r, 2, &fmt));
	/* clang-format off */
	cr_expect_str_eq(out,
		"on-CPU time:\n"
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 2        |****************************************|\n"
		"\n"
		"off-CPU time:\n"
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 1        |**********                              |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 4        |****************************************|\n"
		"\n");
	/* clang-format on */
	free(out);
}

Test(histmap, text_per_process_msecs_top_and_empty)
{
	struct ss_hist_rec r[4] = {
		rec(SS_HK_RUNQ, 42, 0, "spinner"),
		rec(SS_HK_RUNQ, 43, 0, "bad\ncomm"),
		rec(SS_HK_RUNQ, 44, 0, "third"),
		rec(SS_HK_RUNQ, 45, 0, "empty"),
	};
	struct ss_hist_fmt fmt = { .per = 1, .ms = true, .top = 2 };
	char *out;

	r[0].val.slots[0] = 3;
	r[1].val.slots[0] = 1;
	r[2].val.slots[0] = 1; /* third of the kind: over -n 2 */
	out = CAPTURE(SS_FMT_TABLE, ss_histmap_text(e, r, 4, &fmt));
	/* clang-format off */
	cr_expect_str_eq(out,
		"run-queue latency:\n"
		"\n"
		"pid = 42 spinner\n"
		"     msecs               : count    distribution\n"
		"         0 -> 1          : 3        |****************************************|\n"
		"\n"
		"pid = 43 bad?comm\n"
		"     msecs               : count    distribution\n"
		"         0 -> 1          : 1        |****************************************|\n"
		"\n");
	/* clang-format on */
	free(out);
}

Test(histmap, text_per_thread_and_nothing_when_empty)
{
	struct ss_hist_rec r = rec(SS_HK_OFFCPU, 42, 43, "worker");
	struct ss_hist_fmt fmt = { .per = 2 };
	char *out;

	out = CAPTURE(SS_FMT_TABLE, ss_histmap_text(e, &r, 1, &fmt));
	cr_expect_str_eq(out, "");
	free(out);
	r.val.slots[10] = 7;
	out = CAPTURE(SS_FMT_TABLE, ss_histmap_text(e, &r, 1, &fmt));
	cr_expect(strstr(out, "off-CPU time:\n\ntid = 43 worker\n") == out,
		  "%s", out);
	cr_expect(strstr(out, "      1024 -> 2047       : 7        |"), "%s",
		  out);
	free(out);
}

Test(histmap, csv_rows)
{
	struct ss_hist_rec r[2] = { rec(SS_HK_RUNQ, 42, 43, "a,b"),
				    rec(SS_HK_ONCPU, 0, 0, "") };
	struct ss_hist_fmt fmt = { .per = 2, .time_s = 1700000000.25 };
	char *out;
	size_t n;

	r[0].val.slots[0] = 1;
	r[0].val.slots[10] = 9;
	out = CAPTURE(SS_FMT_CSV, n = ss_histmap_records(e, r, 1, &fmt));
	cr_expect_eq(n, 2);
	cr_expect_str_eq(
		out, "1700000000.250,runq,usecs,42,43,\"a,b\",0,1,1\n"
		     "1700000000.250,runq,usecs,42,43,\"a,b\",1024,2047,9\n");
	free(out);

	fmt.per = 0;
	r[1].val.slots[26] = 2;
	out = CAPTURE(SS_FMT_CSV, n = ss_histmap_records(e, &r[1], 1, &fmt));
	cr_expect_eq(n, 1);
	cr_expect_str_eq(
		out, "1700000000.250,oncpu,usecs,,,,67108864,134217727,2\n");
	free(out);
	out = CAPTURE(SS_FMT_CSV, ss_histmap_header(e, &fmt));
	cr_expect_str_eq(out, "time,kind,unit,pid,tid,comm,low,high,count\n");
	free(out);
}

Test(histmap, json_rows)
{
	struct ss_hist_rec r[2] = { rec(SS_HK_OFFCPU, 42, 0, "sl\"eeper"),
				    rec(SS_HK_OFFCPU, 0, 0, "") };
	struct ss_hist_fmt fmt = { .per = 1, .ms = true, .time_s = 12.5 };
	char *out;

	r[0].val.slots[1] = 4;
	out = CAPTURE(SS_FMT_JSON, ss_histmap_records(e, r, 1, &fmt));
	cr_expect_str_eq(out,
			 "{\"type\":\"hist\",\"time\":12.500,"
			 "\"kind\":\"offcpu\",\"unit\":\"msecs\","
			 "\"pid\":42,\"tid\":null,\"comm\":\"sl\\\"eeper\","
			 "\"low\":2,\"high\":3,\"count\":4}\n");
	free(out);

	fmt.per = 0;
	fmt.ms = false;
	r[1].val.slots[0] = 1;
	out = CAPTURE(SS_FMT_JSON, ss_histmap_records(e, &r[1], 1, &fmt));
	cr_expect_str_eq(out, "{\"type\":\"hist\",\"time\":12.500,"
			      "\"kind\":\"offcpu\",\"unit\":\"usecs\","
			      "\"pid\":null,\"tid\":null,\"comm\":null,"
			      "\"low\":0,\"high\":1,\"count\":1}\n");
	free(out);
}

Test(histmap, cpu_delta_sums_cpus_and_diffs_intervals)
{
	static struct ss_hist_cpu cpus[3];
	uint64_t prev[SS_HK_MAX][SS_HIST_SLOTS] = { { 0 } };
	struct ss_hist_rec out[SS_HK_MAX];
	int n;

	cpus[0].slots[SS_HK_ONCPU][3] = 5;
	cpus[2].slots[SS_HK_ONCPU][3] = 2;
	cpus[1].slots[SS_HK_RUNQ][26] = 1;
	cpus[1].slots[SS_HK_OFFCPU][0] = 9; /* kind not asked for */
	n = ss_hist_cpu_delta(cpus, 3, prev,
			      1U << SS_HK_ONCPU | 1U << SS_HK_RUNQ, out);
	cr_assert_eq(n, 2);
	cr_expect_eq(out[0].key.kind, SS_HK_ONCPU);
	cr_expect_eq(out[0].val.slots[3], 7);
	cr_expect_eq(ss_hist_total(&out[0].val), 7);
	cr_expect_eq(out[1].key.kind, SS_HK_RUNQ);
	cr_expect_eq(out[1].val.slots[26], 1);
	cr_expect_eq(out[1].key.tgid, 0);

	/* next interval: only what was added since */
	cpus[1].slots[SS_HK_ONCPU][3] = 4;
	n = ss_hist_cpu_delta(cpus, 3, prev,
			      1U << SS_HK_ONCPU | 1U << SS_HK_RUNQ, out);
	cr_assert_eq(n, 2);
	cr_expect_eq(out[0].val.slots[3], 4);
	cr_expect_eq(ss_hist_total(&out[1].val), 0);
}

/* ---- per cgroup (-G) and the merge of finer keys ----------------------- */

static char app_path[] = "/app.slice";
static char docker_path[] = "/system.slice/docker-"
			    "0123456789abcdef0123456789abcdef0123456789abcdef01"
			    "23456789abcdef.scope";
static struct ss_cgroup_entry cg_ents[] = { { 7, app_path },
					    { 9, docker_path } };

static void fake_cg(struct ss_cgroup_cache *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->mount, "/nonexistent");
	c->ents = cg_ents;
	c->n = 2;
	c->rescan_interval_ns = UINT64_MAX;
}

static struct ss_hist_rec cg_rec(unsigned int kind, __u32 tgid, __u64 cg,
				 int slot, __u64 count)
{
	struct ss_hist_rec r = rec(kind, tgid, tgid, "p");

	r.key.cgroup_id = cg;
	r.key.start_ns = tgid * 10ULL;
	r.val.slots[slot] = count;
	return r;
}

/*
 * The probes key by (process, cgroup) with -P -G or --listen -P: shown
 * per process the cgroups are summed; per cgroup the processes are; with
 * one histogram, everything of a kind
 */
Test(histmap, merge_by_what_is_shown)
{
	struct ss_hist_rec r[5];
	size_t n;

	r[0] = cg_rec(SS_HK_RUNQ, 42, 7, 1, 2);
	r[1] = cg_rec(SS_HK_RUNQ, 42, 9, 1, 3); /* moved: same process */
	r[2] = cg_rec(SS_HK_RUNQ, 43, 7, 2, 5);
	r[3] = cg_rec(SS_HK_ONCPU, 43, 7, 0, 1);
	r[4] = cg_rec(SS_HK_RUNQ, 44, 9, 1, 1);
	n = ss_histmap_merge(r, 5, 1);
	cr_assert_eq(n, 4);
	cr_expect_eq(r[0].key.kind, SS_HK_ONCPU);
	cr_expect_eq(r[1].key.tgid, 42);
	cr_expect_eq(r[1].val.slots[1], 5);
	cr_expect_eq(r[1].key.cgroup_id, 0);
	cr_expect_str_eq(r[1].val.comm, "p");
	cr_expect_eq(r[2].key.tgid, 43);
	cr_expect_eq(r[3].key.tgid, 44);

	r[0] = cg_rec(SS_HK_RUNQ, 42, 7, 1, 2);
	r[1] = cg_rec(SS_HK_RUNQ, 42, 9, 1, 3);
	r[2] = cg_rec(SS_HK_RUNQ, 43, 7, 2, 5);
	r[3] = cg_rec(SS_HK_ONCPU, 43, 7, 0, 1);
	r[4] = cg_rec(SS_HK_RUNQ, 44, 9, 1, 1);
	n = ss_histmap_merge(r, 5, 3);
	cr_assert_eq(n, 3);
	cr_expect_eq(r[0].key.kind, SS_HK_ONCPU);
	/* runq of cgroup 7: 2 + 5 = 7 > cgroup 9's 3 + 1: first */
	cr_expect_eq(r[1].key.cgroup_id, 7);
	cr_expect_eq(r[1].key.tgid, 0);
	cr_expect_eq(r[1].val.slots[1], 2);
	cr_expect_eq(r[1].val.slots[2], 5);
	cr_expect_eq(r[2].key.cgroup_id, 9);
	cr_expect_eq(r[2].val.slots[1], 4);

	r[0] = cg_rec(SS_HK_RUNQ, 42, 7, 1, 2);
	r[1] = cg_rec(SS_HK_RUNQ, 43, 9, 1, 3);
	n = ss_histmap_merge(r, 2, 0);
	cr_assert_eq(n, 1);
	cr_expect_eq(r[0].val.slots[1], 5);
}

Test(histmap, text_and_csv_per_cgroup)
{
	struct ss_cgroup_cache cg;
	struct ss_hist_rec r[3];
	struct ss_hist_fmt fmt = { .per = 3, .time_s = 12.5, .cg = &cg };
	char *out;

	fake_cg(&cg);
	r[0] = cg_rec(SS_HK_RUNQ, 0, 7, 0, 3);
	r[1] = cg_rec(SS_HK_RUNQ, 0, 9, 0, 2);
	r[2] = cg_rec(SS_HK_RUNQ, 0, 555, 0, 1); /* gone: its id */
	out = CAPTURE(SS_FMT_TABLE, ss_histmap_text(e, r, 3, &fmt));
	/* clang-format off */
	cr_expect_str_eq(out,
		"run-queue latency:\n"
		"\n"
		"cgroup = /app.slice\n"
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 3        |****************************************|\n"
		"\n"
		"cgroup = 0123456789ab\n"
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 2        |****************************************|\n"
		"\n"
		"cgroup = 555\n"
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 1        |****************************************|\n"
		"\n");
	/* clang-format on */
	free(out);
	out = CAPTURE(SS_FMT_CSV, ss_histmap_header(e, &fmt));
	cr_expect_str_eq(out,
			 "time,kind,unit,cgroup_id,cgroup,low,high,count\n");
	free(out);
	out = CAPTURE(SS_FMT_CSV, ss_histmap_records(e, r, 2, &fmt));
	cr_expect_str_eq(out, "12.500,runq,usecs,7,/app.slice,0,1,3\n"
			      "12.500,runq,usecs,9,/system.slice/docker-"
			      "0123456789abcdef0123456789abcdef0123456789abcdef"
			      "0123456789abcdef.scope,0,1,2\n");
	free(out);
	out = CAPTURE(SS_FMT_JSON, ss_histmap_records(e, &r[2], 1, &fmt));
	cr_expect_str_eq(out, "{\"type\":\"hist\",\"time\":12.500,"
			      "\"kind\":\"runq\",\"unit\":\"usecs\","
			      "\"cgroup_id\":555,\"cgroup\":\"555\","
			      "\"low\":0,\"high\":1,\"count\":1}\n");
	free(out);
}
