/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feature.h - one part of a run (switch accounting, checkpoints, counters,
 * histograms, memory, trace, self-stats...) as a table of operations.
 * features.c lists them; main.c runs each phase over that list in order,
 * so adding a feature is a new feat_*.c and one entry in ss_features[].
 *
 * Every operation is optional (NULL: nothing to do) and gets the feature's
 * own state, state_size bytes zeroed before the first phase.  A feature
 * whose option is off does nothing.  Errors are printed by the feature
 * (one line) and returned as exit codes: 1 environment/BPF, 2 bad input.
 *
 * Each feature is in the table once.  What one feature decides that
 * another needs is in the plan (plan.h), made between open and configure
 * from every feature's options at once; what must happen after all the
 * others' work of a phase has a phase of its own (after_interval).
 */
#ifndef SWITCHSTAT_FEATURE_H
#define SWITCHSTAT_FEATURE_H

#include <stddef.h>

#include "app.h"

struct ss_feature {
	const char *name;
	size_t state_size;
	/*
	 * user input only, before the environment is checked: 0 or 2 (1
	 * when the input cannot be checked, e.g. no cgroup v2 for --cgroup)
	 */
	int (*check)(struct ss_app *app, void *st);
	/*
	 * after the environment check (root, tracefs, headers) and the
	 * kernel's facts (app->facts), before the plan: open what only
	 * opening tells the plan about (perf events), noting what opened
	 * in app->facts.opened.  0, 1 or 2.
	 */
	int (*open)(struct ss_app *app, void *st);
	/*
	 * after the plan (app->plan, which also gave the -D cflags) and
	 * before compiling: set up from the plan, say with -v what it
	 * chose.  0, 1 or 2.
	 */
	int (*configure)(struct ss_app *app, void *st);
	/* after compiling: load and attach programs, fill maps.  0 or 1. */
	int (*attach)(struct ss_app *app, void *st);
	/* after every attach: switch on what feeds the others.  0 or 1. */
	int (*start)(struct ss_app *app, void *st);
	/*
	 * replaces the interval loop (trace mode): returns the exit code, or
	 * -1 when this run does not use it.
	 */
	int (*run)(struct ss_app *app, void *st);
	/* interval loop: discard what the probes gathered so far.  0 or 1. */
	int (*reset)(struct ss_app *app, void *st);
	/* interval loop: read and print one interval.  0 or 1 (stop). */
	int (*on_interval)(struct ss_app *app, void *st);
	/*
	 * interval loop, after every feature's on_interval (the interval
	 * is printed and checked) of an interval that is not the run's
	 * last: act on what it showed, e.g. attach a probe it turned out to
	 * need.  0 or 1 (stop).
	 */
	int (*after_interval)(struct ss_app *app, void *st);
	/* the run ended well; probes still attached: final reports */
	void (*finish)(struct ss_app *app, void *st);
	/* at exit, after the probes are detached; also after a failure */
	void (*close)(struct ss_app *app, void *st);
	/*
	 * CPU @cpu came back online (from the hotplug thread, between start
	 * and finish, never during another phase's call into this feature):
	 * reopen the feature's perf events on it, which the kernel leaves
	 * off.  0 or -errno.
	 */
	int (*cpu_up)(struct ss_app *app, void *st, int cpu);
};

enum ss_phase {
	SS_PHASE_CHECK,
	SS_PHASE_OPEN,
	SS_PHASE_CONFIGURE,
	SS_PHASE_ATTACH,
	SS_PHASE_START,
	SS_PHASE_RESET,
	SS_PHASE_INTERVAL,
	SS_PHASE_AFTER_INTERVAL,
	SS_PHASE_FINISH,
	SS_PHASE_CLOSE,
};

/*
 * ss_feature_table_init - allocate the state of each of the @nfeat
 * features of @tab in app->state[] (zeroed, state_size bytes).  Returns
 * 0, or -1 (out of memory, or more than SS_MAX_FEATURES).
 */
int ss_feature_table_init(const struct ss_feature *const *tab, size_t nfeat,
			  struct ss_app *app);

/*
 * ss_feature_table_phase - run one phase's operation of every feature of
 * @tab in table order, stopping at the first non-zero return, which is
 * returned.  finish and close run for every feature and return 0.
 */
int ss_feature_table_phase(const struct ss_feature *const *tab, size_t nfeat,
			   struct ss_app *app, enum ss_phase phase);

/*
 * ss_feature_table_run - the exit code of the first run() in @tab that
 * takes this run (returns >= 0), or -1 when none does.
 */
int ss_feature_table_run(const struct ss_feature *const *tab, size_t nfeat,
			 struct ss_app *app);

/*
 * ss_feature_table_cpu_up - call every feature's cpu_up for @cpu; returns
 * the first non-zero return (the others still run).
 */
int ss_feature_table_cpu_up(const struct ss_feature *const *tab, size_t nfeat,
			    struct ss_app *app, int cpu);

/* ss_feature_table_free - free the states ss_feature_table_init made. */
void ss_feature_table_free(const struct ss_feature *const *tab, size_t nfeat,
			   struct ss_app *app);

/* The program's own table (features.c), run with the functions above. */

/*
 * ss_features_init - allocate every feature's state in app->state[].
 * Returns 0, or -1 (out of memory).
 */
int ss_features_init(struct ss_app *app);

/*
 * ss_features_phase - run one phase's operation of every feature in table
 * order, stopping at the first non-zero return, which is returned.
 */
int ss_features_phase(struct ss_app *app, enum ss_phase phase);

/*
 * ss_features_interval - one interval: every feature's on_interval, then,
 * unless app->last_interval, every after_interval.  0 or 1 (stop).
 */
int ss_features_interval(struct ss_app *app);

/*
 * ss_features_run - the first feature's run() that takes this run: its
 * exit code, or -1 when none does (use the interval loop).
 */
int ss_features_run(struct ss_app *app);

/* ss_features_cpu_up - ss_feature_table_cpu_up over the program's table. */
int ss_features_cpu_up(struct ss_app *app, int cpu);

/* ss_features_free - release the states (after SS_PHASE_CLOSE). */
void ss_features_free(struct ss_app *app);

#endif
