/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the per-interval report as a table, CSV or NDJSON, driven by one
 * list of columns so the three formats always carry the same fields.
 */
#ifndef SWITCHSTAT_OUTPUT_H
#define SWITCHSTAT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "opts.h"
#include "rows.h"

struct cgroup_cache;

#define SS_MAX_COLS 40

enum ss_cell_kind { SS_CELL_U64, SS_CELL_DBL, SS_CELL_STR, SS_CELL_NA };

/* One value of one row in one column. */
struct ss_cell {
	enum ss_cell_kind kind;
	uint64_t u;
	double d;
	const char *s;
	bool scaled; /* counter value was multiplex-scaled: table shows '*' */
};

struct ss_out;

/* A column: the same getter feeds the table, CSV and JSON. */
struct ss_col {
	const char *head; /* table header */
	const char *key; /* CSV column / JSON key */
	int width; /* table width; negative: left-aligned */
	int decimals; /* table decimals for doubles */
	double table_div; /* table shows u64 / table_div as a double (if > 0) */
	bool table; /* shown in the table */
	bool si; /* table shows u64 compactly: 12.3M */
	int arg; /* e.g. counter index */
	void (*get)(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_cell *cell);
};

/* What the report needs besides the rows. */
struct ss_out {
	const struct ss_opts *o;
	int nr_counters;
	char ctr_name[SS_MAX_COUNTERS][32]; /* perf names, e.g. cache-misses */
	bool counters_na; /* no PMU: columns show n/a */
	bool mem_na[3]; /* faults, pgalloc, reclaim */
	struct cgroup_cache *cg; /* for cgroup names; may be NULL */
	struct ss_col cols[SS_MAX_COLS];
	int ncols;
	bool header_done; /* CSV header written */
};

/*
 * ss_out_init - choose the columns from the options and counter names
 * (out->o, nr_counters, ctr_name, counters_na, mem_na must be set first).
 */
void ss_out_init(struct ss_out *out);

/*
 * ss_out_interval - print one interval: table (optional timestamp line,
 * header, top N rows, blank line), CSV rows (header once) or NDJSON rows.
 * Rows must already be sorted.
 */
void ss_out_interval(struct ss_out *out, FILE *f, const struct ss_interval *iv);

/* ss_fmt_si - compact count for the table: 999, 12.3K, 45.6M, 1.23G; buf>=8 */
void ss_fmt_si(char *buf, size_t len, uint64_t v);

/* ss_csv_field - write s as one RFC 4180 CSV field (quoted when needed). */
void ss_csv_field(FILE *f, const char *s, size_t maxlen);

/* ss_counter_key - CSV/JSON name of a perf event: cache-misses -> cache_misses */
void ss_counter_key(const char *event, char *buf, size_t len);

#endif
