// SPDX-License-Identifier: GPL-2.0
/* feat_mem.c - cgroup filter/names and memory events (stub). */
#include "hooks.h"

/* mem_configure - see hooks.h */
int mem_configure(struct ss_app *app)
{
	return 0;
}

/* mem_attach - see hooks.h */
int mem_attach(struct ss_app *app)
{
	return 0;
}

/* mem_close - see hooks.h */
void mem_close(struct ss_app *app)
{
}
