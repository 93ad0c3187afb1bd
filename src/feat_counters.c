// SPDX-License-Identifier: GPL-2.0
/* feat_counters.c - perf counters read at each context switch (stub). */
#include "hooks.h"

/* counters_configure - see hooks.h */
int counters_configure(struct ss_app *app)
{
	return 0;
}

/* counters_attach - see hooks.h */
int counters_attach(struct ss_app *app)
{
	return 0;
}

/* counters_close - see hooks.h */
void counters_close(struct ss_app *app)
{
}
