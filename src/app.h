/* SPDX-License-Identifier: GPL-2.0 */
/*
 * app.h - the state of one run, shared by main.c and the features
 * (feature.h): options, the kernel's facts and the plan made from them,
 * the BPF module, the interval's rows, the exit flag and the clocks.  Each
 * feature keeps its own state in state[] (allocated by features.c); what
 * a feature finds that the report shows is in info, which the output
 * reads.
 */
#ifndef SWITCHSTAT_APP_H
#define SWITCHSTAT_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bpf_host.h"
#include "kfacts.h"
#include "opts.h"
#include "output.h"
#include "plan.h"
#include "probes/wakers_shared.h"
#include "rows.h"

#define SS_MAX_FEATURES 24

struct ss_cgroup_cache;
struct ss_psi_cache;

/* What the features found that the report shows (set before ss_out_init). */
struct ss_report_info {
	int nr_counters;
	char ctr_name[SS_MAX_COUNTERS]
		     [SS_EVENT_NAME_LEN]; /* perf names, e.g. cache-misses */
	bool counters_na; /* no PMU: counter columns left out of the table */
	uint64_t ctr_timed; /* bit i: counter i read with enabled/running */
	uint64_t counter_na; /* bit i: the PMU lacks counter i: n/a */
	bool mem_na[3]; /* faults, pgalloc, reclaim columns show n/a */
	struct ss_cgroup_cache *cg; /* cgroup names; NULL: ids print */
	struct ss_psi_cache *psi; /* -G: cpu.pressure reads; NULL: no PSI */
};

struct ss_hist_rec;

/* The last interval's histograms (feat_hist), for the exporter. */
struct ss_hist_last {
	const struct ss_hist_rec *recs; /* as shown, sorted; until the next */
	size_t n;
	const struct ss_hist_rec *raw; /* as the probes keyed them */
	size_t raw_n;
	bool by_cgroup; /* raw keys hold the cgroup id */
	bool ms; /* slots count msecs, else usecs */
};

/* One (victim, waker) pair of --wakers: the wakers map's entry. */
struct ss_waker_row {
	struct ss_waker_key k;
	struct ss_waker_val v;
};

/* One off-CPU stack of --stacks, named: its folded line without value. */
struct ss_stack_rec {
	uint64_t cgroup_id;
	uint32_t tgid;
	char comm[SS_COMM_LEN];
	const char *folded; /* "comm;frame;...;frame" (offcputime -f) */
	uint64_t ns; /* off-CPU time, whole spans */
};

/*
 * The last interval's --wakers pairs and --stacks stacks (feat_wakers,
 * feat_stacks), for the exporter: valid until the feature's next
 * interval; n is 0 when off or nothing was seen.
 */
struct ss_offwake_last {
	const struct ss_waker_row *wakers;
	size_t nwakers;
	const struct ss_stack_rec *stacks;
	size_t nstacks;
};

struct ss_blame_row;
struct ss_preempt_row;

/*
 * The last interval's --blame pairs (feat_blame), for the exporter and
 * --top: valid until the feature's next interval; n is 0 when off.
 */
struct ss_blame_last {
	const struct ss_blame_row *rows;
	size_t n;
	const struct ss_preempt_row *prows; /* preemptions by preemptor */
	size_t np;
	const char *noisy; /* --top: the noisy-neighbours pane's text */
};

struct ss_app {
	struct ss_opts o;
	struct ss_kfacts facts; /* the kernel's, found before the plan */
	const struct ss_plan *plan; /* what this run does (after open) */
	struct ss_cflags cflags; /* the probes' -D cflags, from the plan */
	struct ss_bpf bpf;
	struct ss_interval iv;
	struct ss_report_info info;
	struct ss_hist_last hist;
	struct ss_offwake_last offwake;
	struct ss_blame_last blame;
	struct ss_out out;
	enum ss_format fmt; /* output format, chosen once from the options */
	FILE *f; /* report stream (stdout) */
	int ncpus_possible;
	int ncpus_online;
	void *state[SS_MAX_FEATURES]; /* ss_features[i]'s own state */
	/*
	 * CPU hotplug in this interval (feat_hotplug.c): online_ns is the
	 * time CPUs were online summed over CPUs (0: not tracked), events
	 * the CPUs that went offline or came back; hotplug_seen: any since
	 * the start.
	 */
	uint64_t iv_online_ns;
	unsigned int iv_hotplug_events;
	bool hotplug_seen;
	/*
	 * sched_exit_tp is attached (feat_path.c, at start-up or once the
	 * kernel is seen hiding a switch): such switches are caught there
	 */
	bool exit_tp_attached;
	/* the interval being collected is the run's last (-d reached, or
	 * Ctrl-C): nothing is worth starting then (feat_path.c) */
	bool last_interval;
	/*
	 * The interval edge (feat_checkpoints.c; NULL: none): the core
	 * feature calls edge(app, edge_st) just before each collect, to end
	 * every online CPU's slice there.  Returns true when the CPUs moved
	 * on to the other accumulator map (probes/common.bpf.h
	 * ss_accum_gen): the one they left is the interval's.
	 */
	bool (*edge)(struct ss_app *app, void *st);
	void *edge_st;
	/*
	 * More rows for the interval (feat_offcpu.c; NULL: none): the core
	 * feature calls rows_extra(app, rows_extra_st) after each collect,
	 * before the rows are merged, sorted and printed.  0, or 1 (stop).
	 */
	int (*rows_extra)(struct ss_app *app, void *st);
	void *rows_extra_st;
};

/* Set by the SIGINT/SIGTERM handler; every loop checks it. */
extern volatile sig_atomic_t ss_exiting;

/* ss_on_signal - signal handler: sets ss_exiting. */
void ss_on_signal(int sig);

/*
 * ss_app_attach_sched - attach sched tracepoint @tp's probe
 * ("sched_wakeup") on the path in use, once however many features ask
 * (ss_bpf_attach_sched).  Returns 0, or 1 after one line on stderr.
 */
int ss_app_attach_sched(struct ss_app *app, const char *tp);

/* ss_clock_ns - clock id (CLOCK_MONOTONIC, CLOCK_REALTIME...) in ns. */
uint64_t ss_clock_ns(clockid_t id);

#endif
