/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist_shared.h - histogram types and the slot function, shared by the BPF
 * probes and the host (src/output/histmap.h), so both
 * sides compute slots with the very same code (tests/unit/test_histmap.c
 * checks it against src/output/hist.c's ss_log2_slot).
 */
#ifndef SWITCHSTAT_HIST_SHARED_H
#define SWITCHSTAT_HIST_SHARED_H

#include "shared.h"

/* Histogram kinds: the `kind` field of struct ss_hist_key. */
enum ss_hist_kind_id {
	SS_HK_ONCPU = 0, /* on-CPU slice length: switch-in to switch-out */
	SS_HK_OFFCPU = 1, /* blocked time: voluntary switch-out to switch-in */
	SS_HK_RUNQ =
		2, /* run-queue latency: wakeup or preemption to switch-in */
	/*
	 * --offcpu spans, switch-out to switch-in, by the state the task
	 * left in (enum ss_off_reason, grouped as the table's columns)
	 */
	SS_HK_OFF_S = 3, /* S */
	SS_HK_OFF_D = 4, /* D: plain, killable, TASK_IDLE */
	SS_HK_OFF_IO = 5, /* D in io_schedule() */
	SS_HK_OFF_T = 6, /* T and t */
	SS_HK_OFF_R = 7, /* R: preempted */
	SS_HK_MAX = 8,
};

/*
 * Key of the per-interval histogram map.  tgid and tid are 0 unless the
 * histograms are per process (-P: tgid) or per thread (-L: tgid and tid);
 * cgroup_id is 0 unless SS_HIST_CGROUP (-G, --listen): the cgroup (v2) the
 * task was in when the duration was recorded.
 */
struct ss_hist_key {
	__u32 tgid;
	__u32 tid;
	__u32 kind; /* enum ss_hist_kind_id */
	__u32 pad;
	__u64 start_ns; /* as in struct ss_key: a reused pid is a new entry */
	__u64 cgroup_id;
};

/* One histogram: counts per log2 slot of the duration in usecs (or msecs). */
struct ss_hist_val {
	char comm[SS_COMM_LEN];
	__u64 slots[SS_HIST_SLOTS];
};

/*
 * Per-CPU histogram state (the one entry of the per-CPU array hist_cpu).
 * The BPF side writes it; the host reads only slots, and only when there
 * is one histogram per kind (no -P/-L): then slots are this CPU's
 * cumulative counts since start, summed over CPUs and diffed by the host
 * each interval (no hash lookup per event, nothing lost to a reset race).
 */
struct ss_hist_cpu {
	__u64 oncpu_start_ns; /* switch-in time of tid (checkpoints keep it) */
	__u64 pend_ns[SS_HK_MAX]; /* -P/-L: waits of tid not yet recorded */
	__u32 tid; /* task switched in last (0: idle or unknown) */
	__u32 pend; /* bit k: pend_ns[k] is valid */
	__u64 late_rd0; /* late: tid's run_delay at its blocked switch-out */
	__u64 late; /* 1: tid's wakeup was not reported (hist.bpf.h) */
	__u64 slots[SS_HK_MAX][SS_HIST_SLOTS]; /* no -P/-L: cumulative */
};

/*
 * Hide a value's range from the compiler (BPF only), so it keeps the
 * arithmetic below instead of turning it back into compare-and-branch.
 */
#ifdef __bpf__
#define SS_OPAQUE(x) asm volatile("" : "+r"(x))
#else
#define SS_OPAQUE(x) ((void)0)
#endif

/*
 * ss_log2_nz - 1 if @x is not 0, else 0, for x < 2^@bits: (x + 2^bits - 1)
 * carries into bit @bits iff x >= 1 (the & 1 tells the verifier so).  Pure arithmetic: BPF has no setcc,
 * so a comparison would be a branch, and every branch here doubles the
 * verifier's states at each histogram update.
 */
static inline __attribute__((always_inline)) __u64 ss_log2_nz(__u64 x,
							      __u32 bits)
{
	SS_OPAQUE(x);
	return ((x + ((1ULL << bits) - 1)) >> bits) & 1;
}

/*
 * ss_log2_u64 - floor(log2(v)) for v >= 1, 0 for v = 0: the numbering of
 * libbpf-tools' log2l() (bits.bpf.h) and src/output/hist.c's ss_log2_slot(), where 0
 * and 1 share slot 0.  (bcc's bpf_log2l() is this + 1.)  Branch-free shifts
 * (no comparison: see ss_log2_nz), so the verifier sees one path with a
 * result in 0..63.
 */
static inline __attribute__((always_inline)) __u32 ss_log2_u64(__u64 v)
{
	__u32 r, shift;

	r = ss_log2_nz(v >> 32, 32) << 5;
	v >>= r;
	shift = ss_log2_nz(v >> 16, 16) << 4;
	v >>= shift;
	r |= shift;
	shift = ss_log2_nz(v >> 8, 8) << 3;
	v >>= shift;
	r |= shift;
	shift = ss_log2_nz(v >> 4, 4) << 2;
	v >>= shift;
	r |= shift;
	shift = ss_log2_nz(v >> 2, 2) << 1;
	v >>= shift;
	r |= shift;
	r |= (__u32)(v >> 1) & 1; /* v < 4 here */
	return r;
}

/*
 * ss_hist_slot - slot of a duration of @ns nanoseconds in a histogram of
 * @unit_ns units (1000: usecs, 1000000: msecs): floor(log2(ns / unit_ns)),
 * clamped to SS_HIST_SLOTS - 1 (0 ns, 1 ns and 2^40 ns land in the first or
 * last slot).  Equals ss_log2_slot(ns / unit_ns, SS_HIST_SLOTS).
 */
static inline __attribute__((always_inline)) __u32 ss_hist_slot(__u64 ns,
								__u64 unit_ns)
{
	__u32 slot = ss_log2_u64(ns / unit_ns);

	if (slot > SS_HIST_SLOTS - 1)
		slot = SS_HIST_SLOTS - 1;
	return slot;
}

#endif
