// SPDX-License-Identifier: GPL-2.0
/* features.c - the list of features and the phases run over it. */
#include "feature.h"

#include <stdlib.h>

#include "feat_check.h"
#include "feat_checkpoints.h"
#include "feat_core.h"
#include "feat_counters.h"
#include "feat_hist.h"
#include "feat_mem.h"
#include "feat_trace.h"
#include "selfstats.h"

/*
 * Table order is phase order: core first (its cflags, the collector, the
 * interval's table before anything else prints); its start() attaches
 * sched_switch after every other attach, once all it feeds is in place.
 * Within an interval: table, histograms, then check's --check/-v lines.
 * Programs load in this order, which is the order --self-stats lists.
 */
static const struct ss_feature *const ss_features[] = {
	&ss_feat_core, &ss_feat_counters, &ss_feat_hist,  &ss_feat_checkpoints,
	&ss_feat_mem,  &ss_feat_trace,	  &ss_feat_check, &ss_feat_selfstats,
};

#define NFEATURES (sizeof(ss_features) / sizeof(ss_features[0]))
_Static_assert(NFEATURES <= SS_MAX_FEATURES, "raise SS_MAX_FEATURES");

/* ss_features_init - see feature.h */
int ss_features_init(struct ss_app *app)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		size_t n = ss_features[i]->state_size;

		app->state[i] = calloc(1, n ? n : 1);
		if (!app->state[i])
			return -1;
	}
	return 0;
}

static int call(const struct ss_feature *f, struct ss_app *app, void *st,
		enum ss_phase phase)
{
	int (*op)(struct ss_app *, void *) = NULL;

	switch (phase) {
	case SS_PHASE_CHECK:
		op = f->check;
		break;
	case SS_PHASE_CONFIGURE:
		op = f->configure;
		break;
	case SS_PHASE_ATTACH:
		op = f->attach;
		break;
	case SS_PHASE_START:
		op = f->start;
		break;
	case SS_PHASE_RESET:
		op = f->reset;
		break;
	case SS_PHASE_INTERVAL:
		op = f->on_interval;
		break;
	case SS_PHASE_FINISH:
		if (f->finish)
			f->finish(app, st);
		return 0;
	case SS_PHASE_CLOSE:
		if (f->close)
			f->close(app, st);
		return 0;
	}
	return op ? op(app, st) : 0;
}

/* ss_features_phase - see feature.h */
int ss_features_phase(struct ss_app *app, enum ss_phase phase)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		int ret = call(ss_features[i], app, app->state[i], phase);

		if (ret)
			return ret;
	}
	return 0;
}

/* ss_features_run - see feature.h */
int ss_features_run(struct ss_app *app)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		int ret;

		if (!ss_features[i]->run)
			continue;
		ret = ss_features[i]->run(app, app->state[i]);
		if (ret >= 0)
			return ret;
	}
	return -1;
}

/* ss_features_free - see feature.h */
void ss_features_free(struct ss_app *app)
{
	for (size_t i = 0; i < NFEATURES; i++) {
		free(app->state[i]);
		app->state[i] = NULL;
	}
}
