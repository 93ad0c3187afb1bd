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

/* ss_wakers_tps - see wakers.h */
const char *const ss_wakers_tps[SS_WAKERS_NTPS] = {
	"hrtimer_expire_exit",	"irq_handler_exit",  "softirq_exit",
	"hrtimer_expire_entry", "irq_handler_entry", "softirq_entry",
	"sched_waking",
};

/* ss_wakers_fns - see wakers.h */
const char *const ss_wakers_fns[SS_WAKERS_NTPS] = {
	"raw_tracepoint__hrtimer_expire_exit",
	"raw_tracepoint__irq_handler_exit",
	"raw_tracepoint__softirq_exit",
	"raw_tracepoint__hrtimer_expire_entry",
	"raw_tracepoint__irq_handler_entry",
	"raw_tracepoint__softirq_entry",
	"raw_tracepoint__sched_waking",
};
