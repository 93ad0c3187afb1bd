/* SPDX-License-Identifier: GPL-2.0 */
/*
 * identity.bpf.h - which row a slice or event belongs to, decided when it
 * happens, for the task running now (the one leaving the CPU at a switch).
 *
 *  - process: tgid plus the process's start time (its thread-group
 *    leader's task_struct.start_time), so a reused pid is a new row; with
 *    -L the thread's tid and its own start time;
 *  - cgroup: the task's cgroup at that moment (bpf_get_current_cgroup_id,
 *    per thread, so threaded cgroups count too).  With -G it is part of
 *    the key, so a task that moves is charged to each cgroup for its time
 *    there; otherwise the row shows the cgroup of its last slice;
 *  - name: a process row is named by its leader's comm (what top and
 *    pidstat show, never a thread's own name); it is read from the leader
 *    when the row is made and again at every slice of the leader itself,
 *    so a rename (exec, prctl) shows as it is at the end of the interval.
 *    A -L row has its thread's comm as of its last slice.
 *
 * Settings (numeric -D macros from src/features/feat_identity.c):
 *   SS_IDENT_BTF     1: the task_struct offsets below come from the
 *                    kernel's BTF; 0 (no BTF): no start times (a reused
 *                    pid shares the row) and a new process row takes the
 *                    comm of the thread that ran first in the interval
 *   SS_IDENT_LEADER  byte offset of task_struct.group_leader
 *   SS_IDENT_START   byte offset of task_struct.start_time (u64 ns)
 *   SS_IDENT_COMM    byte offset of task_struct.comm
 *   SS_PER_CGROUP    1: -G, the cgroup is part of the row key
 *   SS_CG_BTF        1: the offsets below are known, so the current
 *                    task's cgroup id is read in place (with
 *                    SS_TASK_BTF_PTR) along the path
 *                    bpf_get_current_cgroup_id() takes:
 *   SS_CG_TASK_CGROUPS, SS_CG_CSS_DFL, SS_CG_CGROUP_KN, SS_CG_KN_ID
 *                    byte offsets of task_struct.cgroups, css_set.dfl_cgrp,
 *                    cgroup.kn and kernfs_node.id
 *   SS_TASK_BTF_PTR  1: the kernel has bpf_get_current_task_btf(), whose
 *                    pointer the verifier lets the probe read directly:
 *                    a plain load (a few ns) instead of a
 *                    bpf_probe_read_kernel() call (30-45 ns each, measured
 *                    per sched_switch run)
 */
#ifndef SWITCHSTAT_IDENTITY_BPF_H
#define SWITCHSTAT_IDENTITY_BPF_H

#include "shared.h"

#ifndef SS_IDENT_BTF
#define SS_IDENT_BTF 0
#endif
#ifndef SS_PER_CGROUP
#define SS_PER_CGROUP 0
#endif
#ifndef SS_PER_THREAD
#define SS_PER_THREAD 0
#endif
#ifndef SS_TASK_BTF_PTR
#define SS_TASK_BTF_PTR 0
#endif
#ifndef SS_CG_BTF
#define SS_CG_BTF 0
#endif

#if SS_IDENT_BTF && SS_TASK_BTF_PTR
/* The current task, readable in place at BTF offsets. */
#define SS_CUR_TASK() ((__u64)bpf_get_current_task_btf())
/*
 * dst = the field at off in task (a pointer from SS_CUR_TASK or a pointer
 * field read with SS_TASK_READ); 0.  A fault reads 0.
 */
#define SS_TASK_READ(dst, task, off)                      \
	({                                                \
		(dst) = *(typeof(dst) *)((task) + (off)); \
		0;                                        \
	})
/* the comm at off in task into dst (SS_COMM_LEN bytes, 8-aligned); 0 */
#define SS_TASK_READ_COMM(dst, task, off)                             \
	({                                                            \
		((__u64 *)(dst))[0] = *(__u64 *)((task) + (off));     \
		((__u64 *)(dst))[1] = *(__u64 *)((task) + (off) + 8); \
		0;                                                    \
	})
#else
#define SS_CUR_TASK() ((__u64)bpf_get_current_task())
#define SS_TASK_READ(dst, task, off) \
	bpf_probe_read_kernel(&(dst), sizeof(dst), (void *)((task) + (off)))
#define SS_TASK_READ_COMM(dst, task, off) \
	bpf_probe_read_kernel((dst), SS_COMM_LEN, (void *)((task) + (off)))
#endif

/*
 * ss_ident_group_leader - the current task's task_struct.group_leader
 * (0 without BTF or with -L, where it is not used), for ss_ident_key_at.
 * @task: the current task as SS_CUR_TASK() gives it, or a BTF pointer to
 * it (sched_switch's prev); the same for the _of readers below.
 */
static __always_inline __u64 ss_ident_group_leader(__u64 task)
{
	__u64 gl = 0;

#if SS_IDENT_BTF
	if (!SS_PER_THREAD)
		SS_TASK_READ(gl, task, SS_IDENT_LEADER);
#endif
	return gl;
}

/*
 * ss_ident_key_at - fill key for the current task (tgid, tid): tid only
 * with -L, the start time of the process (thread with -L), the cgroup with
 * -G.  @group_leader: ss_ident_group_leader(), read by the caller (the
 * verifier checks a load of a pointer field from the task against the
 * kernel's whole BTF, four scans, once for every path that reaches it:
 * sched_switch reads it once at its start).  *leader gets the group
 * leader's task_struct address (0: unknown), for ss_ident_comm.
 */
static __always_inline void ss_ident_key_at(struct ss_key *key, __u32 tgid,
					    __u32 tid, __u64 cgroup_id,
					    __u64 group_leader, __u64 *leader)
{
	key->tgid = tgid;
	key->tid = SS_PER_THREAD ? tid : 0;
	key->start_ns = 0;
	key->cgroup_id = SS_PER_CGROUP ? cgroup_id : 0;
	*leader = 0;
#if SS_IDENT_BTF
	__u64 task = SS_CUR_TASK();
	__u64 who = task;

	if (!SS_PER_THREAD && tid != tgid) {
		who = group_leader;
		*leader = who;
	} else if (tid == tgid) {
		*leader = task;
	}
	if (who)
		SS_TASK_READ(key->start_ns, who, SS_IDENT_START);
#endif
}

/* ss_ident_key - ss_ident_key_at reading the group leader itself */
static __always_inline void ss_ident_key(struct ss_key *key, __u32 tgid,
					 __u32 tid, __u64 cgroup_id,
					 __u64 *leader)
{
	__u64 gl = 0;

#if SS_IDENT_BTF
	if (!SS_PER_THREAD && tid != tgid)
		SS_TASK_READ(gl, SS_CUR_TASK(), SS_IDENT_LEADER);
#endif
	ss_ident_key_at(key, tgid, tid, cgroup_id, gl, leader);
}

/*
 * ss_ident_comm - the row's name into dst: the current thread's comm for
 * -L rows and the leader itself, else the leader's comm read at leader
 * (the current thread's if that is unknown).
 */
static __always_inline void ss_ident_comm(char *dst, __u32 tgid, __u32 tid,
					  __u64 leader)
{
#if SS_IDENT_BTF
	if (!SS_PER_THREAD && tid != tgid && leader &&
	    !SS_TASK_READ_COMM(dst, leader, SS_IDENT_COMM))
		return;
#endif
	bpf_get_current_comm(dst, SS_COMM_LEN);
}

/*
 * ss_ident_cgroup_id - the current task's cgroup (v2) id, what
 * bpf_get_current_cgroup_id() returns, read in place when the kernel
 * allows it (a helper call costs about 15 ns per sched_switch run).
 */
static __always_inline __u64 ss_ident_cgroup_id_of(__u64 task)
{
#if SS_IDENT_BTF && SS_TASK_BTF_PTR && SS_CG_BTF
	__u64 p = task, id;

	SS_TASK_READ(p, p, SS_CG_TASK_CGROUPS);
	SS_TASK_READ(p, p, SS_CG_CSS_DFL);
	SS_TASK_READ(p, p, SS_CG_CGROUP_KN);
	SS_TASK_READ(id, p, SS_CG_KN_ID);
	return id;
#else
	return bpf_get_current_cgroup_id();
#endif
}

static __always_inline __u64 ss_ident_cgroup_id(void)
{
	return ss_ident_cgroup_id_of(SS_CUR_TASK());
}

/* ss_ident_cur_comm - the current thread's comm into dst (8-aligned) */
static __always_inline void ss_ident_cur_comm_of(char *dst, __u64 task)
{
#if SS_IDENT_BTF && SS_TASK_BTF_PTR
	SS_TASK_READ_COMM(dst, task, SS_IDENT_COMM);
#else
	bpf_get_current_comm(dst, SS_COMM_LEN);
#endif
}

static __always_inline void ss_ident_cur_comm(char *dst)
{
	ss_ident_cur_comm_of(dst, SS_CUR_TASK());
}

/*
 * ss_ident_start - the start time (ns) of the current task's process (of
 * the thread itself if per_thread), as ss_ident_key has it; 0 without BTF.
 * For keys outside the accumulator map (histograms).
 */
static __always_inline __u64 ss_ident_start(__u32 tgid, __u32 tid,
					    int per_thread)
{
	__u64 start = 0;
#if SS_IDENT_BTF
	__u64 task = SS_CUR_TASK(), who = task;

	if (!per_thread && tid != tgid)
		SS_TASK_READ(who, task, SS_IDENT_LEADER);
	if (who)
		SS_TASK_READ(start, who, SS_IDENT_START);
#endif
	return start;
}

/*
 * ss_ident_name - the name of a row of the current task (tgid, tid) kept
 * outside the accumulator map (histograms): per_thread, the thread's own
 * comm; else its leader's.
 */
static __always_inline void ss_ident_name(char *dst, __u32 tgid, __u32 tid,
					  int per_thread)
{
#if SS_IDENT_BTF
	if (!per_thread && tid != tgid) {
		__u64 task = SS_CUR_TASK(), leader = 0;

		SS_TASK_READ(leader, task, SS_IDENT_LEADER);
		if (leader && !SS_TASK_READ_COMM(dst, leader, SS_IDENT_COMM))
			return;
	}
#endif
	bpf_get_current_comm(dst, SS_COMM_LEN);
}

#endif
