// SPDX-License-Identifier: GPL-2.0
/* Unit tests for src/output/hist.c (log2 slots and text histograms). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "hist.h"

/*
 * Reference slot function: log2()/log2l() from bcc libbpf-tools/bits.bpf.h,
 * i.e. what the BPF side computes (bcc's bpf_log2l() is this + 1).
 */
static unsigned int ref_log2(unsigned int v)
{
	unsigned int shift, r;

	r = (v > 0xFFFF) << 4;
	v >>= r;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

static unsigned int ref_log2l(unsigned long long v)
{
	unsigned int hi = v >> 32;

	return hi ? ref_log2(hi) + 32 : ref_log2(v);
}

/* Output of ss_print_log2_hist() as a malloc'ed string. */
static char *hist_text(const unsigned long long *vals, int n, const char *vt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_print_log2_hist(f, vals, n, vt);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

static char *stars_text(unsigned long long val, unsigned long long max,
			int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	ss_print_stars(f, val, max, width);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* Last @n lines of @s (pointer into @s). */
static const char *last_lines(const char *s, int n)
{
	const char *p = s + strlen(s);

	if (p > s && p[-1] == '\n')
		p--;
	while (p > s) {
		if (p[-1] == '\n' && --n == 0)
			break;
		p--;
	}
	return p;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(ss_log2_slot, small_values)
{
	static const unsigned int max_slots[] = { 27, 64 };
	unsigned int i, m;

	for (i = 0; i < 2; i++) {
		m = max_slots[i];
		cr_expect_eq(ss_log2_slot(0, m), 0);
		cr_expect_eq(ss_log2_slot(1, m), 0);
		cr_expect_eq(ss_log2_slot(2, m), 1);
		cr_expect_eq(ss_log2_slot(3, m), 1);
		cr_expect_eq(ss_log2_slot(4, m), 2);
		cr_expect_eq(ss_log2_slot(1023, m), 9);
		cr_expect_eq(ss_log2_slot(1024, m), 10);
	}
}

Test(ss_log2_slot, large_values_and_clamp)
{
	cr_expect_eq(ss_log2_slot(1ULL << 40, 64), 40);
	cr_expect_eq(ss_log2_slot(1ULL << 40, 27), 26);
	cr_expect_eq(ss_log2_slot(ULLONG_MAX, 64), 63);
	cr_expect_eq(ss_log2_slot(ULLONG_MAX, 27), 26);
	cr_expect_eq(ss_log2_slot((1ULL << 26) - 1, 27), 25);
	cr_expect_eq(ss_log2_slot(1ULL << 26, 27), 26);
}

Test(ss_log2_slot, degenerate_max_slots)
{
	cr_expect_eq(ss_log2_slot(12345, 1), 0);
	cr_expect_eq(ss_log2_slot(12345, 0), 0);
	cr_expect_eq(ss_log2_slot(ULLONG_MAX, 0), 0);
}

Test(ss_log2_slot, matches_libbpf_tools_log2l)
{
	unsigned long long v;
	int k, d;

	for (k = 0; k < 64; k++) {
		for (d = -1; d <= 1; d++) {
			v = (1ULL << k) + (unsigned long long)d;
			cr_expect_eq(ss_log2_slot(v, 64), ref_log2l(v),
				     "v=%llu", v);
		}
	}
}

Test(print_log2_hist, small)
{
	static const unsigned long long vals[] = { 1, 2, 4, 8, 16 };
	char *out = hist_text(vals, 5, "usecs");

	/* clang-format off */
	cr_expect_str_eq(out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 1        |**                                      |\n"
		"         2 -> 3          : 2        |*****                                   |\n"
		"         4 -> 7          : 4        |**********                              |\n"
		"         8 -> 15         : 8        |********************                    |\n"
		"        16 -> 31         : 16       |****************************************|\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, empty_middle_bucket_and_trailing_trim)
{
	static const unsigned long long vals[] = { 3, 0, 1, 0, 0 };
	char *out = hist_text(vals, 5, "msecs");

	/* clang-format off */
	cr_expect_str_eq(out,
		"     msecs               : count    distribution\n"
		"         0 -> 1          : 3        |****************************************|\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 1        |*************                           |\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, leading_empty_buckets_kept)
{
	static const unsigned long long vals[] = { 0, 0, 7 };
	char *out = hist_text(vals, 3, "usecs");

	/* clang-format off */
	cr_expect_str_eq(out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 7        |****************************************|\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, all_zero_prints_nothing)
{
	static const unsigned long long vals[27];
	char *out = hist_text(vals, 27, "usecs");

	cr_expect_str_eq(out, "");
	free(out);
	out = hist_text(vals, 0, "usecs");
	cr_expect_str_eq(out, "");
	free(out);
}

Test(print_log2_hist, narrow_up_to_idx_max_32)
{
	unsigned long long vals[64] = { 0 };
	char *out;

	vals[32] = 1;
	out = hist_text(vals, 64, "usecs");
	cr_expect_eq(count_lines(out), 34);
	cr_expect_eq(
		strncmp(out,
			"     usecs               : count    distribution\n",
			49),
		0, "header: %.60s", out);
	/* clang-format off */
	cr_expect_str_eq(last_lines(out, 1),
		"4294967296 -> 8589934591 : 1        |****************************************|\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, wide_when_idx_max_over_32)
{
	unsigned long long vals[64] = { 0 };
	char *out;

	vals[0] = 2;
	vals[33] = 1;
	out = hist_text(vals, 64, "nsecs");
	/* clang-format off */
	cr_expect_str_eq(out,
		"               nsecs                         : count    distribution\n"
		"                   0 -> 1                    : 2        |********************|\n"
		"                   2 -> 3                    : 0        |                    |\n"
		"                   4 -> 7                    : 0        |                    |\n"
		"                   8 -> 15                   : 0        |                    |\n"
		"                  16 -> 31                   : 0        |                    |\n"
		"                  32 -> 63                   : 0        |                    |\n"
		"                  64 -> 127                  : 0        |                    |\n"
		"                 128 -> 255                  : 0        |                    |\n"
		"                 256 -> 511                  : 0        |                    |\n"
		"                 512 -> 1023                 : 0        |                    |\n"
		"                1024 -> 2047                 : 0        |                    |\n"
		"                2048 -> 4095                 : 0        |                    |\n"
		"                4096 -> 8191                 : 0        |                    |\n"
		"                8192 -> 16383                : 0        |                    |\n"
		"               16384 -> 32767                : 0        |                    |\n"
		"               32768 -> 65535                : 0        |                    |\n"
		"               65536 -> 131071               : 0        |                    |\n"
		"              131072 -> 262143               : 0        |                    |\n"
		"              262144 -> 524287               : 0        |                    |\n"
		"              524288 -> 1048575              : 0        |                    |\n"
		"             1048576 -> 2097151              : 0        |                    |\n"
		"             2097152 -> 4194303              : 0        |                    |\n"
		"             4194304 -> 8388607              : 0        |                    |\n"
		"             8388608 -> 16777215             : 0        |                    |\n"
		"            16777216 -> 33554431             : 0        |                    |\n"
		"            33554432 -> 67108863             : 0        |                    |\n"
		"            67108864 -> 134217727            : 0        |                    |\n"
		"           134217728 -> 268435455            : 0        |                    |\n"
		"           268435456 -> 536870911            : 0        |                    |\n"
		"           536870912 -> 1073741823           : 0        |                    |\n"
		"          1073741824 -> 2147483647           : 0        |                    |\n"
		"          2147483648 -> 4294967295           : 0        |                    |\n"
		"          4294967296 -> 8589934591           : 0        |                    |\n"
		"          8589934592 -> 17179869183          : 1        |**********          |\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, wide_top_slot_63)
{
	unsigned long long vals[64] = { 0 };
	char *out;

	vals[62] = 10;
	vals[63] = 5;
	out = hist_text(vals, 64, "x");
	cr_expect_eq(count_lines(out), 65);
	/* clang-format off */
	cr_expect_str_eq(last_lines(out, 2),
		" 4611686018427387904 -> 9223372036854775807  : 10       |********************|\n"
		" 9223372036854775808 -> 18446744073709551615 : 5        |**********          |\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, counts_are_64bit)
{
	static const unsigned long long vals[] = { ULLONG_MAX, ULLONG_MAX / 2,
						   1 };
	char *out = hist_text(vals, 3, "usecs");

	/* %-8llu never truncates; bar scaling must not overflow */
	/* clang-format off */
	cr_expect_str_eq(out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 18446744073709551615 |****************************************|\n"
		"         2 -> 3          : 9223372036854775807 |*******************                     |\n"
		"         4 -> 7          : 1        |                                        |\n");
	/* clang-format on */
	free(out);
}

Test(print_log2_hist, slots_past_64_ignored)
{
	unsigned long long vals[70] = { 0 };
	char *out;

	vals[0] = 1;
	vals[66] = 1;
	out = hist_text(vals, 70, "usecs");
	/* clang-format off */
	cr_expect_str_eq(out,
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 1        |****************************************|\n");
	/* clang-format on */
	free(out);
}

Test(ss_print_stars, plus_marks_val_over_max)
{
	char *out = stars_text(5, 4, 10);

	cr_expect_str_eq(out, "**********+");
	free(out);
	out = stars_text(4, 4, 10);
	cr_expect_str_eq(out, "**********");
	free(out);
}

Test(ss_print_stars, partial_and_empty_bars)
{
	char *out = stars_text(2, 4, 10);

	cr_expect_str_eq(out, "*****     ");
	free(out);
	out = stars_text(3, 4, 10); /* 7.5 stars round down */
	cr_expect_str_eq(out, "*******   ");
	free(out);
	out = stars_text(0, 4, 10);
	cr_expect_str_eq(out, "          ");
	free(out);
	out = stars_text(0, 0, 4); /* no division by zero */
	cr_expect_str_eq(out, "    ");
	free(out);
}
