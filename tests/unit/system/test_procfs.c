// SPDX-License-Identifier: GPL-2.0
/*
 * test_procfs.c - src/system/procfs.c: -p / -t validation against a fake proc root
 * built in a temporary directory (PID/status files only, the fields the
 * checks read: State, Tgid, Pid).
 */
#define _GNU_SOURCE /* nftw */
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs.h"

static char root[64];

/* Write ROOT/id/status the way the kernel lays it out. */
static void task(uint32_t id, uint32_t tgid, const char *state)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u", root, id);
	cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/%u/status", root, id);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f,
		"Name:\tworker\nUmask:\t0022\nState:\t%s\nTgid:\t%u\n"
		"Ngid:\t0\nPid:\t%u\nPPid:\t1\nTracerPid:\t0\n"
		"voluntary_ctxt_switches:\t7\n",
		state, tgid, id);
	fclose(f);
}

/* Write ROOT/tgid/task/id/status: the process's thread list. */
static void thread_of(uint32_t tgid, uint32_t id, const char *state)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u/task", root, tgid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%u/task/%u", root, tgid, id);
	cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/%u/task/%u/status", root, tgid, id);
	f = fopen(path, "w");
	cr_assert(f);
	fprintf(f, "Name:\tworker\nState:\t%s\nTgid:\t%u\nPid:\t%u\n", state,
		tgid, id);
	fclose(f);
}

/*
 * 100: live process, threads 101 (live), 102 (zombie thread)
 * 200: live process; 201 its thread
 * 300: zombie process; 400: dead (X) process
 * 700: zombie leader whose thread 701 runs (PROC/700/task lists both)
 * 800: zombie leader whose only other thread 801 is a zombie too
 */
static void setup(void)
{
	strcpy(root, "/tmp/ss_procfs_XXXXXX");
	cr_assert(mkdtemp(root));
	task(100, 100, "S (sleeping)");
	task(101, 100, "R (running)");
	task(102, 100, "Z (zombie)");
	task(200, 200, "D (disk sleep)");
	task(201, 200, "S (sleeping)");
	task(300, 300, "Z (zombie)");
	task(400, 400, "X (dead)");
	task(700, 700, "Z (zombie)");
	task(701, 700, "R (running)");
	thread_of(700, 700, "Z (zombie)");
	thread_of(700, 701, "R (running)");
	task(800, 800, "Z (zombie)");
	task(801, 800, "Z (zombie)");
	thread_of(800, 800, "Z (zombie)");
	thread_of(800, 801, "Z (zombie)");
}

static int rm(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(p);
}

static void teardown(void)
{
	nftw(root, rm, 8, FTW_DEPTH | FTW_PHYS);
}

TestSuite(procfs, .init = setup, .fini = teardown);

/* ss_check_target must succeed and leave err alone. */
static void ok(uint32_t pid, uint32_t tid)
{
	char err[128] = "untouched";

	cr_expect_eq(ss_check_target(root, pid, tid, err, sizeof(err)), 0,
		     "-p %u -t %u rejected: %s", pid, tid, err);
	cr_expect_str_eq(err, "untouched");
}

/* ss_check_target must fail with exactly msg. */
static void fails(uint32_t pid, uint32_t tid, const char *msg)
{
	char err[128] = "";

	cr_expect_eq(ss_check_target(root, pid, tid, err, sizeof(err)), -1,
		     "-p %u -t %u accepted", pid, tid);
	cr_expect_str_eq(err, msg, "-p %u -t %u", pid, tid);
}

Test(procfs, no_target_is_fine)
{
	ok(0, 0);
}

Test(procfs, pid)
{
	ok(100, 0);
	ok(200, 0); /* D is alive */
	fails(101, 0, "101 is a thread of process 100: use -p 100, or -t 101");
	fails(300, 0, "process 300 has exited (zombie)");
	fails(400, 0, "process 400 has exited (zombie)");
	fails(999, 0, "no such process: 999");
	ok(700, 0); /* zombie leader, a thread alive: the process is */
	fails(800, 0, "process 800 has exited (zombie)");
}

Test(procfs, process_alive)
{
	cr_expect(ss_process_alive(root, 100));
	cr_expect(ss_process_alive(root, 700));
	cr_expect(!ss_process_alive(root, 300));
	cr_expect(!ss_process_alive(root, 800));
	cr_expect(!ss_process_alive(root, 999));
}

Test(procfs, tid)
{
	ok(0, 100); /* a main thread is a thread */
	ok(0, 101);
	ok(0, 201);
	fails(0, 102, "thread 102 has exited (zombie)");
	fails(0, 300, "thread 300 has exited (zombie)");
	fails(0, 999, "no such thread: 999");
}

Test(procfs, pid_and_tid)
{
	ok(100, 101);
	ok(100, 100);
	ok(200, 201);
	ok(700, 701);
	fails(700, 700, "thread 700 has exited (zombie)");
	fails(100, 201, "thread 201 belongs to process 200, not 100");
	fails(200, 101, "thread 101 belongs to process 100, not 200");
	fails(100, 102, "thread 102 has exited (zombie)");
	fails(100, 999, "no such thread: 999");
	/* the process is checked first */
	fails(999, 101, "no such process: 999");
	fails(101, 101,
	      "101 is a thread of process 100: use -p 100, or -t 101");
	fails(300, 300, "process 300 has exited (zombie)");
}

Test(procfs, status_field)
{
	uint64_t v = 0;

	cr_expect_eq(ss_status_field(root, 101, "Tgid", &v), 0);
	cr_expect_eq(v, 100);
	cr_expect_eq(ss_status_field(root, 101, "Pid", &v), 0);
	cr_expect_eq(v, 101, "Pid must not match PPid or TracerPid");
	cr_expect_eq(ss_status_field(root, 101, "PPid", &v), 0);
	cr_expect_eq(v, 1);
	cr_expect_eq(ss_status_field(root, 101, "voluntary_ctxt_switches", &v),
		     0);
	cr_expect_eq(v, 7);
	v = 42;
	cr_expect_eq(ss_status_field(root, 101, "Tgi", &v), -1,
		     "a prefix is not a field");
	cr_expect_eq(ss_status_field(root, 101, "Missing", &v), -1);
	cr_expect_eq(ss_status_field(root, 999, "Tgid", &v), -1);
	cr_expect_eq(v, 42);
}

/* Missing or truncated files: "no such", not a crash or a wrong verdict. */
Test(procfs, status_without_fields)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/500", root);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/500/status", root);
	f = fopen(path, "w");
	cr_assert(f);
	fputs("Name:\tx\nTgid:\t500\n", f); /* no State: */
	fclose(f);
	fails(500, 0, "no such process: 500");
	fails(0, 500, "no such thread: 500");
	snprintf(path, sizeof(path), "%s/600", root);
	cr_assert_eq(mkdir(path, 0755), 0); /* no status at all */
	fails(600, 0, "no such process: 600");
}

/* A short buffer truncates the message, never overflows. */
Test(procfs, short_err_buffer)
{
	char err[8];

	memset(err, 'x', sizeof(err));
	cr_expect_eq(ss_check_target(root, 999, 0, err, sizeof(err)), -1);
	cr_expect_str_eq(err, "no such");
}

Test(procfs_real, pid_max_and_self)
{
	uint32_t m = ss_pid_max();
	char err[128] = "";

	cr_expect_geq(m, 301);
	cr_expect_leq(m, 4194304);
	cr_expect_eq(ss_check_target("/proc", getpid(), 0, err, sizeof(err)), 0,
		     "%s", err);
}
