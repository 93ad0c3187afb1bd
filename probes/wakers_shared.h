/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakers_shared.h - who woke whom (--wakers): the key and value shared by
 * the probe (probes/wakers.bpf.h) and the host (src/features/feat_wakers.c).
 */
#ifndef SWITCHSTAT_WAKERS_SHARED_H
#define SWITCHSTAT_WAKERS_SHARED_H

#include "shared.h"

/* What woke a task (ss_waker_key.kind). */
enum ss_waker_kind {
	SS_WK_TASK = 0, /* a task: waker_tgid/tid or waker_cgroup name it */
	SS_WK_TIMER = 1, /* an expiring timer: hrtimer, or the timer softirq */
	SS_WK_IRQ = 2, /* a device interrupt's handler (hardirq) */
	SS_WK_SOFTIRQ = 3, /* another softirq (network, block, RCU...) */
	SS_WK_IDLE = 4, /* an interrupt of another kind on an idle CPU */
	SS_WK_MAX = 5,
};

/*
 * Key of the wakers map: the victim (the woken task's row: process, thread
 * with -L, cgroup with -G, as in struct ss_key) and its waker, of the same
 * kind (tgid/tid or cgroup; 0 unless kind is SS_WK_TASK).
 */
struct ss_waker_key {
	__u64 victim_cgroup;
	__u64 waker_cgroup;
	__u32 victim_tgid;
	__u32 victim_tid;
	__u32 waker_tgid;
	__u32 waker_tid;
	__u32 kind; /* enum ss_waker_kind */
	__u32 pad;
};

/* Value: wakeups, and the off-CPU time they ended (whole spans, ns). */
struct ss_waker_val {
	__u64 count;
	__u64 off_ns;
	char victim_comm[SS_COMM_LEN];
	char waker_comm[SS_COMM_LEN];
};

#endif
