// SPDX-License-Identifier: GPL-2.0
/* histkind.c - the histogram kind table. */
#include "histkind.h"

#include <linux/types.h>
#include <string.h>

#include "probes/shared.h"
#include "probes/hist_shared.h"
#include "options.h"

/* The option bit of a kind is 1 << its id, so a mask converts as is. */
_Static_assert(SS_HIST_ONCPU == 1U << SS_HK_ONCPU, "oncpu bit");
_Static_assert(SS_HIST_OFFCPU == 1U << SS_HK_OFFCPU, "offcpu bit");
_Static_assert(SS_HIST_RUNQ == 1U << SS_HK_RUNQ, "runq bit");
_Static_assert(SS_HIST_OFF_S == 1U << SS_HK_OFF_S, "offcpu-S bit");
_Static_assert(SS_HIST_OFF_R == 1U << SS_HK_OFF_R, "offcpu-R bit");

static const struct ss_hist_kind_def kinds[] = {
	{ "oncpu", SS_HIST_ONCPU, SS_HK_ONCPU, "SS_HIST_ONCPU", "on-CPU time" },
	{ "offcpu", SS_HIST_OFFCPU, SS_HK_OFFCPU, "SS_HIST_OFFCPU",
	  "off-CPU time" },
	{ "runq", SS_HIST_RUNQ, SS_HK_RUNQ, "SS_HIST_RUNQ",
	  "run-queue latency" },
	{ "offcpu-S", SS_HIST_OFF_S, SS_HK_OFF_S, "SS_HIST_OFF_S",
	  "off-CPU time, state S (sleep)" },
	{ "offcpu-D", SS_HIST_OFF_D, SS_HK_OFF_D, "SS_HIST_OFF_D",
	  "off-CPU time, state D (uninterruptible, killable, idle)" },
	{ "offcpu-IO", SS_HIST_OFF_IO, SS_HK_OFF_IO, "SS_HIST_OFF_IO",
	  "off-CPU time, state D in io_schedule (I/O wait)" },
	{ "offcpu-T", SS_HIST_OFF_T, SS_HK_OFF_T, "SS_HIST_OFF_T",
	  "off-CPU time, state T or t (stopped, traced)" },
	{ "offcpu-R", SS_HIST_OFF_R, SS_HK_OFF_R, "SS_HIST_OFF_R",
	  "off-CPU time, state R (preempted: waiting for a CPU)" },
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == SS_HK_MAX,
	       "one row per kind id");

/* ss_hist_kinds - see histkind.h */
size_t ss_hist_kinds(const struct ss_hist_kind_def **defs)
{
	*defs = kinds;
	return SS_HK_MAX;
}

/* ss_hist_kind_by_id - see histkind.h */
const struct ss_hist_kind_def *ss_hist_kind_by_id(unsigned int id)
{
	return id < SS_HK_MAX ? &kinds[id] : NULL;
}

/* ss_hist_kind_by_name - see histkind.h */
const struct ss_hist_kind_def *ss_hist_kind_by_name(const char *s, size_t len)
{
	for (size_t i = 0; i < SS_HK_MAX; i++)
		if (strlen(kinds[i].name) == len &&
		    !memcmp(kinds[i].name, s, len))
			return &kinds[i];
	return NULL;
}
