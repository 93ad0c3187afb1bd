// SPDX-License-Identifier: GPL-2.0
/*
 * test_testseam.c - src/base/testseam.c: SWITCHSTAT_TEST's names and
 * values, each class of refusal (one line naming the culprit), and that
 * the old per-seam variables are refused, not silently ignored.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testseam.h"

static char err[512];

Test(testseam, none)
{
	struct ss_seams s;

	cr_assert_eq(ss_seams_parse(NULL, &s, err, sizeof(err)), 0);
	cr_assert_eq(ss_seams_parse("", &s, err, sizeof(err)), 0);
	for (int i = 0; i < SS_SEAM_COUNT; i++)
		cr_assert(!s.on[i]);
}

Test(testseam, every_name_round_trips)
{
	struct ss_seams s;

	for (int i = 0; i < SS_SEAM_COUNT; i++) {
		char in[64];

		snprintf(in, sizeof(in), "%s%s", ss_seam_name(i),
			 i == SS_SEAM_CTR_OFF	    ? "=0"
			 : i == SS_SEAM_MISS_ARRIVE ? "=2"
						    : "");
		cr_assert_eq(ss_seams_parse(in, &s, err, sizeof(err)), 0,
			     "%s: %s", in, err);
		for (int j = 0; j < SS_SEAM_COUNT; j++)
			cr_assert_eq(s.on[j], i == j, "%s: seam %d", in, j);
	}
}

Test(testseam, list_and_values)
{
	struct ss_seams s;

	cr_assert_eq(ss_seams_parse("no_raw,miss_arrive=3,ctr_off=1", &s, err,
				    sizeof(err)),
		     0, "%s", err);
	cr_assert(s.on[SS_SEAM_NO_RAW]);
	cr_assert(s.on[SS_SEAM_MISS_ARRIVE]);
	cr_assert_eq(s.val[SS_SEAM_MISS_ARRIVE], 3);
	cr_assert(s.on[SS_SEAM_CTR_OFF]);
	cr_assert_eq(s.val[SS_SEAM_CTR_OFF], 1);
	cr_assert(!s.on[SS_SEAM_EXIT_TP]);
	cr_assert(!s.on[SS_SEAM_EXIT_TP_NOW]);
}

static void refused(const char *in, const char *want)
{
	struct ss_seams s;

	err[0] = '\0';
	cr_assert_eq(ss_seams_parse(in, &s, err, sizeof(err)), -1, "%s", in);
	cr_assert(strstr(err, want), "'%s': got '%s', want '%s'", in, err,
		  want);
	cr_assert(!strchr(err, '\n'), "one line: %s", err);
	cr_assert(!strncmp(err, "SWITCHSTAT_TEST: ", 17), "%s", err);
}

Test(testseam, refusals)
{
	refused("no_rwa", "unknown seam 'no_rwa' (known: no_raw, ");
	refused("no_raw,exit_tp_nwo", "unknown seam 'exit_tp_nwo'");
	refused("NO_RAW", "unknown seam 'NO_RAW'");
	refused("no_raw=1", "seam 'no_raw' takes no value (got 'no_raw=1')");
	refused("no_raw,,exit_tp", "an empty seam name");
	refused("no_raw,", "an empty seam name");
	refused(",no_raw", "an empty seam name");
	refused("no_raw,no_raw", "seam 'no_raw' given twice");
	refused("miss_arrive", "seam 'miss_arrive' takes a number 2-1000");
	refused("miss_arrive=", "takes a number 2-1000 (got 'miss_arrive=')");
	refused("miss_arrive=1", "takes a number 2-1000 (got 'miss_arrive=1')");
	refused("miss_arrive=1001", "takes a number 2-1000");
	refused("miss_arrive=3x", "takes a number 2-1000");
	refused("miss_arrive=-3", "takes a number 2-1000");
	refused("ctr_off=8", "seam 'ctr_off' takes a number 0-7");
	refused("ctr_off=99999999999999999999999999999999999",
		"takes a number 0-7");
}

Test(testseam, load_from_the_environment)
{
	cr_assert_eq(setenv("SWITCHSTAT_TEST", "window_clock,miss_arrive=7", 1),
		     0);
	cr_assert_eq(ss_seams_load(err, sizeof(err)), 0, "%s", err);
	cr_assert(ss_seam(SS_SEAM_WINDOW_CLOCK));
	cr_assert(!ss_seam(SS_SEAM_NO_RAW));
	cr_assert_eq(ss_seam_value(SS_SEAM_MISS_ARRIVE), 7);
	cr_assert_eq(ss_seam_value(SS_SEAM_WINDOW_CLOCK), 0);
	cr_assert(!ss_seam(SS_SEAM_COUNT));
}

Test(testseam, old_variables_refused)
{
	static const char *const old[] = { "SWITCHSTAT_TEST_EXIT_TP_NOW",
					   "SWITCHSTAT_TEST_NO_RAW",
					   "SWITCHSTAT_COUNTER_TIMES" };

	unsetenv("SWITCHSTAT_TEST");
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		cr_assert_eq(setenv(old[i], "1", 1), 0);
		err[0] = '\0';
		cr_assert_eq(ss_seams_load(err, sizeof(err)), -1, "%s", old[i]);
		cr_assert(strstr(err, old[i]) && strstr(err, "is not read"),
			  "%s: %s", old[i], err);
		unsetenv(old[i]);
	}
	cr_assert_eq(ss_seams_load(err, sizeof(err)), 0, "%s", err);
	cr_assert(!ss_seam(SS_SEAM_WINDOW_CLOCK));
}
