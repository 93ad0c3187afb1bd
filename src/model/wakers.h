/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakers.h - names of the --wakers waker kinds, shared by the wakers'
 * and the stacks' output and the exporter.  Pure.
 */
#ifndef SWITCHSTAT_WAKERS_H
#define SWITCHSTAT_WAKERS_H

#include <stdint.h>

/*
 * ss_waker_kind_name - "task", "timer", "irq", "softirq", "idle" for an
 * enum ss_waker_kind (probes/wakers_shared.h); "?" for another number.
 */
const char *ss_waker_kind_name(uint32_t kind);

#endif
