/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - the settings of one run (struct ss_opts): what the command
 * line asked for, read by every layer.  Data only; src/opts.c parses argv
 * into it.
 */
#ifndef SWITCHSTAT_OPTIONS_H
#define SWITCHSTAT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#define SS_VERSION "0.1.0"

enum ss_hist_kind {
	SS_HIST_ONCPU = 1 << 0, /* on-CPU slice length (cpudist) */
	SS_HIST_OFFCPU = 1 << 1, /* blocked time (cpudist -O) */
	SS_HIST_RUNQ = 1 << 2, /* run-queue latency (runqlat) */
	/* --offcpu spans by state (offcputime --state) */
	SS_HIST_OFF_S = 1 << 3,
	SS_HIST_OFF_D = 1 << 4,
	SS_HIST_OFF_IO = 1 << 5,
	SS_HIST_OFF_T = 1 << 6,
	SS_HIST_OFF_R = 1 << 7,
};

enum ss_sort_key {
	SS_SORT_ONCPU,
	SS_SORT_SWITCHES,
	SS_SORT_VOLUNTARY,
	SS_SORT_INVOLUNTARY,
	SS_SORT_PID,
};

/* most processes (-p) or threads (-t) one run may name */
#define SS_MAX_TARGETS 32

struct ss_opts {
	uint64_t interval_ms; /* -i: table every interval_ms */
	uint64_t duration_s; /* -d: stop after; 0 = until Ctrl-C */
	uint32_t pid; /* -p: the first tgid of the list; 0 = all */
	uint32_t tid; /* -t: the first thread of the list; 0 = all */
	uint32_t pids[SS_MAX_TARGETS]; /* -p PID[,PID...]: every tgid */
	uint32_t npids; /* entries in pids[] */
	uint32_t tids[SS_MAX_TARGETS]; /* -t TID[,TID...]: every thread */
	uint32_t ntids; /* entries in tids[] */
	bool per_thread; /* -L: one row per thread */
	bool timestamp; /* -T */
	uint32_t top; /* -n: rows per interval; 0 = all */
	bool top_view; /* --top: live full-screen view (ncurses) */
	bool csv; /* --csv */
	bool json; /* --json */
	int verbose; /* -v (repeatable) */
	const char *events; /* -e list as given; NULL = defaults */
	bool events_given; /* -e was used: hardware events are required */
	bool no_counters; /* --no-counters: skip perf events */
	bool list_events; /* --list-events: print the event names, exit */
	unsigned int hist; /* --hist: mask of enum ss_hist_kind */
	bool hist_only; /* --hist without the table (-H) */
	bool milliseconds; /* -m: histograms in ms */
	bool hist_per_process; /* -P: one histogram per process */
	bool per_cgroup; /* -G: rows per cgroup */
	const char *cgroup; /* --cgroup PATH filter */
	bool memory; /* -M: memory event columns */
	bool trace; /* --trace: one line per switch */
	bool self_stats; /* --self-stats */
	bool check; /* --check: print the accounting closure */
	bool blame; /* --blame: run-queue delay by culprit */
	bool offcpu; /* --offcpu: off-CPU time by reason */
	bool wakers; /* --wakers: who woke each task */
	bool stacks; /* --stacks: off-CPU time by kernel/user stack */
	bool folded; /* -f: --stacks as folded lines (flame graphs) */
	bool kernel_stacks_only; /* -K: --stacks kernel stacks only */
	bool user_stacks_only; /* -U: --stacks user stacks only */
	bool idle; /* --idle: show each CPU's idle task */
	bool rate; /* --rate: switches per second too (pidstat -w) */
	uint32_t map_entries; /* --map-entries; 0 = sized from pid_max */
	enum ss_sort_key sort; /* -s */
	const char *listen; /* --listen [ADDR:]PORT: serve /metrics */
	bool quiet; /* -q: no interval output on stdout */
	bool metrics_per_process; /* --metrics-per-process: pid, comm labels */
	uint32_t max_series; /* --max-series; 0 = SS_PROM_MAX_SERIES */
	uint64_t series_ttl_s; /* --series-ttl; 0 = SS_PROM_SERIES_TTL_S */
};

/* Exporter defaults (--max-series, --series-ttl). */
#define SS_PROM_MAX_SERIES 2000
#define SS_PROM_SERIES_TTL_S 300

#endif
