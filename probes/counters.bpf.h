/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.bpf.h - perf counter deltas per on-CPU slice.
 * SS_NR_COUNTERS (-D, 0..SS_MAX_COUNTERS) counters are read at each switch.
 */
#ifndef SS_NR_COUNTERS
#define SS_NR_COUNTERS 0
#endif

/* Read the counters at a switch; remember the per-CPU value. */
static __always_inline void ss_feature_switch_counters(struct ss_cpu *cpu,
						       __u32 tgid, __u32 tid)
{
}

/* Charge the slice's counter deltas (computed above) to val. */
static __always_inline void ss_feature_switch_charge(struct ss_cpu *cpu,
						     struct ss_val *val)
{
}
