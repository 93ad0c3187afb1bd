// SPDX-License-Identifier: GPL-2.0
/* feat_trace.c - one line per context switch (stub). */
#include "hooks.h"

/* trace_configure - see hooks.h */
int trace_configure(struct ss_app *app)
{
	return 0;
}

/* trace_attach - see hooks.h */
int trace_attach(struct ss_app *app)
{
	return 0;
}

/* trace_run - see hooks.h */
int trace_run(struct ss_app *app)
{
	return 0;
}

/* trace_close - see hooks.h */
void trace_close(struct ss_app *app)
{
}
