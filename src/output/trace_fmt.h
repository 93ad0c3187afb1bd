/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_fmt.h - --trace output: one context switch (struct ss_trace_event)
 * as a table line, a CSV row or an NDJSON object, from one column list so
 * the three formats carry the same fields.  Pure: no libbcc, unit-tested.
 *
 * CSV/JSON keys (man page, FIELDS): time, ts_ns, cpu, prev_pid,
 * prev_tid, prev_comm, prev_state, voluntary, next_tid, next_comm,
 * slice_ns, then one key per perf counter (as in interval rows) and scaled.
 * JSON objects carry "type":"switch" in front.
 */
#ifndef SWITCHSTAT_TRACE_FMT_H
#define SWITCHSTAT_TRACE_FMT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "events.h"
#include "probes/shared.h"
#include "probes/trace_event.h"

/* fixed columns: time .. slice_ns */
#define SS_TRACE_NCOLS 11

/* longest state string: "S|D|T|t|X|Z|P|I+" and a NUL */
#define SS_STATE_STR_LEN 20

/* What the formatter needs besides the event. */
struct ss_trace_fmt {
	struct ss_emit *e; /* output stream and format */
	int64_t mono_to_real_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	/*
	 * added to each event's bpf_ktime_get_ns() time: the time namespace's
	 * CLOCK_MONOTONIC offset, so times are the user's clock (0: host)
	 */
	int64_t ktime_offset_ns;
	int nr_counters; /* perf counter columns */
	bool counters_na; /* counters not opened: not in the table, null */
	uint64_t counter_na; /* bit i: counter i not opened, as counters_na */
	struct ss_field fields[SS_TRACE_NCOLS]; /* fixed columns, time first */
	struct ss_field ctr_field[SS_MAX_COUNTERS];
	char ctr_key[SS_MAX_COUNTERS]
		    [SS_EVENT_NAME_LEN + 4]; /* CSV/JSON key: cache_misses */
	char ctr_head[SS_MAX_COUNTERS][32]; /* table header: LLC-MISS */
};

/*
 * ss_trace_fmt_init - lines to the emitter @e (its stream and format);
 * @wall_clock (-T): table TIME as HH:MM:SS.uuuuuu, else seconds since
 * start; the clocks at start (ns) and the perf counter names (e.g.
 * "cache-misses", headed as in the interval table; NULL or 0 names: no
 * counter columns).  Counters that were not opened (@counters_na: none;
 * @counter_na: bit i, counter i) are left out of the table and null / empty
 * in CSV and JSON.  Time events (cpu-clock, task-clock) are keyed
 * <name>_ns and shown in us, as SLICE(us) is ("CPU-CLK(us)").
 */
void ss_trace_fmt_init(struct ss_trace_fmt *t, struct ss_emit *e,
		       bool wall_clock, uint64_t start_mono_ns,
		       uint64_t start_real_ns, int nr_counters,
		       const char (*ctr_name)[SS_EVENT_NAME_LEN],
		       bool counters_na, uint64_t counter_na);

/*
 * ss_trace_state_str - prev_state as the kernel's sched_switch trace
 * prints it (include/trace/events/sched.h): the TASK_REPORT bits of the low
 * byte as letters joined by '|' (S=0x1 D=0x2 T=0x4 t=0x8 X=0x10 Z=0x20
 * P=0x40 I=0x80), "R" when none is set, then '+' when TASK_REPORT_MAX
 * (0x100, preempted) is set: 0x100 is "R+", 0 "R" (gave up the CPU while
 * runnable, e.g. sched_yield).  Returns buf.  len >= SS_STATE_STR_LEN.
 */
const char *ss_trace_state_str(uint64_t prev_state, char *buf, size_t len);

/*
 * ss_trace_voluntary - 1 if the switch counts as voluntary in the kernel's
 * nvcsw (the task blocked: a state bit of the low byte set), 0 for
 * involuntary (R or R+).  Same rule as the interval rows (shared.h).
 */
int ss_trace_voluntary(uint64_t prev_state);

/*
 * ss_trace_event_voluntary - 1 if event @e is a voluntary switch: the
 * kernel's own count when the probe knew it (raw path: the task's nvcsw
 * moved, which also covers a sleep abandoned for a pending signal, shown
 * as R), else ss_trace_voluntary() of its prev_state.
 */
int ss_trace_event_voluntary(const struct ss_trace_event *e);

/* ss_trace_header - table header line or CSV header row; JSON: nothing. */
void ss_trace_header(const struct ss_trace_fmt *t);

/*
 * ss_trace_print - one event (raw perf record of size bytes) as a table
 * line, CSV row or NDJSON object.  A record may be cut after the counters
 * it carries (SS_TRACE_EVENT_SIZE); missing counters print as n/a.
 * Returns 0, or -1 (nothing printed) if size is below SS_TRACE_EVENT_SIZE(0).
 */
int ss_trace_print(const struct ss_trace_fmt *t, const void *raw, size_t size);

#endif
