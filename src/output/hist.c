// SPDX-License-Identifier: GPL-2.0
/*
 * Log2 histograms. The text layout follows print_log2_hist() and
 * print_stars() in bcc's libbpf-tools/trace_helpers.c.
 */
#include <limits.h>

#include "hist.h"

unsigned int ss_log2_slot(unsigned long long v, unsigned int max_slots)
{
	unsigned int slot;

	if (max_slots == 0)
		return 0;
	/* floor(log2(v)); 0 and 1 both land in slot 0 */
	slot = v < 2 ? 0 : 63 - (unsigned int)__builtin_clzll(v);
	return slot < max_slots ? slot : max_slots - 1;
}

void ss_print_stars(FILE *f, unsigned long long val, unsigned long long val_max,
		    int width)
{
	unsigned long long v = val < val_max ? val : val_max;
	int num_stars = 0, i;

	if (width < 0)
		width = 0;
	if (val_max)
		num_stars = (int)((unsigned __int128)v * (unsigned int)width /
				  val_max);
	for (i = 0; i < num_stars; i++)
		fputc('*', f);
	for (i = num_stars; i < width; i++)
		fputc(' ', f);
	if (val > val_max)
		fputc('+', f);
}

/*
 * Bounds of slot @i: trace_helpers.c uses low = (1 << (i + 1)) >> 1,
 * high = (1 << (i + 1)) - 1 and low -= 1 when low == high (slot 0); this is
 * the same without the undefined shift by 64 for i == 63.
 */
static void slot_bounds(int i, unsigned long long *low,
			unsigned long long *high)
{
	*low = i == 0 ? 0 : 1ULL << i;
	*high = i >= 63 ? ULLONG_MAX : (1ULL << (i + 1)) - 1;
}

/* Index of the last non-zero count (-1 if none) and the largest count. */
static int hist_scan(const unsigned long long *vals, int vals_size,
		     unsigned long long *val_max)
{
	int i, idx_max = -1;

	if (vals_size > SS_HIST_MAX_SLOTS)
		vals_size = SS_HIST_MAX_SLOTS;
	*val_max = 0;
	for (i = 0; i < vals_size; i++) {
		if (vals[i] > 0)
			idx_max = i;
		if (vals[i] > *val_max)
			*val_max = vals[i];
	}
	return idx_max;
}

void ss_print_log2_hist(FILE *f, const unsigned long long *vals, int vals_size,
			const char *val_type)
{
	unsigned long long low, high, val_max;
	int idx_max, narrow, width, stars, i;

	idx_max = hist_scan(vals, vals_size, &val_max);
	if (idx_max < 0)
		return;

	narrow = idx_max <= 32;
	width = narrow ? 10 : 20;
	stars = narrow ? 40 : 20;
	fprintf(f, "%*s%-*s : count    distribution\n", narrow ? 5 : 15, "",
		narrow ? 19 : 29, val_type ? val_type : "");

	for (i = 0; i <= idx_max; i++) {
		slot_bounds(i, &low, &high);
		fprintf(f, "%*llu -> %-*llu : %-8llu |", width, low, width,
			high, vals[i]);
		ss_print_stars(f, vals[i], val_max, stars);
		fputs("|\n", f);
	}
}
