// SPDX-License-Identifier: GPL-2.0
/* feat_hist.c - log2 histograms and interval checkpoints (stub). */
#include "hooks.h"

/* hist_configure - see hooks.h */
int hist_configure(struct ss_app *app)
{
	return 0;
}

/* hist_attach - see hooks.h */
int hist_attach(struct ss_app *app)
{
	return 0;
}

/* hist_interval - see hooks.h */
void hist_interval(struct ss_app *app)
{
}

/* hist_close - see hooks.h */
void hist_close(struct ss_app *app)
{
}
