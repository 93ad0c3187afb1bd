// SPDX-License-Identifier: GPL-2.0
/* test_timens.c - src/system/timens.c: parsing /proc/self/timens_offsets. */
#include <criterion/criterion.h>

#include "timens.h"

Test(timens, monotonic_line)
{
	int64_t off = 1;

	cr_assert_eq(ss_timens_parse("monotonic      100000         0\n"
				     "boottime            0         0\n",
				     &off),
		     0);
	cr_assert_eq(off, 100000000000000LL);
}

Test(timens, after_boottime_and_negative)
{
	int64_t off;

	cr_assert_eq(ss_timens_parse("boottime 5 0\nmonotonic -2 500\n", &off),
		     0);
	cr_assert_eq(off, -2000000000LL + 500);
}

Test(timens, absent_is_zero)
{
	int64_t off = 7;

	cr_assert_eq(ss_timens_parse("boottime 1 0\n", &off), 0);
	cr_assert_eq(off, 0);
	cr_assert_eq(ss_timens_parse("", &off), 0);
	cr_assert_eq(off, 0);
}

Test(timens, malformed)
{
	int64_t off;

	cr_assert_eq(ss_timens_parse("monotonic x y\n", &off), -1);
	cr_assert_eq(ss_timens_parse("monotonic 1 1000000000\n", &off), -1);
}
