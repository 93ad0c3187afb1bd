/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the per-interval report: one record per row through the
 * emitter (emit.h), from one list of columns so every format carries the
 * same fields.
 */
#ifndef SWITCHSTAT_OUTPUT_H
#define SWITCHSTAT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "emit.h"
#include "events.h"
#include "format.h"
#include "options.h"
#include "rows.h"

struct ss_cgroup_cache;

#define SS_MAX_COLS 48

struct ss_out;

/* A column: the same getter feeds every format. */
struct ss_col {
	struct ss_field fd; /* key, table header (NULL: not in the table) */
	int arg; /* e.g. counter index */
	void (*get)(const struct ss_out *out, const struct ss_col *col,
		    const struct ss_interval *iv, const struct ss_row *r,
		    struct ss_value *cell);
};

/* What the report needs besides the rows. */
struct ss_out {
	const struct ss_opts *o;
	enum ss_format fmt; /* chosen once (ss_format_of) */
	int nr_counters;
	char ctr_name[SS_MAX_COUNTERS]
		     [SS_EVENT_NAME_LEN]; /* perf names, e.g. cache-misses */
	bool counters_na; /* no PMU: columns show n/a */
	uint64_t ctr_timed; /* bit i: counter i is read with its times */
	uint64_t counter_na; /* bit i: counter i not measured: n/a */
	bool mem_na[3]; /* faults, pgalloc, reclaim */
	struct ss_cgroup_cache *cg; /* for cgroup names; may be NULL */
	struct ss_col cols[SS_MAX_COLS];
	int ncols;
	struct ss_emit e; /* the format's writer; keeps the CSV header state */
};

/*
 * ss_out_init - choose the columns from the options and counter names
 * (out->o, fmt, nr_counters, ctr_name, counters_na, mem_na must be set
 * first).
 */
void ss_out_init(struct ss_out *out);

/*
 * ss_out_interval - print one interval to @f: table (optional timestamp
 * line, header, top N rows, blank line), CSV rows (header once) or NDJSON
 * rows.  Rows must already be sorted.
 */
void ss_out_interval(struct ss_out *out, FILE *f, const struct ss_interval *iv);

#endif
