// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/model/histkind.c: the histogram kind table, checked against
 * literal names, option bits, ids, probe macros and titles.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "histkind.h"
#include "opts.h"

static const struct {
	const char *name, *define, *title;
	unsigned int bit, id;
} want[] = {
	{ "oncpu", "SS_HIST_ONCPU", "on-CPU time", SS_HIST_ONCPU, 0 },
	{ "offcpu", "SS_HIST_OFFCPU", "off-CPU time", SS_HIST_OFFCPU, 1 },
	{ "runq", "SS_HIST_RUNQ", "run-queue latency", SS_HIST_RUNQ, 2 },
	{ "offcpu-S", "SS_HIST_OFF_S", "off-CPU time, state S (sleep)",
	  SS_HIST_OFF_S, 3 },
	{ "offcpu-D", "SS_HIST_OFF_D",
	  "off-CPU time, state D (uninterruptible, killable, idle)",
	  SS_HIST_OFF_D, 4 },
	{ "offcpu-IO", "SS_HIST_OFF_IO",
	  "off-CPU time, state D in io_schedule (I/O wait)", SS_HIST_OFF_IO,
	  5 },
	{ "offcpu-T", "SS_HIST_OFF_T",
	  "off-CPU time, state T or t (stopped, traced)", SS_HIST_OFF_T, 6 },
	{ "offcpu-R", "SS_HIST_OFF_R",
	  "off-CPU time, state R (preempted: waiting for a CPU)", SS_HIST_OFF_R,
	  7 },
};

#define N_WANT (sizeof(want) / sizeof(want[0]))

Test(histkind, table_rows_in_id_order)
{
	const struct ss_hist_kind_def *k;

	cr_assert_eq(ss_hist_kinds(&k), N_WANT);
	for (size_t i = 0; i < N_WANT; i++) {
		cr_expect_str_eq(k[i].name, want[i].name);
		cr_expect_str_eq(k[i].define, want[i].define);
		cr_expect_str_eq(k[i].title, want[i].title);
		cr_expect_eq(k[i].id, want[i].id, "%s", want[i].name);
		cr_expect_eq(k[i].bit, want[i].bit, "%s", want[i].name);
		cr_expect_eq(k[i].bit, 1U << k[i].id, "%s", want[i].name);
		cr_expect_eq(ss_hist_kind_by_id(i), &k[i]);
	}
	cr_expect_null(ss_hist_kind_by_id(N_WANT));
}

Test(histkind, by_name_is_exact)
{
	cr_expect_str_eq(ss_hist_kind_by_name("runq", 4)->title,
			 "run-queue latency");
	cr_expect_str_eq(ss_hist_kind_by_name("oncpu,runq", 5)->name, "oncpu");
	cr_expect_null(ss_hist_kind_by_name("runq", 3));
	cr_expect_null(ss_hist_kind_by_name("RUNQ", 4));
	cr_expect_null(ss_hist_kind_by_name("", 0));
}
