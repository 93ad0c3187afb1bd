/* SPDX-License-Identifier: GPL-2.0 */
/* Log2 histograms: slot computation and bcc/libbpf-tools style printing. */
#ifndef SWITCHSTAT_HIST_H
#define SWITCHSTAT_HIST_H

#include <stdio.h>

/* Log2 slots needed for any 64-bit value (slot 63 is [2^63, ULLONG_MAX]). */
#define SS_HIST_MAX_SLOTS 64

/*
 * ss_log2_slot - log2 histogram slot of @v, clamped to @max_slots - 1.
 *
 * Slot 0 holds 0 and 1, slot k (k >= 1) holds [2^k, 2^(k+1) - 1], i.e. the
 * slot is floor(log2(v)). This is what libbpf-tools' log2l() (bits.bpf.h)
 * returns. NOTE: bcc's bpf_log2l() in helpers.h returns this value + 1
 * (slot 1 for 0 and 1), so a BPF program using bpf_log2l() must subtract 1
 * to match ss_print_log2_hist() below. Returns 0 if @max_slots is 0.
 */
unsigned int ss_log2_slot(unsigned long long v, unsigned int max_slots);

/*
 * ss_print_stars - write the bar of a histogram row to @f.
 *
 * Writes min(val, val_max) * width / val_max '*' characters, pads with
 * spaces to @width, and appends '+' if @val > @val_max. Same semantics as
 * print_stars() in libbpf-tools/trace_helpers.c, but with 64-bit counts
 * (the product is computed in 128 bits, so it cannot overflow). If @val_max
 * is 0 no stars are written.
 */
void ss_print_stars(FILE *f, unsigned long long val, unsigned long long val_max,
		    int width);

/*
 * print_log2_hist - write a log2 histogram of @vals[0..vals_size-1] to @f.
 *
 * Layout is byte-for-byte print_log2_hist() of libbpf-tools/trace_helpers.c:
 * a "%*s%-*s : count    distribution" header followed by one
 * "%*llu -> %-*llu : %-8llu |<bar>|" row per slot from 0 to the last
 * non-empty slot. Column width is 10 and the bar 40 wide, or 20 and 20 if
 * the last non-empty slot is > 32. @val_type labels the value column
 * (e.g. "usecs"). Nothing is written if every count is zero. Slots past
 * SS_HIST_MAX_SLOTS are ignored. Counts are printed unsigned 64-bit; for
 * slot 63 the bounds are printed correctly (the original shifts by 64).
 */
void ss_print_log2_hist(FILE *f, const unsigned long long *vals, int vals_size,
			const char *val_type);

#endif /* SWITCHSTAT_HIST_H */
