/* SPDX-License-Identifier: GPL-2.0 */
/*
 * emit.h - the one output layer: records of named fields, written by one
 * backend per format (table, CSV, NDJSON), chosen once per run.
 *
 * A record is ss_emit_begin(), one ss_emit_*() call per field, then
 * ss_emit_end().  A field is described once (struct ss_field: key, table
 * header, unit, table presentation) and every backend renders it its way:
 * the table pads to the column width and shows counts compactly, CSV quotes
 * strings and leaves null empty, NDJSON writes "key":value and null.  A
 * header record (ss_emit_begin_header) is the table's header line or the
 * CSV header row.  A record is built in memory and leaves in one fwrite:
 * the trace path writes one per context switch.
 *
 * Adding a format: a struct ss_emit_backend in its own emit_*.c file and
 * an entry in emit.c's table.
 */
#ifndef SWITCHSTAT_EMIT_H
#define SWITCHSTAT_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct ss_opts;

/* The output formats (--csv, --json, neither; -q: none). */
enum ss_format {
	SS_FMT_TABLE,
	SS_FMT_CSV,
	SS_FMT_JSON,
	SS_FMT_NONE, /* -q: records and raw text dropped (exporter only) */
	SS_FMT_MAX,
};

/* How the table shows an unsigned value. */
enum ss_table_style {
	SS_TS_PLAIN, /* decimal digits */
	SS_TS_SI, /* compact count: 12.3M (ss_fmt_si) */
	SS_TS_DIV, /* value / table_div, rounded to table_decimals */
	SS_TS_FIXED, /* value / 10^table_decimals, exact (truncated) */
};

/* One field of a record: described once, rendered by every backend. */
struct ss_field {
	const char
		*key; /* CSV column, JSON key: a plain identifier [a-z0-9_] */
	const char *head; /* table header; NULL: not shown in the table */
	const char *unit; /* unit of the emitted value: "ns", "s", "count" */
	int width; /* table: column width, negative: left-aligned */
	enum ss_table_style style; /* table: unsigned values */
	int table_decimals; /* table: digits after the point */
	double table_div; /* table, SS_TS_DIV: the divisor */
	int decimals; /* CSV/JSON: digits after the point of doubles */
	bool tail; /* table: a longer string keeps its tail after "..." */
	bool cut; /* table: a longer string keeps its head, '+' last (top) */
	const char *na; /* table text of null; NULL: "n/a" */
};

enum ss_val_kind {
	SS_VAL_U64,
	SS_VAL_DBL,
	SS_VAL_STR,
	SS_VAL_NULL, /* not measured: "n/a", empty CSV field, JSON null */
	SS_VAL_TIME, /* CLOCK_REALTIME ns, see ss_emit_set_clock() */
};

/* One value. */
struct ss_value {
	enum ss_val_kind kind;
	bool mark; /* estimate (multiplex-scaled): the table appends '*' */
	uint64_t u; /* U64, TIME */
	double d; /* DBL */
	const char *s; /* STR: need not be NUL terminated within maxlen */
	size_t maxlen;
};

struct ss_emit;

/* A format's writer: appends to the emitter's line (ss_emit_put). */
struct ss_emit_backend {
	const char *name;
	/* header record wanted now? (table: every block; CSV: once) */
	bool (*header_wanted)(struct ss_emit *e);
	void (*head)(struct ss_emit *e, const struct ss_field *fd);
	void (*begin)(struct ss_emit *e, const char *type);
	void (*field)(struct ss_emit *e, const struct ss_field *fd,
		      const struct ss_value *v);
	void (*end)(struct ss_emit *e);
};

#define SS_EMIT_LINE 1024

/* An output stream in one format.  Fields are private to emit*.c. */
struct ss_emit {
	FILE *f;
	enum ss_format fmt;
	const struct ss_emit_backend *be;
	bool wall_clock; /* table TIME: HH:MM:SS.uuuuuu, else s since t0 */
	uint64_t t0_real_ns; /* CLOCK_REALTIME at start, for table TIME */
	int64_t hms_sec; /* second of hms (table TIME cache), -1: none */
	char hms[16];
	bool in_header; /* between ss_emit_begin_header and ss_emit_end */
	bool header_done; /* CSV: header row written */
	int nf; /* fields written in this record */
	size_t n; /* bytes in b */
	char b[SS_EMIT_LINE];
};

/* ss_format_of - the format the options ask for (-q, --csv, --json, table). */
enum ss_format ss_format_of(const struct ss_opts *o);

/* ss_format_name - "table", "csv", "json", "none". */
const char *ss_format_name(enum ss_format fmt);

/* ss_emit_init - an emitter writing @fmt to @f. */
void ss_emit_init(struct ss_emit *e, FILE *f, enum ss_format fmt);

/*
 * ss_emit_set_clock - how the table shows SS_VAL_TIME: seconds since
 * @t0_real_ns (CLOCK_REALTIME, ns) with 6 decimals, or with @wall_clock
 * local HH:MM:SS.uuuuuu.  CSV and JSON always write epoch seconds, 6
 * decimals, exact.
 */
void ss_emit_set_clock(struct ss_emit *e, uint64_t t0_real_ns, bool wall_clock);

/*
 * ss_emit_begin_header - start a header record if the format wants one
 * now (table: every call; CSV: the first call, or after
 * ss_emit_reset_header; JSON: never).  Returns true: call ss_emit_head()
 * for each field, then ss_emit_end().
 */
bool ss_emit_begin_header(struct ss_emit *e);

/* ss_emit_reset_header - the next CSV header is wanted again. */
void ss_emit_reset_header(struct ss_emit *e);

/* ss_emit_head - one column of the header record. */
void ss_emit_head(struct ss_emit *e, const struct ss_field *fd);

/* ss_emit_begin - start a record; JSON writes "type":@type first (NULL: no type). */
void ss_emit_begin(struct ss_emit *e, const char *type);

/* ss_emit_field - one field of the record (any kind). */
void ss_emit_field(struct ss_emit *e, const struct ss_field *fd,
		   const struct ss_value *v);

/* ss_emit_u64 / _str / _double / _null / _time - one field of one kind. */
void ss_emit_u64(struct ss_emit *e, const struct ss_field *fd, uint64_t v);
void ss_emit_str(struct ss_emit *e, const struct ss_field *fd, const char *s,
		 size_t maxlen);
void ss_emit_double(struct ss_emit *e, const struct ss_field *fd, double v);
void ss_emit_null(struct ss_emit *e, const struct ss_field *fd);
void ss_emit_time(struct ss_emit *e, const struct ss_field *fd,
		  uint64_t realtime_ns);

/* ss_emit_end - end the record (or header): newline, then one fwrite. */
void ss_emit_end(struct ss_emit *e);

/*
 * ss_emit_raw - text written as is (block separators, the table's
 * timestamp and histogram lines), after what is pending.
 */
void ss_emit_raw(struct ss_emit *e, const char *s);

/* ss_emit_timestamp - the table's "HH:MM:SS" line (local time); others: nothing. */
void ss_emit_timestamp(struct ss_emit *e, uint64_t realtime_ns);

/*
 * ss_emit_aside - the stream for human-readable text around the records
 * (banner, self-stats table): the output itself for the table, stderr for
 * the other formats so the machine-readable stream stays clean (and -q's
 * stdout empty).
 */
FILE *ss_emit_aside(const struct ss_emit *e);

/*
 * ss_emit_banner - @line and a newline on ss_emit_aside(), then @gap
 * blank lines when that is the table itself.  Flushes.
 */
void ss_emit_banner(struct ss_emit *e, const char *line, int gap);

/* ss_emit_flush - write out what is pending (the FILE is not flushed). */
void ss_emit_flush(struct ss_emit *e);

/* ss_emit_put_long - ss_emit_put when the line is full: flush first. */
void ss_emit_put_long(struct ss_emit *e, const char *s, size_t k);

/* Backend helpers: append to the record's line (inline: per field). */
static inline void ss_emit_put(struct ss_emit *e, const char *s, size_t k)
{
	if (e->n + k > sizeof(e->b)) {
		ss_emit_put_long(e, s, k);
		return;
	}
	memcpy(e->b + e->n, s, k);
	e->n += k;
}

static inline void ss_emit_puts(struct ss_emit *e, const char *s)
{
	ss_emit_put(e, s, strlen(s));
}

static inline void ss_emit_putc(struct ss_emit *e, char c)
{
	if (e->n + 1 > sizeof(e->b))
		ss_emit_flush(e);
	e->b[e->n++] = c;
}

void ss_emit_put_u64(struct ss_emit *e, uint64_t v);
/* epoch seconds of a CLOCK_REALTIME instant, 6 decimals, exact */
void ss_emit_put_epoch(struct ss_emit *e, uint64_t realtime_ns);

/*
 * ss_diag - one diagnostic line on stderr: "switchstat: " and the printf
 * text, then a newline.  ss_diag_raw: the text as is (own prefix, own
 * newline).
 */
void ss_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ss_diag_raw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

extern const struct ss_emit_backend ss_emit_table, ss_emit_csv, ss_emit_json,
	ss_emit_none;

#endif
