/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotplug.bpf.h - per-CPU state across CPU hotplug.
 *
 * Settings (numeric -D macros from src/features/feat_hotplug.c):
 *   SS_HP_CPUS  possible CPUs: size of hp_epoch
 *
 * The host (src/features/feat_hotplug.c) hears each CPU go offline and come back
 * (kernel uevents) and writes hp_epoch[cpu] = down << 32 | up, the number
 * of times it saw that CPU go down and come up.  Every switch and
 * checkpoint on a CPU compares it with the value it saw last
 * (ss_cpu.hp_seen):
 *   - down changed: the CPU was offline since this CPU's last event, so
 *     the slice in progress spans the offline time (it is the idle task's,
 *     from the last switch before the CPU died): it is not charged, the
 *     next slice starts now, as the first slice after start does, and
 *     ss_cpu.hp_up_ns says when: the host counts the CPU online from
 *     then, and until the start of that slice (ss_cpu.last_switch_ns, read
 *     once the CPU is offline), not from the uevents, which come tens of
 *     ms after the CPU is up or has stopped running tasks;
 *   - either changed: the host has reopened this CPU's perf events (they
 *     stay off after the CPU comes back), so the counter and fault
 *     readings start from a new baseline.
 * The uevents do not come for every hotplug (a CPU taken down and up
 * through its hotplug/target file sends none), so the kernel's own steps
 * are counted too: hp_kdown[cpu] counts the teardown steps the kernel ran
 * for the CPU (tracepoint cpuhp:cpuhp_enter with a target below the step;
 * slot SS_HP_CPUS holds their total, which the host polls), and
 * hp_opened[cpu] is hp_kdown[cpu] as the host read it before it last
 * opened the CPU's perf events.  Where they differ, the CPU went down
 * since its events were opened: they are off, and every slice on it is
 * marked not counted (counters.bpf.h ctr_lost, mem.bpf.h flt_lost) until
 * the host has reopened them.
 * The check is an array lookup (about 3 ns; with counters or fault
 * events, two more).  Without counters or fault events only the slice
 * state matters, and the slice spanning offline time always ends at a
 * switch from the idle task (a CPU comes back running it): then only
 * switches from the idle task and checkpoints check.
 */
#ifndef SWITCHSTAT_HOTPLUG_BPF_H
#define SWITCHSTAT_HOTPLUG_BPF_H

#include "common.bpf.h"
#include "counters.bpf.h"
#include "mem.bpf.h"
#include "shared.h"

#ifndef SS_HP_CPUS
#define SS_HP_CPUS 1
#endif

BPF_ARRAY(hp_epoch, __u64, SS_HP_CPUS);
BPF_ARRAY(hp_kdown, __u64, SS_HP_CPUS + 1);
BPF_ARRAY(hp_opened, __u64, SS_HP_CPUS);

/* A hotplug step: count the CPU's teardown steps (see above). */
TRACEPOINT_PROBE(cpuhp, cpuhp_enter)
{
	__u32 idx = args->cpu, all = SS_HP_CPUS;
	__u64 *n;

	if (args->target >= args->idx || idx >= SS_HP_CPUS)
		return 0;
	n = hp_kdown.lookup(&idx);
	if (n)
		__sync_fetch_and_add(n, 1);
	n = hp_kdown.lookup(&all);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

/* 1 if this CPU went down since the host opened its perf events. */
static __always_inline __u64 ss_hotplug_events_off(__u32 idx)
{
	__u64 *k = hp_kdown.lookup(&idx), *o = hp_opened.lookup(&idx);

	return k && o && *k != *o;
}

/*
 * Apply a hotplug the host saw on this CPU to its state (see above);
 * @prev_tid: the task leaving the CPU, or the current one at a checkpoint
 * (@always 1).
 */
static __always_inline void ss_hotplug_check(struct ss_cpu *cpu, __u32 prev_tid,
					     int always)
{
	__u32 idx = bpf_get_smp_processor_id();
	__u64 *epoch;
	__u64 e;

	if (!always && !SS_NR_COUNTERS && !SS_MEM_FAULTS && prev_tid != 0)
		return;
#if SS_NR_COUNTERS > 0 || SS_MEM_FAULTS
	cpu->ctr_off = ss_hotplug_events_off(idx);
#endif
	epoch = hp_epoch.lookup(&idx);
	if (!epoch)
		return;
	e = *epoch;
	if (e == cpu->hp_seen)
		return;
	if (e >> 32 != cpu->hp_seen >> 32) {
		cpu->hp_up_ns = bpf_ktime_get_ns();
		if (cpu->last_switch_ns || cpu->k_ok) {
			cpu->last_switch_ns = 0;
			cpu->k_ok = 0;
			cpu->known_ok = 0;
			/* the run queue's steal went on while it was down */
			cpu->kexcl_have = 0;
			cpu->kexcl_idle_ok = 0;
			ss_cpu_stat_add(cpu, SS_STAT_HOTPLUG, 1);
		}
	}
	cpu->ctr_have_prev = 0;
	cpu->ctr_rebase = 1; /* the next slice began on the old events */
	cpu->flt_have_prev = 0;
	cpu->flt_rebase = 1;
	cpu->hp_seen = e;
}

#endif
