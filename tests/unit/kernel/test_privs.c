// SPDX-License-Identifier: GPL-2.0
/* test_privs.c - src/kernel/privs.c: which capabilities are reported missing. */
#include <criterion/criterion.h>

#include "privs.h"

#define BIT(n) (1ULL << (n))

static const char *missing(uint64_t eff, int last, bool readable)
{
	static char buf[128];

	ss_caps_missing(eff, last, readable, buf, sizeof(buf));
	return buf;
}

Test(privs, bpf_perfmon_dac_is_enough)
{
	cr_assert_str_eq(missing(BIT(SS_CAP_BPF) | BIT(SS_CAP_PERFMON) |
					 BIT(SS_CAP_DAC_READ_SEARCH),
				 40, false),
			 "");
}

Test(privs, each_missing_one_is_named)
{
	cr_assert_str_eq(missing(BIT(SS_CAP_PERFMON), 40, true), "CAP_BPF");
	cr_assert_str_eq(missing(BIT(SS_CAP_BPF), 40, true), "CAP_PERFMON");
	cr_assert_str_eq(
		missing(BIT(SS_CAP_BPF) | BIT(SS_CAP_PERFMON), 40, false),
		"CAP_DAC_READ_SEARCH");
	cr_assert_str_eq(missing(0, 40, false),
			 "CAP_BPF and CAP_PERFMON and CAP_DAC_READ_SEARCH");
}

Test(privs, sys_admin_stands_in_for_bpf_and_perfmon)
{
	cr_assert_str_eq(missing(BIT(SS_CAP_SYS_ADMIN), 40, true), "");
}

Test(privs, old_kernel_needs_sys_admin)
{
	cr_assert_str_eq(
		missing(BIT(SS_CAP_BPF) | BIT(SS_CAP_PERFMON), 37, true),
		"CAP_SYS_ADMIN");
	cr_assert_str_eq(missing(BIT(SS_CAP_SYS_ADMIN), 37, true), "");
}

Test(privs, count_is_returned)
{
	char buf[128];

	cr_assert_eq(ss_caps_missing(0, 40, false, buf, sizeof(buf)), 3);
	cr_assert_eq(ss_caps_missing(~0ULL, 40, false, buf, sizeof(buf)), 0);
}
