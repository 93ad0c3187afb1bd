// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpus.c - src/system/cpus.c: the kernel's cpu list format
 * (Documentation/admin-guide/cputopology.rst), as found in
 * /sys/devices/system/cpu/possible: count = highest CPU + 1.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>

#include "cpus.h"

#define LIST(s, want)                                                      \
	cr_expect_eq(ss_parse_cpu_list(s), want, "'%s' -> %d, want %d", s, \
		     ss_parse_cpu_list(s), want)

Test(cpus, well_formed)
{
	LIST("0", 1);
	LIST("0\n", 1);
	LIST("0-1\n", 2);
	LIST("0-3,8-11", 12);
	LIST("0-3,8-11\n", 12);
	LIST("0,2,4", 5);
	LIST("4,2,0", 5); /* highest, not last */
	LIST("7", 8);
	LIST("3-3", 4);
	LIST("0-65535", 65536);
}

Test(cpus, malformed)
{
	LIST("", -1);
	LIST("\n", -1);
	LIST("a", -1);
	LIST("3-1", -1);
	LIST("0-", -1);
	LIST("-1", -1);
	LIST("1,,2", -1);
	LIST(",1", -1);
	LIST("0-1-2", -1);
	LIST("0 1", -1);
	LIST(" 0", -1);
	LIST("0x1", -1);
	LIST("0-3,a", -1);
	LIST("65536", -1); /* beyond any per-CPU map we would size */
	LIST("0-99999999999999999999", -1);
}

/* The running system's file parses and agrees with sysconf. */
Test(cpus, possible_file)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int n = ss_possible_cpus();

	if (!f)
		cr_skip_test("no /sys/devices/system/cpu/possible");
	fclose(f);
	cr_expect_geq(n, 1);
	cr_expect_geq(n, sysconf(_SC_NPROCESSORS_ONLN));
}
