/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctr_scale.h - scaling a multiplexed counter delta in BPF, where there is
 * no 128-bit arithmetic.  Included by counters.bpf.h
 * and by tests/unit/test_ctr_scale.c, which checks it against the
 * host's exact ss_counter_scale() (src/model/events.c).
 */
#ifndef SWITCHSTAT_CTR_SCALE_H
#define SWITCHSTAT_CTR_SCALE_H

#include <linux/types.h>

/*
 * ss_ctr_scale - d * de / dr, perf stat's estimate of a counter that was on
 * the PMU for dr of the de ns it was enabled; call only when dr < de.
 * Computed as d / dr * de + d % dr * de / dr, which is the exact floor
 * while de < 2^32 ns (d % dr < dr < de, so no product overflows unless the
 * result does; then it wraps, where ss_counter_scale saturates).  For
 * longer spans (over 4.3 s) both times are first counted in units of
 * 2^20 ns (about 1 ms).  dr == 0 (never on the PMU) gives 0.
 */
static inline __attribute__((always_inline)) __u64
ss_ctr_scale(__u64 d, __u64 de, __u64 dr)
{
	if (de >> 32) {
		de >>= 20;
		dr >>= 20;
	}
	if (dr == 0)
		return 0;
	return d / dr * de + d % dr * de / dr;
}

#endif
