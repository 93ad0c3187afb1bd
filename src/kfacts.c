// SPDX-License-Identifier: GPL-2.0
/*
 * kfacts.c - the running kernel's facts (kfacts.h), all asked here, once,
 * before the plan: the BTF lookups, the tracefs checks and the small
 * program loads that tell tp_btf, task storage and helpers apart.
 */
#include "kfacts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "cpus.h"
#include "procfs.h"
#include "tp_btf.h"
#include "tracefs.h"
#include "vmlinux_btf.h"
#include "wakers.h"

/* a struct member the probes read, and the size they read it with */
struct member {
	const char *strct;
	const char *name;
	unsigned int size;
};

static const struct member ident_members[SS_IDENT_F_COUNT] = {
	[SS_IDENT_F_LEADER] = { "task_struct", "group_leader", sizeof(void *) },
	[SS_IDENT_F_START] = { "task_struct", "start_time", 8 },
	[SS_IDENT_F_COMM] = { "task_struct", "comm", 16 },
};

/* the path bpf_get_current_cgroup_id() takes, to read it in place */
static const struct member cg_members[SS_CG_F_COUNT] = {
	[SS_CG_F_TASK_CGROUPS] = { "task_struct", "cgroups", sizeof(void *) },
	[SS_CG_F_CSS_DFL] = { "css_set", "dfl_cgrp", sizeof(void *) },
	[SS_CG_F_CGROUP_KN] = { "cgroup", "kn", sizeof(void *) },
	[SS_CG_F_KN_ID] = { "kernfs_node", "id", 8 },
};

/* The offsets of m[0 .. n - 1] into off[]; 0, or -1 with why not in why. */
static int offsets(const struct btf *btf, const struct member *m, size_t n,
		   unsigned int *off, char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int size;
		int err = ss_btf_member(btf, m[i].strct, m[i].name, &off[i],
					&size);

		if (!err && size != m[i].size)
			err = -EINVAL;
		if (err) {
			snprintf(why, len, "%s.%s not in BTF: %s", m[i].strct,
				 m[i].name, strerror(-err));
			return -1;
		}
	}
	return 0;
}

/* @strct.@name of @size bytes: 0 with *off, or -errno */
static int member_sized(const struct btf *btf, const char *strct,
			const char *name, unsigned int size, unsigned int *off)
{
	unsigned int got;
	int err = ss_btf_member(btf, strct, name, off, &got);

	return err ? err : got == size ? 0 : -EINVAL;
}

/*
 * The raw tracepoints: sched_switch's arguments, sched_exit_tp, the other
 * sched ones the raw path attaches, and --wakers'.
 */
static void raw_facts(struct ss_kfacts *k, const struct btf *btf)
{
	static const char *const one_arg[] = { "sched_wakeup",
					       "sched_wakeup_new",
					       "sched_process_exit",
					       "sched_migrate_task" };

	k->switch_nargs = ss_btf_tp_nargs(btf, "sched_switch");
	k->exit_tp = ss_btf_tp_nargs(btf, "sched_exit_tp") >= 1;
	for (size_t i = 0; i < sizeof(one_arg) / sizeof(one_arg[0]); i++) {
		if (ss_btf_tp_nargs(btf, one_arg[i]) < 1) {
			k->raw_missing = one_arg[i];
			break;
		}
	}
	for (size_t i = 0; i < SS_WAKERS_NTPS; i++) {
		if (ss_btf_tp_nargs(btf, ss_wakers_tps[i]) < 1) {
			k->wakers_missing = ss_wakers_tps[i];
			break;
		}
	}
}

/*
 * The task_struct fields the raw path reads: identity and switch counts,
 * comm, the CPU (task_cpu(p): p->thread_info.cpu where the thread_info
 * is in the task, x86 and arm64, else p->cpu), exit_state, the run state.
 */
static void task_facts(struct ss_kfacts *k, const struct btf *btf)
{
	unsigned int ti;
	int n;

	n = ss_btf_task_offsets(btf, &k->task);
	if (!n)
		n = member_sized(btf, "task_struct", "comm", 16, &k->comm);
	if (!n) {
		unsigned int ti_size, size;

		if (!ss_btf_member(btf, "task_struct", "thread_info", &ti,
				   &ti_size) &&
		    !ss_btf_member(btf, "thread_info", "cpu", &k->cpu, &size)) {
			k->cpu += ti;
			n = size == 4 ? 0 : -EINVAL;
		} else {
			n = member_sized(btf, "task_struct", "cpu", 4, &k->cpu);
		}
	}
	if (!n)
		n = member_sized(btf, "task_struct", "exit_state", 4,
				 &k->exit_state);
	k->task_err = n;
	k->state_err = ss_btf_task_state(btf, &k->state_off, &k->state_size,
					 &k->state_name);
}

/*
 * The kernel's clocks of a task: its slice (task.bpf.h
 * ss_current_kslice: policy, se.sum_exec_runtime,
 * se.prev_sum_exec_runtime), and what the task clock leaves out where the
 * run queue keeps it (switch.bpf.c ss_kexcl_step).
 */
static void clock_facts(struct ss_kfacts *k, const struct btf *btf)
{
	unsigned int se, secfs, rq, steal, irq, size;

	k->ksum = !ss_btf_task_se_u64(btf, "sum_exec_runtime", &k->sum_exec);
	k->kclock =
		!member_sized(btf, "task_struct", "policy", 4, &k->policy) &&
		k->ksum &&
		!ss_btf_task_se_u64(btf, "prev_sum_exec_runtime",
				    &k->prev_sum_exec);
	if (!k->kclock)
		k->policy = k->prev_sum_exec = 0;
	if (ss_btf_member(btf, "task_struct", "se", &se, &size) ||
	    member_sized(btf, "sched_entity", "cfs_rq", 8, &secfs) ||
	    member_sized(btf, "cfs_rq", "rq", 8, &rq) || !rq)
		return;
	if (member_sized(btf, "rq", "prev_steal_time_rq", 8, &steal))
		steal = 0;
	if (member_sized(btf, "rq", "prev_irq_time", 8, &irq))
		irq = 0;
	k->kexcl = steal || irq;
	k->se_cfs_rq = se + secfs;
	k->cfs_rq_rq = rq;
	k->rq_steal = steal;
	k->rq_irq = irq;
}

/* Fields some features read where BTF has them. */
static void misc_facts(struct ss_kfacts *k, const struct btf *btf)
{
	unsigned int si, rd, size;

	/* run_delay: schedstat's second field (probes/hist.bpf.h) */
	k->run_delay_ok =
		!ss_btf_member(btf, "task_struct", "sched_info", &si, &size) &&
		!member_sized(btf, "sched_info", "run_delay", 8, &rd);
	k->run_delay = k->run_delay_ok ? si + rd : 0;
	/* flags: PF_KTHREAD (probes/task.bpf.h ss_current_kthread) */
	k->flags_ok = !member_sized(btf, "task_struct", "flags", 4, &k->flags);
	/* in_iowait, a bitfield, read as a byte: little-endian only */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	k->iowait = !ss_btf_bitfield(btf, "task_struct", "in_iowait",
				     &k->iowait_bit);
#endif
	k->ident_ok = !offsets(btf, ident_members, SS_IDENT_F_COUNT, k->ident,
			       k->ident_why, sizeof(k->ident_why));
	k->cg_ok = !offsets(btf, cg_members, SS_CG_F_COUNT, k->cg, k->cg_why,
			    sizeof(k->cg_why));
}

/*
 * Whether the kernel's BPF has atomic OR (BPF_ATOMIC | BPF_OR, Linux
 * 5.12+; older verifiers reject it: "BPF_STX uses reserved fields").
 * An unreadable release counts as new.
 */
static bool kernel_has_atomic_or(void)
{
	struct utsname u;
	int maj, min;

	if (uname(&u) || sscanf(u.release, "%d.%d", &maj, &min) != 2)
		return true;
	return maj > 5 || (maj == 5 && min >= 12);
}

/*
 * Whether the kernel keeps sched_info: /proc/self/schedstat's third field
 * (switch-ins after a wait) is above 0.  CONFIG_SCHED_INFO compiles the
 * fields in; before 5.14 they are kept only with schedstats or delay
 * accounting on.
 */
static bool sched_info_live(void)
{
	unsigned long long run, delay, count = 0;
	FILE *f = fopen("/proc/self/schedstat", "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu %llu", &run, &delay, &count) == 3 &&
	     count > 0;
	fclose(f);
	return ok;
}

/* ss_kfacts_probe - see kfacts.h */
void ss_kfacts_probe(struct ss_kfacts *k, const struct ss_opts *o)
{
	const struct btf *btf;

	memset(k, 0, sizeof(*k));
	k->ncpus_possible = ss_possible_cpus();
	k->pid_max = ss_pid_max();
	k->atomic_or = kernel_has_atomic_or();
	k->switch_nargs = -ENOENT;
	k->tp_wakeup = ss_tracepoint_exists("sched", "sched_wakeup");
	k->tp_wakeup_new = ss_tracepoint_exists("sched", "sched_wakeup_new");
	k->tp_migrate = ss_tracepoint_exists("sched", "sched_migrate_task");
	for (int i = 0; i < SS_MEM_NKINDS; i++) {
		const struct ss_mem_kind_def *m = &ss_mem_kinds[i];

		k->tp_mem[i] = true;
		for (int j = 0; j < 2 && m->tp[j]; j++)
			k->tp_mem[i] &= ss_tracepoint_exists(m->cat, m->tp[j]);
	}
	btf = ss_vmlinux_btf();
	if (!btf) {
		k->btf_errno = errno;
		return;
	}
	k->btf = true;
	raw_facts(k, btf);
	task_facts(k, btf);
	clock_facts(k, btf);
	misc_facts(k, btf);
	k->run_delay_live = k->run_delay_ok && sched_info_live();
	/* typed arguments, read in place (tp_btf.h) */
	k->tp_btf = ss_tp_btf_available("sched_switch");
	/* direct reads of the current task */
	k->current_task_btf = libbpf_probe_bpf_helper(
				      BPF_PROG_TYPE_TRACEPOINT,
				      BPF_FUNC_get_current_task_btf, NULL) == 1;
	/* --blame's waits: a map and a program load to ask */
	if (o->blame && k->tp_btf)
		k->task_storage = ss_tp_btf_task_storage("sched_wakeup");
}
