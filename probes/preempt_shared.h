/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preempt_shared.h - preemptions by preemptor (--blame): the value of the
 * preempt map (probes/preempt.bpf.h), read by src/features/feat_blame.c.
 * Its key is struct ss_blame_key (blame_shared.h): the victim, and as
 * culprit the preemptor, SS_BLAME_IDLE when the CPU went idle, or
 * SS_BLAME_UNKNOWN when the preemptor's switch-out was not seen.
 */
#ifndef SWITCHSTAT_PREEMPT_SHARED_H
#define SWITCHSTAT_PREEMPT_SHARED_H

#include "shared.h"

struct ss_preempt_val {
	__u64 count; /* involuntary switches of the victim by the culprit */
	char victim_comm[16]; /* thread names when counted */
	char culprit_comm[16];
};

#endif
