/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.bpf.h - perf counter deltas per on-CPU slice.
 *
 * Settings (numeric -D macros from src/features/feat_counters.c):
 *   SS_NR_COUNTERS  0..SS_MAX_COUNTERS counters read at each switch; with 0
 *                   nothing below is compiled and the hooks are empty
 *   SS_NR_CPUS      possible CPUs: size of each BPF_PERF_ARRAY
 *   SS_CTR_TIMES    bit i: counter i may be multiplexed (a PMU event), so
 *                   it is read with its enabled/running times
 *                   (bpf_perf_event_read_value) and scaled; software events
 *                   are never multiplexed and are read with the cheaper
 *                   bpf_perf_event_read (about 110 ns less per read here),
 *                   whose negative values are errors
 *
 * The host opens counter i on every CPU and stores the fds in ctr<i>, by
 * CPU.  At each switch ss_feature_switch_counters() reads this CPU's
 * counters (bpf_perf_event_read_value: counter, time enabled, time
 * running), keeps the reading in struct ss_cpu and leaves the raw delta
 * since the previous switch in cpu->ctr_raw[] (with the enabled and running
 * deltas in ctr_de/ctr_dr[] for multiplexed counters);
 * ss_feature_switch_charge() adds them to the leaving task's row, and the
 * host scales the row's sums once per interval (src/model/rows.c
 * ss_rows_scale_counters, perf stat's rule per task), so an event that
 * never ran in any of the task's slices is "not counted", never 0.  A
 * delta is skipped and counted, never charged, when the read fails
 * (SS_STAT_CTR_ERROR; the next reading is a new baseline), when there is
 * no previous reading on this CPU (SS_STAT_CTR_FIRST) or when a value went
 * backwards (SS_STAT_CTR_BACKWARDS).  For --trace, each slice's own delta is in
 * cpu->ctr_delta[], multiplexed ones scaled by enabled/running as perf stat
 * does (ss_ctr_scale in ctr_scale.h, checked against the host's
 * ss_counter_scale by the unit tests); a slice in which the counter never
 * ran has its ctr_delta_valid bit clear (printed n/a).  A slice in which
 * a counter was not counting at all or in part, because its CPU went down
 * since the event was opened (hotplug.bpf.h), charges no delta and sets
 * the counter's bit of the row's counter_lost: the row's count for the
 * interval is n/a, never a short count or 0.
 */
#ifndef SWITCHSTAT_COUNTERS_BPF_H
#define SWITCHSTAT_COUNTERS_BPF_H

#include "common.bpf.h"
#include "ctr_scale.h"
#include "shared.h"
#ifndef SS_NR_COUNTERS
#define SS_NR_COUNTERS 0
#endif
#ifndef SS_NR_CPUS
#define SS_NR_CPUS 1
#endif
#ifndef SS_CTR_TIMES
#define SS_CTR_TIMES 0
#endif

#if SS_NR_COUNTERS > 0
BPF_PERF_ARRAY(ctr0, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 1
BPF_PERF_ARRAY(ctr1, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 2
BPF_PERF_ARRAY(ctr2, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 3
BPF_PERF_ARRAY(ctr3, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 4
BPF_PERF_ARRAY(ctr4, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 5
BPF_PERF_ARRAY(ctr5, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 6
BPF_PERF_ARRAY(ctr6, SS_NR_CPUS);
#endif
#if SS_NR_COUNTERS > 7
BPF_PERF_ARRAY(ctr7, SS_NR_CPUS);
#endif

#if SS_NR_COUNTERS > 0
/* A bpf_perf_event_read() value: negative is an errno (-ENOENT, ...). */
static __always_inline int ss_ctr_plain(__u64 value,
					struct bpf_perf_event_value *v)
{
	v->counter = value;
	return (__s64)value < 0 ? (int)value : 0;
}

/*
 * Read counter i on this CPU into v (enabled/running only for SS_CTR_TIMES
 * counters); 0 or a negative errno.  i is a constant after unrolling.
 */
static __always_inline int ss_ctr_read(int i, struct bpf_perf_event_value *v)
{
	switch (i) {
	case 0:
		if (SS_CTR_TIMES & (1 << 0))
			return ctr0.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr0.perf_read(CUR_CPU_IDENTIFIER), v);
#if SS_NR_COUNTERS > 1
	case 1:
		if (SS_CTR_TIMES & (1 << 1))
			return ctr1.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr1.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 2
	case 2:
		if (SS_CTR_TIMES & (1 << 2))
			return ctr2.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr2.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 3
	case 3:
		if (SS_CTR_TIMES & (1 << 3))
			return ctr3.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr3.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 4
	case 4:
		if (SS_CTR_TIMES & (1 << 4))
			return ctr4.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr4.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 5
	case 5:
		if (SS_CTR_TIMES & (1 << 5))
			return ctr5.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr5.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 6
	case 6:
		if (SS_CTR_TIMES & (1 << 6))
			return ctr6.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr6.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
#if SS_NR_COUNTERS > 7
	case 7:
		if (SS_CTR_TIMES & (1 << 7))
			return ctr7.perf_counter_value(CUR_CPU_IDENTIFIER, v,
						       sizeof(*v));
		return ss_ctr_plain(ctr7.perf_read(CUR_CPU_IDENTIFIER), v);
#endif
	}
	return -2; /* -ENOENT: no such counter */
}

/*
 * Read counter i on this CPU into cpu->ctr_now*[i] (bit i of ctr_now_err
 * set when the read failed).
 */
static __always_inline void ss_ctr_take(struct ss_cpu *cpu, int i)
{
	struct bpf_perf_event_value v = {};
	__u64 bit = 1ULL << i;

	if (ss_ctr_read(i, &v) < 0) {
		cpu->ctr_now_err |= bit;
		return;
	}
	cpu->ctr_now_err &= ~bit;
	cpu->ctr_now[i] = v.counter;
	cpu->ctr_now_enabled[i] = v.enabled;
	cpu->ctr_now_running[i] = v.running;
}

/*
 * Take counter i's reading (ss_ctr_take) and leave the delta since the
 * last reading on this CPU in cpu->ctr_delta[i] (bit i of ctr_delta_valid
 * / ctr_delta_scaled).
 */
static __always_inline void ss_ctr_step(struct ss_cpu *cpu, int i)
{
	struct bpf_perf_event_value v = {};
	__u64 bit = 1ULL << i;
	__u64 d, de, dr;

	if (cpu->ctr_now_err & bit) {
		stat_add(SS_STAT_CTR_ERROR, 1);
		cpu->ctr_have_prev &= ~bit; /* next reading: new baseline */
		return;
	}
	v.counter = cpu->ctr_now[i];
	v.enabled = cpu->ctr_now_enabled[i];
	v.running = cpu->ctr_now_running[i];
	if (!(cpu->ctr_have_prev & bit)) {
		stat_add(SS_STAT_CTR_FIRST, 1);
		/* after a reopening: the slice ran on the old, off event */
		if (cpu->ctr_rebase)
			cpu->ctr_lost |= bit;
		goto keep;
	}
	if (v.counter < cpu->ctr_prev[i] ||
	    ((SS_CTR_TIMES & bit) && (v.enabled < cpu->ctr_enabled_prev[i] ||
				      v.running < cpu->ctr_running_prev[i]))) {
		stat_add(SS_STAT_CTR_BACKWARDS, 1);
		goto keep;
	}
	d = v.counter - cpu->ctr_prev[i];
	de = v.enabled - cpu->ctr_enabled_prev[i];
	dr = v.running - cpu->ctr_running_prev[i];
	cpu->ctr_raw[i] = d;
	cpu->ctr_charge |= bit;
	if (SS_CTR_TIMES & bit) {
		cpu->ctr_de[i] = de;
		cpu->ctr_dr[i] = dr;
		if (dr == 0 && de > 0)
			goto keep; /* never on the PMU: not counted */
		if (dr < de) {
			/* multiplexed: d * de / dr (ctr_scale.h) */
			cpu->ctr_delta_scaled |= bit;
			d = ss_ctr_scale(d, de, dr);
		}
	}
	cpu->ctr_delta[i] = d;
	cpu->ctr_delta_valid |= bit;
keep:
	cpu->ctr_prev[i] = v.counter;
	if (SS_CTR_TIMES & bit) {
		cpu->ctr_enabled_prev[i] = v.enabled;
		cpu->ctr_running_prev[i] = v.running;
	}
	cpu->ctr_have_prev |= bit;
}
#endif

/*
 * Read this CPU's counters into cpu->ctr_now*[], right after the clock
 * reading of a switch or checkpoint: then a counter's delta between two
 * events spans the same instructions as their clock readings.  Each
 * instruction the probe runs between the two readings, which depends on
 * the path (the switch's kind, the row cache, hotplug), would move its
 * cycles from one task's slice to the next one's: with QEMU's icount PMU
 * (one instruction per ns), ping-pong rows read up to 3.6 % off their
 * on-CPU time when the counters were read after that work.
 */
static __always_inline void ss_feature_counters_read(struct ss_cpu *cpu)
{
#if SS_NR_COUNTERS > 0
#pragma unroll
	for (int i = 0; i < SS_NR_COUNTERS; i++)
		ss_ctr_take(cpu, i);
#endif
}

/*
 * The counters' deltas at a switch (or checkpoint) on this CPU, from the
 * readings ss_feature_counters_read() took; the deltas wait in
 * cpu->ctr_delta[] for ss_feature_switch_charge().  Called before the
 * first-slice check, so the baseline is taken at the first switch.
 */
static __always_inline void ss_feature_switch_counters(struct ss_cpu *cpu,
						       __u32 tgid, __u32 tid)
{
#if SS_NR_COUNTERS > 0
	cpu->ctr_delta_valid = 0;
	cpu->ctr_delta_scaled = 0;
	cpu->ctr_charge = 0;
	cpu->ctr_lost = 0;
	if (cpu->ctr_off) {
		/* the CPU went down since its events were opened: they are
		 * off until the host reopens them (hotplug.bpf.h) */
		cpu->ctr_lost = (1ULL << SS_NR_COUNTERS) - 1;
		cpu->ctr_have_prev = 0;
		cpu->ctr_rebase = 1;
		return;
	}
#pragma unroll
	for (int i = 0; i < SS_NR_COUNTERS; i++)
		ss_ctr_step(cpu, i);
	cpu->ctr_rebase = 0;
#endif
}

/* Charge the slice's counter deltas (computed above) to val. */
static __always_inline void ss_feature_switch_charge(struct ss_cpu *cpu,
						     struct ss_val *val)
{
#if SS_NR_COUNTERS > 0
	__u64 charge = cpu->ctr_charge, scaled = cpu->ctr_delta_scaled;
	__u64 lost = cpu->ctr_lost;

#pragma unroll
	for (int i = 0; i < SS_NR_COUNTERS; i++) {
		if (!(charge & (1ULL << i)))
			continue;
		__sync_fetch_and_add(&val->counters[i], cpu->ctr_raw[i]);
		if (SS_CTR_TIMES & (1ULL << i)) {
			__sync_fetch_and_add(&val->ctr_enabled_ns[i],
					     cpu->ctr_de[i]);
			__sync_fetch_and_add(&val->ctr_running_ns[i],
					     cpu->ctr_dr[i]);
		}
	}
	/* rarely true: only a multiplexed counter sets a bit */
	if (scaled & ~val->counter_scaled) {
#if SS_ATOMIC_OR
		__sync_fetch_and_or(&val->counter_scaled, scaled);
#else /* Linux < 5.12 has no BPF atomic OR: feat_counters.c says so */
		val->counter_scaled |= scaled;
#endif
	}
	if (lost & ~val->counter_lost) {
#if SS_ATOMIC_OR
		__sync_fetch_and_or(&val->counter_lost, lost);
#else
		val->counter_lost |= lost;
#endif
	}
#endif
}

#endif
