/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the optional parts of a run, each in its own file.  main.c
 * calls every hook in this order; a feature that is off does nothing.
 *
 *   *_configure(app)  before compiling: check options, add -D cflags,
 *                     open what must exist before the probes (perf fds).
 *                     Returns 0, 1 (environment failure: exit 1) or
 *                     2 (bad input: exit 2); prints one line on error.
 *   *_attach(app)     after compiling: load/attach programs, fill maps.
 *                     Returns 0 or 1 (message printed).
 *   *_interval(app)   after each interval's table: extra output / resets.
 *   *_close(app)      at exit, after the probes are detached; idempotent.
 */
#ifndef SWITCHSTAT_HOOKS_H
#define SWITCHSTAT_HOOKS_H

#include "app.h"

/*
 * perf counters at each switch (feat_counters.c); counters_check parses
 * -e (user input: returns 0 or 2) and runs before the root-only
 * counters_configure.
 */
int counters_check(struct ss_app *app);
int counters_configure(struct ss_app *app);
int counters_attach(struct ss_app *app);
void counters_close(struct ss_app *app);

/* histograms and interval checkpoints (feat_hist.c) */
int hist_configure(struct ss_app *app);
int hist_attach(struct ss_app *app);
void hist_interval(struct ss_app *app);
/* hist_reset: discard what the histograms hold so far (start of run) */
void hist_reset(struct ss_app *app);
void hist_close(struct ss_app *app);

/* cgroups and memory events (feat_mem.c) */
int mem_configure(struct ss_app *app);
int mem_attach(struct ss_app *app);
void mem_close(struct ss_app *app);

/*
 * trace mode (feat_trace.c): trace_run replaces the interval loop when
 * --trace is given; returns the exit code.
 */
int trace_configure(struct ss_app *app);
int trace_attach(struct ss_app *app);
int trace_run(struct ss_app *app);
void trace_close(struct ss_app *app);

/* --self-stats (selfstats.c): bpf_stats on at start, report at exit */
int selfstats_configure(struct ss_app *app);
void selfstats_report(struct ss_app *app);

#endif
