/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blame_shared.h - run-queue blame (--blame): the key and kinds shared by
 * the probe (probes/blame.bpf.h) and the host (src/features/feat_blame.c).
 *
 * A victim is a task (process, thread with -L, or cgroup with -G) that
 * waited on a CPU's run queue; a culprit is what ran on that CPU for part
 * of the wait.  Wait that cannot be pinned on a task is charged to a
 * culprit of its own kind, so a victim's sum is its whole measured wait.
 */
#ifndef SWITCHSTAT_BLAME_SHARED_H
#define SWITCHSTAT_BLAME_SHARED_H

#include "shared.h"

/* culprit_kind of struct ss_blame_key */
enum ss_blame_kind {
	SS_BLAME_TASK = 0, /* culprit_* name the task or cgroup that ran */
	SS_BLAME_IDLE = 1, /* the CPU was idle: wakeup latency */
	SS_BLAME_UNKNOWN = 2, /* older than the ring, a missed switch, or
				* the victim changed CPU while waiting */
};

/*
 * What a victim waited for, per culprit: the key of the blame map (value:
 * struct ss_blame_val).  Fields name processes (tgid, tid 0), threads
 * (-L: tgid and tid) or cgroups (-G: cgroup ids, tgid and tid 0).
 */
struct ss_blame_key {
	__u64 victim_cgroup;
	__u64 culprit_cgroup;
	__u32 victim_tgid;
	__u32 victim_tid;
	__u32 culprit_tgid;
	__u32 culprit_tid;
	__u32 culprit_kind; /* enum ss_blame_kind */
	__u32 pad;
};

/* Value of the blame map: the delay and the names seen by the probe. */
struct ss_blame_val {
	__u64 delay_ns;
	char victim_comm[16]; /* thread name when the wait was charged */
	char culprit_comm[16]; /* thread name at the end of its slice */
};

#endif
