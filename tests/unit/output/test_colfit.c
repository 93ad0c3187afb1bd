// SPDX-License-Identifier: GPL-2.0
/*
 * test_colfit.c - src/output/colfit.c: which columns stay, which are
 * abbreviated, in what order, and the width the terminal is asked for.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "colfit.h"

/* widths 10 + 1 + 10 + 1 + 10 = 32; b can shrink to 4, c goes first */
static const struct ss_fit_col three[] = {
	{ .width = 10, .drop = 0 },
	{ .width = 10, .short_width = 4, .drop = 1 },
	{ .width = 10, .drop = 2 },
};

Test(colfit, no_limit_and_wide_enough_keep_all)
{
	struct ss_fit_out o[3];

	cr_expect_eq(ss_fit_columns(three, 3, 0, o), 32);
	cr_expect(o[0].shown && o[1].shown && o[2].shown);
	cr_expect(!o[1].abbreviated);
	cr_expect_eq(ss_fit_columns(three, 3, 32, o), 32);
	cr_expect(o[2].shown && !o[1].abbreviated);
}

Test(colfit, abbreviates_before_dropping)
{
	struct ss_fit_out o[3];

	/* 26 after b's abbreviation: nothing dropped */
	cr_expect_eq(ss_fit_columns(three, 3, 26, o), 26);
	cr_expect(o[0].shown && o[1].shown && o[2].shown);
	cr_expect(o[1].abbreviated);
}

Test(colfit, drops_highest_rank_then_restores_width)
{
	struct ss_fit_out o[3];

	/* 25: c goes; then b fits whole again (21) */
	cr_expect_eq(ss_fit_columns(three, 3, 25, o), 21);
	cr_expect(o[0].shown && o[1].shown && !o[2].shown);
	cr_expect(!o[1].abbreviated);
	/* 16: c goes, b stays short (15) */
	cr_expect_eq(ss_fit_columns(three, 3, 16, o), 15);
	cr_expect(o[1].shown && o[1].abbreviated && !o[2].shown);
	/* 12: b goes too */
	cr_expect_eq(ss_fit_columns(three, 3, 12, o), 10);
	cr_expect(o[0].shown && !o[1].shown && !o[2].shown);
}

Test(colfit, rank_zero_always_stays)
{
	struct ss_fit_out o[3];

	cr_expect_eq(ss_fit_columns(three, 3, 3, o), 10);
	cr_expect(o[0].shown);
}

/* equal ranks: the rightmost goes first */
Test(colfit, equal_ranks_rightmost_first)
{
	static const struct ss_fit_col c[] = {
		{ .width = 5 },
		{ .width = 5, .drop = 1 },
		{ .width = 5, .drop = 1 },
		{ .width = 5, .drop = 1 },
	};
	struct ss_fit_out o[4];

	cr_expect_eq(ss_fit_columns(c, 4, 17, o), 17);
	cr_expect(o[1].shown && o[2].shown && !o[3].shown);
	cr_expect_eq(ss_fit_columns(c, 4, 12, o), 11);
	cr_expect(o[1].shown && !o[2].shown && !o[3].shown);
}

/* not a tty: $COLUMNS, else no limit */
Test(colfit, table_width_from_env)
{
	FILE *f = tmpfile();

	cr_assert_not_null(f);
	setenv("COLUMNS", "91", 1);
	cr_expect_eq(ss_table_width(f), 91);
	setenv("COLUMNS", "9x", 1);
	cr_expect_eq(ss_table_width(f), 0);
	setenv("COLUMNS", "0", 1);
	cr_expect_eq(ss_table_width(f), 0);
	unsetenv("COLUMNS");
	cr_expect_eq(ss_table_width(f), 0);
	fclose(f);
}
