/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakers.h - names of the --wakers waker kinds, shared by the wakers'
 * and the stacks' output and the exporter, and the raw tracepoints
 * --wakers attaches (the kernel facts ask whether each exists).  Pure.
 */
#ifndef SWITCHSTAT_WAKERS_H
#define SWITCHSTAT_WAKERS_H

#include <stdint.h>

/*
 * ss_waker_kind_name - "task", "timer", "irq", "softirq", "idle" for an
 * enum ss_waker_kind (probes/wakers_shared.h); "?" for another number.
 */
const char *ss_waker_kind_name(uint32_t kind);

#define SS_WAKERS_NTPS 7

/*
 * ss_wakers_tps - the raw tracepoints of --wakers in attach order: the
 * brackets' exits before their entries (an exit seen without its entry
 * is ignored; an entry without its exit would leave the CPU "in an
 * interrupt" for good), then the wakeups; ss_wakers_fns - their probe
 * functions (the programs' names).
 */
extern const char *const ss_wakers_tps[SS_WAKERS_NTPS];
extern const char *const ss_wakers_fns[SS_WAKERS_NTPS];

#endif
