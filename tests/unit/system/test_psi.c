// SPDX-License-Identifier: GPL-2.0
/*
 * test_psi.c - src/system/psi.c: the `some` total of a PSI file's text,
 * a read from a fake cgroupfs, and the interval share from two reads.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "psi.h"

Test(psi, parse_some)
{
	uint64_t us = 0;

	cr_assert_eq(ss_psi_parse_some("some avg10=1.00 avg60=0.50 "
				       "avg300=0.10 total=123456\n"
				       "full avg10=0.00 avg60=0.00 "
				       "avg300=0.00 total=7\n",
				       &us),
		     0);
	cr_assert_eq(us, 123456);
	cr_assert_eq(ss_psi_parse_some("full avg10=0.00 total=7\n"
				       "some avg10=0.00 total=9\n",
				       &us),
		     0);
	cr_assert_eq(us, 9);
	cr_assert_eq(ss_psi_parse_some("full avg10=0.00 total=7\n", &us),
		     -EINVAL);
	cr_assert_eq(ss_psi_parse_some("some avg10=0.00\nfull total=3\n", &us),
		     -EINVAL, "total= of another line");
	cr_assert_eq(ss_psi_parse_some("", &us), -EINVAL);
}

Test(psi, read_from_cgroupfs)
{
	char dir[] = "/tmp/ss-psi-XXXXXX", path[128];
	uint64_t us = 0;
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/web", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/web/cpu.pressure", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n");
	fclose(f);
	cr_assert_eq(ss_psi_read_cpu_some(dir, "/web", &us), 0);
	cr_assert_eq(us, 42);
	cr_assert_eq(ss_psi_read_cpu_some(dir, "/gone", &us), -ENOENT);
	unlink(path);
	snprintf(path, sizeof(path), "%s/web", dir);
	rmdir(path);
	rmdir(dir);
}

Test(psi, share_from_two_reads)
{
	struct ss_psi_cache c = { 0 };
	struct ss_psi_ent *e;

	e = ss_psi_note(&c, 7, 1, 1000, 1000000000ULL);
	cr_assert(e && !e->have_pct, "first read: no share");
	/* 250 ms of 1 s waited */
	e = ss_psi_note(&c, 7, 2, 251000, 2000000000ULL);
	cr_assert(e->have_pct);
	cr_assert_float_eq(e->pct, 25.0, 1e-9);
	cr_assert_eq(e->at, 2);
	/* another cgroup does not disturb it */
	e = ss_psi_note(&c, 8, 2, 5, 2000000000ULL);
	cr_assert(!e->have_pct);
	cr_assert_float_eq(ss_psi_find(&c, 7)->pct, 25.0, 1e-9);
	/* a total that went back: a new cgroup with the id, no share */
	e = ss_psi_note(&c, 7, 3, 10, 3000000000ULL);
	cr_assert(!e->have_pct);
	cr_assert_null(ss_psi_find(&c, 9));
	ss_psi_free(&c);
}
