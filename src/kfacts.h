/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kfacts.h - what the running kernel offers this run, found once before
 * the plan is made (plan.h): its BTF and the task_struct offsets in it,
 * the raw tracepoints and their arguments, tp_btf and task local storage,
 * BPF helpers, the tracepoints in tracefs, and what the open phase found
 * by opening perf events.  Data only: ss_plan_decide reads nothing else
 * of the kernel, so a unit test can hand it any kernel's facts.
 */
#ifndef SWITCHSTAT_KFACTS_H
#define SWITCHSTAT_KFACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "btf_offsets.h"
#include "memkind.h"
#include "options.h"

/* the task_struct fields of rows' identity (probes/identity.bpf.h) */
enum ss_ident_field {
	SS_IDENT_F_LEADER, /* group_leader */
	SS_IDENT_F_START, /* start_time */
	SS_IDENT_F_COMM, /* comm */
	SS_IDENT_F_COUNT
};

/* the path to a task's cgroup id: task->cgroups->dfl_cgrp->kn->id */
enum ss_cg_field {
	SS_CG_F_TASK_CGROUPS,
	SS_CG_F_CSS_DFL,
	SS_CG_F_CGROUP_KN,
	SS_CG_F_KN_ID,
	SS_CG_F_COUNT
};

/*
 * What only opening tells (the features' open phase, feature.h): filled
 * by the features that open, before the plan.
 */
struct ss_kfacts_opened {
	int counters; /* -e events open on every CPU they are read on */
	uint64_t ctr_hw; /* bit i: counter i is not a software event */
	bool faults; /* -M: page-faults-min and -maj open */
	bool cgroup_filter; /* --cgroup names a cgroup below the root */
};

struct ss_kfacts {
	int ncpus_possible; /* possible CPUs (per-CPU maps, arrays) */
	uint32_t pid_max; /* /proc/sys/kernel/pid_max (0: unknown) */

	/* the kernel's BTF (/sys/kernel/btf/vmlinux) */
	bool btf;
	int btf_errno; /* ... why it is not there */

	/* raw tracepoints, from BTF: arguments of their probes */
	int switch_nargs; /* sched_switch: 4 (5.18+), 3 (5.5-5.17), < 0 none */
	bool exit_tp; /* sched_exit_tp (the end of __schedule) exists */
	const char *raw_missing; /* the first of sched_wakeup,
				  * sched_wakeup_new, sched_process_exit,
				  * sched_migrate_task without one; NULL */
	const char *wakers_missing; /* ... of --wakers' (wakers.h); NULL */

	/* task_struct offsets (bytes), valid when their error is 0 */
	int task_err; /* pid, tgid, nvcsw, nivcsw, comm (16), cpu (4),
		       * exit_state (4): 0 or the first -errno */
	struct ss_task_offsets task;
	unsigned int comm, cpu, exit_state;
	int state_err; /* __state or state: 0 or -errno */
	unsigned int state_off, state_size;
	const char *state_name; /* "__state" or "state" */
	bool kclock; /* policy (4), se.sum_exec_runtime and
		      * se.prev_sum_exec_runtime (8) all found */
	unsigned int policy, sum_exec, prev_sum_exec;
	bool ksum; /* se.sum_exec_runtime found (sum_exec) */
	/* what the task clock leaves out, where the run queue keeps it:
	 * se.cfs_rq->rq's prev_steal_time_rq, prev_irq_time (0: none) */
	bool kexcl; /* se.cfs_rq and cfs_rq.rq found, and steal or irq */
	unsigned int se_cfs_rq, cfs_rq_rq, rq_steal, rq_irq;
	bool run_delay_ok; /* sched_info.run_delay (8) */
	unsigned int run_delay;
	bool run_delay_live; /* run_delay kept: our own schedstat's pcount > 0 */
	bool flags_ok; /* flags (4), PF_KTHREAD */
	unsigned int flags;
	bool iowait; /* in_iowait's bit (little-endian builds only) */
	unsigned int iowait_bit;
	/* rows' identity: ident_ok, or why not */
	bool ident_ok;
	unsigned int ident[SS_IDENT_F_COUNT];
	char ident_why[160];
	bool cg_ok; /* the cgroup id in place */
	unsigned int cg[SS_CG_F_COUNT];
	char cg_why[160];

	/* program types and helpers */
	bool tp_btf; /* sched_switch as a BTF raw tracepoint (tp_btf.h) */
	bool task_storage; /* tp_btf programs may use task storage; asked
			    * only for --blame (a program load) */
	bool current_task_btf; /* bpf_get_current_task_btf */
	bool atomic_or; /* BPF atomic OR (Linux 5.12+) */

	/* regular tracepoints in tracefs */
	bool tp_wakeup, tp_wakeup_new, tp_migrate;
	bool tp_mem[SS_MEM_NKINDS]; /* every tracepoint of ss_mem_kinds[i] */

	struct ss_kfacts_opened opened;
};

/*
 * ss_kfacts_probe - find the facts of @k from the running kernel (needs
 * root: the tp_btf and helper checks load programs).  The open phase's
 * part (k->opened) is left to the features.  What no option of @o can use
 * costly to ask is not asked (task storage without --blame: false).
 * Never fails: what cannot be read is absent.
 */
void ss_kfacts_probe(struct ss_kfacts *k, const struct ss_opts *o);

#endif
