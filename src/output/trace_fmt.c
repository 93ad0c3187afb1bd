// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt.c - --trace lines: one record per context switch through the
 * emitter (emit.h), so table, CSV and NDJSON carry the same fields.
 *
 * Table layout after bcc's per-event tools (runqslower, offcputime -f):
 * a header once, then one line per event, left-aligned ids and comms.
 */
#include "trace_fmt.h"

#include <string.h>

#include "events.h"
#include "format.h"

/* ---- prev_state ------------------------------------------------------- */

/* ss_trace_state_str - see trace_fmt.h */
const char *ss_trace_state_str(uint64_t prev_state, char *buf, size_t len)
{
	static const char letters[] = "SDTtXZPI"; /* bits 0x01 .. 0x80 */
	size_t n = 0;

	if (len < SS_STATE_STR_LEN) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	for (int i = 0; i < 8; i++) {
		if (!(prev_state & (1ULL << i)))
			continue;
		if (n)
			buf[n++] = '|';
		buf[n++] = letters[i];
	}
	if (!n)
		buf[n++] = 'R';
	if (prev_state & 0x100)
		buf[n++] = '+';
	buf[n] = '\0';
	return buf;
}

/* ss_trace_event_voluntary - see trace_fmt.h */
int ss_trace_event_voluntary(const struct ss_trace_event *e)
{
	if (e->flags & SS_TRACE_KIND_KNOWN)
		return (e->flags & SS_TRACE_VOLUNTARY) != 0;
	return ss_trace_voluntary(e->prev_state);
}

/* ss_trace_voluntary - see trace_fmt.h */
int ss_trace_voluntary(uint64_t prev_state)
{
	return (prev_state & SS_PREV_STATE_SLEEP_MASK) != 0;
}

/* table width of a counter column, at least */
#define CTR_WIDTH 10

enum col_id {
	COL_TIME,
	COL_TS,
	COL_CPU,
	COL_PREV_PID,
	COL_PREV_TID,
	COL_PREV_COMM,
	COL_PREV_STATE,
	COL_VOLUNTARY,
	COL_NEXT_TID,
	COL_NEXT_COMM,
	COL_SLICE,
	COL_FIXED_MAX,
};

_Static_assert(COL_FIXED_MAX == SS_TRACE_NCOLS, "SS_TRACE_NCOLS");

static const struct ss_field fixed_fields[COL_FIXED_MAX] = {
	[COL_TIME] = { .key = "time",
		       .head = "TIME(s)",
		       .unit = "s",
		       .width = -15 },
	[COL_TS] = { .key = "ts_ns", .unit = "ns" },
	[COL_CPU] = { .key = "cpu", .head = "CPU", .width = 3 },
	[COL_PREV_PID] = { .key = "prev_pid", .head = "PREV_PID", .width = -8 },
	[COL_PREV_TID] = { .key = "prev_tid", .head = "PREV_TID", .width = -8 },
	[COL_PREV_COMM] = { .key = "prev_comm",
			    .head = "PREV_COMM",
			    .width = -16 },
	[COL_PREV_STATE] = { .key = "prev_state",
			     .head = "STATE",
			     .width = -5 },
	[COL_VOLUNTARY] = { .key = "voluntary", .unit = "bool" },
	[COL_NEXT_TID] = { .key = "next_tid", .head = "NEXT_TID", .width = -8 },
	[COL_NEXT_COMM] = { .key = "next_comm",
			    .head = "NEXT_COMM",
			    .width = -16 },
	/* the table shows us with 3 decimals, exact; CSV/JSON ns */
	[COL_SLICE] = { .key = "slice_ns",
			.head = "SLICE(us)",
			.unit = "ns",
			.width = 10,
			.style = SS_TS_FIXED,
			.table_decimals = 3,
			.na = "-" },
};

static const struct ss_field scaled_field = { .key = "scaled", .unit = "bool" };

/* ---- init ------------------------------------------------------------- */

/* ss_trace_fmt_init - see trace_fmt.h */
void ss_trace_fmt_init(struct ss_trace_fmt *t, struct ss_emit *e,
		       bool wall_clock, uint64_t start_mono_ns,
		       uint64_t start_real_ns, int nr_counters,
		       const char (*ctr_name)[SS_EVENT_NAME_LEN],
		       bool counters_na, uint64_t counter_na)
{
	memset(t, 0, sizeof(*t));
	t->e = e;
	t->mono_to_real_ns = (int64_t)(start_real_ns - start_mono_ns);
	ss_emit_set_clock(e, start_real_ns, wall_clock);
	memcpy(t->fields, fixed_fields, sizeof(fixed_fields));
	if (wall_clock)
		t->fields[COL_TIME].head = "TIME";
	if (!ctr_name || nr_counters < 0)
		nr_counters = 0;
	if (nr_counters > SS_MAX_COUNTERS)
		nr_counters = SS_MAX_COUNTERS;
	t->nr_counters = nr_counters;
	t->counters_na = counters_na;
	t->counter_na = counter_na;
	for (int i = 0; i < nr_counters; i++) {
		struct ss_field *fd = &t->ctr_field[i];
		const char *unit = ss_event_unit(ctr_name[i]);
		bool ns = unit && !strcmp(unit, "ns");
		size_t len;

		ss_counter_key(ctr_name[i], t->ctr_key[i], SS_EVENT_NAME_LEN);
		ss_event_head(ctr_name[i], t->ctr_head[i],
			      sizeof(t->ctr_head[i]) - 4);
		if (ns) { /* ns in CSV/JSON, us in the table as SLICE(us) */
			strcat(t->ctr_key[i], "_ns");
			strcat(t->ctr_head[i], "(us)");
		}
		len = strlen(t->ctr_head[i]);
		fd->key = t->ctr_key[i];
		/* not opened: not in the table (null in CSV/JSON) */
		fd->head = counters_na || (counter_na >> i & 1)
				   ? NULL
				   : t->ctr_head[i];
		fd->unit = ns ? "ns" : "count";
		fd->width = len > CTR_WIDTH ? (int)len : CTR_WIDTH;
		fd->style = ns ? SS_TS_FIXED : SS_TS_SI;
		fd->table_decimals = ns ? 3 : 0;
	}
}

/* ---- public ----------------------------------------------------------- */

/* ss_trace_header - see trace_fmt.h */
void ss_trace_header(const struct ss_trace_fmt *t)
{
	struct ss_emit *e = t->e;

	if (!ss_emit_begin_header(e))
		return;
	for (int i = 0; i < COL_FIXED_MAX; i++)
		ss_emit_head(e, &t->fields[i]);
	for (int i = 0; i < t->nr_counters; i++)
		ss_emit_head(e, &t->ctr_field[i]);
	if (t->nr_counters)
		ss_emit_head(e, &scaled_field);
	ss_emit_end(e);
}

/* ss_trace_print - see trace_fmt.h */
int ss_trace_print(const struct ss_trace_fmt *t, const void *raw, size_t size)
{
	const struct ss_field *fd = t->fields;
	struct ss_emit *e = t->e;
	struct ss_trace_event ev = { 0 };
	char state[SS_STATE_STR_LEN];
	struct ss_value v = { 0 };
	int nr;

	if (size < SS_TRACE_EVENT_SIZE(0))
		return -1;
	/* copy: perf records are only 8-byte aligned by luck of the layout */
	memcpy(&ev, raw, size < sizeof(ev) ? size : sizeof(ev));
	ev.ts_ns += (uint64_t)t->ktime_offset_ns; /* the user's clock */
	nr = (size - SS_TRACE_EVENT_SIZE(0)) / sizeof(__u64);
	if (nr > SS_MAX_COUNTERS)
		nr = SS_MAX_COUNTERS;
	ss_trace_state_str(ev.prev_state, state, sizeof(state));

	ss_emit_begin(e, "switch");
	ss_emit_time(e, &fd[COL_TIME], ev.ts_ns + (uint64_t)t->mono_to_real_ns);
	ss_emit_u64(e, &fd[COL_TS], ev.ts_ns);
	ss_emit_u64(e, &fd[COL_CPU], ev.cpu);
	ss_emit_u64(e, &fd[COL_PREV_PID], ev.prev_tgid);
	ss_emit_u64(e, &fd[COL_PREV_TID], ev.prev_tid);
	ss_emit_str(e, &fd[COL_PREV_COMM], ev.prev_comm, sizeof(ev.prev_comm));
	ss_emit_str(e, &fd[COL_PREV_STATE], state, sizeof(state));
	ss_emit_u64(e, &fd[COL_VOLUNTARY], ss_trace_event_voluntary(&ev));
	ss_emit_u64(e, &fd[COL_NEXT_TID], ev.next_tid);
	ss_emit_str(e, &fd[COL_NEXT_COMM], ev.next_comm, sizeof(ev.next_comm));
	if (ev.flags & SS_TRACE_SLICE_KNOWN)
		ss_emit_u64(e, &fd[COL_SLICE], ev.slice_ns);
	else
		ss_emit_null(e, &fd[COL_SLICE]);
	/* n/a: no PMU, not read, or no valid delta for this slice */
	for (int i = 0; i < t->nr_counters; i++) {
		if (t->counters_na || (t->counter_na >> i & 1) || i >= nr ||
		    !(ev.counter_valid & (1ULL << i))) {
			v.kind = SS_VAL_NULL;
			v.mark = false;
		} else {
			v.kind = SS_VAL_U64;
			v.u = ev.counters[i];
			v.mark = ev.counter_scaled & (1ULL << i);
		}
		ss_emit_field(e, &t->ctr_field[i], &v);
	}
	if (t->nr_counters) {
		if (t->counters_na || !ev.counter_valid)
			ss_emit_null(e, &scaled_field);
		else
			ss_emit_u64(e, &scaled_field,
				    ev.counter_scaled ? 1 : 0);
	}
	ss_emit_end(e);
	return 0;
}
