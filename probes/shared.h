/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shared.h - types shared by the BPF probes and the host.
 *
 * The probes include it (embedded at build time) and so does the host, so
 * both sides see one definition.  Only fixed-size integer types.
 */
#ifndef SWITCHSTAT_SHARED_H
#define SWITCHSTAT_SHARED_H

#include <linux/types.h>

#define SS_COMM_LEN 16
#define SS_MAX_COUNTERS 8
#define SS_LOST_FAULTS (1ULL << 63) /* in ss_val.counter_lost */
#define SS_NR_STATS 23 /* size of enum ss_stat (SS_STAT_MAX) */
#define SS_HIST_SLOTS 27 /* log2 slots: 0 .. 2^26 (us) before clamping */

/*
 * prev_state at sched_switch: the low byte holds the TASK_REPORT bits
 * (S, D, T, t, X, Z, P, I).  A preempted task reports 0 or TASK_REPORT_MAX
 * (0x100 on 4.14+, "R+" in the trace).  Any low bit set means the task gave
 * up the CPU itself: a voluntary switch (the kernel's nvcsw).
 */
#define SS_PREV_STATE_SLEEP_MASK 0xffULL
/* prev_state bits of a thread's last switch in the tracepoint: X, Z */
#define SS_PREV_STATE_EXIT_MASK 0x30ULL

/*
 * How a switch is counted (enum ss_switch_kind), as the kernel's totals
 * hold it.  A thread's switches are in its process's totals (getrusage,
 * wait4, /proc/PID/status) unless they come after the kernel released the
 * thread (exit_state EXIT_DEAD): release_task() folds a thread's counts
 * into the process's, and wait_task_zombie() adds the process's into the
 * parent's after setting EXIT_DEAD.  So the last switch (TASK_DEAD, state
 * X in the trace) of a thread that exits while others live on is not
 * counted (exit_notify() releases it first), while the thread-group
 * leader's is: it stays a zombie until reaped, after that switch.  Its
 * on-CPU time is counted either way.  A parent may reap the leader while
 * it makes that switch (wait_task_zombie() sets EXIT_DEAD, then reads
 * nvcsw; __schedule() adds to nvcsw just before the tracepoint): then the
 * kernel's own count has the switch or not depending on which came first,
 * which no tracer can see.  Measured (childchurn): in one set of runs 1 of
 * 18 such last switches was in wait4's count, in another all 5 were.  They
 * are not counted, and are counted in SS_STAT_REAP_RACE.  The regular path cannot read
 * exit_state: there a last switch counts for the leader only.
 */
enum ss_switch_kind {
	SS_SW_INVOL = 0, /* preempted while runnable: the kernel's nivcsw */
	SS_SW_VOL = 1, /* gave up the CPU itself: the kernel's nvcsw */
	SS_SW_EXIT = 2, /* a switch of a released thread: not counted */
};

/*
 * The -p / -t target (probes/select.bpf.h, map filter_ids, index 0), set
 * by the host before any program is attached: the tgid of -p, the tid of
 * -t (0 when that filter is off).
 */
struct ss_filter_ids {
	__u32 tgid;
	__u32 tid;
};

/*
 * Key of the per-interval accumulator map (probes/identity.bpf.h): tid is
 * 0 unless -L; start_ns is the process's (thread's with -L) start time,
 * so a reused pid is a new row (0 without BTF); cgroup_id is 0 unless -G.
 */
struct ss_key {
	__u32 tgid;
	__u32 tid;
	__u64 start_ns;
	__u64 cgroup_id;
};

/* Per-interval accumulators of one process (or thread with -L). */
struct ss_val {
	char comm[SS_COMM_LEN];
	__u64 cgroup_id;
	__u64 oncpu_ns;
	__u64 voluntary;
	__u64 involuntary;
	__u64 counters[SS_MAX_COUNTERS];
	__u64 counter_scaled; /* bit i: counter i was multiplex-scaled */
	/*
	 * bit i: counter i was not counting in some slice (CPU hotplug);
	 * SS_LOST_FAULTS: the fault events were not
	 */
	__u64 counter_lost;
	__u64 faults;
	__u64 pgalloc;
	__u64 reclaim_count;
	__u64 reclaim_ns;
	/*
	 * Counters read with their times (SS_CTR_TIMES): the events'
	 * time_enabled and time_running summed over the slices charged, ns.
	 */
	__u64 ctr_enabled_ns[SS_MAX_COUNTERS];
	__u64 ctr_running_ns[SS_MAX_COUNTERS];
	__u64 cgroup_ns; /* when cgroup_id was read (bpf_ktime): of the
			  * charges that reach a row from several CPUs'
			  * row caches, the latest names its cgroup */
};

/* Per-CPU tracing state; never reset by the host. */
struct ss_cpu {
	__u64 last_switch_ns; /* 0 until the first switch seen on this CPU */
	__u64 ctr_prev[SS_MAX_COUNTERS];
	__u64 ctr_enabled_prev[SS_MAX_COUNTERS];
	__u64 ctr_running_prev[SS_MAX_COUNTERS];
	__u64 ctr_have_prev; /* bit i: ctr_prev[i] is valid */
	__u64 curr_key; /* owner of the slice: the next of the last switch,
			 * by tid (regular path) or task_struct address
			 * (raw path, read from no struct) */
	__u64 curr_nvcsw; /* raw path: the owner's nvcsw when it switched in */
	/* the slice that just ended, from ss_feature_switch_counters */
	__u64 ctr_delta[SS_MAX_COUNTERS];
	__u64 ctr_delta_valid; /* bit i: ctr_delta[i] was counted (--trace) */
	__u64 ctr_delta_scaled; /* bit i: ctr_delta[i] was scaled */
	/* for the rows: raw deltas and, SS_CTR_TIMES counters, their times */
	__u64 ctr_raw[SS_MAX_COUNTERS];
	__u64 ctr_de[SS_MAX_COUNTERS]; /* time_enabled delta of the slice */
	__u64 ctr_dr[SS_MAX_COUNTERS]; /* time_running delta of the slice */
	__u64 ctr_charge; /* bit i: ctr_raw/de/dr[i] are to be charged */
	/* bit i: counter i was not counting in the slice (hotplug.bpf.h) */
	__u64 ctr_lost;
	__u64 ctr_off; /* 1: this CPU's perf events are off (hotplug) */
	__u64 ctr_rebase; /* 1: the next baseline follows a reopening */
	/*
	 * the readings of this event, taken next to its clock reading
	 * (ss_feature_counters_read); ctr_now_err bit i: the read failed
	 */
	__u64 ctr_now[SS_MAX_COUNTERS];
	__u64 ctr_now_enabled[SS_MAX_COUNTERS];
	__u64 ctr_now_running[SS_MAX_COUNTERS];
	__u64 ctr_now_err;
	/* -M faults: page-faults-min + -maj of this CPU at the last reading */
	__u64 flt_prev;
	__u64 flt_delta; /* faults in the slice that just ended */
	__u64 flt_have_prev; /* 1: flt_prev is valid */
	__u64 flt_lost; /* 1: the fault events were off in the slice */
	__u64 flt_rebase; /* 1: the next baseline follows a reopening */
	__u64 hp_seen; /* hp_epoch[cpu] when last checked (hotplug.bpf.h) */
	__u64 hp_up_ns; /* when the first event after this CPU came back
			 * dropped the slice spanning its offline time */
	__u64 resync_busy; /* 1: an ss_resync is running on this CPU */
	__u64 accum_gen; /* the interval this CPU charges (common.bpf.h) */
	__u64 edge_ns; /* when this CPU's last interval edge ran (ss_edge) */
	__u64 edge_count; /* interval edges run on this CPU */
	/*
	 * SS_KCLOCK: the slice's owner was adopted at a checkpoint
	 * after an unreported switch (adopt_ns: when; adopt_unknown_ns: the
	 * time before it whose owner was unknown; adopt_edge: edge_count
	 * then); 0 when not
	 */
	__u64 adopt_ns;
	__u64 adopt_unknown_ns;
	__u64 adopt_edge;
	__u64 rc_used; /* bit i: row cache entry i holds charges */
	/*
	 * SS_TASK_CLOCK (switch.bpf.c ss_tslice_next): the slice owner's
	 * se.sum_exec_runtime when its slice here began; k_ok 1 once a
	 * slice start was seen here (0 again after a hotplug)
	 */
	__u64 k_sum;
	__u64 k_ok;
	__u64 k_ns; /* the slice just ended, ns, and k_charge 1 when it */
	__u64 k_charge; /* is to be charged (ss_tslice_next) */
	/* ... the last clock read here (known_ok 1: valid) and the ns
	 * charged here since, for the span of unknown owner */
	__u64 known_ns;
	__u64 since_known_ns;
	__u64 known_ok;
	/* --offcpu under SS_TASK_CLOCK: when the slice owner switched in at
	 * a reported switch (0: unknown), and its kernel-clock ns charged
	 * since; the rest of that window is charged as runnable off-CPU
	 * (offcpu.bpf.h ss_off_gap) */
	__u64 off_in_ns;
	__u64 off_in_k;
	__u64 kexcl_prev; /* SS_STAT_KEXCL_NS's last reading (1 in */
	__u64 kexcl_have; /* kexcl_have: valid) */
	__u64 kexcl_idle0; /* ... its reading when the idle slice began */
	__u64 kexcl_idle_ok; /* 1: kexcl_idle0 is valid */
	/* enum ss_stat counts of this CPU: cumulative, summed by the host */
	__u64 stats[SS_NR_STATS];
};

/* Per-CPU counters of what the probes did, summed by the host. */
enum ss_stat {
	SS_STAT_IDLE_NS, /* on-CPU time of this CPU's idle task */
	SS_STAT_SWITCHES, /* sched_switch events seen */
	SS_STAT_FIRST_SLICE, /* slices skipped: began before we started */
	SS_STAT_ANOMALY, /* slices skipped: clock went backwards */
	SS_STAT_DROPS, /* failed map inserts (map full) */
	SS_STAT_CTR_FIRST, /* counter deltas skipped: no previous value */
	SS_STAT_CTR_BACKWARDS, /* counter deltas skipped: value went back */
	SS_STAT_CTR_ERROR, /* counter reads that failed */
	SS_STAT_FILTERED_NS, /* on-CPU time of tasks outside -p/-t */
	SS_STAT_MISSED, /* regular path: slices skipped: a switch on
				* this CPU was not seen (the kernel skips
				* tracepoint programs while a bpf() map
				* syscall runs on the CPU, or did not report
				* it), so the slice's owner is unknown */
	SS_STAT_FLT_SKIPPED, /* fault deltas skipped: no previous reading,
				* a read error or a value that went back */
	SS_STAT_HOTPLUG, /* slices skipped: the CPU was offline */
	SS_STAT_EXIT_SWITCHES, /* switches of released threads (their
				* last, mostly): not counted */
	SS_STAT_BTF_OK, /* raw path, at checkpoints: the current task's
			   * pid and tgid read at their BTF offsets equal
			   * the helper's */
	SS_STAT_BTF_BAD, /* ... and differ: offsets wrong */
	SS_STAT_MISSED_NS, /* time of the slices skipped as missed or
			    * unreported: CPU time whose owner is unknown */
	SS_STAT_UNREPORTED, /* raw path: slices skipped after a switch
			     * the kernel did not report (it hides some
			     * tasks from tracing), found at sched_exit_tp
			     * (the hidden task's slice only), else at the
			     * next switch or checkpoint */
	SS_STAT_RECOVERED, /* raw path without sched_exit_tp: slices of an
			    * unknown start (after an unreported switch)
			    * charged from the kernel's own clock of the
			    * task leaving (sum_exec_runtime since it was
			    * picked: switch.bpf.c ss_kclock_recover) */
	SS_STAT_RECOVERED_NS, /* their time, ns (out of SS_STAT_MISSED_NS) */
	SS_STAT_REAP_RACE, /* raw path: last switches (TASK_DEAD) of a
			    * thread-group leader its parent had already
			    * reaped (exit_state EXIT_DEAD): wait4 read its
			    * nvcsw concurrently, before or after this
			    * switch's add (shared.h, enum ss_switch_kind) */
	SS_STAT_RUNQ_LATE, /* raw path, --hist runq: run-queue waits of
			    * threads seen blocking whose wakeup the kernel
			    * did not report (it ran while a hidden task was
			    * current), timed from the thread's schedstat
			    * run_delay at its next switch-out */
	SS_STAT_KEXCL_NS, /* SS_TASK_CLOCK: time the kernel's task clock
			   * leaves out on this CPU, ns: the run queue's
			   * steal (and IRQ time, where accounted) as
			   * update_rq_clock_task took it out, read at
			   * checkpoints and edges (--check adds it) */
	SS_STAT_KEXCL_IDLE_NS, /* ... of it, the part in idle slices (on
				* the window, which has it: --check takes
				* it off again) */
	SS_STAT_MAX = SS_NR_STATS,
};

#endif
