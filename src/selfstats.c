// SPDX-License-Identifier: GPL-2.0
/* selfstats.c - the probes' own cost from bpf_stats (stub). */
#include "hooks.h"

/* selfstats_configure - see hooks.h */
int selfstats_configure(struct ss_app *app)
{
	return 0;
}

/* selfstats_report - see hooks.h */
void selfstats_report(struct ss_app *app)
{
}
