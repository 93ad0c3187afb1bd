/* SPDX-License-Identifier: GPL-2.0 */
/*
 * histkind.h - the histogram kinds, one table: the --hist word (also the
 * CSV/JSON "kind" value), the option bit in ss_opts.hist, the kind id in
 * the BPF hist map key, the -D macro that enables the kind in the probes,
 * and the title of the text histogram.
 */
#ifndef SWITCHSTAT_HISTKIND_H
#define SWITCHSTAT_HISTKIND_H

#include <stddef.h>

struct ss_hist_kind_def {
	const char *name; /* --hist word, CSV/JSON kind: "runq" */
	unsigned int bit; /* enum ss_hist_kind: bit of ss_opts.hist */
	unsigned int id; /* enum ss_hist_kind_id: ss_hist_key.kind */
	const char *define; /* probe macro set to 0/1: "SS_HIST_RUNQ" */
	const char *title; /* text histogram title: "run-queue latency" */
};

/*
 * ss_hist_kinds - the table, in kind id order (row i has id i).  Sets
 * *@defs to its first row and returns the number of rows (SS_HK_MAX).
 */
size_t ss_hist_kinds(const struct ss_hist_kind_def **defs);

/* ss_hist_kind_by_id - the row of kind id @id, or NULL if out of range. */
const struct ss_hist_kind_def *ss_hist_kind_by_id(unsigned int id);

/*
 * ss_hist_kind_by_name - the row whose name is the @len bytes at @s, or
 * NULL.  Case-sensitive.
 */
const struct ss_hist_kind_def *ss_hist_kind_by_name(const char *s, size_t len);

#endif
