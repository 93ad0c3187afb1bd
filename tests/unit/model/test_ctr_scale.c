// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for probes/ctr_scale.h, the BPF side's multiplex scaling
 * (64-bit only), against the host's exact ss_counter_scale() (src/model/events.c).
 * The machine the integration tests run on has no PMU, so multiplexing
 * never happens there: this is where the arithmetic is checked.
 */
#include <criterion/criterion.h>
#include <linux/types.h>
#include <stdint.h>

#include "events.h"
#include "probes/ctr_scale.h"

static uint64_t exact(uint64_t d, uint64_t de, uint64_t dr)
{
	bool scaled;

	return ss_counter_scale(d, de, dr, &scaled);
}

Test(ctr_scale, matches_counter_scale_below_2_32_ns)
{
	static const uint64_t c[][3] = {
		{ 1000, 2000, 1000 }, /* half the time: doubled */
		{ 1000, 3000, 1000 },
		{ 7, 3, 2 }, /* floor(10.5) */
		{ 1, 1000000, 999999 },
		{ 123456789, 999999999, 333333333 },
		{ 0, 1000, 10 },
		{ 1, 2, 1 },
		/* a long busy slice: 4 s of 5 GHz cycles, on the PMU 1/3 */
		{ 20000000000ULL, 4000000000ULL, 1333333333ULL },
		/* huge count, tiny remainder products stay below 2^64 */
		{ UINT64_MAX / 8, 4294967295ULL, 4294967294ULL },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		cr_assert_eq(ss_ctr_scale(c[i][0], c[i][1], c[i][2]),
			     exact(c[i][0], c[i][1], c[i][2]),
			     "d %llu de %llu dr %llu",
			     (unsigned long long)c[i][0],
			     (unsigned long long)c[i][1],
			     (unsigned long long)c[i][2]);
}

Test(ctr_scale, random_agreement)
{
	uint64_t x = 88172645463325252ULL; /* xorshift64 */

	for (int i = 0; i < 100000; i++) {
		uint64_t d, de, dr;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		d = x >> (x & 31); /* up to 2^63 */
		de = 1 + (x >> 33); /* below 2^31 */
		dr = (x % de); /* dr < de: multiplexed */
		if (exact(d, de, dr) == UINT64_MAX)
			continue; /* saturated on the host */
		cr_assert_eq(ss_ctr_scale(d, de, dr), exact(d, de, dr),
			     "d %llu de %llu dr %llu", (unsigned long long)d,
			     (unsigned long long)de, (unsigned long long)dr);
	}
}

Test(ctr_scale, never_ran_is_zero)
{
	cr_assert_eq(ss_ctr_scale(12345, 1000, 0), 0);
	cr_assert_eq(ss_ctr_scale(12345, 1ULL << 40, 1000), 0,
		     "below one 2^20 ns unit of running time");
}

Test(ctr_scale, long_spans_keep_the_ratio)
{
	/* 100 s enabled, 25 s running: x4 within the 1 ms time units */
	uint64_t d = 1000000000ULL, de = 100000000000ULL, dr = 25000000000ULL;
	uint64_t got = ss_ctr_scale(d, de, dr), want = exact(d, de, dr);
	double err = (double)(got > want ? got - want : want - got) / want;

	cr_assert_lt(err, 1e-4, "got %llu want %llu", (unsigned long long)got,
		     (unsigned long long)want);
}
