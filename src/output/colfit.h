/* SPDX-License-Identifier: GPL-2.0 */
/*
 * colfit.h - fitting a table's columns into a terminal's width: abbreviate,
 * then drop the lowest-priority columns, before the terminal wraps lines.
 * ss_fit_columns is pure (unit-tested); ss_table_width asks the terminal.
 */
#ifndef SWITCHSTAT_COLFIT_H
#define SWITCHSTAT_COLFIT_H

#include <stdbool.h>
#include <stdio.h>

/* One column as the fitter sees it; columns are one space apart. */
struct ss_fit_col {
	int width; /* full width, characters (> 0) */
	int short_width; /* abbreviated width, 0: cannot be abbreviated */
	int drop; /* 0: never dropped; else higher goes first */
};

/* What the fitter chose for one column. */
struct ss_fit_out {
	bool shown;
	bool abbreviated; /* shown at short_width */
};

/*
 * ss_fit_columns - fit @n columns into @max characters (0 or less: no
 * limit, all shown whole).  First abbreviates columns one at a time, the
 * highest drop rank first (rightmost among equals), until the line fits;
 * then drops droppable columns in that order; then gives abbreviated
 * columns their full width back, lowest rank first, while the line still
 * fits.  Columns of rank 0 always stay, so the result can still be wider
 * than @max.  Fills @out[0..n); returns the resulting line width.
 */
int ss_fit_columns(const struct ss_fit_col *c, int n, int max,
		   struct ss_fit_out *out);

/*
 * ss_table_width - the width a table written to @f should fit in: the
 * terminal's (TIOCGWINSZ) when @f is a tty that knows it, else $COLUMNS
 * when set to a number, else 0 (no limit: a pipe or file), as ps and
 * bcc's tools decide it.
 */
int ss_table_width(FILE *f);

#endif
