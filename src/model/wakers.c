// SPDX-License-Identifier: GPL-2.0
/* wakers.c - see wakers.h */
#include "wakers.h"

#include "probes/wakers_shared.h"

/* ss_waker_kind_name - see wakers.h */
const char *ss_waker_kind_name(uint32_t kind)
{
	static const char *const name[SS_WK_MAX] = {
		[SS_WK_TASK] = "task", [SS_WK_TIMER] = "timer",
		[SS_WK_IRQ] = "irq",   [SS_WK_SOFTIRQ] = "softirq",
		[SS_WK_IDLE] = "idle",
	};

	return kind < SS_WK_MAX ? name[kind] : "?";
}
