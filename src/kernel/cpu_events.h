/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_events.h - one perf event opened on every online CPU (pid -1), that
 * can be reopened on a CPU after it went offline and came back: the kernel
 * turns a CPU's events off when the CPU goes offline and never turns them
 * back on.  Each fd is stored at its CPU's index of a BPF_PERF_ARRAY (for
 * bpf_perf_event_read) or given a BPF program to run (sampling events).
 */
#ifndef SWITCHSTAT_CPU_EVENTS_H
#define SWITCHSTAT_CPU_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>

struct ss_cpu_events {
	struct perf_event_attr attr;
	int ncpus; /* possible CPUs: size of fd */
	int *fd; /* by CPU; -1 where not open */
	int map_fd; /* BPF_PERF_ARRAY holding the fds, or -1 */
	int prog_fd; /* BPF program run at each sample, or -1 */
};

/*
 * ss_cpu_events_open - open @attr on each CPU with @online[cpu] (all
 * possible CPUs when @online is NULL); a CPU that is offline by now
 * (ENODEV) is skipped.  map_fd and prog_fd start at -1 (set them before
 * ss_cpu_events_attach).  Returns the number of CPUs opened, or -errno of
 * the first other failure (nothing stays open then).
 */
int ss_cpu_events_open(struct ss_cpu_events *e,
		       const struct perf_event_attr *attr, int ncpus,
		       const bool *online);

/*
 * ss_cpu_events_attach - store every open fd in e->map_fd at its CPU and/or
 * give it e->prog_fd and enable it.  Returns 0 or -errno.
 */
int ss_cpu_events_attach(struct ss_cpu_events *e);

/*
 * ss_cpu_events_reopen - CPU @cpu came back online: close its old event,
 * open a new one and attach it as above.  Returns 0, or -errno (ENODEV:
 * the CPU is offline again; the CPU is left without an event).
 */
int ss_cpu_events_reopen(struct ss_cpu_events *e, int cpu);

/* ss_cpu_events_close - close every fd; safe to call twice. */
void ss_cpu_events_close(struct ss_cpu_events *e);

#endif
