/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testseam.h - the test seams: switches that only the tests (and
 * scripts/bench-overhead.sh) set, to take a path this kernel would not
 * take by itself (the regular tracepoints on a kernel with BTF, a counter
 * never scheduled on a machine without a PMU, ...).  All of them come
 * from one environment variable, read once at start-up:
 *
 *   SWITCHSTAT_TEST=name[,name=value...]   e.g. no_raw,miss_arrive=3
 *
 * An unknown name, a missing or unwanted value, a value out of range, a
 * name given twice or an old per-seam variable (SWITCHSTAT_TEST_*,
 * SWITCHSTAT_COUNTER_TIMES) is refused with one line: a typo in a test
 * must not silently test the default path.  tests/README.md lists each
 * seam and the tests that use it.
 */
#ifndef SWITCHSTAT_TESTSEAM_H
#define SWITCHSTAT_TESTSEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_SEAM_ENV "SWITCHSTAT_TEST"

enum ss_seam {
	SS_SEAM_NO_RAW, /* the regular tracepoints (feat_path) */
	SS_SEAM_RAW_STATE_FROM_TASK, /* prev_state from prev (feat_path) */
	SS_SEAM_NO_EXIT_TP, /* never sched_exit_tp (feat_path) */
	SS_SEAM_EXIT_TP, /* sched_exit_tp compiled and attached at start */
	SS_SEAM_EXIT_TP_NOW, /* ... attached at start where compiled */
	SS_SEAM_NO_KCLOCK, /* no kernel slice clock (feat_path) */
	SS_SEAM_WINDOW_CLOCK, /* rows on the sched_switch window */
	SS_SEAM_NO_TASK_STORAGE, /* --blame waits in a hash (feat_blame) */
	SS_SEAM_NO_BTF, /* identity without BTF (feat_identity) */
	SS_SEAM_NO_ROW_CACHE, /* no per-CPU row cache (feat_identity) */
	SS_SEAM_VERIFIER_FAIL, /* a program the verifier rejects */
	SS_SEAM_COUNTER_TIMES, /* every counter read with its times */
	SS_SEAM_CTR_OFF, /* =I: counter I opened disabled (0-7) */
	SS_SEAM_MISS_ARRIVE, /* =N: every Nth switch-in unseen (2-1000) */
	SS_SEAM_NO_PSI, /* as a kernel without PSI (feat_psi) */
	SS_SEAM_COUNT
};

/* A parsed SWITCHSTAT_TEST value: which seams are on, and their values. */
struct ss_seams {
	bool on[SS_SEAM_COUNT];
	uint64_t val[SS_SEAM_COUNT];
};

/*
 * ss_seams_parse - parse @s ("name[=value],...", NULL or "" for none) into
 * @out.  Returns 0, or -1 with one line saying why in @err (@len bytes).
 */
int ss_seams_parse(const char *s, struct ss_seams *out, char *err, size_t len);

/*
 * ss_seams_load - parse SWITCHSTAT_TEST from the environment into the
 * process's seams (ss_seam, ss_seam_value), and refuse the old per-seam
 * variables.  Call once, before anything reads a seam.  Returns 0, or -1
 * with one line in @err.
 */
int ss_seams_load(char *err, size_t len);

/* ss_seam - whether seam @s is on (after ss_seams_load; else off) */
bool ss_seam(enum ss_seam s);

/* ss_seam_value - the value given to seam @s (0 when off or valueless) */
uint64_t ss_seam_value(enum ss_seam s);

/* ss_seam_name - the name seam @s is spelled with in SWITCHSTAT_TEST */
const char *ss_seam_name(enum ss_seam s);

#endif
