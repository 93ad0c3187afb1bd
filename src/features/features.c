// SPDX-License-Identifier: GPL-2.0
/* features.c - the list of features and the phases run over it. */
#include "feature.h"

#include "feat_blame.h"
#include "feat_cgfilter.h"
#include "feat_check.h"
#include "feat_checkpoints.h"
#include "feat_core.h"
#include "feat_counters.h"
#include "feat_hist.h"
#include "feat_hotplug.h"
#include "feat_identity.h"
#include "feat_mem.h"
#include "feat_offcpu.h"
#include "feat_path.h"
#include "feat_prom.h"
#include "feat_psi.h"
#include "feat_top.h"
#include "feat_trace.h"
#include "feat_stacks.h"
#include "feat_wakers.h"
#include "selfstats.h"

/*
 * Table order is phase order; each feature is listed once.  The open
 * phase runs before the plan (hotplug listens before anyone opens a
 * per-CPU event); every -D cflag comes from the plan (plan_cflags.c).
 * path's start() loads sched_exit_tp after every other attach and before
 * core's start() attaches sched_switch, once all it feeds is in place.
 * Within an interval: table, histograms, blame, then check's --check/-v
 * lines, then the exporter's snapshot of it all (prom: its start() binds
 * the HTTP port once the probes run); then the after_interval phase
 * (path: sched_exit_tp once the kernel hid a switch).
 * Programs load in this order, which is the order --self-stats lists.
 */
static const struct ss_feature *const ss_features[] = {
	&ss_feat_path, /* raw or regular tracepoints, sched_exit_tp */
	&ss_feat_core, /* switch accounting, interval table */
	&ss_feat_hotplug, /* CPUs going offline and back */
	&ss_feat_identity, /* row keys and names (start time, leader, cgroup) */
	&ss_feat_counters, /* perf counters (-e) */
	&ss_feat_hist, /* --hist */
	&ss_feat_checkpoints, /* interval checkpoints */
	&ss_feat_cgfilter, /* --cgroup */
	&ss_feat_mem, /* cgroup names, -M */
	&ss_feat_psi, /* -G: cpu.pressure (PSI) */
	&ss_feat_blame, /* --blame */
	&ss_feat_offcpu, /* --offcpu */
	&ss_feat_wakers, /* --wakers */
	&ss_feat_stacks, /* --stacks */
	&ss_feat_trace, /* --trace */
	&ss_feat_check, /* --check, -v per interval */
	&ss_feat_selfstats, /* --self-stats */
	&ss_feat_prom, /* --listen: snapshot of the interval */
	&ss_feat_top, /* --top: the live view (runs the interval loop) */
};

#define NFEATURES (sizeof(ss_features) / sizeof(ss_features[0]))
_Static_assert(NFEATURES <= SS_MAX_FEATURES, "raise SS_MAX_FEATURES");

/* ss_features_init - see feature.h */
int ss_features_init(struct ss_app *app)
{
	return ss_feature_table_init(ss_features, NFEATURES, app);
}

/* ss_features_phase - see feature.h */
int ss_features_phase(struct ss_app *app, enum ss_phase phase)
{
	return ss_feature_table_phase(ss_features, NFEATURES, app, phase);
}

/* ss_features_interval - see feature.h */
int ss_features_interval(struct ss_app *app)
{
	if (ss_features_phase(app, SS_PHASE_INTERVAL))
		return 1;
	if (app->last_interval)
		return 0;
	return ss_features_phase(app, SS_PHASE_AFTER_INTERVAL);
}

/* ss_features_run - see feature.h */
int ss_features_run(struct ss_app *app)
{
	return ss_feature_table_run(ss_features, NFEATURES, app);
}

/* ss_features_cpu_up - see feature.h */
int ss_features_cpu_up(struct ss_app *app, int cpu)
{
	return ss_feature_table_cpu_up(ss_features, NFEATURES, app, cpu);
}

/* ss_features_free - see feature.h */
void ss_features_free(struct ss_app *app)
{
	ss_feature_table_free(ss_features, NFEATURES, app);
}
