/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prom_fmt.h - writer of the Prometheus text exposition format 0.0.4 and of
 * OpenMetrics 1.0 text: metric families (HELP, TYPE, UNIT), samples with
 * escaped label values, log2 histograms as _bucket/_sum/_count, `# EOF`.
 * Pure: writes to a FILE (e.g. open_memstream), knows no BPF.
 */
#ifndef SWITCHSTAT_PROM_FMT_H
#define SWITCHSTAT_PROM_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ss_prom_format {
	SS_PROM_TEXT = 0, /* text/plain; version=0.0.4 */
	SS_PROM_OPENMETRICS = 1, /* application/openmetrics-text 1.0.0 */
};

#define SS_PROM_CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define SS_PROM_CT_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

enum ss_prom_type {
	SS_PROM_COUNTER, /* samples get _total */
	SS_PROM_GAUGE,
	SS_PROM_HISTOGRAM, /* samples get _bucket, _sum, _count */
	SS_PROM_INFO, /* samples get _info; a gauge of 1 in text 0.0.4 */
};

/* One label; a NULL value is written as "". */
struct ss_prom_label {
	const char *name;
	const char *value;
};

/* The writer: one family at a time. */
struct ss_prom {
	FILE *f;
	enum ss_prom_format fmt;
	enum ss_prom_type type;
	char name[128]; /* family name, without _total / _info */
};

/* ss_prom_init - start writing @fmt to @f. */
void ss_prom_init(struct ss_prom *p, FILE *f, enum ss_prom_format fmt);

/*
 * ss_prom_family - start a metric family: "# HELP", "# TYPE" and, in
 * OpenMetrics when @unit is not NULL, "# UNIT" (the name must then end in
 * _<unit>).  @name is the family name without the _total (counter) or
 * _info (info) suffix; in text 0.0.4 HELP and TYPE carry the suffixed name
 * as that format requires, in OpenMetrics the bare family name.
 */
void ss_prom_family(struct ss_prom *p, const char *name, enum ss_prom_type type,
		    const char *help, const char *unit);

/*
 * ss_prom_sample - one sample of the current family: name (with the type's
 * suffix), the labels in order, and the value text @value (see
 * ss_prom_u64 / ss_prom_ns_seconds / ss_prom_double).
 */
void ss_prom_sample(struct ss_prom *p, const struct ss_prom_label *labels,
		    size_t nlabels, const char *value);

/*
 * ss_prom_histogram - one histogram of the current (histogram) family from
 * log2 slot counts: slot 0 holds values 0..1 units, slot k >= 1 holds
 * 2^k .. 2^(k+1)-1 units (the value truncated to whole units), so its
 * upper bound is le = 2^(k+1) units; the last slot holds everything larger
 * (it clamps) and is counted only in le="+Inf".  @unit_ns is the unit in
 * ns (1000 for usecs).  Buckets are cumulative; _sum (seconds) is an
 * estimate: each slot's count times its midpoint (1.5 * 2^k units, 1 for
 * slot 0, the lower bound for the last slot); _count is the total.
 */
void ss_prom_histogram(struct ss_prom *p, const struct ss_prom_label *labels,
		       size_t nlabels, const uint64_t *slots, size_t nslots,
		       uint64_t unit_ns);

/* ss_prom_end - finish: "# EOF" in OpenMetrics, nothing in text 0.0.4. */
void ss_prom_end(struct ss_prom *p);

/*
 * ss_prom_escape_label - write @s as a label value (without the quotes):
 * backslash, double quote and newline escaped as \\, \" and \n, which both
 * formats define; bytes that are not valid UTF-8 become U+FFFD, since both
 * formats require UTF-8.  Other bytes are written as they are.
 */
void ss_prom_escape_label(FILE *f, const char *s);

/* ss_prom_escape_help - HELP text: \\ and \n (and \" in OpenMetrics). */
void ss_prom_escape_help(FILE *f, const char *s, enum ss_prom_format fmt);

/* Value texts: buf must hold SS_PROM_VAL_LEN bytes; each returns buf. */
#define SS_PROM_VAL_LEN 48
char *ss_prom_u64(char *buf, uint64_t v); /* decimal integer */
char *ss_prom_ns_seconds(char *buf, uint64_t ns); /* exact: 1.000000002 */
char *ss_prom_double(char *buf, double v); /* %.15g, NaN, +Inf, -Inf */

/*
 * ss_prom_negotiate - the format to serve for an Accept header (NULL: no
 * header).  Media ranges are weighed by their q parameter (default 1, q=0
 * refused); application/openmetrics-text with version 1.0.0, 0.0.1 or none
 * means OpenMetrics, text/plain (version 0.0.4 or none), text/ and
 * star/star mean text 0.0.4.  The highest q wins, OpenMetrics on a tie.
 * Text 0.0.4 when nothing matches, as servers of this format do.
 */
enum ss_prom_format ss_prom_negotiate(const char *accept);

#endif
