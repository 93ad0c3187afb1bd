/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - perf event names for switchstat and the counter arithmetic
 * applied to values read with bpf_perf_event_read_value().
 *
 * Everything here is pure (no I/O, no globals) so it can be unit tested and
 * mirrored in BPF C.
 */
#ifndef SWITCHSTAT_EVENTS_H
#define SWITCHSTAT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define SS_MAX_EVENTS 8
#define SS_EVENT_NAME_LEN 64

/*
 * struct ss_event - one event to count, as perf_event_attr needs it.  The
 * fields past config are 0 for the table's names and raw rNNNN; the
 * modifiers (":u", ":k", ":h"), perf's pmu/term=value/ syntax and libpfm4
 * encodings set them.
 */
struct ss_event {
	char name[SS_EVENT_NAME_LEN]; /* as the user spelled it */
	uint32_t type; /* perf_event_attr.type: PERF_TYPE_* or a PMU's type */
	uint64_t config; /* perf_event_attr.config */
	uint64_t config1, config2; /* perf_event_attr.config1 / config2 */
	bool exclude_user, exclude_kernel, exclude_hv; /* perf_event_attr */
	bool hardware; /* needs a PMU counter (not PERF_TYPE_SOFTWARE) */
};

/*
 * ss_event_resolve_fn - encode a name the table does not know (a PMU's own
 * event, pmu/event/) into *@ev (name excluded).  Returns 0, or -1 with a
 * one-line message in @err.  See src/kernel/event_encode.h.
 */
typedef int (*ss_event_resolve_fn)(const char *name, struct ss_event *ev,
				   char *err, size_t errlen);

#define SS_EVENT_ALIASES 2 /* most other spellings of one event */
#define SS_EVENT_HEAD_LEN 10 /* longest table column header */

/*
 * struct ss_event_def - one perf event switchstat knows by name: the one
 * table that -e parsing, canonical names and column headers all read.
 */
struct ss_event_def {
	const char *name; /* canonical: perf list's first spelling */
	const char *alias[SS_EVENT_ALIASES]; /* other spellings, NULL-padded */
	uint32_t type; /* perf_event_attr.type: PERF_TYPE_* */
	uint64_t config; /* perf_event_attr.config */
	const char *head; /* table column header, e.g. "LLC-MISS" */
	const char *unit; /* "ns" for a time (cpu-clock); NULL: a count */
};

/*
 * ss_event_defs - the event table.  Sets *@defs to its first row and
 * returns the number of rows.  Each row has a distinct type/config.
 */
size_t ss_event_defs(const struct ss_event_def **defs);

/*
 * ss_event_def_of - the table row with @ev's type and config, or NULL for
 * raw events (PERF_TYPE_RAW) and anything else not in the table.
 */
const struct ss_event_def *ss_event_def_of(const struct ss_event *ev);

/*
 * ss_event_canonical - perf's main name for @ev's type and config, e.g.
 * cpu-cycles -> "cycles", faults -> "page-faults", cs ->
 * "context-switches", so that output columns and derived metrics (IPC
 * needs "cycles" and "instructions") do not depend on the alias typed.
 * Raw events keep ev->name.  Writes at most @len bytes (NUL included) to
 * @buf, truncating.
 */
void ss_event_canonical(const struct ss_event *ev, char *buf, size_t len);

/*
 * ss_event_head - table column header of the event spelled @name (any
 * spelling): the table's header, e.g. cache-misses -> "LLC-MISS"; for a
 * name not in the table (raw events) its first SS_EVENT_HEAD_LEN
 * characters upper-cased ("r01c2" -> "R01C2").  Writes at most @len bytes
 * (NUL included) to @buf.
 */
void ss_event_head(const char *name, char *buf, size_t len);

/*
 * ss_event_unit - unit of the counts of the event spelled @name (any
 * spelling, perf's ":u"/":k"/":h" modifiers allowed): "ns" for the time
 * events (cpu-clock, task-clock), NULL for a count (everything else,
 * raw and PMU events included).
 */
const char *ss_event_unit(const char *name);

/*
 * ss_events_parse - parse a comma-separated list of perf event names.
 * @list:   e.g. "cycles,instructions,r01c2"; NULL is treated as ""
 * @out:    array of at least @max entries
 * @max:    most events accepted (normally SS_MAX_EVENTS)
 * @err:    receives a one-line message on failure (may be NULL)
 * @errlen: size of @err
 *
 * Names are the canonical names and aliases of the event table
 * (ss_event_defs, the spellings of perf list(1), case-sensitive) and raw PMU
 * events "rNNNN" with 1-16 hex digits (PERF_TYPE_RAW), each optionally
 * followed by perf's modifiers ":u", ":k", ":h" (any combination; as in
 * perf, naming any of them excludes the levels not named).  Blanks around
 * an element are ignored.
 *
 * Returns the number of events (>= 1), or -1 with a message in @err for an
 * empty list, an empty element ("a,,b"), an unknown name, a malformed or
 * overflowing raw event, a duplicate (same type and config, so "cycles,
 * cpu-cycles" is one), or more than @max events.
 */
int ss_events_parse(const char *list, struct ss_event *out, int max, char *err,
		    size_t errlen);

/*
 * ss_events_parse_with - ss_events_parse, where a name that is neither in
 * the table nor raw goes to @resolve (NULL: unknown).  Commas inside a
 * pmu/.../ element ("cpu/event=0x3c,umask=0/") do not split the list.
 */
int ss_events_parse_with(const char *list, struct ss_event *out, int max,
			 ss_event_resolve_fn resolve, char *err, size_t errlen);

/*
 * ss_event_modifiers - apply perf's modifier letters [@m, @m + @n) (u, k, h
 * in any order and number) to @ev: as in perf
 * (tools/perf/util/parse-events.c), naming any level excludes the levels
 * not named.  Returns 0, or -1 for an empty list or another letter.
 */
int ss_event_modifiers(const char *m, size_t n, struct ss_event *ev);

/*
 * ss_events_default - the default set: cycles, instructions, cache-misses.
 * @out: array of at least 3 entries
 *
 * Returns 3.
 */
int ss_events_default(struct ss_event *out);

enum ss_delta_status {
	SS_DELTA_OK, /* *delta = cur - prev */
	SS_DELTA_FIRST, /* no previous reading: baseline only */
	SS_DELTA_BACKWARDS, /* cur < prev: counter reset or reused slot */
	SS_DELTA_ERROR, /* a reading holds a negative errno */
};

/*
 * ss_counter_delta - difference between two readings of a free-running counter.
 * @prev:      previous reading (ignored unless @have_prev)
 * @cur:       current reading
 * @have_prev: whether @prev is a valid earlier reading
 * @delta:     receives cur - prev on SS_DELTA_OK, 0 otherwise
 *
 * A reading whose top bit is set, i.e. negative as int64_t, carries the
 * negative errno that bpf_perf_event_read_value() returned (real counters
 * do not reach 2^63). Checks, in order: @cur is an error -> ERROR;
 * !@have_prev -> FIRST; @prev is an error -> ERROR; @cur < @prev ->
 * BACKWARDS; otherwise OK. No wrap-around is assumed: perf counts are
 * 64-bit and do not wrap in practice.
 */
enum ss_delta_status ss_counter_delta(uint64_t prev, uint64_t cur,
				      bool have_prev, uint64_t *delta);

/*
 * ss_counter_scale - estimate the full count of a multiplexed counter.
 * @delta:         counter delta over the interval
 * @enabled_delta: time_enabled delta over the interval (ns)
 * @running_delta: time_running delta over the interval (ns)
 * @scaled:        set to true when the result is an estimate
 *
 * Returns delta * enabled / running, as perf stat does when a counter was
 * scheduled on the PMU only part of the time (perf_counts_values__scale()
 * in tools/lib/perf). The product is computed in 128 bits and truncated,
 * so it is exact where perf's double arithmetic rounds; a result above
 * UINT64_MAX saturates. running >= enabled returns @delta unscaled with
 * *scaled = false. running == 0 means the counter never ran: returns 0 with
 * *scaled = true ("not counted"; the caller tells it apart by running == 0).
 */
uint64_t ss_counter_scale(uint64_t delta, uint64_t enabled_delta,
			  uint64_t running_delta, bool *scaled);

/* What one event's count over a task's slices in an interval is. */
enum ss_ctr_state {
	SS_CTR_NOT_COUNTED, /* never on the PMU (perf: <not counted>) */
	SS_CTR_COUNTED, /* on the PMU all the time it was enabled: exact */
	SS_CTR_SCALED, /* on the PMU part of the time: an estimate */
};

/*
 * ss_counter_state - whether an event was measured over a row's slices.
 * @timed:      the event is read with its times (may be multiplexed);
 *              software events are not, and are always counted
 * @enabled_ns: time_enabled summed over the slices charged to the row
 * @running_ns: time_running summed over the same slices
 *
 * A timed event with @running_ns == 0 never ran: NOT_COUNTED, whatever
 * @enabled_ns (0 too: no slice was read). @running_ns >= @enabled_ns:
 * COUNTED; else SCALED (perf stat's rule for one event of one task).
 */
enum ss_ctr_state ss_counter_state(bool timed, uint64_t enabled_ns,
				   uint64_t running_ns);

/*
 * ss_counter_running_pct - time_running / time_enabled over a row's slices,
 * percent (0..100): 100 for an event not read with times, NAN for a timed
 * one with @enabled_ns == 0 (nothing was read), else at most 100.
 */
double ss_counter_running_pct(bool timed, uint64_t enabled_ns,
			      uint64_t running_ns);

/*
 * ss_counter_estimate - a row's count of one event: @raw (the deltas summed
 * over its slices) scaled by enabled / running over those slices, as perf
 * stat scales one task's count (ss_counter_scale). Untimed events give
 * @raw. *@state receives ss_counter_state(); the result is 0 when it is
 * NOT_COUNTED and must then not be shown as a number.
 */
uint64_t ss_counter_estimate(bool timed, uint64_t raw, uint64_t enabled_ns,
			     uint64_t running_ns, enum ss_ctr_state *state);

/*
 * ipc - instructions per cycle. Returns NAN when @cycles is 0.
 */
double ss_ipc(uint64_t instructions, uint64_t cycles);

/*
 * mpki - misses per kilo-instruction: misses * 1000 / instructions.
 * Returns NAN when @instructions is 0.
 */
double ss_mpki(uint64_t misses, uint64_t instructions);

#endif /* SWITCHSTAT_EVENTS_H */
