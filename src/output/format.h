/* SPDX-License-Identifier: GPL-2.0 */
/*
 * format.h - the text primitives every output format shares: decimal and
 * fixed-point numbers, compact SI counts, printable comms, CSV quoting,
 * clock times and the names of perf counter columns.  Pure: unit-tested.
 */
#ifndef SWITCHSTAT_FORMAT_H
#define SWITCHSTAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ss_u64_digits - decimal digits of v into buf (>= 20 bytes, not NUL
 * terminated); returns their count. */
size_t ss_u64_digits(char *buf, uint64_t v);

/*
 * ss_fixed_text - v / 10^digits as "int.frac" with exactly @digits (1..19)
 * decimals, truncated, no floating point; buf >= 21 + digits bytes, not NUL
 * terminated.  Returns the length.
 */
size_t ss_fixed_text(char *buf, uint64_t v, int digits);

/* ss_fmt_si - compact count for the table: 999, 12.3K, 45.6M, 1.23G; buf>=8 */
void ss_fmt_si(char *buf, size_t len, uint64_t v);

/*
 * ss_printable - copy at most @maxlen bytes of @s (stopping at a NUL) to
 * @buf (@len bytes, always NUL terminated), control bytes and non-ASCII as
 * '?' so a comm cannot move the terminal's cursor.  Returns the length.
 */
size_t ss_printable(char *buf, size_t len, const char *s, size_t maxlen);

/*
 * ss_csv_needs_quotes - does s (at most maxlen bytes) need RFC 4180
 * quoting: a comma, quote, CR, LF or space in it.
 */
int ss_csv_needs_quotes(const char *s, size_t maxlen);

/* ss_csv_field - write s as one RFC 4180 CSV field (quoted when needed). */
void ss_csv_field(FILE *f, const char *s, size_t maxlen);

/*
 * ss_fmt_hms - local time of a CLOCK_REALTIME instant (ns) as "HH:MM:SS"
 * into buf (>= 9 bytes).  Returns buf.
 */
char *ss_fmt_hms(char *buf, uint64_t realtime_ns);

/*
 * ss_counter_key - CSV/JSON name of a perf event: each run of characters
 * other than letters and digits becomes one '_', none at the ends
 * (cache-misses -> cache_misses, msr/tsc/ -> msr_tsc, cycles:u -> cycles_u).
 */
void ss_counter_key(const char *event, char *buf, size_t len);

#endif
