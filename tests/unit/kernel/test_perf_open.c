// SPDX-License-Identifier: GPL-2.0
/* Unit tests for src/kernel/perf_open.c: attrs, CPU masks and open errors. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "cpus.h"
#include "perf_open.h"

static struct ss_event ev_of(const char *name)
{
	struct ss_event ev[1];

	cr_assert_eq(ss_events_parse(name, ev, 1, NULL, 0), 1, "%s", name);
	return ev[0];
}

Test(perf_attr, counting_with_both_times)
{
	struct ss_event ev = ev_of("page-faults");
	struct perf_event_attr a;

	memset(&a, 0xff, sizeof(a));
	ss_perf_attr(&ev, &a);
	cr_assert_eq(a.size, sizeof(a));
	cr_assert_eq(a.type, PERF_TYPE_SOFTWARE);
	cr_assert_eq(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(a.read_format, PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING);
	cr_assert_eq(a.sample_period, 0, "counting, not sampling");
	cr_assert_eq(a.disabled, 0, "must count from the open on");
	cr_assert_eq(a.inherit, 0);
	cr_assert_eq(a.exclude_kernel, 0);
}

Test(perf_attr, raw_event_keeps_config)
{
	struct ss_event ev = ev_of("r01c2");
	struct perf_event_attr a;

	ss_perf_attr(&ev, &a);
	cr_assert_eq(a.type, PERF_TYPE_RAW);
	cr_assert_eq(a.config, 0x1c2);
}

static void mask_is(const char *s, int ncpus, const char *want)
{
	bool m[64];

	cr_assert_eq(ss_parse_cpu_mask(s, m, ncpus), 0, "\"%s\"", s);
	for (int c = 0; c < ncpus; c++)
		cr_assert_eq(m[c], want[c] == '1', "\"%s\" cpu %d", s, c);
}

Test(cpu_mask, lists_and_ranges)
{
	mask_is("0\n", 4, "1000");
	mask_is("0-3\n", 4, "1111");
	mask_is("0,2\n", 4, "1010");
	mask_is("1-2,5\n", 8, "01100100");
	mask_is("0-1,3-4", 6, "110110");
	/* CPUs beyond the possible range are ignored */
	mask_is("0-63", 3, "111");
	mask_is("2", 2, "00");
}

Test(cpu_mask, malformed)
{
	static const char *const bad[] = { "",	  "\n",	  "a",	 "0-",	"-1",
					   "3-1", "0,,1", "0 1", "0-2x" };
	bool m[8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(ss_parse_cpu_mask(bad[i], m, 8), -1, "\"%s\"",
			     bad[i]);
	cr_assert_eq(ss_parse_cpu_mask(NULL, m, 8), -1);
}

Test(classify, offline_and_enodev_skip_the_cpu)
{
	struct ss_event hw = ev_of("cycles"), sw = ev_of("cpu-clock");

	cr_assert_eq(ss_perf_classify(ENODEV, &hw, true), SS_OPEN_SKIP_CPU);
	cr_assert_eq(ss_perf_classify(ENODEV, &sw, true), SS_OPEN_SKIP_CPU);
	cr_assert_eq(ss_perf_classify(EINVAL, &sw, false), SS_OPEN_SKIP_CPU);
	cr_assert_eq(ss_perf_classify(ENOENT, &hw, false), SS_OPEN_SKIP_CPU);
}

Test(classify, no_pmu)
{
	struct ss_event hw = ev_of("cycles"), raw = ev_of("r3c"),
			cache = ev_of("LLC-loads"), sw = ev_of("cpu-clock");

	cr_assert_eq(ss_perf_classify(ENOENT, &hw, true), SS_OPEN_NO_PMU);
	cr_assert_eq(ss_perf_classify(EOPNOTSUPP, &hw, true), SS_OPEN_NO_PMU);
	cr_assert_eq(ss_perf_classify(EINVAL, &raw, true), SS_OPEN_NO_PMU);
	cr_assert_eq(ss_perf_classify(ENOENT, &cache, true), SS_OPEN_NO_PMU);
	/* a software event with EINVAL is a real failure, not "no PMU" */
	cr_assert_eq(ss_perf_classify(EINVAL, &sw, true), SS_OPEN_FAILED);
}

Test(classify, other_errors_fail)
{
	struct ss_event hw = ev_of("cycles");

	cr_assert_eq(ss_perf_classify(EACCES, &hw, true), SS_OPEN_FAILED);
	cr_assert_eq(ss_perf_classify(EMFILE, &hw, true), SS_OPEN_FAILED);
	cr_assert_eq(ss_perf_classify(EBUSY, &hw, true), SS_OPEN_FAILED);
}

Test(why, says_what_to_do)
{
	struct ss_event hw = ev_of("cycles"), sw = ev_of("page-faults");

	cr_assert(strstr(ss_perf_why(ENOENT, &hw), "PMU"));
	cr_assert(strstr(ss_perf_why(EMFILE, &sw), "ulimit"));
	cr_assert(strstr(ss_perf_why(EACCES, &sw), "perf_event_paranoid"));
	cr_assert_null(strstr(ss_perf_why(EINVAL, &sw), "PMU"));
	cr_assert_not_null(ss_perf_why(12345, &sw));
}
