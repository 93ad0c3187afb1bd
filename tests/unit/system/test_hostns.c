// SPDX-License-Identifier: GPL-2.0
/* test_hostns.c - src/system/hostns.c: which runs a foreign pid namespace refuses. */
#include <criterion/criterion.h>
#include <string.h>

#include "hostns.h"

static int check(struct ss_opts o, bool host)
{
	char err[512] = "";

	return ss_check_pidns(&o, host, err, sizeof(err));
}

Test(hostns, host_allows_everything)
{
	cr_assert_eq(check((struct ss_opts){ .pid = 5, .trace = true }, true),
		     0);
	cr_assert_eq(check((struct ss_opts){ 0 }, true), 0);
}

Test(hostns, foreign_allows_cgroup_rows_only)
{
	cr_assert_eq(check((struct ss_opts){ .per_cgroup = true }, false), 0);
	cr_assert_eq(
		check((struct ss_opts){ .per_cgroup = true, .memory = true },
		      false),
		0);
	cr_assert_eq(check((struct ss_opts){ 0 }, false), -1);
	cr_assert_eq(
		check((struct ss_opts){ .per_cgroup = true, .pid = 3 }, false),
		-1);
	cr_assert_eq(
		check((struct ss_opts){ .per_cgroup = true, .tid = 3 }, false),
		-1);
	cr_assert_eq(
		check((struct ss_opts){ .per_cgroup = true, .trace = true },
		      false),
		-1);
	cr_assert_eq(check((struct ss_opts){ .per_cgroup = true,
					     .hist = 1,
					     .hist_per_process = true },
			   false),
		     -1);
}

Test(hostns, message_says_what_to_do)
{
	struct ss_opts o = { 0 };
	char err[512];

	cr_assert_eq(ss_check_pidns(&o, false, err, sizeof(err)), -1);
	cr_assert(strstr(err, "--pid=host"));
	cr_assert(strstr(err, "hostPID"));
}

Test(hostns, this_test_runs_in_some_namespace)
{
	/* a missing file counts as the host's */
	cr_assert(ss_in_host_pidns("/nonexistent/ns/pid"));
}
