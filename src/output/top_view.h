/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_view.h - the --top view: the last interval's rows drawn full-screen
 * with ncurses (wide-character build), steered by keys.
 *
 * The view is one more consumer of the emit layer: each row it shows is
 * the table backend's record for that row (ss_out_interval into memory,
 * the view's own struct ss_out), so a number on the screen is the text
 * the interval table prints for the same interval.  What the keys change
 * is done on the host from the interval's rows, with the functions the
 * table uses: the sort (ss_rows_sort), grouping by cgroup
 * (ss_rows_merge_by_cgroup, as -G), threads off on a run started with -L
 * (ss_rows_merge_by_process: the sum of the thread rows), a filter and the
 * counter columns.  Threads on needs thread rows from the probes, i.e. -L
 * at start: without it `H` says so and changes nothing.
 */
#ifndef SWITCHSTAT_TOP_VIEW_H
#define SWITCHSTAT_TOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "histmap.h"
#include "options.h"
#include "output.h"
#include "rows.h"

#define SS_TOP_FILTER_LEN 32

/* What ss_top_key asks the caller to do. */
enum ss_top_action {
	SS_TOP_NONE,
	SS_TOP_QUIT,
	SS_TOP_INTERVAL, /* the interval (ss_top.interval_ms) changed */
};

/* The view's state.  Fields are private to top_view.c but the options. */
struct ss_top {
	const struct ss_opts *o; /* the run's options (what the probes do) */
	struct ss_opts vo; /* the view's: sort, per_thread, per_cgroup */
	struct ss_out tmpl; /* column inputs (counter names...) */
	struct ss_out out; /* the view's columns, from vo */
	bool counters; /* counter columns shown */
	uint64_t interval_ms; /* the run's interval; +/- change it */
	struct ss_interval snap; /* the last interval as collected */
	bool have_snap;
	struct ss_interval shown; /* snap filtered, merged and sorted */
	size_t lines_n; /* text of shown: line 0 header, then rows */
	char **lines;
	char *text; /* the records as the table backend wrote them */
	size_t text_len;
	char filter[SS_TOP_FILTER_LEN];
	char edit[SS_TOP_FILTER_LEN]; /* filter being typed */
	bool editing;
	bool paused;
	bool help;
	size_t sel; /* selected row of shown (Up/Down), the first shown */
	size_t first;
	bool hist_pane; /* r: the selected row's histograms */
	struct ss_hist_rec *hist; /* the interval's histograms (--hist) */
	size_t hist_n, hist_cap;
	struct ss_hist_fmt hist_fmt; /* per, ms as feat_hist prints them */
	bool hist_on; /* the run has --hist */
	bool noisy_pane; /* b: noisy neighbours (--blame) */
	char *noisy; /* its text, from ss_top_set_noisy; NULL: no --blame */
	char msg[96]; /* one-line note (e.g. "threads need -L") */
	/* ncurses */
	void *screen; /* SCREEN * */
	FILE *tty; /* /dev/tty when stdout carries --csv/--json */
	int in_fd; /* the terminal's input, for poll() */
	bool active;
};

/*
 * ss_top_check_terminal - can the view run here: TERM set, not "dumb" and
 * known to terminfo;
 * the view on stdout (a tty), or with @records_on_stdout (--csv/--json)
 * on /dev/tty while stdout is not the terminal.  0, or -1 with a reason
 * in @err.
 */
int ss_top_check_terminal(bool records_on_stdout, char *err, size_t len);

/*
 * ss_top_open - start the view: full screen on the terminal checked by
 * ss_top_check_terminal, columns from @out_tmpl (an initialised table
 * ss_out: its counter names and cgroup cache), state from @o.  0, or -1
 * with a reason in @err (the terminal is left as it was).
 */
int ss_top_open(struct ss_top *t, const struct ss_opts *o,
		const struct ss_out *out_tmpl, bool records_on_stdout,
		char *err, size_t len);

/*
 * ss_top_close - leave full screen and restore the terminal's modes; safe
 * to call twice and from an atexit handler.  Frees the view's memory.
 */
void ss_top_close(struct ss_top *t);

/*
 * ss_top_update - the interval just collected (@iv: rows sorted, as the
 * table would print them) and its @nhist histograms (--hist, as
 * feat_hist read them; @ms: msecs slots; @hist_per: 0 one histogram, 1
 * per process, 2 per thread).  Copied unless paused.  0 or -ENOMEM.
 */
int ss_top_update(struct ss_top *t, const struct ss_interval *iv,
		  const struct ss_hist_rec *hist, size_t nhist, bool ms,
		  int hist_per);

/*
 * ss_top_set_noisy - the noisy-neighbours pane's text of the interval just
 * collected (--blame: lines, the first a header), shown by the b key.
 * Copied unless paused.  0 or -ENOMEM.
 */
int ss_top_set_noisy(struct ss_top *t, const char *text);

/* ss_top_draw - (re)draw the screen for its current size. */
void ss_top_draw(struct ss_top *t);

/*
 * ss_top_keys - read the keys waiting (non-blocking) and apply them;
 * redraws when one changed something, and after a resize.  Returns the
 * strongest enum ss_top_action asked for.
 */
enum ss_top_action ss_top_keys(struct ss_top *t);

/*
 * ss_top_help_text - the key list shown by h/? (also in the man page's
 * LIVE VIEW), lines separated by '\n'.
 */
extern const char ss_top_help_text[];

#endif
