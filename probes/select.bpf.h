/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.bpf.h - which tasks are traced: the -p / -t / --cgroup filters,
 * tested by every probe through ss_task_selected().
 *
 * Settings (numeric -D macros from the host, never user strings):
 *   SS_FILTER_TGID    1: only the process at filter_ids[0].tgid (all its
 *                     threads), filled by the host before any program is
 *                     attached
 *   SS_FILTER_TID     1: only the thread at filter_ids[0].tid
 *   SS_FILTER_LIST    1: -p or -t named several: the ids are the keys of
 *                     filter_tgids / filter_tids (filled likewise)
 *   SS_FILTER_CGROUP  1: only tasks in the cgroup v2 directory whose fd the
 *                     host put at index 0 of cgroup_filter, or in any of
 *                     its descendants, those created after the start too
 * The ids are in maps, not -D numbers, so the compiled object is the same
 * for every target and a start with -p of a new process loads it from the
 * cache (src/kernel/bpf_cache.c).  An array's lookup at a constant index
 * is inlined by the verifier: a bounds test and a load, no call.
 */
#ifndef SWITCHSTAT_SELECT_BPF_H
#define SWITCHSTAT_SELECT_BPF_H

#include "shared.h"

#ifndef SS_FILTER_TGID
#define SS_FILTER_TGID 0
#endif
#ifndef SS_FILTER_TID
#define SS_FILTER_TID 0
#endif
#ifndef SS_FILTER_CGROUP
#define SS_FILTER_CGROUP 0
#endif
#ifndef SS_FILTER_LIST
#define SS_FILTER_LIST 0
#endif
#define SS_FILTER_LIST_MAX 32 /* SS_MAX_TARGETS (src/base/options.h) */

#if SS_FILTER_LIST
BPF_HASH(filter_tgids, __u32, __u8, SS_FILTER_LIST_MAX);
BPF_HASH(filter_tids, __u32, __u8, SS_FILTER_LIST_MAX);
#elif SS_FILTER_TGID || SS_FILTER_TID
BPF_ARRAY(filter_ids, struct ss_filter_ids, 1);
#endif

#if SS_FILTER_CGROUP
/* index 0: the --cgroup directory (the kernel holds the cgroup itself) */
BPF_CGROUP_ARRAY(cgroup_filter, 1);
#endif

/*
 * ss_ids_selected - 1 if a task of process @tgid (0: not known, not
 * tested) and thread @tid may pass the -p and -t filters, else 0.  For a
 * task that is not the current one (a wakee); the cgroup is not tested.
 */
static __always_inline int ss_ids_selected(__u32 tgid, __u32 tid)
{
#if SS_FILTER_LIST
	if (SS_FILTER_TGID && tgid && !filter_tgids.lookup(&tgid))
		return 0;
	if (SS_FILTER_TID && !filter_tids.lookup(&tid))
		return 0;
#elif SS_FILTER_TGID || SS_FILTER_TID
	__u32 zero = 0;
	struct ss_filter_ids *f = filter_ids.lookup(&zero);

	if (!f)
		return 0;
	if (SS_FILTER_TGID && tgid && tgid != f->tgid)
		return 0;
	if (SS_FILTER_TID && tid != f->tid)
		return 0;
#endif
	return 1;
}

/*
 * ss_task_selected - 1 if the current task (tgid, tid) passes the -p, -t
 * and --cgroup filters, else 0.  One compare per filter (against
 * filter_ids[0]), or one hash lookup when a list was given.  The cgroup
 * test is the kernel's own hierarchy test
 * (bpf_current_task_under_cgroup): one ancestor compare, no
 * map of ids, so cgroups created after the start are followed.  An unset
 * cgroup_filter entry (negative return) selects nothing.
 */
static __always_inline int ss_task_selected(__u32 tgid, __u32 tid)
{
#if SS_FILTER_LIST
	if (SS_FILTER_TGID && !filter_tgids.lookup(&tgid))
		return 0;
	if (SS_FILTER_TID && !filter_tids.lookup(&tid))
		return 0;
#elif SS_FILTER_TGID || SS_FILTER_TID
	__u32 zero = 0;
	struct ss_filter_ids *f = filter_ids.lookup(&zero);

	if (!f)
		return 0;
	if (SS_FILTER_TGID && tgid != f->tgid)
		return 0;
	if (SS_FILTER_TID && tid != f->tid)
		return 0;
#endif
#if SS_FILTER_CGROUP
	if (cgroup_filter.check_current_task(0) != 1)
		return 0;
#endif
	return 1;
}

#endif
