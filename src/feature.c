// SPDX-License-Identifier: GPL-2.0
/* feature.c - running one phase over a table of features (feature.h). */
#include "feature.h"

#include <stdlib.h>

/* ss_feature_table_init - see feature.h */
int ss_feature_table_init(const struct ss_feature *const *tab, size_t nfeat,
			  struct ss_app *app)
{
	if (nfeat > SS_MAX_FEATURES)
		return -1;
	for (size_t i = 0; i < nfeat; i++) {
		size_t n = tab[i]->state_size;

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
	case SS_PHASE_OPEN:
		op = f->open;
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
	case SS_PHASE_AFTER_INTERVAL:
		op = f->after_interval;
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

/* ss_feature_table_phase - see feature.h */
int ss_feature_table_phase(const struct ss_feature *const *tab, size_t nfeat,
			   struct ss_app *app, enum ss_phase phase)
{
	for (size_t i = 0; i < nfeat; i++) {
		int ret = call(tab[i], app, app->state[i], phase);

		if (ret)
			return ret;
	}
	return 0;
}

/* ss_feature_table_run - see feature.h */
int ss_feature_table_run(const struct ss_feature *const *tab, size_t nfeat,
			 struct ss_app *app)
{
	for (size_t i = 0; i < nfeat; i++) {
		int ret;

		if (!tab[i]->run)
			continue;
		ret = tab[i]->run(app, app->state[i]);
		if (ret >= 0)
			return ret;
	}
	return -1;
}

/* ss_feature_table_cpu_up - see feature.h */
int ss_feature_table_cpu_up(const struct ss_feature *const *tab, size_t nfeat,
			    struct ss_app *app, int cpu)
{
	int first = 0;

	for (size_t i = 0; i < nfeat; i++) {
		int ret = tab[i]->cpu_up
				  ? tab[i]->cpu_up(app, app->state[i], cpu)
				  : 0;

		if (ret && !first)
			first = ret;
	}
	return first;
}

/* ss_feature_table_free - see feature.h */
void ss_feature_table_free(const struct ss_feature *const *tab, size_t nfeat,
			   struct ss_app *app)
{
	for (size_t i = 0; i < nfeat && i < SS_MAX_FEATURES; i++) {
		free(app->state[i]);
		app->state[i] = NULL;
	}
}
