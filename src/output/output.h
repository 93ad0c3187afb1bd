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
struct ss_psi_cache;

#define SS_MAX_COLS 48

struct ss_out;

/* A column: the same getter feeds every format. */
struct ss_col {
	struct ss_field fd; /* key, table header (NULL: not in the table) */
	int arg; /* e.g. counter index */
	int drop; /* table fitting (colfit.h): 0 never dropped, higher first */
	int short_width; /* table: abbreviated width (its sign), 0: none */
	const char *short_head; /* header when abbreviated; NULL: fd.head */
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
	bool counters_na; /* no PMU: not in the table, CSV/JSON null */
	uint64_t ctr_timed; /* bit i: counter i is read with its times */
	uint64_t counter_na; /* bit i: counter i not opened: as counters_na */
	bool mem_na[3]; /* faults, pgalloc, reclaim */
	struct ss_cgroup_cache *cg; /* for cgroup names; may be NULL */
	struct ss_psi_cache *psi; /* -G: CPU-PSI% column; NULL: none */
	/*
	 * table: fit the line in this many characters (ss_table_width), 0:
	 * no limit.  ss_out_init abbreviates and drops columns for it and
	 * lists the dropped headers in fit_dropped ("" when none).
	 */
	int max_width;
	char fit_dropped[256];
	struct ss_col cols[SS_MAX_COLS];
	int ncols;
	struct ss_emit e; /* the format's writer; keeps the CSV header state */
};

/*
 * ss_out_init - choose the columns from the options and counter names
 * (out->o, fmt, nr_counters, ctr_name, counters_na, counter_na, mem_na
 * and max_width must be set first).  Counters that were not opened
 * (counters_na, counter_na) and the ratios needing them are left out of
 * the table; CSV and JSON keep them, empty / null.  Time events
 * (ss_event_unit "ns": cpu-clock, task-clock) are keyed <name>_ns and shown
 * in ms ("TASK-CLK(ms)").  In the table, with max_width, the columns are
 * fitted (colfit.h), in this order: long names abbreviated (COMM to 12
 * characters with a '+' where cut, CGROUP paths to 16, RECLAIM(ms) as
 * RCLM(ms)), then dropped: the -v CGROUP column, CGID (-G), the raw counts
 * a shown IPC/MPKI is made of, the sums SWITCH and SW/s, %CPU, PGALLOC and
 * RECLAIM(ms), then the other counters, FAULTS, VOL/s, INVOL/s, IPC and
 * MPKI, rightmost first.  PID, TID, COMM, CGROUP (-G), VOL, INVOL and
 * ONCPU(ms) always stay.
 */
void ss_out_init(struct ss_out *out);

/*
 * ss_out_interval - print one interval to @f: table (optional timestamp
 * line, header, top N rows, blank line), CSV rows (header once) or NDJSON
 * rows.  Rows must already be sorted.
 */
void ss_out_interval(struct ss_out *out, FILE *f, const struct ss_interval *iv);

#endif
